package lan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/tablelog"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
)

// loopback listens on 127.0.0.1 only, TCP: nothing leaves the machine.
var loopback = []string{"/ip4/127.0.0.1/tcp/0"}

// fakeBrowse reports each list in turn, then waits for ctx like
// p2p.Browse.
func fakeBrowse(lists ...[]p2p.TableAd) browseFunc {
	return func(ctx context.Context, found func([]p2p.TableAd)) error {
		for _, l := range lists {
			if ctx.Err() != nil {
				break
			}
			found(l)
		}
		<-ctx.Done()
		return ctx.Err()
	}
}

func ad(id byte, name string, free int) p2p.TableAd {
	var a p2p.TableAd
	a.ID[0] = id
	a.Name, a.Free, a.Players, a.Variant = name, free, 4, "classic"
	return a
}

func TestFindTable(t *testing.T) {
	full, other, wanted := ad(0xab, "full", 0), ad(0x12, "other", 2), ad(0xab, "wanted", 1)
	wanted.ID[1] = 1
	lists := [][]p2p.TableAd{{}, {full, other}, {full, other, wanted}}
	for _, tc := range []struct {
		prefix string
		want   string // "" when none is found
	}{
		{"", "other"},
		{"AB", "wanted"}, // any case; the full table is passed over
		{"ab01", "wanted"},
		{"12", "other"},
		{"ff", ""},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		got, err := findTable(ctx, tc.prefix, fakeBrowse(lists...))
		cancel()
		switch {
		case tc.want == "" && !errors.Is(err, context.DeadlineExceeded):
			t.Errorf("prefix %q: %q, %v; want the deadline", tc.prefix, got.Name, err)
		case tc.want != "" && (err != nil || got.Name != tc.want):
			t.Errorf("prefix %q: %q, %v; want %q", tc.prefix, got.Name, err, tc.want)
		}
	}
}

func TestWatchTables(t *testing.T) {
	a, b := ad(1, "a", 1), ad(2, "b", 1)
	lists := [][]p2p.TableAd{{}, {a}, {a, b}, {b}}
	var got []TableList
	ctx, cancel := context.WithCancel(context.Background())
	browse := func(ctx context.Context, found func([]p2p.TableAd)) error {
		for _, l := range lists {
			found(l)
		}
		cancel()
		return ctx.Err()
	}
	if err := watchTables(ctx, func(l TableList) { got = append(got, l) }, browse); err != nil {
		t.Fatalf("the end of ctx is no error: %v", err)
	}
	if len(got) != len(lists) {
		t.Fatalf("%d reports, want %d", len(got), len(lists))
	}
	names := func(ads []p2p.TableAd) (s []string) {
		for _, ad := range ads {
			s = append(s, ad.Name)
		}
		return s
	}
	for i, want := range []struct {
		appeared []string
		vanished []p2p.LobbyID
	}{{nil, nil}, {[]string{"a"}, nil}, {[]string{"b"}, nil}, {nil, []p2p.LobbyID{a.ID}}} {
		if !slices.Equal(names(got[i].Appeared), want.appeared) || !slices.Equal(got[i].Vanished, want.vanished) ||
			len(got[i].Tables) != len(lists[i]) {
			t.Errorf("report %d: %+v", i, got[i])
		}
	}
	failed := errors.New("no multicast")
	err := watchTables(context.Background(), func(TableList) {},
		func(context.Context, func([]p2p.TableAd)) error { return failed })
	if !errors.Is(err, failed) {
		t.Errorf("a browse error is lost: %v", err)
	}
}

func TestOpenDevice(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	d, err := OpenDevice(dir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	id := d.ID()
	addrs := d.JoinAddrs()
	if len(addrs) == 0 {
		t.Errorf("no address")
	}
	for _, a := range addrs {
		if !strings.HasPrefix(a.Addr.String(), "/ip4/127.0.0.1/tcp/") || !strings.Contains(a.Addr.String(), "/p2p/") ||
			a.Code != "" {
			t.Errorf("address %v, code %q: want a loopback address with /p2p and no code", a.Addr, a.Code)
		}
	}
	if tbl, err := d.Resume(""); tbl != nil || err != nil {
		t.Errorf("a new store resumes %v, %v", tbl, err)
	}
	var tid p2p.LobbyID
	if got, want := d.LogPath(tid), filepath.Join(dir, tid.String()+".njetlog"); got != want {
		t.Errorf("LogPath %s, want %s", got, want)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "njet.db")); err != nil {
		t.Errorf("no store: %v", err)
	}
	d, err = OpenDevice(dir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.ID() != id {
		t.Errorf("the device is %v after a restart, was %v", d.ID(), id)
	}
}

// hostAlone hosts a one-round table of three with two bots on d: nobody
// needs to join.
func hostAlone(t *testing.T, ctx context.Context, d *Device, bot string) (*Table, []Progress) {
	t.Helper()
	var seen []Progress
	tbl, err := d.Host(ctx, HostConfig{Name: "T", Variant: "modern", Players: 3, Bots: 2, Rounds: 1,
		Wait: 10 * time.Second, Bot: bot}, func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	return tbl, seen
}

// playOut plays tbl to the end with bots only and checks the exported log.
func playOut(t *testing.T, ctx context.Context, d *Device, tbl *Table) {
	t.Helper()
	var events []Event
	out, err := d.Play(ctx, tbl, PlayConfig{Linger: time.Second}, func(e Event) { events = append(events, e) })
	if err != nil || out.CloseErr != nil || !out.Over || out.Left || out.Envelopes == 0 {
		t.Fatalf("play: %+v, %v", out, err)
	}
	rounds := 0
	for _, e := range events {
		if _, ok := e.(RoundOver); ok {
			rounds++
		}
	}
	// Every round is reported once, even when the session ends before the
	// peer's last event is read.
	if p, ok := events[0].(Playing); !ok || p.Table != tbl.ID() || p.Bot != tbl.Bot() || rounds != 1 {
		t.Errorf("events %+v", events)
	}
	path := filepath.Join(t.TempDir(), "t.njetlog")
	if err := d.Export(tbl.ID(), path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := table.Verify(f)
	if err != nil || !v.Over || uint64(v.Envelopes) != out.Envelopes {
		t.Fatalf("verify: %+v, %v", v, err)
	}
	if err := d.MarkOver(tbl.ID()); err != nil {
		t.Fatal(err)
	}
	if again, err := d.Resume(""); again != nil || err != nil {
		t.Errorf("a table marked over resumes: %v, %v", again, err)
	}
}

func TestHostAndPlayWithBots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tbl, seen := hostAlone(t, ctx, d, "Random")
	defer tbl.Close()
	var hosting *Hosting
	for _, p := range seen {
		if h, ok := p.(Hosting); ok {
			hosting = &h
		}
	}
	if hosting == nil || hosting.Name != "T" || hosting.Players != 3 || len(hosting.Addrs) == 0 {
		t.Errorf("progress %+v", seen)
	}
	if tbl.Seat() != 0 || tbl.Bot() != "random" {
		t.Errorf("seat %d played by %q, want seat 0 by a random bot", tbl.Seat(), tbl.Bot())
	}
	playOut(t, ctx, d, tbl)
}

// A person leaves at once; the store keeps the seat, which a bot then
// plays to the end.
func TestPersonLeavesAndResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	d, err := OpenDevice(dir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tbl, _ := hostAlone(t, ctx, d, "")
	defer tbl.Close()
	if tbl.Bot() != "" {
		t.Fatalf("a person's seat is played by %q", tbl.Bot())
	}
	if _, err := d.Play(ctx, tbl, PlayConfig{Linger: time.Second}, nil); err == nil {
		t.Fatalf("a person's seat played without a Person")
	}
	var asked PersonSeat
	leave := func(_ context.Context, s PersonSeat) error { asked = s; return ErrLeft }
	out, err := d.Play(ctx, tbl, PlayConfig{Linger: time.Second, Person: leave}, nil)
	if err != nil || !out.Left || out.Over {
		t.Fatalf("leaving: %+v, %v", out, err)
	}
	if asked.Peer == nil || asked.Seat != 0 || asked.Changed == nil || asked.Rounds != 1 {
		t.Errorf("the person got %+v", asked)
	}
	if again, err := d.Resume(""); err != nil || again == nil || again.ID() != tbl.ID() || again.Bot() != "" {
		t.Fatalf("resume as a person: %v, %v", again, err)
	}
	again, err := d.Resume("heuristic")
	if err != nil || again == nil || again.Bot() != "heuristic" {
		t.Fatalf("resume with a bot: %v, %v", again, err)
	}
	playOut(t, ctx, d, again)
}

// A second device joins the first by address; bots play both seats.
func TestJoinByAddress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	joiner, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer joiner.Close()
	target, err := AddrTarget(host.JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	hosted := make(chan *Table, 1)
	go func() {
		tbl, err := host.Host(ctx, HostConfig{Name: "T", Variant: "modern", Players: 3, Bots: 1, Rounds: 1,
			Bot: "random"}, nil)
		if err != nil {
			t.Error(err)
		}
		hosted <- tbl
	}()
	var waits []Waiting
	var joined *Table
	for joined == nil {
		joined, err = joiner.Join(ctx, target, "random", func(p Progress) {
			if w, ok := p.(Waiting); ok {
				waits = append(waits, w)
			}
		})
		// The host's lobby may not be open yet.
		if errors.Is(err, p2p.ErrRefused) || errors.Is(err, tablelog.ErrUnreachable) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	htbl := <-hosted
	if htbl == nil {
		t.FailNow()
	}
	defer htbl.Close()
	if joined.ID() != htbl.ID() || joined.Seat() != 1 || len(waits) == 0 {
		t.Fatalf("joined %v at seat %d (host %v), waits %v", joined.ID(), joined.Seat(), htbl.ID(), waits)
	}
	done := make(chan Outcome, 1)
	go func() {
		out, err := host.Play(ctx, htbl, PlayConfig{Linger: 10 * time.Second}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	out, err := joiner.Play(ctx, joined, PlayConfig{Linger: 10 * time.Second}, nil)
	if err != nil || !out.Over {
		t.Fatalf("joiner: %+v, %v", out, err)
	}
	if hout := <-done; !hout.Over || hout.Head != out.Head {
		t.Fatalf("host %+v, joiner %+v", hout, out)
	}
}

// TestResumeEveryBotKind: a device that hosted a table of any game with
// bots of any kind of that game (and Njet's search at a level) resumes
// it after a restart: its saved seat list reads back with the kinds.
func TestResumeEveryBotKind(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, g := range games.All() {
		kinds := slices.Clone(g.Kinds)
		if g.Name == table.GameNjet {
			kinds = append(kinds, "search:quick")
		}
		for _, kind := range kinds {
			t.Run(g.ID+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				d, err := OpenDevice(dir, loopback)
				if err != nil {
					t.Fatal(err)
				}
				v := g.Variants[len(g.Variants)-1]
				// A lobby lists its bots by plain kinds; the device's own
				// seat takes any kind, a search level too.
				lobbyKind, _, _ := strings.Cut(kind, ":")
				tbl, err := d.Host(ctx, HostConfig{Name: "R", Game: g.Name, Variant: v.ID, Players: 3,
					BotKinds: []string{lobbyKind, lobbyKind}, Bot: kind, Rounds: 1, Wait: 10 * time.Second}, nil)
				if err != nil {
					t.Fatal(err)
				}
				id := tbl.ID()
				if err := errors.Join(tbl.Close(), d.Close()); err != nil {
					t.Fatal(err)
				}
				d, err = OpenDevice(dir, loopback)
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				again, err := d.Resume(kind)
				if err != nil || again == nil || again.ID() != id {
					t.Fatalf("resume: %v, %v", again, err)
				}
				defer again.Close()
				for i, s := range again.seats {
					if want := map[bool]string{true: kind, false: lobbyKind}[i == 0]; s.Bot != want {
						t.Errorf("seat %d resumes with bot %q, want %q", s.Seat, s.Bot, want)
					}
				}
			})
		}
	}
}

// TestTheGameCoopResumes hosts a table of The Game with coop bots, plays
// until the first deal, stops the device and resumes the table from its
// store: the bots play it to the end, and the log verifies.
func TestTheGameCoopResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	d, err := OpenDevice(dir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := d.Host(ctx, HostConfig{Name: "G", Game: table.GameTheGame, Variant: "extreme", Players: 3,
		BotKinds: []string{"coop", "coop"}, Bot: "coop", Wait: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := tbl.ID()
	pctx, stop := context.WithCancel(ctx)
	if _, err := d.Play(pctx, tbl, PlayConfig{Linger: time.Second}, func(e Event) {
		if _, ok := e.(Shuffling); ok {
			stop()
		}
	}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("the first play: %v", err)
	}
	stop()
	if err := errors.Join(tbl.Close(), d.Close()); err != nil {
		t.Fatal(err)
	}
	d, err = OpenDevice(dir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	again, err := d.Resume("coop")
	if err != nil || again == nil || again.ID() != id {
		t.Fatalf("resume: %v, %v", again, err)
	}
	defer again.Close()
	out, err := d.Play(ctx, again, PlayConfig{Linger: time.Second}, nil)
	if err != nil || !out.Over || out.TheGame == nil {
		t.Fatalf("the resumed play: %+v, %v", out, err)
	}
	path := filepath.Join(t.TempDir(), "g.njetlog")
	if err := d.Export(id, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, err := table.Verify(f); err != nil || !v.Over || v.TheGame == nil {
		t.Fatalf("verify: %+v, %v", v, err)
	}
}
