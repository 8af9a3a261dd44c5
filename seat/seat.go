package seat

import (
	"context"
	"errors"
	"time"

	"github.com/njetlan/njet/engine"
)

// Seat is a person's seat at a local or LAN game. One goroutine calls Next;
// Choose, VoteVoid and Leave may be called from any other goroutine and
// never wait on the network.
type Seat interface {
	// Next returns the next event, in order, none dropped. It blocks until
	// one is ready or ctx ends (then it returns ctx's error). After GameOver
	// it returns io.EOF; after Leave, ErrLeft.
	Next(ctx context.Context) (Event, error)
	// Choose answers the prompt of YourTurn number seq with one of its Legal
	// actions. It returns an error wrapping ErrWithdrawn when seq is not the
	// open prompt, ErrIllegal (wrapping the engine's reason) when a is not a
	// legal answer, ErrLeft after Leave.
	Choose(seq uint64, a engine.Action) error
	// VoteVoid votes to void the round of a silent seat. A local game has no
	// silent seats: it returns ErrCannotVote.
	VoteVoid() error
	// Leave ends this seat's part in the game; the game stays resumable
	// (Local.Save, or the LAN device's store).
	Leave() error
}

// Errors of Seat methods; test with errors.Is.
var (
	ErrWithdrawn  = errors.New("seat: the question was withdrawn")
	ErrIllegal    = errors.New("seat: not a legal answer")
	ErrCannotVote = errors.New("seat: no vote is open")
	ErrLeft       = errors.New("seat: the seat has left the game")
	ErrBadConfig  = errors.New("seat: bad game configuration")
	ErrBadSave    = errors.New("seat: the saved game cannot be read")
)

// Event is one thing that happened at the table, as the seat may know it.
// It is one of the types below.
type Event interface{ event() }

// Sync carries the whole state. It is the first event of every Seat, and
// comes again whenever a change cannot be told move by move.
type Sync struct{ State State }

// Dealt starts a round: the person's hand as dealt. Rounds is 0 in the
// target-score variant.
type Dealt struct {
	Round, Rounds, Dealer int
	Hand                  engine.Hand
	View                  engine.View // the person's view after the deal
}

// Moved is one move of any seat, the person's included. Another seat's
// discard or pass comes Hidden, without its cards.
type Moved struct {
	Action engine.Action
	View   engine.View // the person's view after the move
}

// RulesSet tells the rules of the round once the Njet phase is over.
type RulesSet struct{ Rules engine.Rules }

// TeamsSet tells the teams: Team[s] is 0 for the start player's team, 1 for
// the other. Bonus is the seat whose points double (the bonus card, or the
// Classic three-player soloist), or -1.
type TeamsSet struct {
	Team  []int
	Bonus int
}

// PassReceived tells the card the person received from the right neighbour
// From (Modern pass-left).
type PassReceived struct {
	From int
	Card engine.Card
}

// TrickWon tells a complete trick: N counts from 1 within the round, Why
// says which card won it and why.
type TrickWon struct {
	N     int
	Trick engine.Trick
	Why   engine.Win
}

// Prompt is a question to the person: the Legal answers to a Kind of move,
// with the View they were computed from. Seq names the question for Choose.
type Prompt struct {
	Seq   uint64
	Kind  engine.Kind
	View  engine.View
	Legal []engine.Action
}

// YourTurn asks the person to choose.
type YourTurn struct{ Prompt Prompt }

// Withdrawn tells that the question Seq is no longer open (a LAN game moved
// past it).
type Withdrawn struct{ Seq uint64 }

// Turn tells whose move the table waits for. Kind is the kind of move, or 0
// while the table does work that is nobody's move (a LAN shuffle); the
// Wait says the rest, at a LAN table.
type Turn struct {
	Wait
	Kind engine.Kind
}

// Wait is what a LAN table waits for, at every game, and what its person
// is told of it: the Seat, Since when, how long it may stay silent
// (Patience), whether the person may vote for a bot there (Voidable: its
// device has been away for longer than the Patience), the Votes so far of
// the Needed, and whether the person's own vote is among them.
type Wait struct {
	Seat     int
	Since    time.Time
	Patience time.Duration
	Voidable bool
	Votes    int
	Needed   int
	Voted    bool
	// CutOff is set once the device has heard none of the other devices
	// for CutOffAfter: since when. It is then most likely the one cut off
	// (its Wi-Fi is down), and a vote on another seat would reach nobody.
	// Unheard is then for how long, as the peer measured it when it made
	// its view.
	CutOff  time.Time
	Unheard time.Duration
	// Until, while the person's own move is asked at a table with a
	// clock, is when their time runs out and their bot moves for them;
	// ClockOuts counts the moves their bot made so far, their time having
	// run out (it grows as the bot makes one).
	Until     time.Time
	ClockOuts int
}

// CutOffAfter is how long a device at a LAN table hears none of the other
// devices (at least two) before its person is told that it is most likely
// cut off itself: more than three of the announcements each device makes
// every few seconds.
const CutOffAfter = 10 * time.Second

// RoundResult is one scored round.
type RoundResult struct {
	Round  int // 1-based
	Dealer int
	Rules  engine.Rules
	Teams  [2][]int // team 0 is the start player's team
	Tricks [2]int   // per team
	Loot   [2]int   // per team: the opponents' 1s taken
	Bonus  int      // the seat whose points double, or -1
	Points []int    // per seat
	Totals []int    // per seat, after this round
}

// RoundOver tells a scored round.
type RoundOver struct {
	Result RoundResult
	View   engine.View // the person's view with the round scored
}

// Violation names a seat that broke the protocol and the check it failed.
type Violation struct {
	Seat  int
	Check string
}

// Audited tells that a LAN round's deal, proofs and plays were checked.
type Audited struct{ Round int }

// Halted tells that a LAN round stopped at a proven cheat; Votes of Needed
// have voted to void it.
type Halted struct {
	Cheat         *Violation
	Votes, Needed int
}

// RoundVoided tells that a LAN round was voided and dealt again: Fault is
// the seat at fault, and BotHost the device that hosts the bot playing it
// from now on (-1 when none).
type RoundVoided struct {
	Fault   *Violation
	BotHost int
}

// RoundKept tells that the device of Seat left during a LAN round's
// tricks and the round goes on: a bot on the device of seat Host plays
// the seat with its cards, recovered from the escrow for that device
// alone. No trick is lost.
type RoundKept struct{ Seat, Host int }

// Watching tells that a bot hosted by BotHost now plays the person's seat:
// the person only watches. Back tells that the seat comes back (it was
// taken while the device was away, not from a cheater): the device asks
// for it at the next deal, and Returned follows when it is the person's
// again.
type Watching struct {
	BotHost int
	Back    bool
}

// Returned tells that the person's seat, which a bot played while their
// device was away, is theirs again: they are asked from now on.
type Returned struct{}

// GameOver ends the game: the final totals and every seat with the highest
// (ties share the win).
type GameOver struct{ Totals, Winners []int }

func (RoundKept) event()    {}
func (Sync) event()         {}
func (Dealt) event()        {}
func (Moved) event()        {}
func (RulesSet) event()     {}
func (TeamsSet) event()     {}
func (PassReceived) event() {}
func (TrickWon) event()     {}
func (YourTurn) event()     {}
func (Withdrawn) event()    {}
func (Turn) event()         {}
func (RoundOver) event()    {}
func (Audited) event()      {}
func (Halted) event()       {}
func (RoundVoided) event()  {}
func (Watching) event()     {}
func (Returned) event()     {}
func (GameOver) event()     {}

// Who says who plays a seat.
type Who uint8

// The players of a seat.
const (
	You       Who = iota + 1 // the person of this Seat
	Person                   // another person (LAN)
	Bot                      // a bot on this device, or the bot of a seat's own device
	HostedBot                // a bot hosted by another seat's device (a voided LAN seat)
)

// SeatInfo describes one seat of the table.
type SeatInfo struct {
	Name      string // empty when unknown: front ends name the seat themselves
	Character engine.Character
	Who       Who
	Bot       string // the bot's kind ("random", "heuristic") when Who is Bot or HostedBot
	Host      int    // the hosting seat when Who is HostedBot, else -1
}

// State is everything a front end draws.
type State struct {
	View     engine.View
	You      int
	Seats    []SeatInfo
	Rounds   int           // rounds in the game, 0 in the target-score variant
	Target   int           // the score that ends a target-score game, else 0
	Results  []RoundResult // the scored rounds so far
	Prompt   *Prompt       // the open question, if any
	Turn     *Turn         // whom the table waits for, if anyone
	Halt     *Violation    // a LAN round halted at a cheat
	Watching bool          // a bot plays the person's seat
	Back     bool          // and the device asks for it back (Watching.Back)
	Audited  bool          // LAN rounds are audited; false for a local game
	Over     bool          // the game is over
}
