package engine

// SuitOf is the suit card c belongs to under rules r (R-TRICK-1): a
// supertrump (a 1 of the supertrump colour) and every card of the trump
// colour belong to the trump suit; every other card to its printed colour.
func SuitOf(c Card, r Rules) Colour {
	col := c.Colour()
	if col == r.Trump || r.Super != NoColour && col == r.Super && c.Value() == 1 {
		return r.Trump
	}
	return col
}

// isSuper reports whether c is a supertrump under r.
func isSuper(c Card, r Rules) bool {
	return r.Super != NoColour && c.Value() == 1 && c.Colour() == r.Super
}

// TrickWinner is the seat that wins trick t under rules r (R-WIN): the last
// supertrump played, else the highest trump, else the highest card of the
// led suit; among equal 1s the later one is higher. It returns -1 for a
// trick without cards. The trick need not be complete: then it names the
// seat winning so far.
func TrickWinner(t Trick, r Rules) int {
	if len(t.Plays) == 0 {
		return -1
	}
	led := SuitOf(t.Plays[0].Card, r)
	best, bestRank := -1, 0
	for _, p := range t.Plays {
		k := 0
		switch s := SuitOf(p.Card, r); {
		case isSuper(p.Card, r):
			k = 3 << 4
		case s == r.Trump:
			k = 2<<4 | p.Card.Value()
		case s == led:
			k = 1<<4 | p.Card.Value()
		}
		if k > 0 && k >= bestRank {
			best, bestRank = p.Seat, k
		}
	}
	return best
}
