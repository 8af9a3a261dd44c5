package tablelog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
)

// NetConfig sets how badly a MemNetwork behaves. Probabilities are in
// [0, 1] and drawn from the network's seeded generator.
type NetConfig struct {
	// Drop is the probability that a published message is lost on its way
	// to one receiver.
	Drop float64
	// Duplicate is the probability that a delivered message arrives twice.
	Duplicate float64
	// FetchFail is the probability that a range request fails with
	// ErrUnreachable.
	FetchFail float64
	// Buffer is the capacity of each endpoint's Messages channel (default
	// 32, as gossipsub's subscription buffer).
	Buffer int
	// MaxPending bounds the messages queued for one endpoint before they
	// reach its channel (default 1024); beyond it messages are dropped, as
	// gossipsub drops for a slow reader.
	MaxPending int
}

// MemNetwork is an in-process network for one table, for tests and
// simulations: endpoints publish to each other through it, messages are
// dropped, duplicated and reordered at random, and an endpoint can be cut
// off (partitioned) and reconnected. Range requests go straight to the
// target endpoint's RangeServer. It is safe for concurrent use.
type MemNetwork struct {
	table TableID
	cfg   NetConfig

	mu    sync.Mutex
	rng   *rand.Rand
	peers map[Identity]*MemEndpoint
}

// NewMemNetwork returns an empty network for table. rng drives every random
// choice; the network serialises its use.
func NewMemNetwork(table TableID, rng *rand.Rand, cfg NetConfig) (*MemNetwork, error) {
	if rng == nil {
		return nil, fmt.Errorf("table: NewMemNetwork: no random generator")
	}
	for _, p := range []float64{cfg.Drop, cfg.Duplicate, cfg.FetchFail} {
		if p < 0 || p > 1 {
			return nil, fmt.Errorf("table: NewMemNetwork: probability %v outside [0, 1]", p)
		}
	}
	if cfg.Buffer <= 0 {
		cfg.Buffer = 32
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 1024
	}
	return &MemNetwork{table: table, cfg: cfg, rng: rng, peers: make(map[Identity]*MemEndpoint)}, nil
}

// MemEndpoint is one member's Transport on a MemNetwork.
type MemEndpoint struct {
	net    *MemNetwork
	id     Identity
	server RangeServer
	out    chan Received
	wake   chan struct{}
	stop   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup

	mu      sync.Mutex
	pending []Received
	cut     bool // disconnected: sends and receives nothing
	closed  bool
}

// Join adds the member id to the network and starts its delivery goroutine,
// which ends when ctx ends or the endpoint is closed; either way the
// Messages channel is closed. server answers the member's range requests
// (nil: it answers none). An id can join again once its previous endpoint
// is closed (a restarted peer).
func (n *MemNetwork) Join(ctx context.Context, id Identity, server RangeServer) (*MemEndpoint, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if old, ok := n.peers[id]; ok && !old.isClosed() {
		return nil, fmt.Errorf("table: member %v already joined", id)
	}
	e := &MemEndpoint{
		net:    n,
		id:     id,
		server: server,
		out:    make(chan Received, n.cfg.Buffer),
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
	}
	n.peers[id] = e
	e.wg.Add(1)
	go e.deliver(ctx)
	return e, nil
}

// Disconnect cuts the member off: until Reconnect, nothing it publishes
// arrives, nothing reaches it, and range requests from or to it fail. Its
// queued messages are lost.
func (n *MemNetwork) Disconnect(id Identity) { n.setCut(id, true) }

// Reconnect ends a Disconnect.
func (n *MemNetwork) Reconnect(id Identity) { n.setCut(id, false) }

func (n *MemNetwork) setCut(id Identity, cut bool) {
	n.mu.Lock()
	e := n.peers[id]
	n.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	e.cut = cut
	if cut {
		e.pending = nil
	}
	e.mu.Unlock()
}

func (e *MemEndpoint) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// reachable reports whether e can send or receive.
func (e *MemEndpoint) reachable() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.cut && !e.closed
}

// deliver moves pending messages to the Messages channel, each time picking
// one at random: that is where reordering happens.
func (e *MemEndpoint) deliver(ctx context.Context) {
	defer e.wg.Done()
	defer close(e.out)
	defer func() {
		e.mu.Lock()
		e.closed = true
		e.pending = nil
		e.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.stop:
			return
		case <-e.wake:
		}
		for {
			m, ok := e.pop()
			if !ok {
				break
			}
			select {
			case e.out <- m:
			case <-ctx.Done():
				return
			case <-e.stop:
				return
			}
		}
	}
}

func (e *MemEndpoint) pop() (Received, bool) {
	e.net.mu.Lock()
	defer e.net.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pending) == 0 {
		return Received{}, false
	}
	i := e.net.rng.IntN(len(e.pending))
	m := e.pending[i]
	last := len(e.pending) - 1
	e.pending[i] = e.pending[last]
	e.pending[last] = Received{}
	e.pending = e.pending[:last]
	return m, true
}

// enqueue queues m for e; the caller holds the network's lock.
func (e *MemEndpoint) enqueue(m Received) {
	e.mu.Lock()
	if e.cut || e.closed || len(e.pending) >= e.net.cfg.MaxPending {
		e.mu.Unlock()
		return
	}
	e.pending = append(e.pending, m)
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Publish implements Transport.
func (e *MemEndpoint) Publish(ctx context.Context, data []byte) error {
	return e.PublishTo(ctx, data, nil)
}

// PublishTo publishes data to the members to accepts (every member when
// nil): a device that sends one message to some members and another to
// the rest, as a cheater may (tests of equivocation).
func (e *MemEndpoint) PublishTo(ctx context.Context, data []byte, to func(Identity) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.isClosed() {
		return ErrClosed
	}
	if !e.reachable() {
		return nil // lost in the partition, like a real send
	}
	n := e.net
	n.mu.Lock()
	defer n.mu.Unlock()
	for id, dst := range n.peers {
		if id == e.id || to != nil && !to(id) || n.rng.Float64() < n.cfg.Drop {
			continue
		}
		copies := 1
		if n.rng.Float64() < n.cfg.Duplicate {
			copies = 2
		}
		for range copies {
			dst.enqueue(Received{From: e.id, Data: append([]byte(nil), data...)})
		}
	}
	return nil
}

// Messages implements Transport.
func (e *MemEndpoint) Messages() <-chan Received { return e.out }

// Fetch implements Transport. The request and the answer pass through their
// wire encodings, as they would over a stream.
func (e *MemEndpoint) Fetch(ctx context.Context, peer Identity, from, to uint64) ([][]byte, error) {
	if e.isClosed() {
		return nil, ErrClosed
	}
	reqData, err := SyncRequest{Table: e.net.table, From: from, To: to}.MarshalBinary()
	if err != nil {
		return nil, err
	}
	n := e.net
	n.mu.Lock()
	target := n.peers[peer]
	fail := n.rng.Float64() < n.cfg.FetchFail
	n.mu.Unlock()
	switch {
	case !e.reachable():
		return nil, fmt.Errorf("%w: this member is disconnected", ErrUnreachable)
	case target == nil || target == e || !target.reachable() || target.server == nil:
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, peer)
	case fail:
		return nil, fmt.Errorf("%w: %v: request lost", ErrUnreachable, peer)
	}
	req, err := ParseSyncRequest(reqData)
	if err != nil {
		return nil, err
	}
	envs, err := target.server.ServeRange(ctx, req.Table, req.From, req.To)
	if err != nil {
		return nil, fmt.Errorf("%w: %v: %w", ErrUnreachable, peer, err)
	}
	// A cut made while the request was served loses the answer: what the
	// server read may be newer than the cut, and nothing crosses it.
	if !e.reachable() || !target.reachable() {
		return nil, fmt.Errorf("%w: %v: cut off during the request", ErrUnreachable, peer)
	}
	resp, err := MarshalSyncResponse(envs)
	if err != nil {
		return nil, err
	}
	return ParseSyncResponse(resp)
}

// Close implements Transport: it leaves the network, stops the delivery
// goroutine (closing Messages) and waits for it.
func (e *MemEndpoint) Close() error {
	e.once.Do(func() {
		e.mu.Lock()
		e.closed = true
		e.pending = nil
		e.mu.Unlock()
		close(e.stop)
	})
	e.wg.Wait()
	return nil
}

var _ Transport = (*MemEndpoint)(nil)
