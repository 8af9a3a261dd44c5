package p2p

import (
	"context"
	"crypto/ed25519"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/internal/forge"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// splitGate is a host's connection gater in tests: it refuses connections
// with the peers it is told to, a network split between devices.
type splitGate struct {
	mu   sync.Mutex
	deny map[peer.ID]bool
}

// set makes the gate refuse exactly the peers deny.
func (g *splitGate) set(deny ...peer.ID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.deny = map[peer.ID]bool{}
	for _, p := range deny {
		g.deny[p] = true
	}
}

func (g *splitGate) allow(p peer.ID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.deny[p]
}

func (g *splitGate) InterceptPeerDial(p peer.ID) bool                 { return g.allow(p) }
func (g *splitGate) InterceptAddrDial(p peer.ID, _ ma.Multiaddr) bool { return g.allow(p) }
func (g *splitGate) InterceptAccept(network.ConnMultiaddrs) bool      { return true }
func (g *splitGate) InterceptSecured(_ network.Direction, p peer.ID, _ network.ConnMultiaddrs) bool {
	return g.allow(p)
}
func (g *splitGate) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// newGatedNode is a loopback node with key and gate.
func newGatedNode(t *testing.T, key ed25519.PrivateKey, gate *splitGate) *Node {
	t.Helper()
	n, err := NewNode(NodeConfig{Key: key, Listen: LoopbackListen, gater: gate})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// splitTransport is the cheater's transport: its first envelope of a kind
// goes to one side of the table alone, and the same envelope signed again
// to the other side alone, through a second host with the cheater's key.
// Another publication of that envelope waits until the split is done, so
// that none goes out to both sides before it.
type splitTransport struct {
	tablelog.Transport
	match func(env *tablelog.Envelope) bool
	split func(ctx context.Context, env *tablelog.Envelope, data []byte) error
	once  sync.Once
	done  chan struct{} // closed once the split published both
}

func (s *splitTransport) Publish(ctx context.Context, data []byte) error {
	if table.IsSideMessage(data) {
		return s.Transport.Publish(ctx, data)
	}
	if env, err := tablelog.ParseEnvelope(data); err == nil && s.match(env) {
		first := false
		s.once.Do(func() { first = true })
		if first {
			defer close(s.done)
			return s.split(ctx, env, data)
		}
		select {
		case <-s.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return s.Transport.Publish(ctx, data)
}

// heldServer is the cheater's device's answer to the others' requests for
// its log: its peer stores its envelope before publishing it, and a device
// of side A that fetched the envelope before the split would pass it on
// to side B, which would then find the pair while the network is split
// (with the table's clock running). It serves nothing from the first
// envelope held on (match) until released.
type heldServer struct {
	tablelog.RangeServer
	match    func(env *tablelog.Envelope) bool
	released atomic.Bool
}

func (h *heldServer) ServeRange(ctx context.Context, id tablelog.TableID, from, to uint64) ([][]byte, error) {
	out, err := h.RangeServer.ServeRange(ctx, id, from, to)
	if err != nil || h.released.Load() {
		return out, err
	}
	for i, b := range out {
		if env, err := tablelog.ParseEnvelope(b); err == nil && h.match(env) {
			return out[:i], nil
		}
	}
	return out, nil
}

// R-LOG-7 over libp2p, the split the equivocation is for: the devices of
// the seats below the cheater's (side A) and above it (side B) lose each
// other when the cheater posts its first envelope of a kind; side A gets
// it from the cheater's device, side B the same envelope signed again,
// from a second host with the cheater's key that only side B reaches. On
// each side the other side's devices now look gone: the table's clock
// runs past the patience while the network is split, and side A, the
// cheater voting with it, takes side B's seats over where it can. Once the
// network heals, every device ends on one log that names the cheater, in
// every device and in Verify, and no honest seat is played by a bot or
// named.
func TestEquivocationSplitNetworkLibp2p(t *testing.T) {
	everyAttack(t, splitOverLibp2p)
}

func splitOverLibp2p(t *testing.T, game table.GameName, kind tablelog.Kind, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	const cheater = 1
	rng := rand.New(rand.NewPCG(uint64(n), uint64(kind)))
	keys := make([]ed25519.PrivateKey, n)
	gates := make([]*splitGate, n)
	nodes := make([]*Node, n)
	ids := make([]tablelog.Identity, n)
	for i := range n {
		var seed [ed25519.SeedSize]byte
		for j := range seed {
			seed[j] = byte(rng.Uint32())
		}
		keys[i] = ed25519.NewKeyFromSeed(seed[:])
		gates[i] = &splitGate{}
		nodes[i] = newGatedNode(t, keys[i], gates[i])
		var err error
		if ids[i], err = tablelog.IdentityOf(keys[i].Public().(ed25519.PublicKey)); err != nil {
			t.Fatal(err)
		}
	}
	twinGate := &splitGate{}
	twin := newGatedNode(t, keys[cheater], twinGate)
	var sideA, sideB []peer.ID
	for i, nd := range nodes {
		switch {
		case i < cheater:
			sideA = append(sideA, nd.Host().ID())
		case i > cheater:
			sideB = append(sideB, nd.Host().ID())
		}
	}
	// The cheater's device never reaches side B, its twin never side A:
	// side B hears the cheater's envelopes from side A until the split.
	gates[cheater].set(sideB...)
	twinGate.set(sideA...)

	setup, genesis, bot, g := oneRoundTable(t, game, nodes)
	twinTable, err := twin.JoinTable(TableConfig{Setup: setup, Server: openTestStore(t, t.TempDir()), Redial: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { twinTable.Close() })
	twinEp, err := twinTable.Transport()
	if err != nil {
		t.Fatal(err)
	}

	// The split: side A and side B refuse each other, their connections
	// close, and only then the two envelopes go out. The table's clock
	// runs while the network stays split.
	clock := memtable.NewClock()
	var splitAt atomic.Int64 // unix nanoseconds of the split, 0 before
	tables := make([]*Table, n)
	// running holds each device's peer once it runs (the cheater's split
	// reads it from the cheater's goroutine).
	running := make([]atomic.Pointer[table.Peer], n)
	cheat := func(env *tablelog.Envelope) bool { return env.Kind == kind && int(env.Author) == cheater }
	var held *heldServer
	split := func(ctx context.Context, env *tablelog.Envelope, data []byte, own tablelog.Transport) error {
		// Each of the cheater's hosts first hears its side subscribed to
		// the table's topic, so that the envelope reaches it, and waits
		// for side B to hold every envelope before it: the twin serves no
		// log, so a device of side B still missing one would drop the
		// other envelope as a gap and never hold it.
		for !subscribed(twinTable, sideB) || !subscribed(tables[cheater], sideA) || !caughtUp(running[cheater+1:], env.Seq) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
		for i := range n {
			switch {
			case i < cheater:
				gates[i].set(sideB...)
			case i > cheater:
				gates[i].set(sideA...)
			}
		}
		for i := range n {
			if i == cheater {
				continue
			}
			other := sideA
			if i < cheater {
				other = sideB
			}
			for _, p := range other {
				_ = nodes[i].Host().Network().ClosePeer(p)
				for nodes[i].Host().Network().Connectedness(p) == network.Connected {
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
		}
		msg, err := env.SignedBytes()
		if err != nil {
			return err
		}
		other := env.Clone()
		if other.Signature, err = forge.Sign(keys[cheater], msg, rand.NewChaCha8([32]byte{byte(n), byte(kind), 1})); err != nil {
			return err
		}
		b, err := other.MarshalBinary()
		if err != nil {
			return err
		}
		splitAt.Store(time.Now().UnixNano())
		held.released.Store(true)
		if err := own.Publish(ctx, data); err != nil {
			return err
		}
		return twinEp.Publish(ctx, b)
	}

	peers := make([]*table.Peer, n)
	stores := make([]*tablelog.Store, n)
	errs := make([]error, n)
	logf := func(string, ...any) {}
	if testing.Verbose() {
		logf = t.Logf
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	const patience = 5 * time.Second
	for i, nd := range nodes {
		stores[i] = openTestStore(t, t.TempDir())
		var server tablelog.RangeServer = stores[i]
		if i == cheater {
			held = &heldServer{RangeServer: stores[i], match: cheat}
			server = held
		}
		tbl, err := nd.JoinTable(TableConfig{Setup: setup, Server: server, Redial: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tbl.Close() })
		tables[i] = tbl
		ep, err := tbl.Transport()
		if err != nil {
			t.Fatal(err)
		}
		var tr tablelog.Transport = ep
		if i == cheater {
			tr = &splitTransport{Transport: ep, match: cheat, done: make(chan struct{}),
				split: func(ctx context.Context, env *tablelog.Envelope, data []byte) error { return split(ctx, env, data, ep) }}
		}
		tick, poll := time.NewTicker(100*time.Millisecond), time.NewTicker(50*time.Millisecond)
		t.Cleanup(tick.Stop)
		t.Cleanup(poll.Stop)
		var first *tablelog.Envelope
		if i == 0 {
			first = genesis
		}
		peers[i], err = table.NewPeer(table.PeerConfig{Table: setup.Table(), Creator: ids[0], Genesis: first,
			Seat: i, Key: keys[i], Store: stores[i], Transport: tr, Peers: tbl.Members(i), Tick: tick.C,
			Poll: poll.C, Bot: bot, NewPlayer: g.NewPlayer, Logf: logf,
			Now: clock.Now, Patience: patience, VoidAfter: patience, Grace: patience})
		if err != nil {
			t.Fatal(err)
		}
		running[i].Store(peers[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = peers[i].Run(runCtx)
		}()
	}

	// taken counts the looks at which a device had an honest seat played
	// by a bot: what the split cost, for the evidence to undo.
	var taken atomic.Int64
	// While the network is split the clock runs, a second every 20 ms;
	// after three seconds the network heals (the clock then stands: the
	// rest of the game needs no patience).
	const splitFor = 3 * time.Second
	healed := false
	for !healed {
		select {
		case <-ctx.Done():
			t.Fatalf("the cheater never posted a %v: %v", kind, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
		at := splitAt.Load()
		if at == 0 {
			continue
		}
		for _, p := range peers {
			for s := range n {
				if s != cheater && p.Game().HostOf(s) >= 0 {
					taken.Add(1)
				}
			}
		}
		if time.Since(time.Unix(0, at)) < splitFor {
			clock.Add(time.Second)
			continue
		}
		for i := range n {
			if i != cheater {
				gates[i].set()
			}
		}
		healed = true
	}
	awaitEvidence(t, ctx, peers, cheater)
	stop()
	wg.Wait()
	checkEvidence(t, peers, stores, setup, errs, cheater)
	if taken.Load() == 0 {
		t.Error("no device took an honest seat over while the network was split: the split cost nothing to undo")
	}
}

// caughtUp reports whether every peer in side holds its log up to seq.
func caughtUp(side []atomic.Pointer[table.Peer], seq uint64) bool {
	for i := range side {
		if p := side[i].Load(); p == nil || p.Log().Next() < seq {
			return false
		}
	}
	return true
}

// subscribed reports whether every peer of side is subscribed to t's topic
// as t's host sees it.
func subscribed(t *Table, side []peer.ID) bool {
	listed := map[peer.ID]bool{}
	for _, p := range t.topic.ListPeers() {
		listed[p] = true
	}
	for _, p := range side {
		if !listed[p] {
			return false
		}
	}
	return true
}
