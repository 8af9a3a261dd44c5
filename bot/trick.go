package bot

import "github.com/njetlan/njet/engine"

// isSuper reports whether c is a supertrump under r (R-TRICK-1).
func isSuper(c engine.Card, r engine.Rules) bool {
	return r.Super != engine.NoColour && c.Value() == 1 && c.Colour() == r.Super
}

// isTrump reports whether c belongs to the trump suit under r, supertrumps
// included.
func isTrump(c engine.Card, r engine.Rules) bool { return engine.SuitOf(c, r) == r.Trump }

// class orders the cards of a trick by R-WIN: 3 supertrump, 2 trump, 1 the
// led suit, 0 anything else (which never wins).
func class(c engine.Card, led engine.Colour, r engine.Rules) int {
	switch {
	case isSuper(c, r):
		return 3
	case isTrump(c, r):
		return 2
	case engine.SuitOf(c, r) == led:
		return 1
	}
	return 0
}

// winning returns the index in plays of the card that wins the trick so far
// (R-WIN), or -1 for an empty trick. A complete trick gives the same answer
// as engine.TrickWinner; this one also works for a trick under way.
func winning(plays []engine.Play, r engine.Rules) int {
	if len(plays) == 0 {
		return -1
	}
	led := engine.SuitOf(plays[0].Card, r)
	best, bestClass, bestValue := 0, class(plays[0].Card, led, r), plays[0].Card.Value()
	for i := 1; i < len(plays); i++ {
		c := plays[i].Card
		k := class(c, led, r)
		// Within a suit the values 2 and up are unique, so equal values are
		// equal 1s (or supertrumps), and of those the later one wins
		// (R-WIN-1, R-WIN-4).
		if k > bestClass || k == bestClass && k > 0 && c.Value() >= bestValue {
			best, bestClass, bestValue = i, k, c.Value()
		}
	}
	return best
}

// wouldWin reports whether seat playing c now would make it the winner of
// the trick so far.
func wouldWin(plays []engine.Play, seat int, c engine.Card, r engine.Rules) bool {
	all := make([]engine.Play, len(plays), len(plays)+1)
	copy(all, plays)
	all = append(all, engine.Play{Seat: seat, Card: c})
	return winning(all, r) == len(plays)
}

// outranks reports whether u, played after c into a trick where both are of
// the same suit, would beat c.
func outranks(u, c engine.Card, r engine.Rules) bool {
	su, sc := isSuper(u, r), isSuper(c, r)
	if su != sc {
		return su
	}
	if su {
		return true // the later supertrump wins (R-WIN-1)
	}
	return u.Value() > c.Value() || u.Value() == 1 && c.Value() == 1
}
