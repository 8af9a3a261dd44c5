// Package memtable runs a LAN table of real peers in one process, over
// the table's in-memory network and on a clock that only the test moves:
// the seat layer's, the terminal's and the app's tests play such a table
// as the devices of a LAN would, every move through a peer and its log.
package memtable

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// Config is a table of New.
type Config struct {
	// Genesis is the table's genesis; New gives it the seats' keys.
	Genesis *table.Genesis
	// Players is the number of seats.
	Players int
	// Human tells the seats whose moves are a person's
	// (PeerConfig.Human); bots of kind Bot, made by NewPlayer, play the
	// others (and a person's seat once a bot takes it over).
	Human     func(seat int) bool
	Bot       string
	NewPlayer table.NewPlayer
	// Heartbeat makes every device announce itself on every tick
	// (PeerConfig.Heartbeat), as on a LAN, so that a person who thinks is
	// waited for.
	Heartbeat bool
	// Patience is every peer's (PeerConfig), on Clock; VoidAfter the
	// bots' peers': a person's peer votes on a silent seat only when the
	// test votes for its person (Peer.VoteVoid), as a person taps.
	Patience, VoidAfter time.Duration
	// Seed varies the seats' keys, the network and the peers' randomness.
	Seed byte
}

// Table is a running table of New.
type Table struct {
	// Peers are the seats' peers, by seat; Return puts a new one in the
	// seat's place.
	Peers []*table.Peer
	// Clock is every peer's clock.
	Clock *Clock

	t       testing.TB
	cfg     Config
	ctx     context.Context
	wg      sync.WaitGroup
	id      tablelog.TableID
	genesis *tablelog.Envelope
	keys    []ed25519.PrivateKey
	ids     []tablelog.Identity
	net     *tablelog.MemNetwork
	stores  []string
	changed []chan struct{}
	leave   []func()
	stop    func()
}

// Clock is the peers' clock: it stands still but when the test moves it,
// so that a seat is silent, and a person's time runs out, only when the
// test means it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock is a clock standing at a fixed time of day.
func NewClock() *Clock { return &Clock{now: time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// tick is how often every peer looks at its log, polls the others and,
// with Config.Heartbeat, announces itself.
const tick = 10 * time.Millisecond

// New starts the table of cfg; t's cleanup stops it.
func New(t testing.TB, cfg Config) *Table {
	t.Helper()
	lt := &Table{Clock: NewClock(), t: t, cfg: cfg}
	for i := range cfg.Players {
		k := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i+1) + cfg.Seed}, ed25519.SeedSize))
		id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		lt.keys, lt.ids = append(lt.keys, k), append(lt.ids, id)
		lt.stores = append(lt.stores, filepath.Join(t.TempDir(), "seat.db"))
	}
	gen := cfg.Genesis
	gen.Keys = lt.ids
	body, err := gen.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	lt.id = table.TableIDOf(body)
	lt.genesis = &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: lt.id, Kind: tablelog.KindGenesis, Body: body}
	if err := lt.genesis.Sign(lt.keys[0]); err != nil {
		t.Fatal(err)
	}
	if lt.net, err = tablelog.NewMemNetwork(lt.id, rand.New(rand.NewPCG(uint64(cfg.Seed), 1)), tablelog.NetConfig{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lt.ctx = ctx
	lt.stop = func() {
		cancel()
		lt.wg.Wait()
	}
	t.Cleanup(lt.stop)
	lt.Peers = make([]*table.Peer, cfg.Players)
	lt.changed = make([]chan struct{}, cfg.Players)
	lt.leave = make([]func(), cfg.Players)
	for seat := range cfg.Players {
		lt.changed[seat] = make(chan struct{}, 1)
		lt.start(seat)
	}
	return lt
}

// start runs seat's device from its store: a new one at New, the one it
// left at Return.
func (lt *Table) start(seat int) {
	t, cfg := lt.t, lt.cfg
	t.Helper()
	store, err := tablelog.OpenStore(lt.stores[seat], &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ep, err := lt.net.Join(lt.ctx, lt.ids[seat], store)
	if err != nil {
		t.Fatal(errors.Join(err, store.Close()))
	}
	var others []tablelog.Identity
	for i, id := range lt.ids {
		if i != seat {
			others = append(others, id)
		}
	}
	look, poll, beat := time.NewTicker(tick), time.NewTicker(tick), time.NewTicker(tick)
	stopTickers := func() {
		look.Stop()
		poll.Stop()
		beat.Stop()
	}
	var heartbeat <-chan time.Time
	if cfg.Heartbeat {
		heartbeat = beat.C
	}
	seed := [32]byte{byte(seat), cfg.Seed}
	human := cfg.Human != nil && cfg.Human(seat)
	voidAfter := cfg.VoidAfter
	if human {
		voidAfter = 0
	}
	p, err := table.NewPeer(table.PeerConfig{Table: lt.id, Creator: lt.ids[0], Genesis: lt.genesis, Seat: seat, Key: lt.keys[seat],
		Store: store, Transport: ep, Peers: others, Bot: cfg.Bot, NewPlayer: cfg.NewPlayer, Seed: &seed,
		Now: lt.Clock.Now, Human: human, Tick: look.C, Poll: poll.C, Heartbeat: heartbeat,
		Patience: cfg.Patience, VoidAfter: voidAfter})
	if err != nil {
		stopTickers()
		t.Fatal(errors.Join(err, ep.Close(), store.Close()))
	}
	lt.Peers[seat] = p
	changed := lt.changed[seat]
	seatCtx, leave := context.WithCancel(lt.ctx)
	done := make(chan struct{})
	lt.leave[seat] = func() {
		leave()
		<-done
	}
	lt.wg.Add(2)
	go func() {
		defer lt.wg.Done()
		defer close(done)
		err := p.Run(seatCtx)
		stopTickers()
		if err != nil && !errors.Is(err, tablelog.ErrClosed) && !errors.Is(err, context.Canceled) {
			t.Errorf("seat %d: %v", seat, err)
		}
		if err := errors.Join(ep.Close(), store.Close()); err != nil {
			t.Errorf("seat %d: %v", seat, err)
		}
	}()
	go func() {
		// The peer's events, for a seat of package seat
		// (PeerSeatConfig.Changed).
		defer lt.wg.Done()
		for {
			select {
			case <-seatCtx.Done():
				return
			case <-p.Events():
			}
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}()
}

// Changed tells when seat's peer has news (PeerSeatConfig.Changed), its
// peer after a Return too.
func (lt *Table) Changed(seat int) <-chan struct{} { return lt.changed[seat] }

// Leave stops seat's device, as one switched off, and waits until it has
// stopped; its store stays closed until Return.
func (lt *Table) Leave(seat int) { lt.leave[seat]() }

// Return starts seat's device again from its store, as one switched on
// again after Leave, and returns its new peer (now Peers[seat]): a device
// whose seat the table took over asks for it back.
func (lt *Table) Return(seat int) *table.Peer {
	lt.t.Helper()
	lt.start(seat)
	return lt.Peers[seat]
}

// Stop stops every device and waits for them.
func (lt *Table) Stop() { lt.stop() }

// Players is the players' factory of the game name, from the registry of
// games.
func Players(t testing.TB, name table.GameName) table.NewPlayer {
	t.Helper()
	g, err := games.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return g.NewPlayer
}
