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

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// PeerConfig wires a Peer.
type PeerConfig struct {
	// Table and Creator name the table (TableIDOf the genesis body, and
	// seat 0's key).
	Table   tablelog.TableID
	Creator tablelog.Identity
	// Genesis is the genesis envelope; only the creator needs it, to post it.
	Genesis *tablelog.Envelope
	// Seat is the peer's own seat and Key its signing key (the seat's key
	// in the genesis).
	Seat int
	Key  ed25519.PrivateKey
	// Store is the peer's crash-safe store; a restarted peer resumes from it.
	Store *tablelog.Store
	// Transport and Peers reach the other members.
	Transport tablelog.Transport
	Peers     []tablelog.Identity
	// Bot is the kind of player that plays the peer's own seat (but for a
	// person's moves) and every bot the table seats with this peer as its
	// host; NewPlayer makes them. NewPlayer is required: the table knows
	// no game's players (a registry of games gives them, package games).
	Bot       string
	NewPlayer NewPlayer
	// ClockBot is the kind of player that makes a person's move when the
	// table's clock runs out (Genesis.Clock); "" uses Bot.
	ClockBot string
	// Lend makes the peer's own seat a bot seated from the lobby that
	// gives itself to a watcher who claims it: the peer consents to the
	// claim (Game.Claimable says which claims may stand), hands the seat
	// over when the game's rules let it change hands and posts nothing
	// for it from then on. A person's seat is never lent.
	Lend bool
	// LobbyBots are the seats bots were seated in from the lobby
	// (GameConfig.LobbyBots): a watcher may claim them.
	LobbyBots []int
	// Seed, when not nil, derives all of the peer's randomness (round keys,
	// shuffles, salts, the players' choices) from the seed and the seq, so
	// a simulation replays exactly, even across a restart. Nil uses
	// crypto/rand, as every real game must.
	Seed *[32]byte
	// Now is the clock of the "waiting since" report and of the patience
	// with a silent seat (time.Now if nil).
	Now func() time.Time
	// Human makes the peer's own seat a person's: the moves of the play
	// come from Submit (announced by a Prompt in Events and View, and by
	// Changed), not from the seat's player. Keys, shuffles, tokens,
	// reveals and what the rules decide alone stay automatic. Bots the
	// peer hosts are played by their players.
	Human bool
	// Patience is how long the device of the seat entitled next must have
	// shown no sign of life (no Presence, no envelope at that seq) before
	// the peer votes to take its seats over, automatically or through
	// VoteVoid (DefaultPatience if 0): a device gone. It is also the grace
	// of a phone whose app is paused for a while.
	Patience time.Duration
	// VoidAfter, when positive, makes the peer vote on its own once the
	// entitled seat's device has been away that long (and at least
	// Patience).
	// 0 never votes automatically: only VoteVoid does.
	VoidAfter time.Duration
	// Refusal is how long a device that is there (it announces itself)
	// and holds the log may stay silent at a step where no person chooses
	// (keys, shuffles, reveals) before the peer votes to take its seats
	// over (DefaultRefusal if 0, never less than Patience). A device that
	// is there is never voted on at a person's move.
	Refusal time.Duration
	// Heartbeat, when not nil, makes the peer announce its device (a
	// Presence) on every value, whatever its person does: the others then
	// know it is there, however long its person thinks. Without it the
	// others know the device only by its envelopes.
	Heartbeat <-chan time.Time
	// Grace is how long the deciding peer (the lowest voter) waits, after
	// its own vote, for the votes of the other seats still played before
	// it takes over every seat without a vote (DefaultGrace if 0). With
	// every other seat's vote in hand it does not wait.
	Grace time.Duration
	// Poll, when not nil, makes the peer look at the clock on every value:
	// vote once the patience is over, publish its standing votes again
	// (gossip loses messages), ask the decider for the voted seq, publish
	// its seat claims and approvals, and compare its log with the
	// members' once the game is over. Without it the peer does this only
	// when the log or the votes change.
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
// or the peer's person must choose (Prompt).
type Event struct {
	Seq       uint64
	Turn      int           // the seat entitled next, or -1
	Kind      tablelog.Kind // what it must post
	Round     int           // rounds audited so far (a Njet table)
	Over      bool          // the game is over
	Violation error         // the violation that halted the round, if any
	// Prompt is set when the peer's person must choose now (Submit).
	Prompt *Prompt
}

// Prompt asks a person's seat for its move, to be posted as Kind at Seq.
// At a Njet table View is the seat's view and the move one of Legal. Head
// is the hash of the log's last envelope when it was asked: once a device
// follows another branch, the same Seq can name another state, and the
// question is asked again with another Head.
type Prompt struct {
	Seq   uint64
	Head  tablelog.Hash
	Seat  int
	Kind  tablelog.Kind
	View  engine.View
	Legal []engine.Action
	// Until, at a table with a clock (Genesis.Clock), is when the
	// person's time for this move runs out (by the peer's clock): the
	// device's bot then moves for them. Zero without a clock.
	Until time.Time
}

// Peer is one seat at a table of any game: it replays the log through its
// Game, posts its own envelopes when its seat is entitled (storing secrets
// and the envelope before sending), takes over the seats of devices gone
// with the others (silence.go), hands seats back (handback.go), gives way
// to a heavier branch after a partition (fork.go), and reports to a UI
// through View, Events and Changed. A person plays it through Submit
// (person.go).
type Peer struct {
	cfg     PeerConfig
	id      tablelog.Identity // cfg.Key's public half
	events  chan Event
	wake    chan struct{}
	changed chan struct{}
	rand    *rand.Rand // picks members to ask; Run's goroutine only
	// botRand is what the seats' players draw from, seeded again before
	// each draft (seqSource): Run's goroutine only.
	botSrc  *seqSource
	botRand *rand.Rand

	mu      sync.Mutex
	game    *Game // game, log and replica are replaced by a rewind
	log     *tablelog.Log
	replica *tablelog.Replica
	// players are the players of the seats this peer plays with a bot,
	// and clockPlayer the one that moves for its person out of time.
	players     map[int]Player
	clockPlayer Player
	// clockOuts counts the person's moves that clockPlayer made, their
	// time having run out; outOf is the prompt it last made one for.
	clockOuts int
	outOf     *Prompt
	// since is when this peer saw the log's head become sinceHead (the
	// hash of its last envelope, which names its seq too): the seat
	// entitled next has been silent since then (see waitingSince).
	since     time.Time
	sinceHead tablelog.Hash
	// Silence votes for the seq where they were cast (votes[voter]), the
	// vote this peer stands by (mine), a VoteVoid request, and a member
	// whose log seems to have moved past this peer's own last envelopes.
	voteSeq  uint64
	votes    map[uint8]*SilenceVote
	mine     *standing
	wantVote bool
	declined uint64 // a seq at which the person declined the vote (DeclineVoid)
	// seen is what the peer heard of each device (by its seat) through
	// its Presence, and beat the last beat of its own.
	seen map[int]*sighting
	beat uint64
	// excluded is a takeover of this peer's seats that its guard refused
	// at the head of its log: the seq and the number of votes it carried.
	excluded *exclusion
	// forks is what the peer has heard of a member whose log went
	// another way (checkDiverged).
	forks forkWatch
	// rewinds counts the times the peer gave way to another branch;
	// accusations the times it posted the evidence of an equivocation,
	// and unposted is the evidence it found it cannot post.
	rewinds     int
	accusations int
	unposted    map[tablelog.Hash]bool
	// evidenceRead: the store's evidence was looked at since the peer
	// opened it (equivocation).
	evidenceRead bool
	// book holds the seat claims heard of and their approvals.
	book claimBook
	// The person's move waiting to be posted and the prompt that asked
	// for it.
	pending *submission
	prompt  *Prompt
	// caughtUp is set once the peer may post (see catchUp); lost is the
	// deal (crypto round and takeovers counted) whose secrets this device
	// lost.
	caughtUp bool
	lost     *lostDeal

	// tamper, in tests, rewrites and re-signs an envelope before it is
	// posted, to play a cheater; alter changes a draft before it is
	// signed; withhold, asked before the peer drafts a kind for one of
	// its seats, keeps it silent when it says so.
	tamper   func(env *tablelog.Envelope, key ed25519.PrivateKey)
	alter    func(d *draft)
	withhold func(k tablelog.Kind) bool
}

// standing is this peer's vote: the seq, the silent seat, why its device
// was away and when it was cast (by the peer's clock).
type standing struct {
	seq  uint64
	seat int
	why  Absence
	at   time.Time
}

// lostDeal names a deal by its crypto round and the takeovers before it.
type lostDeal struct {
	round  uint64
	voided int
}

func dealOf(game *Game) lostDeal {
	return lostDeal{round: game.Deal(), voided: len(game.Voided())}
}

// Names of the peer's metadata in its store: seq (8), silent seat (1) and
// absence (1, missing in a record written before votes said why) of the
// peer's standing vote. A peer of The Game wrote its vote under
// metaTheGameVote before both games shared one peer; it is still read.
const (
	metaVote        = tablelog.MetaSilenceVote
	metaTheGameVote = metaVote + "/thegame"
)

// NewPeer builds a peer and replays its stored log.
func NewPeer(cfg PeerConfig) (*Peer, error) {
	if cfg.Store == nil || cfg.Transport == nil || len(cfg.Key) != ed25519.PrivateKeySize || cfg.NewPlayer == nil {
		return nil, fmt.Errorf("table: NewPeer: Store, Transport, Key and NewPlayer are required")
	}
	if _, err := cfg.NewPlayer(cfg.Bot, rand.New(rand.NewPCG(0, 0))); err != nil {
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
	if cfg.Refusal <= 0 {
		cfg.Refusal = DefaultRefusal
	}
	cfg.Refusal = max(cfg.Refusal, cfg.Patience)
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
	id, err := tablelog.IdentityOf(pub)
	if err != nil {
		return nil, err
	}
	src := &seqSource{c: rand.NewChaCha8([32]byte{})}
	p := &Peer{cfg: cfg, id: id, events: make(chan Event, cfg.Events), wake: make(chan struct{}, 1),
		changed: make(chan struct{}, 1), rand: rand.New(rand.NewChaCha8(seed)), botSrc: src, botRand: rand.New(src),
		since: cfg.Now(), seen: map[int]*sighting{}}
	if err := p.open(); err != nil {
		return nil, err
	}
	// A peer that has posted before (its store holds the table's log)
	// catches up first: its store may have lost its own last envelopes.
	p.caughtUp = !cfg.CatchUp && p.log.Next() == 0
	p.game.setGuard(p.guardKey())
	return p, nil
}

// seqSource is the source the seats' players draw from. The peer seeds it
// again before each draft from the seq, so that a player chooses the same
// at a seq whatever it drew before, and whichever peer drafts it.
type seqSource struct{ c *rand.ChaCha8 }

// Uint64 implements rand.Source.
func (s *seqSource) Uint64() uint64 { return s.c.Uint64() }

// open builds the game, log and replica from the store (replaying it) and
// restores the peer's standing vote. The players of the seats start
// afresh: those of a branch the peer dropped remember its cards.
func (p *Peer) open() error {
	cfg := p.cfg
	game := NewGame(GameConfig{Table: cfg.Table, Creator: cfg.Creator, Vault: StoreVault{cfg.Store, cfg.Table},
		LobbyBots: cfg.LobbyBots})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: cfg.Table, Protocol: game})
	if err != nil {
		return err
	}
	rep, err := tablelog.NewReplica(tablelog.ReplicaConfig{Log: log, Store: cfg.Store, Transport: cfg.Transport, Peers: cfg.Peers,
		Rand: rand.New(rand.NewChaCha8(seedFrom(p.rand))), Tick: cfg.Tick, Logf: cfg.Logf,
		Side: IsSideMessage, Vote: p.receiveSide, Rejected: p.rejected})
	if err != nil {
		return err
	}
	game.setGuard(p.guardKey())
	p.mu.Lock()
	p.game, p.log, p.replica = game, log, rep
	p.mine, p.votes = nil, nil
	p.players = map[int]Player{}
	p.evidenceRead = false
	p.mu.Unlock()
	p.book.reset()
	// The vote was stored before it was sent: a restarted peer stands by
	// it (and its fence) as long as the log has not passed its seq.
	for _, name := range []string{metaVote, metaTheGameVote} {
		b, err := cfg.Store.Meta(cfg.Table, name)
		if err != nil && !errors.Is(err, tablelog.ErrNotFound) {
			return err
		}
		if err == nil && (len(b) == 9 || len(b) == 10) {
			// A 9-byte record was written before votes said why.
			why := AbsenceUnstated
			if len(b) == 10 && Absence(b[9]) < absenceEnd {
				why = Absence(b[9])
			}
			if seq, seat := binary.BigEndian.Uint64(b), int(b[8]); seq == log.Next() {
				p.stand(seq, seat, why)
			}
		}
	}
	return nil
}

// guardKey is the key the peer's game guards once the peer has caught up
// (see Game.guard): the device's own; nil before.
func (p *Peer) guardKey() *tablelog.Identity {
	p.mu.Lock()
	up := p.caughtUp
	p.mu.Unlock()
	if !up {
		return nil
	}
	id := p.id
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

// Seat returns the peer's own seat.
func (p *Peer) Seat() int { return p.cfg.Seat }

// Bot returns the kind of player of the peer's own seat.
func (p *Peer) Bot() string { return p.cfg.Bot }

// Events returns the buffered event channel. A reader that falls behind
// misses events (View always has the latest state); it is never closed.
func (p *Peer) Events() <-chan Event { return p.events }

// Changed receives a value whenever the peer has looked at the log again:
// the table may have moved on, and a person's seat may be asked to move.
// It is buffered (one value) and never closed.
func (p *Peer) Changed() <-chan struct{} { return p.changed }

// state returns the current game, log and replica (a rewind replaces them).
func (p *Peer) state() (*Game, *tablelog.Log, *tablelog.Replica) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.game, p.log, p.replica
}

// Game returns the peer's protocol state. After the peer gave way to
// another branch it is a new one.
func (p *Peer) Game() *Game {
	g, _, _ := p.state()
	return g
}

// Log returns the peer's log. After the peer gave way to another branch
// it is a new one.
func (p *Peer) Log() *tablelog.Log {
	_, l, _ := p.state()
	return l
}

// Rewinds returns how many times the peer gave way to another branch of
// the table's log, dropping its own from the first seq that differed.
func (p *Peer) Rewinds() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rewinds
}

// View returns what a UI shows.
func (p *Peer) View() PeerView {
	game, log, _ := p.state()
	next, prev := log.Head()
	v := PeerView{Turn: -1, Over: game.Over(), BotHost: game.HostOf(p.cfg.Seat),
		Voided: game.Voided(), Recovered: game.Recovered(), Abandoned: game.Abandoned()}
	if gen := game.Genesis(); gen != nil {
		for s := range gen.Players() {
			v.Hosts = append(v.Hosts, game.PeerOf(s))
		}
	}
	if nj := game.Njet(); nj != nil {
		v.Game, v.Results = nj.View(p.cfg.Seat), nj.Results()
	}
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
	p.mu.Lock()
	v.Since = p.waitingSince(prev)
	v.Silent = p.cfg.Now().Sub(v.Since)
	if p.prompt != nil && p.prompt.Seq == next && p.prompt.Head == prev {
		v.Prompt = p.prompt
	}
	v.CatchingUp = !p.caughtUp
	v.ClockOuts = p.clockOuts
	v.SecretsLost = p.lost != nil && *p.lost == dealOf(game)
	if v.Heard = p.heard(game); !v.Heard.IsZero() {
		v.Unheard = p.cfg.Now().Sub(v.Heard)
	}
	if voidable {
		since, why := p.absence(game, next, prev, v.Turn)
		v.Present = why == AbsenceUnstated
		if !v.Present {
			v.Away = p.cfg.Now().Sub(since)
		}
		v.Voidable = !v.Present && v.Away >= p.cfg.Patience
		if p.voteSeq == next {
			v.Votes = len(p.votes)
		}
		v.Voted = p.mine != nil && p.mine.seq == next && p.mine.seat == v.Turn
	}
	p.mu.Unlock()
	return v
}

// Waiting returns the seat the table waits for now, and false when it
// waits for nobody (before the genesis, or once the game is over or
// stopped).
func (p *Peer) Waiting() (int, bool) {
	game, log, _ := p.state()
	next := log.Next()
	turn, err := game.Entitled(next)
	if err != nil || next == 0 {
		return 0, false
	}
	return int(turn.Seat), true
}

// Done reports whether the peer has nothing more to do: the game is over,
// or the table stopped on a violation (one only this peer saw, or a cheat
// at a game whose cheats end the table); after any other violation the
// table votes the round void.
func (p *Peer) Done() bool {
	game := p.Game()
	return game.Over() || game.Stopped()
}

// errRewound stops one run of the replica after the peer rewound its log.
var errRewound = errors.New("table: log rewound")

// Run replicates the log and plays the peer's seats until ctx ends (then
// it returns nil) or the replica fails. It keeps serving the log after the
// game ends, for members still catching up.
func (p *Peer) Run(ctx context.Context) error {
	for {
		err := p.run(ctx)
		switch {
		case errors.Is(err, errRewound):
			continue
		case errors.Is(err, tablelog.ErrClosed) && ctx.Err() != nil:
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
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		p.heartbeat(ctx)
	}()
	defer func() {
		cancel()
		<-beating
	}()
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
		if ev, ok := p.equivocation(); ok {
			accused, err := p.accuse(outer, ev, stop)
			if err != nil || accused {
				return err
			}
		}
		if d, ok := p.forks.take(); ok {
			rewound, err := p.checkDiverged(ctx, outer, d, stop)
			if err != nil || rewound {
				return err
			}
		}
		p.dropBots()
		p.looked()
		select {
		case <-ctx.Done():
			return <-errc
		case err := <-errc:
			return err
		case <-replica.Changed():
			_, log, _ := p.state()
			_, prev := log.Head()
			p.mu.Lock()
			p.waitingSince(prev)
			p.mu.Unlock()
			p.emit(nil)
		case <-p.wake:
			p.approve(ctx, true)
		case <-p.cfg.Poll:
			if err := p.poll(ctx); err != nil {
				return stop(err)
			}
		}
	}
}

// waitingSince returns when this peer saw the log's head become prev (the
// hash of its last envelope); p.mu must be held. Silence is measured on the head itself, not on
// change events, because the peer's own posts move the head too: a decider
// that has just voided one silent seat and posted its next envelopes must
// not find the following seat silent since before them. The head is told
// by its envelope, not by its seq alone: a peer that gave way to another
// branch reaches the seqs it waited at on the dropped branch again, after
// other envelopes, and the seat entitled there on the new branch has been
// silent only since then.
func (p *Peer) waitingSince(prev tablelog.Hash) time.Time {
	if prev != p.sinceHead || p.since.IsZero() {
		p.since, p.sinceHead = p.cfg.Now(), prev
	}
	return p.since
}

func (p *Peer) emit(prompt *Prompt) {
	game, log, _ := p.state()
	next := log.Next()
	e := Event{Seq: next, Turn: -1, Round: len(game.Njet().Results()), Over: game.Over(), Prompt: prompt}
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

// signal wakes Run.
func (p *Peer) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// looked tells a front end that the peer looked at the log again.
func (p *Peer) looked() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// maxPostsInARow bounds one act call; the peer's seats never post more
// than a few envelopes in a row.
const maxPostsInARow = 64

// act posts every envelope the peer's seats are entitled to at the head of
// the log, then votes and decides a silent seat's takeover when it is
// time.
func (p *Peer) act(ctx context.Context) error {
	p.mu.Lock()
	ready := p.caughtUp
	p.mu.Unlock()
	if !ready {
		return nil
	}
	for range maxPostsInARow {
		_, _, replica := p.state()
		next, prev := replica.Head()
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
func (p *Peer) post(ctx context.Context, replica *tablelog.Replica, env *tablelog.Envelope) error {
	err := replica.Post(ctx, env)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tablelog.ErrClosed) || ctx.Err() != nil:
		return err
	case errors.Is(err, tablelog.ErrNotEntitled) || errors.Is(err, tablelog.ErrDuplicate):
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
	// A bot this peer hosts: its key was stored before its takeover.
	b, err := p.cfg.Store.Secret(p.cfg.Table, botKeyName(seat))
	if errors.Is(err, tablelog.ErrNotFound) {
		return nil, fmt.Errorf("%w: the key of hosted bot seat %d", ErrSecretsLost, seat)
	}
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, fmt.Errorf("table: the key of hosted bot seat %d: %w", seat, err)
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// playerOf returns the player of a seat the peer plays with a bot: the
// peer's own seat, or a seat taken over with this peer as host.
func (p *Peer) playerOf(seat int) (Player, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pl, ok := p.players[seat]; ok {
		return pl, nil
	}
	pl, err := p.cfg.NewPlayer(p.cfg.Bot, p.botRand)
	if err != nil {
		return nil, err
	}
	p.players[seat] = pl
	return pl, nil
}

// dropBots stops the players of the bot seats the peer no longer hosts (a
// seat handed to a claimant): a seat taken over again later starts a
// fresh player.
func (p *Peer) dropBots() {
	game := p.Game()
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.players {
		if s != p.cfg.Seat && game.HostOf(s) != p.cfg.Seat {
			delete(p.players, s)
		}
	}
}

// nextEnvelope drafts, stores the secrets of, and signs the envelope the
// peer's seat must post at seq next, or returns nil when it is not its turn
// (or its person has not chosen yet).
func (p *Peer) nextEnvelope(next uint64, prev tablelog.Hash) (*tablelog.Envelope, error) {
	game, _, _ := p.state()
	if next == 0 {
		if p.cfg.Seat != 0 || p.cfg.Genesis == nil {
			return nil, nil
		}
		return p.cfg.Genesis.Clone(), nil
	}
	if p.Done() {
		return nil, nil
	}
	turn, err := game.Entitled(next)
	if err != nil {
		return nil, nil
	}
	seat := int(turn.Seat)
	if !p.hosts(game, seat) || p.withhold != nil && p.withhold(turn.Kinds[0]) {
		return nil, nil
	}
	key, err := p.keyOf(game, seat)
	if err != nil {
		return p.silent(game, next, err)
	}
	if d := p.handBack(game, next, turn); d != nil {
		return p.seal(d, next, prev, seat, key)
	}
	rnd, err := p.randomness(next)
	if err != nil {
		return nil, err
	}
	c, ok := p.chooser(game, next, prev, seat, turn.Kinds[0])
	if !ok {
		return nil, nil
	}
	d, err := game.draft(next, seat, rnd, c)
	switch {
	case err != nil && c.person && c.move != nil:
		// The move no longer fits: drop it, and the seat is asked again.
		p.mu.Lock()
		p.pending = nil
		p.mu.Unlock()
		if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: a person's move dropped: %v", p.cfg.Seat, err)
		}
		return nil, nil
	case err != nil:
		return p.silent(game, next, fmt.Errorf("table: seat %d at seq %d: %w", seat, next, err))
	case d == nil:
		p.ask(game, next, prev, seat, turn.Kinds[0])
		return nil, nil
	}
	return p.seal(d, next, prev, seat, key)
}

// silent turns a draft that failed for lost secrets into silence: the
// peer posts nothing in this deal (a new key would be a second, different
// envelope where the others may hold its first), says so once through
// Logf, View and an Event, and the others take the seat over for the
// silence. Any other error is returned.
func (p *Peer) silent(game *Game, seq uint64, err error) (*tablelog.Envelope, error) {
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
// before the loss. Before each request the peer asks for its seat back if
// a bot may play it: at a table of bots the log may run on faster than
// the device fetches it, and its request is what makes the table hand the
// seat back.
func (p *Peer) catchUp(ctx context.Context) error {
	p.mu.Lock()
	done := p.caughtUp
	p.mu.Unlock()
	if done {
		return nil
	}
	for _, m := range p.cfg.Peers {
		fails := 0
		for range maxCatchUpAsks {
			p.claim(ctx)
			_, log, replica := p.state()
			next := log.Next()
			data, err := p.cfg.Transport.Fetch(ctx, m, next, next+tablelog.MaxRange)
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
				if _, err := replica.Receive(m, b); err != nil {
					return err
				}
			}
			if len(data) == 0 || log.Next() == next {
				break // nothing more, or nothing this log takes
			}
		}
	}
	p.mu.Lock()
	p.caughtUp = true
	p.mu.Unlock()
	game, _, _ := p.state()
	game.setGuard(p.guardKey())
	p.emit(nil)
	return nil
}

// CatchingUp reports whether the peer, restarted from its store, is still
// fetching what the others hold before it posts.
func (p *Peer) CatchingUp() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.caughtUp
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
func (p *Peer) seal(d *draft, next uint64, prev tablelog.Hash, seat int, key ed25519.PrivateKey) (*tablelog.Envelope, error) {
	if p.alter != nil {
		p.alter(d)
	}
	for name, s := range d.secrets {
		if err := p.cfg.Store.PutSecret(p.cfg.Table, name, s); err != nil {
			return nil, err
		}
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: p.cfg.Table, Seq: next, Prev: prev,
		Author: uint8(seat), Kind: d.kind, Body: d.body}
	if err := env.Sign(key); err != nil {
		return nil, err
	}
	if p.tamper != nil {
		p.tamper(env, key)
	}
	return env, nil
}

// randomness returns the protocol's randomness for the draft at seq
// (crypto/rand, or with a Seed a ChaCha8 stream derived from the seed and
// the seq), and seeds the players' source for it alike.
func (p *Peer) randomness(seq uint64) (io.Reader, error) {
	if p.cfg.Seed == nil {
		var key [32]byte
		if _, err := crand.Read(key[:]); err != nil {
			return nil, err
		}
		p.botSrc.c = rand.NewChaCha8(key)
		return crand.Reader, nil
	}
	derive := func(purpose string) [32]byte {
		return tablelog.DomainHash("njet/table/v1/peer-rand\x00"+purpose+"\x00", p.cfg.Seed[:], binary.BigEndian.AppendUint64(nil, seq))
	}
	p.botSrc.c = rand.NewChaCha8(derive("bot"))
	return rand.NewChaCha8(derive("protocol")), nil
}
