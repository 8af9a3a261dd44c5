package lan

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/table"
)

// TestPlayAgain: three devices and a bot play a table to its end; the
// host allowed hints, which every device sees in the lobby and the
// genesis. Then the host and Ben want to play again and Cleo does not:
// both see whom they wait for, nobody is forced, and both leave. Then all
// three want to play again, Cleo first: the new table has a fresh
// genesis, every person in their old seat with their name, the bot of
// the same kind, hints still allowed, and it is played to its end.
func TestPlayAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	names := []string{"Anna", "Ben", "Cleo"}
	var devs []*Device
	for range names {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		devs = append(devs, d)
	}
	h, err := devs[0].OpenLobby(HostConfig{Name: "T", Variant: "modern", Players: 4, BotKinds: []string{"random"}, Rounds: 1,
		Bot: "random", Player: names[0], Hints: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	target, err := AddrTarget(devs[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	tables := make([]*Table, len(devs))
	joinWaits := make(chan Waiting, 64)
	var wg sync.WaitGroup
	errs := make([]error, len(devs))
	for i := 1; i < len(devs); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tables[i], errs[i] = joinWhenOpen(ctx, devs[i], target, names[i], joinWaits)
		}()
		// One at a time, so that the seats follow the names.
		untilWaiting(t, ctx, joinWaits, names[i]+" seated", func(w Waiting) bool { return w.Seated == i+1 })
	}
	untilWaiting(t, ctx, joinWaits, "the hints in the lobby", func(w Waiting) bool { return w.Hints })
	if tables[0], err = h.Start(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
	}
	// play plays tbls to the end; during runs while they play.
	play := func(tbls []*Table, during func()) {
		t.Helper()
		outs := make([]Outcome, len(tbls))
		var wg sync.WaitGroup
		for i, tbl := range tbls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], errs[i] = devs[i].Play(ctx, tbl, PlayConfig{Linger: 10 * time.Second}, nil)
			}()
		}
		during()
		wg.Wait()
		for i := range tbls {
			if errs[i] != nil || !outs[i].Over || outs[i].Head != outs[0].Head {
				t.Fatalf("%s: %+v, %v (host %+v)", names[i], outs[i], errs[i], outs[0])
			}
		}
	}
	for i, tbl := range tables {
		if !tbl.Hints() || tbl.Seat() != i || !slices.Equal(tbl.Names(), append(slices.Clone(names), "")) {
			t.Fatalf("%s: hints %v, seat %d, names %q", names[i], tbl.Hints(), tbl.Seat(), tbl.Names())
		}
	}
	// A watcher follows the table, and then the table played again.
	watcher, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	var w *Watcher
	watched := make(chan error, 1)
	play(tables, func() {
		// The host serves watchers once its table plays.
		for w == nil {
			if w, err = watcher.Watch(ctx, target, nil); err != nil && !errors.Is(err, ErrUnreachable) {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		go func() { watched <- w.Run(ctx) }()
	})
	if err := <-watched; err != nil || w.ID() != tables[0].ID() {
		t.Fatalf("the watcher: %v, table %x", err, w.ID())
	}

	// Cleo does not want to play again: the others wait, see who is
	// seated, and leave.
	lctx, leave := context.WithCancel(ctx)
	waits := [2]chan Waiting{make(chan Waiting, 64), make(chan Waiting, 64)}
	again := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, again[i] = devs[i].Again(lctx, tables[i], func(p Progress) {
				if w, ok := p.(Waiting); ok {
					waits[i] <- w
				}
			})
		}()
	}
	for i := range 2 {
		untilWaiting(t, ctx, waits[i], names[i]+" sees whom the table waits for", func(w Waiting) bool {
			return w.Seated == 2 && w.Wanted == 3 && slices.Equal(w.Players, names[:2]) && w.Hints
		})
	}
	leave()
	wg.Wait()
	for i, err := range again {
		if !errors.Is(err, ErrNotFilled) {
			t.Fatalf("%s left the wait: %v, want ErrNotFilled", names[i], err)
		}
	}

	// Everybody wants to play again; Cleo asks first. The watcher waits
	// for the new table.
	followed := make(chan *Watcher, 1)
	go func() {
		nw, err := w.Again(ctx)
		if err != nil {
			t.Error(err)
		}
		followed <- nw
	}()
	next := make([]*Table, len(devs))
	for _, i := range []int{2, 1, 0} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next[i], errs[i] = devs[i].Again(ctx, tables[i], nil)
		}()
		time.Sleep(100 * time.Millisecond) // an order of claims, not a timing assertion
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
	}
	for i, tbl := range next {
		if tbl.ID() == tables[i].ID() || tbl.Lobby() != AgainID(tables[i].ID()) || tbl.ID() != next[0].ID() {
			t.Fatalf("%s: table %x again as %x (lobby %v)", names[i], tables[i].ID(), tbl.ID(), tbl.Lobby())
		}
		if tbl.Seat() != i || !slices.Equal(tbl.Names(), tables[i].Names()) || !tbl.Hints() || tbl.Bot() != tables[i].Bot() {
			t.Fatalf("%s: seat %d, names %q, hints %v, bot %q", names[i], tbl.Seat(), tbl.Names(), tbl.Hints(), tbl.Bot())
		}
	}
	if got := next[0].seats; len(got) != 2 || got[1].Seat != 3 || got[1].Bot != "random" {
		t.Fatalf("the host's seats %+v, want the random bot in seat 3 again", got)
	}
	var nw *Watcher
	play(next, func() {
		// The devices serve the new table to watchers once it plays.
		if nw = <-followed; nw == nil {
			t.Fatal("the watcher did not follow")
		}
		go func() { watched <- nw.Run(ctx) }()
	})
	if err := <-watched; err != nil || nw.ID() != next[0].ID() || !slices.Equal(nw.Names(), next[0].Names()) {
		t.Fatalf("the watcher of the new table: %v, table %x, names %q", err, nw.ID(), nw.Names())
	}
	defer next[0].Close()
}

// TestPlayAgainTheGame: a table of The Game Extreme with a clock, a host
// with a bot and a joiner, is played again: the same game and variant,
// clock, seats and bot.
func TestPlayAgainTheGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var devs []*Device
	for range 2 {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		devs = append(devs, d)
	}
	h, err := devs[0].OpenLobby(HostConfig{Name: "G", Game: table.GameTheGame, Variant: "extreme", Players: 3,
		BotKinds: []string{"greedy"}, Bot: "coop", Player: "Anna", Clock: 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	target, err := AddrTarget(devs[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	joined := make(chan *Table, 1)
	go func() {
		tbl, err := joinWhenOpen(ctx, devs[1], target, "Ben", make(chan Waiting, 64))
		if err != nil {
			t.Error(err)
		}
		joined <- tbl
	}()
	if err := h.Watch(ctx, true, nil); err != nil {
		t.Fatal(err)
	}
	host, err := h.Start()
	if err != nil {
		t.Fatal(err)
	}
	tables := []*Table{host, <-joined}
	if tables[1] == nil {
		t.Fatal("no table for the joiner")
	}
	run := func(tbls []*Table) {
		t.Helper()
		var wg sync.WaitGroup
		outs, errs := make([]Outcome, 2), make([]error, 2)
		for i, tbl := range tbls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], errs[i] = devs[i].Play(ctx, tbl, PlayConfig{Linger: 10 * time.Second}, nil)
			}()
		}
		wg.Wait()
		for i := range tbls {
			if errs[i] != nil || !outs[i].Over || outs[i].TheGame == nil {
				t.Fatalf("device %d: %+v, %v", i, outs[i], errs[i])
			}
		}
	}
	run(tables)
	next := make([]*Table, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next[i], errs[i] = devs[i].Again(ctx, tables[i], nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("device %d: %v", i, err)
		}
		gen, err := next[i].Setup().Check()
		if err != nil || gen.Game != table.GameTheGame || !gen.Extreme || gen.Clock != 30 || next[i].Seat() != i ||
			!slices.Equal(next[i].Names(), tables[i].Names()) || next[i].ID() == tables[i].ID() {
			t.Fatalf("device %d played again as %+v (%v)", i, gen, err)
		}
	}
	if got := next[0].seats; len(got) != 2 || got[1].Seat != 2 || got[1].Bot != "greedy" {
		t.Fatalf("the host's seats %+v, want the greedy bot in seat 2 again", got)
	}
	run(next)
	next[0].Close()
}
