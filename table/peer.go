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
	// Lend makes the peer's own seat a bot seated from the lobby that
	// gives itself to a watcher who claims it: the peer consents to the
	// claim (Game.Claimable says which claims may stand), hands the seat
	// over at the next key setup and posts nothing for it from then on.
	// A person's seat is never lent.
	Lend bool
	// LobbyBots are the seats bots were seated in from the lobby
	// (GameConfig.LobbyBots): a watcher may claim them.
	LobbyBots []int
	// Seed, when not nil, derives all of the peer's randomness (round keys,
	// shuffles, salts, the bot's choices) from the seed and the seq, so a
	// simulation replays exactly, even across a restart. Nil uses
	// crypto/rand, as every real game must.
	Seed *[32]byte
	// Now is the clock of the "waiting since" report and of the patience
	// with a silent seat (time.Now if nil).
	Now func() time.Time
	// Human makes the peer's own seat a human's: its Njet blocks, team
	// choice, discard or pass and plays come from Submit (announced by a
	// Prompt in Events and View), not from Bot. Keys, shuffles, tokens and
	// reveals stay automatic. Bots the peer hosts still use Bot.
	Human bool
	// Patience is how long the seat entitled next must have been silent
	// before the peer votes to void the round, automatically or through
	// VoteVoid (DefaultPatience if 0).
	Patience time.Duration
	// VoidAfter, when positive, makes the peer vote on its own once the
	// entitled seat has been silent that long (and at least Patience).
	// 0 never votes automatically: only VoteVoid does.
	VoidAfter time.Duration
	// Grace is how long the deciding peer (the lowest voter) waits, after
	// its own vote, for the votes of the other seats still played before
	// it takes over every seat without a vote (DefaultGrace if 0). With
	// every other seat's vote in hand it does not wait.
	Grace time.Duration
	// Poll, when not nil, makes the peer look at the clock on every value:
	// vote once the patience is over, publish its standing votes again
	// (gossip loses messages), and ask the decider for the voted seq.
	// Without it the peer does this only when the log or the votes change.
	Poll <-chan time.Time
	// Tick, when not nil, makes the replica ask a member for what follows
	// its log on every tick (see ReplicaConfig.Tick).
	Tick <-chan time.Time
	// Logf, when not nil, is told about rejected envelopes.
	Logf func(format string, args ...any)
	// Events is the capacity of the event channel (default 64).
	Events int
	// CatchUp makes the peer fetch what follows its log from the other
	// members before it posts anything even when its store holds no
	// envelope of the table yet. A peer whose store holds some always
	// catches up first (see catchUp); one with an empty log could post
	// only the genesis, which is fixed, so nothing forces it there.
	CatchUp bool
}

// DefaultPatience is PeerConfig.Patience when it is 0.
const DefaultPatience = 30 * time.Second

// DefaultGrace is PeerConfig.Grace when it is 0.
const DefaultGrace = 5 * time.Second

// Event tells a UI that the table moved on: the log grew to Seq envelopes,
// or the peer's human seat must choose (Prompt).
type Event struct {
	Seq       uint64
	Turn      int   // the seat entitled next, or -1
	Kind      Kind  // what it must post
	Round     int   // rounds audited so far
	Over      bool  // the game is over
	Violation error // the violation that halted the round, if any
	// Prompt is set when the peer's human seat must choose now (Submit).
	Prompt *Prompt
}

// Prompt asks a human seat for its choice: one of Legal, given View, to be
// posted as Kind at Seq. Head is the hash of the log's last envelope when
// it was asked: once a device follows another branch, the same Seq can
// name another state, and the question is asked again with another Head.
type Prompt struct {
	Seq   uint64
	Head  Hash
	Seat  int
	Kind  Kind
	View  engine.View
	Legal []engine.Action
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
	// Silent is how long the log has not grown (by the peer's clock).
	Silent time.Duration
	// Results are the audited rounds; Violation what halted the round.
	Results   []RoundResult
	Violation error
	Over      bool
	// Prompt is set while the peer's human seat must choose (Submit).
	Prompt *Prompt
	// CatchingUp is set while the peer, resumed, fetches what the other
	// members hold past its log before it posts again.
	CatchingUp bool
	// SecretsLost is set when this device lost its secrets for the deal
	// under way (a damaged store): its seat stays silent in that deal, and
	// the others void the round for the silence.
	SecretsLost bool
	// BotHost is -1 while the peer plays its own seat; once the table has
	// voided a round for it (silent, or caught cheating) and seated a bot
	// there, it is the seat whose peer hosts that bot, and this peer only
	// watches.
	BotHost int
	// Voided are the rounds the table voided, each with the seat at fault.
	Voided []*Violation
	// Abandoned, at a table of two, is why the game ended early (the last
	// of Voided): nobody wins, and the audited rounds' totals stand.
	Abandoned *Violation
	// Seq is the log's length: the seq the table waits for.
	Seq uint64
	// Patience is how long a seat may stay silent before a vote to void
	// the round is open; Voidable says it is open now (VoteVoid), with
	// Votes seen by this peer of at most Needed (every seat but the silent
	// one; the devices still there are enough, see docs/protocol.md), and
	// Voted when this peer's own vote is among them.
	Patience time.Duration
	Voidable bool
	Votes    int
	Needed   int
	Voted    bool
}

// Waiting describes whom the table waits for and how long, e.g.
// "waiting for seat 2 (Play) since 12:03:04 (45s)".
func (v PeerView) Waiting() string {
	switch {
	case v.Over:
		return "the game is over"
	case v.Violation != nil:
		return "halted: " + v.Violation.Error()
	case v.CatchingUp:
		return "catching up with the other devices"
	case v.Turn < 0:
		return "waiting for the log"
	}
	w := fmt.Sprintf("waiting for seat %d (%v) since %s", v.Turn, v.Kind, v.Since.Format(time.TimeOnly))
	if v.Silent >= time.Second {
		w += fmt.Sprintf(" (%v)", v.Silent.Round(time.Second))
	}
	if v.SecretsLost {
		w += "; this device lost its secrets for this round, so its seat stays silent until the table voids the round"
	}
	return w
}

// Peer is one seat at a table: it replays the log through its Game, posts
// its own envelopes when its seat is entitled (storing secrets and the
// envelope before sending), and reports to a UI through View and Events.
type Peer struct {
	cfg    PeerConfig
	id     Identity // cfg.Key's public half
	events chan Event
	wake   chan struct{}
	rand   *rand.Rand // picks members to ask; Run's goroutine only

	mu      sync.Mutex
	game    *Game // game, log and replica are replaced by a rewind
	log     *Log
	replica *Replica
	// since is when this peer saw the log's head move to sinceSeq: the
	// seat entitled there has been silent since then (see waitingSince).
	since    time.Time
	sinceSeq uint64
	// Silence votes for the seq where they were cast (votes[voter]), the
	// vote this peer stands by (mine), a VoteVoid request, and a member
	// whose log seems to have moved past this peer's own last envelopes.
	voteSeq  uint64
	votes    map[uint8]*SilenceVote
	mine     *standing
	wantVote bool
	declined uint64 // a seq at which the person declined the vote (DeclineVoid)
	// excluded is a takeover of this peer's seats that its guard refused
	// at the head of its log: the seq and the number of votes it carried.
	excluded *exclusion
	// forks is what the peer has heard of a member whose log went
	// another way (checkDiverged).
	forks forkWatch
	// book holds the seat claims heard of and their approvals.
	book claimBook
	// The human seat's pending choice and the prompt that asked for it.
	choice *submission
	prompt *Prompt
	// caughtUp is set once the peer may post (see catchUp); lost is the
	// Deal (Results and Voided counted) whose secrets this device lost.
	caughtUp bool
	lost     *lostDeal

	// tamper, in tests, rewrites and re-signs an envelope before it is
	// posted, to play a cheater.
	tamper func(env *Envelope, key ed25519.PrivateKey)
}

// standing is this peer's vote: the seq, the silent seat and when it was
// cast (by the peer's clock).
type standing struct {
	seq  uint64
	seat int
	at   time.Time
}

type submission struct {
	seq    uint64
	prev   Hash // the log's head it was chosen at: a seq names no state by itself once a branch can be dropped
	action engine.Action
}

// lostDeal names a deal by the rounds audited and voided before it.
type lostDeal struct{ results, voided int }

func dealOf(game *Game) lostDeal {
	return lostDeal{results: len(game.Results()), voided: len(game.Voided())}
}

// Names of the peer's metadata in its store.
const metaVote = "silence-vote" // seq (8) and silent seat (1) of the peer's standing vote

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
	if cfg.Patience <= 0 {
		cfg.Patience = DefaultPatience
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	var seed [32]byte
	if cfg.Seed != nil {
		seed = sha256.Sum256(append([]byte("njet/table/v1/replica-rand"), cfg.Seed[:]...))
	} else if _, err := crand.Read(seed[:]); err != nil {
		return nil, err
	}
	pub, ok := cfg.Key.Public().(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("table: NewPeer: the key is not an Ed25519 key")
	}
	id, err := IdentityOf(pub)
	if err != nil {
		return nil, err
	}
	p := &Peer{cfg: cfg, id: id, events: make(chan Event, cfg.Events), wake: make(chan struct{}, 1),
		rand: rand.New(rand.NewChaCha8(seed)), since: cfg.Now()}
	if err := p.open(); err != nil {
		return nil, err
	}
	// A peer that has posted before (its store holds the table's log)
	// catches up first: its store may have lost its own last envelopes.
	p.caughtUp = !cfg.CatchUp && p.log.Next() == 0
	p.game.setGuard(p.guardKey())
	return p, nil
}

// open builds the game, log and replica from the store (replaying it) and
// restores the peer's standing vote.
func (p *Peer) open() error {
	cfg := p.cfg
	game := NewGame(GameConfig{Table: cfg.Table, Creator: cfg.Creator, Vault: StoreVault{cfg.Store, cfg.Table},
		LobbyBots: cfg.LobbyBots})
	log, err := NewLog(LogConfig{Table: cfg.Table, Protocol: game})
	if err != nil {
		return err
	}
	rep, err := NewReplica(ReplicaConfig{Log: log, Store: cfg.Store, Transport: cfg.Transport, Peers: cfg.Peers,
		Rand: rand.New(rand.NewChaCha8(seedFrom(p.rand))), Tick: cfg.Tick, Logf: cfg.Logf,
		Vote: p.receiveSide, Rejected: p.rejected})
	if err != nil {
		return err
	}
	game.setGuard(p.guardKey())
	p.mu.Lock()
	p.game, p.log, p.replica = game, log, rep
	p.mine, p.votes = nil, nil
	p.mu.Unlock()
	p.book.reset()
	// The vote was stored before it was sent: a restarted peer stands by
	// it (and its fence) as long as the log has not passed its seq.
	if b, err := cfg.Store.Meta(cfg.Table, metaVote); err == nil && len(b) == 9 {
		seq, seat := binary.BigEndian.Uint64(b), int(b[8])
		if seq == log.Next() {
			p.stand(seq, seat)
		}
	} else if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// guardKey is the key the peer's game guards once the peer has caught up
// (see Game.guard): the device's own; nil before.
func (p *Peer) guardKey() *Identity {
	p.mu.Lock()
	up := p.caughtUp
	p.mu.Unlock()
	pub, ok := p.cfg.Key.Public().(ed25519.PublicKey)
	if !up || !ok {
		return nil
	}
	id, err := IdentityOf(pub)
	if err != nil {
		return nil
	}
	return &id
}

// seedFrom draws a ChaCha8 seed from r.
func seedFrom(r *rand.Rand) [32]byte {
	var seed [32]byte
	for i := 0; i < len(seed); i += 8 {
		binary.BigEndian.PutUint64(seed[i:], r.Uint64())
	}
	return seed
}

// Events returns the buffered event channel. A reader that falls behind
// misses events (View always has the latest state); it is never closed.
func (p *Peer) Events() <-chan Event { return p.events }

// state returns the current game, log and replica (a rewind replaces them).
func (p *Peer) state() (*Game, *Log, *Replica) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.game, p.log, p.replica
}

// Game returns the peer's protocol state.
func (p *Peer) Game() *Game {
	g, _, _ := p.state()
	return g
}

// Log returns the peer's log.
func (p *Peer) Log() *Log {
	_, l, _ := p.state()
	return l
}

// View returns what a UI shows.
func (p *Peer) View() PeerView {
	game, log, _ := p.state()
	next, prev := log.Head()
	v := PeerView{Turn: -1, Results: game.Results(), Over: game.Over(), BotHost: game.HostOf(p.cfg.Seat),
		Voided: game.Voided(), Abandoned: game.Abandoned()}
	if viol := game.Violation(); viol != nil {
		v.Violation = viol
	}
	v.Seq, v.Patience = next, p.cfg.Patience
	voidable := false
	if t, err := game.Entitled(next); err == nil {
		v.Turn, v.Kind = int(t.Seat), t.Kinds[0]
		voidable = len(t.Instead) > 0 && !p.hosts(game, v.Turn)
		if voidable {
			v.Needed = game.Genesis().Players() - 1
		}
	}
	game.mu.Lock()
	if game.eng != nil {
		v.Game = game.eng.View(p.cfg.Seat)
	}
	game.mu.Unlock()
	p.mu.Lock()
	v.Since = p.waitingSince(next)
	v.Silent = p.cfg.Now().Sub(v.Since)
	if p.prompt != nil && p.prompt.Seq == next && p.prompt.Head == prev {
		v.Prompt = p.prompt
	}
	v.CatchingUp = !p.caughtUp
	v.SecretsLost = p.lost != nil && *p.lost == dealOf(game)
	if voidable {
		v.Voidable = v.Silent >= p.cfg.Patience
		if p.voteSeq == next {
			v.Votes = len(p.votes)
		}
		v.Voted = p.mine != nil && p.mine.seq == next && p.mine.seat == v.Turn
	}
	p.mu.Unlock()
	return v
}

// Done reports whether the peer has nothing more to do: the game is over
// or halted by a violation that only this peer saw (after a public one the
// table votes to void the round).
func (p *Peer) Done() bool {
	game := p.Game()
	v := game.Violation()
	return game.Over() || v != nil && v.Private
}

// errRewound stops one run of the replica after the peer rewound its log.
var errRewound = errors.New("table: log rewound")

// Run replicates the log and plays the peer's seat until ctx ends (then it
// returns nil) or the replica fails.
func (p *Peer) Run(ctx context.Context) error {
	for {
		err := p.run(ctx)
		switch {
		case errors.Is(err, errRewound):
			continue
		case errors.Is(err, ErrClosed) && ctx.Err() != nil:
			// A transport that watches ctx may close its channel as soon
			// as ctx is done, before the replica's own context (a child
			// of ctx) is cancelled too: that is the end ctx asked for,
			// not a fault.
			return nil
		}
		return err
	}
}

func (p *Peer) run(outer context.Context) error {
	ctx, cancel := context.WithCancel(outer)
	defer cancel()
	_, _, replica := p.state()
	errc := make(chan error, 1)
	go func() { errc <- replica.Run(ctx) }()
	stop := func(err error) error {
		cancel()
		<-errc
		return err
	}
	if err := p.catchUp(ctx); err != nil {
		return stop(err)
	}
	for {
		if err := p.act(ctx); err != nil {
			return stop(err)
		}
		if d, ok := p.forks.take(); ok {
			rewound, err := p.checkDiverged(ctx, outer, d, stop)
			if err != nil || rewound {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return <-errc
		case err := <-errc:
			return err
		case <-replica.Changed():
			_, log, _ := p.state()
			p.mu.Lock()
			p.waitingSince(log.Next())
			p.mu.Unlock()
			p.emit(nil)
		case <-p.wake:
		case <-p.cfg.Poll:
			if err := p.poll(ctx); err != nil {
				return stop(err)
			}
		}
	}
}

// waitingSince returns when this peer saw the log's head reach next; p.mu
// must be held. Silence is measured on the head itself, not on change
// events, because the peer's own posts move the head too: a decider that
// has just voided one silent seat and posted its next envelopes must not
// find the following seat silent since before them.
func (p *Peer) waitingSince(next uint64) time.Time {
	if next != p.sinceSeq {
		p.since, p.sinceSeq = p.cfg.Now(), next
	}
	return p.since
}

func (p *Peer) emit(prompt *Prompt) {
	game, log, _ := p.state()
	next := log.Next()
	e := Event{Seq: next, Turn: -1, Round: len(game.Results()), Over: game.Over(), Prompt: prompt}
	if v := game.Violation(); v != nil {
		e.Violation = v
	}
	if t, err := game.Entitled(next); err == nil {
		e.Turn, e.Kind = int(t.Seat), t.Kinds[0]
	}
	select {
	case p.events <- e:
	default:
	}
}

func (p *Peer) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// maxPostsInARow bounds one act call; the peer's seat never posts more
// than a few envelopes in a row.
const maxPostsInARow = 64

// act posts every envelope the peer's seats are entitled to at the head of
// the log, then votes and decides a silent seat's void when it is time.
func (p *Peer) act(ctx context.Context) error {
	p.mu.Lock()
	ready := p.caughtUp
	p.mu.Unlock()
	if !ready {
		return nil
	}
	for range maxPostsInARow {
		_, _, replica := p.state()
		next, prev := replica.head()
		env, err := p.nextEnvelope(next, prev)
		if err != nil || env == nil {
			if err != nil {
				return err
			}
			break
		}
		if err := p.post(ctx, replica, env); err != nil {
			return err
		}
	}
	return p.silence(ctx, false)
}

// post sends one of the peer's envelopes. A failed publish is no error:
// the envelope is stored, and the others fetch it by sync.
func (p *Peer) post(ctx context.Context, replica *Replica, env *Envelope) error {
	err := replica.Post(ctx, env)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrClosed) || ctx.Err() != nil:
		return err
	case errors.Is(err, ErrNotEntitled) || errors.Is(err, ErrDuplicate):
		// The seq was taken meanwhile (the decider's void, or the silent
		// seat's envelope arriving first): nothing was stored or sent.
		return nil
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: post seq %d: %v", p.cfg.Seat, env.Seq, err)
	}
	return nil
}

// hosts reports whether this peer posts for seat: its own seat while its
// key plays it (no bot replaced it, no claimant took it), or a bot it
// hosts.
func (p *Peer) hosts(game *Game, seat int) bool {
	h := game.HostOf(seat)
	return h == p.cfg.Seat || h < 0 && seat == p.cfg.Seat && game.KeyOf(seat) == p.id
}

// keyOf returns the signing key of a seat this peer posts for.
func (p *Peer) keyOf(game *Game, seat int) (ed25519.PrivateKey, error) {
	if seat == p.cfg.Seat && game.HostOf(seat) < 0 {
		return p.cfg.Key, nil
	}
	// A bot this peer hosts: its key was stored before its BotSeat.
	b, err := p.cfg.Store.Secret(p.cfg.Table, botKeyName(seat))
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: the key of hosted bot seat %d", ErrSecretsLost, seat)
	}
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, fmt.Errorf("table: the key of hosted bot seat %d: %w", seat, err)
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// nextEnvelope drafts, stores the secrets of, and signs the envelope the
// peer's seat must post at seq next, or returns nil when it is not its turn
// (or its human has not chosen yet).
func (p *Peer) nextEnvelope(next uint64, prev Hash) (*Envelope, error) {
	game, _, _ := p.state()
	if next == 0 {
		if p.cfg.Seat != 0 || p.cfg.Genesis == nil {
			return nil, nil
		}
		return p.cfg.Genesis.Clone(), nil
	}
	turn, err := game.Entitled(next)
	if err != nil {
		return nil, nil
	}
	seat := int(turn.Seat)
	if !p.hosts(game, seat) {
		return nil, nil
	}
	key, err := p.keyOf(game, seat)
	if err != nil {
		return p.silent(game, next, err)
	}
	if d := p.handBack(game, next, turn); d != nil {
		return p.seal(d, next, prev, seat, key)
	}
	rnd, brng, err := p.randomness(next)
	if err != nil {
		return nil, err
	}
	// A seat with a complaint to post posts it at once: there is nothing
	// for its person to choose.
	human := p.cfg.Human && seat == p.cfg.Seat && game.HostOf(seat) < 0 && choiceKind(turn.Kinds[0]) &&
		!game.Complaining(seat)
	var choose Chooser
	if human {
		a, ok := p.submitted(game, next, prev, seat, turn.Kinds[0])
		if !ok {
			return nil, nil
		}
		choose = func(int, *engine.View, []engine.Action) engine.Action { return a }
	} else {
		choose = func(seat int, v *engine.View, legal []engine.Action) engine.Action {
			b, err := bot.New(p.cfg.Bot, brng)
			if err != nil {
				return engine.Action{}
			}
			return b.Act(v, legal)
		}
	}
	d, err := game.draft(next, seat, rnd, choose)
	if err != nil {
		return p.silent(game, next, fmt.Errorf("table: seat %d at seq %d: %w", seat, next, err))
	}
	return p.seal(d, next, prev, seat, key)
}

// silent turns a draft that failed for lost secrets into silence: the
// peer posts nothing in this deal (a new key would be a second, different
// envelope where the others may hold its first), says so once through
// Logf, View and an Event, and the others void the round for the silence.
// Any other error is returned.
func (p *Peer) silent(game *Game, seq uint64, err error) (*Envelope, error) {
	if !errors.Is(err, ErrSecretsLost) {
		return nil, err
	}
	deal := dealOf(game)
	p.mu.Lock()
	told := p.lost != nil && *p.lost == deal
	p.lost = &deal
	p.mu.Unlock()
	if !told {
		if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d stays silent at seq %d: %v", p.cfg.Seat, seq, err)
		}
		p.emit(nil)
	}
	return nil, nil
}

// maxCatchUpAsks bounds the requests to one member while catching up (each
// answer of MaxRange envelopes moves the log on), and catchUpTries the
// failed ones in a row before the member counts as away.
const (
	maxCatchUpAsks = 1024
	catchUpTries   = 6
)

// catchUp fetches, from each other member in turn, what follows the
// peer's log until the member has nothing more (or stays unreachable for
// catchUpTries requests). Until then the peer posts nothing: a store that
// lost envelopes the peer had posted would otherwise make it sign a second,
// different envelope at a seq the others already hold, which they keep as
// equivocation. A member that is away cannot be asked; the others are,
// and whatever the away one holds it got from them or from this peer
// before the loss.
func (p *Peer) catchUp(ctx context.Context) error {
	p.mu.Lock()
	done := p.caughtUp
	p.mu.Unlock()
	if done {
		return nil
	}
	if err := fetchFollowing(ctx, p.cfg.Transport, p.cfg.Peers, func() (*Log, *Replica) {
		_, log, replica := p.state()
		return log, replica
	}); err != nil || ctx.Err() != nil {
		return err
	}
	p.mu.Lock()
	p.caughtUp = true
	p.mu.Unlock()
	game, _, _ := p.state()
	game.setGuard(p.guardKey())
	p.emit(nil)
	return nil
}

// fetchFollowing asks each member in turn for what follows the log that
// state returns, until the member has nothing more or stays unreachable
// for catchUpTries requests; it returns early, with no error, when ctx
// ends. Both kinds of peer catch up with it before they post.
func fetchFollowing(ctx context.Context, tr Transport, members []Identity, state func() (*Log, *Replica)) error {
	for _, m := range members {
		fails := 0
		for range maxCatchUpAsks {
			log, replica := state()
			next := log.Next()
			data, err := tr.Fetch(ctx, m, next, next+MaxRange)
			if ctx.Err() != nil {
				return nil
			}
			if err != nil {
				if fails++; fails >= catchUpTries {
					break
				}
				if !sleepCtx(ctx, time.Duration(25<<fails)*time.Millisecond) {
					return nil
				}
				continue
			}
			fails = 0
			for _, b := range data {
				if _, err := replica.receive(m, b); err != nil {
					return err
				}
			}
			if len(data) == 0 || log.Next() == next {
				break // nothing more, or nothing this log takes
			}
		}
	}
	return nil
}

// sleepCtx waits d, or until ctx ends (then it reports false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// seal stores a draft's secrets, then builds and signs its envelope.
func (p *Peer) seal(d *draft, next uint64, prev Hash, seat int, key ed25519.PrivateKey) (*Envelope, error) {
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
		return domainHash("njet/table/v1/peer-rand\x00"+purpose+"\x00", p.cfg.Seed[:], binary.BigEndian.AppendUint64(nil, seq))
	}
	return rand.NewChaCha8(derive("protocol")), rand.New(rand.NewChaCha8(derive("bot"))), nil
}
