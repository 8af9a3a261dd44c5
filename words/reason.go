package words

import (
	"errors"

	"github.com/njetlan/njet/engine"
)

// reasons are the phrases of the engine's refusals by the sentinel the
// refusal wraps.
var reasons = []struct {
	err error
	id  string
}{
	{engine.ErrGameOver, "reason.game-over"},
	{engine.ErrWrongPhase, "reason.wrong-phase"},
	{engine.ErrNotYourTurn, "reason.not-your-turn"},
	{engine.ErrAlreadyActed, "reason.already"},
	{engine.ErrIllegalBlock, "reason.illegal-block"},
	{engine.ErrIllegalTeam, "reason.illegal-team"},
	{engine.ErrIllegalCard, "reason.illegal-card"},
	{engine.ErrRenege, "reason.renege"},
	{engine.ErrIllegalDiscard, "reason.no-ones"},
	{engine.ErrBadCard, "reason.bad"},
	{engine.ErrBadAction, "reason.bad"},
	{engine.ErrBadConfig, "reason.bad"},
}

// Reason words why the engine refused a move, from the sentinel its error
// wraps. The front end knows more than the error (which card, which suit)
// and should prefer the precise reasons below where it can.
func Reason(err error) Msg {
	switch {
	case err == nil:
		return Msg{}
	case errors.Is(err, engine.ErrMustFollow):
		return msg("reason.must-follow", "Suit", msg("suit.trump"))
	}
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return msg(r.id)
		}
	}
	return msg("reason.unknown")
}

// NotHeld: the person does not hold card c.
func NotHeld(c engine.Card) Msg { return msg("reason.not-held", "Card", Card(c)) }

// MustFollow: the person holds a card of the led suit, led (the trump suit
// when trumps were led).
func MustFollow(led engine.Colour, r engine.Rules) Msg {
	if led == r.Trump {
		return msg("reason.must-follow.trump")
	}
	return msg("reason.must-follow", "Suit", Colour(led))
}

// NoOnes: under "discard 1 card, not a 1" a 1 may go only from a hand of 1s.
func NoOnes() Msg { return msg("reason.no-ones") }

// DiscardCount: the discard rule asks for n cards.
func DiscardCount(n int) Msg { return plural("reason.discard-count", n) }

// SameCard: a discard of two names one card twice.
func SameCard() Msg { return msg("reason.same-card") }

// PassNotDiscard: this round's rule passes a card instead.
func PassNotDiscard() Msg { return msg("reason.pass-not-discard") }

// DiscardNotPass: this round's rule discards instead of passing.
func DiscardNotPass() Msg { return msg("reason.discard-not-pass") }

// NotNow: a move of kind k does not belong to phase p.
func NotNow(k engine.Kind, p engine.Phase) Msg {
	switch k {
	case engine.ActPlay:
		return msg("reason.not-now.card", "Phase", Phase(p))
	case engine.ActDiscard:
		return msg("reason.not-now.discard", "Phase", Phase(p))
	case engine.ActPass:
		return msg("reason.not-now.pass", "Phase", Phase(p))
	case engine.ActBlock:
		return msg("reason.not-now.block")
	case engine.ActTeam:
		return msg("reason.not-now.team")
	}
	return msg("reason.wrong-phase")
}

// Blocked: field f of row r is blocked already.
func Blocked(ed engine.Edition, r engine.Row, f engine.Field) Msg {
	return msg("reason.blocked", "Row", Row(ed, r), "Field", Field(ed, r, f))
}

// LastFree: field f is the last free field of row r (R-NJET-1).
func LastFree(ed engine.Edition, r engine.Row, f engine.Field) Msg {
	return msg("reason.last-free", "Row", Row(ed, r), "Field", Field(ed, r, f))
}

// BlockForm explains how to type a block.
func BlockForm() Msg { return msg("reason.block-form") }

// NoRow: there is no row of that (typed) name.
func NoRow(typed string) Msg { return msg("reason.no-row", "Row", typed) }

// NoField: row r has no field of that (typed) name; its fields are listed.
func NoField(ed engine.Edition, r engine.Row, typed string) Msg {
	var fields []Msg
	for f := engine.Field(0); int(f) < ed.Fields(r); f++ {
		fields = append(fields, Field(ed, r, f))
	}
	return msg("reason.no-field", "Row", Row(ed, r), "Field", typed, "Fields", List(fields))
}

// NamePartner asks for a partner as listed, with an example answer.
func NamePartner(example string) Msg { return msg("reason.partner", "Example", example) }

// NotAlone: with 4 or 5 players the start player may not play alone.
func NotAlone(players int) Msg {
	if players == 5 {
		return msg("reason.alone.five")
	}
	return msg("reason.alone.four")
}

// NotAChoice: the answer names no choice.
func NotAChoice() Msg { return msg("reason.not-choice") }
