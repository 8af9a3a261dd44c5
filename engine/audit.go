package engine

import "fmt"

// AuditRound checks what the seats revealed after the round against
// everything this engine saw: each dealt hand (its size, the deck in play,
// no card dealt twice, the hands this engine knew), the discards (their
// count and the "except 1" rule, R-DISCARD), the passes, and then every play
// of every trick, which must come from the hand that played it and follow
// suit (R-TRICK-2) now that the hands are known. It goes through the round
// in that order and returns the first failure as a *SeatError wrapping
// ErrAudit, ErrIllegalDiscard or ErrMustFollow. It does not change the game.
// It is allowed at PhaseRoundOver and PhaseGameOver.
func (g *Game) AuditRound(r Reveal) error {
	if g.phase != PhaseRoundOver && g.phase != PhaseGameOver {
		return fmt.Errorf("%w: audit during %s", ErrWrongPhase, g.phase)
	}
	if len(r.Dealt) != g.n || len(r.Discards) != g.n || len(r.Passes) != g.n {
		return fmt.Errorf("%w: a reveal for %d seats", ErrBadAction, g.n)
	}
	rs := &g.rs
	fail := func(s int, err error, format string, args ...any) error {
		return &SeatError{Seat: s, Err: fmt.Errorf("%w: "+format, append([]any{err}, args...)...)}
	}
	var hands [maxSeats]Hand
	var dealt Hand
	for s := 0; s < g.n; s++ {
		d := r.Dealt[s]
		switch {
		case d.Len() != g.handSize:
			return fail(s, ErrAudit, "dealt %d cards, want %d", d.Len(), g.handSize)
		case d&^g.deck != 0:
			return fail(s, ErrAudit, "dealt cards not in play")
		case d&dealt != 0:
			return fail(s, ErrAudit, "dealt cards already dealt to another seat")
		case rs.dealtKnown&(1<<s) != 0 && rs.dealt[s] != d:
			return fail(s, ErrAudit, "the revealed hand is not the hand dealt")
		}
		dealt |= d
		hands[s] = d
	}
	rule := rs.rules.Discard
	k := discardCount(rule)
	for s := 0; s < g.n; s++ {
		d := r.Discards[s]
		switch {
		case d&^hands[s] != 0:
			return fail(s, ErrAudit, "discarded cards it was not dealt")
		case d.Len() != k:
			return fail(s, ErrIllegalDiscard, "discarded %d cards under %s", d.Len(), discardNames[rule])
		case rule == Discard1NoOnes && d&g.ones != 0 && hands[s]&^g.ones != 0:
			return fail(s, ErrIllegalDiscard, "discarded a 1 while holding other cards")
		case rs.discardHidden&(1<<s) == 0 && rs.discards[s] != d:
			return fail(s, ErrAudit, "the revealed discard is not the discard seen")
		}
	}
	for s := 0; s < g.n; s++ {
		p := r.Passes[s]
		if rule != PassLeft {
			if p != NoCard {
				return fail(s, ErrAudit, "revealed a pass in a round without passing")
			}
			continue
		}
		switch {
		case p == NoCard || !p.Valid() || p.Edition() != g.ed || !hands[s].Has(p):
			return fail(s, ErrAudit, "passed a card it was not dealt")
		case rs.passHidden&(1<<s) == 0 && rs.passes[s] != p:
			return fail(s, ErrAudit, "the revealed pass is not the pass seen")
		}
	}
	for s := 0; s < g.n; s++ {
		hands[s] &^= r.Discards[s]
		if rule == PassLeft {
			hands[s] = hands[s].Remove(r.Passes[s])
		}
	}
	if rule == PassLeft {
		for s := 0; s < g.n; s++ {
			to := (s + 1) % g.n
			hands[to] = hands[to].Add(r.Passes[s])
		}
	}
	for k := 0; k < rs.done; k++ {
		leader := int(rs.leaders[k])
		var led Colour
		for i := 0; i < g.n; i++ {
			s := (leader + i) % g.n
			c := rs.plays[k*g.n+i]
			if !hands[s].Has(c) {
				return fail(s, ErrAudit, "played %s in trick %d, which its revealed hand did not hold", c, k+1)
			}
			suit := g.suitOf(c)
			if i == 0 {
				led = suit
			} else if suit != led && hands[s]&rs.suit[led] != 0 {
				return fail(s, ErrMustFollow, "played %s in trick %d while holding %s", c, k+1, led)
			}
			hands[s] = hands[s].Remove(c)
		}
	}
	return nil
}
