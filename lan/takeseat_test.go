package lan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// threeDevices opens a table of three devices on loopback, every seat a
// random bot: the host's seat 0 and two joiners'. It returns the devices
// and their tables, the host's first.
func threeDevices(t *testing.T, ctx context.Context, rounds int) ([]*Device, []*Table) {
	t.Helper()
	devs := make([]*Device, 3)
	for i := range devs {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		devs[i] = d
	}
	tables := make([]*Table, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tables[0], errs[0] = devs[0].Host(ctx, HostConfig{Name: "Seat", Variant: "classic", Players: 3, Rounds: rounds,
			Wait: 30 * time.Second, Bot: "random"}, nil)
	}()
	target, err := AddrTarget(devs[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tables[i] == nil && errs[i] == nil {
				tables[i], errs[i] = devs[i].Join(ctx, target, "random", nil)
				// The host's lobby may not be open yet.
				if errors.Is(errs[i], p2p.ErrRefused) || errors.Is(errs[i], tablelog.ErrUnreachable) {
					errs[i] = nil
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("device %d: %v", i, err)
		}
	}
	t.Cleanup(func() { tables[0].Close() })
	return devs, tables
}

// A device leaves a table of bots for good before it posts anything; the
// two others hand its seat to a bot. A watcher joins after the first
// round: it sees no hand while it watches, claims the bot's seat through
// the device it watches, and the log hands the seat to its key at the
// start of a later round. It plays the seat to the end: every log is the
// same, it verifies, and it records the hand-over. The devices' topic let
// the former watcher in only once their logs held the SeatClaim.
func TestWatcherTakesABotSeatAtTheNextRound(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// Six rounds: on a loaded machine the bots must not finish the game
	// before the watcher's claim reaches the next deal.
	devs, tables := threeDevices(t, ctx, 6)
	const goneDev = 2
	gone := tables[goneDev].Seat()
	if err := devs[goneDev].Close(); err != nil {
		t.Fatal(err)
	}
	clock := memtable.NewClock()
	const voidAfter = 5 * time.Second
	sessions := make([]*p2p.Session, 2)
	for i := range sessions {
		s, err := devs[i].Node().NewSession(p2p.SessionConfig{Setup: tables[i].setup, Store: devs[i].Store(),
			Seats: tables[i].seats, Tick: 100 * time.Millisecond, Poll: 50 * time.Millisecond, Linger: 5 * time.Second,
			Now: clock.Now, Patience: voidAfter, VoidAfter: voidAfter})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = s
	}
	peers := []*table.Peer{sessions[0].Peer(tables[0].Seat()), sessions[1].Peer(tables[1].Seat())}
	runErrs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runErrs[i] = s.Run(ctx, nil)
		}()
	}
	// Move the clock while both devices wait for the silent seat, until
	// the table has voided the round for it: the clock is still from
	// then on, so the former watcher is never too slow for the table.
	clockDone := make(chan struct{})
	go func() {
		defer close(clockDone)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
			waiting := true
			for _, p := range peers {
				waiting = waiting && p.View().Turn == gone && p.Game().HostOf(gone) < 0 && len(p.Game().Voided()) == 0
			}
			if waiting {
				clock.Add(time.Second)
			}
		}
	}()
	defer func() {
		cancel()
		<-clockDone
	}()
	for len(peers[1].Game().Njet().Results()) < 1 {
		select {
		case <-ctx.Done():
			t.Fatal("the first round did not end")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if h := peers[1].Game().HostOf(gone); h < 0 {
		t.Fatalf("no bot plays the seat of the device gone")
	}

	// The watcher watches the joiner, not the host.
	wdev, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer wdev.Close()
	target, err := AddrTarget(devs[1].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	w, err := wdev.Watch(ctx, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		seat int
		kind string
		want error
	}{
		{"a seat its device plays", tables[1].Seat(), "random", ErrNotBotSeat},
		{"no such seat", 3, "random", ErrNotBotSeat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := w.TakeSeat(ctx, tc.seat, tc.kind); !errors.Is(err, tc.want) {
				t.Errorf("TakeSeat(%d): %v, want %v", tc.seat, err, tc.want)
			}
		})
	}
	// The member's own game refuses a claim of the seat its device plays,
	// even when the claimant asks it directly.
	own := &table.SeatClaimRequest{Table: w.ID(), Seat: uint8(tables[1].Seat()), Key: wdev.Node().Identity()}
	if err := own.Sign(wdev.Node().Key()); err != nil {
		t.Fatal(err)
	}
	if err := wdev.Node().Claim(ctx, devs[1].ID(), own); !errors.Is(err, p2p.ErrClaimRefused) {
		t.Errorf("a claim of the joiner's seat sent to the joiner: %v, want p2p.ErrClaimRefused", err)
	}
	if _, err := w.TakeSeat(ctx, gone, "no-such-bot"); err == nil {
		t.Errorf("TakeSeat with an unknown bot kind succeeded")
	}
	wctx, stopWatching := context.WithCancel(ctx)
	watched := make(chan error, 1)
	go func() { watched <- w.Run(wctx) }()
	// The watcher's view, each time the log grew, holds no card a seat
	// keeps to itself (checkPublic's rule; a test goroutine cannot stop
	// the test, so it keeps the first view that breaks it).
	looks := 0
	var leaked *table.PeerView
	lookDone := make(chan struct{})
	go func() {
		defer close(lookDone)
		for {
			select {
			case <-wctx.Done():
				return
			case <-w.Changed():
			}
			v := w.View()
			g := v.Game
			if leaked == nil && (g.Hand.Len() != 0 || g.Discarded.Len() != 0 || g.Passed != engine.NoCard ||
				g.Received != engine.NoCard || v.Prompt != nil || v.BotHost != -1) {
				leaked = &v
			}
			looks++
		}
	}()
	joinedAt := w.Log().Next()
	asked := time.Now()
	taken, err := w.TakeSeat(ctx, gone, "random")
	claimTook := time.Since(asked)
	stopWatching()
	<-lookDone
	if werr := <-watched; werr != nil && !errors.Is(werr, context.Canceled) {
		t.Errorf("watching: %v", werr)
	}
	if err != nil {
		t.Fatalf("TakeSeat: %v", err)
	}
	if leaked != nil {
		checkPublic(t, *leaked)
	}
	checkPublic(t, w.View())
	if looks == 0 {
		t.Errorf("the watcher never looked at the table")
	}
	// The live views came as the log grew; replay what the watcher saw
	// envelope by envelope to look at every step it could have shown.
	seen := w.Log().Next()
	game := table.NewGame(table.GameConfig{Table: w.ID(), Creator: w.Genesis().Keys[0]})
	replay, err := tablelog.NewLog(tablelog.LogConfig{Table: w.ID(), Protocol: game})
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range w.Log().Range(0, seen) {
		if _, err := replay.Append(env); err != nil {
			t.Fatalf("replay seq %d: %v", env.Seq, err)
		}
		checkPublic(t, table.PeerView{Game: game.Njet().PublicView(), Seq: env.Seq, BotHost: -1})
	}
	if taken.Seat() != gone || taken.Bot() != "random" || taken.ID() != tables[0].ID() {
		t.Errorf("took seat %d of %v played by %q, want seat %d of %v", taken.Seat(), taken.ID(), taken.Bot(), gone, tables[0].ID())
	}
	out, err := wdev.Play(ctx, taken, PlayConfig{Linger: 5 * time.Second}, nil)
	if err != nil || out.CloseErr != nil || !out.Over {
		t.Fatalf("the former watcher's play: %+v, %v", out, err)
	}
	wg.Wait()
	for i, s := range sessions {
		if runErrs[i] != nil {
			t.Errorf("device %d: %v", i, runErrs[i])
		}
		next, head := peers[i].Log().Head()
		if !peers[i].Game().Over() || next != out.Envelopes || head != out.Head {
			t.Errorf("device %d ends at %d %v, the former watcher at %d %v", i, next, head, out.Envelopes, out.Head)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
	path := filepath.Join(t.TempDir(), "seat.njetlog")
	if err := wdev.Export(taken.ID(), path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := table.Verify(f)
	if err != nil || !v.Over {
		t.Fatalf("verify: %+v, %v", v, err)
	}
	if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != gone || v.HandedBack[0].Key != wdev.Node().Identity() {
		t.Errorf("handed back %+v, want seat %d to %v", v.HandedBack, gone, wdev.Node().Identity())
	}
	// The seat changed hands after the watcher came, at the key setup of
	// a round after the first.
	if hb := v.HandedBack[0]; hb.Seq < joinedAt || len(v.Results) != 6 {
		t.Errorf("the seat changed hands at seq %d, the watcher came at %d; %d rounds", hb.Seq, joinedAt, len(v.Results))
	}
	t.Logf("the watcher looked %d times; asked at seq %d, the seat changed hands at seq %d, %v after the claim",
		looks, joinedAt, v.HandedBack[0].Seq, claimTook.Round(time.Millisecond))
}
