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

// longestRun returns the plays that lay the most cards of the hand from p
// in one go, the turn's duties kept, or nil when the search is too big. It
// is exact for a player alone once the draw pile is empty: nobody else will
// lay a card, so the longest run is the best the game can still do.
func longestRun(p *thegame.Position, seat int) []thegame.Action {
	memo := make(map[runKey]int)
	budget := 200000
	var best func(q *thegame.Position) int
	best = func(q *thegame.Position) int {
		if q.Stopped {
			return 0
		}
		k := runKey{hand: q.Hand}
		for i := range q.Piles {
			k.tops[i] = q.Piles[i].Top
		}
		if n, ok := memo[k]; ok && !q.Extreme {
			return n
		}
		budget--
		most := 0
		if !q.CanEnd() {
			most = -1000 // a turn that cannot end is worth nothing
		}
		for _, c := range q.Hand.List() {
			for pile := range thegame.NumPiles {
				if budget <= 0 || !q.CanPlay(c, pile) {
					continue
				}
				r := *q
				r.Play(c, pile)
				if n := 1 + best(&r); n > most {
					most = n
				}
			}
		}
		memo[k] = most
		return most
	}
	var seq []thegame.Action
	q := *p
	for {
		if best(&q); budget <= 0 {
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
				r := q
				r.Play(c, pile)
				if n := 1 + best(&r); n > most {
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
