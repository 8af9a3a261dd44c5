package bot

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/njetlan/njet/engine"
)

// errWorld is wrapped when no full deal fits what a seat has seen: the view
// contradicts itself (it never does for a view the engine built).
var errWorld = errors.New("bot: no deal fits the view")

// maxBins is the number of places a hidden card can be: the hands of up to
// five seats, their discards, and the cards nobody was dealt.
const maxBins = 11

// world turns one seat's view of the round into complete games: every
// hidden card is given a place that agrees with all the seat has seen, and
// the round is replayed on a fresh engine up to the seat's decision. The
// replay goes through Apply, so a determinized game is a legal game.
type world struct {
	v    *engine.View
	n    int
	me   int
	rule engine.DiscardRule
	k    int // cards each seat discarded (0 under Njet and pass-left)

	base *engine.Game // the round's start: no deal yet

	myDealt engine.Hand
	played  [5]engine.Hand // cards each seat played this round
	fixed   [5]engine.Hand // cards known to be in another seat's hand now

	pool    [64]engine.Card // the cards whose place is hidden
	npool   int
	bins    int          // n hands, then n discard piles, then the unused cards
	cap     [maxBins]int // how many hidden cards each bin takes
	allowed [maxBins]engine.Hand
	where   [64]int8 // bin of each pool card, by pool index

	replay  []engine.Action // blocks and team choice
	plays   []engine.Action // every card played this round, in order
	handSz  int
	tricks  bool // the decision is in trick play
	passing bool // pass-left round past the passes
}

// discards is how many cards each seat discards under rule d.
func discards(d engine.DiscardRule) int {
	switch d {
	case engine.Discard1, engine.Discard1NoOnes:
		return 1
	case engine.Discard2:
		return 2
	}
	return 0
}

// newWorld prepares the sampling of deals for the seat of v. It returns an
// error when v is not a decision this package can search: no seat, or a
// phase without choices.
func newWorld(v *engine.View) (*world, error) {
	w := &world{v: v, n: v.Players, me: v.Seat}
	if w.me < 0 || w.me >= w.n || len(v.HandSizes) != w.n || len(v.Voids) != w.n || len(v.Team) != w.n {
		return nil, fmt.Errorf("%w: seat %d of %d", errWorld, v.Seat, v.Players)
	}
	switch v.Phase {
	case engine.PhaseNjet, engine.PhaseTeams, engine.PhaseDiscard, engine.PhaseTricks:
	default:
		return nil, fmt.Errorf("%w: nothing to decide in phase %s", errWorld, v.Phase)
	}
	g, err := engine.NewGame(engine.Config{Edition: v.Edition, Players: w.n, FirstDealer: v.Dealer, Characters: v.Characters})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errWorld, err)
	}
	w.base = g
	e := v.Edition
	w.handSz = e.HandSize(w.n)
	var deck engine.Hand
	for _, c := range e.Deck(w.n) {
		deck = deck.Add(c)
	}
	for _, b := range v.Blocks {
		w.replay = append(w.replay, engine.Action{Kind: engine.ActBlock, Seat: b.Seat, Row: b.Row, Field: b.Field})
	}
	if v.Phase > engine.PhaseTeams && w.n > 2 {
		start := v.Rules.StartSeat
		var partners uint8
		for s, t := range v.Team {
			if s != start && t == v.Team[start] {
				partners |= 1 << s
			}
		}
		w.replay = append(w.replay, engine.Action{Kind: engine.ActTeam, Seat: start, Partners: partners, Bonus: v.Bonus})
	}
	w.tricks = v.Phase == engine.PhaseTricks
	if !w.tricks {
		// Before trick play every hand is as dealt.
		w.myDealt = v.Hand
		for s := 0; s < w.n; s++ {
			if s != w.me {
				w.cap[s] = w.handSz
			}
		}
		w.setPool(deck &^ v.Hand)
		return w, w.finish()
	}
	w.rule = v.Rules.Discard
	w.k = discards(w.rule)
	w.passing = w.rule == engine.PassLeft
	for _, t := range v.Tricks {
		w.addPlays(t.Plays)
	}
	w.addPlays(v.Trick.Plays)
	var seen engine.Hand = v.Hand | v.Discarded
	for _, p := range w.played {
		seen |= p
	}
	w.myDealt = v.Hand | w.played[w.me] | v.Discarded
	if w.passing {
		if v.Passed == engine.NoCard || v.Received == engine.NoCard {
			return nil, fmt.Errorf("%w: a pass-left round without the seat's passes", errWorld)
		}
		w.myDealt = w.myDealt.Remove(v.Received).Add(v.Passed)
		left := (w.me + 1) % w.n
		if !w.played[left].Has(v.Passed) {
			w.fixed[left] = w.fixed[left].Add(v.Passed)
		}
		seen = seen.Add(v.Passed)
	}
	for s := 0; s < w.n; s++ {
		if s == w.me {
			continue
		}
		w.cap[s] = v.HandSizes[s] - w.fixed[s].Len()
		w.allowed[s] = deck &^ voidCards(v.Voids[s], v.Rules, e)
		if w.k > 0 {
			w.cap[w.n+s] = w.k
			w.allowed[w.n+s] = deck
			if w.rule == engine.Discard1NoOnes {
				w.allowed[w.n+s] = deck &^ onesOf(e)
			}
		}
	}
	w.setPool(deck &^ seen)
	return w, w.finish()
}

// addPlays records who played which card.
func (w *world) addPlays(plays []engine.Play) {
	for _, p := range plays {
		if p.Seat >= 0 && p.Seat < w.n {
			w.played[p.Seat] = w.played[p.Seat].Add(p.Card)
		}
		w.plays = append(w.plays, engine.Action{Kind: engine.ActPlay, Seat: p.Seat, Card: p.Card})
	}
}

// setPool lists the hidden cards. Bins without an allowed set take any card.
func (w *world) setPool(h engine.Hand) {
	for x := uint64(h); x != 0; x &= x - 1 {
		w.pool[w.npool] = engine.CardOf(w.v.Edition, bits.TrailingZeros64(x))
		w.npool++
	}
	w.bins = 2*w.n + 1
	for b := 0; b < w.bins; b++ {
		if w.allowed[b] == 0 {
			w.allowed[b] = h
		}
	}
}

// finish gives the unused cards' bin what the hands and discards leave.
func (w *world) finish() error {
	rest := w.npool
	for b := 0; b < 2*w.n; b++ {
		if w.cap[b] < 0 {
			return fmt.Errorf("%w: seat %d holds fewer cards than it must", errWorld, b%w.n)
		}
		rest -= w.cap[b]
	}
	if rest < 0 {
		return fmt.Errorf("%w: %d hidden cards for %d places", errWorld, w.npool, w.npool-rest)
	}
	w.cap[2*w.n] = rest
	return nil
}

// voidCards is every card of the suits in mask (bit c: suit Colour c) under r.
func voidCards(mask uint8, r engine.Rules, e engine.Edition) engine.Hand {
	if mask == 0 {
		return 0
	}
	var h engine.Hand
	for _, c := range e.Deck(e.MaxPlayers()) {
		if mask&(1<<engine.SuitOf(c, r)) != 0 {
			h = h.Add(c)
		}
	}
	return h
}

// onesOf is every 1 of edition e.
func onesOf(e engine.Edition) engine.Hand {
	var h engine.Hand
	for i := 0; i < e.DeckSize(); i++ {
		if c := engine.CardOf(e, i); c.Value() == 1 {
			h = h.Add(c)
		}
	}
	return h
}

// place gives every hidden card a bin at random, in proportion to the room
// left in the bins that may take it; where that runs into a dead end it
// moves earlier cards along (an augmenting path), so a placement is found
// whenever one exists.
func (w *world) place(rng *rand.Rand) error {
	var spare [maxBins]int
	copy(spare[:], w.cap[:])
	var order [64]int
	for i := 0; i < w.npool; i++ {
		order[i] = i
		w.where[i] = -1
	}
	for i := w.npool - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	for _, ci := range order[:w.npool] {
		c := w.pool[ci]
		total := 0
		for b := 0; b < w.bins; b++ {
			if spare[b] > 0 && w.allowed[b].Has(c) {
				total += spare[b]
			}
		}
		if total > 0 {
			x := rng.IntN(total)
			for b := 0; b < w.bins; b++ {
				if spare[b] > 0 && w.allowed[b].Has(c) {
					if x < spare[b] {
						w.where[ci] = int8(b)
						spare[b]--
						break
					}
					x -= spare[b]
				}
			}
			continue
		}
		var visited uint16
		if !w.augment(ci, &spare, &visited) {
			return fmt.Errorf("%w: no room for %s", errWorld, c)
		}
	}
	return nil
}

// augment finds a bin for pool card ci by moving placed cards to bins with
// room, depth first.
func (w *world) augment(ci int, spare *[maxBins]int, visited *uint16) bool {
	c := w.pool[ci]
	for b := 0; b < w.bins; b++ {
		if *visited&(1<<b) != 0 || !w.allowed[b].Has(c) || w.cap[b] == 0 {
			continue
		}
		*visited |= 1 << b
		if spare[b] > 0 {
			spare[b]--
			w.where[ci] = int8(b)
			return true
		}
		for cj := 0; cj < w.npool; cj++ {
			if int(w.where[cj]) != b {
				continue
			}
			w.where[cj] = -1
			if w.augment(cj, spare, visited) {
				w.where[ci] = int8(b)
				return true
			}
			w.where[cj] = int8(b)
		}
	}
	return false
}

// evidence rates how well a block another seat placed fits the hand the
// deal gives it, as a log likelihood ratio; g is the game before the block.
type evidence func(g *engine.Game, a engine.Action, hand engine.Hand) float64

// build places the hidden cards at random and replays the round on g (which
// it overwrites) up to the decision of the view's seat. When ev is not nil
// it returns the sum of ev over the other seats' blocks.
func (w *world) build(g *engine.Game, rng *rand.Rand, ev evidence) (float64, error) {
	if err := w.place(rng); err != nil {
		return 0, err
	}
	var now, disc [5]engine.Hand
	for i := 0; i < w.npool; i++ {
		b := int(w.where[i])
		switch {
		case b < w.n:
			now[b] = now[b].Add(w.pool[i])
		case b < 2*w.n:
			disc[b-w.n] = disc[b-w.n].Add(w.pool[i])
		}
	}
	var dealt [5]engine.Hand
	var recv [5]engine.Card
	for s := 0; s < w.n; s++ {
		if s == w.me {
			dealt[s] = w.myDealt
			continue
		}
		dealt[s] = now[s] | w.fixed[s] | w.played[s] | disc[s]
	}
	if w.passing {
		// Each seat received one card of those it holds or played: the
		// seat's own is known, its left neighbour's is the seat's pass, and
		// the others are drawn.
		left := (w.me + 1) % w.n
		for s := 0; s < w.n; s++ {
			switch s {
			case w.me:
				recv[s] = w.v.Received
			case left:
				recv[s] = w.v.Passed
			default:
				recv[s] = pick(dealt[s], rng, w.v.Edition)
			}
		}
		for s := 0; s < w.n; s++ {
			if s != w.me {
				dealt[s] = dealt[s].Remove(recv[s]).Add(recv[(s+1)%w.n])
			}
		}
	}
	*g = *w.base
	for s := 0; s < w.n; s++ {
		if err := g.Apply(engine.Action{Kind: engine.ActDeal, Seat: s, Hand: dealt[s]}); err != nil {
			return 0, fmt.Errorf("%w: deal: %w", errWorld, err)
		}
	}
	logw := 0.0
	for _, a := range w.replay {
		if ev != nil && a.Kind == engine.ActBlock && a.Seat != w.me {
			logw += ev(g, a, dealt[a.Seat])
		}
		if err := g.Apply(a); err != nil {
			return 0, fmt.Errorf("%w: %w", errWorld, err)
		}
	}
	if w.tricks {
		for s := 0; s < w.n; s++ {
			var a engine.Action
			switch {
			case w.passing:
				a = engine.Action{Kind: engine.ActPass, Seat: s, Card: recv[(s+1)%w.n]}
			case w.k > 0:
				d := disc[s]
				if s == w.me {
					d = w.v.Discarded
				}
				a = engine.Action{Kind: engine.ActDiscard, Seat: s, Card: engine.NoCard, Cards: [2]engine.Card{engine.NoCard, engine.NoCard}}
				for i, x := 0, uint64(d); x != 0 && i < 2; x &= x - 1 {
					a.Cards[i] = engine.CardOf(w.v.Edition, bits.TrailingZeros64(x))
					i++
				}
			default:
				continue
			}
			if err := g.Apply(a); err != nil {
				return 0, fmt.Errorf("%w: %w", errWorld, err)
			}
		}
		for _, a := range w.plays {
			if err := g.Apply(a); err != nil {
				return 0, fmt.Errorf("%w: %w", errWorld, err)
			}
		}
	}
	if g.Phase() != w.v.Phase {
		return 0, fmt.Errorf("%w: the replay reached %s, not %s", errWorld, g.Phase(), w.v.Phase)
	}
	return logw, nil
}

// pick draws one card of h uniformly; NoCard for an empty h.
func pick(h engine.Hand, rng *rand.Rand, e engine.Edition) engine.Card {
	n := h.Len()
	if n == 0 {
		return engine.NoCard
	}
	i := rng.IntN(n)
	x := uint64(h)
	for ; i > 0; i-- {
		x &= x - 1
	}
	return engine.CardOf(e, bits.TrailingZeros64(x))
}
