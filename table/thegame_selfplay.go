package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/njetlan/njet/thegame"
)

// TheGameSelfplayConfig sets up a table of The Game played by bots over a
// MemNetwork.
type TheGameSelfplayConfig struct {
	Players int  // 1 to 5
	Extreme bool // with the command cards
	// Bot is the thegame/bot kind of every seat ("coop" if empty); Silent
	// turns the signals off.
	Bot    string
	Silent bool
	// Seed derives the seats' keys, the genesis, the network's behaviour
	// and every seat's randomness.
	Seed uint64
	// Dir holds the seats' stores.
	Dir string
	// Net sets how badly the network behaves.
	Net NetConfig
	// Tick is the replicas' sync interval (5 ms if 0).
	Tick time.Duration
	// Leaves are devices that leave the table for good during the game.
	Leaves []TheGameLeave
	// VoidAfter is every peer's Patience, VoidAfter and Grace (10 s if 0),
	// on the selfplay's own clock: it stands still but for one second per
	// Tick while the table waits for a seat whose device has left.
	VoidAfter time.Duration
	// Logf, when not nil, is told about rejected envelopes.
	Logf func(format string, args ...any)
}

// TheGameLeave stops a seat's peer for good and cuts it off the network,
// as a device switched off, once the longest log of the peers still there
// has reached AtSeq, or once When, given the public view of the game from
// that log or from the seat's own log as it is about to post, says so
// (When wins when set).
//
// AtReveal makes the device leave instead of posting its reveal after the
// game (a withheld reveal); AtSeq and When are then not used.
//
// ReturnAt, when not 0, brings the device back once the longest log has
// reached ReturnAt and the table has taken its seat over: its peer is
// restarted from its store, with fresh randomness, and connected again.
// Such a device leaves when it is about to draft an envelope and its When
// holds (or without When, its own log has reached AtSeq): its store then
// holds nothing the others never received.
type TheGameLeave struct {
	Seat     int
	AtSeq    uint64
	When     func(v thegame.View) bool
	AtReveal bool
	ReturnAt uint64
}

// TheGameSelfplay is a table of The Game where every seat is a
// TheGamePeer on one MemNetwork, for tests and simulations.
type TheGameSelfplay struct {
	cfg     TheGameSelfplayConfig
	table   TableID
	keys    []ed25519.PrivateKey
	ids     []Identity
	genesis *Envelope
	net     *MemNetwork

	mu      sync.Mutex
	peers   []*TheGamePeer
	stops   []context.CancelFunc
	gone    map[int]bool
	held    map[int]bool // seats whose device withheld its reveal
	ended   int
	clock   time.Time
	exports [][]byte
	// tamper, by seat, changes that seat's drafts (tests play cheats).
	tamper map[int]func(d *draft)
	// leftBefore are the leaves (by index in cfg.Leaves) that a peer's
	// own post triggered (see beforePost).
	leftBefore map[int]bool
	// departed counts the devices stopped by a leave, and returns those
	// restarted (TheGameLeave.ReturnAt).
	departed, returns int
	back              map[int]bool // the leaves whose device came back

	// What Run starts a seat's peer with, kept for a device that returns.
	runCtx    context.Context
	stores    []*Store
	wg        sync.WaitGroup
	errc      chan error
	peerEnded []chan struct{} // per seat: closed when its current peer has stopped
}

// NewTheGameSelfplay derives the seats' keys and the genesis from the seed.
func NewTheGameSelfplay(cfg TheGameSelfplayConfig) (*TheGameSelfplay, error) {
	if cfg.Players < thegame.MinPlayers || cfg.Players > thegame.MaxPlayers {
		return nil, fmt.Errorf("table: The Game with %d players, want %d to %d", cfg.Players, thegame.MinPlayers, thegame.MaxPlayers)
	}
	if cfg.Dir == "" {
		return nil, fmt.Errorf("table: NewTheGameSelfplay: no directory for the stores")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 5 * time.Millisecond
	}
	if cfg.VoidAfter <= 0 {
		cfg.VoidAfter = 10 * time.Second
	}
	for _, l := range cfg.Leaves {
		if l.Seat < 0 || l.Seat >= cfg.Players {
			return nil, fmt.Errorf("table: seat %d leaves a table of %d", l.Seat, cfg.Players)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74686567))
	s := &TheGameSelfplay{cfg: cfg, gone: map[int]bool{}, held: map[int]bool{}, clock: time.Unix(1_700_000_000, 0)}
	gen := &Genesis{Game: GameTheGame, Extreme: cfg.Extreme}
	if cfg.Extreme {
		gen.Commands = thegame.AssignmentVersion
	}
	for range cfg.Players {
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
	if s.net, err = NewMemNetwork(s.table, rand.New(rand.NewPCG(cfg.Seed, 0x6e6574)), cfg.Net); err != nil {
		return nil, err
	}
	return s, nil
}

// Table returns the table id.
func (s *TheGameSelfplay) Table() TableID { return s.table }

// Peer returns seat's peer once Run has started it, or nil.
func (s *TheGameSelfplay) Peer(seat int) *TheGamePeer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seat < 0 || seat >= len(s.peers) {
		return nil
	}
	return s.peers[seat]
}

// peerList returns the seats' peers as they are now (a device that returns
// gets a new one).
func (s *TheGameSelfplay) peerList() []*TheGamePeer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.peers)
}

// Run plays the game until every seat's peer is done (the game over and
// audited, or halted by a violation) or ctx ends, then stops the peers.
// watch, when not nil, is called with every peer whenever a log grows and
// must return quickly; an error from it ends the run.
func (s *TheGameSelfplay) Run(ctx context.Context, watch func(seat int, p *TheGamePeer) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := s.cfg.Players
	defer func() {
		for _, st := range s.stores {
			st.Close()
		}
	}()
	s.runCtx = ctx
	s.errc = make(chan error, n+len(s.cfg.Leaves))
	s.peerEnded = make([]chan struct{}, n)
	for seat := range n {
		store, err := OpenStore(filepath.Join(s.cfg.Dir, fmt.Sprintf("thegame-seat-%d.db", seat)), &StoreOptions{NoSync: true})
		if err != nil {
			return err
		}
		s.stores = append(s.stores, store)
		if err := s.start(seat, false); err != nil {
			return err
		}
	}
	errc, stores, wg := s.errc, s.stores, &s.wg
	err := s.wait(ctx, watch, errc)
	cancel()
	wg.Wait()
	for range len(errc) {
		if e := <-errc; e != nil && err == nil {
			err = e
		}
	}
	for seat, st := range stores {
		b, xerr := storeExport(st, s.table)
		if xerr != nil && s.left(seat) {
			// A device gone before the genesis reached it holds no log.
			b, xerr = nil, nil
		}
		if xerr != nil {
			return errors.Join(err, fmt.Errorf("table: export of seat %d: %w", seat, xerr))
		}
		s.mu.Lock()
		s.exports = append(s.exports, b)
		s.mu.Unlock()
	}
	return err
}

// start runs seat's peer over its store: at the beginning of Run, or
// again for a device that returns (fresh randomness, a new endpoint).
func (s *TheGameSelfplay) start(seat int, again bool) error {
	ctx := s.runCtx
	store := s.stores[seat]
	ep, err := s.net.Join(ctx, s.ids[seat], store)
	if err != nil {
		return err
	}
	var others []Identity
	for i, id := range s.ids {
		if i != seat {
			others = append(others, id)
		}
	}
	label := "njet/table/v1/thegame-selfplay-seat"
	if again {
		label = "njet/table/v1/thegame-selfplay-seat-back"
	}
	seed := sha256.Sum256(binary.BigEndian.AppendUint64([]byte(label), s.cfg.Seed^uint64(seat)<<56))
	ticker := time.NewTicker(s.cfg.Tick)
	p, err := NewTheGamePeer(TheGamePeerConfig{Table: s.table, Creator: s.ids[0], Genesis: s.genesis, Seat: seat,
		Key: s.keys[seat], Store: store, Transport: ep, Peers: others, Bot: s.cfg.Bot, Silent: s.cfg.Silent,
		Seed: &seed, Tick: ticker.C, Logf: s.cfg.Logf,
		Patience: s.cfg.VoidAfter, VoidAfter: s.cfg.VoidAfter, Grace: s.cfg.VoidAfter, Now: s.now})
	if err != nil {
		ticker.Stop()
		return errors.Join(err, ep.Close())
	}
	p.tamper = s.beforePost(seat, p, s.tamper[seat])
	p.withhold = s.beforeDraft(seat, p)
	pctx, stop := context.WithCancel(ctx)
	ended := make(chan struct{})
	s.mu.Lock()
	if again {
		s.peers[seat], s.stops[seat] = p, stop
	} else {
		s.peers = append(s.peers, p)
		s.stops = append(s.stops, stop)
	}
	s.peerEnded[seat] = ended
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(ended)
		err := errors.Join(p.Run(pctx), ep.Close())
		ticker.Stop()
		if s.left(seat) || pctx.Err() != nil && ctx.Err() == nil || errors.Is(err, ErrClosed) && ctx.Err() != nil {
			// A device that left, or every device once the run
			// ends, may find its transport closed (the endpoints
			// watch the run's ctx) before its own ctx ends.
			err = nil
		}
		if err != nil {
			err = fmt.Errorf("seat %d: %w", seat, err)
		}
		s.errc <- err
	}()
	return nil
}

// comeBack restarts the device of seat, which left, from its store once
// its peer has stopped.
func (s *TheGameSelfplay) comeBack(seat int) error {
	s.mu.Lock()
	ended := s.peerEnded[seat]
	s.mu.Unlock()
	select {
	case <-ended:
	case <-s.runCtx.Done():
		return s.runCtx.Err()
	}
	s.net.Reconnect(s.ids[seat])
	s.mu.Lock()
	s.gone[seat] = false
	s.returns++
	s.mu.Unlock()
	return s.start(seat, true)
}

// Returns counts the devices restarted after they left.
func (s *TheGameSelfplay) Returns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.returns
}

// storeExport returns the export file of the table's log in store.
func storeExport(store *Store, table TableID) ([]byte, error) {
	var b bytes.Buffer
	if err := store.Export(&b, table); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// wait polls the peers until all are done, one fails, or ctx ends.
func (s *TheGameSelfplay) wait(ctx context.Context, watch func(int, *TheGamePeer) error, errc <-chan error) error {
	tick := time.NewTicker(s.cfg.Tick)
	defer tick.Stop()
	seen := make([]uint64, s.cfg.Players)
	var leaves []int // the leaves still to come, by index in cfg.Leaves
	for i := range s.cfg.Leaves {
		leaves = append(leaves, i)
	}
	for {
		done := true
		for seat, p := range s.peerList() {
			if s.left(seat) {
				continue
			}
			if next, _ := p.rep().head(); watch != nil && next != seen[seat] {
				seen[seat] = next
				if err := watch(seat, p); err != nil {
					return err
				}
			}
			done = done && p.Done()
		}
		if done {
			return nil
		}
		var err error
		if leaves, err = s.leave(leaves); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("table: The Game's selfplay did not finish: %w", ctx.Err())
		case err := <-errc:
			if err == nil && !s.leftAll(errc) {
				err = errors.New("table: a peer stopped before the game ended")
			}
			if err != nil {
				return err
			}
		case <-tick.C:
		}
	}
}

// now is the peers' clock.
func (s *TheGameSelfplay) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock
}

// left reports whether seat's device has left.
func (s *TheGameSelfplay) left(seat int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gone[seat]
}

// leftAll reports whether a peer that ended may have been one stopped by a
// leave: the count of stopped peers is at least the count of ends seen.
func (s *TheGameSelfplay) leftAll(errc <-chan error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended++
	return s.ended <= s.departed
}

// leave stops the seats whose time to leave has come, and moves the clock
// on while a peer still there waits for a seat whose device has left. It
// returns the leaves still to come, a device's return included.
func (s *TheGameSelfplay) leave(pending []int) ([]int, error) {
	var head uint64
	var at *TheGamePeer
	waiting := false
	for seat, p := range s.peerList() {
		if s.left(seat) {
			continue
		}
		next, _ := p.rep().head()
		if at == nil || next > head {
			head, at = next, p
		}
		if turn, err := p.Game().Entitled(next); err == nil && s.left(p.Game().PeerOf(int(turn.Seat))) {
			waiting = true
		}
	}
	if waiting {
		s.mu.Lock()
		s.clock = s.clock.Add(time.Second)
		s.mu.Unlock()
	}
	var rest []int
	for _, i := range pending {
		l := s.cfg.Leaves[i]
		s.mu.Lock()
		before := s.leftBefore[i]
		s.mu.Unlock()
		if before && l.ReturnAt > 0 {
			// Gone, and to come back once the table has taken the seat
			// over and the log has gone on.
			if at == nil || head < l.ReturnAt || at.Game().Genesis() == nil || at.Game().PeerOf(l.Seat) == l.Seat {
				rest = append(rest, i)
				continue
			}
			s.mu.Lock()
			delete(s.leftBefore, i)
			if s.back == nil {
				s.back = map[int]bool{}
			}
			s.back[i] = true
			s.mu.Unlock()
			if err := s.comeBack(l.Seat); err != nil {
				return nil, err
			}
			continue
		}
		if before {
			continue // the seat's own post found it due
		}
		if l.ReturnAt > 0 {
			// A device that comes back leaves only before a draft of
			// its own (beforeDraft).
			rest = append(rest, i)
			continue
		}
		due := head >= l.AtSeq
		if l.When != nil {
			due = at != nil && at.Game().Genesis() != nil && l.When(at.Game().View(0))
		}
		if l.AtReveal {
			s.mu.Lock()
			due = s.held[l.Seat]
			s.mu.Unlock()
		}
		if !due {
			rest = append(rest, i)
			continue
		}
		s.mu.Lock()
		s.gone[l.Seat] = true
		s.departed++
		stop := s.stops[l.Seat]
		s.mu.Unlock()
		s.net.Disconnect(s.ids[l.Seat])
		stop()
	}
	return rest, nil
}

// leavesAtReveal reports whether seat's device withholds its reveal.
func (s *TheGameSelfplay) leavesAtReveal(seat int) bool {
	for _, l := range s.cfg.Leaves {
		if l.Seat == seat && l.AtReveal {
			return true
		}
	}
	return false
}

// Export returns the export file of seat's log as it was when Run ended.
func (s *TheGameSelfplay) Export(seat int) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seat < 0 || seat >= len(s.exports) {
		return nil, fmt.Errorf("table: no export of seat %d", seat)
	}
	return s.exports[seat], nil
}

// beforeDraft is seat's hook before it drafts an envelope: a device that
// withholds its reveal stays silent there, and a device that is to come
// back (TheGameLeave.ReturnAt) leaves when its When holds, before it
// drafts anything: its store then holds only what it sent.
func (s *TheGameSelfplay) beforeDraft(seat int, p *TheGamePeer) func(k Kind) bool {
	return func(k Kind) bool {
		if k == KindReveal && s.leavesAtReveal(seat) {
			s.mu.Lock()
			s.held[seat] = true
			s.mu.Unlock()
			return true
		}
		for i, l := range s.cfg.Leaves {
			if l.Seat != seat || l.ReturnAt == 0 || l.AtReveal {
				continue
			}
			s.mu.Lock()
			done := s.leftBefore[i] || s.gone[seat] || s.back[i]
			s.mu.Unlock()
			if done || p.Game().Genesis() == nil {
				continue
			}
			if due := p.Log().Next() >= l.AtSeq; l.When != nil && !l.When(p.Game().View(0)) || l.When == nil && !due {
				continue
			}
			s.mu.Lock()
			if s.leftBefore == nil {
				s.leftBefore = map[int]bool{}
			}
			s.leftBefore[i], s.gone[seat] = true, true
			s.departed++
			stop := s.stops[seat]
			s.mu.Unlock()
			s.net.Disconnect(s.ids[seat])
			stop()
			return true
		}
		return false
	}
}

// beforePost is seat's draft hook: tamper, if any, then the leaves of the
// seat whose When holds of the public view the seat posts from. A state
// such as "its own turn" may last shorter than a tick of the selfplay's
// loop; seen from the seat's own post it cannot be missed. The seat is cut
// off before the envelope reaches anyone, and stops.
func (s *TheGameSelfplay) beforePost(seat int, p *TheGamePeer, tamper func(d *draft)) func(d *draft) {
	return func(d *draft) {
		if tamper != nil {
			tamper(d)
		}
		for i, l := range s.cfg.Leaves {
			if l.Seat != seat || l.When == nil || l.AtReveal || l.ReturnAt > 0 {
				continue
			}
			s.mu.Lock()
			done := s.leftBefore[i] || s.gone[seat] || s.back[i]
			s.mu.Unlock()
			if done || p.Game().Genesis() == nil || !l.When(p.Game().View(0)) {
				continue
			}
			s.mu.Lock()
			if s.leftBefore == nil {
				s.leftBefore = map[int]bool{}
			}
			s.leftBefore[i], s.gone[seat] = true, true
			s.departed++
			stop := s.stops[seat]
			s.mu.Unlock()
			s.net.Disconnect(s.ids[seat])
			stop()
		}
	}
}
