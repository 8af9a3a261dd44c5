package thegame

import (
	"fmt"
)

// MaxPlayers and MinPlayers bound the seats of a game (G-B1).
const (
	MinPlayers = 1
	MaxPlayers = 5
)

// HandSize returns the hand of each seat for n players: 8 alone, 7 for two,
// 6 for three to five (G-B2).
func HandSize(n int) int {
	switch n {
	case 1:
		return 8
	case 2:
		return 7
	}
	return 6
}

// Config chooses a game.
type Config struct {
	Players int  // 1 to 5
	Extreme bool // play with the commands (G-X1)
}

// Phase is the state of the game.
type Phase uint8

// The phases.
const (
	PhaseDeal Phase = iota // the hands are drawn, seat 0 first
	PhasePlay              // the seat on turn plays cards
	PhaseDraw              // the seat that ended its turn draws
	PhaseOver              // the game has ended
)

var phaseNames = [...]string{"deal", "play", "draw", "over"}

// String returns the phase's name.
func (ph Phase) String() string { return nameOf(phaseNames[:], ph, "phase") }

// Kind is the kind of an Action. The values are append-only.
type Kind uint8

// The kinds of action.
const (
	ActDraw   Kind = iota + 1 // Seat draws Card (the deal and after a turn)
	ActPlay                   // Seat puts Card on Pile
	ActEnd                    // Seat ends its turn
	ActSignal                 // Seat puts Signal on Pile (SignalNone clears it)
)

var kindNames = [...]string{"", "draw", "play", "end", "signal"}

// String returns the kind's record name.
func (k Kind) String() string { return nameOf(kindNames[:], k, "kind") }

// Action is one step of the game.
type Action struct {
	Kind   Kind
	Seat   int
	Card   Card   // ActDraw, ActPlay
	Pile   int    // ActPlay, ActSignal
	Signal Signal // ActSignal
}

// String describes the action, e.g. "seat 1 plays 37 on pile 0".
func (a Action) String() string {
	switch a.Kind {
	case ActDraw:
		return fmt.Sprintf("seat %d draws %s", a.Seat, a.Card)
	case ActPlay:
		return fmt.Sprintf("seat %d plays %s on pile %d", a.Seat, a.Card, a.Pile)
	case ActEnd:
		return fmt.Sprintf("seat %d ends the turn", a.Seat)
	case ActSignal:
		return fmt.Sprintf("seat %d signals %s on pile %d", a.Seat, a.Signal, a.Pile)
	}
	return fmt.Sprintf("%s by seat %d", a.Kind, a.Seat)
}

// Result is how a game ended.
type Result struct {
	CardsLeft int     // cards not played: the hands and the draw pile (G-B7)
	Won       bool    // all 98 played and no command broken
	Broken    Command // the command that could not be kept (Extreme), else CmdNone
}

// Rating is the rule sheet's verdict on a result (G-B8).
type Rating uint8

// The ratings.
const (
	RatingWon       Rating = iota // all 98 cards played
	RatingExcellent               // fewer than 10 cards left
	RatingPlayOn                  // 10 or more left: try again
	RatingLost                    // a command was broken
)

// Rating returns the verdict on r.
func (r Result) Rating() Rating {
	switch {
	case r.Broken != CmdNone:
		return RatingLost
	case r.Won:
		return RatingWon
	case r.CardsLeft < 10:
		return RatingExcellent
	}
	return RatingPlayOn
}

// Words returns the rating in English words, for terminals and records.
func (rt Rating) Words() string {
	switch rt {
	case RatingWon:
		return "all 98 cards are down: you beat the game"
	case RatingExcellent:
		return "fewer than 10 cards left: an excellent result"
	case RatingLost:
		return "a command could not be kept: the game is lost"
	}
	return "10 or more cards left: the game beat you this time"
}

// Game is one game of The Game. Create it with NewGame; change it only with
// Apply.
type Game struct {
	cfg      Config
	handSize int
	phase    Phase

	hands   [MaxPlayers]Cards
	pos     Position // the piles and the turn of the seat on turn
	drawn   int      // cards drawn from the deck, the deal included
	seen    Cards    // the cards drawn so far
	played  Cards    // the cards on the piles
	turn    int
	turns   int // turns begun
	due     int // draws still due in PhaseDraw
	signals [MaxPlayers][NumPiles]Signal
	result  Result
}

// NewGame returns a game waiting for its deal.
func NewGame(cfg Config) (*Game, error) {
	if cfg.Players < MinPlayers || cfg.Players > MaxPlayers {
		return nil, fmt.Errorf("%w: %d players, want %d to %d", ErrBadConfig, cfg.Players, MinPlayers, MaxPlayers)
	}
	g := &Game{cfg: cfg, handSize: HandSize(cfg.Players)}
	g.pos = Position{Piles: startPiles(), DrawPile: DeckSize, Extreme: cfg.Extreme}
	return g, nil
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Phase returns the current phase.
func (g *Game) Phase() Phase { return g.phase }

// Turn returns the seat on turn (in PhaseDraw: the seat drawing).
func (g *Game) Turn() int { return g.turn }

// Turns returns the number of turns begun so far.
func (g *Game) Turns() int { return g.turns }

// HandSize returns the size of a full hand in this game.
func (g *Game) HandSize() int { return g.handSize }

// DrawPile returns the number of cards left to draw.
func (g *Game) DrawPile() int { return DeckSize - g.drawn }

// Drawn returns the number of cards drawn so far, the deal included: the
// position in the deck of the next card to draw.
func (g *Game) Drawn() int { return g.drawn }

// Hand returns seat s's hand in ascending order (nil for a bad seat).
func (g *Game) Hand(s int) []Card {
	if s < 0 || s >= g.cfg.Players {
		return nil
	}
	return g.hand(s).List()
}

// hand returns seat s's live hand.
func (g *Game) hand(s int) Cards {
	if s == g.turn && g.phase == PhasePlay {
		return g.pos.Hand
	}
	return g.hands[s]
}

// Piles returns the four piles.
func (g *Game) Piles() [NumPiles]Pile { return g.pos.Piles }

// Position returns the turn in progress (meaningful in PhasePlay).
func (g *Game) Position() Position { return g.pos }

// Result returns the result; meaningful in PhaseOver.
func (g *Game) Result() Result { return g.result }

// Signals returns seat s's signal on each pile.
func (g *Game) Signals(s int) [NumPiles]Signal {
	if s < 0 || s >= g.cfg.Players {
		return [NumPiles]Signal{}
	}
	return g.signals[s]
}

// NeedDraw returns the seat that must draw next, if a draw is due: during
// the deal (seat 0's whole hand, then seat 1's, …) and after a turn.
func (g *Game) NeedDraw() (seat int, ok bool) {
	switch g.phase {
	case PhaseDeal:
		return g.drawn / g.handSize, true
	case PhaseDraw:
		return g.turn, true
	}
	return 0, false
}

// Feed applies draws taking the cards from deck, where deck[i] is the i-th
// card drawn in the game, until no draw is due. deck must hold at least
// Drawn() cards already drawn in that order plus the ones to draw.
func (g *Game) Feed(deck []Card) error {
	for range DeckSize {
		s, ok := g.NeedDraw()
		if !ok {
			return nil
		}
		if g.drawn >= len(deck) {
			return fmt.Errorf("%w: the deck has no card %d", ErrBadAction, g.drawn)
		}
		if err := g.Apply(Action{Kind: ActDraw, Seat: s, Card: deck[g.drawn]}); err != nil {
			return err
		}
	}
	return nil
}

// Apply validates a and, when it is legal, carries it out. It checks in a
// fixed order: the game is over, the action is malformed, it does not
// belong to this phase, it is not this seat's turn, then the move itself. A
// rejected action leaves the game unchanged.
func (g *Game) Apply(a Action) error {
	if err := g.check(&a); err != nil {
		return err
	}
	switch a.Kind {
	case ActDraw:
		g.doDraw(a.Seat, a.Card)
	case ActPlay:
		g.doPlay(a.Card, a.Pile)
	case ActEnd:
		g.endTurn()
	case ActSignal:
		g.signals[a.Seat][a.Pile] = a.Signal
	}
	return nil
}

func (g *Game) check(a *Action) error {
	if g.phase == PhaseOver {
		return ErrGameOver
	}
	if a.Kind < ActDraw || a.Kind > ActSignal {
		return fmt.Errorf("%w: unknown action kind %d", ErrBadAction, a.Kind)
	}
	if a.Seat < 0 || a.Seat >= g.cfg.Players {
		return fmt.Errorf("%w: seat %d in a game of %d", ErrBadAction, a.Seat, g.cfg.Players)
	}
	switch a.Kind {
	case ActDraw:
		s, ok := g.NeedDraw()
		if !ok {
			return fmt.Errorf("%w: no draw is due in %s", ErrWrongPhase, g.phase)
		}
		if a.Seat != s {
			return fmt.Errorf("%w: seat %d draws, seat %d is due", ErrNotYourTurn, a.Seat, s)
		}
		if !a.Card.Valid() {
			return fmt.Errorf("%w: %d", ErrBadCard, a.Card)
		}
		if g.seen.Has(a.Card) {
			return fmt.Errorf("%w: %s", ErrDrawn, a.Card)
		}
		return nil
	case ActSignal:
		if g.phase == PhaseDeal {
			return fmt.Errorf("%w: signals before the deal is done", ErrWrongPhase)
		}
		if a.Pile < 0 || a.Pile >= NumPiles {
			return fmt.Errorf("%w: no pile %d", ErrBadAction, a.Pile)
		}
		if a.Signal >= numSignals {
			return fmt.Errorf("%w: unknown signal %d", ErrBadAction, a.Signal)
		}
		if g.pos.InForce(CmdSilence) {
			return fmt.Errorf("%w: a no-talking card lies on top", ErrNoTalking)
		}
		return nil
	}
	if g.phase != PhasePlay {
		return fmt.Errorf("%w: %s during %s", ErrWrongPhase, a.Kind, g.phase)
	}
	if a.Seat != g.turn {
		return fmt.Errorf("%w: seat %d, seat %d is on turn", ErrNotYourTurn, a.Seat, g.turn)
	}
	if a.Kind == ActEnd {
		return g.pos.CheckEnd()
	}
	return g.pos.CheckPlay(a.Card, a.Pile)
}

func (g *Game) doDraw(s int, c Card) {
	g.seen = g.seen.Add(c)
	g.hands[s] = g.hands[s].Add(c)
	g.drawn++
	g.pos.DrawPile = DeckSize - g.drawn
	switch g.phase {
	case PhaseDeal:
		if g.drawn == g.cfg.Players*g.handSize {
			g.beginTurn(0)
		}
	case PhaseDraw:
		g.due--
		if g.due == 0 {
			g.nextTurn()
		}
	}
}

func (g *Game) doPlay(c Card, pile int) {
	g.pos.Play(c, pile)
	g.played = g.played.Add(c)
	switch {
	case g.pos.Stopped:
		g.endTurn()
	case !g.pos.Feasible():
		g.over(g.pos.Broken())
	case !g.pos.CanPlayAny():
		// Nothing more can be played: the turn ends by itself.
		g.endTurn()
	}
}

// endTurn closes the turn of the seat on turn and works out its draws
// (G-B3, G-X8).
func (g *Game) endTurn() {
	s := g.turn
	g.hands[s] = g.pos.Hand
	due := g.handSize - g.hands[s].Len()
	if g.pos.InForce(CmdDrawOne) {
		due = min(due, 1)
	}
	due = min(max(due, 0), g.DrawPile())
	if due > 0 {
		g.due = due
		g.phase = PhaseDraw
		return
	}
	g.nextTurn()
}

// nextTurn passes the turn on, skipping seats whose hands are empty once
// the draw pile is used up (G-B5), or ends a won game.
func (g *Game) nextTurn() {
	for i := 1; i <= g.cfg.Players; i++ {
		s := (g.turn + i) % g.cfg.Players
		if g.hands[s].Len() > 0 {
			g.beginTurn(s)
			return
		}
	}
	g.over(CmdNone) // every hand is empty and so is the draw pile
}

func (g *Game) beginTurn(s int) {
	g.turn = s
	g.turns++
	g.phase = PhasePlay
	g.signals[s] = [NumPiles]Signal{}
	g.pos = Position{Piles: g.pos.Piles, Hand: g.hands[s], DrawPile: g.DrawPile(), Extreme: g.cfg.Extreme}
	if !g.pos.CanPlayMin() {
		g.over(CmdNone)
	}
}

// over ends the game and fills in the result; broken is the command that
// could not be kept, if any.
func (g *Game) over(broken Command) {
	if g.phase == PhasePlay {
		g.hands[g.turn] = g.pos.Hand
	}
	left := g.DrawPile()
	for s := range g.cfg.Players {
		left += g.hands[s].Len()
	}
	g.result = Result{CardsLeft: left, Won: left == 0 && broken == CmdNone, Broken: broken}
	g.phase = PhaseOver
}

// Legal returns the plays seat s may make now, then ActEnd when the turn
// may end. It is empty when s is not on turn. Signals are always open to
// every seat unless no talking is in force (CanSignal).
func (g *Game) Legal(s int) []Action {
	if g.phase != PhasePlay || s != g.turn {
		return nil
	}
	var out []Action
	for _, c := range g.pos.Hand.List() {
		for pile := range NumPiles {
			if g.pos.CheckPlay(c, pile) == nil {
				out = append(out, Action{Kind: ActPlay, Seat: s, Card: c, Pile: pile})
			}
		}
	}
	if g.pos.CheckEnd() == nil {
		out = append(out, Action{Kind: ActEnd, Seat: s})
	}
	return out
}

// CanSignal reports whether seats may put signals now: after the deal,
// before the end, and while no no-talking card lies on top (G-S2).
func (g *Game) CanSignal() bool {
	return g.phase != PhaseDeal && g.phase != PhaseOver && !g.pos.InForce(CmdSilence)
}

// Warning tells what a legal play would cost: it returns true when the play
// ends the game because the turn could no longer be completed, with the
// command that could not be kept (CmdNone when the turn could not play its
// minimum). An app asks before such a card is played (G-X2).
func (g *Game) Warning(a Action) (Command, bool) {
	if a.Kind != ActPlay || g.phase != PhasePlay || a.Seat != g.turn || g.pos.CheckPlay(a.Card, a.Pile) != nil {
		return CmdNone, false
	}
	q := g.pos
	q.Play(a.Card, a.Pile)
	if q.Stopped || q.Feasible() {
		return CmdNone, false
	}
	return q.Broken(), true
}
