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
	"sync"
	"sync/atomic"
	"time"

	"github.com/njetlan/njet/engine"
)

// SelfplayConfig describes a table of bots, one peer per seat, in one
// process over a MemNetwork.
type SelfplayConfig struct {
	Edition engine.Edition
	Players int
	// Rounds ends the game after that many rounds (0: the whole game).
	Rounds int
	// Short and Target choose the game's length as in engine.Config.
	Short  bool
	Target int
	// Seed derives every key, deal and choice.
	Seed uint64
	// Dir holds one store per seat (seat-N.db).
	Dir string
	// Bot is the bot kind in every seat ("random" if empty).
	Bot string
	// Net is how badly the in-memory network behaves.
	Net NetConfig
	// Tick is how often a peer asks another for what follows its log
	// (default 5ms).
	Tick time.Duration
	// Crashes stop and restart peers from their stores during the game.
	Crashes []Crash
	// Silences cut peers off from the table during the game.
	Silences []Silence
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
	// VoidAfter is every peer's PeerConfig.VoidAfter (and Patience and
	// Grace), on
	// the selfplay's own clock: it stands still but for one second per
	// Tick while a silenced seat is the one the table waits for.
	VoidAfter time.Duration
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
	damage func(st *Store, table TableID) (int64, error)
}

// Silence disconnects a seat's peer once its log, or the longest log at
// the table, has reached AtSeq (so silences with one AtSeq come at once): it
// keeps running, and posting into its own store, but reaches nobody. When
// another peer's log reaches ReturnAt (if not 0), it is stopped, connected
// again and restarted from its store. With Alone its clock runs on, one
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
	Kind          Kind
	Alone         bool
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
	table   TableID
	genesis *Envelope
	keys    []ed25519.PrivateKey
	ids     []Identity
	net     *MemNetwork

	mu       sync.Mutex
	seats    []*seatRun
	final    []Outcome
	restarts int
	silent   map[int]bool // seats cut off now
	fresh    map[int]bool // seats whose store was damaged: no Seed
	clock    time.Time    // the peers' clock (see SelfplayConfig.VoidAfter)
	// ahead is how far the clock of a seat cut off for a while has run
	// ahead of the table's: alone, its peer waits for the others.
	ahead map[int]time.Duration

	// tamper, in tests, makes a seat's peer a cheater (see Peer.tamper).
	tamper map[int]func(env *Envelope, key ed25519.PrivateKey)
	// human, in tests, makes a seat's peer a human's (PeerConfig.Human).
	human map[int]bool
	// watchers are the running watchers' peers (nil until they join) and
	// watchOut what each ended with.
	watchers []*seatRun
	watchOut []Outcome
}

// Outcome is what one peer ended with.
type Outcome struct {
	Seat      int
	Next      uint64 // length of its log
	Head      Hash   // hash of its last envelope
	Results   []RoundResult
	Violation *Violation
	// BotHost is the seat hosting a bot in this peer's seat, or -1.
	BotHost int
	// Voided are the rounds voided, with the seat at fault.
	Voided []*Violation
}

type seatRun struct {
	peer  *Peer
	store *Store
	tr    *crashTransport
	stop  context.CancelFunc
	done  chan error
}

// crashTransport can be armed to fail the next publish, as a peer that
// dies right after storing its envelope.
type crashTransport struct {
	Transport
	armed   atomic.Bool
	crashed chan struct{}
	once    sync.Once
	// cutArmed makes the next publish of an envelope cut the member off
	// instead (cut), losing the envelope.
	cutArmed atomic.Bool
	cutKind  atomic.Uint32 // with cutArmed, only a post of this kind cuts (0: any)
	cut      func()
	gate     *gatedServer
}

// gatedServer answers range requests until it is closed, then with
// nothing: a member about to be cut off serves nothing it stores from then
// on, so its next envelope reaches nobody.
type gatedServer struct {
	server RangeServer
	closed atomic.Bool
}

func (g *gatedServer) ServeRange(ctx context.Context, table TableID, from, to uint64) ([][]byte, error) {
	if g.closed.Load() {
		return nil, nil
	}
	return g.server.ServeRange(ctx, table, from, to)
}

func (t *crashTransport) Publish(ctx context.Context, data []byte) error {
	if !IsSideMessage(data) && t.cutFor(data) && t.cutArmed.CompareAndSwap(true, false) {
		t.cut()
		return nil
	}
	if t.armed.CompareAndSwap(true, false) {
		t.once.Do(func() { close(t.crashed) })
		return fmt.Errorf("%w: crashed before publishing", ErrClosed)
	}
	return t.Transport.Publish(ctx, data)
}

// cutFor reports whether an armed cut applies to the envelope data.
func (t *crashTransport) cutFor(data []byte) bool {
	k := t.cutKind.Load()
	if k == 0 {
		return true
	}
	env, err := ParseEnvelope(data)
	return err == nil && uint32(env.Kind) == k
}

// NewSelfplay derives the seats' keys and the genesis from cfg.Seed.
func NewSelfplay(cfg SelfplayConfig) (*Selfplay, error) {
	if cfg.Bot == "" {
		cfg.Bot = "random"
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 5 * time.Millisecond
	}
	n := cfg.Players
	if n < cfg.Edition.MinPlayers() || n > cfg.Edition.MaxPlayers() {
		return nil, fmt.Errorf("table: %d players in the %s edition", n, cfg.Edition)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x73656c66))
	s := &Selfplay{cfg: cfg, silent: map[int]bool{}, fresh: map[int]bool{}, ahead: map[int]time.Duration{}, clock: time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)}
	gen := &Genesis{Edition: cfg.Edition, Characters: cfg.Edition.Characters()[:n], FirstDealer: rng.IntN(n), Rounds: cfg.Rounds,
		Short: cfg.Short, Target: cfg.Target}
	for range n {
		var seed [ed25519.SeedSize]byte
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		k := ed25519.NewKeyFromSeed(seed[:])
		id, err := IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		s.keys, s.ids = append(s.keys, k), append(s.ids, id)
	}
	gen.Keys = s.ids
	binary.BigEndian.PutUint64(gen.Nonce[:], cfg.Seed)
	body, err := gen.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s.table = TableIDOf(body)
	s.genesis = &Envelope{Version: EnvelopeVersion, Table: s.table, Kind: KindGenesis, Body: body}
	if err := s.genesis.Sign(s.keys[0]); err != nil {
		return nil, err
	}
	s.net, err = NewMemNetwork(s.table, rand.New(rand.NewPCG(cfg.Seed, 0x6e6574)), cfg.Net)
	if err != nil {
		return nil, err
	}
	s.seats = make([]*seatRun, n)
	s.final = make([]Outcome, n)
	s.watchers = make([]*seatRun, len(cfg.Watchers))
	s.watchOut = make([]Outcome, len(cfg.Watchers))
	return s, nil
}

// Table returns the table id.
func (s *Selfplay) Table() TableID { return s.table }

// Creator returns seat 0's key.
func (s *Selfplay) Creator() Identity { return s.ids[0] }

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
func (s *Selfplay) Store(seat int) *Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.seats[seat]; r != nil {
		return r.store
	}
	return nil
}

// SeatKey returns seat's signing key (for tests that forge envelopes).
func (s *Selfplay) SeatKey(seat int) ed25519.PrivateKey { return s.keys[seat] }

func (s *Selfplay) seatSeed(seat int) *[32]byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("njet/table/v1/selfplay-seat"), s.cfg.Seed^uint64(seat)<<56))
	return &h
}

// start opens seat's store and runs its peer.
func (s *Selfplay) start(ctx context.Context, seat int) error {
	store, err := OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("seat-%d.db", seat)), &StoreOptions{NoSync: true})
	if err != nil {
		return err
	}
	gate := &gatedServer{server: store}
	ep, err := s.net.Join(ctx, s.ids[seat], gate)
	if err != nil {
		return errors.Join(err, store.Close())
	}
	var peers []Identity
	for i, id := range s.ids {
		if i != seat {
			peers = append(peers, id)
		}
	}
	tr := &crashTransport{Transport: ep, crashed: make(chan struct{}), gate: gate}
	ticker, poll := time.NewTicker(s.cfg.Tick), time.NewTicker(s.cfg.Tick)
	seed := s.seatSeed(seat)
	s.mu.Lock()
	if s.fresh[seat] {
		seed = nil
	}
	s.mu.Unlock()
	p, err := NewPeer(PeerConfig{Table: s.table, Creator: s.ids[0], Genesis: s.genesis, Seat: seat, Key: s.keys[seat],
		Store: store, Transport: tr, Peers: peers, Bot: s.cfg.Bot, Seed: seed, Tick: ticker.C, Logf: s.cfg.Logf,
		Now: func() time.Time { return s.nowOf(seat) }, Patience: s.cfg.VoidAfter, VoidAfter: s.cfg.VoidAfter, Grace: s.cfg.VoidAfter,
		Poll: poll.C, Human: s.human[seat], Lend: slices.Contains(s.cfg.LobbyBots, seat), LobbyBots: s.cfg.LobbyBots,
		CatchUp: store.Damage() != nil})
	if err != nil {
		ticker.Stop()
		poll.Stop()
		return errors.Join(err, ep.Close(), store.Close())
	}
	p.tamper = s.tamper[seat]
	rctx, cancel := context.WithCancel(ctx)
	r := &seatRun{peer: p, store: store, tr: tr, stop: cancel, done: make(chan error, 1)}
	go func() {
		err := p.Run(rctx)
		ticker.Stop()
		poll.Stop()
		r.done <- errors.Join(err, ep.Close(), store.Close())
	}()
	s.mu.Lock()
	s.seats[seat] = r
	s.mu.Unlock()
	return nil
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
	if errors.Is(err, ErrClosed) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// Run plays the game to its end (or a halt) and stops the peers. It
// returns when every peer is done, or ctx ends.
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
	crashes := append([]Crash(nil), s.cfg.Crashes...)
	silences := append([]Silence(nil), s.cfg.Silences...)
	for {
		allDone := true
		for seat := range s.cfg.Players {
			p := s.Peer(seat)
			allDone = allDone && (s.isSilent(seat) || p != nil && p.Done())
		}
		for i, w := range s.watchingPeers() {
			allDone = allDone && w != nil && w.Done()
			if w == nil {
				if err := s.joinWatcher(ctx, i); err != nil {
					return errors.Join(err, s.stopAll())
				}
			}
		}
		if allDone {
			return s.stopAll()
		}
		var err error
		if silences, err = s.silence(ctx, silences); err != nil {
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
			return errors.Join(ctx.Err(), s.stopAll())
		case <-time.After(s.cfg.Tick):
		}
		for seat := range s.cfg.Players {
			s.mu.Lock()
			r := s.seats[seat]
			s.mu.Unlock()
			if r == nil {
				continue
			}
			select {
			case err := <-r.done:
				// A peer that stopped by itself failed (or crashed on
				// purpose); restart it from its store.
				s.record(seat, r.peer)
				s.mu.Lock()
				s.seats[seat] = nil
				s.restarts++
				s.mu.Unlock()
				if err != nil && s.cfg.Logf != nil {
					s.cfg.Logf("table: seat %d stopped: %v", seat, err)
				}
				if err := s.start(ctx, seat); err != nil {
					return errors.Join(err, s.stopAll())
				}
			default:
			}
		}
	}
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

func (s *Selfplay) isSilent(seat int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.silent[seat]
}

// silence cuts off and brings back the seats of the pending silences, and
// moves the clock while the table waits for a silenced seat. It returns
// the silences still to come or to end.
func (s *Selfplay) silence(ctx context.Context, pending []Silence) ([]Silence, error) {
	var head uint64 // the longest log of a peer that is not cut off
	waiting := false
	for seat := range s.cfg.Players {
		p := s.Peer(seat)
		if p == nil || s.isSilent(seat) {
			continue
		}
		v := p.View()
		head = max(head, p.Log().Next())
		waiting = waiting || v.Turn >= 0 && s.isSilent(p.Game().PeerOf(v.Turn))
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
		case !s.isSilent(c.Seat) && p != nil && (p.Log().Next() >= c.AtSeq || head >= c.AtSeq):
			id := s.ids[c.Seat]
			if c.BeforePublish {
				s.mu.Lock()
				r := s.seats[c.Seat]
				s.mu.Unlock()
				r.tr.cut = func() { s.net.Disconnect(id) }
				r.tr.gate.closed.Store(true)
				r.tr.cutKind.Store(uint32(c.Kind))
				r.tr.cutArmed.Store(true)
			} else {
				s.net.Disconnect(id)
			}
			s.mu.Lock()
			s.silent[c.Seat] = true
			s.mu.Unlock()
		case s.isSilent(c.Seat) && c.ReturnAt > 0 && head >= c.ReturnAt:
			if err := s.stop(c.Seat); err != nil {
				return nil, err
			}
			s.net.Reconnect(s.ids[c.Seat])
			s.mu.Lock()
			s.silent[c.Seat] = false
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

func (s *Selfplay) record(seat int, p *Peer) {
	game, log, _ := p.state()
	next, head := log.Head()
	s.mu.Lock()
	s.final[seat] = Outcome{Seat: seat, Next: next, Head: head, Results: game.Results(), Violation: game.Violation(),
		BotHost: game.HostOf(seat), Voided: game.Voided()}
	s.mu.Unlock()
}

// Restarts counts the peers stopped and restarted from their stores.
func (s *Selfplay) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Outcomes returns what every peer ended with (after Run).
func (s *Selfplay) Outcomes() []Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Outcome(nil), s.final...)
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
	st, err := OpenStore(path, &StoreOptions{NoSync: true})
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
		s.watchOut[i] = Outcome{Seat: s.cfg.Watchers[i].Seat, Next: next, Head: head, Results: game.Results(),
			Violation: game.Violation(), BotHost: game.HostOf(s.cfg.Watchers[i].Seat), Voided: game.Voided()}
		s.mu.Unlock()
		if !errors.Is(err, ErrClosed) && !errors.Is(err, context.Canceled) {
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
	return append([]Outcome(nil), s.watchOut...)
}

// WatcherKey returns watcher i's signing key.
func (s *Selfplay) WatcherKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("njet/table/v1/selfplay-watcher"), s.cfg.Seed^uint64(i)<<48))
	return ed25519.NewKeyFromSeed(seed[:])
}

// joinWatcher starts watcher i once the longest log has reached its AtSeq.
func (s *Selfplay) joinWatcher(ctx context.Context, i int) error {
	w := s.cfg.Watchers[i]
	var head uint64
	for seat := range s.cfg.Players {
		if p := s.Peer(seat); p != nil && !s.isSilent(seat) {
			head = max(head, p.Log().Next())
		}
	}
	if head < w.AtSeq {
		return nil
	}
	key := s.WatcherKey(i)
	id, err := IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		return err
	}
	store, err := OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("watcher-%d.db", i)), &StoreOptions{NoSync: true})
	if err != nil {
		return err
	}
	ep, err := s.net.Join(ctx, id, store)
	if err != nil {
		return errors.Join(err, store.Close())
	}
	ticker, poll := time.NewTicker(s.cfg.Tick), time.NewTicker(s.cfg.Tick)
	p, err := NewPeer(PeerConfig{Table: s.table, Creator: s.ids[0], Seat: w.Seat, Key: key, Store: store, Transport: ep,
		Peers: slices.Clone(s.ids), Bot: s.cfg.Bot, Tick: ticker.C, Poll: poll.C, Logf: s.cfg.Logf, Now: s.now,
		Patience: s.cfg.VoidAfter, VoidAfter: s.cfg.VoidAfter, Grace: s.cfg.VoidAfter, LobbyBots: s.cfg.LobbyBots})
	if err != nil {
		ticker.Stop()
		poll.Stop()
		return errors.Join(err, ep.Close(), store.Close())
	}
	rctx, cancel := context.WithCancel(ctx)
	r := &seatRun{peer: p, store: store, stop: cancel, done: make(chan error, 1)}
	go func() {
		err := p.Run(rctx)
		ticker.Stop()
		poll.Stop()
		r.done <- errors.Join(err, ep.Close(), store.Close())
	}()
	s.mu.Lock()
	s.watchers[i] = r
	s.mu.Unlock()
	return nil
}

// Export writes seat's exported log to w's file path (opening its store,
// which must not be in use).
func (s *Selfplay) Export(seat int, path string) (Hash, error) {
	store, err := OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("seat-%d.db", seat)), &StoreOptions{NoSync: true})
	if err != nil {
		return Hash{}, err
	}
	defer store.Close()
	next, err := store.Next(s.table)
	if err != nil {
		return Hash{}, err
	}
	envs, err := store.Envelopes(s.table, next-1, next)
	if err != nil || len(envs) != 1 {
		return Hash{}, fmt.Errorf("table: seat %d has no log: %w", seat, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return Hash{}, err
	}
	if err := store.Export(f, s.table); err != nil {
		return Hash{}, errors.Join(err, f.Close())
	}
	return envs[0].Hash(), f.Close()
}
