package table

import (
	"fmt"
	"slices"
	"sync"

	"github.com/njetlan/njet/tablelog"
)

// Vault gives the game protocol the private data of the seats a peer hosts:
// their round secrets and hidden choices, which the peer stored before it
// posted the envelopes that depend on them. A Store's secrets serve (see
// StoreVault). A nil Vault makes an observer that knows no hand.
type Vault interface {
	// Secret returns the named secret, or an error wrapping ErrNotFound.
	Secret(name string) ([]byte, error)
}

// StoreVault is the Vault of a Store's secrets for one table.
type StoreVault struct {
	Store *tablelog.Store
	Table tablelog.TableID
}

// Secret implements Vault.
func (v StoreVault) Secret(name string) ([]byte, error) { return v.Store.Secret(v.Table, name) }

// GameConfig sets up a Game.
type GameConfig struct {
	// Table is the table id; the genesis body must hash to it (TableIDOf).
	Table tablelog.TableID
	// Creator is seat 0's key, which signs the genesis.
	Creator tablelog.Identity
	// Vault holds the hosted seats' secrets; nil for an observer.
	Vault Vault
	// LobbyBots are the seats the table's setup says a device seated bots
	// in before the game began (a p2p Setup: seats whose genesis key is no
	// member device's). Claimable lets a watcher ask for such a seat while
	// its genesis key still plays it. It only answers that question: the
	// log hands any seat played by its own key over only with that key's
	// consent (applySeatClaim), whatever a device believes of it.
	LobbyBots []int
}

type stage uint8

const (
	stGenesis stage = iota
	stAcks
	stKeys
	stShuffle
	stDeal
	stPlay // the game's own rules say who posts what
	stReveal
	stOver
)

// Game is the game protocol of a table, for every game: it implements
// Protocol for a Log, replaying the envelopes into the mental-poker state
// and the game's own rules (which the genesis names), and says who must
// post next. Every peer runs one; a peer's Game also knows the hands of
// the seats it hosts (through its Vault), an observer's none. Public
// checks are the same on every peer; a failed check halts the round with
// a *Violation naming the seat, and the offending envelope stays in the
// log as evidence. It is safe for concurrent use.
//
// The parts a game does not add itself are here and in round.go (keys,
// shuffle, deal tokens, reveals, complaints), takeover.go (votes on a
// cheat, takeovers of devices gone, fences and guards) and handback.go
// (seats handed from a bot to a claimant). What a game adds are its rules
// (rules.go): njet.go for Njet, thegame.go for The Game.
type Game struct {
	mu  sync.Mutex
	cfg GameConfig

	next    uint64 // seq of the next envelope
	gen     *Genesis
	genHash tablelog.Hash
	rules   rules
	n       int
	st      stage
	acks    int
	// round is the crypto round under way (0 before the first): a Njet
	// deal, or The Game's deal and each of its redeals. rd is its state.
	round uint64
	rd    *cryptoRound

	halt  *Violation
	votes int // VoidVotes on the halt
	// abandoned is why a two-seat game ended early (a silent seat, or a
	// cheat): no seat there is ever handed to a bot its opponent hosts.
	abandoned *Violation
	voided    []*Violation
	// recovered are the takeovers that kept their round (escrow.go).
	recovered []Recovery
	keys      []tablelog.Identity // each seat's key now (a takeover or a claim replaces one)
	botHost   map[int]int         // bot seat -> the seat hosting it
	// handedBack are the seats handed from a bot to a claimant; handable
	// the bot seats that may be (taken over for silence, not for a cheat).
	handedBack []HandBack
	handable   map[int]bool
	// changedAt is the rules' claimMark at which each seat last changed
	// hands by a claim: it cannot change them again at that point.
	changedAt map[int]uint64
	// fence, set by this peer's own SilenceVote, refuses the silent seat's
	// envelope at the voted seq unless it is the one the decider's log
	// holds (allow). It is local to the peer, never part of the replicated
	// state: an observer has none.
	fence *fence
	// guard, once a peer has caught up with the table, is its device's
	// key: its log refuses a VoidSilent that hands a seat this device
	// posts for to a bot, unless a strict majority of the seats voted it
	// or the peer chose that branch (see Peer.checkDiverged). A device
	// that is there is not gone, whatever a certificate says. Observers
	// have no guard.
	guard *tablelog.Identity
	// guardAllow is the one VoidSilent the peer's guard lets through (its
	// hash): the branch the peer chose after comparing it with its own.
	guardAllow tablelog.Hash
	// noEscrow deals without escrows, as logs written before them: tests
	// measure and replay that form.
	noEscrow bool
	// blind keeps the hosted seats' cards out of a game's rules (they
	// still draft for them): tests use it to play a cheater whose own
	// rules would refuse the cheat.
	blind bool
	// layoutFault, in tests, is what the shuffle check returns in place
	// of its own verdict: a failure of the checking software to simulate
	// (crypto.ErrSoftware).
	layoutFault error
}

// NewGame returns the protocol state before the genesis.
func NewGame(cfg GameConfig) *Game { return &Game{cfg: cfg} }

// Entitled implements Protocol.
func (g *Game) Entitled(seq uint64) (tablelog.Turn, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.entitled(seq)
}

// entitled is Entitled with g.mu held.
func (g *Game) entitled(seq uint64) (tablelog.Turn, error) {
	if seq != g.next {
		return tablelog.Turn{}, fmt.Errorf("table: asked for seq %d, the game is at %d", seq, g.next)
	}
	seat, kinds, err := g.turn()
	if err != nil {
		return tablelog.Turn{}, err
	}
	key := g.cfg.Creator
	if g.gen != nil {
		key = g.keys[seat]
	}
	t := tablelog.Turn{Seat: uint8(seat), Key: key, Kinds: kinds}
	if g.complainable() {
		t.Kinds = append(slices.Clone(t.Kinds), tablelog.KindComplaint)
	}
	if g.claimable(seat) {
		t.Kinds = append(slices.Clone(t.Kinds), tablelog.KindSeatClaim)
	}
	if g.voidable(seat) {
		if g.n == 2 && g.rules.traits().abandonAtTwo {
			d := decider(seat)
			t.Instead = []tablelog.Turn{{Seat: uint8(d), Key: g.keys[d], Kinds: []tablelog.Kind{tablelog.KindAbandon}}}
		} else {
			// Any seat still played may decide: the certificate names the
			// decider, its lowest voter (applyVoidSilent). A seat at fault
			// never decides.
			for s := range g.n {
				if s != seat && (g.halt == nil || s != g.halt.Seat) {
					t.Instead = append(t.Instead, tablelog.Turn{Seat: uint8(s), Key: g.keys[s], Kinds: []tablelog.Kind{tablelog.KindVoidSilent}})
				}
			}
		}
	}
	return t, nil
}

// turn derives the entitled seat and kinds from the state.
func (g *Game) turn() (int, []tablelog.Kind, error) {
	if g.halt != nil {
		if g.stopped() {
			return 0, nil, fmt.Errorf("%w: %w", ErrHalted, g.halt)
		}
		voters := g.voters()
		if g.votes < len(voters) {
			return voters[g.votes], []tablelog.Kind{tablelog.KindVoidVote}, nil
		}
		return voters[0], []tablelog.Kind{tablelog.KindBotSeat}, nil
	}
	switch g.st {
	case stGenesis:
		return 0, []tablelog.Kind{tablelog.KindGenesis}, nil
	case stAcks:
		return g.acks + 1, []tablelog.Kind{tablelog.KindAck}, nil
	case stKeys:
		return len(g.rd.keys), []tablelog.Kind{tablelog.KindRoundKey}, nil
	case stShuffle:
		return len(g.rd.shuffles), []tablelog.Kind{tablelog.KindShuffle}, nil
	case stDeal:
		return g.rd.dealt, []tablelog.Kind{tablelog.KindDealTokens}, nil
	case stPlay:
		if s, ok := g.recoveryDue(); ok {
			return s, []tablelog.Kind{tablelog.KindRecovery}, nil
		}
		return g.rules.entitled()
	case stReveal:
		return len(g.rd.reveals), []tablelog.Kind{tablelog.KindReveal}, nil
	}
	return 0, nil, ErrOver
}

// stopped reports whether the violation that halted the round stops the
// table for good: one only this peer saw, or any at a game whose cheats
// end the table, or a failure of the checking software, which names no
// seat to vote on. Otherwise the others vote the round void.
func (g *Game) stopped() bool {
	return g.halt != nil && (g.halt.Private || g.halt.Seat < 0 || g.rules.traits().cheatHalts)
}

// Apply implements Protocol. A body that does not decode is refused; a
// decoded body that breaks a check is accepted and halts the round with a
// Violation (the signed envelope is the evidence).
func (g *Game) Apply(env *tablelog.Envelope) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if env.Seq != g.next {
		return fmt.Errorf("table: envelope for seq %d, the game is at %d", env.Seq, g.next)
	}
	if f := g.fence; f != nil && f.seq == env.Seq && int(env.Author) == f.seat && env.Hash() != f.allow {
		return fmt.Errorf("%w: seat %d at seq %d", ErrFenced, f.seat, f.seq)
	}
	var v *Violation
	var err error
	seat := int(env.Author)
	switch {
	case env.Kind == tablelog.KindGenesis:
		err = g.applyGenesis(env)
	case env.Kind == tablelog.KindAck:
		err = g.applyAck(env)
	case env.Kind == tablelog.KindRoundKey:
		v, err = g.applyKey(seat, env.Body)
	case env.Kind == tablelog.KindShuffle:
		v, err = g.applyShuffle(seat, env.Body)
	case env.Kind == tablelog.KindDealTokens && g.st == stDeal:
		v, err = g.applyDeal(seat, env.Body)
	case env.Kind == tablelog.KindReveal:
		v, err = g.applyReveal(seat, env.Body)
	case env.Kind == tablelog.KindVoidVote:
		err = g.applyVote(env.Body)
	case env.Kind == tablelog.KindBotSeat:
		err = g.applyBotSeat(seat, env.Body)
	case env.Kind == tablelog.KindVoidSilent:
		v, err = g.applyVoidSilent(env)
	case env.Kind == tablelog.KindRecovery:
		v, err = g.applyRecovery(seat, env.Body)
	case env.Kind == tablelog.KindAbandon:
		err = g.applyAbandon(env)
	case env.Kind == tablelog.KindComplaint:
		v, err = g.applyComplaint(seat, env.Body)
	case env.Kind == tablelog.KindSeatClaim:
		err = g.applySeatClaim(env)
	case env.Kind == tablelog.KindEquivocation:
		v, err = g.applyEquivocation(env)
	case g.st == stPlay && g.halt == nil:
		v, err = g.rules.apply(env)
	default:
		err = fmt.Errorf("%w: %v is not part of the protocol now", tablelog.ErrUnknownKind, env.Kind)
	}
	if err != nil {
		return err
	}
	if v != nil {
		if v.Seq == 0 {
			// An audit that replays the round names the envelope it blames.
			v.Seq = env.Seq
		}
		g.halt = v
	}
	if g.fence != nil && g.fence.seq <= env.Seq {
		g.fence = nil
	}
	g.next++
	return nil
}

func (g *Game) applyGenesis(env *tablelog.Envelope) error {
	gen, err := ParseGenesis(env.Body)
	if err != nil {
		return err
	}
	if TableIDOf(env.Body) != g.cfg.Table {
		return fmt.Errorf("%w: the genesis does not hash to the table id", tablelog.ErrWrongTable)
	}
	if gen.Keys[0] != g.cfg.Creator {
		return fmt.Errorf("%w: seat 0 of the genesis is not the creator", tablelog.ErrMalformed)
	}
	g.gen, g.n = gen, gen.Players()
	r, err := newRules(g)
	if err != nil {
		g.gen, g.n = nil, 0
		return err
	}
	g.rules, g.genHash = r, env.Hash()
	g.keys = slices.Clone(gen.Keys)
	g.botHost, g.handable, g.changedAt = map[int]int{}, map[int]bool{}, map[int]uint64{}
	g.st = stAcks
	if g.n == 1 {
		g.startRound()
	}
	return nil
}

func (g *Game) applyAck(env *tablelog.Envelope) error {
	h, err := parseAck(env.Body)
	if err != nil {
		return err
	}
	if h != g.genHash {
		return fmt.Errorf("%w: acknowledges %v, the genesis is %v", tablelog.ErrMalformed, h, g.genHash)
	}
	g.acks++
	if g.acks == g.n-1 {
		g.startRound()
	}
	return nil
}

// HandBack is a seat the table handed from its bot to a claimant's key.
type HandBack struct {
	Seq  uint64
	Seat int
	Key  tablelog.Identity
}

// HostOf returns the seat hosting the bot in seat, or -1.
func (g *Game) HostOf(seat int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if h, ok := g.botHost[seat]; ok {
		return h
	}
	return -1
}

// peerOf returns the seat whose peer posts for seat: its bot host, or
// itself.
func (g *Game) peerOf(seat int) int {
	if h, ok := g.botHost[seat]; ok {
		return h
	}
	return seat
}

// PeerOf returns the seat whose device posts for seat: the host of its
// bot, or the seat itself.
func (g *Game) PeerOf(seat int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peerOf(seat)
}

// KeyOf returns the key that plays seat now (the genesis key until a
// bot or a claimant replaces it), or the zero Identity for no such seat.
func (g *Game) KeyOf(seat int) tablelog.Identity {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || seat < 0 || seat >= g.n {
		return tablelog.Identity{}
	}
	return g.keys[seat]
}

// Abandoned returns why a two-seat game ended before its end (a seat that
// stayed silent, or a cheat), or nil. The game is then over with no
// winner; what was already scored stands.
func (g *Game) Abandoned() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.abandoned
}

// Voided returns the violations whose rounds were voided (the seats taken
// over, and the cheats voted void), in order.
func (g *Game) Voided() []*Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.voided)
}

// HandedBack returns the seats handed from a bot to a claimant, in order.
func (g *Game) HandedBack() []HandBack {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.handedBack)
}

// Violation returns the violation that halted the game, or nil.
func (g *Game) Violation() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.halt
}

// Stopped reports whether the table stopped for good on a violation: one
// only this peer saw, or a cheat at a game whose cheats end the table.
// After any other violation the others vote the round void.
func (g *Game) Stopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gen != nil && g.stopped()
}

// Over reports whether the game has ended (its last round audited, or
// ended early).
func (g *Game) Over() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.st == stOver
}

// Genesis returns the table's setup, or nil before the genesis.
func (g *Game) Genesis() *Genesis {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gen
}

// Next returns the seq of the next envelope the game expects.
func (g *Game) Next() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.next
}

// Deal returns the crypto round under way (0 before the first): a Njet
// deal, or The Game's deal and each redeal after it.
func (g *Game) Deal() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.round
}
