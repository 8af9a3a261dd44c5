package p2p

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// TopicName returns the gossipsub topic of a table.
func TopicName(id tablelog.TableID) string { return "njet/table/" + id.String() + "/1" }

// TableConfig joins a Node to a table.
type TableConfig struct {
	// Setup is the table's genesis and member devices.
	Setup *Setup
	// Server answers the table's sync requests (the device's Store).
	Server tablelog.RangeServer
	// Redial is how often the table checks its connections to the other
	// member devices and dials those it lost (default 2s).
	Redial time.Duration
}

// Stats counts what a table's topic validator and sync server did.
type Stats struct {
	Accepted, Rejected, Ignored atomic.Int64
	SyncServed, SyncRefused     atomic.Int64
}

// Table is a node's membership in one table: the gossipsub topic with its
// validator, the sync server, the protection of the member connections,
// and the redialing of lost members. Transport returns one tablelog.Transport
// per seat the device plays (its own and the bots it hosts).
type Table struct {
	node      *Node
	id        tablelog.TableID
	topicName string
	topic     *pubsub.Topic
	roster    *roster
	server    tablelog.RangeServer
	self      int // this device's index in the roster

	// Stats counts validated messages and sync requests.
	Stats Stats

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	endpoints map[*Endpoint]struct{}
	closed    bool
	askedFrom map[int]uint64       // per device: the highest start of a sync range it asked us for
	watchers  map[peer.ID]watching // watchers that asked for the log (watch.go)
	claims    claimRelay           // seat claims relayed for watchers (claim.go)

	// The admission of devices the log hands a seat to (admitFromLog):
	// how far the stored log was read, the hash of the last envelope
	// read, and when.
	scanMu      sync.Mutex
	scanned     uint64
	scannedLast [32]byte
	scannedAt   time.Time
}

// JoinTable joins the table's topic, registers its validator and starts
// keeping the member devices connected.
func (n *Node) JoinTable(cfg TableConfig) (*Table, error) {
	if cfg.Setup == nil || cfg.Server == nil {
		return nil, fmt.Errorf("p2p: JoinTable: Setup and Server are required")
	}
	if cfg.Redial <= 0 {
		cfg.Redial = 2 * time.Second
	}
	r, err := newRoster(cfg.Setup)
	if err != nil {
		return nil, err
	}
	id := cfg.Setup.Table()
	t := &Table{node: n, id: id, topicName: TopicName(id), roster: r, server: cfg.Server,
		endpoints: make(map[*Endpoint]struct{}), askedFrom: make(map[int]uint64)}
	// A device outside the setup is a member once its stored log holds
	// the SeatClaim that handed it a seat.
	t.admitFromLog(context.Background(), true)
	t.self = r.device(n.host.ID())
	if t.self < 0 {
		return nil, fmt.Errorf("p2p: this device is not a member of the table")
	}
	self := t.self
	n.mu.Lock()
	if _, ok := n.tables[id]; ok {
		n.mu.Unlock()
		return nil, fmt.Errorf("p2p: table %v already joined", id)
	}
	n.tables[id] = t
	n.mu.Unlock()
	fail := func(err error) (*Table, error) {
		n.mu.Lock()
		delete(n.tables, id)
		n.mu.Unlock()
		return nil, err
	}
	if err := n.ps.RegisterTopicValidator(t.topicName, t.validate,
		pubsub.WithValidatorTimeout(5*time.Second), pubsub.WithValidatorConcurrency(64)); err != nil {
		return fail(fmt.Errorf("p2p: validator: %w", err))
	}
	if t.topic, err = n.ps.Join(t.topicName); err != nil {
		return fail(errors.Join(fmt.Errorf("p2p: topic: %w", err), n.ps.UnregisterTopicValidator(t.topicName)))
	}
	for i, pid := range r.members() {
		if i == self {
			continue
		}
		n.host.ConnManager().Protect(pid, t.topicName)
		if i < len(cfg.Setup.Devices) && len(cfg.Setup.Devices[i].Addrs) > 0 {
			n.host.Peerstore().AddAddrs(pid, cfg.Setup.Devices[i].Addrs, time.Hour)
		}
	}
	t.ctx, t.cancel = context.WithCancel(n.ctx)
	t.wg.Add(1)
	go t.redial(cfg.Redial)
	return t, nil
}

// ID returns the table id.
func (t *Table) ID() tablelog.TableID { return t.id }

// Members returns the seat identities of every other seat (the Peers of a
// table.PeerConfig for seat).
func (t *Table) Members(seat int) []tablelog.Identity {
	t.roster.mu.Lock()
	defer t.roster.mu.Unlock()
	var out []tablelog.Identity
	for s, keys := range t.roster.seats {
		if s != seat {
			out = append(out, keys[0].key)
		}
	}
	return out
}

// redial keeps a connection to every member device, dialing lost ones on
// every tick; each dial is bounded.
func (t *Table) redial(every time.Duration) {
	defer t.wg.Done()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		t.admitFromLog(t.ctx, false)
		for i, pid := range t.roster.members() {
			if i == t.self || t.node.connected(pid) {
				continue
			}
			ctx, cancel := context.WithTimeout(t.ctx, every+time.Second)
			info := t.node.host.Peerstore().PeerInfo(pid)
			if err := t.node.host.Connect(ctx, info); err != nil && t.ctx.Err() == nil {
				t.node.logf("p2p: table %.8s: redial %v: %v", t.id.String(), pid, err)
			}
			cancel()
		}
		select {
		case <-t.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// ConnectedMembers counts the other member devices this node is connected to.
func (t *Table) ConnectedMembers() (connected, others int) {
	for i, pid := range t.roster.members() {
		if i != t.self {
			others++
			if t.node.connected(pid) {
				connected++
			}
		}
	}
	return connected, others
}

// CaughtUp reports whether every other member device has asked this node
// for what follows seq next or later: it holds the whole log up to next.
// A finished peer lingers until then, so nobody is left without a member
// to sync the last envelopes from.
func (t *Table) CaughtUp(next uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range t.roster.members() {
		if i != t.self && t.askedFrom[i] < next {
			return false
		}
	}
	return t.watchersCaughtUp(next)
}

func (t *Table) noteAsked(dev int, from uint64) {
	t.mu.Lock()
	if from > t.askedFrom[dev] {
		t.askedFrom[dev] = from
	}
	t.mu.Unlock()
}

// Close closes the table's transports, leaves the topic and stops redialing.
func (t *Table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	var eps []*Endpoint
	for e := range t.endpoints {
		eps = append(eps, e)
	}
	t.mu.Unlock()
	for _, e := range eps {
		e.Close()
	}
	t.cancel()
	t.wg.Wait()
	n := t.node
	for i, pid := range t.roster.members() {
		if i != t.self {
			n.host.ConnManager().Unprotect(pid, t.topicName)
		}
	}
	err := t.topic.Close()
	if uerr := n.ps.UnregisterTopicValidator(t.topicName); uerr != nil && err == nil {
		err = uerr
	}
	n.mu.Lock()
	delete(n.tables, t.id)
	n.mu.Unlock()
	if err != nil {
		n.logf("p2p: leaving table %.8s: %v", t.id.String(), err)
	}
	return nil
}

// Endpoint is one seat's tablelog.Transport over a Table: its own
// subscription to the topic, publishing through the device's key, and
// sync requests to the device that hosts the asked seat.
type Endpoint struct {
	t      *Table
	sub    *pubsub.Subscription
	out    chan tablelog.Received
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	closed atomic.Bool
}

// endpointBuffer is the capacity of an endpoint's Messages channel and of
// its subscription: a reader that falls further behind loses messages and
// recovers them by sync.
const endpointBuffer = 256

// Transport subscribes one more seat to the table. Its Messages channel is
// closed when the endpoint or the table is closed.
func (t *Table) Transport() (*Endpoint, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, tablelog.ErrClosed
	}
	sub, err := t.topic.Subscribe(pubsub.WithBufferSize(endpointBuffer))
	if err != nil {
		return nil, fmt.Errorf("p2p: subscribe: %w", err)
	}
	ctx, cancel := context.WithCancel(t.ctx)
	e := &Endpoint{t: t, sub: sub, out: make(chan tablelog.Received, endpointBuffer), cancel: cancel, done: make(chan struct{})}
	t.endpoints[e] = struct{}{}
	go e.read(ctx)
	return e, nil
}

// read moves validated messages to the Messages channel until ctx ends.
func (e *Endpoint) read(ctx context.Context) {
	defer close(e.done)
	defer close(e.out)
	for {
		m, err := e.sub.Next(ctx)
		if err != nil {
			return
		}
		from, err := IdentityOfPeer(m.GetFrom())
		if err != nil {
			continue
		}
		select {
		case e.out <- tablelog.Received{From: from, Data: m.Data}:
		default:
			// A slow reader loses the message; the replica syncs it.
		}
	}
}

// Publish implements tablelog.Transport.
func (e *Endpoint) Publish(ctx context.Context, data []byte) error {
	if e.closed.Load() {
		return tablelog.ErrClosed
	}
	if err := e.t.topic.Publish(ctx, data); err != nil {
		if errors.Is(err, pubsub.ErrTopicClosed) {
			return tablelog.ErrClosed
		}
		return fmt.Errorf("p2p: publish: %w", err)
	}
	return nil
}

// Messages implements tablelog.Transport.
func (e *Endpoint) Messages() <-chan tablelog.Received { return e.out }

// Fetch implements tablelog.Transport: it asks the device that holds peer's
// key (a seat's own device, or the host of a bot) over /njet/sync/1, or
// answers from the local store when this device holds it.
func (e *Endpoint) Fetch(ctx context.Context, id tablelog.Identity, from, to uint64) ([][]byte, error) {
	if e.closed.Load() {
		return nil, tablelog.ErrClosed
	}
	dev := e.t.roster.deviceOfKey(id)
	if dev < 0 {
		return nil, fmt.Errorf("%w: %v is not a member", tablelog.ErrUnreachable, id)
	}
	if dev == e.t.self {
		return e.t.server.ServeRange(ctx, e.t.id, from, to)
	}
	data, err := e.t.node.fetch(ctx, e.t.roster.pid(dev), tablelog.SyncRequest{Table: e.t.id, From: from, To: to})
	if err == nil {
		e.t.learnFetched(data)
	}
	return data, err
}

// Close implements tablelog.Transport.
func (e *Endpoint) Close() error {
	e.once.Do(func() {
		e.closed.Store(true)
		e.cancel()
		e.sub.Cancel()
		<-e.done
		e.t.mu.Lock()
		delete(e.t.endpoints, e)
		e.t.mu.Unlock()
	})
	return nil
}

var _ tablelog.Transport = (*Endpoint)(nil)

// validate is the topic validator: it rejects, before they propagate,
// messages that are oversized or malformed, for another table, from a
// device that holds no seat, or whose author seat is not held by the
// signed sender (pubsub's StrictSign has checked the sender's signature;
// here the envelope's own signature must verify under a key of the author
// seat that the sender's device holds). SilenceVotes (table.IsVote), seat
// approvals (table.IsApproval) and presences (table.IsPresence) pass by
// the same rule, the voter, approving or announced seat standing for the
// author; a seat claim (table.IsClaim)
// must be signed by the key it claims the seat for. Entitlement
// and the chain are the Log's business: a valid envelope at the wrong seq
// passes.
func (t *Table) validate(_ context.Context, _ peer.ID, m *pubsub.Message) pubsub.ValidationResult {
	res := t.check(m.GetFrom(), m.Data)
	switch res {
	case pubsub.ValidationAccept:
		t.Stats.Accepted.Add(1)
	case pubsub.ValidationIgnore:
		t.Stats.Ignored.Add(1)
	default:
		t.Stats.Rejected.Add(1)
	}
	return res
}

func (t *Table) check(src peer.ID, data []byte) pubsub.ValidationResult {
	dev := t.member(src)
	if dev < 0 {
		return pubsub.ValidationReject
	}
	if len(data) > tablelog.MaxEnvelopeSize {
		return pubsub.ValidationReject
	}
	switch {
	case table.IsVote(data):
		return t.checkVote(dev, data)
	case table.IsClaim(data):
		return t.checkClaim(data)
	case table.IsApproval(data):
		return t.checkApproval(dev, data)
	case table.IsPresence(data):
		return t.checkPresence(dev, data)
	}
	env, err := tablelog.ParseEnvelope(data)
	if err != nil || env.Table != t.id {
		return pubsub.ValidationReject
	}
	if !t.roster.signedBy(env, dev) {
		return pubsub.ValidationReject
	}
	t.roster.learn(env, dev)
	return pubsub.ValidationAccept
}

// checkVote validates a SilenceVote from member device dev: it must parse
// strictly, name this table, and verify under a key of the voter seat that
// dev holds (its own seat or a bot it hosts), so that, as for an envelope,
// the signed sender is the voter. Whether the vote fits the log (seq,
// previous hash, silent seat) is the Peer's business.
func (t *Table) checkVote(dev int, data []byte) pubsub.ValidationResult {
	v, err := table.ParseVote(data)
	return verdict(err == nil && v.Table == t.id && t.roster.voteSignedBy(v, dev))
}

// checkClaim validates a seat claim request from a member device: it
// must parse strictly, name this table and be signed by the key it
// claims the seat for (the claimant holds it). Whether the seat is a
// bot's is the Peer's business.
func (t *Table) checkClaim(data []byte) pubsub.ValidationResult {
	c, err := table.ParseClaim(data)
	return verdict(err == nil && c.Table == t.id && c.Verify() == nil)
}

// checkApproval validates a seat approval from member device dev: it must
// parse strictly, name this table, and verify under a key of the approving
// seat that dev holds, as for a vote.
func (t *Table) checkApproval(dev int, data []byte) pubsub.ValidationResult {
	a, err := table.ParseApproval(data)
	return verdict(err == nil && a.Table == t.id && t.roster.approvalSignedBy(a, dev))
}

// checkPresence validates a device's Presence from member device dev: it
// must parse strictly, name this table, and verify under a key of its
// seat that dev holds: a device announces only itself.
func (t *Table) checkPresence(dev int, data []byte) pubsub.ValidationResult {
	a, err := table.ParsePresence(data)
	return verdict(err == nil && a.Table == t.id && int(a.Seat) < t.roster.players && t.roster.heldBy(int(a.Seat), dev, a.Verify))
}

// verdict accepts a message that passed its checks and rejects any other.
func verdict(ok bool) pubsub.ValidationResult {
	if ok {
		return pubsub.ValidationAccept
	}
	return pubsub.ValidationReject
}

// learnFetched lets the roster learn BotSeat keys from envelopes that came
// by sync rather than through the topic.
func (t *Table) learnFetched(data [][]byte) {
	for _, d := range data {
		env, err := tablelog.ParseEnvelope(d)
		if err != nil || env.Table != t.id || env.Kind != tablelog.KindBotSeat && env.Kind != tablelog.KindVoidSilent {
			continue
		}
		for dev := range t.roster.members() {
			if t.roster.signedBy(env, dev) {
				t.roster.learn(env, dev)
				break
			}
		}
	}
}

// member returns the member device pid, or -1. A device the roster does
// not know yet may have been handed a seat by a SeatClaim this device's
// log has accepted since it last looked: it looks again (at most every
// admitScan), so that a claimant's first envelope is not dropped.
func (t *Table) member(pid peer.ID) int {
	if dev := t.roster.device(pid); dev >= 0 {
		return dev
	}
	t.admitFromLog(context.Background(), false)
	return t.roster.device(pid)
}

// admitScan is how often at most the stored log is read for new SeatClaims
// when an unknown device speaks.
const admitScan = 50 * time.Millisecond

// admitFromLog admits the devices the log hands a seat to: it reads the
// SeatClaim envelopes that this device's store holds past what it read
// before. The store holds only what a Log accepted (every approval
// checked), so no message alone — a claim, an approval, or a SeatClaim
// that the log refuses — makes a device a member. A store rewound to
// another branch is read again from its start. force reads even when the
// last read was less than admitScan ago.
func (t *Table) admitFromLog(ctx context.Context, force bool) {
	if t.server == nil {
		return
	}
	t.scanMu.Lock()
	defer t.scanMu.Unlock()
	if !force && time.Since(t.scannedAt) < admitScan {
		return
	}
	t.scannedAt = time.Now()
	ctx, cancel := context.WithTimeout(ctx, syncServeTimeout)
	defer cancel()
	if t.scanned > 0 {
		last, err := t.server.ServeRange(ctx, t.id, t.scanned-1, t.scanned)
		if err != nil || len(last) != 1 || sha256.Sum256(last[0]) != t.scannedLast {
			t.scanned = 0
		}
	}
	for {
		envs, err := t.server.ServeRange(ctx, t.id, t.scanned, t.scanned+tablelog.MaxRange)
		if err != nil || len(envs) == 0 {
			return
		}
		for _, b := range envs {
			env, err := tablelog.ParseEnvelope(b)
			if err != nil || env.Seq != t.scanned {
				return
			}
			t.scanned++
			t.scannedLast = sha256.Sum256(b)
			if env.Kind != tablelog.KindSeatClaim {
				continue
			}
			seat, key, err := table.ClaimOf(env)
			if err == nil {
				var changed bool
				if changed, err = t.roster.admit(seat, key); changed {
					t.node.logf("p2p: table %.8s: the log hands seat %d to device %v", t.id.String(), seat, key)
					if pid, perr := PeerIDOf(key); perr == nil && pid != t.node.host.ID() {
						t.node.host.ConnManager().Protect(pid, t.topicName)
					}
				}
			}
			if err != nil {
				t.node.logf("p2p: table %.8s: seat claim at seq %d: %v", t.id.String(), env.Seq, err)
			}
		}
	}
}
