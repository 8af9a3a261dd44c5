package lan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// hostWithLobbyBot opens a table of three on loopback: the host's seat 0,
// a joiner's seat 1 and a random bot the host seats from the lobby in
// seat 2. It returns the two devices and their tables, the host's first.
func hostWithLobbyBot(t *testing.T, ctx context.Context, rounds int) ([]*Device, []*Table) {
	t.Helper()
	devs := make([]*Device, 2)
	for i := range devs {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		devs[i] = d
	}
	tables := make([]*Table, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tables[0], errs[0] = devs[0].Host(ctx, HostConfig{Name: "Lobby bot", Variant: "classic", Players: 3,
			Rounds: rounds, BotKinds: []string{"random"}, Wait: 30 * time.Second, Bot: "random"}, nil)
	}()
	target, err := AddrTarget(devs[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	for tables[1] == nil && errs[1] == nil && ctx.Err() == nil {
		tables[1], errs[1] = devs[1].Join(ctx, target, "random", nil)
		// The host's lobby may not be open yet.
		if errors.Is(errs[1], p2p.ErrRefused) || errors.Is(errs[1], tablelog.ErrUnreachable) {
			errs[1] = nil
			time.Sleep(50 * time.Millisecond)
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("device %d: %v", i, err)
		}
	}
	if tables[1] == nil {
		t.Fatal("the joiner found no seat")
	}
	t.Cleanup(func() { tables[0].Close() })
	return devs, tables
}

// Three friends' table, the third seat a bot the host seated in the
// lobby: a fourth device comes while it plays, watches (seeing no hand),
// and takes the bot's seat: the host's device consents for its bot, the
// joiner approves, and the log hands the seat over at the key setup of
// the next round. The host's device stops playing the bot there; the
// former watcher plays the seat to the end, every log is the same and
// verifies, and it records the hand-over. The seats of the host and the
// joiner cannot be taken.
func TestWatcherTakesALobbyBotSeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	devs, tables := hostWithLobbyBot(t, ctx, 3)
	const lent = 2
	if got := tables[0].Setup().LobbyBots(); len(got) != 1 || got[0] != lent {
		t.Fatalf("the setup's lobby bots are %v, want [%d]", got, lent)
	}
	sessions := make([]*p2p.Session, 2)
	for i := range sessions {
		s, err := devs[i].Node().NewSession(p2p.SessionConfig{Setup: tables[i].setup, Store: devs[i].Store(),
			Seats: tables[i].seats, Tick: 100 * time.Millisecond, Poll: 50 * time.Millisecond, Linger: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = s
	}
	host := sessions[0].Peer(tables[0].Seat())
	botPeer := sessions[0].Peer(lent)
	if botPeer == nil {
		t.Fatalf("the host plays no seat %d", lent)
	}
	runErrs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runErrs[i] = s.Run(ctx, nil)
		}()
	}
	for len(host.Game().Njet().Results()) < 1 {
		select {
		case <-ctx.Done():
			t.Fatal("the first round did not end")
		case <-time.After(50 * time.Millisecond):
		}
	}

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
	}{
		{"the host's seat", tables[0].Seat()},
		{"the joiner's seat", tables[1].Seat()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := w.TakeSeat(ctx, tc.seat, "random"); !errors.Is(err, ErrNotBotSeat) {
				t.Errorf("TakeSeat(%d): %v, want ErrNotBotSeat", tc.seat, err)
			}
		})
	}
	wctx, stopWatching := context.WithCancel(ctx)
	watched := make(chan error, 1)
	go func() { watched <- w.Run(wctx) }()
	joinedAt := w.Log().Next()
	taken, err := w.TakeSeat(ctx, lent, "random")
	stopWatching()
	if werr := <-watched; werr != nil && !errors.Is(werr, context.Canceled) {
		t.Errorf("watching: %v", werr)
	}
	if err != nil {
		t.Fatalf("TakeSeat: %v", err)
	}
	checkPublic(t, w.View())
	if taken.Seat() != lent || taken.Bot() != "random" {
		t.Errorf("took seat %d played by %q, want seat %d", taken.Seat(), taken.Bot(), lent)
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
		p := s.Peer(tables[i].Seat())
		next, head := p.Log().Head()
		if !p.Game().Over() || next != out.Envelopes || head != out.Head {
			t.Errorf("device %d ends at %d %v, the former watcher at %d %v", i, next, head, out.Envelopes, out.Head)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
	if k := botPeer.Game().KeyOf(lent); k != wdev.Node().Identity() {
		t.Errorf("the host's game has seat %d played by %v, want the former watcher's key", lent, k)
	}
	path := filepath.Join(t.TempDir(), "lobby.njetlog")
	if err := wdev.Export(taken.ID(), path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := table.Verify(f)
	if err != nil || !v.Over || len(v.Results) != 3 {
		t.Fatalf("verify: %+v, %v", v, err)
	}
	if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != lent || v.HandedBack[0].Key != wdev.Node().Identity() {
		t.Errorf("handed back %+v, want seat %d to %v", v.HandedBack, lent, wdev.Node().Identity())
	}
	if len(v.Voided) != 0 {
		t.Errorf("rounds voided: %v", v.Voided)
	}
	if hb := v.HandedBack[0]; hb.Seq < joinedAt {
		t.Errorf("the seat changed hands at seq %d, before the watcher came at %d", hb.Seq, joinedAt)
	}
	t.Logf("asked at seq %d, the seat changed hands at seq %d", joinedAt, v.HandedBack[0].Seq)
}
