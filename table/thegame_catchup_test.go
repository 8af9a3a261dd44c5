package table

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTheGameRestartCatchesUpBeforePosting: a device of a table of The
// Game whose store lost the envelopes it had posted (the file cut at one
// of its own envelopes) restarts with fresh randomness, fetches what the
// others hold before it posts, and so never signs a second envelope at a
// seq they hold: its log ends equal to theirs, its envelope at the cut is
// the one it had posted, no store holds evidence of equivocation, and the
// log verifies.
func TestTheGameRestartCatchesUpBeforePosting(t *testing.T) {
	const seat = 1
	cases := []struct {
		name string
		kind Kind
	}{
		{"shuffle lost", KindShuffle},
		{"round key lost", KindRoundKey},
		{"play lost", KindPlay},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: 3, Seed: uint64(1500 + i), Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := s.Run(ctx, nil); err != nil {
				t.Fatal(err)
			}
			want, err := s.Export(0)
			if err != nil {
				t.Fatal(err)
			}
			stores := make([]*Store, 3)
			for i := range stores {
				st, err := OpenStore(filepath.Join(dir, fmt.Sprintf("thegame-seat-%d.db", i)), &StoreOptions{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				stores[i] = st
			}
			// Cut the seat's store at its last envelope of the kind.
			cut, err := lastOwn(stores[seat], s.Table(), seat, c.kind)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := stores[seat].Envelopes(s.Table(), cut, cut+1)
			if err != nil || len(orig) != 1 {
				t.Fatalf("the envelope at seq %d: %v", cut, err)
			}
			off := offsetOf(stores[seat], s.Table(), cut)
			if err := stores[seat].Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("thegame-seat-%d.db", seat))
			if err := os.Truncate(path, off); err != nil {
				t.Fatal(err)
			}
			if stores[seat], err = OpenStore(path, &StoreOptions{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			defer func() {
				for _, st := range stores {
					st.Close()
				}
			}()
			if next, _ := stores[seat].Next(s.Table()); next != cut {
				t.Fatalf("the cut store holds %d envelopes, want %d", next, cut)
			}
			net, err := NewMemNetwork(s.Table(), rand.New(rand.NewPCG(7, 7)), NetConfig{})
			if err != nil {
				t.Fatal(err)
			}
			var eps []*MemEndpoint
			for i, st := range stores {
				ep, err := net.Join(ctx, s.ids[i], st)
				if err != nil {
					t.Fatal(err)
				}
				defer ep.Close()
				eps = append(eps, ep)
			}
			// Fresh randomness: whatever it posted again would differ.
			seed := sha256.Sum256([]byte("a restarted device"))
			ticker := time.NewTicker(5 * time.Millisecond)
			defer ticker.Stop()
			p, err := NewTheGamePeer(TheGamePeerConfig{Table: s.Table(), Creator: s.ids[0], Seat: seat, Key: s.keys[seat],
				Store: stores[seat], Transport: eps[seat], Peers: []Identity{s.ids[0], s.ids[2]}, Seed: &seed, Tick: ticker.C})
			if err != nil {
				t.Fatal(err)
			}
			if !p.CatchingUp() {
				t.Fatal("a peer restarted from a store with a log does not catch up first")
			}
			pctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- p.Run(pctx) }()
			end, _ := stores[0].Next(s.Table())
			for range 2000 {
				if next, _ := p.Log().Head(); next >= end && !p.CatchingUp() {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			stop()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if next, _ := p.Log().Head(); next != end {
				t.Fatalf("the restarted log holds %d envelopes, the others %d", next, end)
			}
			again, err := stores[seat].Envelopes(s.Table(), cut, cut+1)
			if err != nil || len(again) != 1 || again[0].Hash() != orig[0].Hash() {
				t.Fatalf("the envelope at seq %d is not the one seat %d posted first (%v)", cut, seat, err)
			}
			for i, st := range stores {
				ev, err := st.Evidence(s.Table())
				if err != nil {
					t.Fatal(err)
				}
				if len(ev) > 0 {
					t.Errorf("seat %d holds evidence that seat %d equivocated at seq %d", i, ev[0].First.Author, ev[0].First.Seq)
				}
			}
			got, err := storeExport(stores[seat], s.Table())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatal("the restarted seat's log differs from seat 0's")
			}
			if _, err := Verify(bytes.NewReader(got)); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}
