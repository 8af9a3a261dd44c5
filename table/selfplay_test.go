package table

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// SelfplayConfig describes a table of bots, one peer per seat, in one
// process over a MemNetwork.
type SelfplayConfig struct {
	// Game is the game the table plays (GameNjet, the zero value, by
	// default). Edition, Rounds, Short and Target set up a Njet table as
	// in its Genesis; Extreme a table of The Game.
	Game    GameName
	Edition engine.Edition
	Rounds  int
	Short   bool
	Target  int
	Extreme bool
	Players int
	// Seed derives every key, deal and choice.
	Seed uint64
	// Dir holds one store per seat (seat-N.db).
	Dir string
	// Bot is the kind of player in every seat, and NewPlayer makes them
	// (both required: the table knows no game's players).
	Bot       string
	NewPlayer NewPlayer
	// Net is how badly the in-memory network behaves.
	Net tablelog.NetConfig
	// Tick is how often a peer asks another for what follows its log, and
	// looks at the clock (default 5ms).
	Tick time.Duration
	// Crashes stop and restart peers from their stores during the game.
	Crashes []Crash
	// Silences cut peers off from the table during the game.
	Silences []Silence
	// Leaves stop devices for good, or until they come back, during the
	// game.
	Leaves []Leave
	// Watchers are devices that join the table while it plays, with keys
	// of their own: each watches and asks for a seat once a bot plays it.
	Watchers []Watcher
	// LobbyBots are seats of bots seated from the lobby, which give
	// themselves to a watcher who claims them: their peers lend them
	// (PeerConfig.Lend) and every peer, watchers included, knows them
	// (PeerConfig.LobbyBots).
	LobbyBots []int
	// Absent are seats whose devices never come: named in the genesis,
	// they leave before their acknowledgement (a device gone in the
	// lobby), and their peers never start.
	Absent []int
	// Clock is the table's clock (Genesis.Clock), in seconds of the
	// selfplay's clock; 0 has none.
	Clock int
	// VoidAfter is every peer's PeerConfig.VoidAfter (and Patience and
	// Grace; the Refusal is selfplayRefusal times as long), on the
	// selfplay's own clock: it stands still but for one second per Tick
	// while the table waits for a seat whose device is cut off or gone.
	// 0 never takes a seat over.
	VoidAfter time.Duration
	// Watch, when not nil, is called with a seat's peer whenever its log
	// grows and must return quickly; an error from it ends the run.
	Watch func(seat int, p *Peer) error
	// Posting, when not nil, is called with a seat's peer before each
	// envelope it posts, on that peer's own goroutine: unlike Watch it
	// misses no state the device posts from, however loaded the machine.
	// It is called from several peers at once.
	Posting func(seat int, p *Peer)
	// Logf, when not nil, receives the peers' reports.
	Logf func(format string, args ...any)
}

// Crash stops a peer once its log has reached AtSeq and restarts it from
// its store. With BeforePublish the peer stops inside its next post: after
// the envelope is stored, before it is published.
type Crash struct {
	Seat          int
	AtSeq         uint64
	BeforePublish bool

	// damage, in tests, damages the stopped peer's store before the
	// restart: the file is cut at the offset it returns, as a device's
	// store cut short by a crash or a full disk. The restarted peer then
	// draws fresh randomness, as a real device does, so whatever it would
	// post again at a seq it had posted differs from its first envelope.
	damage func(st *tablelog.Store, table tablelog.TableID) (int64, error)
}

// Silence disconnects a seat's peer once its log, or the longest log at
// the table, has reached AtSeq (so silences with one AtSeq come at once): it
// keeps running, and posting into its own store, but reaches nobody. When
// another peer's log reaches ReturnAt (if not 0), or every other peer is
// done first, it is stopped, connected again and restarted from its
// store. With Alone its clock runs on, one
// second per Tick while it waits for a seat it does not post for, so it
// takes the other seats over in its own log, as a real device cut off
// longer than the patience does.
// With BeforePublish the cut happens inside the peer's next post, after
// the envelope is stored and before anyone receives it; with Kind too,
// inside its next post of that kind (from AtSeq on, the peer serves
// nothing by sync, so the table has that envelope only if it was
// published).
type Silence struct {
	Seat          int
	AtSeq         uint64
	ReturnAt      uint64
	BeforePublish bool
	Kind          tablelog.Kind
	Alone         bool
}

// Leave stops a seat's device for good and cuts it off the network, as a
// device switched off, once the longest log of the peers still there has
// reached AtSeq, or once When, given the game of that log or of the
// seat's own as it is about to post, says so (When wins when set).
//
// AtReveal makes the device leave instead of posting its reveal after the
// play (a withheld reveal); AtSeq and When are then not used.
//
// ReturnAt, when not 0, brings the device back once the longest log has
// reached ReturnAt and the table has taken its seat over: its peer is
// restarted from its store, with fresh randomness, and connected again.
// Such a device leaves when it is about to draft an envelope and its When
// holds (or without When, its own log has reached AtSeq): its store then
// holds nothing the others never received.
type Leave struct {
	Seat     int
	AtSeq    uint64
	When     func(g *Game) bool
	AtReveal bool
	ReturnAt uint64
}

// Watcher is a device that joins the table once the log has reached
// AtSeq, with a key drawn from the seed, and asks for Seat (its peer's
// PeerConfig.Seat) once a bot plays that seat (a bot seated for silence,
// or one of the LobbyBots): until then it only watches.
type Watcher struct {
	Seat  int
	AtSeq uint64
}

// Selfplay runs a table of bot peers.
type Selfplay struct {
	cfg     SelfplayConfig
	table   tablelog.TableID
	genesis *tablelog.Envelope
	keys    []ed25519.PrivateKey
	ids     []tablelog.Identity
	net     *tablelog.MemNetwork

	mu       sync.Mutex
	seats    []*seatRun
	final    []Outcome
	restarts int
	silent   map[int]bool // seats cut off or gone now
	rejoined map[int]bool // seats that came back from a silence
	kindCut  map[int]bool // seats whose armed cut of a kind has happened
	reached  map[int]bool // silences (by index in cfg.Silences) cut by reach
	fresh    map[int]bool // seats whose store was damaged: no Seed
	clock    time.Time    // the peers' clock (see SelfplayConfig.VoidAfter)
	// ahead is how far the clock of a seat cut off for a while has run
	// ahead of the table's: alone, its peer waits for the others.
	ahead map[int]time.Duration
	// left are the leaves (by index in cfg.Leaves) that have come;
	// returned those whose device came back, and back the seats whose
	// device came back after a leave: it draws fresh randomness.
	left, returned map[int]bool
	back           map[int]int
	// withheld are the seats whose device left at its reveal.
	withheld map[int]bool

	// tamper, in tests, makes a seat's peer a cheater (see Peer.tamper);
	// alter changes its drafts (Peer.alter).
	tamper map[int]func(env *tablelog.Envelope, key ed25519.PrivateKey)
	alter  map[int]func(d *draft)
	// split, in tests, makes a seat's device equivocate once; returns
	// are the returns of devices it cut off, for Run to take up.
	split   map[int]*splitter
	returns []Silence
	// human, in tests, makes a seat's peer a person's (PeerConfig.Human).
	human map[int]bool
	// slow, in tests, are the seats whose device is there but slow to
	// post (a person thinking, a busy processor): the clock runs while the
	// table waits for one and its function, given the seat's peer, holds.
	// stall holds back a seat's draft of a kind while it says so; the
	// device stays at the table and announces itself.
	slow  map[int]func(p *Peer) bool
	stall map[int]func(g *Game, k tablelog.Kind) bool
	// watchers are the running watchers' peers (nil until they join) and
	// watchOut what each ended with.
	watchers []*seatRun
	watchOut []Outcome
}

// Outcome is what one peer ended with.
type Outcome struct {
	Seat      int
	Next      uint64        // length of its log
	Head      tablelog.Hash // hash of its last envelope
	Results   []RoundResult
	Violation *Violation
	// BotHost is the seat hosting a bot in this peer's seat, or -1.
	BotHost int
	// Voided are the rounds voided, with the seat at fault.
	Voided []*Violation
	// Rewinds and Accusations count the times the peer gave way to
	// another branch and posted the evidence of an equivocation.
	Rewinds, Accusations int
}

type seatRun struct {
	peer  *Peer
	store *tablelog.Store
	tr    *crashTransport
	stop  context.CancelFunc
	done  chan error
}

// crashTransport can be armed to fail the next publish, as a peer that
// dies right after storing its envelope.
type crashTransport struct {
	tablelog.Transport
	armed   atomic.Bool
	crashed chan struct{}
	once    sync.Once
	// cutArmed makes the next publish of an envelope cut the member off
	// instead (cut), losing the envelope.
	cutArmed atomic.Bool
	cutKind  atomic.Uint32 // with cutArmed, only a post of this kind cuts (0: any)
	cutFrom  atomic.Uint64 // with cutKind, only a post at this seq or later cuts
	cut      func()
	gate     *gatedServer
	// split, in tests, makes the device equivocate once (see splitter).
	split *splitter
	// reach, when set, is told the seq of each envelope about to be
	// published, before it is (Selfplay.reach), and again after.
	reach func(seq uint64, from int, published bool)
	seat  int
}

// splitter makes a seat's device equivocate once, in tests: the first of
// its envelopes that match accepts goes as signed to the members not in
// second, and the envelope other makes of it (the same seq and previous
// envelope, signed again by the seat) to the members in second.
type splitter struct {
	match  func(env *tablelog.Envelope) bool
	other  func(env *tablelog.Envelope) (*tablelog.Envelope, error)
	second []tablelog.Identity
	// isolated, when set, takes the other envelope instead of the
	// members outside second (see Selfplay.isolate); the signed one then
	// goes to every member the network reaches.
	isolated func(seq uint64, other []byte) error
	done     atomic.Bool
	// sent is the envelope's seq once the split happened.
	sent atomic.Uint64
}

// equivocate publishes data to the members outside the split's second
// group and the other envelope to those in it.
func (t *crashTransport) equivocate(ctx context.Context, data []byte, env *tablelog.Envelope) error {
	sp := t.split
	ep, ok := t.Transport.(*tablelog.MemEndpoint)
	if !ok {
		return t.Transport.Publish(ctx, data)
	}
	other, err := sp.other(env)
	if err != nil {
		return err
	}
	b, err := other.MarshalBinary()
	if err != nil {
		return err
	}
	sp.sent.Store(env.Seq)
	if sp.isolated != nil {
		if err := sp.isolated(env.Seq, b); err != nil {
			return err
		}
		return ep.PublishTo(ctx, data, nil)
	}
	inSecond := func(id tablelog.Identity) bool { return slices.Contains(sp.second, id) }
	if err := ep.PublishTo(ctx, data, func(id tablelog.Identity) bool { return !inSecond(id) }); err != nil {
		return err
	}
	return ep.PublishTo(ctx, b, inSecond)
}

// gatedServer answers range requests until it is closed, then with
// nothing: a member about to be cut off serves nothing it stores from then
// on, so its next envelope reaches nobody.
type gatedServer struct {
	server tablelog.RangeServer
	closed atomic.Bool
}

func (g *gatedServer) ServeRange(ctx context.Context, table tablelog.TableID, from, to uint64) ([][]byte, error) {
	if g.closed.Load() {
		return nil, nil
	}
	return g.server.ServeRange(ctx, table, from, to)
}

func (t *crashTransport) Publish(ctx context.Context, data []byte) error {
	if t.reach != nil && !IsSideMessage(data) {
		if env, err := tablelog.ParseEnvelope(data); err == nil {
			t.reach(env.Seq, t.seat, false)
			defer t.reach(env.Seq, t.seat, true)
		}
	}
	if !IsSideMessage(data) && t.cutFor(data) && t.cutArmed.CompareAndSwap(true, false) {
		t.cut()
		return nil
	}
	if sp := t.split; sp != nil && !IsSideMessage(data) && !sp.done.Load() {
		if env, err := tablelog.ParseEnvelope(data); err == nil && sp.match(env) && sp.done.CompareAndSwap(false, true) {
			return t.equivocate(ctx, data, env)
		}
	}
	if t.armed.CompareAndSwap(true, false) {
		t.once.Do(func() { close(t.crashed) })
		return fmt.Errorf("%w: crashed before publishing", tablelog.ErrClosed)
	}
	return t.Transport.Publish(ctx, data)
}

// cutFor reports whether an armed cut applies to the envelope data.
func (t *crashTransport) cutFor(data []byte) bool {
	k := t.cutKind.Load()
	if k == 0 {
		return true
	}
	env, err := tablelog.ParseEnvelope(data)
	return err == nil && uint32(env.Kind) == k && env.Seq >= t.cutFrom.Load()
}

// selfplayRefusal is the refusal time of a selfplay's peers, in units of
// its VoidAfter.
const selfplayRefusal = 6

// NewSelfplay derives the seats' keys and the genesis from cfg.Seed.
func NewSelfplay(cfg SelfplayConfig) (*Selfplay, error) {
	if cfg.NewPlayer == nil || cfg.Bot == "" {
		return nil, fmt.Errorf("table: NewSelfplay: Bot and NewPlayer are required")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 5 * time.Millisecond
	}
	n := cfg.Players
	for _, l := range cfg.Leaves {
		if l.Seat < 0 || l.Seat >= n {
			return nil, fmt.Errorf("table: seat %d leaves a table of %d", l.Seat, n)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x73656c66))
	gen := cfg.genesis(rng)
	s := &Selfplay{cfg: cfg, silent: map[int]bool{}, kindCut: map[int]bool{}, reached: map[int]bool{}, rejoined: map[int]bool{}, fresh: map[int]bool{}, ahead: map[int]time.Duration{},
		left: map[int]bool{}, returned: map[int]bool{}, back: map[int]int{}, withheld: map[int]bool{},
		clock: time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)}
	for range n {
		var seed [ed25519.SeedSize]byte
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		k := ed25519.NewKeyFromSeed(seed[:])
		id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		s.keys, s.ids = append(s.keys, k), append(s.ids, id)
	}
	gen.Keys = s.ids
	binary.BigEndian.PutUint64(gen.Nonce[:], cfg.Seed)
	body, err := gen.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("table: selfplay: %w", err)
	}
	s.table = TableIDOf(body)
	s.genesis = &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: s.table, Kind: tablelog.KindGenesis, Body: body}
	if err := s.genesis.Sign(s.keys[0]); err != nil {
		return nil, err
	}
	s.net, err = tablelog.NewMemNetwork(s.table, rand.New(rand.NewPCG(cfg.Seed, 0x6e6574)), cfg.Net)
	if err != nil {
		return nil, err
	}
	s.seats = make([]*seatRun, n)
	s.final = make([]Outcome, n)
	s.watchers = make([]*seatRun, len(cfg.Watchers))
	s.watchOut = make([]Outcome, len(cfg.Watchers))
	return s, nil
}

// genesis returns the setup of the table but for its keys and nonce.
func (cfg SelfplayConfig) genesis(rng *rand.Rand) *Genesis {
	n := cfg.Players
	switch cfg.Game {
	case GameNjet:
		if n < 1 || n > len(cfg.Edition.Characters()) {
			return &Genesis{Edition: cfg.Edition}
		}
		return &Genesis{Edition: cfg.Edition, Characters: cfg.Edition.Characters()[:n], FirstDealer: rng.IntN(n),
			Rounds: cfg.Rounds, Short: cfg.Short, Target: cfg.Target, Clock: cfg.Clock}
	case GameTheGame:
		g := &Genesis{Game: GameTheGame, Extreme: cfg.Extreme, Clock: cfg.Clock}
		if cfg.Extreme {
			g.Commands = thegame.AssignmentVersion
		}
		return g
	}
	return &Genesis{Game: cfg.Game}
}

// Table returns the table id.
func (s *Selfplay) Table() tablelog.TableID { return s.table }

// Creator returns seat 0's key.
func (s *Selfplay) Creator() tablelog.Identity { return s.ids[0] }

// Peer returns the running peer of seat, or nil.
func (s *Selfplay) Peer(seat int) *Peer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.seats[seat]; r != nil {
		return r.peer
	}
	return nil
}

// Store returns the store of seat while its peer runs, or nil.
func (s *Selfplay) Store(seat int) *tablelog.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.seats[seat]; r != nil {
		return r.store
	}
	return nil
}

// SeatKey returns seat's signing key (for tests that forge envelopes).
func (s *Selfplay) SeatKey(seat int) ed25519.PrivateKey { return s.keys[seat] }

// seatSeed is the Seed of seat's peer: the same across a crash, so that a
// restarted peer replays exactly; a device that comes back after a leave
// draws other randomness than before (back counts its returns).
func (s *Selfplay) seatSeed(seat, back int) *[32]byte {
	label := "njet/table/v1/selfplay-seat"
	if back > 0 {
		label = fmt.Sprintf("njet/table/v1/selfplay-seat-back/%d", back)
	}
	h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte(label), s.cfg.Seed^uint64(seat)<<56))
	return &h
}

// armKindCut arms, from the start, a silence that cuts seat off inside
// its first post of a kind at or after a seq: the seq alone would be seen
// by the supervisor's poll only after the seat, busy or quick, had posted.
// The seat counts as silent from the cut on.
func (s *Selfplay) armKindCut(seat int, tr *crashTransport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kindCut[seat] {
		return
	}
	for _, c := range s.cfg.Silences {
		if c.Seat != seat || !c.BeforePublish || c.Kind == 0 {
			continue
		}
		id := s.ids[seat]
		tr.cut = func() {
			tr.gate.closed.Store(true)
			s.net.Disconnect(id)
			s.mu.Lock()
			s.silent[seat] = true
			s.kindCut[seat] = true
			s.mu.Unlock()
		}
		tr.cutKind.Store(uint32(c.Kind))
		tr.cutFrom.Store(c.AtSeq)
		tr.cutArmed.Store(true)
		return
	}
}

// start opens seat's store and runs its peer.
func (s *Selfplay) start(ctx context.Context, seat int) error {
	store, err := tablelog.OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("seat-%d.db", seat)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return err
	}
	gate := &gatedServer{server: store}
	ep, err := s.net.Join(ctx, s.ids[seat], gate)
	if err != nil {
		return errors.Join(err, store.Close())
	}
	var peers []tablelog.Identity
	for i, id := range s.ids {
		if i != seat {
			peers = append(peers, id)
		}
	}
	tr := &crashTransport{Transport: ep, crashed: make(chan struct{}), gate: gate, split: s.split[seat],
		reach: s.reach, seat: seat}
	s.armKindCut(seat, tr)
	s.mu.Lock()
	seed := s.seatSeed(seat, s.back[seat])
	if s.fresh[seat] {
		seed = nil
	}
	s.mu.Unlock()
	r, err := s.run(ctx, PeerConfig{Genesis: s.genesis, Seat: seat, Key: s.keys[seat], Transport: tr, Peers: peers,
		Seed: seed, Now: func() time.Time { return s.nowOf(seat) }, Human: s.human[seat],
		Lend: slices.Contains(s.cfg.LobbyBots, seat), CatchUp: store.Damage() != nil}, store, ep, func(p *Peer) {
		p.tamper = s.tamper[seat]
		p.alter = s.beforePost(seat, p, s.alter[seat])
		p.withhold = s.beforeDraft(seat, p)
	})
	if err != nil {
		return err
	}
	r.tr = tr
	s.mu.Lock()
	s.seats[seat] = r
	s.mu.Unlock()
	return nil
}

// run makes a peer of the table with cfg (the selfplay's own settings
// added) over store and ep, sets it up with prepare and runs it until
// stopped, closing ep and store after it.
func (s *Selfplay) run(ctx context.Context, cfg PeerConfig, store *tablelog.Store, ep *tablelog.MemEndpoint, prepare func(*Peer)) (*seatRun, error) {
	// The devices announce themselves every few ticks: the clock moves
	// one second a tick while the table waits, well within the patience.
	ticker, poll, beat := time.NewTicker(s.cfg.Tick), time.NewTicker(s.cfg.Tick), time.NewTicker(2*s.cfg.Tick)
	stop := func() {
		ticker.Stop()
		poll.Stop()
		beat.Stop()
	}
	cfg.Table, cfg.Creator, cfg.Store, cfg.Tick, cfg.Poll, cfg.Heartbeat = s.table, s.ids[0], store, ticker.C, poll.C, beat.C
	cfg.Bot, cfg.NewPlayer, cfg.Logf, cfg.LobbyBots = s.cfg.Bot, s.cfg.NewPlayer, s.cfg.Logf, s.cfg.LobbyBots
	cfg.Patience, cfg.VoidAfter, cfg.Grace = s.cfg.VoidAfter, s.cfg.VoidAfter, s.cfg.VoidAfter
	cfg.Refusal = selfplayRefusal * s.cfg.VoidAfter
	p, err := NewPeer(cfg)
	if err != nil {
		stop()
		return nil, errors.Join(err, ep.Close(), store.Close())
	}
	if prepare != nil {
		prepare(p)
	}
	rctx, cancel := context.WithCancel(ctx)
	r := &seatRun{peer: p, store: store, stop: cancel, done: make(chan error, 1)}
	go func() {
		err := p.Run(rctx)
		stop()
		r.done <- errors.Join(err, ep.Close(), store.Close())
	}()
	return r, nil
}

// stop ends seat's peer and closes its store.
func (s *Selfplay) stop(seat int) error {
	s.mu.Lock()
	r := s.seats[seat]
	s.seats[seat] = nil
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	r.stop()
	err := <-r.done
	s.record(seat, r.peer)
	if errors.Is(err, tablelog.ErrClosed) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// Run plays the game to its end (or a halt) and stops the peers. It
// returns when every peer is done, or ctx ends, or Watch fails.
func (s *Selfplay) Run(ctx context.Context) error {
	if s.cfg.Dir == "" {
		return fmt.Errorf("table: selfplay without a store directory")
	}
	if err := os.MkdirAll(s.cfg.Dir, 0o700); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for seat := range s.cfg.Players {
		if slices.Contains(s.cfg.Absent, seat) {
			s.mu.Lock()
			s.silent[seat] = true
			s.mu.Unlock()
			continue
		}
		if err := s.start(ctx, seat); err != nil {
			return errors.Join(err, s.stopAll())
		}
	}
	crashes := slices.Clone(s.cfg.Crashes)
	silences := slices.Clone(s.cfg.Silences)
	var leaves []int // the leaves still to come, by index in cfg.Leaves
	for i := range s.cfg.Leaves {
		leaves = append(leaves, i)
	}
	seen := make([]uint64, s.cfg.Players)
	for {
		s.mu.Lock()
		silences = append(silences, s.returns...)
		s.returns = nil
		s.mu.Unlock()
		allDone := true
		for seat := range s.cfg.Players {
			p := s.Peer(seat)
			allDone = allDone && (s.isSilent(seat) || p != nil && p.Done())
			if p != nil && s.cfg.Watch != nil && !s.isSilent(seat) {
				if next := p.Log().Next(); next != seen[seat] {
					seen[seat] = next
					if err := s.cfg.Watch(seat, p); err != nil {
						return errors.Join(err, s.stopAll())
					}
				}
			}
		}
		for i, w := range s.watchingPeers() {
			allDone = allDone && w != nil && w.Done()
			if w == nil {
				if err := s.joinWatcher(ctx, i); err != nil {
					return errors.Join(err, s.stopAll())
				}
			}
		}
		// A device cut off to come back is waited for: the others may
		// finish first, and it comes back then, and follows them.
		back := slices.ContainsFunc(silences, func(c Silence) bool { return c.ReturnAt > 0 && s.isSilent(c.Seat) })
		if allDone && !back && s.backInStep() && s.splitSettled() {
			return s.stopAll()
		}
		var err error
		if silences, err = s.silence(ctx, silences, allDone); err != nil {
			return errors.Join(err, s.stopAll())
		}
		if leaves, err = s.leave(ctx, leaves); err != nil {
			return errors.Join(err, s.stopAll())
		}
		for i := 0; i < len(crashes); i++ {
			c := crashes[i]
			p := s.Peer(c.Seat)
			if p == nil || p.Log().Next() < c.AtSeq {
				continue
			}
			crashes = append(crashes[:i], crashes[i+1:]...)
			i--
			if err := s.crash(ctx, c); err != nil {
				return errors.Join(err, s.stopAll())
			}
		}
		select {
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("table: the selfplay did not finish (%s): %w", s.waitingFor(silences), ctx.Err()), s.stopAll())
		case <-time.After(s.cfg.Tick):
		}
		if err := s.restartStopped(ctx); err != nil {
			return errors.Join(err, s.stopAll())
		}
	}
}

// waitingFor says what a run that does not end waits for: each device's
// and watcher's log and state, and which of Run's conditions for the end do not hold.
func (s *Selfplay) waitingFor(silences []Silence) string {
	var parts []string
	for seat := range s.cfg.Players {
		p := s.Peer(seat)
		if p == nil {
			parts = append(parts, fmt.Sprintf("seat %d not running", seat))
			continue
		}
		n, h := p.Log().Head()
		parts = append(parts, fmt.Sprintf("seat %d at %d %x done %v silent %v", seat, n, h[:4], p.Done(), s.isSilent(seat)))
	}
	for i, w := range s.watchingPeers() {
		if w == nil {
			parts = append(parts, fmt.Sprintf("watcher %d not joined", i))
			continue
		}
		n, h := w.Log().Head()
		parts = append(parts, fmt.Sprintf("watcher %d at %d %x done %v", i, n, h[:4], w.Done()))
	}
	for _, c := range silences {
		if c.ReturnAt > 0 && s.isSilent(c.Seat) {
			parts = append(parts, fmt.Sprintf("seat %d to come back at %d", c.Seat, c.ReturnAt))
		}
	}
	if !s.backInStep() {
		parts = append(parts, "a device back is not in step")
	}
	if !s.splitSettled() {
		parts = append(parts, "the split is not settled")
	}
	return strings.Join(parts, "; ")
}

// restartStopped restarts from its store every peer that stopped by
// itself (it failed, or crashed on purpose); a peer stopped by a leave
// stays stopped.
func (s *Selfplay) restartStopped(ctx context.Context) error {
	for seat := range s.cfg.Players {
		s.mu.Lock()
		r := s.seats[seat]
		s.mu.Unlock()
		if r == nil {
			continue
		}
		select {
		case err := <-r.done:
			s.record(seat, r.peer)
			s.mu.Lock()
			s.seats[seat] = nil
			gone := s.goneFor(seat)
			if !gone {
				s.restarts++
			}
			s.mu.Unlock()
			if err != nil && !gone && s.cfg.Logf != nil {
				s.cfg.Logf("table: seat %d stopped: %v", seat, err)
			}
			if gone {
				continue
			}
			if err := s.start(ctx, seat); err != nil {
				return err
			}
		default:
		}
	}
	return nil
}

// goneFor reports whether seat's device left (a Leave that came and did
// not end with its return); s.mu is held.
func (s *Selfplay) goneFor(seat int) bool {
	for i, l := range s.cfg.Leaves {
		if l.Seat == seat && s.left[i] && !s.returned[i] {
			return true
		}
	}
	return s.withheld[seat]
}

// now is the peers' clock.
func (s *Selfplay) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock
}

// nowOf is seat's clock: the peers' clock, run ahead for a seat that was
// cut off for a while.
func (s *Selfplay) nowOf(seat int) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock.Add(s.ahead[seat])
}

// slowFor reports whether the table waits for seat's device being slow
// (see Selfplay.slow).
func (s *Selfplay) slowFor(seat int) bool {
	slow := s.slow[seat]
	p := s.Peer(seat)
	return slow != nil && p != nil && slow(p)
}

// silentTurn reports whether the device that posts for seat, as game
// knows it, is cut off or gone: a seat handed to a watcher is the
// watcher's, however silent the device that first played it.
func (s *Selfplay) silentTurn(game *Game, seat int) bool {
	d := game.PeerOf(seat)
	return s.isSilent(d) && game.KeyOf(d) == s.ids[d]
}

func (s *Selfplay) isSilent(seat int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.silent[seat]
}

// silence cuts off and brings back the seats of the pending silences (at
// their ReturnAt, or once the others are done), and moves the clock while
// the table waits for a silenced or gone seat. It returns the silences
// still to come or to end.
func (s *Selfplay) silence(ctx context.Context, pending []Silence, othersDone bool) ([]Silence, error) {
	head := s.head()
	waiting := false
	for seat := range s.cfg.Players {
		p := s.Peer(seat)
		if p == nil || s.isSilent(seat) {
			continue
		}
		v := p.View()
		waiting = waiting || v.Turn >= 0 && (s.silentTurn(p.Game(), v.Turn) || s.slowFor(p.Game().PeerOf(v.Turn)))
		// A seat that lost its secrets is as silent as one cut off.
		waiting = waiting || v.SecretsLost
	}
	if waiting {
		s.mu.Lock()
		s.clock = s.clock.Add(time.Second)
		s.mu.Unlock()
	}
	var rest []Silence
	for _, c := range pending {
		p := s.Peer(c.Seat)
		switch {
		case c.BeforePublish && c.Kind != 0 && !s.isSilent(c.Seat):
			// Cut inside the seat's own post of that kind (armKindCut):
			// until then the device is there, however long it takes.
		case !s.isSilent(c.Seat) && p != nil && (p.Log().Next() >= c.AtSeq || head >= c.AtSeq):
			id := s.ids[c.Seat]
			if c.BeforePublish {
				s.mu.Lock()
				r := s.seats[c.Seat]
				s.mu.Unlock()
				if c.Kind == 0 {
					r.tr.cut = func() { s.net.Disconnect(id) }
					r.tr.cutArmed.Store(true)
				}
				r.tr.gate.closed.Store(true)
			} else {
				s.net.Disconnect(id)
			}
			s.mu.Lock()
			s.silent[c.Seat] = true
			s.mu.Unlock()
		case s.isSilent(c.Seat) && c.ReturnAt > 0 && (head >= c.ReturnAt || othersDone):
			if err := s.stop(c.Seat); err != nil {
				return nil, err
			}
			s.net.Reconnect(s.ids[c.Seat])
			s.mu.Lock()
			s.silent[c.Seat] = false
			s.rejoined[c.Seat] = true
			s.restarts++
			s.mu.Unlock()
			if err := s.start(ctx, c.Seat); err != nil {
				return nil, err
			}
			continue
		}
		if s.isSilent(c.Seat) && c.ReturnAt == 0 {
			continue // gone for good
		}
		if c.Alone && s.isSilent(c.Seat) && p != nil {
			// Cut off, the device's clock runs on: it finds the others
			// silent and takes their seats over.
			if t := p.View().Turn; t >= 0 && !p.hosts(p.Game(), t) {
				s.mu.Lock()
				s.ahead[c.Seat] += time.Second
				s.mu.Unlock()
			}
		}
		rest = append(rest, c)
	}
	s.cutTakenOver()
	return rest, nil
}

// reach cuts off, as the envelope at seq is published by seat's device,
// the seats of the silences whose AtSeq the log reaches with it (those
// without BeforePublish, which cut inside a post of their own): the cut
// then comes at that very step, however late the supervisor's next look
// would be. A seat that posts the envelope itself is cut once it is out
// (published true), every other before it is delivered.
func (s *Selfplay) reach(seq uint64, from int, published bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.cfg.Silences {
		if c.BeforePublish || seq+1 < c.AtSeq || (c.Seat == from) != published ||
			s.reached[i] || s.silent[c.Seat] || s.rejoined[c.Seat] {
			continue
		}
		s.reached[i] = true
		s.net.Disconnect(s.ids[c.Seat])
		s.silent[c.Seat] = true
	}
}

// headPeer returns the longest log of a peer that is not cut off, and
// that peer (nil when none runs).
func (s *Selfplay) headPeer() (uint64, *Peer) {
	var head uint64
	var at *Peer
	for seat := range s.cfg.Players {
		p := s.Peer(seat)
		if p == nil || s.isSilent(seat) {
			continue
		}
		if next := p.Log().Next(); at == nil || next > head {
			head, at = next, p
		}
	}
	return head, at
}

// backInStep reports whether every device that came back from a silence
// holds the log of the longest of the others: one that finished its game
// alone while cut off follows the table only once it has compared the
// branches.
// isolate, in tests, hands data, an envelope of seat from, to seat's
// device alone, as if sent to it, and then cuts that device off until the
// longest log reaches returnAt: a cheater's second envelope that only one
// device gets, which the others take for silent meanwhile.
func (s *Selfplay) isolate(seat, from int, data []byte, returnAt uint64) error {
	p := s.Peer(seat)
	if p == nil {
		return fmt.Errorf("table: selfplay: seat %d is not running", seat)
	}
	_, log, replica := p.state()
	// What the device has not received yet of the log before data: the
	// sender's log holds it (the logs agree up to there).
	if sender := s.Peer(from); sender != nil {
		env, err := tablelog.ParseEnvelope(data)
		if err != nil {
			return err
		}
		for _, e := range sender.Log().Range(log.Next(), env.Seq) {
			b, err := e.MarshalBinary()
			if err != nil {
				return err
			}
			if _, err := replica.Receive(s.ids[from], b); err != nil {
				return err
			}
		}
	}
	if _, err := replica.Receive(s.ids[from], data); err != nil {
		return err
	}
	s.net.Disconnect(s.ids[seat])
	s.mu.Lock()
	s.silent[seat] = true
	s.returns = append(s.returns, Silence{Seat: seat, ReturnAt: returnAt})
	s.mu.Unlock()
	return nil
}

// splitSettled reports, at a table where a device equivocated (tests),
// whether the devices running agree on one log that names each
// equivocator: a device halted on its own branch may still have to give
// way, and one that took the other branch whole may not yet have read
// the envelope it was sent itself.
func (s *Selfplay) splitSettled() bool {
	if len(s.split) == 0 {
		return true
	}
	var head tablelog.Hash
	first := true
	for seat := range s.cfg.Players {
		p := s.Peer(seat)
		if p == nil || s.isSilent(seat) {
			continue
		}
		_, h := p.Log().Head()
		if !first && h != head {
			return false
		}
		head, first = h, false
		for cheater, sp := range s.split {
			if sp.done.Load() && !namesEquivocator(p.Game(), cheater) {
				return false
			}
		}
	}
	return true
}

// namesEquivocator reports whether game records seat as an equivocator.
func namesEquivocator(game *Game, seat int) bool {
	named := func(v *Violation) bool { return v != nil && v.Seat == seat && v.Check == CheckEquivocal }
	return named(game.Violation()) || slices.ContainsFunc(game.Voided(), named)
}

func (s *Selfplay) backInStep() bool {
	var longest tablelog.Hash
	var next uint64
	for seat := range s.cfg.Players {
		s.mu.Lock()
		back := s.rejoined[seat]
		s.mu.Unlock()
		if p := s.Peer(seat); p != nil && !back && !s.isSilent(seat) {
			if n, h := p.Log().Head(); n > next {
				next, longest = n, h
			}
		}
	}
	for seat := range s.cfg.Players {
		s.mu.Lock()
		back := s.rejoined[seat]
		s.mu.Unlock()
		if p := s.Peer(seat); back && p != nil {
			if n, h := p.Log().Head(); n != next || h != longest {
				return false
			}
		}
	}
	return true
}

// head returns the longest log of a peer that is not cut off.
func (s *Selfplay) head() uint64 {
	h, _ := s.headPeer()
	return h
}

// cutTakenOver cuts off, at once, a silenced seat still waiting for its
// armed post when the table has already taken it over (its envelope before
// was lost, and the table went on without it): a device gone stays gone.
func (s *Selfplay) cutTakenOver() {
	for seat := range s.cfg.Players {
		s.mu.Lock()
		r, silent := s.seats[seat], s.silent[seat]
		s.mu.Unlock()
		if r == nil || !silent || !r.tr.cutArmed.Load() {
			continue
		}
		for other := range s.cfg.Players {
			if p := s.Peer(other); other != seat && p != nil && !s.isSilent(other) && p.Game().HostOf(seat) >= 0 {
				if r.tr.cutArmed.CompareAndSwap(true, false) {
					r.tr.cut()
				}
				break
			}
		}
	}
}

// leave stops the seats whose time to leave has come, and brings back
// those whose time to return has. It returns the leaves still to come, a
// device's return included.
func (s *Selfplay) leave(ctx context.Context, pending []int) ([]int, error) {
	head, at := s.headPeer()
	var rest []int
	for _, i := range pending {
		l := s.cfg.Leaves[i]
		s.mu.Lock()
		gone := s.left[i]
		s.mu.Unlock()
		switch {
		case gone && l.ReturnAt > 0:
			// Gone, and to come back once the table has taken the seat
			// over and the log has gone on.
			if at == nil || head < l.ReturnAt || at.Game().Genesis() == nil || at.Game().PeerOf(l.Seat) == l.Seat || s.Peer(l.Seat) != nil {
				rest = append(rest, i)
				continue
			}
			s.net.Reconnect(s.ids[l.Seat])
			s.mu.Lock()
			s.returned[i], s.silent[l.Seat] = true, false
			s.back[l.Seat]++
			s.restarts++
			s.mu.Unlock()
			if err := s.start(ctx, l.Seat); err != nil {
				return nil, err
			}
		case gone:
		case l.AtReveal || l.ReturnAt > 0:
			// The seat's own hooks find its moment (beforeDraft).
			rest = append(rest, i)
		default:
			due := head >= l.AtSeq
			if l.When != nil {
				due = at != nil && at.Game().Genesis() != nil && l.When(at.Game())
			}
			if !due {
				rest = append(rest, i)
				continue
			}
			s.depart(i)
		}
	}
	return rest, nil
}

// depart stops the device of leave i: it reaches nobody from now on, and
// its peer ends.
func (s *Selfplay) depart(i int) {
	seat := s.cfg.Leaves[i].Seat
	s.mu.Lock()
	s.left[i], s.silent[seat] = true, true
	r := s.seats[seat]
	s.mu.Unlock()
	s.net.Disconnect(s.ids[seat])
	if r != nil {
		r.stop()
	}
}

// beforeDraft is seat's hook before it drafts an envelope: a device that
// withholds its reveal leaves there, and a device that is to come back
// (Leave.ReturnAt) leaves when its When holds, before it drafts anything:
// its store then holds only what it sent. A peer that left drafts nothing
// more in the moment before it stops (its peer restarted later has a hook
// of its own).
func (s *Selfplay) beforeDraft(seat int, p *Peer) func(k tablelog.Kind) bool {
	stall := s.stall[seat]
	var gone atomic.Bool
	return func(k tablelog.Kind) bool {
		if gone.Load() || stall != nil && stall(p.Game(), k) {
			return true
		}
		for i, l := range s.cfg.Leaves {
			if l.Seat != seat {
				continue
			}
			s.mu.Lock()
			done := s.left[i]
			s.mu.Unlock()
			switch {
			case done:
			case l.AtReveal && k == tablelog.KindReveal:
				s.mu.Lock()
				s.withheld[seat] = true
				s.mu.Unlock()
				gone.Store(true)
				s.depart(i)
				return true
			case l.ReturnAt > 0 && !l.AtReveal && p.Game().Genesis() != nil:
				due := p.Log().Next() >= l.AtSeq
				if l.When != nil {
					due = l.When(p.Game())
				}
				if due {
					gone.Store(true)
					s.depart(i)
					return true
				}
			}
		}
		return false
	}
}

// beforePost is seat's draft hook: alter, if any, then the leaves of the
// seat whose When holds of the game the seat posts from. A state such as
// "its own turn" may last shorter than a tick of the selfplay's loop; seen
// from the seat's own post it cannot be missed. The seat is cut off
// before the envelope reaches anyone, and stops.
func (s *Selfplay) beforePost(seat int, p *Peer, alter func(d *draft)) func(d *draft) {
	return func(d *draft) {
		if alter != nil {
			alter(d)
		}
		if s.cfg.Posting != nil && p.Game().Genesis() != nil {
			s.cfg.Posting(seat, p)
		}
		for i, l := range s.cfg.Leaves {
			if l.Seat != seat || l.When == nil || l.AtReveal || l.ReturnAt > 0 {
				continue
			}
			s.mu.Lock()
			done := s.left[i]
			s.mu.Unlock()
			if !done && p.Game().Genesis() != nil && l.When(p.Game()) {
				s.depart(i)
			}
		}
	}
}

func (s *Selfplay) record(seat int, p *Peer) {
	game, log, _ := p.state()
	next, head := log.Head()
	s.mu.Lock()
	s.final[seat] = Outcome{Seat: seat, Next: next, Head: head, Results: game.Njet().Results(), Violation: game.Violation(),
		BotHost: game.HostOf(seat), Voided: game.Voided(), Rewinds: p.Rewinds(), Accusations: p.Accusations()}
	s.mu.Unlock()
}

// Restarts counts the peers stopped and restarted from their stores.
func (s *Selfplay) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Returns counts the devices that came back after a leave.
func (s *Selfplay) Returns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.returned)
}

// Outcomes returns what every peer ended with (after Run).
func (s *Selfplay) Outcomes() []Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.final)
}

// crash stops and restarts a peer, or arms it to die inside its next post.
func (s *Selfplay) crash(ctx context.Context, c Crash) error {
	if c.BeforePublish {
		s.mu.Lock()
		r := s.seats[c.Seat]
		s.mu.Unlock()
		if r != nil {
			r.tr.armed.Store(true)
		}
		return nil
	}
	if err := s.stop(c.Seat); err != nil {
		return err
	}
	if c.damage != nil {
		if err := s.damageStore(c); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.restarts++
	s.mu.Unlock()
	return s.start(ctx, c.Seat)
}

// damageStore cuts a stopped seat's store file where c.damage says.
func (s *Selfplay) damageStore(c Crash) error {
	path := filepath.Join(s.cfg.Dir, fmt.Sprintf("seat-%d.db", c.Seat))
	st, err := tablelog.OpenStore(path, &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return err
	}
	off, err := c.damage(st, s.table)
	if err = errors.Join(err, st.Close()); err != nil {
		return err
	}
	if err := os.Truncate(path, off); err != nil {
		return err
	}
	s.mu.Lock()
	s.fresh[c.Seat] = true
	s.mu.Unlock()
	return nil
}

func (s *Selfplay) stopAll() error {
	var errs []error
	for seat := range s.cfg.Players {
		errs = append(errs, s.stop(seat))
	}
	for i := range s.watchers {
		s.mu.Lock()
		r := s.watchers[i]
		s.watchers[i] = nil
		s.mu.Unlock()
		if r == nil {
			continue
		}
		r.stop()
		err := <-r.done
		game, log, _ := r.peer.state()
		next, head := log.Head()
		s.mu.Lock()
		s.watchOut[i] = Outcome{Seat: s.cfg.Watchers[i].Seat, Next: next, Head: head, Results: game.Njet().Results(),
			Violation: game.Violation(), BotHost: game.HostOf(s.cfg.Watchers[i].Seat), Voided: game.Voided()}
		s.mu.Unlock()
		if !errors.Is(err, tablelog.ErrClosed) && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// watchingPeers returns each watcher's peer, nil before it joined.
func (s *Selfplay) watchingPeers() []*Peer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Peer, len(s.watchers))
	for i, r := range s.watchers {
		if r != nil {
			out[i] = r.peer
		}
	}
	return out
}

// Watcher returns watcher i's peer, or nil before it joined.
func (s *Selfplay) Watcher(i int) *Peer { return s.watchingPeers()[i] }

// WatcherOutcomes returns what every watcher ended with (after Run).
func (s *Selfplay) WatcherOutcomes() []Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.watchOut)
}

// WatcherKey returns watcher i's signing key.
func (s *Selfplay) WatcherKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("njet/table/v1/selfplay-watcher"), s.cfg.Seed^uint64(i)<<48))
	return ed25519.NewKeyFromSeed(seed[:])
}

// joinWatcher starts watcher i once the longest log has reached its AtSeq.
func (s *Selfplay) joinWatcher(ctx context.Context, i int) error {
	w := s.cfg.Watchers[i]
	if s.head() < w.AtSeq {
		return nil
	}
	key := s.WatcherKey(i)
	id, err := tablelog.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		return err
	}
	store, err := tablelog.OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("watcher-%d.db", i)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return err
	}
	ep, err := s.net.Join(ctx, id, store)
	if err != nil {
		return errors.Join(err, store.Close())
	}
	r, err := s.run(ctx, PeerConfig{Seat: w.Seat, Key: key, Transport: ep, Peers: slices.Clone(s.ids), Now: s.now},
		store, ep, nil)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.watchers[i] = r
	s.mu.Unlock()
	return nil
}

// Export writes seat's exported log to the file at path (opening its
// store, which must not be in use: after Run) and returns the hash of its
// last envelope. A seat whose device left before it held a log has none.
func (s *Selfplay) Export(seat int, path string) (tablelog.Hash, error) {
	store, err := tablelog.OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("seat-%d.db", seat)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return tablelog.Hash{}, err
	}
	defer store.Close()
	next, err := store.Next(s.table)
	if err != nil {
		return tablelog.Hash{}, err
	}
	envs, err := store.Envelopes(s.table, next-1, next)
	if err != nil || len(envs) != 1 {
		return tablelog.Hash{}, fmt.Errorf("table: seat %d has no log: %w", seat, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return tablelog.Hash{}, err
	}
	if err := store.Export(f, s.table); err != nil {
		return tablelog.Hash{}, errors.Join(err, f.Close())
	}
	return envs[0].Hash(), f.Close()
}
