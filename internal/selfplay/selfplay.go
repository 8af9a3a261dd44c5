// Package selfplay plays a table of bot peers in one process: one peer
// and one store per seat, over the table's in-memory network, every move
// through a peer and its signed log, as devices on a LAN would. It is what
// `njet selfplay` runs, and what tests use for a whole, honest log of
// either game. The tests of package table have a harness of their own
// that adds faults (crashes, silences, devices gone and back, cheats).
package selfplay

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
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// Config describes a table of bots.
type Config struct {
	// Game is the game the table plays (table.GameNjet, the zero value,
	// by default). Edition, Rounds, Short and Target set up a Njet table
	// as in its genesis; Extreme a table of The Game.
	Game    table.GameName
	Edition engine.Edition
	Rounds  int
	Short   bool
	Target  int
	Extreme bool
	Players int
	// Seed derives every key, deal and choice: one seed, one log.
	Seed uint64
	// Dir holds one store per seat (seat-N.db).
	Dir string
	// Bot is the kind of player in every seat, and NewPlayer makes them
	// (both required: the table knows no game's players).
	Bot       string
	NewPlayer table.NewPlayer
	// Logf, when not nil, receives the peers' reports.
	Logf func(format string, args ...any)
}

// Outcome is what one peer ended with.
type Outcome struct {
	Seat      int
	Next      uint64        // length of its log
	Head      tablelog.Hash // hash of its last envelope
	Results   []table.RoundResult
	Violation *table.Violation
}

// Table is a table of bots, made by New and played by Run.
type Table struct {
	cfg     Config
	id      tablelog.TableID
	genesis *tablelog.Envelope
	keys    []ed25519.PrivateKey
	ids     []tablelog.Identity
	net     *tablelog.MemNetwork

	mu    sync.Mutex
	final []Outcome
}

// tick is how often a peer asks the others for what follows its log.
const tick = 5 * time.Millisecond

// New derives the seats' keys and the genesis from cfg.Seed.
func New(cfg Config) (*Table, error) {
	switch {
	case cfg.NewPlayer == nil || cfg.Bot == "":
		return nil, errors.New("selfplay: a bot kind and NewPlayer are required")
	case cfg.Dir == "":
		return nil, errors.New("selfplay: no store directory")
	case cfg.Players < 1 || cfg.Players > 255:
		return nil, fmt.Errorf("selfplay: %d players", cfg.Players)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x73656c66))
	gen := cfg.genesis(rng)
	t := &Table{cfg: cfg, final: make([]Outcome, cfg.Players)}
	for range cfg.Players {
		var seed [ed25519.SeedSize]byte
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		k := ed25519.NewKeyFromSeed(seed[:])
		id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		t.keys, t.ids = append(t.keys, k), append(t.ids, id)
	}
	gen.Keys = t.ids
	binary.BigEndian.PutUint64(gen.Nonce[:], cfg.Seed)
	body, err := gen.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	t.id = table.TableIDOf(body)
	t.genesis = &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: t.id, Kind: tablelog.KindGenesis, Body: body}
	if err := t.genesis.Sign(t.keys[0]); err != nil {
		return nil, err
	}
	if t.net, err = tablelog.NewMemNetwork(t.id, rand.New(rand.NewPCG(cfg.Seed, 0x6e6574)), tablelog.NetConfig{}); err != nil {
		return nil, err
	}
	return t, nil
}

// genesis returns the setup of the table but for its keys and nonce.
func (cfg Config) genesis(rng *rand.Rand) *table.Genesis {
	n := cfg.Players
	switch cfg.Game {
	case table.GameNjet:
		if n > len(cfg.Edition.Characters()) {
			return &table.Genesis{Edition: cfg.Edition}
		}
		return &table.Genesis{Edition: cfg.Edition, Characters: cfg.Edition.Characters()[:n], FirstDealer: rng.IntN(n),
			Rounds: cfg.Rounds, Short: cfg.Short, Target: cfg.Target}
	case table.GameTheGame:
		g := &table.Genesis{Game: table.GameTheGame, Extreme: cfg.Extreme}
		if cfg.Extreme {
			g.Commands = thegame.AssignmentVersion
		}
		return g
	}
	return &table.Genesis{Game: cfg.Game}
}

// ID returns the table's id.
func (t *Table) ID() tablelog.TableID { return t.id }

// seatSeed is the Seed of seat's peer.
func (t *Table) seatSeed(seat int) *[32]byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("njet/table/v1/selfplay-seat"), t.cfg.Seed^uint64(seat)<<56))
	return &h
}

// storePath is the file of seat's store.
func (t *Table) storePath(seat int) string {
	return filepath.Join(t.cfg.Dir, fmt.Sprintf("seat-%d.db", seat))
}

// Run plays the game to its end (or a halt) and stops the peers. It
// returns when every peer is done or stopped, or ctx ends.
func (t *Table) Run(ctx context.Context) error {
	if err := os.MkdirAll(t.cfg.Dir, 0o700); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type seatRun struct {
		peer *table.Peer
		done chan error
	}
	seats := make([]seatRun, t.cfg.Players)
	var errs []error
	for seat := range seats {
		p, done, err := t.start(ctx, seat)
		if err != nil {
			errs = append(errs, err)
			break
		}
		seats[seat] = seatRun{p, done}
	}
	if errs == nil {
		// Every peer done, or one stopped by itself (it failed: its
		// error is told below, and the others would wait for it).
		errs = append(errs, t.wait(ctx, func() bool {
			all := true
			for _, r := range seats {
				select {
				case err := <-r.done:
					r.done <- err
					return true
				default:
					all = all && r.peer.Done()
				}
			}
			return all
		}))
	}
	cancel()
	for seat, r := range seats {
		if r.peer == nil {
			continue
		}
		err := <-r.done
		if errors.Is(err, tablelog.ErrClosed) || errors.Is(err, context.Canceled) {
			err = nil
		}
		errs = append(errs, err)
		t.record(seat, r.peer)
	}
	return errors.Join(errs...)
}

// wait waits, a tick at a time, until done says so or ctx ends.
func (t *Table) wait(ctx context.Context, done func() bool) error {
	for !done() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("selfplay: the game did not finish: %w", ctx.Err())
		case <-time.After(tick):
		}
	}
	return nil
}

// start opens seat's store and runs its peer until ctx ends; the channel
// tells how the peer ended, once its store is closed.
func (t *Table) start(ctx context.Context, seat int) (*table.Peer, chan error, error) {
	store, err := tablelog.OpenStore(t.storePath(seat), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return nil, nil, err
	}
	ep, err := t.net.Join(ctx, t.ids[seat], store)
	if err != nil {
		return nil, nil, errors.Join(err, store.Close())
	}
	var peers []tablelog.Identity
	for i, id := range t.ids {
		if i != seat {
			peers = append(peers, id)
		}
	}
	ticker, poll, beat := time.NewTicker(tick), time.NewTicker(tick), time.NewTicker(2*tick)
	stop := func() {
		ticker.Stop()
		poll.Stop()
		beat.Stop()
	}
	now := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	p, err := table.NewPeer(table.PeerConfig{Table: t.id, Creator: t.ids[0], Genesis: t.genesis, Seat: seat,
		Key: t.keys[seat], Store: store, Transport: ep, Peers: peers, Seed: t.seatSeed(seat),
		Now: func() time.Time { return now }, Tick: ticker.C, Poll: poll.C, Heartbeat: beat.C,
		Bot: t.cfg.Bot, NewPlayer: t.cfg.NewPlayer, Logf: t.cfg.Logf})
	if err != nil {
		stop()
		return nil, nil, errors.Join(err, ep.Close(), store.Close())
	}
	done := make(chan error, 1)
	go func() {
		err := p.Run(ctx)
		stop()
		done <- errors.Join(err, ep.Close(), store.Close())
	}()
	return p, done, nil
}

// record keeps what seat's peer ended with.
func (t *Table) record(seat int, p *table.Peer) {
	game := p.Game()
	next, head := p.Log().Head()
	t.mu.Lock()
	t.final[seat] = Outcome{Seat: seat, Next: next, Head: head, Results: game.Njet().Results(), Violation: game.Violation()}
	t.mu.Unlock()
}

// Outcomes returns what every peer ended with (after Run).
func (t *Table) Outcomes() []Outcome {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.final)
}

// Export writes seat's exported log to the file at path (opening its
// store, which must not be in use: after Run) and returns the hash of its
// last envelope.
func (t *Table) Export(seat int, path string) (tablelog.Hash, error) {
	store, err := tablelog.OpenStore(t.storePath(seat), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		return tablelog.Hash{}, err
	}
	defer store.Close()
	next, err := store.Next(t.id)
	if err != nil {
		return tablelog.Hash{}, err
	}
	envs, err := store.Envelopes(t.id, next-1, next)
	if err != nil || len(envs) != 1 {
		return tablelog.Hash{}, fmt.Errorf("selfplay: seat %d has no log: %w", seat, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return tablelog.Hash{}, err
	}
	if err := store.Export(f, t.id); err != nil {
		return tablelog.Hash{}, errors.Join(err, f.Close())
	}
	return envs[0].Hash(), f.Close()
}
