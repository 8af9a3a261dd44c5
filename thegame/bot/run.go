package bot

import (
	"math/bits"

	"github.com/njetlan/njet/thegame"
)

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// runKey identifies a position of the longest-run search.
type runKey struct {
	hand thegame.Cards
	tops [thegame.NumPiles]int
}

// runs finds the longest run of cards a hand can lay from a position: the
// most cards of the hand that go down one after another, the turn's duties
// kept. Its memory of positions searched may serve many searches.
type runs struct {
	memo   map[runKey]int
	budget int
}

// reset empties the memory and allows budget positions to be searched.
func (r *runs) reset(budget int) {
	if r.memo == nil {
		r.memo = make(map[runKey]int)
	}
	clear(r.memo)
	r.budget = budget
}

// best returns the length of the longest run from q (-1000 when the turn
// cannot end); it is exact while budget stays above 0.
func (r *runs) best(q *thegame.Position) int {
	if q.Stopped {
		return 0
	}
	k := runKey{hand: q.Hand}
	for i := range q.Piles {
		k.tops[i] = q.Piles[i].Top
	}
	if n, ok := r.memo[k]; ok && !q.Extreme {
		return n
	}
	r.budget--
	most := 0
	if !q.CanEnd() {
		most = -1000 // a turn that cannot end is worth nothing
	}
	for w := range 2 {
		for x := q.Hand[w]; x != 0; x &= x - 1 {
			c := thegame.Card(w*64 + trailingZeros(x))
			for pile := range thegame.NumPiles {
				if r.budget <= 0 || !q.CanPlay(c, pile) {
					continue
				}
				s := *q
				s.Play(c, pile)
				if n := 1 + r.best(&s); n > most {
					most = n
				}
			}
		}
	}
	r.memo[k] = most
	return most
}

// longestRun returns the plays that lay the most cards of the hand from p
// in one go, the turn's duties kept, or nil when the search is too big. It
// is exact for a player alone once the draw pile is empty: nobody else will
// lay a card, so the longest run is the best the game can still do.
func longestRun(p *thegame.Position, seat int) []thegame.Action {
	var r runs
	r.reset(200000)
	var seq []thegame.Action
	q := *p
	for {
		if r.best(&q); r.budget <= 0 {
			return nil
		}
		var next thegame.Action
		most := -1
		if q.CanEnd() {
			most = 0
		}
		for _, c := range q.Hand.List() {
			for pile := range thegame.NumPiles {
				if !q.CanPlay(c, pile) {
					continue
				}
				s := q
				s.Play(c, pile)
				if n := 1 + r.best(&s); n > most {
					most, next = n, thegame.Action{Kind: thegame.ActPlay, Seat: seat, Card: c, Pile: pile}
				}
			}
		}
		if next.Kind == 0 {
			return seq
		}
		seq = append(seq, next)
		q.Play(next.Card, next.Pile)
	}
}
