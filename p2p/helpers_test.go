package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/njetlan/njet/tablelog"
)

// testTimeout bounds every wait of a test: on a hang the test fails with
// the context's error instead of running until go test's own timeout.
const testTimeout = 90 * time.Second

func newTestNode(t testing.TB) *Node {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(NodeConfig{Key: key, Listen: LoopbackListen, Logf: func(f string, a ...any) { t.Logf(f, a...) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func openTestStore(t testing.TB, dir string) *tablelog.Store {
	t.Helper()
	s, err := tablelog.OpenStore(filepath.Join(dir, "njet.db"), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testTable is a table of len(nodes) devices on loopback, every seat a
// bot, set up through the lobby.
type testTable struct {
	nodes  []*Node
	setup  *Setup
	seats  [][]LocalSeat // per node
	stores []*tablelog.Store
}

// newTestTable opens a lobby on nodes[0], joins the others by address and
// returns the started table.
func newTestTable(t *testing.T, ctx context.Context, players, bots, rounds int) *testTable {
	t.Helper()
	devices := players - bots
	tt := &testTable{}
	for range devices {
		tt.nodes = append(tt.nodes, newTestNode(t))
		tt.stores = append(tt.stores, openTestStore(t, t.TempDir()))
	}
	host := tt.nodes[0]
	lobby, err := host.OpenLobby(LobbyConfig{Name: "test", Variant: "classic", Players: players, Bots: bots, Rounds: rounds})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lobby.Close() })
	info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	type joined struct {
		setup *Setup
		seat  int
		err   error
	}
	results := make([]joined, devices)
	var wg sync.WaitGroup
	for i := 1; i < devices; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, seat, err := tt.nodes[i].JoinLobby(ctx, info, lobby.ID(), "", nil)
			results[i] = joined{s, seat, err}
		}()
	}
	if err := lobby.Wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	setup, botKeys, err := lobby.Start()
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	tt.setup = setup
	tt.seats = make([][]LocalSeat, devices)
	tt.seats[0] = append(tt.seats[0], LocalSeat{Seat: 0, Key: host.Key(), Bot: "random"})
	for seat, k := range botKeys {
		tt.seats[0] = append(tt.seats[0], LocalSeat{Seat: seat, Key: k, Bot: "random"})
	}
	for i := 1; i < devices; i++ {
		if results[i].err != nil {
			t.Fatalf("device %d: %v", i, results[i].err)
		}
		if results[i].setup.Table() != setup.Table() {
			t.Fatalf("device %d got another table", i)
		}
		tt.seats[i] = []LocalSeat{{Seat: results[i].seat, Key: tt.nodes[i].Key(), Bot: "random"}}
	}
	return tt
}

// play runs every device's session to the end and returns the sessions
// (closed) and each device's final log head.
func (tt *testTable) play(t *testing.T, ctx context.Context, during func(sessions []*Session)) []tablelog.Hash {
	t.Helper()
	sessions := make([]*Session, len(tt.nodes))
	for i, n := range tt.nodes {
		s, err := n.NewSession(SessionConfig{Setup: tt.setup, Store: tt.stores[i], Seats: tt.seats[i],
			Tick: 100 * time.Millisecond, Linger: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = s
	}
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Run(ctx, nil)
		}()
	}
	if during != nil {
		during(sessions)
	}
	wg.Wait()
	var heads []tablelog.Hash
	for i, s := range sessions {
		if errs[i] != nil {
			t.Errorf("device %d: %v", i, errs[i])
		}
		p := s.Peer(tt.seats[i][0].Seat)
		_, head := p.Log().Head()
		if !p.Game().Over() {
			t.Errorf("device %d: the game is not over (%s)", i, p.View().Waiting())
		}
		heads = append(heads, head)
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
	return heads
}

func sameHeads(heads []tablelog.Hash) error {
	for i, h := range heads {
		if h != heads[0] {
			return fmt.Errorf("device %d ends with log %v, device 0 with %v", i, h, heads[0])
		}
	}
	if heads[0].IsZero() {
		return errors.New("empty logs")
	}
	return nil
}
