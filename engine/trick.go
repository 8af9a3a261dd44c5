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
func TrickWinner(t Trick, r Rules) int { return TrickWin(t, r).Seat }

// WinReason says why a card won a trick (R-WIN).
type WinReason uint8

// The reasons a card wins a trick, strongest first in play.
const (
	WinLed   WinReason = iota + 1 // the highest card of the led suit
	WinTrump                      // the highest trump
	WinSuper                      // a supertrump, the last one played
)

// String names the reason for logs and tests.
func (w WinReason) String() string {
	switch w {
	case WinLed:
		return "led"
	case WinTrump:
		return "trump"
	case WinSuper:
		return "super"
	}
	return "none"
}

// Win is who won a trick, with which card and why.
type Win struct {
	Seat int       // the winning seat; -1 for a trick without cards
	Card Card      // the winning card
	Why  WinReason // led suit, trump or supertrump
	// Tie is set when an earlier card of the same rank was played to the
	// trick: the later of equal cards wins (R-WIN).
	Tie bool
}

// TrickWin is TrickWinner with its reasons: the winning seat and card, why
// that card wins, and whether it beat an equal card by coming later. For a
// trick under way it names the card winning so far.
func TrickWin(t Trick, r Rules) Win {
	w := Win{Seat: -1}
	if len(t.Plays) == 0 {
		return w
	}
	led := SuitOf(t.Plays[0].Card, r)
	bestRank := 0
	for _, p := range t.Plays {
		k, why := 0, WinReason(0)
		switch s := SuitOf(p.Card, r); {
		case isSuper(p.Card, r):
			k, why = 3<<4, WinSuper
		case s == r.Trump:
			k, why = 2<<4|p.Card.Value(), WinTrump
		case s == led:
			k, why = 1<<4|p.Card.Value(), WinLed
		}
		if k > 0 && k >= bestRank {
			w = Win{Seat: p.Seat, Card: p.Card, Why: why, Tie: k == bestRank}
			bestRank = k
		}
	}
	return w
}
