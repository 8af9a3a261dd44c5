package bot

import (
	"math"
	"math/bits"

	"github.com/njetlan/njet/thegame"
)

// Judgement is how the expert weighs the end of a turn: every unplayed
// card by the number of piles it still fits (its homes), instead of Coop's
// count of the numbers a jump skips. A jump on the higher of the two
// rising piles takes from the numbers between the two tops only one home
// of two, and costs little; a jump that leaves cards with no home at all
// costs a lot.
type Judgement struct {
	// Home[h] is the price of an unplayed card that fits h piles after the
	// turn (h from 0 to 4; a backwards trick counts as a home).
	Home [5]float64
	// Hand multiplies the price of the cards the seat keeps in its hand:
	// it must lay them soon, while the unseen ones may come much later.
	Hand float64
	// Pair rewards each two cards of the hand kept 10 apart: laid high
	// first, the other follows as a backwards trick whichever pile they go
	// on.
	Pair float64
}

// DefaultJudgement returns the expert's judgement, tuned on seeded batches.
func DefaultJudgement() Judgement {
	return Judgement{Home: [5]float64{6, 3, 1.5, 0.5, 0}, Hand: 1, Pair: 3}
}

// NewExpert returns the expert player: Coop's turn planning, signals and
// endgame search with the judgement of homes, its weights chosen for the
// table it plays at (ExpertSettings). Its kind is "expert", or
// "expert-silent" without signals.
func NewExpert(signals bool) *Coop {
	b := NewExpertWeights(signals, ExpertWeights(), DefaultJudgement())
	b.byTable = true
	return b
}

// ExpertSettings returns the weights and judgement the expert plays with
// at a table of players seats, in the Extreme game or not: the defaults,
// with what paid on seeded batches for that table.
func ExpertSettings(players int, extreme bool) (Weights, Judgement) {
	w, jg := ExpertWeights(), DefaultJudgement()
	if players == 1 && !extreme {
		// Alone, nobody else lays the backwards trick that would give a
		// card with no home one again: losing the last home costs twice
		// as much. It wins more games, for about as many cards left.
		jg.Home[0] = 12
	}
	if extreme {
		if players == 1 {
			// Alone, a turn under "draw one" costs the hand its choice
			// for the whole next turn.
			w.DrawOne = 6
		} else {
			// With others a lasting command left on top hinders them
			// less than coop's price says: the next seats plan around it.
			w.Lasting = 0.6
		}
		if players == 5 {
			// Five hands hold a card to cover a skull more often than
			// fewer do.
			w.Skull = 3
		}
	}
	return w, jg
}

// NewExpertWeights returns an expert with the given weights and judgement
// and no look past its turn.
func NewExpertWeights(signals bool, w Weights, jg Judgement) *Coop {
	return &Coop{signals: signals, w: w, planTurn: -1, kind: "expert", judgement: &jg}
}

// ExpertWeights returns the weights the expert plays with besides its
// judgement.
func ExpertWeights() Weights {
	w := DefaultWeights()
	w.Dead = 0 // the judgement prices the dead cards
	// In the judgement's units a card is worth more, and a jump on a pile
	// another seat asked for costs less.
	w.Card, w.Mine, w.Good = 1.2, 1.5, 0.5
	return w
}

// homesValue prices the cards of rest by their homes on the piles of p.
func (jg *Judgement) homesValue(p *thegame.Position, rest, hand thegame.Cards) float64 {
	u1, u2 := p.Piles[0].Top, p.Piles[1].Top
	if u1 > u2 {
		u1, u2 = u2, u1
	}
	d1, d2 := p.Piles[2].Top, p.Piles[3].Top
	if d1 > d2 {
		d1, d2 = d2, d1
	}
	// The homes of x, tricks aside, are [x>u1]+[x>u2]+[x<d1]+[x<d2]: they
	// change only at the four tops, so the number line falls into at most
	// five runs of equal homes.
	cuts := [6]int{0, u1, u2, d1, d2, 101}
	sortFour(cuts[1:5])
	total := 0.0
	both := rest
	for i := range 5 {
		lo, hi := cuts[i], cuts[i+1]
		if hi-lo < 2 {
			continue
		}
		x := lo + 1 // a number of the run, to count its homes
		h := homesOf(x, u1, u2, d1, d2)
		n := float64(both.CountBetween(lo, hi))
		mine := float64(hand.CountBetween(lo, hi))
		total += jg.Home[h] * (n - mine + jg.Hand*mine)
	}
	// A backwards trick is one more home for its card.
	if !p.InForce(thegame.CmdNoTrick) {
		for i := range p.Piles {
			t := p.Piles[i].Top - 10
			if !p.Piles[i].Up {
				t = p.Piles[i].Top + 10
			}
			if t < int(thegame.MinCard) || t > int(thegame.MaxCard) || !rest.Has(thegame.Card(t)) {
				continue
			}
			h := homesOf(t, u1, u2, d1, d2)
			if h < 4 {
				gain := jg.Home[h] - jg.Home[h+1]
				if hand.Has(thegame.Card(t)) {
					gain *= jg.Hand
				}
				total -= gain
			}
		}
	}
	return total
}

// moveCost is what laying c on pile changes in the price of the cards of
// rest (hand: those of them in the seat's hand): the numbers the pile
// passes lose this pile as a home (a backwards trick gives it back to
// them), the card 10 back from the old top loses its trick and the one 10
// back from the new top gains one. It looks at the pile that changes only,
// which makes it cheap enough for every step of the turn's search.
func (jg *Judgement) moveCost(p *thegame.Position, c thegame.Card, pile int, rest, hand thegame.Cards) float64 {
	m := mover{jg: jg, pile: pile, up: p.Piles[pile].Up, rest: rest, hand: hand}
	for i := range p.Piles {
		m.tops[i] = p.Piles[i].Top
	}
	pl := p.Piles[pile]
	a, v := pl.Top, int(c)
	cost := 0.0
	if pl.Gap(c) == -10 {
		cost += m.step(min(a, v), max(a, v), +1)
	} else {
		cost += m.step(min(a, v), max(a, v), -1)
		// The old trick card loses its trick, unless it lay in the passed
		// numbers (then it already lost this pile).
		cost += m.trick(m.back(a), -1)
	}
	if !p.InForce(thegame.CmdNoTrick) {
		nb := m.back(v)
		switch {
		case pl.Gap(c) == -10 || (pl.Up && nb <= a) || (!pl.Up && nb >= a):
			cost += m.trick(nb, +1)
		case rest.Has(thegame.Card(nb)):
			// Passed, yet still a home here as the trick: no loss.
			h := m.homes(nb)
			d := jg.Home[h] - jg.Home[max(h-1, 0)]
			if hand.Has(thegame.Card(nb)) {
				d *= jg.Hand
			}
			cost += d
		}
	}
	return cost
}

// leastStep returns the least price a card of the hand or unseen loses
// with one of its homes.
func (jg *Judgement) leastStep() float64 {
	least := math.Inf(1)
	for h := 1; h < len(jg.Home); h++ {
		least = min(least, jg.Home[h-1]-jg.Home[h])
	}
	return least * min(jg.Hand, 1)
}

// leastCost is a bound from below on moveCost, cheap enough to pass over
// most plays a search would find too dear: every card of rest the play
// passes loses a home, each loss costing at least least (leastStep), and
// only the card 10 back from the new top gains or keeps one.
func (jg *Judgement) leastCost(p *thegame.Position, c thegame.Card, pile int, rest thegame.Cards, least float64) float64 {
	pl := p.Piles[pile]
	if pl.Gap(c) == -10 {
		return math.Inf(-1)
	}
	n := float64(rest.CountBetween(pl.Top, int(c)))
	nb := int(c) - 10
	if !pl.Up {
		nb = int(c) + 10
	}
	if nb < int(thegame.MinCard) || nb > int(thegame.MaxCard) || !rest.Has(thegame.Card(nb)) {
		return least * n
	}
	if pl.Up && nb > pl.Top || !pl.Up && nb < pl.Top {
		return least * (n - 1) // passed, and given back its home as the trick
	}
	h := 0
	for i := range p.Piles {
		if p.Piles[i].Up && nb > p.Piles[i].Top || !p.Piles[i].Up && nb < p.Piles[i].Top {
			h++
		}
	}
	return least*n - (jg.Home[h]-jg.Home[min(h+1, 4)])*max(jg.Hand, 1)
}

// mover holds what moveCost weighs a play with: the tops before it and
// the pile it changes.
type mover struct {
	jg         *Judgement
	tops       [thegame.NumPiles]int
	pile       int
	up         bool
	rest, hand thegame.Cards
}

// homes counts the piles x fits by number alone, tricks aside.
func (m *mover) homes(x int) int {
	h := 0
	if x > m.tops[0] {
		h++
	}
	if x > m.tops[1] {
		h++
	}
	if x < m.tops[2] {
		h++
	}
	if x < m.tops[3] {
		h++
	}
	return h
}

// step prices a change of home count by d for every card of rest in the
// open interval (lo, hi).
func (m *mover) step(lo, hi, d int) float64 {
	if hi-lo < 2 {
		return 0
	}
	cuts := [5]int{lo}
	n := 1
	for i, t := range m.tops {
		if i != m.pile && t > lo && t < hi {
			cuts[n] = t
			n++
		}
	}
	sortFour(cuts[1:n])
	cuts[n] = hi
	total := 0.0
	for k := range n {
		a, b := cuts[k], cuts[k+1]
		if b-a < 2 {
			continue
		}
		h := m.homes(a + 1)
		cnt := float64(m.rest.CountBetween(a, b))
		if m.jg.Hand != 1 {
			cnt += (m.jg.Hand - 1) * float64(m.hand.CountBetween(a, b))
		}
		total += cnt * (m.jg.Home[min(max(h+d, 0), 4)] - m.jg.Home[h])
	}
	return total
}

// back returns the trick card of the changing pile at top.
func (m *mover) back(top int) int {
	if m.up {
		return top - 10
	}
	return top + 10
}

// trick prices x gaining (d=1) or losing (d=-1) its trick.
func (m *mover) trick(x, d int) float64 {
	if x < int(thegame.MinCard) || x > int(thegame.MaxCard) || !m.rest.Has(thegame.Card(x)) {
		return 0
	}
	h := min(m.homes(x)+max(-d, 0), 4)
	v := m.jg.Home[min(max(h+d, 0), 4)] - m.jg.Home[h]
	if m.hand.Has(thegame.Card(x)) {
		v *= m.jg.Hand
	}
	return v
}

// tenApart counts the cards x of hand with x+10 also in hand.
func tenApart(hand thegame.Cards) int {
	n := 0
	for w := range 2 {
		for x := hand[w]; x != 0; x &= x - 1 {
			if c := w*64 + bits.TrailingZeros64(x) + 10; c < 128 && hand.Has(thegame.Card(c)) {
				n++
			}
		}
	}
	return n
}

// homesOf counts the piles x fits by number alone, tricks aside.
func homesOf(x, u1, u2, d1, d2 int) int {
	h := 0
	for _, u := range [2]int{u1, u2} {
		if x > u {
			h++
		}
	}
	for _, d := range [2]int{d1, d2} {
		if x < d {
			h++
		}
	}
	return h
}

// sortFour sorts four numbers in place.
func sortFour(a []int) {
	for i := 1; i < len(a); i++ {
		for k := i; k > 0 && a[k] < a[k-1]; k-- {
			a[k], a[k-1] = a[k-1], a[k]
		}
	}
}
