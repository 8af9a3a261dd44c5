package engine

import (
	"math/bits"
	"slices"
)

// Legal lists every legal action of seat now, or nil when the seat has none.
// Deals are not listed: a hand comes from outside the engine (ActDeal,
// DealDeck). For a seat whose hand this engine does not know it lists one
// hidden discard or pass, and as plays every card the seat may hold. Every
// action listed is accepted by Apply.
func (g *Game) Legal(seat int) []Action { return g.AppendLegal(nil, seat) }

// AppendLegal appends the actions Legal lists to dst and returns it. It does
// not allocate when dst has room.
func (g *Game) AppendLegal(dst []Action, seat int) []Action {
	if seat < 0 || seat >= g.n {
		return dst
	}
	rs := &g.rs
	switch g.phase {
	case PhaseNjet:
		if seat != rs.turn {
			return dst
		}
		var free [NumRows]uint8
		k := 0
		for r := Row(0); r < NumRows; r++ {
			if n := rs.board.FreeCount(g.ed, r); n >= 2 {
				free[r] = (uint8(1)<<g.ed.Fields(r) - 1) &^ rs.board.blocked[r]
				k += n
			}
		}
		i := len(dst)
		dst = slices.Grow(dst, k)[:i+k]
		for r := Row(0); r < NumRows; r++ {
			for x := free[r]; x != 0; x &= x - 1 {
				dst[i] = Action{Kind: ActBlock, Seat: seat, Row: r, Field: Field(bits.TrailingZeros8(x))}
				i++
			}
		}
	case PhaseTeams:
		if seat != rs.rules.StartSeat {
			return dst
		}
		dst = g.appendTeams(dst, seat)
	case PhaseDiscard:
		if rs.acted&(1<<seat) != 0 {
			return dst
		}
		dst = g.appendDiscards(dst, seat)
	case PhaseTricks:
		if seat != rs.turn {
			return dst
		}
		p := g.playable(seat)
		i := len(dst)
		dst = slices.Grow(dst, p.Len())[:i+p.Len()]
		for x := uint64(p); x != 0; x &= x - 1 {
			dst[i] = Action{Kind: ActPlay, Seat: seat, Card: CardOf(g.ed, bits.TrailingZeros64(x))}
			i++
		}
	}
	return dst
}

func (g *Game) appendTeams(dst []Action, seat int) []Action {
	others := uint8(1<<g.n-1) &^ (1 << seat)
	a := Action{Kind: ActTeam, Seat: seat, Bonus: -1}
	switch g.n {
	case 3:
		dst = append(dst, a)
		fallthrough
	case 4:
		for x := others; x != 0; x &= x - 1 {
			a.Partners = x & -x
			dst = append(dst, a)
		}
	case 5:
		for p := uint8(1); p < 1<<g.n; p++ {
			k := bits.OnesCount8(p)
			if p&^others != 0 || k > 2 {
				continue
			}
			a.Partners = p
			two := p | 1<<seat // the start player's team
			if k == 2 {
				two = uint8(1<<g.n-1) &^ two
			}
			for x := two; x != 0; x &= x - 1 {
				a.Bonus = bits.TrailingZeros8(x)
				dst = append(dst, a)
			}
		}
	}
	return dst
}

func (g *Game) appendDiscards(dst []Action, seat int) []Action {
	rs := &g.rs
	hand := rs.known[seat]
	rule := rs.rules.Discard
	if hand == 0 {
		// Nothing of the hand is known: only the hidden choice can be listed.
		k := Kind(ActDiscard)
		if rule == PassLeft {
			k = ActPass
		}
		return append(dst, Action{Kind: k, Seat: seat, Hidden: true, Card: NoCard, Cards: [2]Card{NoCard, NoCard}})
	}
	switch rule {
	case PassLeft:
		for x := uint64(hand); x != 0; x &= x - 1 {
			dst = append(dst, Action{Kind: ActPass, Seat: seat, Card: CardOf(g.ed, bits.TrailingZeros64(x))})
		}
	case Discard2:
		k := hand.Len()
		i := len(dst)
		dst = slices.Grow(dst, k*(k-1)/2)[:i+k*(k-1)/2]
		for x := uint64(hand); x != 0; x &= x - 1 {
			c0 := CardOf(g.ed, bits.TrailingZeros64(x))
			for y := x & (x - 1); y != 0; y &= y - 1 {
				dst[i] = Action{Kind: ActDiscard, Seat: seat, Card: NoCard,
					Cards: [2]Card{c0, CardOf(g.ed, bits.TrailingZeros64(y))}}
				i++
			}
		}
	default:
		choice := hand
		if rule == Discard1NoOnes && hand&^g.ones != 0 {
			choice = hand &^ g.ones
		}
		for x := uint64(choice); x != 0; x &= x - 1 {
			dst = append(dst, Action{Kind: ActDiscard, Seat: seat, Card: NoCard,
				Cards: [2]Card{CardOf(g.ed, bits.TrailingZeros64(x)), NoCard}})
		}
	}
	return dst
}

// playable is every card seat s may play now (R-TRICK-2): a card it holds or
// may hold, not of a suit it has shown it lacks, and of the led suit when it
// is known to hold one.
func (g *Game) playable(s int) Hand {
	rs := &g.rs
	cand := rs.known[s]
	if rs.unknown[s] > 0 {
		cand |= g.deck &^ rs.located
	}
	cand &^= g.voidMask(s)
	if rs.trickLen > 0 && rs.known[s]&rs.suit[rs.led] != 0 {
		cand &= rs.suit[rs.led]
	}
	return cand
}
