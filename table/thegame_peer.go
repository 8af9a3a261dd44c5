package table

import (
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	tgbot "github.com/njetlan/njet/thegame/bot"
)

// TheGamePeerConfig wires a TheGamePeer.
type TheGamePeerConfig struct {
	// Table and Creator name the table (TableIDOf the genesis body, and
	// seat 0's key).
	Table   TableID
	Creator Identity
	// Genesis is the genesis envelope; only the creator needs it.
	Genesis *Envelope
	// Seat is the peer's seat and Key its signing key.
	Seat int
	Key  ed25519.PrivateKey
	// Store, Transport and Peers as for a Njet Peer.
	Store     *Store
	Transport Transport
	Peers     []Identity
	// Bot is the kind of thegame/bot player of the seat ("coop" if empty);
	// Silent turns its signals off.
	Bot    string
	Silent bool
	// Person makes the seat a person's: in play the peer posts the moves
	// handed to Submit (the rules' own Stuck and turn ends aside), and
	// the bot plays no card.
	Person bool
	// Seed, when not nil, derives the peer's randomness from the seed and
	// the seq; nil uses crypto/rand, as every real game must.
	Seed *[32]byte
	// Tick, when not nil, makes the replica ask a member for what follows
	// its log on every tick, and the peer look again whether it must post.
	Tick <-chan time.Time
	// Logf, when not nil, is told about rejected envelopes.
	Logf func(format string, args ...any)
}

// TheGamePeer is one seat at a table of The Game: a Replica, the TheGame
// protocol and a bot that plays the seat. It posts whatever its seat owes
// (acknowledgement, round key, shuffle, tokens, plays, signals, turn ends,
// reveal) as soon as the log reaches it.
type TheGamePeer struct {
	cfg     TheGamePeerConfig
	game    *TheGame
	log     *Log
	replica *Replica
	player  tgbot.Player
	person  *tgPerson // nil at a bot's seat
	// tamper, when not nil, changes every draft before it is signed
	// (tests play cheats with it).
	tamper func(d *draft)
}

// NewTheGamePeer replays the peer's store and returns the peer.
func NewTheGamePeer(cfg TheGamePeerConfig) (*TheGamePeer, error) {
	if cfg.Store == nil || cfg.Transport == nil || cfg.Key == nil {
		return nil, fmt.Errorf("table: NewTheGamePeer: Store, Transport and Key are required")
	}
	if cfg.Bot == "" {
		cfg.Bot = "coop"
	}
	pl, err := tgbot.New(cfg.Bot, !cfg.Silent)
	if err != nil {
		return nil, err
	}
	game := NewTheGame(GameConfig{Table: cfg.Table, Creator: cfg.Creator, Vault: StoreVault{Store: cfg.Store, Table: cfg.Table}})
	log, err := NewLog(LogConfig{Table: cfg.Table, Protocol: game})
	if err != nil {
		return nil, err
	}
	var seed [32]byte
	if cfg.Seed != nil {
		seed = *cfg.Seed
	} else if _, err := crand.Read(seed[:]); err != nil {
		return nil, err
	}
	replica, err := NewReplica(ReplicaConfig{Log: log, Store: cfg.Store, Transport: cfg.Transport, Peers: cfg.Peers,
		Rand: rand.New(rand.NewChaCha8(seed)), Tick: cfg.Tick, Logf: cfg.Logf})
	if err != nil {
		return nil, err
	}
	p := &TheGamePeer{cfg: cfg, game: game, log: log, replica: replica, player: pl}
	if cfg.Person {
		p.person = newTGPerson()
	}
	return p, nil
}

// Bot returns the kind of the bot that plays the seat.
func (p *TheGamePeer) Bot() string { return p.player.Name() }

// Game returns the peer's protocol state.
func (p *TheGamePeer) Game() *TheGame { return p.game }

// Log returns the peer's log.
func (p *TheGamePeer) Log() *Log { return p.log }

// Done reports whether the game is over and audited, or halted.
func (p *TheGamePeer) Done() bool { return p.game.Over() || p.game.Violation() != nil }

// Run keeps the replica up to date and posts the seat's envelopes until
// ctx ends (then it returns nil) or something fails. It keeps serving the
// log after the game ends, for members still catching up.
func (p *TheGamePeer) Run(ctx context.Context) error {
	// A transport that watches the caller's ctx may close its channel as
	// soon as that ctx is done, before the cancellation reaches the
	// contexts derived from it: the caller's ctx tells whether an
	// ErrClosed is the end it asked for.
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- p.replica.Run(ctx) }()
	stop := func(err error) error {
		cancel()
		if rerr := <-errc; err == nil && rerr != nil && !errors.Is(rerr, ErrClosed) {
			err = rerr
		}
		return err
	}
	for {
		if err := p.act(ctx); err != nil {
			return stop(err)
		}
		p.looked()
		select {
		case <-ctx.Done():
			return stop(nil)
		case err := <-errc:
			if errors.Is(err, ErrClosed) && outer.Err() != nil {
				err = nil
			}
			return err
		case <-p.replica.Changed():
		case <-p.cfg.Tick:
		case <-p.wakeC():
		}
	}
}

// maxTheGamePosts bounds the envelopes a peer posts in a row before it
// looks at the network again.
const maxTheGamePosts = 64

// act posts the envelopes the seat owes now.
func (p *TheGamePeer) act(ctx context.Context) error {
	for range maxTheGamePosts {
		next, prev := p.replica.head()
		env, err := p.nextEnvelope(next, prev)
		if err != nil || env == nil {
			return err
		}
		err = p.replica.Post(ctx, env)
		switch {
		case err == nil:
		case errors.Is(err, ErrClosed) || ctx.Err() != nil:
			return nil
		case errors.Is(err, ErrNotEntitled) || errors.Is(err, ErrDuplicate):
			return nil
		default:
			if p.cfg.Logf != nil {
				p.cfg.Logf("table: seat %d: post seq %d: %v", p.cfg.Seat, env.Seq, err)
			}
			return nil
		}
	}
	return nil
}

// nextEnvelope drafts, stores the secrets of and signs the envelope the
// seat must post at seq next, or returns nil when it is not its turn.
func (p *TheGamePeer) nextEnvelope(next uint64, prev Hash) (*Envelope, error) {
	if next == 0 {
		if p.cfg.Seat != 0 || p.cfg.Genesis == nil {
			return nil, nil
		}
		return p.cfg.Genesis, nil
	}
	if p.Done() {
		return nil, nil
	}
	turn, err := p.game.Entitled(next)
	if err != nil || int(turn.Seat) != p.cfg.Seat {
		return nil, nil
	}
	rnd, err := p.randomness(next)
	if err != nil {
		return nil, err
	}
	d, err := p.draftSeat(next, prev, rnd)
	if err != nil || d == nil {
		return nil, err
	}
	if p.tamper != nil {
		p.tamper(d)
	}
	for name, s := range d.secrets {
		if err := p.cfg.Store.PutSecret(p.cfg.Table, name, s); err != nil {
			return nil, err
		}
	}
	env := &Envelope{Version: EnvelopeVersion, Table: p.cfg.Table, Seq: next, Prev: prev,
		Author: uint8(p.cfg.Seat), Kind: d.kind, Body: d.body}
	if err := env.Sign(p.cfg.Key); err != nil {
		return nil, err
	}
	return env, nil
}

// randomness returns the protocol's randomness for the draft at seq.
func (p *TheGamePeer) randomness(seq uint64) (io.Reader, error) {
	if p.cfg.Seed == nil {
		return crand.Reader, nil
	}
	return rand.NewChaCha8(domainHash("njet/table/v1/thegame-peer-rand\x00", p.cfg.Seed[:], binary.BigEndian.AppendUint64(nil, seq))), nil
}
