package table

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
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
	Store *Store
	Table TableID
}

// Secret implements Vault.
func (v StoreVault) Secret(name string) ([]byte, error) { return v.Store.Secret(v.Table, name) }

// Names of the secrets a peer keeps per deal and hosted seat.
func keysName(deal uint64, seat int) string   { return fmt.Sprintf("round-keys/%d/%d", deal, seat) }
func choiceName(deal uint64, seat int) string { return fmt.Sprintf("choice/%d/%d", deal, seat) }

// Errors of the game protocol.
var (
	// ErrCheat is wrapped by every *Violation.
	ErrCheat = errors.New("table: cheat detected")
	// ErrHalted: a violation stopped the round; nobody may post.
	ErrHalted = errors.New("table: the round is halted by a violation")
	// ErrOver: the game is over; nobody may post.
	ErrOver = errors.New("table: the game is over")
	// ErrSilent is the reason of a round voided because a seat stayed
	// silent (KindVoidSilent): no cheat, only absence.
	ErrSilent = errors.New("table: the seat stayed silent")
	// ErrVote: a SilenceVote (or a VoidSilent certificate) that does not
	// fit the log: wrong table, seq, previous hash or seats, or a bad
	// signature.
	ErrVote = errors.New("table: invalid vote")
	// ErrFenced: this peer voted to void the round of the seat that posted
	// the envelope at that seq; it takes that seq only from the decider.
	ErrFenced = errors.New("table: the seat was voted silent at this seq")
	// ErrWithheld is the reason of a round voided because a seat stayed
	// silent at its reveal, after the tricks were played: a cheat, since
	// the reveal is what lets the others audit the seat's hand.
	ErrWithheld = errors.New("table: the seat withheld its reveal")
	// ErrFalseComplaint: a Complaint about a sealed message that opens
	// with the complainer's revealed secrets.
	ErrFalseComplaint = errors.New("table: the sealed message opens")
)

// Names of the checks a Violation can report (besides crypto.Check names).
const (
	CheckStructure = "structure"       // a body that breaks the protocol's layout rules
	CheckPosition  = "position"        // a played position the seat does not hold
	CheckChoice    = "choice opening"  // a reveal that does not open its commitment
	CheckRenege    = "renege"          // engine.ErrRenege
	CheckFollow    = "follow suit"     // engine.ErrMustFollow
	CheckDiscard   = "discard"         // engine.ErrIllegalDiscard
	CheckCard      = "card not held"   // engine.ErrIllegalCard
	CheckAudit     = "round audit"     // engine.ErrAudit
	CheckRules     = "rules"           // any other engine rejection
	CheckKeys      = "hosted key"      // a hosted seat's stored secrets do not match its key
	CheckTokens    = "private opening" // a hosted seat's card does not decrypt from the tokens it opened
	CheckSilent    = "silent"          // not a cheat: the round was voided for a silent seat (ErrSilent)
	CheckWithheld  = "withheld reveal" // a seat silent at its reveal, after the tricks (ErrWithheld)
	CheckComplaint = "false complaint" // a Complaint about a sealed message that opens (ErrFalseComplaint)
)

// Violation is a detected cheat: the seat whose signed envelope (at Seq)
// broke the check. The log holding that envelope is the evidence. It wraps
// ErrCheat and the underlying error.
type Violation struct {
	Seq   uint64
	Seat  int
	Check string
	Err   error
	// Private is set when only this peer could make the check (a sealed
	// message to a seat it hosts, its engine's knowledge of a hosted hand):
	// the others do not halt, so there is no vote to void the round.
	Private bool
}

// Error names the seat and the check.
func (v *Violation) Error() string {
	return fmt.Sprintf("table: seat %d failed the %s check at seq %d: %v", v.Seat, v.Check, v.Seq, v.Err)
}

// Unwrap returns ErrCheat and the underlying error; for a seat voided as
// silent (CheckSilent), which cheated in nothing, only the underlying
// ErrSilent. A seat silent at its reveal (CheckWithheld) did cheat.
func (v *Violation) Unwrap() []error {
	if v.Check == CheckSilent {
		return []error{v.Err}
	}
	return []error{ErrCheat, v.Err}
}

// RoundResult is one audited round.
type RoundResult struct {
	Round  int    // 1-based round of the game
	Deal   uint64 // the crypto round number of its deal
	Dealer int
	Rules  engine.Rules
	Teams  [2][]int // team 0 is the start player's team
	Tricks [2]int   // tricks won per team
	Loot   [2]int   // per team: the opponents' 1s taken
	Bonus  int      // the seat whose points double, or -1
	Points []int    // per seat
	Totals []int    // running totals
}

// GameConfig sets up a Game.
type GameConfig struct {
	// Table is the table id; the genesis body must hash to it (TableIDOf).
	Table TableID
	// Creator is seat 0's key, which signs the genesis.
	Creator Identity
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
	stPlay // the engine's phases: Njet, teams, discards, tricks
	stReveal
	stOver
)

// Game is the game protocol: it implements Protocol for a Log, replaying
// the envelopes into the rules engine and the mental-poker state, and says
// who must post next. Every peer runs one; a peer's Game also knows the
// hands of the seats it hosts (through its Vault), an observer's none.
// Public checks are the same on every peer; a failed check halts the round
// with a *Violation naming the seat, and the offending envelope stays in the
// log as evidence. It is safe for concurrent use.
type Game struct {
	mu  sync.Mutex
	cfg GameConfig

	next    uint64 // seq of the next envelope
	gen     *Genesis
	genHash Hash
	n, h    int
	cards   []engine.Card // the cards in play: crypto card i is cards[i]
	eng     *engine.Game
	st      stage
	acks    int
	deal    uint64
	played  int // rounds audited
	rd      *dealState
	results []RoundResult
	halt    *Violation
	// abandoned is why a two-seat game ended early (a silent seat, or a
	// cheat): no seat there is ever handed to a bot its opponent hosts.
	abandoned *Violation
	keys      []Identity  // each seat's key now (a BotSeat replaces one)
	botHost   map[int]int // bot seat -> the seat hosting it
	snap      *engine.Game
	votes     int
	voided    []*Violation
	// handedBack are the seats handed from a bot to a claimant; handable
	// the bot seats that may be (taken over for silence, not for a cheat).
	handedBack []HandBack
	handable   map[int]bool
	// claimedIn is the deal in which each seat handed over changed hands:
	// it cannot change them again before its next deal.
	claimedIn map[int]uint64
	// fence, set by this peer's own SilenceVote, refuses the silent seat's
	// envelope at the voted seq unless it is the one the decider's log
	// holds (allow). It is local to the peer, never part of the replicated
	// state: an observer has none.
	fence *fence
	// guard, once a peer has caught up with the table, is its device's
	// key: its log refuses a VoidSilent that hands a seat this device
	// posts for to a bot, unless the peer chose that branch (see
	// Peer.checkDiverged). A device that is there is not gone, whatever a
	// certificate says. Observers have no guard.
	guard *Identity
	// guardAllow is the one VoidSilent the peer's guard lets through (its
	// hash): the branch the peer chose after comparing it with its own.
	guardAllow Hash
	// blind keeps the hosted seats' cards out of the engine (it still
	// drafts for them): tests use it to play a cheater whose own engine
	// would refuse the cheat.
	blind bool
}

// dealState is the crypto state of one deal.
type dealState struct {
	params    crypto.Params
	keys      []crypto.KeyMessage
	cr        *crypto.Round
	deck      crypto.Deck
	shuffles  []crypto.ShuffleMessage
	sealed    []crypto.Sealed
	dealt     int
	plays     []crypto.PlayMessage
	reveals   []crypto.Reveal
	choices   []*choice
	commits   [][32]byte
	committed []bool
	passPos   []int // per seat: the position it passed (public in the forward header), or -1
	playedBy  []int // per position: the seat that played it, or -1
	cardAt    map[int]engine.Card

	// Hosted seats only.
	secrets  map[int]*crypto.Secrets
	openings map[int][]crypto.Opening // per position held by a hosted seat
	own      map[int]*choice
	// bad maps a hosted seat to the index in sealed of the first message
	// to it that did not open: the seat posts a Complaint at its next turn
	// instead of halting alone (which would make it look silent).
	bad map[int]int
}

// fence is what a peer's own SilenceVote binds it to.
type fence struct {
	seq   uint64
	seat  int
	allow Hash // the decider's envelope of the silent seat at seq, once seen
}

// NewGame returns the protocol state before the genesis.
func NewGame(cfg GameConfig) *Game { return &Game{cfg: cfg} }

// Entitled implements Protocol.
func (g *Game) Entitled(seq uint64) (Turn, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return Turn{}, fmt.Errorf("table: asked for seq %d, the game is at %d", seq, g.next)
	}
	seat, kinds, err := g.turn()
	if err != nil {
		return Turn{}, err
	}
	key := g.cfg.Creator
	if g.gen != nil {
		key = g.keys[seat]
	}
	t := Turn{Seat: uint8(seat), Key: key, Kinds: kinds}
	if g.complainable() {
		t.Kinds = append(slices.Clone(kinds), KindComplaint)
	}
	if g.claimable(seat) {
		t.Kinds = append(slices.Clone(t.Kinds), KindSeatClaim)
	}
	if g.voidable(seat) {
		if g.n == 2 {
			d := decider(seat)
			t.Instead = []Turn{{Seat: uint8(d), Key: g.keys[d], Kinds: []Kind{KindAbandon}}}
		} else {
			// Any seat still played may decide: the certificate names the
			// decider, its lowest voter (applyVoidSilent). A seat at fault
			// never decides.
			for s := range g.n {
				if s != seat && (g.halt == nil || s != g.halt.Seat) {
					t.Instead = append(t.Instead, Turn{Seat: uint8(s), Key: g.keys[s], Kinds: []Kind{KindVoidSilent}})
				}
			}
		}
	}
	return t, nil
}

// voidKind is what the decider posts in a silent seat's place: a
// VoidSilent, or at a table of two an Abandon, so that a seat is never
// handed to a bot its only opponent hosts (and sees the hand of).
func (g *Game) voidKind() Kind {
	if g.n == 2 {
		return KindAbandon
	}
	return KindVoidSilent
}

// complainable reports whether the seat entitled now may post a Complaint
// instead of its normal envelope: while a deal's sealed messages are in
// play (from the deal tokens to the reveals) and no violation is pending.
// The complaint takes the complainer's own turn, so it never races
// another envelope for a seq.
func (g *Game) complainable() bool {
	return g.gen != nil && g.halt == nil && g.rd != nil && g.st >= stDeal && g.st <= stReveal
}

// voidable reports whether the seat entitled now may be taken over for
// staying silent: with no violation pending, from the acknowledgements to
// the last reveal of a deal. Any seat qualifies, a bot (its host is the
// device gone) or a bot's host (its bots go with it) included. At a table
// of two only during a deal, where the answer is an Abandon.
func (g *Game) voidable(seat int) bool {
	if g.gen == nil || seat < 0 || seat >= g.n {
		return false
	}
	if g.halt != nil {
		// A cheat being voted on: a voter gone for good would stall the
		// vote, so its silence is taken over like any other (the seat at
		// fault goes to a bot in the same envelope, never handed back).
		// At two seats the only vote is the other seat's own.
		return !g.halt.Private && g.n > 2 && seat != g.halt.Seat
	}
	switch {
	case g.st == stAcks:
		return g.n > 2
	case g.st >= stKeys && g.st <= stReveal:
		return g.rd != nil
	}
	return false
}

// claimable reports whether the seat entitled now may be handed to a
// claimant instead of posting its round key: its turn in the key setup of
// a deal, with no violation pending, while a claim of it can stand
// (seatClaimable). A seat handed over in this deal posts its round key:
// its new key cannot give it away again before the next deal.
func (g *Game) claimable(seat int) bool {
	if g.gen == nil || g.halt != nil || g.st != stKeys || g.rd == nil || len(g.rd.keys) != seat {
		return false
	}
	if d, ok := g.claimedIn[seat]; ok && d == g.deal {
		return false
	}
	return g.seatClaimable(seat)
}

// seatClaimable reports whether a claim of seat can stand in the log: a
// bot the table seated for silence (not a cheater's), or a seat played by
// its own key that hosts no bot. The second needs that key's consent
// (approvers), which only a device lending its bot gives, so a person's
// seat never changes hands without its device.
func (g *Game) seatClaimable(seat int) bool {
	if seat < 0 || seat >= g.n {
		return false
	}
	if _, bot := g.botHost[seat]; bot {
		return g.handable[seat]
	}
	for _, h := range g.botHost {
		if h == seat {
			return false // the claimant could not run the bots it hosts
		}
	}
	return true
}

// approvers are the seats whose approval a claim of seat needs: every
// seat still played by its own device. A bot the table seated is played by
// its host's device, so for its seat these are the other seats; a seat
// played by its own key is among them: its approval is its consent.
func (g *Game) approvers(seat int) []int {
	var out []int
	for s := range g.n {
		if g.peerOf(s) == s {
			out = append(out, s)
		}
	}
	return out
}

// HandBack is a seat the table handed from its bot to a claimant's key.
type HandBack struct {
	Seq  uint64
	Seat int
	Key  Identity
}

// applySeatClaim hands the seat entitled now to the claimant's key: the
// request is signed by that key, which no seat holds now, and every seat
// still played by its own device approved it for this deal, in seat order
// (the claimed seat itself among them when its own key plays it). The
// seat then posts its round key with the new key.
func (g *Game) applySeatClaim(env *Envelope) error {
	c, err := parseSeatClaim(g.cfg.Table, g.deal, env.Body)
	if err != nil {
		return err
	}
	seat := int(c.req.Seat)
	if seat != int(env.Author) || !g.claimable(seat) {
		return fmt.Errorf("%w: a claim of seat %d at seat %d's turn", ErrVote, seat, env.Author)
	}
	if err := c.check(g.keys, g.approvers(seat)); err != nil {
		return err
	}
	g.keys[seat] = c.req.Key
	delete(g.botHost, seat)
	delete(g.handable, seat)
	g.claimedIn[seat] = g.deal
	g.handedBack = append(g.handedBack, HandBack{Seq: env.Seq, Seat: seat, Key: c.req.Key})
	return nil
}

// checkApproval checks a SeatApproval against the state now: a claim of
// the seat can stand, the approver is one whose approval a claim needs,
// the signature the approver's.
func (g *Game) checkApproval(a *SeatApproval) error {
	if g.gen == nil || a.Table != g.cfg.Table || int(a.Seat) >= g.n || int(a.Approver) >= g.n {
		return fmt.Errorf("%w: an approval for deal %d", ErrVote, a.Deal)
	}
	if !g.seatClaimable(int(a.Seat)) || !slices.Contains(g.approvers(int(a.Seat)), int(a.Approver)) {
		return fmt.Errorf("%w: seat %d approving a claim of seat %d", ErrVote, a.Approver, a.Seat)
	}
	return a.Verify(g.keys[a.Approver])
}

// CheckApproval checks a SeatApproval for deal against the state now.
func (g *Game) CheckApproval(a *SeatApproval, deal uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if a.Deal != deal {
		return fmt.Errorf("%w: an approval for deal %d, not %d", ErrVote, a.Deal, deal)
	}
	return g.checkApproval(a)
}

// Approvers returns the seats whose approval a claim of seat needs now:
// every seat still played by its own device (the claimed seat's own
// approval is its consent).
func (g *Game) Approvers(seat int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil {
		return nil
	}
	return g.approvers(seat)
}

// KeyOf returns the key that plays seat now (the genesis key until a
// bot or a claimant replaces it), or the zero Identity for no such seat.
func (g *Game) KeyOf(seat int) Identity {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || seat < 0 || seat >= g.n {
		return Identity{}
	}
	return g.keys[seat]
}

// HandedBack returns the seats handed from a bot to a claimant, in order.
func (g *Game) HandedBack() []HandBack {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.handedBack)
}

// Deal returns the crypto round number of the deal under way (0 before
// the first).
func (g *Game) Deal() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.deal
}

// decider is the seat that ends a two-seat game for the silent seat: the
// other one.
func decider(silent int) int {
	if silent == 0 {
		return 1
	}
	return 0
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

// presentVotes keeps the votes whose voter's host has voted too: a device
// is present with all its seats or gone with all of them.
func (g *Game) presentVotes(votes []*SilenceVote) []*SilenceVote {
	g.mu.Lock()
	defer g.mu.Unlock()
	voted := map[int]bool{}
	for _, v := range votes {
		voted[int(v.Voter)] = true
	}
	var out []*SilenceVote
	for _, v := range votes {
		if voted[g.peerOf(int(v.Voter))] {
			out = append(out, v)
		}
	}
	return out
}

// checkVote checks a SilenceVote against the state at seq g.next, whose
// previous envelope hashes to prev: the seat it names must be entitled
// and voidable, the voter another seat, the signature the voter's key's.
func (g *Game) checkVote(v *SilenceVote, prev Hash) error {
	if g.gen == nil {
		return fmt.Errorf("%w: before the genesis", ErrVote)
	}
	if v.Table != g.cfg.Table || v.Seq != g.next || v.Prev != prev {
		return fmt.Errorf("%w: a vote for seq %d of table %v, this log is at %d of %v", ErrVote, v.Seq, v.Table, g.next, g.cfg.Table)
	}
	seat, _, err := g.turn()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	if int(v.Silent) != seat || !g.voidable(seat) {
		return fmt.Errorf("%w: a vote against seat %d, seat %d is entitled at seq %d", ErrVote, v.Silent, seat, v.Seq)
	}
	if int(v.Voter) >= g.n || v.Voter == v.Silent {
		return fmt.Errorf("%w: voter seat %d", ErrVote, v.Voter)
	}
	if g.halt != nil && int(v.Voter) == g.halt.Seat {
		return fmt.Errorf("%w: seat %d, at fault at seq %d, has no vote", ErrVote, v.Voter, g.halt.Seq)
	}
	if err := v.Verify(g.keys[v.Voter]); err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	return nil
}

// CheckVote checks a SilenceVote against the state of the game at seq
// Next(), given the hash of the log's envelope before it.
func (g *Game) CheckVote(v *SilenceVote, prev Hash) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checkVote(v, prev)
}

// setFence binds this game to its peer's vote against seat at seq. It
// reports false, and sets nothing, when the game is already past seq: the
// vote must then not be sent.
func (g *Game) setFence(seq uint64, seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next != seq {
		return false
	}
	g.fence = &fence{seq: seq, seat: seat}
	return true
}

// allowFenced lets the fenced seat's envelope with hash h through: the
// decider's log holds it.
func (g *Game) allowFenced(seq uint64, h Hash) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence != nil && g.fence.seq == seq {
		g.fence.allow = h
	}
}

// setGuard turns the peer's guard on for its device's key, or off (nil).
func (g *Game) setGuard(key *Identity) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.guard = key
}

// allowBranch lets env through the peer's own fence and guard: the peer
// chose the branch that holds it (Peer.checkDiverged).
func (g *Game) allowBranch(env *Envelope) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence != nil && g.fence.seq == env.Seq {
		g.fence.allow = env.Hash()
	}
	if env.Kind == KindVoidSilent {
		g.guardAllow = env.Hash()
	}
}

// fenced returns the seq and seat of the peer's standing vote, if any.
func (g *Game) fenced() (uint64, int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence == nil {
		return 0, 0, false
	}
	return g.fence.seq, g.fence.seat, true
}

// turn derives the entitled seat and kinds from the state.
func (g *Game) turn() (int, []Kind, error) {
	if g.halt != nil {
		if g.halt.Private {
			return 0, nil, fmt.Errorf("%w: %w", ErrHalted, g.halt)
		}
		voters := g.voters()
		if g.votes < len(voters) {
			return voters[g.votes], []Kind{KindVoidVote}, nil
		}
		return voters[0], []Kind{KindBotSeat}, nil
	}
	rd := g.rd
	switch g.st {
	case stGenesis:
		return 0, []Kind{KindGenesis}, nil
	case stAcks:
		return g.acks + 1, []Kind{KindAck}, nil
	case stKeys:
		return len(rd.keys), []Kind{KindRoundKey}, nil
	case stShuffle:
		return len(rd.shuffles), []Kind{KindShuffle}, nil
	case stDeal:
		return rd.dealt, []Kind{KindDealTokens}, nil
	case stReveal:
		return len(rd.reveals), []Kind{KindReveal}, nil
	case stOver:
		return 0, nil, ErrOver
	}
	switch g.eng.Phase() {
	case engine.PhaseNjet:
		return g.eng.Turn(), []Kind{KindBlock}, nil
	case engine.PhaseTeams:
		return g.eng.Turn(), []Kind{KindTeam}, nil
	case engine.PhaseDiscard:
		s := slices.Index(rd.committed, false)
		if g.eng.Rules().Discard == engine.PassLeft {
			return s, []Kind{KindPassCommit}, nil
		}
		return s, []Kind{KindDiscardCommit}, nil
	case engine.PhaseTricks:
		return g.eng.Turn(), []Kind{KindPlay}, nil
	}
	return 0, nil, fmt.Errorf("table: no turn in engine phase %s", g.eng.Phase())
}

// Apply implements Protocol. A body that does not decode is refused; a
// decoded body that breaks a check is accepted and halts the round with a
// Violation (the signed envelope is the evidence).
func (g *Game) Apply(env *Envelope) error {
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
	switch env.Kind {
	case KindGenesis:
		err = g.applyGenesis(env)
	case KindAck:
		err = g.applyAck(env)
	case KindRoundKey:
		v, err = g.applyKey(seat, env.Body)
	case KindShuffle:
		v, err = g.applyShuffle(seat, env.Body)
	case KindDealTokens:
		v, err = g.applyDeal(seat, env.Body)
	case KindBlock, KindTeam:
		err = g.applyBoard(seat, env.Kind, env.Body)
	case KindDiscardCommit, KindPassCommit:
		v, err = g.applyCommit(seat, env.Kind, env.Body)
	case KindPlay:
		v, err = g.applyPlay(seat, env.Body)
	case KindReveal:
		v, err = g.applyReveal(seat, env.Body)
	case KindVoidVote:
		err = g.applyVote(env.Body)
	case KindBotSeat:
		err = g.applyBotSeat(seat, env.Body)
	case KindVoidSilent:
		err = g.applyVoidSilent(env)
	case KindAbandon:
		err = g.applyAbandon(env)
	case KindComplaint:
		v, err = g.applyComplaint(seat, env.Body)
	case KindSeatClaim:
		err = g.applySeatClaim(env)
	default:
		err = fmt.Errorf("%w: %v is not part of the game protocol", ErrUnknownKind, env.Kind)
	}
	if err != nil {
		return err
	}
	if v != nil {
		v.Seq = env.Seq
		g.halt = v
	}
	if g.fence != nil && g.fence.seq <= env.Seq {
		g.fence = nil
	}
	g.next++
	return nil
}

func violation(seat int, check string, format string, args ...any) *Violation {
	return &Violation{Seat: seat, Check: check, Err: fmt.Errorf(format, args...)}
}

// cryptoViolation attributes a crypto failure: the seat it names, or the
// author when it names none.
func cryptoViolation(author int, err error) *Violation {
	var ce *crypto.CheatError
	if errors.As(err, &ce) {
		seat := ce.Seat
		if seat < 0 {
			seat = author
		}
		return &Violation{Seat: seat, Check: ce.Check.String(), Err: err}
	}
	return &Violation{Seat: author, Check: CheckStructure, Err: err}
}

// engineViolation attributes an engine rejection to seat (or to the seat a
// *engine.SeatError names).
func engineViolation(seat int, err error) *Violation {
	var se *engine.SeatError
	if errors.As(err, &se) {
		seat = se.Seat
	}
	check := CheckRules
	switch {
	case errors.Is(err, engine.ErrRenege):
		check = CheckRenege
	case errors.Is(err, engine.ErrMustFollow):
		check = CheckFollow
	case errors.Is(err, engine.ErrIllegalDiscard):
		check = CheckDiscard
	case errors.Is(err, engine.ErrIllegalCard):
		check = CheckCard
	case errors.Is(err, engine.ErrAudit):
		check = CheckAudit
	}
	return &Violation{Seat: seat, Check: check, Err: err}
}

func (g *Game) applyGenesis(env *Envelope) error {
	gen, err := ParseGenesis(env.Body)
	if err != nil {
		return err
	}
	if TableIDOf(env.Body) != g.cfg.Table {
		return fmt.Errorf("%w: the genesis does not hash to the table id", ErrWrongTable)
	}
	if gen.Keys[0] != g.cfg.Creator {
		return fmt.Errorf("%w: seat 0 of the genesis is not the creator", ErrMalformed)
	}
	eng, err := engine.NewGame(gen.EngineConfig())
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	g.gen, g.genHash, g.eng = gen, env.Hash(), eng
	g.keys = slices.Clone(gen.Keys)
	g.botHost = map[int]int{}
	g.handable = map[int]bool{}
	g.claimedIn = map[int]uint64{}
	g.n = gen.Players()
	g.h = gen.Edition.HandSize(g.n)
	g.cards = gen.Edition.Deck(g.n)
	g.st = stAcks
	return nil
}

func (g *Game) applyAck(env *Envelope) error {
	h, err := parseAck(env.Body)
	if err != nil {
		return err
	}
	if h != g.genHash {
		return fmt.Errorf("%w: acknowledges %v, the genesis is %v", ErrMalformed, h, g.genHash)
	}
	g.acks++
	if g.acks == g.n-1 {
		g.startDeal()
	}
	return nil
}

// startDeal begins a fresh deal: keys, shuffles and tokens.
func (g *Game) startDeal() {
	g.deal++
	g.snap = g.eng.Clone()
	n := g.n
	g.rd = &dealState{
		params: crypto.Params{TableID: g.cfg.Table, Round: g.deal, Parties: n, Cards: len(g.cards),
			DeckID: fmt.Sprintf("njet/%s/%d", g.gen.Edition, n)},
		commits:   make([][32]byte, n),
		committed: make([]bool, n),
		passPos:   slices.Repeat([]int{-1}, n),
		playedBy:  slices.Repeat([]int{-1}, len(g.cards)),
		cardAt:    map[int]engine.Card{},
		secrets:   map[int]*crypto.Secrets{},
		openings:  map[int][]crypto.Opening{},
		own:       map[int]*choice{},
		bad:       map[int]int{},
		choices:   make([]*choice, 0, n),
	}
	g.st = stKeys
}

// owner is the seat whose hand holds deck position pos, or -1 for an unused
// position.
func (g *Game) owner(pos int) int {
	if pos < 0 || pos >= g.n*g.h {
		return -1
	}
	return pos / g.h
}

// fixedRand is the randomness for computations whose output is never
// published (proofs recomputed to compare keys, tokens rebuilt in the
// audit from revealed secrets).
func fixedRand() *rand.ChaCha8 { return rand.NewChaCha8([32]byte{'n', 'j', 'e', 't'}) }

func (g *Game) applyKey(seat int, body []byte) (*Violation, error) {
	var km crypto.KeyMessage
	if err := parseCrypto(KindRoundKey, body, &km); err != nil {
		return nil, err
	}
	rd := g.rd
	if km.Seat != seat {
		return violation(seat, CheckStructure, "a key message for seat %d", km.Seat), nil
	}
	if err := crypto.VerifyKey(rd.params, &km); err != nil {
		return cryptoViolation(seat, err), nil
	}
	if g.cfg.Vault != nil {
		if b, err := g.cfg.Vault.Secret(keysName(g.deal, seat)); err == nil {
			s := new(crypto.Secrets)
			if err := s.UnmarshalBinary(b); err != nil {
				v := violation(seat, CheckKeys, "stored secrets: %v", err)
				v.Private = true
				return v, nil
			}
			mine, err := s.KeyMessage(rd.params, fixedRand())
			if err != nil || mine.Key != km.Key || mine.HPKE != km.HPKE || s.Seat() != seat {
				v := violation(seat, CheckKeys, "the posted key is not the stored one")
				v.Private = true
				return v, nil
			}
			rd.secrets[seat] = s
		}
	}
	rd.keys = append(rd.keys, km)
	if len(rd.keys) < g.n {
		return nil, nil
	}
	cr, err := crypto.NewRound(rd.params, rd.keys)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	deck, err := crypto.InitialDeck(rd.params)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	rd.cr, rd.deck = cr, deck
	g.st = stShuffle
	return nil, nil
}

func (g *Game) applyShuffle(seat int, body []byte) (*Violation, error) {
	var m crypto.ShuffleMessage
	if err := parseCrypto(KindShuffle, body, &m); err != nil {
		return nil, err
	}
	rd := g.rd
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a shuffle for seat %d", m.Seat), nil
	}
	if err := rd.cr.VerifyShuffle(rd.deck, &m); err != nil {
		return cryptoViolation(seat, err), nil
	}
	rd.shuffles = append(rd.shuffles, m)
	rd.deck = m.Deck
	if len(rd.shuffles) == g.n {
		g.st = stDeal
	}
	return nil, nil
}

// dealOrder is the order of the sealed tokens in seat's DealTokens: for
// every other seat in seat order, its hand's positions in order.
func (g *Game) dealOrder(seat int) (to, pos []int) {
	for t := range g.n {
		if t == seat {
			continue
		}
		for p := t * g.h; p < (t+1)*g.h; p++ {
			to, pos = append(to, t), append(pos, p)
		}
	}
	return to, pos
}

func (g *Game) applyDeal(seat int, body []byte) (*Violation, error) {
	sealed, err := parseDeal(body)
	if err != nil {
		return nil, err
	}
	rd := g.rd
	to, pos := g.dealOrder(seat)
	if len(sealed) != len(to) {
		return violation(seat, CheckStructure, "%d sealed tokens, want %d", len(sealed), len(to)), nil
	}
	for i := range sealed {
		m := &sealed[i]
		if m.Kind != crypto.SealDeal || m.From != seat || m.To != to[i] || m.Position != pos[i] {
			return violation(seat, CheckStructure, "sealed token %d is %d from %d to %d for position %d",
				i, m.Kind, m.From, m.To, m.Position), nil
		}
	}
	opened := map[int]crypto.Opening{}
	for i := range sealed {
		m := &sealed[i]
		s, hosted := rd.secrets[m.To]
		if _, bad := rd.bad[m.To]; !hosted || bad {
			continue
		}
		o, err := rd.cr.OpenDeal(s, rd.deck, m)
		if err != nil {
			// Only the recipient can see this: it complains publicly at
			// its next turn (see applyComplaint) and meanwhile follows
			// the table without that hand.
			rd.bad[m.To] = len(rd.sealed) + i
			continue
		}
		opened[m.Position] = o
	}
	for p, o := range opened {
		rd.openings[p] = append(rd.openings[p], o)
	}
	rd.sealed = append(rd.sealed, sealed...)
	rd.dealt++
	if rd.dealt < g.n {
		return nil, nil
	}
	for s := range g.n {
		a := engine.Action{Kind: engine.ActDeal, Seat: s, Hidden: true}
		_, bad := rd.bad[s]
		if sec, ok := rd.secrets[s]; ok && !bad {
			a.Hidden = g.blind
			for p := s * g.h; p < (s+1)*g.h; p++ {
				i, err := rd.cr.Card(sec, rd.deck, p, rd.openings[p])
				if err != nil {
					v := violation(s, CheckTokens, "position %d: %v", p, err)
					v.Private = true
					return v, nil
				}
				rd.cardAt[p] = g.cards[i]
				a.Hand = a.Hand.Add(g.cards[i])
			}
		}
		if err := g.eng.Apply(a); err != nil {
			v := engineViolation(s, err)
			v.Private = !a.Hidden
			return v, nil
		}
	}
	g.st = stPlay
	return nil, nil
}

func (g *Game) applyBoard(seat int, kind Kind, body []byte) error {
	a := engine.Action{Seat: seat}
	var err error
	if kind == KindBlock {
		a.Kind = engine.ActBlock
		a.Row, a.Field, err = parseBlock(body)
	} else {
		a.Kind = engine.ActTeam
		a.Partners, a.Bonus, err = parseTeam(body)
	}
	if err != nil {
		return err
	}
	// The board and the teams are public: every engine answers alike, so an
	// illegal block or team is refused rather than halting the round.
	return g.eng.Apply(a)
}

// ownChoice loads a hosted seat's stored choice and checks it against the
// published commitment.
func (g *Game) ownChoice(seat int, kind Kind, c [32]byte) (*choice, error) {
	if _, hosted := g.rd.secrets[seat]; !hosted || g.cfg.Vault == nil {
		return nil, nil
	}
	b, err := g.cfg.Vault.Secret(choiceName(g.deal, seat))
	if errors.Is(err, ErrNotFound) {
		// A damaged store kept the round's keys but lost the choice (its
		// envelope came back by sync): the seat's secrets for the round
		// are incomplete, so it is no longer played from here (the
		// peer's next post for it fails with ErrSecretsLost).
		delete(g.rd.secrets, seat)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r := &reader{b: b, kind: kind}
	ch := new(choice)
	ch.decode(r)
	if err := r.finish(); err != nil {
		return nil, err
	}
	if ch.commitment(g.cfg.Table, g.deal, seat, kind) != c {
		return nil, fmt.Errorf("the stored choice does not open the commitment")
	}
	return ch, nil
}

func (g *Game) applyCommit(seat int, kind Kind, body []byte) (*Violation, error) {
	c, fwd, err := parseCommit(kind, body)
	if err != nil {
		return nil, err
	}
	rd := g.rd
	a := engine.Action{Kind: engine.ActDiscard, Seat: seat, Hidden: true, Card: engine.NoCard,
		Cards: [2]engine.Card{engine.NoCard, engine.NoCard}}
	if kind == KindPassCommit {
		a.Kind = engine.ActPass
		to := (seat + 1) % g.n
		if fwd.Kind != crypto.SealForward || fwd.From != seat || fwd.To != to || g.owner(fwd.Position) != seat {
			return violation(seat, CheckStructure, "a forward from %d to %d of position %d", fwd.From, fwd.To, fwd.Position), nil
		}
		_, bad := rd.bad[to]
		if sec, ok := rd.secrets[to]; ok && !bad {
			openings, i, err := rd.cr.OpenForward(sec, rd.deck, fwd, rd.sealed)
			if err != nil {
				// As for a deal token: the receiver complains at its next
				// turn; the forward is appended at len(rd.sealed) below.
				rd.bad[to] = len(rd.sealed)
			} else {
				rd.openings[fwd.Position] = openings
				rd.cardAt[fwd.Position] = g.cards[i]
				if !g.blind {
					a.Hidden, a.Card = false, g.cards[i]
				}
			}
		}
	}
	own, err := g.ownChoice(seat, kind, c)
	if err != nil {
		v := violation(seat, CheckKeys, "hosted choice: %v", err)
		v.Private = true
		return v, nil
	}
	if own != nil && !g.blind {
		a.Hidden = false
		if kind == KindPassCommit {
			if len(own.Positions) != 1 || own.Positions[0] != fwd.Position {
				v := violation(seat, CheckKeys, "the stored pass is not the forwarded position")
				v.Private = true
				return v, nil
			}
			a.Card = rd.cardAt[fwd.Position]
		} else {
			for i, p := range own.Positions {
				a.Cards[i] = rd.cardAt[p]
			}
		}
	}
	if own != nil {
		rd.own[seat] = own
	}
	if err := g.eng.Apply(a); err != nil {
		v := engineViolation(seat, err)
		v.Private = !a.Hidden
		return v, nil
	}
	rd.commits[seat], rd.committed[seat] = c, true
	if fwd != nil {
		rd.passPos[seat] = fwd.Position
		rd.sealed = append(rd.sealed, *fwd)
	}
	return nil, nil
}

func (g *Game) applyPlay(seat int, body []byte) (*Violation, error) {
	var m crypto.PlayMessage
	if err := parseCrypto(KindPlay, body, &m); err != nil {
		return nil, err
	}
	rd := g.rd
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a play for seat %d", m.Seat), nil
	}
	pos := m.Position
	left := (seat + g.n - 1) % g.n
	switch o := g.owner(pos); {
	case o < 0:
		return violation(seat, CheckPosition, "position %d is dealt to nobody", pos), nil
	case rd.playedBy[pos] >= 0:
		return violation(seat, CheckPosition, "position %d was played already", pos), nil
	case o == seat && rd.passPos[seat] == pos:
		return violation(seat, CheckPosition, "position %d was passed on", pos), nil
	case o != seat && !(o == left && rd.passPos[left] == pos):
		return violation(seat, CheckPosition, "position %d is in the hand of seat %d", pos, o), nil
	}
	i, err := rd.cr.VerifyPlay(rd.deck, &m, rd.sealed)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	c := g.cards[i]
	if err := g.eng.Apply(engine.Action{Kind: engine.ActPlay, Seat: seat, Card: c}); err != nil {
		// Only a renege (against voids every engine saw) is certain to be
		// seen by all; other refusals come from what this engine knows of
		// hosted hands.
		v := engineViolation(seat, err)
		v.Private = !errors.Is(err, engine.ErrRenege)
		return v, nil
	}
	rd.plays = append(rd.plays, m)
	rd.playedBy[pos] = seat
	rd.cardAt[pos] = c
	if p := g.eng.Phase(); p == engine.PhaseRoundOver || p == engine.PhaseGameOver {
		g.st = stReveal
	}
	return nil, nil
}

func (g *Game) applyReveal(seat int, body []byte) (*Violation, error) {
	rv, ch, err := parseReveal(body)
	if err != nil {
		return nil, err
	}
	rd := g.rd
	if rv.Seat != seat {
		return violation(seat, CheckStructure, "a reveal for seat %d", rv.Seat), nil
	}
	if err := rd.cr.VerifyReveal(rv); err != nil {
		return cryptoViolation(seat, err), nil
	}
	rule := g.eng.Rules().Discard
	want := map[engine.DiscardRule]int{engine.Discard1: 1, engine.Discard2: 2, engine.Discard1NoOnes: 1, engine.PassLeft: 1}[rule]
	kind := KindDiscardCommit
	if rule == engine.PassLeft {
		kind = KindPassCommit
	}
	switch {
	case len(ch.Positions) != want:
		return violation(seat, CheckChoice, "%d positions revealed, want %d", len(ch.Positions), want), nil
	case want > 0 && ch.commitment(g.cfg.Table, g.deal, seat, kind) != rd.commits[seat]:
		return violation(seat, CheckChoice, "the revealed choice does not open the commitment"), nil
	}
	for _, p := range ch.Positions {
		switch {
		case g.owner(p) != seat:
			return violation(seat, CheckChoice, "chose position %d outside its hand", p), nil
		case rule == engine.PassLeft && p != rd.passPos[seat]:
			return violation(seat, CheckChoice, "revealed pass %d, forwarded %d", p, rd.passPos[seat]), nil
		case rule != engine.PassLeft && rd.playedBy[p] >= 0:
			return violation(seat, CheckPosition, "discarded position %d and it was played", p), nil
		}
	}
	rd.reveals = append(rd.reveals, *rv)
	rd.choices = append(rd.choices, ch)
	if len(rd.reveals) < g.n {
		return nil, nil
	}
	if v := g.audit(); v != nil {
		return v, nil
	}
	g.finishRound()
	return nil, nil
}

// audit re-checks the whole deal once every seat has revealed: every
// position of the final deck (crypto.AuditDeckSecrets), every sealed
// message, the cards of every hand, and the engine's audit of the
// discards, passes and every play.
//
// It is crypto.Audit without the parts this Game has already checked as
// the envelopes came in, in the same order and against the same deck:
// every key proof (applyKey, NewRound), every shuffle pass (applyShuffle),
// every play's tokens (applyPlay) and every reveal (applyReveal). What no
// observer could check before the reveal is whether each sealed message
// opens for its recipient, with a valid token proof and commitment; that
// is done here for all of them with the revealed keys. A Game that replays
// an export (Verify) applies every envelope too, so an offline verification
// still runs every check of crypto.Audit exactly once.
func (g *Game) audit() *Violation {
	rd := g.rd
	secrets := make([]*crypto.Secrets, g.n)
	for s := range g.n {
		sec, err := rd.cr.Secrets(&rd.reveals[s])
		if err != nil {
			return cryptoViolation(s, err)
		}
		secrets[s] = sec
	}
	// Every position of the final deck decrypts to a card, each card once,
	// dealt or not; a broken deck is blamed on the pass that broke it.
	if err := rd.cr.AuditDeckSecrets(rd.shuffles, secrets); err != nil {
		return cryptoViolation(g.n-1, err)
	}
	for i := range rd.sealed {
		m := &rd.sealed[i]
		var err error
		switch m.Kind {
		case crypto.SealDeal:
			_, err = rd.cr.OpenDeal(secrets[m.To], rd.deck, m)
		case crypto.SealForward:
			_, _, err = rd.cr.OpenForward(secrets[m.To], rd.deck, m, rd.sealed[:i])
		default:
			err = fmt.Errorf("sealed message %d of kind %d", i, m.Kind)
		}
		if err != nil {
			return cryptoViolation(m.From, err)
		}
	}
	rnd := fixedRand()
	rev := engine.Reveal{Dealt: make([]engine.Hand, g.n), Discards: make([]engine.Hand, g.n),
		Passes: slices.Repeat([]engine.Card{engine.NoCard}, g.n)}
	for p := 0; p < g.n*g.h; p++ {
		s := g.owner(p)
		c, ok := rd.cardAt[p]
		if !ok {
			var openings []crypto.Opening
			for j := range g.n {
				if j == s {
					continue
				}
				tok, err := rd.cr.Token(secrets[j], rd.deck, p, rnd)
				if err != nil {
					return cryptoViolation(j, err)
				}
				openings = append(openings, crypto.Opening{Token: tok})
			}
			i, err := rd.cr.Card(secrets[s], rd.deck, p, openings)
			if err != nil {
				return cryptoViolation(s, err)
			}
			c = g.cards[i]
			rd.cardAt[p] = c
		}
		rev.Dealt[s] = rev.Dealt[s].Add(c)
	}
	pass := g.eng.Rules().Discard == engine.PassLeft
	for s, ch := range rd.choices {
		for _, p := range ch.Positions {
			if pass {
				rev.Passes[s] = rd.cardAt[p]
			} else {
				rev.Discards[s] = rev.Discards[s].Add(rd.cardAt[p])
			}
		}
	}
	if err := g.eng.AuditRound(rev); err != nil {
		return engineViolation(0, err)
	}
	return nil
}

// finishRound records the audited round and starts the next deal, or ends
// the game.
func (g *Game) finishRound() {
	h := g.eng.History()
	g.played++
	g.results = append(g.results, RoundResult{Round: h.Round, Deal: g.deal, Dealer: h.Dealer, Rules: h.Rules,
		Teams: [2][]int{slices.Clone(h.Teams[0]), slices.Clone(h.Teams[1])}, Tricks: h.Score.Tricks, Loot: h.Score.Loot,
		Bonus: h.Bonus, Points: slices.Clone(h.Score.Points), Totals: slices.Clone(h.Totals)})
	if g.eng.Phase() == engine.PhaseGameOver || g.gen.Rounds > 0 && g.played >= g.gen.Rounds {
		g.st = stOver
		return
	}
	g.startDeal()
}

// voters are the seats that vote to void a halted round: every seat but
// the one at fault, in seat order. The first of them hosts the bot.
func (g *Game) voters() []int {
	var out []int
	for s := range g.n {
		if s != g.halt.Seat {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) applyVote(body []byte) error {
	seq, err := parseVote(body)
	if err != nil {
		return err
	}
	if seq != g.halt.Seq {
		return fmt.Errorf("%w: a vote on seq %d, the violation is at %d", ErrMalformed, seq, g.halt.Seq)
	}
	g.votes++
	if g.n == 2 {
		// The only other seat has voted: it would host the cheater's bot
		// and play against a hand it sees. The game ends instead.
		g.abandon(g.halt)
	}
	return nil
}

// abandon ends a two-seat game for v (a silent seat or a cheat): the
// voided deal is rolled back, the audited rounds and their totals stand,
// and nobody wins.
func (g *Game) abandon(v *Violation) {
	g.voided = append(g.voided, v)
	g.abandoned = v
	g.halt, g.votes = nil, 0
	g.eng = g.snap
	g.st = stOver
}

// applyAbandon ends a two-seat game whose entitled seat stays silent: the
// other seat (the decider, as Entitled allows) posts it in its place.
// There is no certificate to check: with two seats the decider's own word
// is all there could be, which is why the outcome gives it nothing — no
// bot, no hand to see, no win.
func (g *Game) applyAbandon(env *Envelope) error {
	silent, err := parseAbandon(env.Body)
	if err != nil {
		return err
	}
	seat, _, err := g.turn()
	if err != nil {
		return err
	}
	if g.n != 2 || silent != seat || !g.voidable(seat) || int(env.Author) != decider(seat) {
		return fmt.Errorf("%w: seat %d abandons for seat %d at seq %d, seat %d is entitled", ErrVote, env.Author, silent, env.Seq, seat)
	}
	g.abandon(&Violation{Seq: env.Seq, Seat: seat, Check: CheckSilent, Err: ErrSilent})
	return nil
}

// applyComplaint checks a seat's complaint that a sealed message to it
// does not open. The complainer reveals its round secrets (the round is
// void either way, so its hand becoming public costs it nothing); every
// log checks them against the round keys and re-opens the message with
// them — ciphertext, commitment, token proof, and for a forward every
// token and its originality. A message that fails names its sender; one
// that opens names the complainer. Either way the round halts and is
// voted void like any other cheat.
func (g *Game) applyComplaint(seat int, body []byte) (*Violation, error) {
	c, err := parseComplaint(body)
	if err != nil {
		return nil, err
	}
	if !g.complainable() {
		return nil, fmt.Errorf("%w: a complaint outside a deal", ErrMalformed)
	}
	return judgeComplaint(g.rd.cr, g.rd.deck, g.rd.sealed, seat, c)
}

// applyBotSeat voids the halted deal: the engine goes back to where the
// deal began, the seat at fault gets the bot's key for the rest of the
// game, hosted by the author, and a fresh deal starts.
func (g *Game) applyBotSeat(author int, body []byte) error {
	seat, key, err := parseBotSeat(body)
	if err != nil {
		return err
	}
	if seat != g.halt.Seat || slices.Contains(g.keys, key) {
		return fmt.Errorf("%w: a bot for seat %d with a key already seated", ErrMalformed, seat)
	}
	g.voided = append(g.voided, g.halt)
	g.halt, g.votes = nil, 0
	g.seatBot(seat, key, author)
	g.handable[seat] = false // a cheater's seat is never handed back
	return nil
}

// seatBot gives seat a bot with key, hosted by the peer of seat author,
// goes back to where the deal began and starts a fresh deal.
func (g *Game) seatBot(seat int, key Identity, author int) {
	g.seatBots([]takenSeat{{seat: seat, bot: key}}, author)
}

// seatBots gives each taken seat its bot, hosted by the peer of seat
// author. During a deal it goes back to where the deal began and starts a
// fresh one; during the acknowledgements the bots simply acknowledge.
func (g *Game) seatBots(taken []takenSeat, author int) {
	host := g.peerOf(author)
	for _, t := range taken {
		g.keys[t.seat] = t.bot
		g.botHost[t.seat] = host
	}
	if g.st == stAcks {
		return
	}
	g.eng = g.snap
	g.st = stKeys
	g.startDeal()
}

// applyVoidSilent takes over the seats of the devices gone: the seat
// entitled at this seq stays silent, and the certificate carries a vote
// from every seat still played, each for this table, seq and previous
// envelope and against the entitled seat. Every seat without a vote (the
// silent one first) gets the bot key the body names, hosted by the
// decider's device; the decider (the author) is one of the voters,
// normally the lowest (see Peer.decider). During
// a deal the deal is rolled back and dealt again, as after a BotSeat.
func (g *Game) applyVoidSilent(env *Envelope) error {
	vs, err := parseVoidSilent(env.Body)
	if err != nil {
		return err
	}
	seat, _, err := g.turn()
	if err != nil {
		return err
	}
	if g.n == 2 || vs.silent != seat || !g.voidable(seat) {
		return fmt.Errorf("%w: seat %d voids seat %d at seq %d, seat %d is entitled", ErrVote, env.Author, vs.silent, env.Seq, seat)
	}
	if err := g.checkCertificate(vs, env.Prev); err != nil {
		return err
	}
	if !slices.Contains(vs.voters(), int(env.Author)) {
		return fmt.Errorf("%w: seat %d posts a void it did not vote for", ErrVote, env.Author)
	}
	// A takeover voted by a majority of the seats would win any comparison
	// of branches (Peer.checkDiverged): the guard lets it through at once.
	if g.guard != nil && 2*len(vs.votes) <= g.n && env.Hash() != g.guardAllow {
		for _, t := range vs.taken {
			if g.keys[g.peerOf(t.seat)] == *g.guard {
				return fmt.Errorf("%w: the void at seq %d takes over seat %d, which this device plays", ErrFenced, env.Seq, t.seat)
			}
		}
	}
	if g.halt != nil {
		// A voter went silent during the vote on a cheat: the round is
		// void for the cheat, as the vote would have made it, and the
		// seat at fault, which cannot vote, is among the seats taken.
		cheat := g.halt
		g.voided = append(g.voided, cheat)
		g.halt, g.votes = nil, 0
		g.seatBots(vs.taken, int(env.Author))
		for _, t := range vs.taken {
			g.handable[t.seat] = t.seat != cheat.Seat
		}
		return nil
	}
	v := &Violation{Seq: env.Seq, Seat: seat, Check: CheckSilent, Err: ErrSilent}
	if g.st == stReveal {
		// Every trick is played: the reveal is what lets the others audit
		// this seat's hand (discards, passes, following suit), so staying
		// silent here is how a cheat the audit would catch escapes it. It
		// is recorded as a cheat. The round is void for every seat, not
		// only the withholder: without its hand, not even the tricks are
		// known to be legal (a renege changes who won them).
		v.Check, v.Err = CheckWithheld, ErrWithheld
	}
	g.voided = append(g.voided, v)
	g.seatBots(vs.taken, int(env.Author))
	for _, t := range vs.taken {
		// A seat taken over for silence may be handed back; the seat of
		// a withheld reveal, a cheat, may not.
		g.handable[t.seat] = !(t.seat == seat && v.Check == CheckWithheld)
	}
	return nil
}

// checkCertificate checks a VoidSilent's certificate against the state at
// seq g.next, whose previous envelope hashes to prev: at least one vote,
// voters in increasing seat order, each vote valid (checkVote); the seats
// taken are exactly the seats without a vote; a device takes all its
// seats with it (a voter's host votes, a taken seat's host is taken); and
// every bot key is new.
func (g *Game) checkCertificate(vs *voidSilent, prev Hash) error {
	if len(vs.votes) == 0 {
		return fmt.Errorf("%w: a void without votes", ErrVote)
	}
	voted := make([]bool, g.n)
	for i, v := range vs.votes {
		if i > 0 && v.Voter <= vs.votes[i-1].Voter {
			return fmt.Errorf("%w: vote %d is seat %d's, after seat %d's", ErrVote, i, v.Voter, vs.votes[i-1].Voter)
		}
		if err := g.checkVote(v, prev); err != nil {
			return err
		}
		voted[v.Voter] = true
	}
	var want []int
	for s := range g.n {
		if !voted[s] {
			want = append(want, s)
		}
	}
	if len(vs.taken) != len(want) {
		return fmt.Errorf("%w: %d seats taken over, %d seats have no vote", ErrVote, len(vs.taken), len(want))
	}
	keys := map[Identity]bool{}
	for i, t := range vs.taken {
		if t.seat != want[i] {
			return fmt.Errorf("%w: seat %d taken over, seat %d has no vote", ErrVote, t.seat, want[i])
		}
		if slices.Contains(g.keys, t.bot) || keys[t.bot] {
			return fmt.Errorf("%w: a bot for seat %d with a key already seated", ErrMalformed, t.seat)
		}
		keys[t.bot] = true
	}
	for s := range g.n {
		if h := g.peerOf(s); voted[s] != voted[h] {
			return fmt.Errorf("%w: seat %d and its host, seat %d, are not both present or both gone", ErrVote, s, h)
		}
	}
	return nil
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

// Abandoned returns why a two-seat game ended before its end (a seat that
// stayed silent, or a cheat), or nil. The game is then over with no
// winner; the audited rounds and their totals stand.
func (g *Game) Abandoned() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.abandoned
}

// Voided returns the violations whose rounds were voided, in order.
func (g *Game) Voided() []*Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.voided)
}

// Results returns the audited rounds so far.
func (g *Game) Results() []RoundResult {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]RoundResult, len(g.results))
	for i, r := range g.results {
		out[i] = r
		out[i].Points, out[i].Totals = slices.Clone(r.Points), slices.Clone(r.Totals)
		out[i].Teams = [2][]int{slices.Clone(r.Teams[0]), slices.Clone(r.Teams[1])}
	}
	return out
}

// Violation returns the violation that halted the game, or nil.
func (g *Game) Violation() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.halt
}

// Over reports whether the game has ended (its last round audited).
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
