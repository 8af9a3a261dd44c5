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
	"sync"
	"sync/atomic"
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
	// Patience, VoidAfter and Grace are as for a Njet Peer: once the seat
	// entitled next has been silent for VoidAfter (and at least Patience),
	// the peer votes on its own to take it over, and the lowest voter
	// takes over when every other seat has voted, or Grace after its own
	// vote with the votes it holds. A zero VoidAfter never votes;
	// Patience and Grace default to DefaultPatience and DefaultGrace.
	Patience, VoidAfter, Grace time.Duration
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// Logf, when not nil, is told about rejected envelopes.
	Logf func(format string, args ...any)
}

// TheGamePeer is one seat at a table of The Game: a Replica, the TheGame
// protocol and a bot that plays the seat. It posts whatever its seat owes
// (acknowledgement, round key, shuffle, tokens, plays, signals, turn ends,
// reveal) as soon as the log reaches it.
type TheGamePeer struct {
	cfg TheGamePeerConfig
	// cur holds the game, log and replica: a rewind to another branch
	// replaces them (checkDiverged).
	cur    atomic.Pointer[tgState]
	rand   *rand.Rand // seeds the replicas after a rewind; Run's goroutine only
	person *tgPerson  // nil at a bot's seat
	// tamper, when not nil, changes every draft before it is signed
	// (tests play cheats with it).
	tamper func(d *draft)
	// withhold, when not nil, is asked before the peer posts a kind for
	// one of its seats: true keeps the peer silent (tests leave a table
	// at a chosen step with it).
	withhold func(k Kind) bool
	// forks is what the peer has heard of a member whose log went
	// another way; diverged wakes Run when the replica hears of one.
	forks    forkWatch
	diverged chan struct{}

	mu     sync.Mutex
	player tgbot.Player         // the player of the peer's own seat
	bots   map[int]tgbot.Player // the players of the bot seats this peer hosts
	// book holds the seat claims heard of and their approvals
	// (thegame_handback.go).
	book claimBook
	// caughtUp is set once the peer may post: at once for an empty store,
	// after catchUp for a store that holds the table's log.
	caughtUp bool
	silence  silenceState
	rewinds  int // the times the peer gave way to another branch
}

// tgState is a TheGamePeer's replay of its stored log.
type tgState struct {
	game    *TheGame
	log     *Log
	replica *Replica
}

// NewTheGamePeer replays the peer's store and returns the peer.
func NewTheGamePeer(cfg TheGamePeerConfig) (*TheGamePeer, error) {
	if cfg.Store == nil || cfg.Transport == nil || cfg.Key == nil {
		return nil, fmt.Errorf("table: NewTheGamePeer: Store, Transport and Key are required")
	}
	if cfg.Bot == "" {
		cfg.Bot = "coop"
	}
	if cfg.Patience <= 0 {
		cfg.Patience = DefaultPatience
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	pl, err := tgbot.New(cfg.Bot, !cfg.Silent)
	if err != nil {
		return nil, err
	}
	var seed [32]byte
	if cfg.Seed != nil {
		seed = *cfg.Seed
	} else if _, err := crand.Read(seed[:]); err != nil {
		return nil, err
	}
	p := &TheGamePeer{cfg: cfg, player: pl, bots: map[int]tgbot.Player{}, rand: rand.New(rand.NewChaCha8(seed)),
		diverged: make(chan struct{}, 1)}
	if err := p.open(seed); err != nil {
		return nil, err
	}
	p.caughtUp = p.Log().Next() == 0
	if cfg.Person {
		p.person = newTGPerson()
	}
	return p, nil
}

// open builds the game, log and replica from the store (replaying it), its
// replica's randomness seeded with seed, and restores the peer's standing
// vote.
func (p *TheGamePeer) open(seed [32]byte) error {
	cfg := p.cfg
	game := NewTheGame(GameConfig{Table: cfg.Table, Creator: cfg.Creator, Vault: StoreVault{Store: cfg.Store, Table: cfg.Table}})
	log, err := NewLog(LogConfig{Table: cfg.Table, Protocol: game})
	if err != nil {
		return err
	}
	replica, err := NewReplica(ReplicaConfig{Log: log, Store: cfg.Store, Transport: cfg.Transport, Peers: cfg.Peers,
		Rand: rand.New(rand.NewChaCha8(seed)), Tick: cfg.Tick, Logf: cfg.Logf, Vote: p.receiveSide, Rejected: p.rejected})
	if err != nil {
		return err
	}
	p.cur.Store(&tgState{game: game, log: log, replica: replica})
	p.restoreVote()
	return nil
}

// Bot returns the kind of the bot that plays the seat.
func (p *TheGamePeer) Bot() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.player.Name()
}

// Game returns the peer's protocol state. After the peer gave way to
// another branch it is a new one.
func (p *TheGamePeer) Game() *TheGame { return p.cur.Load().game }

// Log returns the peer's log. After the peer gave way to another branch
// it is a new one.
func (p *TheGamePeer) Log() *Log { return p.cur.Load().log }

// rep returns the peer's replica.
func (p *TheGamePeer) rep() *Replica { return p.cur.Load().replica }

// Rewinds returns how many times the peer gave way to another branch of
// the table's log, dropping its own from the first seq that differed.
func (p *TheGamePeer) Rewinds() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rewinds
}

// Done reports whether the game is over and audited, or halted.
func (p *TheGamePeer) Done() bool {
	g := p.Game()
	return g.Over() || g.Violation() != nil
}

// Run keeps the replica up to date and posts the seat's envelopes until
// ctx ends (then it returns nil) or something fails. It keeps serving the
// log after the game ends, for members still catching up, and compares
// its log with the members' (see checkDiverged).
func (p *TheGamePeer) Run(ctx context.Context) error {
	for {
		err := p.run(ctx)
		if errors.Is(err, errRewound) {
			continue
		}
		return err
	}
}

// run is one run of the peer's replica: until ctx ends, something fails,
// or the peer rewinds its log to another branch (errRewound).
func (p *TheGamePeer) run(outer context.Context) error {
	// A transport that watches the caller's ctx may close its channel as
	// soon as that ctx is done, before the cancellation reaches the
	// contexts derived from it: the caller's ctx tells whether an
	// ErrClosed is the end it asked for.
	ctx, cancel := context.WithCancel(outer)
	defer cancel()
	replica := p.rep()
	errc := make(chan error, 1)
	go func() { errc <- replica.Run(ctx) }()
	stop := func(err error) error {
		cancel()
		if rerr := <-errc; err == nil && rerr != nil && !errors.Is(rerr, ErrClosed) {
			err = rerr
		}
		return err
	}
	if err := p.catchUp(ctx); err != nil {
		return stop(err)
	}
	// Seat claims and approvals go out on the first look and on every
	// tick (thegame_handback.go).
	ticked := true
	for {
		if err := p.act(ctx); err != nil {
			return stop(err)
		}
		if err := p.watchSilence(ctx); err != nil {
			return stop(err)
		}
		p.probeFork(ctx)
		if d, ok := p.forks.take(); ok {
			if rewound, err := p.checkDiverged(ctx, outer, d, stop); err != nil || rewound {
				return err
			}
		}
		if ticked {
			p.sideMessages(ctx)
		}
		p.dropBots()
		p.looked()
		ticked = false
		select {
		case <-ctx.Done():
			return stop(nil)
		case err := <-errc:
			if errors.Is(err, ErrClosed) && outer.Err() != nil {
				err = nil
			}
			return err
		case <-replica.Changed():
		case <-p.cfg.Tick:
			ticked = true
		case <-p.wakeC():
		case <-p.diverged:
		}
	}
}

// catchUp fetches what follows the log from the other members before a
// peer restarted from its store posts anything, as a Njet Peer does
// (Peer.catchUp): a store that lost envelopes the seat had posted would
// otherwise make it sign a second, different envelope at a seq the others
// already hold.
func (p *TheGamePeer) catchUp(ctx context.Context) error {
	p.mu.Lock()
	done := p.caughtUp
	p.mu.Unlock()
	if done {
		return nil
	}
	// Before each request, the peer asks for its seat back if a bot plays
	// it (thegame_handback.go).
	err := fetchFollowing(ctx, p.cfg.Transport, p.cfg.Peers, func() (*Log, *Replica) {
		p.sideMessages(ctx)
		return p.Log(), p.rep()
	})
	if err != nil || ctx.Err() != nil {
		return err
	}
	p.mu.Lock()
	p.caughtUp = true
	p.mu.Unlock()
	return nil
}

// CatchingUp reports whether the peer, restarted from its store, is still
// fetching what the others hold before it posts.
func (p *TheGamePeer) CatchingUp() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.caughtUp
}

// maxTheGamePosts bounds the envelopes a peer posts in a row before it
// looks at the network again.
const maxTheGamePosts = 64

// act posts the envelopes the seat owes now.
func (p *TheGamePeer) act(ctx context.Context) error {
	for range maxTheGamePosts {
		next, prev := p.rep().head()
		env, err := p.nextEnvelope(next, prev)
		if err != nil || env == nil {
			return err
		}
		err = p.rep().Post(ctx, env)
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
	turn, err := p.Game().Entitled(next)
	if err != nil || !p.hosts(int(turn.Seat)) {
		return nil, nil
	}
	if p.withhold != nil && len(turn.Kinds) > 0 && p.withhold(turn.Kinds[0]) {
		return nil, nil
	}
	seat := int(turn.Seat)
	key, err := p.keyOf(seat)
	if err != nil {
		return nil, err
	}
	d := p.handBack(next, turn)
	if d == nil {
		pl, err := p.playerOf(seat)
		if err != nil {
			return nil, err
		}
		rnd, err := p.randomness(next)
		if err != nil {
			return nil, err
		}
		if d, err = p.draftSeat(next, prev, seat, rnd, pl); err != nil || d == nil {
			return nil, err
		}
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
		Author: uint8(seat), Kind: d.kind, Body: d.body}
	if err := env.Sign(key); err != nil {
		return nil, err
	}
	return env, nil
}

// hosts reports whether this peer posts for seat: its own seat while no
// bot plays it, or a bot seat its device hosts.
func (p *TheGamePeer) hosts(seat int) bool {
	return p.Game().Genesis() != nil && p.Game().PeerOf(seat) == p.cfg.Seat && p.Game().PeerOf(p.cfg.Seat) == p.cfg.Seat
}

// keyOf returns the signing key of a seat the peer posts for.
func (p *TheGamePeer) keyOf(seat int) (ed25519.PrivateKey, error) {
	if seat == p.cfg.Seat {
		return p.cfg.Key, nil
	}
	// A bot this peer hosts: its key was stored before its takeover.
	b, err := p.cfg.Store.Secret(p.cfg.Table, botKeyName(seat))
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: the key of hosted bot seat %d", ErrSecretsLost, seat)
	}
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, fmt.Errorf("table: the key of hosted bot seat %d: %w", seat, err)
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// playerOf returns the player of a seat the peer posts for: its own bot,
// or the bot of the same kind that plays a seat taken over.
func (p *TheGamePeer) playerOf(seat int) (tgbot.Player, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if seat == p.cfg.Seat {
		return p.player, nil
	}
	if pl, ok := p.bots[seat]; ok {
		return pl, nil
	}
	pl, err := tgbot.New(p.cfg.Bot, !p.cfg.Silent)
	if err != nil {
		return nil, err
	}
	p.bots[seat] = pl
	return pl, nil
}

// randomness returns the protocol's randomness for the draft at seq.
func (p *TheGamePeer) randomness(seq uint64) (io.Reader, error) {
	if p.cfg.Seed == nil {
		return crand.Reader, nil
	}
	return rand.NewChaCha8(domainHash("njet/table/v1/thegame-peer-rand\x00", p.cfg.Seed[:], binary.BigEndian.AppendUint64(nil, seq))), nil
}
