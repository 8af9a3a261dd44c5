package table

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// tgPartition is a table of The Game played by bots over a MemNetwork, one
// device of which is cut off from the others (all its links) and later
// healed. Its clock moves one second per tick only while every device
// still playing waits for a seat hosted across the cut: nothing but the
// patience can move the table on then, and no device waits for one on
// its own side of the cut long enough to vote it out.
type tgPartition struct {
	s      *TheGameSelfplay
	cutOff int
	peers  []*TheGamePeer
	stores []*Store

	mu    sync.Mutex
	clock time.Time
	cut   bool
}

func (tp *tgPartition) now() time.Time {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.clock
}

func (tp *tgPartition) isCut() bool {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.cut
}

// side reports whether seat's device is the one cut off.
func (tp *tgPartition) side(seat int) bool { return seat == tp.cutOff }

// stalled reports whether every device that has not finished waits at
// its head for a seat hosted on the other side of the cut.
func (tp *tgPartition) stalled() bool {
	if !tp.isCut() {
		return false
	}
	for seat, p := range tp.peers {
		if p.Done() {
			continue
		}
		g := p.Game()
		next, _ := p.rep().head()
		turn, err := g.Entitled(next)
		if err != nil || tp.side(g.PeerOf(int(turn.Seat))) == tp.side(seat) {
			return false
		}
	}
	return true
}

// tookOver reports whether seat's log holds a takeover at or after seq.
func tookOver(p *TheGamePeer, seq uint64) bool {
	for _, v := range p.Game().Takeovers() {
		if v.Seq >= seq {
			return true
		}
	}
	return false
}

// sameLogs reports whether every peer's log has the same head.
func (tp *tgPartition) sameLogs() bool {
	next0, h0 := tp.peers[0].rep().head()
	for _, p := range tp.peers[1:] {
		if next, h := p.rep().head(); next != next0 || h != h0 {
			return false
		}
	}
	return true
}

// droppedSecrets lists the branch-bound secrets the cut-off device holds
// for the rounds its own takeovers began and the bots it took over.
func (tp *tgPartition) droppedSecrets(t *testing.T) map[string][]byte {
	t.Helper()
	p := tp.peers[tp.cutOff]
	g := p.Game()
	g.mu.Lock()
	rounds, n := g.round, g.n
	g.mu.Unlock()
	out := map[string][]byte{}
	for s := range n {
		for r := 2; r <= rounds; r++ {
			if b, err := tp.stores[tp.cutOff].Secret(tp.s.table, theGameKeysName(r, s)); err == nil {
				out[theGameKeysName(r, s)] = b
			}
		}
		if b, err := tp.stores[tp.cutOff].Secret(tp.s.table, botKeyName(s)); err == nil {
			out[botKeyName(s)] = b
		}
	}
	return out
}

// TestTheGamePartitionLighterDeviceRewinds: at a table of The Game one
// device is cut off (every link) long enough for both sides to take the
// other over: the device alone votes everyone else out with its one vote,
// the others vote it out with theirs. Once healed, the device on the
// lighter branch compares branches with a member (on a refused envelope,
// or by asking the members once its game is over), rewinds its store and
// log to the first difference, dropping the secrets and bot keys of its
// own branch, and follows the heavier one. Every device ends with the same
// log, Verify accepts it, and no view ever held a card of a hand its
// device does not play.
func TestTheGamePartitionLighterDeviceRewinds(t *testing.T) {
	cases := []struct {
		name    string
		players int
		extreme bool
		cutOff  int
		cutAt   uint64
		// overFirst heals only once both sides have finished their
		// games: the lighter device then hears of no envelope it would
		// refuse and finds the other branch by asking (probe).
		overFirst bool
	}{
		{"three seats", 3, false, 2, 40, false},
		{"five seats extreme", 5, true, 1, 60, false},
		{"three seats game over first", 3, true, 1, 40, true},
		{"five seats game over first", 5, false, 3, 60, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.players == 5 {
				t.Log("the three-seat tables are enough with -short")
				return
			}
			testTheGamePartition(t, uint64(900+i), c.players, c.extreme, c.cutOff, c.cutAt, c.overFirst)
		})
	}
}

func testTheGamePartition(t *testing.T, seed uint64, players int, extreme bool, cutOff int, cutAt uint64, overFirst bool) {
	s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: players, Extreme: extreme, Seed: seed, Dir: t.TempDir(),
		Net: NetConfig{Drop: 0.02, Duplicate: 0.02}})
	if err != nil {
		t.Fatal(err)
	}
	tp := &tgPartition{s: s, cutOff: cutOff, clock: time.Unix(1_700_000_000, 0)}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const tick = 5 * time.Millisecond
	const patience = 10 * time.Second
	errc := make(chan error, players)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		for _, st := range tp.stores {
			st.Close()
		}
	}()
	for seat := range players {
		store, err := OpenStore(filepath.Join(t.TempDir(), fmt.Sprintf("seat-%d.db", seat)), &StoreOptions{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		tp.stores = append(tp.stores, store)
		ep, err := s.net.Join(ctx, s.ids[seat], store)
		if err != nil {
			t.Fatal(err)
		}
		var others []Identity
		for i, id := range s.ids {
			if i != seat {
				others = append(others, id)
			}
		}
		pseed := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("partition"), seed^uint64(seat)<<56))
		ticker := time.NewTicker(tick)
		defer ticker.Stop()
		p, err := NewTheGamePeer(TheGamePeerConfig{Table: s.table, Creator: s.ids[0], Genesis: s.genesis, Seat: seat,
			Key: s.keys[seat], Store: store, Transport: ep, Peers: others, Seed: &pseed, Tick: ticker.C,
			Patience: patience, VoidAfter: patience, Grace: patience, Now: tp.now})
		if err != nil {
			t.Fatal(err)
		}
		tp.peers = append(tp.peers, p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := p.Run(ctx)
			if errors.Is(err, ErrClosed) && ctx.Err() != nil {
				err = nil
			}
			if err != nil {
				errc <- fmt.Errorf("seat %d: %w", seat, err)
			}
		}()
	}

	cutID := s.ids[cutOff]
	var cutSeq uint64 // the longest log when the device was cut off
	atCut := make([]uint64, players)
	healed := false
	var dropped map[string][]byte
	var droppedRound int
	seen := make([]uint64, players)
	leaks := 0
	heartbeat := time.NewTicker(tick)
	defer heartbeat.Stop()
	for {
		for seat, p := range tp.peers {
			if next, _ := p.rep().head(); next != seen[seat] {
				seen[seat] = next
				leaks += leaveLeaks(t, p.Game(), seat)
			}
			if v := p.Game().Violation(); v != nil {
				t.Fatalf("seat %d halted: %v", seat, v)
			}
		}
		switch {
		case cutSeq == 0:
			var longest uint64
			for _, p := range tp.peers {
				longest = max(longest, p.Log().Next())
			}
			if longest >= cutAt {
				cutSeq = longest
				s.net.Disconnect(cutID)
				for seat, p := range tp.peers {
					atCut[seat] = p.Log().Next()
				}
				tp.mu.Lock()
				tp.cut = true
				tp.mu.Unlock()
			}
		case !healed:
			ready := true
			for seat, p := range tp.peers {
				ready = ready && tookOver(p, atCut[seat]) && (!overFirst || p.Done())
			}
			if ready {
				dropped = tp.droppedSecrets(t)
				g := tp.peers[cutOff].Game()
				g.mu.Lock()
				droppedRound = g.round
				g.mu.Unlock()
				tp.mu.Lock()
				tp.cut = false
				tp.mu.Unlock()
				s.net.Reconnect(cutID)
				healed = true
			}
		default:
			done := true
			for _, p := range tp.peers {
				done = done && p.Done()
			}
			if done && tp.sameLogs() {
				goto finished
			}
		}
		if tp.stalled() {
			tp.mu.Lock()
			tp.clock = tp.clock.Add(time.Second)
			tp.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			for seat, p := range tp.peers {
				next, h := p.rep().head()
				t.Logf("seat %d: log %d (%x), done %v, takeovers %v, rewinds %d", seat, next, h[:4], p.Done(), p.Game().Takeovers(), p.Rewinds())
			}
			t.Fatalf("the table did not end with one log (cut at %d, healed %v)", cutSeq, healed)
		case err := <-errc:
			t.Fatal(err)
		case <-heartbeat.C:
		}
	}
finished:
	cancel()
	wg.Wait()
	select {
	case err := <-errc:
		t.Fatal(err)
	default:
	}
	if leaks != 0 {
		t.Fatalf("%d cards in views of hands the device does not play", leaks)
	}
	if len(dropped) == 0 {
		t.Fatal("the cut-off device stored no secret of its own branch: it never took the others over")
	}
	var first []byte
	for seat, st := range tp.stores {
		x, err := storeExport(st, s.table)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = x
		} else if !bytes.Equal(x, first) {
			t.Fatalf("seat %d's stored log differs from seat 0's", seat)
		}
	}
	v, err := Verify(bytes.NewReader(first))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !v.Over || v.TheGame == nil {
		t.Fatalf("Verify: over %v, result %v", v.Over, v.TheGame)
	}
	for seat, p := range tp.peers {
		switch r := p.Rewinds(); {
		case seat == cutOff && r == 0:
			t.Errorf("the cut-off seat %d never gave way to the table's branch", seat)
		case seat != cutOff && r != 0:
			t.Errorf("seat %d, on the heavier side, rewound %d times", seat, r)
		}
	}
	// The table's branch took the cut-off device over: it hosts no seat
	// there, so none of the round secrets or bot keys of its own branch
	// may be left in its store.
	g := tp.peers[cutOff].Game()
	if h := g.PeerOf(cutOff); h == cutOff {
		t.Fatalf("seat %d still plays its own seat on the table's branch", cutOff)
	}
	for name := range dropped {
		if _, err := tp.stores[cutOff].Secret(s.table, name); !errors.Is(err, ErrNotFound) {
			t.Errorf("the secret %s of the dropped branch is still in the store (%v)", name, err)
		}
	}
	g.mu.Lock()
	rounds := max(g.round, droppedRound)
	g.mu.Unlock()
	for r := 2; r <= rounds; r++ {
		for seat := range players {
			if _, err := tp.stores[cutOff].Secret(s.table, theGameKeysName(r, seat)); !errors.Is(err, ErrNotFound) {
				t.Errorf("seat %d's store holds round %d secrets of seat %d (%v)", cutOff, r, seat, err)
			}
		}
	}
	res, ok := g.Result()
	if !ok || res != *v.TheGame {
		t.Errorf("Verify found %+v, the cut-off device %+v", v.TheGame, res)
	}
}
