package engine

// Config sets up a game.
type Config struct {
	Edition Edition
	Players int
	// Characters holds each seat's character, distinct, of the edition. Nil
	// means the edition's first Players characters in order. Characters no seat
	// holds start blocked on the start row for the whole game (R-BOARD-1).
	Characters []Character
	// FirstDealer is the seat that deals the first round.
	FirstDealer int
	// Short plays the Classic short game (4 rounds with 4 players, 3 with 3).
	// It is an error for Modern.
	Short bool
	// Target, when positive, plays the target-score variant: the game ends
	// after the round in which some seat's total reaches Target (R-END).
	Target int
}

// Phase is a step of a round.
type Phase uint8

// The phases, in order. Teams is skipped with 2 players, Discard when the
// discard rule is Njet.
const (
	PhaseDeal      Phase = iota // waiting for every seat's hand (ActDeal)
	PhaseNjet                   // seats block fields in turn (ActBlock)
	PhaseTeams                  // the start player forms the teams (ActTeam)
	PhaseDiscard                // every seat discards or passes, in any order (ActDiscard, ActPass)
	PhaseTricks                 // trick play (ActPlay)
	PhaseRoundOver              // the round is scored; ActDeal starts the next one
	PhaseGameOver               // the last round is scored
)

var phaseNames = [...]string{"deal", "njet", "teams", "discard", "tricks", "round-over", "game-over"}

// String names the phase.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Kind is the kind of an action.
type Kind uint8

// The action kinds.
const (
	ActDeal    Kind = iota + 1 // Seat receives Hand (or a hidden hand of the edition's hand size)
	ActBlock                   // Seat blocks Field of Row
	ActTeam                    // the start player names Partners (and Bonus with 5 players)
	ActDiscard                 // Seat discards Cards[0] (and Cards[1] under Discard2)
	ActPass                    // Seat passes Card to its left neighbour
	ActPlay                    // Seat plays Card into the current trick
)

var kindNames = [...]string{"?", "deal", "block", "team", "discard", "pass", "play"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Action is one move. It is a small value: unused fields are ignored. The
// fields are ordered so that an Action packs into 32 bytes.
type Action struct {
	Kind Kind
	// Row and Field name the blocked field (ActBlock).
	Row   Row
	Field Field
	// Partners has bit s set for every seat s that joins the start player's
	// team (ActTeam). With 3 players an empty set means the start player plays
	// alone; otherwise the seat left out plays alone.
	Partners uint8
	// Cards are the discarded cards (ActDiscard); Cards[1] is NoCard unless
	// the rule is Discard2.
	Cards [2]Card
	// Card is the passed or played card (ActPass, ActPlay).
	Card Card
	// Hidden marks an action whose cards this engine may not know: another
	// seat's hand (ActDeal), discard (ActDiscard) or passed card (ActPass).
	// A played card is never hidden.
	Hidden bool
	Seat   int
	// Hand is the dealt hand (ActDeal).
	Hand Hand
	// Bonus is the seat of the two-player team that receives the bonus card
	// (ActTeam with 5 Modern players); ignored otherwise.
	Bonus int
}

// Block is one placed Njet marker.
type Block struct {
	Seat  int
	Row   Row
	Field Field
}

// Rules are the free fields once the Njet phase is over.
type Rules struct {
	Start     Character
	StartSeat int
	Discard   DiscardRule
	Trump     Colour
	Super     Colour // NoColour: no supertrump
	Points    int    // 1..4 or -2
}

// Play is one card played into a trick.
type Play struct {
	Seat int
	Card Card
}

// Trick is a trick, complete or under way.
type Trick struct {
	Leader int
	Plays  []Play
	Winner int    // -1 while under way
	Loot   []Card // the 1s the winning team gains (R-LOOT)
}

// Score is the result of one round.
type Score struct {
	// Per team; team 0 is the start player's team.
	Tricks [2]int
	Loot   [2]int
	// Points per seat, after doubling (R-SCORE).
	Points []int
}

// RoundHistory is everything this engine saw of one round, for records and
// audits. Hands of seats this engine never knew are zero with Known false.
type RoundHistory struct {
	Round    int // 1-based
	Dealer   int
	Dealt    []Hand // per seat, as dealt (before discards and passes)
	Known    []bool // per seat: Dealt[s] is known
	Unused   Hand   // cards of the deck in play dealt to nobody (known only with every hand known)
	Blocks   []Block
	Rules    Rules
	Teams    [2][]int // team 0 is the start player's team
	Bonus    int      // seat that doubles (bonus card, or Classic 3p solo), or -1
	Discards []Hand   // per seat (empty when unknown or none)
	Passes   []Card   // per seat, NoCard when none or unknown
	Tricks   []Trick
	Score    Score
	Totals   []int // running totals after this round
}

// Reveal is what every seat discloses after a round so that anyone can audit
// it: the hand as dealt, the discards and the passed card.
type Reveal struct {
	Dealt    []Hand
	Discards []Hand
	Passes   []Card
}

// View is what one seat may know.
type View struct {
	Edition    Edition
	Players    int
	Seat       int
	Round      int // 1-based
	Rounds     int // rounds in the game (0 in the target-score variant)
	Dealer     int
	Phase      Phase
	Characters []Character
	Board      Board
	Blocks     []Block
	Rules      Rules // valid from PhaseTeams on
	Team       []int // per seat: 0 start player's team, 1 other, -1 before teams
	Bonus      int   // seat that doubles, or -1
	Hand       Hand  // this seat's cards now
	HandSizes  []int
	Discarded  Hand    // this seat's discards
	Passed     Card    // the card this seat passed, or NoCard
	Received   Card    // the card this seat received, or NoCard
	Trick      Trick   // the trick under way
	Tricks     []Trick // completed tricks of this round
	TricksWon  [2]int
	Loot       [2]int
	Voids      []uint8 // per seat: bit c set when the seat has shown it has no card of suit Colour c
	Turn       int     // the seat to act, or -1 (several in PhaseDiscard, none at round end)
	Waiting    []int   // every seat whose action is awaited
	Score      *Score  // last round's score at PhaseRoundOver and PhaseGameOver
	Totals     []int
}
