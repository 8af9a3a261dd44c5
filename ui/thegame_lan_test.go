package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/internal/selfplay"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	"github.com/njetlan/njet/ui/persontest"
)

// newTGLANTestApp is newLANTestApp with a clock the test moves and bots
// that do not pause between their moves.
func newTGLANTestApp(t *testing.T, f *fakeLAN, size fyne.Size, now func() time.Time) *App {
	t.Helper()
	fa := test.NewTempApp(t)
	fa.Preferences().SetString(keyLanguage, "en")
	fa.Preferences().SetString(keyName, "Anna")
	f.ui = newUIQueue()
	u := New(fa, Env{Storage: t.TempDir(), Now: now, LAN: f, Do: f.ui.do, Pace: time.Nanosecond})
	u.Window().Resize(size)
	t.Cleanup(func() {
		u.stopAll()
		setupLang("en")
	})
	return u
}

// TestLANTheGameHostForm: a person taps The Game on the host form and
// the form shows The Game's own choice, Extreme, with 2 to 5 players, and
// none of Njet!'s (an edition, the short game, a target score); back on
// Njet! the edition and Njet!'s variant return, and Extreme is gone.
func TestLANTheGameHostForm(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, sz.size)
			h := NewHostForm(u)
			u.Push(h)
			p := persontest.New(t, u.Window().Canvas(), persontest.Options{})
			p.Settle()
			njetOnly := []string{"Edition", "Classic", "Modern", "Short game", "Target score"}
			shows := func(texts ...string) []string {
				p.Settle()
				s := p.Look()
				var shown []string
				for _, text := range texts {
					if s.Shows(text) {
						shown = append(shown, text)
					}
				}
				return shown
			}
			if got := shows(njetOnly...); len(got) != len(njetOnly) || len(shows("Extreme")) > 0 {
				t.Fatalf("Njet!'s form shows %q of %q, and Extreme %v", got, njetOnly, len(shows("Extreme")) > 0)
			}
			p.TapText("The Game")
			if got := shows(njetOnly...); len(got) > 0 || len(shows("Extreme")) == 0 {
				t.Fatalf("The Game's form shows Njet!'s %q, or not Extreme", got)
			}
			if want := []string{"2", "3", "4", "5"}; strings.Join(h.Players.Options, ",") != strings.Join(want, ",") {
				t.Fatalf("players %q", h.Players.Options)
			}
			p.TapText("Extreme")
			h.Players.SetSelected("4")
			h.Bots.SetSelected("2")
			cfg, err := h.Config()
			if err != nil || cfg.Game != theGameID || cfg.Variant != "extreme" || cfg.Players != 4 || len(cfg.Bots) != 2 || cfg.Short || cfg.Target != 0 {
				t.Fatalf("config %+v, %v", cfg, err)
			}
			checkFits(t, u.Window())
			checkReach(t, p)
			screenshot(t, "thegame-lan-host-"+sz.name, u.Window())
			p.TapText("Njet!")
			if got := shows(njetOnly...); len(got) != len(njetOnly) || len(shows("Extreme")) > 0 {
				t.Fatalf("back on Njet!, the form shows %q of %q, and Extreme %v", got, njetOnly, len(shows("Extreme")) > 0)
			}
			p.TapText("Modern")
			if cfg, err := h.Config(); err != nil || cfg.Game != njetID || cfg.Variant != "modern" || cfg.Players != 4 {
				t.Fatalf("back on Njet!, Modern: %+v, %v", cfg, err)
			}
			checkReach(t, p)
			screenshot(t, "njet-lan-host-"+sz.name, u.Window())
		})
	}
}

// TestLANTheGameNamed: the home's LAN list and the lobby name the game a
// table plays, and its clock when it has one; a table of The Game shows
// no Njet! edition.
func TestLANTheGameNamed(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			f := newFakeLAN()
			u := newLANTestApp(t, f, sz.size)
			h := u.Top().(*Home)
			f.lists <- []LANTableAd{
				{ID: "01", Name: "Kitchen", Game: "thegame", Variant: "extreme", Players: 3, Free: 1, Host: "Jürgen"},
				{ID: "02", Name: "Garden", Game: "thegame", Variant: "base", Players: 4, Free: 2, Clock: 30},
				{ID: "03", Name: "Attic", Game: "njet", Variant: "modern", Players: 5, Free: 3},
			}
			f.saw()
			got := h.LAN.Tables()
			want := map[string]string{"Attic": "Attic · Njet! Modern · 5 players", "Garden": "Garden · The Game · 4 players",
				"Kitchen": "Kitchen · The Game Extreme · 3 players"}
			if len(got) != len(want) {
				t.Fatalf("tables %q", got)
			}
			for _, line := range got {
				name, _, _ := strings.Cut(line, " ")
				if !strings.HasPrefix(line, want[name]) {
					t.Errorf("table %q, want %q", line, want[name])
				}
				if clocked := strings.HasSuffix(line, " · 30 s per move"); clocked != (name == "Garden") {
					t.Errorf("table %q: the table's clock told %v, want %v", line, clocked, name == "Garden")
				}
				if name != "Attic" && (strings.Contains(line, editionName(engine.Classic)) || strings.Contains(line, editionName(engine.Modern))) {
					t.Errorf("a table of The Game shows an edition: %q", line)
				}
			}

			l := NewHosting(u, LANHostConfig{Name: "Kitchen", Game: "thegame", Variant: "extreme", Players: 3, Bots: []BotStrength{BotNormal}, Player: "Anna", Clock: 60})
			u.Push(l)
			if l.Game() != "Game: The Game Extreme" || !strings.HasPrefix(l.Clock(), "1 min per move: ") {
				t.Fatalf("host's lobby says %q, %q", l.Game(), l.Clock())
			}
			c := &fakeControl{started: make(chan struct{})}
			f.news <- LobbyNews{Kind: LobbyHosting, Control: c, Addrs: []LANAddr{{Code: "ABCDEF-GHIJKL-MNOPQR", Addr: "/ip4/192.168.1.20/tcp/4001"}}}
			f.told()
			f.news <- LobbyNews{Kind: LobbyWaiting, Seated: 2, Wanted: 2, Players: []string{"Anna", "Ben"}, Bots: []BotStrength{BotNormal}}
			f.told()
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-lobby-"+sz.name, u.Window())
			if !l.StartGame.Visible() {
				t.Fatal("a full lobby of The Game cannot start")
			}
			test.Tap(l.StartGame)
			select {
			case <-c.started:
			case <-time.After(time.Minute):
				t.Fatal("the lobby did not start the table")
			}

			// A joiner learns the game from the table it found.
			f = newFakeLAN()
			u = newLANTestApp(t, f, sz.size)
			j := NewJoining(u, JoinTo{Table: "01"}, "Kitchen")
			u.Push(j)
			if j.Game() != "" {
				t.Fatalf("a joiner's lobby names a game before it knows it: %q", j.Game())
			}
			f.news <- LobbyNews{Kind: LobbyFound, Table: LANTableAd{ID: "01", Name: "Kitchen", Game: "thegame", Variant: "base", Players: 3, Free: 1, Clock: 90}}
			f.told()
			if j.Game() != "Game: The Game" || !strings.HasPrefix(j.Clock(), "90 s per move: ") {
				t.Fatalf("joiner's lobby says %q, %q", j.Game(), j.Clock())
			}
		})
	}
}

// fakeTGTable is a LAN table of The Game whose seat is a local game
// against bots, seen through tgFakeSeat.
type fakeTGTable struct {
	logTable
	src     *tgFakeSeat
	played  chan error
	release chan struct{} // the other devices caught up
}

func (f *fakeTGTable) Names() []string { return []string{"Anna", "Ben", "Cleo"} }
func (f *fakeTGTable) Game() (game, variant string) {
	if f.src.Config().Extreme {
		return theGameID, "extreme"
	}
	return theGameID, "base"
}

func (f *fakeTGTable) PlayTheGame(ctx context.Context, person func(context.Context, TheGameSource) error, news func(GameNews)) error {
	news(GameNews{Kind: NewsPlaying})
	err := person(ctx, f.src)
	f.played <- err
	if err == nil {
		news(GameNews{Kind: NewsCatchingUp})
		select {
		case <-f.release:
		case <-ctx.Done():
		}
	}
	return err
}

// tgFakeSeat is a local game that also says whom it waits for and who
// plays each seat, as a LAN seat does; wait, when not -1, is the seat it
// says instead; hosts are the seats a bot plays, by the seat hosting it.
type tgFakeSeat struct {
	*seat.TheGameLocal
	mu       sync.Mutex
	wait     int
	hosts    map[int]int
	seatWait seat.Wait
	votes    int // the person's votes for a bot
}

func (s *tgFakeSeat) Wait() seat.Wait {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seatWait
}

func (s *tgFakeSeat) VoteVoid() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.seatWait.Voidable {
		return seat.ErrCannotVote
	}
	s.votes++
	s.seatWait.Votes++
	s.seatWait.Voted = true
	return nil
}

func (s *tgFakeSeat) setSeatWait(v seat.Wait) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seatWait = v
}

func (s *tgFakeSeat) Host(seat int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.hosts[seat]; ok {
		return h
	}
	return seat
}

// setHost has a bot on host's device play seat (host == seat: its own
// device again).
func (s *tgFakeSeat) setHost(seat, host int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hosts == nil {
		s.hosts = map[int]int{}
	}
	s.hosts[seat] = host
}

func (s *tgFakeSeat) Waiting() (int, bool) {
	s.mu.Lock()
	w := s.wait
	s.mu.Unlock()
	v := s.View()
	switch {
	case v.Phase == thegame.PhaseOver:
		return 0, false
	case w >= 0:
		return w, true
	}
	return v.Turn, true
}

func (s *tgFakeSeat) setWait(w int) {
	s.mu.Lock()
	s.wait = w
	s.mu.Unlock()
}

// TestLANTheGameToGameOver: a LAN table of The Game plays on The Game's
// table screen, fed by the table's seat: the banner says whom the table
// waits for once it lasts, the person's taps play the seat, and the game
// ends on the game-over screen while the banner says the other devices
// catch up. Back from the background the banner says the device
// reconnects.
func TestLANTheGameToGameOver(t *testing.T) {
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			var clock struct {
				sync.Mutex
				t time.Time
			}
			clock.t = time.Unix(1e9, 0)
			now := func() time.Time { clock.Lock(); defer clock.Unlock(); return clock.t }
			f := newFakeLAN()
			u := newTGLANTestApp(t, f, sz.size, now)
			q := testUI(u)
			local, err := seat.NewTheGameLocal(seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			src := &tgFakeSeat{TheGameLocal: local, wait: -1}
			tbl := &fakeTGTable{src: src, played: make(chan error, 1), release: make(chan struct{})}
			scr := NewLANTable(u, tbl)
			g, ok := scr.(*LANTheGame)
			if !ok {
				t.Fatalf("a table of The Game opened %T", scr)
			}
			u.Push(g)
			q.until(t, "the table screen", func() bool { return g.Screen != nil })

			// The table waits for Ben's device: said once it lasts.
			src.setWait(1)
			q.idle(1100 * time.Millisecond)
			if g.Banner() != "" {
				t.Fatalf("the banner tells a short wait: %q", g.Banner())
			}
			clock.Lock()
			clock.t = clock.t.Add(20 * time.Second)
			clock.Unlock()
			q.until(t, "the banner", func() bool { return g.Banner() != "" })
			if !strings.Contains(g.Banner(), "Ben") || !strings.Contains(g.Banner(), "20 s") {
				t.Fatalf("banner %q while waiting for Ben", g.Banner())
			}
			// Past the patience the person may vote for a bot there.
			if g.voteRow.Visible() {
				t.Fatal("a vote is offered before it is open")
			}
			clock.Lock()
			clock.t = clock.t.Add(15 * time.Second)
			clock.Unlock()
			src.setSeatWait(seat.Wait{Seat: 1, Patience: 30 * time.Second, Voidable: true, Needed: 1})
			q.until(t, "the vote", func() bool {
				return g.voteRow.Visible() && strings.Contains(g.Banner(), "Ben's device has not been heard from for more than 30 s")
			})
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-vote-"+sz.name, u.Window())
			test.Tap(g.Vote)
			if src.votes != 1 || !g.Vote.Disabled() {
				t.Fatalf("the tap on the vote: %d votes, button disabled %v", src.votes, g.Vote.Disabled())
			}
			q.until(t, "the vote told", func() bool { return strings.Contains(g.Banner(), "(1 of 1 so far)") })
			// This device hears none of the others: it is told so, and the
			// vote, which would reach nobody, is gone.
			src.setSeatWait(seat.Wait{Seat: 1, Patience: 30 * time.Second, Voidable: true, Needed: 1,
				CutOff: now().Add(-12 * time.Second)})
			q.until(t, "the cut-off", func() bool {
				return !g.voteRow.Visible() && strings.Contains(g.Banner(), "No other device heard for 12 s")
			})
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-cutoff-"+sz.name, u.Window())
			// At a table with a clock, the banner counts down the
			// person's move, as at a Njet! table.
			src.setSeatWait(seat.Wait{Seat: -1, Until: now().Add(25 * time.Second)})
			q.until(t, "the clock", func() bool { return g.Banner() == "25 s left for your move." })
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-clock-"+sz.name, u.Window())
			clock.Lock()
			clock.t = clock.t.Add(10 * time.Second)
			clock.Unlock()
			q.until(t, "the clock running", func() bool { return g.Banner() == "15 s left for your move." })
			// The time ran out: the bot laid the card, and the next card
			// is asked with a clock of its own. The banner says both.
			clock.Lock()
			clock.t = clock.t.Add(15 * time.Second)
			clock.Unlock()
			src.setSeatWait(seat.Wait{Seat: -1, ClockOuts: 1, Until: now().Add(30 * time.Second)})
			q.until(t, "the time ran out", func() bool {
				return g.Banner() == "Your time ran out: your bot made the move for you. The seat is still yours. 30 s left for your move."
			})
			checkFits(t, u.Window())
			clock.Lock()
			clock.t = clock.t.Add(newsFor)
			clock.Unlock()
			q.until(t, "the clock alone", func() bool { return g.Banner() == "20 s left for your move." })
			src.setSeatWait(seat.Wait{Seat: -1, ClockOuts: 1})
			src.setWait(-1)
			q.until(t, "the banner gone", func() bool { return g.Banner() == "" && !g.voteRow.Visible() })

			// Back from the background: the banner says the device
			// reconnects until the devices answer.
			u.enteredForeground()
			if !strings.Contains(g.Banner(), "Reconnecting") {
				t.Fatalf("back from the background, the banner says %q", g.Banner())
			}
			q.until(t, "the reconnection", func() bool { return g.Banner() == "" })

			// Seats change hands: each change is told, the person's own
			// seat for as long as a bot plays it.
			later := func(d time.Duration) {
				clock.Lock()
				clock.t = clock.t.Add(d)
				clock.Unlock()
			}
			src.setHost(1, 0)
			q.until(t, "Ben's seat taken over", func() bool {
				return strings.Contains(g.Banner(), "Ben left the table: a bot on your device plays that seat now")
			})
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-gone-"+sz.name, u.Window())
			src.setHost(0, 2)
			q.until(t, "the person's seat taken over", func() bool {
				return strings.Contains(g.Banner(), "Your device was away too long") && strings.Contains(g.Banner(), "Cleo's device")
			})
			screenshot(t, "thegame-lan-away-"+sz.name, u.Window())
			later(time.Minute)
			q.idle(1100 * time.Millisecond)
			if !strings.Contains(g.Banner(), "Your device was away too long") {
				t.Fatalf("while a bot plays the person's seat the banner says %q", g.Banner())
			}
			src.setHost(0, 0)
			q.until(t, "the seat given back", func() bool { return strings.Contains(g.Banner(), "Your seat is yours again") })
			later(newsFor)
			q.until(t, "the news gone", func() bool { return g.Banner() == "" })
			src.setHost(1, 1)

			shot := false
			for range 3000 {
				q.idle(2 * time.Millisecond)
				if g.Screen.Over() {
					break
				}
				v := src.View()
				if !g.Screen.myTurn() || !src.Idle() {
					continue
				}
				if !shot && v.Turns > 6 {
					checkFits(t, u.Window())
					screenshot(t, "thegame-lan-game-"+sz.name, u.Window())
					shot = true
				}
				tgAct(t, g.Screen, tgbot.Greedy{}, v)
			}
			if !g.Screen.Over() {
				t.Fatal("the game did not end")
			}
			select {
			case err := <-tbl.played:
				if err != nil {
					t.Fatalf("the person's play ended with %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("the person's play did not end")
			}
			q.until(t, "catching up", func() bool { return strings.Contains(g.Banner(), "catching up") })
			if !strings.Contains(g.Screen.gameOver.Left.Text, "left") {
				t.Errorf("game over says %q", g.Screen.gameOver.Left.Text)
			}
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-over-"+sz.name, u.Window())
			close(tbl.release)
			q.until(t, "the end of the play", func() bool { return g.Banner() == "" })
		})
	}
}

// tgAct carries out the person's move a player chooses through the
// screen's taps; a warning that comes up is answered yes.
func tgAct(t *testing.T, s *TheGameScreen, pl tgbot.Player, v thegame.View) {
	t.Helper()
	a := pl.Act(&v)
	switch a.Kind {
	case thegame.ActPlay:
		for _, cv := range s.cards {
			if cv.card == a.Card {
				test.Tap(cv)
			}
		}
		test.Tap(s.piles[a.Pile])
		if s.warning != nil {
			s.answerWarning(true)
		}
	case thegame.ActEnd:
		test.Tap(s.End)
	}
	if s.bad {
		t.Fatalf("%v refused: %s", a, s.status)
	}
}

// TestCheckLogTheGame: the check-a-log screen checks a log of The Game
// with table.Verify and says its checks and its result in The Game's
// words; one byte changed fails it.
func TestCheckLogTheGame(t *testing.T) {
	tg, err := games.ByName(table.GameTheGame)
	if err != nil {
		t.Fatal(err)
	}
	s, err := selfplay.New(selfplay.Config{Game: table.GameTheGame, Players: 3, Extreme: true, Seed: 7,
		Dir: t.TempDir(), Bot: "coop", NewPlayer: tg.NewPlayer})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	exported := filepath.Join(t.TempDir(), "seat-0.njetlog")
	if _, err := s.Export(0, exported); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(t.TempDir(), "thegame.njetlog")
	if err := os.WriteFile(good, data, 0o600); err != nil {
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
			if !c.check.Passed || !strings.Contains(c.check.verdict.Text, "whole game of The Game checks out") {
				t.Fatalf("a good log of The Game: verdict %q", c.check.verdict.Text)
			}
			for _, want := range []string{"Every card laid, signal and end of turn followed the rules", "the whole deck replays"} {
				if !slices.ContainsFunc(c.check.Results, func(r string) bool { return strings.Contains(r, want) }) {
					t.Errorf("no check %q in %q", want, c.check.Results)
				}
			}
			for _, r := range c.check.Results {
				if !strings.HasPrefix(r, "✓") {
					t.Errorf("check %q did not pass", r)
				}
				if strings.Contains(r, "block") || strings.Contains(r, "round") {
					t.Errorf("check %q speaks of Njet!", r)
				}
			}
			checkFits(t, u.Window())
			screenshot(t, "thegame-lan-checklog-"+sz.name, u.Window())
		})
		t.Run("tampered/"+sz.name, func(t *testing.T) {
			u := newLANTestApp(t, newFakeLAN(), sz.size)
			c := checkLogFile(t, u, bad)
			if !c.check.Failed || !strings.HasPrefix(c.check.verdict.Text, "Not fair or not whole") {
				t.Fatalf("a tampered log of The Game: verdict %q", c.check.verdict.Text)
			}
		})
	}
}
