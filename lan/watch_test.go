package lan

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// checkPublic fails when a watcher's view shows what only a seat may
// know: a hand, a discard, a pass or a received card.
func checkPublic(t *testing.T, v table.PeerView) {
	t.Helper()
	g := v.Game
	if g.Hand.Len() != 0 || g.Discarded.Len() != 0 || g.Passed != engine.NoCard || g.Received != engine.NoCard {
		t.Fatalf("seq %d: the watcher sees hand %v, discards %v, pass %v, received %v",
			v.Seq, g.Hand, g.Discarded, g.Passed, g.Received)
	}
	if v.Prompt != nil || v.BotHost != -1 {
		t.Fatalf("seq %d: the watcher is asked %+v, bot host %d", v.Seq, v.Prompt, v.BotHost)
	}
}

// A device watches a table of bots from the second round on: it catches up
// on the log, follows it to the end, never sees a card before the table
// does, and ends with the players' log.
func TestWatchMidGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	watcher, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	if _, err := watcher.Watch(ctx, LANTarget(""), nil); !errors.Is(err, ErrWatchTarget) {
		t.Errorf("watching a table on the LAN: %v, want ErrWatchTarget", err)
	}

	tbl, err := host.Host(ctx, HostConfig{Name: "W", Variant: "modern", Players: 3, Bots: 2, Rounds: 2,
		Wait: 10 * time.Second, Bot: "random"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	firstRound := make(chan struct{})
	played := make(chan Outcome, 1)
	go func() {
		once := false
		out, err := host.Play(ctx, tbl, PlayConfig{Linger: 20 * time.Second}, func(e Event) {
			if _, ok := e.(RoundOver); ok && !once {
				once = true
				close(firstRound)
			}
		})
		if err != nil {
			t.Error(err)
		}
		played <- out
	}()
	select {
	case <-firstRound:
	case <-ctx.Done():
		t.Fatal("the first round did not end")
	}

	target, err := AddrTarget(host.JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	var seen []Progress
	w, err := watcher.Watch(ctx, target, func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	if w.ID() != tbl.ID() || w.Genesis().Players() != 3 || len(w.Names()) != 3 || len(seen) == 0 {
		t.Fatalf("watching %v (%d players), progress %v; the table is %v", w.ID(), w.Genesis().Players(), seen, tbl.ID())
	}
	if v := w.View(); len(v.Results) < 1 || v.Seq < 2 {
		t.Errorf("the watcher joined mid-game but holds %d envelopes and %d rounds", v.Seq, len(v.Results))
	}
	ran := make(chan error, 1)
	go func() { ran <- w.Run(ctx) }()
	views := 0
	for done := false; !done; {
		select {
		case <-w.Changed():
		case err := <-ran:
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			done = true
		case <-ctx.Done():
			t.Fatal("the watcher did not see the end")
		}
		v := w.View()
		checkPublic(t, v)
		views++
	}
	v := w.View()
	if !v.Over || len(v.Results) != 2 {
		t.Fatalf("the watcher ends with over %v, %d rounds", v.Over, len(v.Results))
	}
	out := <-played
	next, head := w.Log().Head()
	if !out.Over || out.Envelopes != next || out.Head != head {
		t.Fatalf("host %+v; the watcher's log: %d envelopes, head %v", out, next, head)
	}
	// The live views came as the log grew; replay it envelope by envelope
	// to look at every step, discards and passes included.
	game := table.NewGame(table.GameConfig{Table: w.ID(), Creator: w.Genesis().Keys[0]})
	replay, err := tablelog.NewLog(tablelog.LogConfig{Table: w.ID(), Protocol: game})
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range w.Log().Range(0, next) {
		if _, err := replay.Append(env); err != nil {
			t.Fatalf("replay seq %d: %v", env.Seq, err)
		}
		checkPublic(t, table.PeerView{Game: game.Njet().PublicView(), Seq: env.Seq, BotHost: -1})
	}
	t.Logf("%d live views and %d steps checked", views, next)
}

// Watching an address where nobody answers fails with ErrUnreachable.
func TestWatchUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, addr := range []string{"127.0.0.1:9", "/ip4/127.0.0.1/tcp/9"} {
		t.Run(addr, func(t *testing.T) {
			target, err := AddrTarget(addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Watch(ctx, target, nil); !errors.Is(err, ErrUnreachable) {
				t.Errorf("watching %s: %v, want ErrUnreachable", addr, err)
			}
		})
	}
}
