package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/persontest"
	"github.com/njetlan/njet/ui/reach"
)

// uiQueue is the UI goroutine of a LAN test app: Env.Do queues the
// functions, and the test runs them on its own goroutine, in order, as
// fyne.Do runs them on the app's goroutine (the test driver would run them
// at once on whichever goroutine calls, and the work of the table's
// goroutines would then race with the test's own and with each other).
type uiQueue struct {
	mu   sync.Mutex
	fs   []func()
	more chan struct{} // a function was queued
}

func newUIQueue() *uiQueue { return &uiQueue{more: make(chan struct{}, 1)} }

func (q *uiQueue) do(f func()) {
	q.mu.Lock()
	q.fs = append(q.fs, f)
	q.mu.Unlock()
	select {
	case q.more <- struct{}{}:
	default:
	}
}

// run runs what is queued, and what that queues, until the queue is empty.
func (q *uiQueue) run() {
	for range 100000 {
		q.mu.Lock()
		if len(q.fs) == 0 {
			q.mu.Unlock()
			return
		}
		f := q.fs[0]
		q.fs = q.fs[1:]
		q.mu.Unlock()
		f()
	}
}

// until runs the queued functions as they come until cond holds, for at
// most a minute.
func (q *uiQueue) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		q.run()
		if cond() {
			return
		}
		select {
		case <-q.more:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// idle runs the queued functions as they come for d.
func (q *uiQueue) idle(d time.Duration) {
	end := time.After(d)
	for {
		q.run()
		select {
		case <-q.more:
		case <-end:
			q.run()
			return
		}
	}
}

// testUI is the UI goroutine of an app made by newLANTestApp.
func testUI(u *App) *uiQueue { return u.env.LAN.(*fakeLAN).ui }

// closed reports whether ch is closed (or holds a value, which it takes).
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// fakeLAN scripts the network: the lists Watch reports, the lobby news.
type fakeLAN struct {
	lists chan []LANTableAd
	seen  chan struct{} // one per list shown
	news  chan LobbyNews
	shown chan struct{} // one per news shown
	ui    *uiQueue      // the test app's UI goroutine
	// offline is how many more times Watch finds the device on no
	// network.
	offline atomic.Int32
}

// saw waits until Watch reported the last list, and shows it.
func (f *fakeLAN) saw() {
	<-f.seen
	f.ui.run()
}

// told waits until the lobby heard the last news, and shows it.
func (f *fakeLAN) told() {
	<-f.shown
	f.ui.run()
}

func newFakeLAN() *fakeLAN {
	return &fakeLAN{lists: make(chan []LANTableAd), seen: make(chan struct{}), news: make(chan LobbyNews), shown: make(chan struct{})}
}

func (f *fakeLAN) Watch(ctx context.Context, found func([]LANTableAd)) error {
	if f.offline.Add(-1) >= 0 {
		return fmt.Errorf("%w: mDNS: no interface", ErrNoNetwork)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case l := <-f.lists:
			found(l)
			f.seen <- struct{}{}
		}
	}
}

func (f *fakeLAN) lobby(ctx context.Context, news func(LobbyNews)) (LANTable, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case n := <-f.news:
			news(n)
			f.shown <- struct{}{}
		}
	}
}

func (f *fakeLAN) Host(ctx context.Context, _ LANHostConfig, news func(LobbyNews)) (LANTable, error) {
	return f.lobby(ctx, news)
}

func (f *fakeLAN) Join(ctx context.Context, _ JoinTo, _ string, news func(LobbyNews)) (LANTable, error) {
	return f.lobby(ctx, news)
}

func (f *fakeLAN) CheckCode(code string) error {
	if len(strings.ReplaceAll(code, "-", "")) != 18 {
		return errors.New("a code has 18 letters")
	}
	return nil
}

func (f *fakeLAN) Resume() (LANTable, error) { return nil, nil }

func (f *fakeLAN) Strengths() []BotStrength { return []BotStrength{BotEasy, BotNormal} }

// fakeControl records what the host does in its lobby.
type fakeControl struct {
	bots    [][]BotStrength
	started chan struct{}
}

func (c *fakeControl) SetBots(bots []BotStrength) error {
	c.bots = append(c.bots, bots)
	return nil
}

func (c *fakeControl) Start() error {
	close(c.started)
	return nil
}

func newLANTestApp(t *testing.T, f *fakeLAN, size fyne.Size) *App {
	t.Helper()
	fa := test.NewTempApp(t)
	fa.Preferences().SetString(keyLanguage, "en")
	fa.Preferences().SetString(keyName, "Anna")
	f.ui = newUIQueue()
	u := New(fa, Env{Storage: t.TempDir(), Now: func() time.Time { return time.Unix(1e9, 0) }, LAN: f, Do: f.ui.do})
	u.Window().Resize(size)
	t.Cleanup(func() {
		u.stopAll()
		setupLang("en")
	})
	return u
}

var lanSizes = []struct {
	name string
	size fyne.Size
}{{"desktop", fyne.NewSize(1280, 800)}, {"phone", fyne.NewSize(360, 740)}}

// TestLANHomeTables: tables appear and vanish on the home screen as the
// network reports them, with names as typed and the host's name.
func TestLANHomeTables(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, sz.size)
			h := u.Top().(*Home)
			kitchen := LANTableAd{ID: "01", Name: "Küche & Co", Game: "njet", Variant: "classic", Players: 4, Free: 2, Host: "Jürgen"}
			f.lists <- []LANTableAd{kitchen}
			f.saw()
			got := h.LAN.Tables()
			if len(got) != 1 || !strings.Contains(got[0], "Küche & Co") || !strings.Contains(got[0], "Jürgen") || !strings.Contains(got[0], "2 free") {
				t.Fatalf("tables %q", got)
			}
			screenshot(t, "lan-tables-"+sz.name, u.Window())
			f.lists <- nil
			f.saw()
			if got := h.LAN.Tables(); len(got) != 0 {
				t.Fatalf("a vanished table is still listed: %q", got)
			}
		})
	}
}

// TestLANHomeNoNetwork: on a device on no network the home screen says so
// in the person's words, not in the network library's, and lists the
// tables once the network comes up, without the person doing anything.
func TestLANHomeNoNetwork(t *testing.T) {
	defer func(d time.Duration) { noNetworkRetry = d }(noNetworkRetry)
	noNetworkRetry = time.Millisecond
	f := newFakeLAN()
	f.offline.Store(2)
	u := newLANTestApp(t, f, fyne.NewSize(360, 740))
	p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
	reads := func(text string) bool { p.Settle(); return strings.Contains(p.Look().Read(""), text) }
	f.ui.until(t, "the home screen to say there is no network", func() bool { return reads("is on no network") })
	if reads("mDNS") {
		t.Fatalf("the home screen shows the network library's error:\n%s", p.Look().Describe())
	}
	screenshot(t, "lan-no-network-phone", u.Window())
	select {
	case f.lists <- []LANTableAd{{ID: "01", Name: "Küche & Co", Game: "njet", Variant: "classic", Players: 4, Free: 2}}:
	case <-time.After(time.Minute):
		t.Fatal("the home screen stopped looking for tables")
	}
	f.saw()
	if !reads("Küche & Co") || reads("on no network") {
		t.Fatalf("once the network is up the home screen shows:\n%s", p.Look().Describe())
	}
}

// TestLANJoinCode: a bad code is refused with its reason; a good one
// opens the lobby.
func TestLANJoinCode(t *testing.T) {
	f := newFakeLAN()
	u := newLANTestApp(t, f, fyne.NewSize(360, 740))
	j := NewJoinCode(u)
	u.Push(j)
	for _, c := range []struct{ code, want string }{{"", "Type the code"}, {"ABC", "18 letters"}} {
		j.Code.SetText(c.code)
		test.Tap(j.Join)
		if !j.Problem.Visible() || !strings.Contains(j.Problem.Text, c.want) {
			t.Errorf("code %q: problem %q, want %q", c.code, j.Problem.Text, c.want)
		}
		if u.Top() != j {
			t.Fatalf("code %q left the screen", c.code)
		}
	}
	j.Code.SetText("abcdef-ghijkl-mnopqr")
	test.Tap(j.Join)
	if _, ok := u.Top().(*Lobby); !ok {
		t.Fatalf("a good code did not open the lobby")
	}
}

// TestLANHostForm: the form turns into the table to host; a missing name
// is refused.
func TestLANHostForm(t *testing.T) {
	f := newFakeLAN()
	u := newLANTestApp(t, f, fyne.NewSize(1280, 800))
	h := NewHostForm(u)
	u.Push(h)
	h.Players.SetSelected("3")
	h.Bots.SetSelected("1")
	cfg, err := h.Config()
	if err != nil {
		t.Fatal(err)
	}
	want := LANHostConfig{Name: "Anna's table", Game: "njet", Variant: "classic", Players: 3, Bots: []BotStrength{BotNormal}, Player: "Anna"}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("config %+v, want %+v", cfg, want)
	}
	h.Strength.SetSelected("easy")
	h.Bots.SetSelected("2")
	if cfg, err := h.Config(); err != nil || !slices.Equal(cfg.Bots, []BotStrength{BotEasy, BotEasy}) {
		t.Fatalf("two easy bots: %+v, %v", cfg.Bots, err)
	}
	// The clock is off unless the host chooses one.
	h.Clock.SetSelected("1 min")
	if cfg, err := h.Config(); err != nil || cfg.Clock != 60 {
		t.Fatalf("a clock of a minute: %d, %v", cfg.Clock, err)
	}
	h.Clock.SetSelectedIndex(0)
	h.Bots.SetSelected("1")
	h.Strength.SetSelected("normal")
	screenshot(t, "lan-host-desktop", u.Window())
	h.Name.SetText(" ")
	test.Tap(h.Open)
	if !h.Problem.Visible() || u.Top() != h {
		t.Fatalf("a table without a name opened")
	}
}

// TestLANLobbyNoNetwork: a host on no network learns that no one can join,
// and the warning stays while the seats news goes on; a table the network
// hides is said to be so, with the code to give.
func TestLANLobbyNoNetwork(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"no network", fmt.Errorf("%w: no LAN address to advertise", ErrNoNetwork), "no one else can join"},
		{"hidden", errors.New("mDNS: no multicast"), "give your friends the code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, fyne.NewSize(360, 740))
			l := NewHosting(u, LANHostConfig{Name: "Kitchen", Game: "njet", Variant: "modern", Players: 3, Player: "Anna"})
			u.Push(l)
			p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
			reads := func(text string) bool { p.Settle(); return strings.Contains(p.Look().Read(""), text) }
			f.news <- LobbyNews{Kind: LobbyNotAdvertised, Err: c.err}
			f.told()
			f.news <- LobbyNews{Kind: LobbyHosting, Control: &fakeControl{started: make(chan struct{})}, Addrs: []LANAddr{{Addr: "/ip4/127.0.0.1/tcp/4001"}}}
			f.told()
			f.news <- LobbyNews{Kind: LobbyWaiting, Seated: 1, Wanted: 3, Players: []string{"Anna"}}
			f.told()
			if !reads(c.want) || !reads("1 of 3 players is seated") {
				t.Fatalf("the lobby shows:\n%s", p.Look().Describe())
			}
			if c.name == "no network" {
				screenshot(t, "lan-lobby-no-network-phone", u.Window())
			}
		})
	}
}

// TestLANLobbyFills: the host's lobby shows the code large and the seats
// filling with names as people sit down (in any script), with the bots
// and their strength; the host adds and removes bots and starts once the
// seats are full; a joiner sees the same names; anyone can leave.
func TestLANLobbyFills(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, sz.size)
			l := NewHosting(u, LANHostConfig{Name: "Kitchen", Game: "njet", Variant: "modern", Players: 4, Bots: []BotStrength{BotNormal}, Player: "Anna"})
			u.Push(l)
			c := &fakeControl{started: make(chan struct{})}
			f.news <- LobbyNews{Kind: LobbyHosting, Control: c, Addrs: []LANAddr{{Addr: "/ip4/127.0.0.1/tcp/4001"}, {Code: "ABCDEF-GHIJKL-MNOPQR", Addr: "/ip4/192.168.1.20/tcp/4001"}}}
			f.told()
			if l.Code() != "ABCDEF-GHIJKL-MNOPQR" {
				t.Fatalf("code %q", l.Code())
			}
			// No other device reaches a loopback address: the lobby
			// shows the network's alone.
			if got := l.addr.Text; got != "/ip4/192.168.1.20/tcp/4001" {
				t.Fatalf("addresses shown %q", got)
			}
			f.news <- LobbyNews{Kind: LobbyWaiting, Seated: 2, Wanted: 3, Players: []string{"Anna", "Борис"}, Bots: []BotStrength{BotNormal}}
			f.told()
			want := []string{"Seat 1: Anna (host)", "Seat 2: Борис", "Seat 3: free", "Seat 4: a bot (normal)"}
			if got := l.Seats(); !slices.Equal(got, want) {
				t.Fatalf("seats %q, want %q", got, want)
			}
			if l.StartGame.Visible() || !l.addRow.Visible() || l.AddBot.Disabled() {
				t.Fatalf("with a free seat: start shown %v, add a bot shown %v", l.StartGame.Visible(), l.addRow.Visible())
			}
			screenshot(t, "lan-lobby-filling-"+sz.name, u.Window())
			l.Strength.SetSelected("easy")
			test.Tap(l.AddBot)
			if !l.RemoveBot(0) {
				t.Fatal("no bot to remove")
			}
			if wantBots := [][]BotStrength{{BotNormal, BotEasy}, {}}; !reflect.DeepEqual(c.bots, wantBots) {
				t.Fatalf("bots asked %v, want %v", c.bots, wantBots)
			}
			f.news <- LobbyNews{Kind: LobbyWaiting, Seated: 3, Wanted: 3, Players: []string{"Anna", "Борис", "李雷"}, Bots: []BotStrength{BotEasy}}
			f.told()
			want = []string{"Seat 1: Anna (host)", "Seat 2: Борис", "Seat 3: 李雷", "Seat 4: a bot (easy)"}
			if got := l.Seats(); !slices.Equal(got, want) || !strings.Contains(l.Status(), "Every seat is taken") {
				t.Fatalf("seats %q (want %q), status %q", got, want, l.Status())
			}
			if l.StartGame.Disabled() || !l.StartGame.Visible() || l.addRow.Visible() {
				t.Fatalf("full: start shown %v, add a bot shown %v", l.StartGame.Visible(), l.addRow.Visible())
			}
			screenshot(t, "lan-lobby-"+sz.name, u.Window())
			test.Tap(l.StartGame)
			select {
			case <-c.started:
			case <-time.After(10 * time.Second):
				t.Fatal("the start button did not start the table")
			}
			// The lobby tells its seats once more as the table starts: the
			// table is not started twice.
			f.news <- LobbyNews{Kind: LobbyWaiting, Seated: 3, Wanted: 3, Players: []string{"Anna", "Борис", "李雷"}, Bots: []BotStrength{BotEasy}}
			f.told()
			if !l.StartGame.Disabled() || !strings.Contains(l.Status(), "Starting") {
				t.Fatalf("after the start: start enabled %v, status %q", !l.StartGame.Disabled(), l.Status())
			}
			test.Tap(l.Leave)
			if _, ok := u.Top().(*Home); !ok {
				t.Fatal("leaving the lobby did not go home")
			}
		})
	}
	cases := []struct {
		name string
		news LobbyNews
		want []string
	}{
		{"names", LobbyNews{Kind: LobbyWaiting, Seated: 2, Wanted: 3, Players: []string{"Anna", "Zoë"}, Bots: []BotStrength{BotEasy}},
			[]string{"Seat 1: Anna (host)", "Seat 2: Zoë", "Seat 3: free", "Seat 4: a bot (easy)"}},
		{"non-Latin and unnamed", LobbyNews{Kind: LobbyWaiting, Seated: 3, Wanted: 3, Players: []string{"", "Анна", "李雷"}},
			[]string{"Seat 1: a player without a name (host)", "Seat 2: Анна", "Seat 3: 李雷"}},
		{"counts from an older host", LobbyNews{Kind: LobbyWaiting, Seated: 2, Wanted: 3, Players: []string{"", ""}},
			[]string{"Seat 1: a player without a name (host)", "Seat 2: a player without a name", "Seat 3: free"}},
	}
	for _, c := range cases {
		t.Run("joiner/"+c.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, fyne.NewSize(360, 740))
			l := NewJoining(u, JoinTo{Table: "01"}, "Kitchen")
			u.Push(l)
			f.news <- c.news
			f.told()
			if got := l.Seats(); !slices.Equal(got, c.want) {
				t.Fatalf("seats %q, want %q", got, c.want)
			}
			if !strings.Contains(l.Status(), fmt.Sprintf("%d of %d", c.news.Seated, c.news.Wanted)) && c.news.Seated < c.news.Wanted {
				t.Fatalf("joiner's status %q", l.Status())
			}
			if l.hostUI.Visible() {
				t.Fatal("a joiner has the host's controls")
			}
		})
	}
}

// scriptSeat is a seat.Seat that plays a fixed list of events, then
// waits for the end.
type scriptSeat struct {
	events []seat.Event
	voted  bool
}

func (s *scriptSeat) Next(ctx context.Context) (seat.Event, error) {
	if len(s.events) == 0 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	ev := s.events[0]
	s.events = s.events[1:]
	return ev, nil
}
func (s *scriptSeat) Choose(uint64, engine.Action) error { return seat.ErrWithdrawn }
func (s *scriptSeat) VoteVoid() error                    { s.voted = true; return nil }
func (s *scriptSeat) Leave() error                       { return nil }

// TestLANGameBannerNamesTheSeatAsItsTile: a seat without a player's name
// (a terminal device that joined without one) is "Bot 2" on its tile; the
// banner that waits for it and offers the vote speaks of it the same way,
// not as "seat 3 (Falcon)", which the table shows nowhere.
func TestLANGameBannerNamesTheSeatAsItsTile(t *testing.T) {
	now := time.Unix(1e9, 0)
	chars := engine.Classic.Characters()
	seats := []seat.SeatInfo{
		{Name: "Cleo", Character: chars[0], Who: seat.Person},
		{Name: "Anna", Character: chars[1], Who: seat.You},
		{Character: chars[2], Who: seat.Person},
	}
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			g := NewLANGame(u, nil)
			u.Push(&staticScreen{view: g.View()})
			g.you = 1
			g.event(seat.Sync{State: seat.State{You: 1, Seats: seats}})
			g.event(seat.Turn{Kind: engine.ActDiscard, Wait: seat.Wait{Seat: 2, Since: now.Add(-45 * time.Second), Patience: 30 * time.Second, Voidable: true, Votes: 1, Needed: 2}})
			p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
			if !p.Sees("The device of Bot 2") {
				p.Fatalf("the banner does not wait for Bot 2, the name on the seat's tile")
			}
			if tile := seatName([]string{"Cleo", "Anna", ""}, 2, 1, ""); tile != "Bot 2" {
				t.Errorf("the tile says %q", tile)
			}
			for _, not := range []string{"seat 3", "Falcon", say(wCharacter(chars[2]))} {
				if p.Sees(not) {
					p.Fatalf("the banner speaks of %q, which the table shows nowhere", not)
				}
			}
		})
	}
}

// TestLANGameFairPlayAfterCatchingUp: a device that catches up with the
// table (back from a partition, or its seat watched while a bot played
// it) hears of the rounds audited meanwhile only in the whole state; the
// fair-play button then offers the last of them, not the last one it saw
// audited before.
func TestLANGameFairPlayAfterCatchingUp(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			g := NewLANGame(u, nil)
			u.Push(&staticScreen{view: g.View()})
			p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
			g.event(seat.Audited{Round: 1})
			if !p.Sees("Fair play: round 1") {
				p.Fatalf("no fair play for round 1 after its audit")
			}
			g.event(seat.Sync{State: seat.State{You: 0, Audited: true, Watching: true,
				Results: []seat.RoundResult{{Round: 1}, {Round: 2}, {Round: 3}}}})
			if !p.Sees("Fair play: round 3") {
				p.Fatalf("after catching up with three audited rounds the button does not offer round 3")
			}
		})
	}
}

// TestLANGameBarFitsAPhone: on a phone the banner's three buttons (vote,
// fair play, leave) are wider than the screen side by side; the bar wraps
// them under the words instead of asking for a wider window, and a person
// finds each within the screen and can tap it.
func TestLANGameBarFitsAPhone(t *testing.T) {
	now := time.Unix(1e9, 0)
	phone := lanSizes[1].size
	u := newLANTestApp(t, newFakeLAN(), phone)
	g := NewLANGame(u, nil)
	u.Push(&staticScreen{view: g.View()})
	chars := engine.Classic.Characters()
	g.event(seat.Sync{State: seat.State{You: 0, Seats: []seat.SeatInfo{
		{Name: "Anna", Character: chars[0], Who: seat.You},
		{Name: "Ben", Character: chars[1], Who: seat.Person},
		{Name: "Cleo", Character: chars[2], Who: seat.Person},
	}}})
	g.event(seat.Audited{Round: 1})
	g.event(seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 2, Since: now.Add(-45 * time.Second), Patience: 30 * time.Second, Voidable: true, Votes: 0, Needed: 1}})
	p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
	p.Settle()
	if w := u.Window().Canvas().Content().MinSize().Width; w > phone.Width {
		t.Errorf("the screen asks for %.0f px, wider than the phone's %.0f", w, phone.Width)
	}
	for _, label := range []string{"Vote for a bot", "Fair play: round 1", "Leave"} {
		c := p.Find(strconv.Quote(label), reach.Button(label))
		if !c.Reachable() || c.Rect.X < 0 || c.Rect.X+c.Rect.W > phone.Width {
			p.Fatalf("%q is not within the phone's screen: %v", label, c)
		}
	}
	s := &scriptSeat{}
	g.st = &tapSeat{Seat: s}
	p.TapText("Vote for a bot")
	if !s.voted {
		t.Error("the tap on the vote did not reach the seat")
	}
}

// TestLANGameBanner: the banner says whom the table waits for and since
// when, offers the vote with its explanation (R-VOID: two seats end the
// game abandoned), and tells a halt's cheat plainly.
func TestLANGameBanner(t *testing.T) {
	now := time.Unix(1e9, 0)
	seats := func(n int) []seat.SeatInfo {
		out := make([]seat.SeatInfo, n)
		names := []string{"Anna", "Ben", "Cleo"}
		for i := range out {
			out[i] = seat.SeatInfo{Name: names[i], Character: engine.Classic.Characters()[i], Who: seat.Person}
		}
		return out
	}
	cases := []struct {
		name  string
		seats int
		ev    seat.Event
		want  []string
		vote  bool
	}{
		{"waiting", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now.Add(-20 * time.Second), Patience: 30 * time.Second}},
			[]string{"Waiting for Ben", "for 20 s"}, false},
		// A move comes within moments, and whose it is the table shows:
		// the banner tells a wait once it lasts.
		{"short-wait", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now.Add(-2 * time.Second), Patience: 30 * time.Second}},
			[]string{"Playing on the LAN"}, false},
		{"vote", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now.Add(-40 * time.Second), Patience: 30 * time.Second, Voidable: true, Votes: 0, Needed: 1}},
			[]string{"The device of Ben", "has not been heard from for more than 30 s", "a bot plays that seat"}, true},
		{"vote-two-seats", 2, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now.Add(-40 * time.Second), Patience: 30 * time.Second, Voidable: true, Needed: 1}},
			[]string{"ends as abandoned"}, true},
		// A device that hears none of the others is told so, and offered
		// no vote that would reach nobody.
		{"cut-off", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now.Add(-40 * time.Second), Patience: 30 * time.Second, Voidable: true, Needed: 1, CutOff: now.Add(-25 * time.Second)}},
			[]string{"No other device heard for 25 s: check this device's Wi-Fi."}, false},
		{"halt", 3, seat.Halted{Cheat: &seat.Violation{Seat: 2, Check: "renege"}, Needed: 2},
			[]string{"Cleo", "cheated", "renege", "playing a card"}, false},
		// The table's clock counts the person's own move down.
		{"clock", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 0, Since: now.Add(-5 * time.Second), Until: now.Add(25 * time.Second)}},
			[]string{"25 s left for your move."}, false},
		// The time ran out: the person's bot moved, and the banner says
		// so while the table goes on.
		{"clock-out", 3, seat.Turn{Kind: engine.ActPlay, Wait: seat.Wait{Seat: 1, Since: now, ClockOuts: 1}},
			[]string{"Your time ran out: your bot made the move for you. The seat is still yours."}, false},
		// A device that left is told in a person's words.
		{"device-left", 3, seat.RoundVoided{Fault: &seat.Violation{Seat: 2, Check: "silent"}, BotHost: 0},
			[]string{"Cleo's device has left the table; a bot plays that seat now."}, false},
		{"your-device-left", 3, seat.RoundVoided{Fault: &seat.Violation{Seat: 0, Check: "silent"}, BotHost: 1},
			[]string{"Your device was away too long", "hosted by Ben"}, false},
	}
	for _, c := range cases {
		for _, sz := range lanSizes {
			t.Run(c.name+"/"+sz.name, func(t *testing.T) {
				f := newFakeLAN()
				u := newLANTestApp(t, f, sz.size)
				g := NewLANGame(u, nil)
				u.Push(&staticScreen{view: g.View()})
				g.you = 0
				g.event(seat.Sync{State: seat.State{You: 0, Seats: seats(c.seats)}})
				g.event(c.ev)
				for _, w := range c.want {
					if !strings.Contains(g.Banner(), w) {
						t.Errorf("banner %q lacks %q", g.Banner(), w)
					}
				}
				if g.Vote.Visible() != c.vote {
					t.Errorf("vote shown %v, want %v", g.Vote.Visible(), c.vote)
				}
				s := &scriptSeat{}
				g.st = &tapSeat{Seat: s}
				if c.vote {
					test.Tap(g.Vote)
					if !s.voted {
						t.Error("the vote did not reach the seat")
					}
				}
				screenshot(t, "lan-"+c.name+"-"+sz.name, u.Window())
			})
		}
	}
}

// checkLogFile checks a file on the check-a-log screen and waits for the
// verdict.
func checkLogFile(t *testing.T, u *App, path string) *CheckLog {
	t.Helper()
	c := NewCheckLog(u)
	u.Push(c)
	done := make(chan struct{})
	c.check.onDone = func() { close(done) }
	if err := c.CheckFile(path); err != nil {
		t.Fatal(err)
	}
	testUI(u).until(t, "the check's end", func() bool { return closed(done) })
	return c
}

// TestCheckLog: a good log passes every check; a log with one byte
// changed fails with a clear verdict.
func TestCheckLog(t *testing.T) {
	good := filepath.Join("testdata", "lan", "good.njetlog")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tampered := slices.Clone(data)
	tampered[len(tampered)/2] ^= 0x01
	bad := filepath.Join(t.TempDir(), "tampered.njetlog")
	if err := os.WriteFile(bad, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sz := range lanSizes {
		t.Run("good/"+sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			c := checkLogFile(t, u, good)
			if !c.check.Passed {
				t.Fatalf("a good log failed: %s", c.check.verdict.Text)
			}
			for _, r := range c.check.Results {
				if !strings.HasPrefix(r, "✓") {
					t.Errorf("check %q did not pass", r)
				}
			}
			if !strings.Contains(c.check.verdict.Text, "whole game checks out") {
				t.Errorf("verdict %q", c.check.verdict.Text)
			}
			screenshot(t, "lan-checklog-"+sz.name, u.Window())
		})
		t.Run("tampered/"+sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			c := checkLogFile(t, u, bad)
			if !c.check.Failed || !strings.HasPrefix(c.check.verdict.Text, "Not fair or not whole") {
				t.Fatalf("a tampered log: verdict %q", c.check.verdict.Text)
			}
			if !slices.ContainsFunc(c.check.Results, func(r string) bool { return strings.HasPrefix(r, "✗") }) {
				t.Errorf("no check failed: %q", c.check.Results)
			}
			screenshot(t, "lan-checklog-tampered-"+sz.name, u.Window())
		})
	}
}

// logTable is a LANTable whose log is a file.
type logTable struct{ path string }

func (l logTable) ID() string                   { return "3250ce6c" }
func (l logTable) Names() []string              { return nil }
func (l logTable) Game() (game, variant string) { return "njet", "classic" }
func (l logTable) Close() error                 { return nil }
func (l logTable) PlayNjet(context.Context, func(context.Context, seat.Seat) error, func(GameNews)) error {
	return nil
}
func (l logTable) Reconnect(context.Context) error { return nil }
func (l logTable) ExportLog(w io.Writer) error {
	data, err := os.ReadFile(l.path)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// TestFairPlayPanel: after an audited round the panel checks the table's
// log and says each check's result.
func TestFairPlayPanel(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			p := NewFairPlay(u, logTable{filepath.Join("testdata", "lan", "good.njetlog")}, 1)
			done := make(chan struct{})
			p.check.onDone = func() { close(done) }
			u.Push(p)
			testUI(u).until(t, "the check's end", func() bool { return closed(done) })
			if !p.check.Passed || len(p.check.Results) != int(nSteps) {
				t.Fatalf("panel: %s %q", p.check.verdict.Text, p.check.Results)
			}
			// One round in the singular, in the text's own colour.
			if v := p.check.verdict; !strings.Contains(v.Text, "(1 round)") || v.Importance != widget.MediumImportance {
				t.Errorf("verdict %q of importance %v", v.Text, v.Importance)
			}
			p.check.details.Open(0)
			u.body.Refresh() // the window's driver lays out again after a frame; the test canvas when asked
			if !strings.Contains(p.check.detail.Text, "3250ce6c") {
				t.Errorf("details lack the table id: %q", p.check.detail.Text)
			}
			screenshot(t, "lan-fairplay-"+sz.name, u.Window())
		})
	}
}

// playTable is a LANTable whose Play fails the first time (the network
// went away in the background) and then waits for its end; it counts
// its plays and its reconnections.
type playTable struct {
	logTable
	plays, reconnects chan struct{}
}

func (p *playTable) PlayNjet(ctx context.Context, _ func(context.Context, seat.Seat) error, _ func(GameNews)) error {
	p.plays <- struct{}{}
	if len(p.plays) == 1 {
		return errors.New("the network went away")
	}
	<-ctx.Done()
	return ctx.Err()
}

func (p *playTable) Reconnect(context.Context) error {
	p.reconnects <- struct{}{}
	return nil
}

// TestLANGameForeground: when the app comes back to the foreground, the
// LAN table redials its devices at once, and a play that stopped in the
// background starts again from the store.
func TestLANGameForeground(t *testing.T) {
	u := newLANTestApp(t, newFakeLAN(), fyne.NewSize(360, 740))
	ui := testUI(u)
	p := &playTable{logTable: logTable{}, plays: make(chan struct{}, 4), reconnects: make(chan struct{}, 4)}
	g := NewLANGame(u, p)
	u.Push(g)
	ui.until(t, "the first play's stop", func() bool { return g.stopped })
	if !strings.Contains(g.Banner(), "The table stopped") {
		t.Fatalf("banner %q", g.Banner())
	}
	lc, ok := u.fy.Lifecycle().(interface{ OnEnteredForeground() func() })
	if !ok || lc.OnEnteredForeground() == nil {
		t.Fatal("the app does not listen for the foreground")
	}
	lc.OnEnteredForeground()()
	ui.until(t, "a reconnection and a second play", func() bool { return len(p.reconnects) == 1 && len(p.plays) == 2 })
	ui.until(t, "the reconnection shown", func() bool {
		b := g.Banner()
		return strings.Contains(b, "Reconnecting") || strings.Contains(b, "Back at the table")
	})
	if !g.playing || g.stopped {
		t.Fatalf("after the return: playing %v, stopped %v", g.playing, g.stopped)
	}
}

// frozenSeat plays a seat until stop accepts an event, tells that one,
// then waits for the end: a game held still for a screenshot.
type frozenSeat struct {
	seat.Seat
	stop    func(seat.Event) bool
	stopped chan struct{}
}

func (f *frozenSeat) Next(ctx context.Context) (seat.Event, error) {
	select {
	case <-f.stopped:
		<-ctx.Done()
		return nil, ctx.Err()
	default:
	}
	ev, err := f.Seat.Next(ctx)
	if err == nil && f.stop(ev) {
		close(f.stopped)
	}
	return ev, err
}

// gameTable is a LANTable whose Play gives the person a local game, held
// still at the first event stop accepts.
type gameTable struct {
	logTable
	names []string
	seat  *frozenSeat
}

func (g *gameTable) Names() []string { return g.names }

func (g *gameTable) PlayNjet(ctx context.Context, person func(context.Context, seat.Seat) error, news func(GameNews)) error {
	news(GameNews{Kind: NewsPlaying})
	return person(ctx, g.seat)
}

// TestLANGameInProgress: a LAN game shows the table screen under the
// banner: the person's turn, and whom the table waits for (R-BLOCK: the
// seat after the dealer blocks first) while the others move.
func TestLANGameInProgress(t *testing.T) {
	names := []string{"Anna", "Ben", "李雷"}
	cases := []struct {
		name string
		stop func(seat.Event) bool
		then seat.Event // told to the banner once the game holds still
		want string
	}{
		{"game", func(ev seat.Event) bool { _, ok := ev.(seat.YourTurn); return ok }, nil, "Playing on the LAN"},
		{"game-waiting", func(ev seat.Event) bool { _, ok := ev.(seat.Dealt); return ok },
			seat.Turn{Kind: engine.ActBlock, Wait: seat.Wait{Seat: 1, Since: time.Unix(1e9-20, 0), Patience: 30 * time.Second}}, "Waiting for Ben"},
	}
	for _, c := range cases {
		for _, sz := range lanSizes {
			t.Run(c.name+"/"+sz.name, func(t *testing.T) {
				u := newLANTestApp(t, newFakeLAN(), sz.size)
				l, err := seat.NewLocal(seat.LocalConfig{Edition: engine.Classic, Players: 3, Names: names, Seed: 11, Short: true})
				if err != nil {
					t.Fatal(err)
				}
				fs := &frozenSeat{Seat: l, stop: c.stop, stopped: make(chan struct{})}
				g := NewLANGame(u, &gameTable{names: names, seat: fs})
				u.Push(g)
				ui := testUI(u)
				ui.until(t, "the moment", func() bool { return closed(fs.stopped) })
				// Let the table screen take the last event in.
				ui.until(t, "the table screen's cards", func() bool { return g.table != nil && len(g.table.cards) > 0 })
				ui.idle(300 * time.Millisecond) // the pump's last step
				if c.then != nil {
					g.event(c.then)
				}
				if !strings.Contains(g.Banner(), c.want) {
					t.Fatalf("banner %q, want %q", g.Banner(), c.want)
				}
				screenshot(t, "lan-"+c.name+"-"+sz.name, u.Window())
			})
		}
	}
}
