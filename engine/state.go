package engine

import (
	"fmt"
	"math/bits"
	"slices"
)

// Upper bounds over both editions and every player count. The game state is
// held in fixed arrays of these sizes so that a Game copies with one
// assignment and trick play never allocates.
const (
	maxSeats  = 5
	maxTricks = 16 // Modern 3p: 16 cards a hand
	maxPlays  = 60 // the largest number of cards played in a round
	maxBlocks = 24 // every field of the Modern board
)

// Game is the state of one game of Njet! as one engine knows it. Its only
// state-changing entry point is Apply (DealDeck is a shorthand for a series
// of deals). A Game is not safe for concurrent use; Clone it instead.
type Game struct {
	cfg        Config // Characters is nil here; chars holds them
	chars      [maxSeats]Character
	n          int
	ed         Edition
	handSize   int
	deck       Hand           // the cards in play for this player count
	ones       Hand           // the 1s of the deck in play
	colourMask [8]Hand        // cards of each printed colour, by Colour
	fieldSeat  [maxSeats]int8 // start-row field -> seat holding that character, or -1
	rounds     int            // 0 in the target-score variant

	round  int // 1-based
	dealer int
	phase  Phase
	totals [maxSeats]int

	rs roundState
}

// roundState is everything that is cleared when a new round starts.
type roundState struct {
	board   Board
	blocks  [maxBlocks]Block
	nblocks int
	rules   Rules
	suit    [8]Hand // cards of each suit under the round's rules, by Colour (R-TRICK-1)
	team    [maxSeats]int8
	bonus   int

	known      [maxSeats]Hand // cards known to be in each hand now
	unknown    [maxSeats]int8 // how many cards of each hand this engine does not know
	dealt      [maxSeats]Hand // hands as dealt, where known
	dealtSet   uint8          // bit s: seat s has been dealt
	dealtKnown uint8          // bit s: dealt[s] is known
	located    Hand           // every card whose place this engine knows (known hands, discards, plays)

	acted         uint8 // discard phase: bit s when seat s has chosen
	discards      [maxSeats]Hand
	discardHidden uint8
	passes        [maxSeats]Card // NoCard when none or hidden
	passHidden    uint8
	received      [maxSeats]Card // NoCard when none or hidden

	voids [maxSeats]uint8 // bit c: seat has shown it holds no card of suit Colour c

	plays    [maxPlays]Card // every card played this round, trick after trick
	nplays   int
	leaders  [maxTricks]int8
	winners  [maxTricks]int8
	tricks   int // tricks in this round
	done     int // completed tricks
	trickLen int // cards in the trick under way
	led      Colour
	bestSeat int
	bestRank int // see rankOf
	turn     int
	won      [2]int
	loot     [2]int
	points   [maxSeats]int
	scored   bool
}

// NewGame starts a game: round 1, waiting for the deal. It returns an error
// wrapping ErrBadConfig when cfg is not a valid setup (R-SEAT, R-END).
func NewGame(cfg Config) (*Game, error) {
	e := cfg.Edition
	if !e.Valid() {
		return nil, fmt.Errorf("%w: unknown edition %d", ErrBadConfig, e)
	}
	n := cfg.Players
	if n < e.MinPlayers() || n > e.MaxPlayers() {
		return nil, fmt.Errorf("%w: the %s edition is for %d to %d players, not %d",
			ErrBadConfig, e, e.MinPlayers(), e.MaxPlayers(), n)
	}
	if cfg.FirstDealer < 0 || cfg.FirstDealer >= n {
		return nil, fmt.Errorf("%w: first dealer %d is not a seat", ErrBadConfig, cfg.FirstDealer)
	}
	if cfg.Short && e != Classic {
		return nil, fmt.Errorf("%w: the short game is a Classic variant", ErrBadConfig)
	}
	if cfg.Target < 0 {
		return nil, fmt.Errorf("%w: negative target score %d", ErrBadConfig, cfg.Target)
	}
	if cfg.Short && cfg.Target > 0 {
		return nil, fmt.Errorf("%w: the short game has a fixed number of rounds, not a target", ErrBadConfig)
	}
	g := &Game{n: n, ed: e, handSize: e.HandSize(n)}
	all := e.Characters()
	if cfg.Characters == nil {
		copy(g.chars[:], all[:n])
	} else {
		if len(cfg.Characters) != n {
			return nil, fmt.Errorf("%w: %d characters for %d players", ErrBadConfig, len(cfg.Characters), n)
		}
		for s, c := range cfg.Characters {
			ok := false
			for _, ec := range all {
				ok = ok || ec == c
			}
			if !ok {
				return nil, fmt.Errorf("%w: %s is not a character of the %s edition", ErrBadConfig, c, e)
			}
			for t := 0; t < s; t++ {
				if cfg.Characters[t] == c {
					return nil, fmt.Errorf("%w: seats %d and %d both play the %s", ErrBadConfig, t, s, c)
				}
			}
			g.chars[s] = c
		}
	}
	cfg.Characters = nil
	g.cfg = cfg
	for f, c := range all {
		g.fieldSeat[f] = -1
		for s := 0; s < n; s++ {
			if g.chars[s] == c {
				g.fieldSeat[f] = int8(s)
			}
		}
	}
	for _, c := range e.Deck(n) {
		g.deck = g.deck.Add(c)
		g.colourMask[c.Colour()] = g.colourMask[c.Colour()].Add(c)
		if c.Value() == 1 {
			g.ones = g.ones.Add(c)
		}
	}
	g.rounds = roundsOf(cfg)
	g.round = 1
	g.dealer = cfg.FirstDealer
	g.resetRound()
	return g, nil
}

// Rounds is the number of rounds a game under c lasts (R-END), 0 in the
// target-score variant, where it ends after the round in which a seat's
// total reaches the target.
func (c Config) Rounds() int { return roundsOf(c) }

// roundsOf is the number of rounds of a game (R-END); 0 with a target score.
func roundsOf(cfg Config) int {
	if cfg.Target > 0 {
		return 0
	}
	switch {
	case cfg.Edition == Classic && cfg.Players == 4 && cfg.Short:
		return 4
	case cfg.Edition == Classic && cfg.Players == 4:
		return 8
	case cfg.Edition == Classic && cfg.Short:
		return 3
	case cfg.Edition == Classic:
		return 6
	case cfg.Players == 3:
		return 9
	case cfg.Players == 5:
		return 10
	}
	return 8
}

// resetRound clears the round state and blocks the start-row fields of the
// characters nobody holds (R-BOARD-1).
func (g *Game) resetRound() {
	g.rs = roundState{bonus: -1, turn: -1, bestSeat: -1}
	for f := 0; f < g.ed.Fields(RowStart); f++ {
		if g.fieldSeat[f] < 0 {
			g.rs.board = g.rs.board.Block(RowStart, Field(f))
		}
	}
	for s := range g.rs.team {
		g.rs.team[s] = -1
		g.rs.passes[s] = NoCard
		g.rs.received[s] = NoCard
	}
	g.phase = PhaseDeal
}

// nextRound starts the next round: the deal passes one seat left (R-END).
func (g *Game) nextRound() {
	g.round++
	g.dealer = (g.dealer + 1) % g.n
	g.resetRound()
}

// Clone returns an independent copy of g.
func (g *Game) Clone() *Game {
	c := *g
	return &c
}

// Phase is the current phase.
func (g *Game) Phase() Phase { return g.phase }

// Config returns the configuration the game was created with, with the
// characters filled in.
func (g *Game) Config() Config {
	c := g.cfg
	c.Characters = append([]Character(nil), g.chars[:g.n]...)
	return c
}

// Round is the current round, 1-based.
func (g *Game) Round() int { return g.round }

// Rounds is the number of rounds in the game, 0 in the target-score variant.
func (g *Game) Rounds() int { return g.rounds }

// Dealer is the seat that deals the current round.
func (g *Game) Dealer() int { return g.dealer }

// Totals returns each seat's running total.
func (g *Game) Totals() []int { return append([]int(nil), g.totals[:g.n]...) }

// Rules returns the rules of the round, valid from PhaseTeams on.
func (g *Game) Rules() Rules { return g.rs.rules }

// Turn is the one seat that must act now, or -1 when several seats may act
// (PhaseDeal, PhaseDiscard) or none (PhaseRoundOver, PhaseGameOver).
func (g *Game) Turn() int {
	switch g.phase {
	case PhaseNjet, PhaseTeams, PhaseTricks:
		return g.rs.turn
	}
	return -1
}

// Waiting lists every seat whose action is awaited, in seat order. At
// PhaseRoundOver that is every seat: any of them may bring the next deal.
func (g *Game) Waiting() []int { return g.AppendWaiting(nil) }

// AppendWaiting appends the seats Waiting lists to dst and returns it.
func (g *Game) AppendWaiting(dst []int) []int {
	switch g.phase {
	case PhaseDeal:
		for s := 0; s < g.n; s++ {
			if g.rs.dealtSet&(1<<s) == 0 {
				dst = append(dst, s)
			}
		}
	case PhaseDiscard:
		for s := 0; s < g.n; s++ {
			if g.rs.acted&(1<<s) == 0 {
				dst = append(dst, s)
			}
		}
	case PhaseRoundOver:
		for s := 0; s < g.n; s++ {
			dst = append(dst, s)
		}
	case PhaseNjet, PhaseTeams, PhaseTricks:
		dst = append(dst, g.rs.turn)
	}
	return dst
}

// Winners lists, at PhaseGameOver, every seat with the highest total (ties
// share the win, R-END); nil before.
func (g *Game) Winners() []int {
	if g.phase != PhaseGameOver {
		return nil
	}
	return Leaders(g.totals[:g.n])
}

// Leaders lists every seat with the highest of totals, in seat order (ties
// share the lead, R-END); nil for no totals.
func Leaders(totals []int) []int {
	if len(totals) == 0 {
		return nil
	}
	best := slices.Max(totals)
	var out []int
	for s, t := range totals {
		if t == best {
			out = append(out, s)
		}
	}
	return out
}

// njetStarter is the seat that places the first block (R-NJET): the dealer's
// left neighbour in the Classic edition, the dealer in the Modern one.
func (g *Game) njetStarter() int {
	if g.ed == Classic {
		return (g.dealer + 1) % g.n
	}
	return g.dealer
}

// discardCount is how many cards each seat discards under rule d.
func discardCount(d DiscardRule) int {
	switch d {
	case Discard1, Discard1NoOnes:
		return 1
	case Discard2:
		return 2
	}
	return 0
}

// onlyFree is the one free field of a row with a single free field.
func (b Board) onlyFree(e Edition, r Row) Field {
	all := uint8(1)<<e.Fields(r) - 1
	return Field(bits.TrailingZeros8(all &^ b.blocked[r]))
}
