package tablelog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/internal/seatkeys"
)

// node is one peer in a replica test.
type node struct {
	seat  uint8
	id    Identity
	priv  ed25519.PrivateKey
	path  string
	poses bool // takes turns

	starts int
	// replayed is the log's length right after NewReplica replayed the
	// store, before anything could be received or posted.
	replayed uint64

	store   *Store
	log     *Log
	ep      *MemEndpoint
	replica *Replica
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type cluster struct {
	t     *testing.T
	net   *MemNetwork
	table TableID
	ids   []Identity
	limit uint64
	nodes []*node
}

func newCluster(t *testing.T, seats, posters int, limit uint64, cfg NetConfig) *cluster {
	privs, ids := seatkeys.New[Identity](7, seats)
	c := &cluster{t: t, table: TableID{0x5e, 0x57}, ids: ids, limit: limit}
	var err error
	c.net, err = NewMemNetwork(c.table, rand.New(rand.NewPCG(11, 12)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range seats {
		c.nodes = append(c.nodes, &node{
			seat: uint8(i), id: ids[i], priv: privs[i], poses: i < posters,
			path: filepath.Join(dir, fmt.Sprintf("seat%d.db", i)),
		})
	}
	return c
}

func (c *cluster) protocol() *roundRobin {
	var posters []uint8
	for _, n := range c.nodes {
		if n.poses {
			posters = append(posters, n.seat)
		}
	}
	return &roundRobin{seats: c.ids, posters: posters, limit: c.limit}
}

// start opens the node's store, replays it and runs the replica and, for a
// poster, an actor that posts a random body whenever it is the seat's turn.
func (c *cluster) start(n *node) {
	t := c.t
	var err error
	n.store, err = OpenStore(n.path, &StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	proto := c.protocol()
	n.log, err = NewLog(LogConfig{Table: c.table, Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	n.ep, err = c.net.Join(ctx, n.id, n.store)
	if err != nil {
		t.Fatal(err)
	}
	var peers []Identity
	for _, id := range c.ids {
		if id != n.id {
			peers = append(peers, id)
		}
	}
	ticker := time.NewTicker(2 * time.Millisecond)
	n.replica, err = NewReplica(ReplicaConfig{
		Log: n.log, Store: n.store, Transport: n.ep, Peers: peers,
		Rand: rand.New(rand.NewPCG(uint64(n.seat), 99)), Tick: ticker.C,
	})
	if err != nil {
		t.Fatal(err)
	}
	n.replayed = n.log.Next()
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer ticker.Stop()
		if err := n.replica.Run(ctx); err != nil {
			t.Errorf("seat %d: Run: %v", n.seat, err)
		}
	}()
	if n.poses {
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			c.act(ctx, n, proto)
		}()
	}
}

func (c *cluster) act(ctx context.Context, n *node, proto *roundRobin) {
	// A restarted seat draws different bodies; none of them has been
	// signed before, so that is no equivocation.
	n.starts++
	rng := rand.New(rand.NewPCG(uint64(n.seat), uint64(n.starts)))
	for {
		next, prev := n.log.Head()
		if turn, err := proto.Entitled(next); err == nil && turn.Seat == n.seat {
			kind := KindPlay
			if next == 0 {
				kind = KindGenesis
			}
			body := make([]byte, 1+rng.IntN(64))
			for i := range body {
				body[i] = byte(rng.Uint32())
			}
			e := &Envelope{Version: EnvelopeVersion, Table: c.table, Seq: next, Prev: prev, Author: n.seat, Kind: kind, Body: body}
			if err := e.Sign(n.priv); err != nil {
				c.t.Error(err)
				return
			}
			if err := n.replica.Post(ctx, e); err != nil && ctx.Err() == nil {
				c.t.Errorf("seat %d: Post seq %d: %v", n.seat, next, err)
				return
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-n.replica.Changed():
		}
	}
}

func (c *cluster) stop(n *node) {
	n.cancel()
	n.wg.Wait()
	if err := n.ep.Close(); err != nil {
		c.t.Error(err)
	}
	if err := n.store.Close(); err != nil {
		c.t.Error(err)
	}
}

// waitFor waits until every given node's log has at least seq envelopes.
func (c *cluster) waitFor(seq uint64, nodes ...*node) {
	deadline := time.After(15 * time.Second)
	for {
		done := true
		for _, n := range nodes {
			if n.log.Next() < seq {
				done = false
			}
		}
		if done {
			return
		}
		select {
		case <-deadline:
			for _, n := range nodes {
				c.t.Logf("seat %d at %d", n.seat, n.log.Next())
			}
			c.t.Fatalf("the logs did not reach %d", seq)
		case <-time.After(time.Millisecond):
		}
	}
}

func TestReplicasConvergeOverALossyNetwork(t *testing.T) {
	before := runtime.NumGoroutine()
	const limit = 200
	c := newCluster(t, 4, 3, limit, NetConfig{Drop: 0.2, Duplicate: 0.1, FetchFail: 0.1})
	for _, n := range c.nodes {
		c.start(n)
	}
	observer, restarted := c.nodes[3], c.nodes[1]
	posters := c.nodes[:3]

	c.waitFor(40, c.nodes...)
	c.net.Disconnect(observer.id)
	c.waitFor(100, posters...)

	// Seat 1 stops (its turn comes, nobody else may post) and restarts
	// from its store.
	c.stop(restarted)
	if observer.log.Next() >= 100 {
		t.Fatal("the disconnected observer kept up")
	}
	stored, err := func() (uint64, error) {
		s, err := OpenStore(restarted.path, nil)
		if err != nil {
			return 0, err
		}
		defer s.Close()
		return s.Next(c.table)
	}()
	if err != nil || stored < 100 {
		t.Fatalf("stored %d, %v", stored, err)
	}
	c.start(restarted)
	// The replica runs (and the seat may post) as soon as start returns:
	// what is compared is the log replayed before that.
	if got := restarted.replayed; got != stored {
		t.Fatalf("restarted at %d, the store had %d", got, stored)
	}
	c.net.Reconnect(observer.id)

	c.waitFor(limit, c.nodes...)
	for _, n := range c.nodes {
		c.stop(n)
	}

	var exports [][]byte
	for _, n := range c.nodes {
		if next, head := n.log.Head(); next != limit || head != func() Hash { h, _ := c.nodes[0].log.Get(limit - 1); return h.Hash() }() {
			t.Fatalf("seat %d ends at %d with head %v", n.seat, next, head)
		}
		if evs := n.log.Evidence(); len(evs) != 0 {
			t.Fatalf("seat %d saw equivocation", n.seat)
		}
		s, err := OpenStore(n.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := s.Export(&buf, c.table); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		exports = append(exports, buf.Bytes())
	}
	for i := range exports {
		if !bytes.Equal(exports[i], exports[0]) {
			t.Fatalf("seat %d stored a different log", i)
		}
	}
	// Every goroutine has ended with its context.
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d goroutines before, %d after", before, runtime.NumGoroutine())
}

// checkingTransport fails a Publish whose envelope is not yet in the store.
type checkingTransport struct {
	Transport
	store     *Store
	published int
}

func (ct *checkingTransport) Publish(ctx context.Context, data []byte) error {
	e, err := ParseEnvelope(data)
	if err != nil {
		return err
	}
	if next, err := ct.store.Next(e.Table); err != nil || next <= e.Seq {
		return fmt.Errorf("published seq %d before it was stored (store at %d)", e.Seq, next)
	}
	ct.published++
	return nil
}

func TestReplicaPersistsBeforePublishing(t *testing.T) {
	f := newFixture(t, 2, 100)
	s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
	defer s.Close()
	n, err := NewMemNetwork(f.table, rand.New(rand.NewPCG(1, 1)), NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ep, err := n.Join(context.Background(), f.ids[0], s)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	ct := &checkingTransport{Transport: ep, store: s}
	r, err := NewReplica(ReplicaConfig{Log: f.newLog(t), Store: s, Transport: ct, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	envs := f.chain(t, 4)
	for _, e := range envs[:3] {
		if err := r.Post(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	// A rejected envelope is neither stored nor sent.
	if err := r.Post(context.Background(), envs[2]); !errors.Is(err, ErrDuplicate) {
		t.Fatal(err)
	}
	bad := seal(t, f.privs[1], f.table, 3, envs[2].Hash(), 1, KindPlay, "out of turn")
	if err := r.Post(context.Background(), bad); !errors.Is(err, ErrNotEntitled) {
		t.Fatal(err)
	}
	if ct.published != 3 {
		t.Fatalf("published %d", ct.published)
	}
}

// A message the configuration calls a side message goes to Vote and
// never reaches the log; without Side every message is an
// envelope, and one that does not parse is dropped.
func TestReplicaSideMessages(t *testing.T) {
	f := newFixture(t, 2, 100)
	for _, tc := range []struct {
		name string
		side func([]byte) bool
		want int
	}{
		{"side", func(b []byte) bool { return len(b) > 0 && b[0] == 'V' }, 2},
		{"no side", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
			defer s.Close()
			n, err := NewMemNetwork(f.table, rand.New(rand.NewPCG(1, 1)), NetConfig{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ep, err := n.Join(ctx, f.ids[0], s)
			if err != nil {
				t.Fatal(err)
			}
			other, err := n.Join(ctx, f.ids[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			votes := make(chan Received, 4)
			log := f.newLog(t)
			r, err := NewReplica(ReplicaConfig{Log: log, Store: s, Transport: ep, Rand: rand.New(rand.NewPCG(1, 2)),
				Side: tc.side, Vote: func(m Received) { votes <- m }, Logf: func(string, ...any) {}})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			genesis := f.chain(t, 1)[0]
			enc, err := genesis.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range [][]byte{[]byte("Vote 1"), []byte("Vote 2"), enc} {
				if err := other.Publish(ctx, m); err != nil {
					t.Fatal(err)
				}
			}
			// The network reorders: wait for the envelope and for every
			// side message, whichever comes first.
			var got []string
			deadline := time.After(10 * time.Second)
			for log.Next() == 0 || len(got) < tc.want {
				select {
				case m := <-votes:
					if m.From != f.ids[1] {
						t.Errorf("a side message from %v", m.From)
					}
					got = append(got, string(m.Data))
				case <-deadline:
					t.Fatalf("the log holds %d envelopes, side messages %q", log.Next(), got)
				case <-time.After(time.Millisecond):
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			close(votes)
			for m := range votes {
				got = append(got, string(m.Data))
			}
			slices.Sort(got)
			if len(got) != tc.want || tc.want == 2 && (got[0] != "Vote 1" || got[1] != "Vote 2") {
				t.Fatalf("side messages %q, want %d", got, tc.want)
			}
			if log.Next() != 1 {
				t.Fatalf("the log holds %d envelopes", log.Next())
			}
		})
	}
}
