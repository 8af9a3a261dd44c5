package table

import (
	"slices"

	"github.com/njetlan/njet/thegame"
)

// View returns what seat s knows: the public state and, when this peer
// hosts s, its own hand. It never holds a card of another seat's hand or
// of the draw pile. A nil TheGame (the rules of no table yet) shows the
// zero View.
func (t *TheGame) View(s int) thegame.View {
	if t == nil {
		return thegame.View{}
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	return t.view(s)
}

func (t *TheGame) view(s int) thegame.View {
	g := t.g
	if s < 0 || s >= g.n {
		return thegame.View{}
	}
	ph := t.phase
	switch g.st {
	case stPlay:
	case stReveal, stOver:
		ph = thegame.PhaseOver
	default:
		ph = thegame.PhaseDeal
	}
	v := thegame.View{Seat: s, Players: g.n, Extreme: g.gen.Extreme, HandSize: t.h, Phase: ph, Turn: t.turn,
		Turns: t.turns, DrawPile: len(t.cards) - t.drawn, Piles: t.pos.Piles, Played: t.playedC,
		Muted: t.pos.InForce(thegame.CmdSilence), Result: t.result}
	v.Hand = t.handOf(s).List()
	for u := range g.n {
		v.HandSizes = append(v.HandSizes, t.hands[u])
		v.Signals = append(v.Signals, t.signals[u])
	}
	if ph == thegame.PhasePlay {
		v.PlayedThisTurn, v.OnPiles, v.Three = t.pos.Played, t.pos.OnPiles, t.pos.Three
	}
	if g.gen.Extreme {
		for _, k := range thegame.Commands() {
			if k.Lasting() || k == thegame.CmdSkull {
				if t.pos.InForce(k) {
					v.InForce = append(v.InForce, k)
				}
			} else if k == thegame.CmdThree && ph == thegame.PhasePlay && t.pos.Three {
				v.InForce = append(v.InForce, k)
			}
		}
	}
	return v
}

// handOf returns the cards of seat s this peer knows: its hand when the
// peer hosts s, else nothing.
func (t *TheGame) handOf(s int) thegame.Cards {
	var h thegame.Cards
	if t.g.rd == nil {
		return h
	}
	if _, hosted := t.g.rd.secrets[s]; !hosted {
		return h
	}
	for p, c := range t.known {
		if t.holder[p] == s && !t.played[p] {
			h = h.Add(c)
		}
	}
	return h
}

// Moves returns the public moves of the game from the from-th on, in log
// order: every play (with its card), signal and end of turn, those of the
// deals before a redeal too. Draws are not told. A front end keeps how
// many it has told and asks for the rest. A nil TheGame has none.
func (t *TheGame) Moves(from int) []thegame.Action {
	if t == nil {
		return nil
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	if from < 0 || from >= len(t.moves) {
		return nil
	}
	return slices.Clone(t.moves[from:])
}

// Warning tells whether the play a by the seat on turn would lose the
// game (the hand is this peer's), and the command that could not be
// kept.
func (t *TheGame) Warning(a thegame.Action) (thegame.Command, bool) {
	if t == nil {
		return thegame.CmdNone, false
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	if a.Kind != thegame.ActPlay || t.g.st != stPlay || t.phase != thegame.PhasePlay || a.Seat != t.turn {
		return thegame.CmdNone, false
	}
	q := t.pos
	q.Hand = t.handOf(a.Seat)
	if q.CheckPlay(a.Card, a.Pile) != nil {
		return thegame.CmdNone, false
	}
	q.Play(a.Card, a.Pile)
	if q.Stopped || q.Feasible() {
		return thegame.CmdNone, false
	}
	return q.Broken(), true
}
