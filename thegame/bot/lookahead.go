package bot

import (
	"math"
	"math/rand/v2"

	"github.com/njetlan/njet/thegame"
)

// Lookahead tells how a player alone weighs the cheapest plans of its turn
// by playing the rest of the game after each of them. Alone, the only
// thing hidden is the order of the draw pile, every order of the unseen
// cards as likely as another: the player deals the same few orders after
// every plan and plays each to the end with a quicker turn search. A plan
// replaces the cheapest only when it leaves fewer cards on those orders
// by a clear margin, so that the noise of a few orders does not undo what
// the judgement knows.
type Lookahead struct {
	// Plans is how many of the cheapest plans are weighed; fewer than two
	// turn the lookahead off.
	Plans int
	// Orders bounds the orders of the draw pile each plan is played on;
	// Least is how many at least, Turns the turns of play-outs after
	// which no further order is dealt. The budget counts turns, not time,
	// so that the same view always gives the same play.
	Orders, Least, Turns int
	// Race is how many orders a plan is played on before it is given up
	// when it has not left fewer cards than the cheapest so far; 0 never
	// gives one up.
	Race int
	// Beam is how many of the cheapest plays the play-outs' turn search
	// tries for each card of the turn's duty.
	Beam int
	// Sure is how many standard errors of the difference on the same
	// orders a plan must leave fewer cards by to replace the cheapest.
	Sure float64
	// MaxDraw is the largest draw pile at which the lookahead is used.
	MaxDraw int
	// LastPlans is how many plans are weighed when the turn most likely
	// draws every card left, so that nothing is hidden after it.
	LastPlans int
	// ExactEnd ends a play-out of the base game with the longest run once
	// the draw pile is empty, instead of playing it turn by turn.
	ExactEnd bool
	// Spread is how many orders each plan should be played on within
	// Turns early in the game: it bounds how many plans are weighed.
	Spread int
	// Lost is what a game not won counts besides its cards left.
	Lost float64
}

// ExpertLookahead returns how the expert looks ahead at a table of players
// seats, in the Extreme game or not: alone only (with others the hidden
// hands and their players would have to be guessed too).
func ExpertLookahead(players int, extreme bool) Lookahead {
	if players != 1 {
		return Lookahead{}
	}
	return Lookahead{Plans: 8, LastPlans: 24, Orders: 64, Least: 3, Turns: 1300, Spread: 8, Race: 3, Beam: 4, Sure: 2, Lost: 4, MaxDraw: 98, ExactEnd: true}
}

// NewExpertLookahead returns an expert with the given weights, judgement
// and lookahead.
func NewExpertLookahead(signals bool, w Weights, jg Judgement, look Lookahead) *Coop {
	b := NewExpertWeights(signals, w, jg)
	b.look = look
	return b
}

// plan returns the plays of the turn ahead for a player alone at p: the
// cheapest plan of j's search, or one of the next cheapest that leaves
// clearly fewer cards when the game is played on after each.
func (look *Lookahead) plan(v *thegame.View, j *judge, p *thegame.Position) []thegame.Action {
	j.keep = look.Plans
	if look.Turns > 0 {
		// Early in the game a play-out is long: weigh fewer plans, so that
		// each is still played on a few orders within the budget.
		length := (v.DrawPile+v.HandSize)*10/22 + 1
		j.keep = min(look.Plans, max(2, look.Turns/(max(look.Spread, 1)*length)))
	}
	if v.DrawPile <= 1 || v.DrawPile <= 2 && !v.Extreme {
		// The turn most likely draws every card left: then nothing is
		// hidden after it, and one play-out tells all of a plan.
		j.keep = max(j.keep, look.LastPlans)
	}
	j.search(p, 0)
	if len(j.top) < 2 {
		return j.bestSeq
	}
	unseen := j.others.List()
	orders := look.Orders
	known := true
	for i := range j.top {
		e := &j.top[i].end
		due := v.HandSize - e.Hand.Len()
		if e.InForce(thegame.CmdDrawOne) {
			due = min(due, 1)
		}
		known = known && due >= len(unseen)
	}
	if known {
		orders = 1 // nothing hidden after the turn
	}
	on := &playOn{w: j.w, jg: j.jg, handSize: v.HandSize, extreme: v.Extreme, beam: look.Beam, least: j.least, exactEnd: look.ExactEnd}
	rng := rand.New(rand.NewPCG(viewSeed(v), 0x746865))
	// Each plan after the first is weighed by its difference to the first
	// on the same orders.
	type weighed struct {
		alive   thegame.Cards
		sum, sq float64
		n       int
		dropped bool
	}
	ws := make([]weighed, len(j.top))
	for i := range j.top {
		ws[i].alive = j.alive
		for _, a := range j.top[i].plays {
			ws[i].alive = ws[i].alive.Remove(a.Card)
		}
	}
	play := func(i int, deck []thegame.Card) float64 {
		n, won := on.game(j.top[i].end, deck, ws[i].alive)
		if !won {
			return float64(n) + look.Lost
		}
		return float64(n)
	}
	deck := make([]thegame.Card, len(unseen))
	for n := 0; n < orders; n++ {
		if n >= look.Least && on.turns >= look.Turns {
			break
		}
		copy(deck, unseen)
		rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		first := play(0, deck)
		live := 0
		for i := 1; i < len(ws); i++ {
			w := &ws[i]
			if w.dropped {
				continue
			}
			d := play(i, deck) - first
			w.sum, w.sq, w.n = w.sum+d, w.sq+d*d, w.n+1
			if look.Race > 0 && w.n >= look.Race && w.sum >= 0 {
				w.dropped = true
				continue
			}
			live++
		}
		if live == 0 {
			break
		}
	}
	best, bestMean := 0, 0.0
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		if w.n == 0 {
			continue
		}
		n := float64(w.n)
		mean := w.sum / n
		se := 0.0
		if n > 1 {
			se = math.Sqrt(max(w.sq/n-mean*mean, 0) / (n - 1))
		}
		if mean+look.Sure*se < 0 && mean < bestMean {
			best, bestMean = i, mean
		}
	}
	return j.top[best].plays
}

// viewSeed returns a number that only what v shows decides: the seed of
// the orders a lookahead deals.
func viewSeed(v *thegame.View) uint64 {
	h := uint64(14695981039346656037)
	mix := func(x uint64) { h = (h ^ x) * 1099511628211 }
	for _, c := range v.Hand {
		mix(uint64(c))
	}
	mix(v.Played[0])
	mix(v.Played[1])
	for _, pl := range v.Piles {
		mix(uint64(pl.Top))
	}
	mix(uint64(v.Turns))
	mix(uint64(v.PlayedThisTurn))
	mix(uint64(v.DrawPile))
	return h
}

// playOn plays the rest of a game alone on a known order of the draw
// pile, each turn planned by the expert's turn search narrowed to a beam.
type playOn struct {
	w        Weights
	jg       *Judgement
	handSize int
	extreme  bool
	beam     int
	least    float64 // jg.leastStep()
	turns    int     // turns played so far
	exactEnd bool
	runs     runs
	j        judge
}

// game plays from p, a turn just ended (its draws not made), with the draw
// pile deck, next card first, and alive the unplayed cards (hand and draw
// pile). It returns the cards left at the end and whether the game was
// won.
func (o *playOn) game(p thegame.Position, deck []thegame.Card, alive thegame.Cards) (left int, won bool) {
	for {
		due := o.handSize - p.Hand.Len()
		if p.InForce(thegame.CmdDrawOne) {
			due = min(due, 1)
		}
		due = min(max(due, 0), len(deck))
		for _, c := range deck[:due] {
			p.Hand = p.Hand.Add(c)
		}
		deck = deck[due:]
		if p.Hand.Len() == 0 {
			return 0, true
		}
		p.DrawPile, p.Played, p.OnPiles, p.Three, p.Stopped = len(deck), 0, 0, false, false
		if len(deck) == 0 && !o.extreme && o.exactEnd {
			// Alone with the draw pile gone, the longest run is what the
			// game can still do.
			o.runs.reset(20000)
			if n := o.runs.best(&p); o.runs.budget > 0 {
				left := p.Hand.Len() - max(n, 0)
				return left, left == 0
			}
		}
		if !p.CanPlayMin() {
			return p.Hand.Len() + len(deck), false
		}
		if !o.turn(&p, &alive) {
			// No plan completes the turn: the game ends with the first
			// card laid.
			return p.Hand.Len() + len(deck) - 1, false
		}
	}
}

// turn plays one turn from p and reports false when the game ends in it:
// no plan completes the turn.
func (o *playOn) turn(p *thegame.Position, alive *thegame.Cards) bool {
	o.turns++
	j := &o.j
	if j.reached == nil {
		j.reached = &reachedTable{}
	}
	j.reached.reset()
	j.w, j.jg, j.least, j.extreme, j.maxNodes, j.beam = o.w, o.jg, o.least, o.extreme, 20000, o.beam
	j.end = p.DrawPile == 0
	j.alive = *alive
	j.others = thegame.Cards{alive[0] &^ p.Hand[0], alive[1] &^ p.Hand[1]}
	j.nodes, j.found, j.seq = 0, false, j.seq[:0]
	j.search(p, 0)
	if !j.found {
		return false
	}
	for _, a := range j.bestSeq {
		p.Play(a.Card, a.Pile)
		*alive = alive.Remove(a.Card)
	}
	return true
}
