package table

import (
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// PeerConfig wires a Peer.
type PeerConfig struct {
	// Table and Creator name the table (TableIDOf the genesis body, and
	// seat 0's key).
	Table   TableID
	Creator Identity
	// Genesis is the genesis envelope; only the creator needs it, to post it.
	Genesis *Envelope
	// Seat is the peer's own seat and Key its signing key (the seat's key
	// in the genesis).
	Seat int
	Key  ed25519.PrivateKey
	// Store is the peer's crash-safe store; a restarted peer resumes from it.
	Store *Store
	// Transport and Peers reach the other members.
	Transport Transport
	Peers     []Identity
	// Bot is the bot kind (bot.New) that plays the peer's own seat.
	Bot string
	// Seed, when not nil, derives all of the peer's randomness (round keys,
	// shuffles, salts, the bot's choices) from the seed and the seq, so a
	// simulation replays exactly, even across a restart. Nil uses
	// crypto/rand, as every real game must.
	Seed *[32]byte
	// Now is the clock of the "waiting since" report (time.Now if nil).
	Now func() time.Time
	// Tick, when not nil, makes the replica ask a member for what follows
	// its log on every tick (see ReplicaConfig.Tick).
	Tick <-chan time.Time
	// Logf, when not nil, is told about rejected envelopes.
	Logf func(format string, args ...any)
	// Events is the capacity of the event channel (default 64).
	Events int
}

// Event tells a UI that the table moved on: the log grew to Seq envelopes.
type Event struct {
	Seq       uint64
	Turn      int   // the seat entitled next, or -1
	Kind      Kind  // what it must post
	Round     int   // rounds audited so far
	Over      bool  // the game is over
	Violation error // the violation that halted the round, if any
}

// PeerView is what a UI shows of the table.
type PeerView struct {
	Game engine.View // the engine's view for the peer's seat
	// Turn is the seat entitled to post next (-1 when nobody is), Kind
	// what it must post, and Since when the log last grew: "waiting for
	// seat Turn since Since".
	Turn  int
	Kind  Kind
	Since time.Time
	// Results are the audited rounds; Violation what halted the round.
	Results   []RoundResult
	Violation error
	Over      bool
}

// Waiting describes whom the table waits for, e.g.
// "waiting for seat 2 (Play) since 12:03:04".
func (v PeerView) Waiting() string {
	switch {
	case v.Over:
		return "the game is over"
	case v.Violation != nil:
		return "halted: " + v.Violation.Error()
	case v.Turn < 0:
		return "waiting for the log"
	}
	return fmt.Sprintf("waiting for seat %d (%v) since %s", v.Turn, v.Kind, v.Since.Format(time.TimeOnly))
}

// Peer is one seat at a table: it replays the log through its Game, posts
// its own envelopes when its seat is entitled (storing secrets and the
// envelope before sending), and reports to a UI through View and Events.
type Peer struct {
	cfg     PeerConfig
	game    *Game
	log     *Log
	replica *Replica
	events  chan Event

	mu    sync.Mutex
	since time.Time

	// tamper, in tests, rewrites and re-signs an envelope before it is
	// posted, to play a cheater.
	tamper func(env *Envelope, key ed25519.PrivateKey)
}

// NewPeer builds a peer and replays its stored log.
func NewPeer(cfg PeerConfig) (*Peer, error) {
	if cfg.Store == nil || cfg.Transport == nil || len(cfg.Key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("table: NewPeer: Store, Transport and Key are required")
	}
	if _, err := bot.New(cfg.Bot, nil); err != nil {
		return nil, fmt.Errorf("table: NewPeer: %w", err)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Events <= 0 {
		cfg.Events = 64
	}
	game := NewGame(GameConfig{Table: cfg.Table, Creator: cfg.Creator, Vault: StoreVault{cfg.Store, cfg.Table}})
	log, err := NewLog(LogConfig{Table: cfg.Table, Protocol: game})
	if err != nil {
		return nil, err
	}
	var seed [32]byte
	if cfg.Seed != nil {
		seed = sha256.Sum256(append([]byte("njet/table/v1/replica-rand"), cfg.Seed[:]...))
	} else if _, err := crand.Read(seed[:]); err != nil {
		return nil, err
	}
	rep, err := NewReplica(ReplicaConfig{Log: log, Store: cfg.Store, Transport: cfg.Transport, Peers: cfg.Peers,
		Rand: rand.New(rand.NewChaCha8(seed)), Tick: cfg.Tick, Logf: cfg.Logf})
	if err != nil {
		return nil, err
	}
	return &Peer{cfg: cfg, game: game, log: log, replica: rep, events: make(chan Event, cfg.Events), since: cfg.Now()}, nil
}

// Events returns the buffered event channel. A reader that falls behind
// misses events (View always has the latest state); it is never closed.
func (p *Peer) Events() <-chan Event { return p.events }

// Game returns the peer's protocol state.
func (p *Peer) Game() *Game { return p.game }

// Log returns the peer's log.
func (p *Peer) Log() *Log { return p.log }

// View returns what a UI shows.
func (p *Peer) View() PeerView {
	next := p.log.Next()
	v := PeerView{Turn: -1, Results: p.game.Results(), Over: p.game.Over()}
	if viol := p.game.Violation(); viol != nil {
		v.Violation = viol
	}
	if t, err := p.game.Entitled(next); err == nil {
		v.Turn, v.Kind = int(t.Seat), t.Kinds[0]
	}
	p.game.mu.Lock()
	if p.game.eng != nil {
		v.Game = p.game.eng.View(p.cfg.Seat)
	}
	p.game.mu.Unlock()
	p.mu.Lock()
	v.Since = p.since
	p.mu.Unlock()
	return v
}

// Done reports whether the peer has nothing more to do: the game is over
// or halted by a violation that only this peer saw (after a public one the
// table votes to void the round).
func (p *Peer) Done() bool {
	v := p.game.Violation()
	return p.game.Over() || v != nil && v.Private
}

// Run replicates the log and plays the peer's seat until ctx ends (then it
// returns nil) or the replica fails.
func (p *Peer) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- p.replica.Run(ctx) }()
	for {
		if err := p.act(ctx); err != nil {
			cancel()
			<-errc
			return err
		}
		select {
		case <-ctx.Done():
			return <-errc
		case err := <-errc:
			return err
		case <-p.replica.Changed():
			p.mu.Lock()
			p.since = p.cfg.Now()
			p.mu.Unlock()
			p.emit()
		}
	}
}

func (p *Peer) emit() {
	next := p.log.Next()
	e := Event{Seq: next, Turn: -1, Round: len(p.game.Results()), Over: p.game.Over()}
	if v := p.game.Violation(); v != nil {
		e.Violation = v
	}
	if t, err := p.game.Entitled(next); err == nil {
		e.Turn, e.Kind = int(t.Seat), t.Kinds[0]
	}
	select {
	case p.events <- e:
	default:
	}
}

// maxPostsInARow bounds one act call; the peer's seat never posts more
// than a few envelopes in a row.
const maxPostsInARow = 64

// act posts every envelope the peer's seat is entitled to at the head of
// the log.
func (p *Peer) act(ctx context.Context) error {
	for range maxPostsInARow {
		next, prev := p.log.Head()
		env, err := p.nextEnvelope(next, prev)
		if err != nil || env == nil {
			return err
		}
		if err := p.replica.Post(ctx, env); err != nil {
			if errors.Is(err, ErrClosed) || ctx.Err() != nil {
				return err
			}
			// The envelope is stored; the others fetch it by sync.
			if p.cfg.Logf != nil {
				p.cfg.Logf("table: seat %d: post seq %d: %v", p.cfg.Seat, next, err)
			}
			return nil
		}
	}
	return nil
}

// nextEnvelope drafts, stores the secrets of, and signs the envelope the
// peer's seat must post at seq next, or returns nil when it is not its turn.
func (p *Peer) nextEnvelope(next uint64, prev Hash) (*Envelope, error) {
	if next == 0 {
		if p.cfg.Seat != 0 || p.cfg.Genesis == nil {
			return nil, nil
		}
		return p.cfg.Genesis.Clone(), nil
	}
	turn, err := p.game.Entitled(next)
	if err != nil {
		return nil, nil
	}
	seat, key := int(turn.Seat), p.cfg.Key
	if seat != p.cfg.Seat || p.game.HostOf(seat) >= 0 {
		// Another seat's turn, or a bot's: only its host posts for it.
		if p.game.HostOf(seat) != p.cfg.Seat {
			return nil, nil
		}
		// A bot this peer hosts: its key was stored before its BotSeat.
		seed, err := p.cfg.Store.Secret(p.cfg.Table, botKeyName(seat))
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("table: the key of hosted bot seat %d: %w", seat, err)
		}
		key = ed25519.NewKeyFromSeed(seed)
	}
	rnd, brng, err := p.randomness(next)
	if err != nil {
		return nil, err
	}
	choose := func(seat int, v *engine.View, legal []engine.Action) engine.Action {
		b, err := bot.New(p.cfg.Bot, brng)
		if err != nil {
			return engine.Action{}
		}
		return b.Act(v, legal)
	}
	d, err := p.game.draft(next, seat, rnd, choose)
	if err != nil {
		return nil, fmt.Errorf("table: seat %d at seq %d: %w", seat, next, err)
	}
	for name, s := range d.secrets {
		if err := p.cfg.Store.PutSecret(p.cfg.Table, name, s); err != nil {
			return nil, err
		}
	}
	env := &Envelope{Version: EnvelopeVersion, Table: p.cfg.Table, Seq: next, Prev: prev,
		Author: uint8(seat), Kind: d.kind, Body: d.body}
	if err := env.Sign(key); err != nil {
		return nil, err
	}
	if p.tamper != nil {
		p.tamper(env, key)
	}
	return env, nil
}

// randomness returns the randomness of the draft at seq: crypto/rand for
// the protocol and a bot generator seeded from it, or with a Seed ChaCha8
// streams derived from the seed and the seq.
func (p *Peer) randomness(seq uint64) (io.Reader, *rand.Rand, error) {
	if p.cfg.Seed == nil {
		var key [32]byte
		if _, err := crand.Read(key[:]); err != nil {
			return nil, nil, err
		}
		return crand.Reader, rand.New(rand.NewChaCha8(key)), nil
	}
	derive := func(purpose string) [32]byte {
		h := sha256.New()
		h.Write([]byte("njet/table/v1/peer-rand\x00" + purpose + "\x00"))
		h.Write(p.cfg.Seed[:])
		h.Write(binary.BigEndian.AppendUint64(nil, seq))
		var key [32]byte
		h.Sum(key[:0])
		return key
	}
	return rand.NewChaCha8(derive("protocol")), rand.New(rand.NewChaCha8(derive("bot"))), nil
}
