package table

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// A device hears the others through their Presence: Heard is the last of
// them, Unheard how long ago by the device's clock. At a table of two
// the other device's silence cannot be told from its leaving: nothing is
// said. A forged Presence is no sign of life.
func TestHeardOtherDevices(t *testing.T) {
	start := time.Date(2026, 5, 1, 20, 15, 30, 0, time.UTC)
	for _, c := range []struct {
		players int
		heard   bool
	}{{4, true}, {2, false}} {
		var mu sync.Mutex
		clock := start
		now := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return clock
		}
		set := func(t time.Time) {
			mu.Lock()
			clock = t
			mu.Unlock()
		}
		sp, p := waitingPeer(t, SelfplayConfig{Edition: engine.Modern, Players: c.players, Seed: 4}, now)
		if v := p.View(); !v.Heard.IsZero() || v.Unheard != 0 {
			t.Fatalf("%d players, nobody heard yet: heard %v, unheard %v", c.players, v.Heard, v.Unheard)
		}
		beat := uint64(100)
		announce := func(seat int, forged bool) {
			t.Helper()
			beat++
			a := &Presence{Table: sp.table, Seat: uint8(seat), Beat: beat, Head: 1}
			key := sp.keys[seat]
			if forged {
				key = sp.keys[0]
			}
			if err := a.Sign(key); err != nil {
				t.Fatal(err)
			}
			b, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			p.receivePresence(tablelog.Received{Data: b})
		}
		announce(1, false)
		set(start.Add(5 * time.Second))
		if c.players > 2 {
			announce(2, false)
		}
		set(start.Add(20 * time.Second))
		announce(1, true)
		v := p.View()
		if !c.heard {
			if !v.Heard.IsZero() || v.Unheard != 0 {
				t.Errorf("%d players: heard %v, unheard %v, want nothing said", c.players, v.Heard, v.Unheard)
			}
			continue
		}
		if want := start.Add(5 * time.Second); !v.Heard.Equal(want) || v.Unheard != 15*time.Second {
			t.Errorf("%d players: heard %v, unheard %v, want %v and 15s", c.players, v.Heard, v.Unheard, want)
		}
	}
}

// waitingPeer is seat 0's peer of the table of cfg, on clock now, once it
// has posted the genesis and waits for seat 1's acknowledgement (the other
// seats never come); its run has ended.
func waitingPeer(t *testing.T, cfg SelfplayConfig, now func() time.Time) (*Selfplay, *Peer) {
	t.Helper()
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	net, err := tablelog.NewMemNetwork(sp.table, rand.New(rand.NewPCG(1, 2)), tablelog.NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	store, err := tablelog.OpenStore(filepath.Join(t.TempDir(), "s.db"), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	ep, err := net.Join(ctx, sp.ids[0], store)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	p, err := NewPeer(PeerConfig{Table: sp.table, Creator: sp.ids[0], Genesis: sp.genesis, Seat: 0, Key: sp.keys[0],
		Store: store, Transport: ep, Bot: "random", NewPlayer: testPlayers, Seed: &[32]byte{1}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
wait:
	for {
		select {
		case ev := <-p.Events():
			if ev.Turn == 1 && ev.Kind == tablelog.KindAck {
				break wait
			}
		case <-ctx.Done():
			t.Fatal("seat 0 never waited for seat 1")
		}
	}
	cancel()
	if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	return sp, p
}
