package table

import (
	"errors"
	"fmt"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// audit re-checks the whole round and replays the game through the
// engine: every crypto message (crypto.Audit), the order of the whole deck,
// then every draw, play, signal, turn end and Stuck in log order, and the
// result.
func (t *TheGame) audit() *Violation {
	g, rd := t.g, t.g.rd
	tr := &crypto.Transcript{Params: rd.params, Keys: rd.keys, Shuffles: rd.shuffles, Sealed: rd.sealed,
		Plays: rd.plays, Reveals: rd.reveals}
	if err := crypto.Audit(tr); err != nil {
		return cryptoViolation(-1, err)
	}
	secrets, v := rd.revealed()
	if v != nil {
		return v
	}
	order, err := rd.cr.OpenDeck(rd.deck, secrets)
	if err != nil {
		return cryptoViolation(-1, err)
	}
	deck := make([]thegame.Card, len(order))
	for p, i := range order {
		if i < 0 || i >= len(t.cards) {
			return cryptoViolation(-1, fmt.Errorf("position %d opens to card %d of %d", p, i, len(t.cards)))
		}
		deck[p] = t.cards[i]
	}
	if v := t.replay(deck); v != nil {
		return v
	}
	t.audited = true
	g.st = stOver
	return nil
}

// replay plays the recorded game through thegame.Game with the deck order
// known. The engine ends a turn by itself when the hand can play nothing
// more, and the game when the turn cannot be completed; the table learns
// both from the seat on turn (TurnEnd, Stuck), which the replay holds
// against the engine.
func (t *TheGame) replay(deck []thegame.Card) *Violation {
	eng, err := t.engineAtDeal(deck)
	if err != nil {
		return violation(0, CheckStructure, "the deal: %v", err)
	}
	ended := false // the engine ended the turn (or the game) after the last play
	for _, a := range t.record {
		fail := func(check, format string, args ...any) *Violation {
			v := violation(a.seat, check, format, args...)
			v.Seq = a.seq
			return v
		}
		failWith := func(check string, err error) *Violation {
			return &Violation{Seq: a.seq, Seat: a.seat, Check: check, Err: err}
		}
		if ended && !a.draw && a.kind != tablelog.KindTurnEnd && a.kind != tablelog.KindStuck {
			return fail(CheckStuck, "the seat's turn had ended, only its end may follow")
		}
		switch {
		case a.draw:
			for p := a.pos; p < a.pos+a.count; p++ {
				s, ok := eng.NeedDraw()
				if !ok || s != a.seat || eng.DrawPile() != len(deck)-p {
					return fail(CheckStructure, "seat %d drew position %d, the rules draw otherwise", a.seat, p)
				}
				if err := eng.Apply(thegame.Action{Kind: thegame.ActDraw, Seat: a.seat, Card: deck[p]}); err != nil {
					return fail(CheckStructure, "draw: %v", err)
				}
			}
		case a.kind == tablelog.KindPlay:
			turns := eng.Turns()
			if err := eng.Apply(thegame.Action{Kind: thegame.ActPlay, Seat: a.seat, Card: a.card, Pile: a.pile}); err != nil {
				return failWith(CheckGameRules, err)
			}
			stop := t.g.gen.Extreme && thegame.CommandOf(a.card) == thegame.CmdStop
			ended = !stop && (eng.Phase() != thegame.PhasePlay || eng.Turns() != turns)
		case a.kind == tablelog.KindSignal:
			if err := eng.Apply(thegame.Action{Kind: thegame.ActSignal, Seat: a.seat, Pile: a.pile, Signal: a.signal}); err != nil {
				return failWith(CheckGameRules, err)
			}
		case a.kind == tablelog.KindTurnEnd:
			if ended {
				ended = false
				if eng.Phase() == thegame.PhaseOver && eng.Result().Broken != thegame.CmdNone {
					return fail(CheckStuck, "the turn ended though a command could no longer be kept")
				}
				continue
			}
			if err := eng.Apply(thegame.Action{Kind: thegame.ActEnd, Seat: a.seat}); err != nil {
				return failWith(CheckGameRules, err)
			}
		case a.kind == tablelog.KindStuck:
			ended = false
			if eng.Phase() != thegame.PhaseOver {
				return fail(CheckStuck, "the seat said its hand could not go on, the rules let it play on")
			}
		}
	}
	if eng.Phase() != thegame.PhaseOver {
		return violation(t.turn, CheckStuck, "the table ended the game, the rules did not")
	}
	if r := eng.Result(); r != t.result {
		return violation(t.turn, CheckStuck, "the table's result %+v is not the rules' %+v", t.result, r)
	}
	return nil
}

// engineAtDeal returns the engine as the round's play begins, the deal
// taken from deck: the first deal of the game, or a redeal at the public
// position it kept (thegame.Resume).
func (t *TheGame) engineAtDeal(deck []thegame.Card) (*thegame.Game, error) {
	g := t.g
	cfg := g.gen.TheGameConfig()
	if t.resume == nil {
		eng, err := thegame.NewGame(cfg)
		if err != nil {
			return nil, err
		}
		for p := range g.n * t.h {
			s, ok := eng.NeedDraw()
			if !ok || eng.Phase() != thegame.PhaseDeal {
				return nil, errors.New("the rules ended the deal early")
			}
			if err := eng.Apply(thegame.Action{Kind: thegame.ActDraw, Seat: s, Card: deck[p]}); err != nil {
				return nil, err
			}
		}
		return eng, nil
	}
	hands := make([][]thegame.Card, g.n)
	first := 0
	for s, k := range g.rd.hands {
		hands[s] = deck[first : first+k]
		first += k
	}
	return thegame.Resume(cfg, *t.resume, hands, deck[first:])
}

// TheGameResult is the outcome of a game of The Game.
type TheGameResult struct {
	Config thegame.Config
	Result thegame.Result
	Turns  int
}

// Result returns the audited result once every seat has revealed and the
// replay agrees; ok is false before, and for a nil TheGame (the rules of
// no table of The Game).
func (t *TheGame) Result() (TheGameResult, bool) {
	if t == nil {
		return TheGameResult{}, false
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	if !t.audited {
		return TheGameResult{}, false
	}
	return TheGameResult{Config: t.g.gen.TheGameConfig(), Result: t.result, Turns: t.turns}, true
}

// Unverified returns, for a game that ended without its audit because a
// seat stayed silent at its reveal, the violation naming that seat (it is
// also among the Game's Voided); nil otherwise. The game is Over then, and
// Result reports no audited result: Claimed has the public one.
func (t *TheGame) Unverified() *Violation {
	if t == nil {
		return nil
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	return t.withheld
}

// Claimed returns the result the public play gives, once the play is
// over: the cards left, won and the command broken, as the table counted
// them before the reveals. Unlike Result it is not audited.
func (t *TheGame) Claimed() (TheGameResult, bool) {
	if t == nil {
		return TheGameResult{}, false
	}
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	if t.g.st < stReveal || t.g.halt != nil {
		return TheGameResult{}, false
	}
	return TheGameResult{Config: t.g.gen.TheGameConfig(), Result: t.result, Turns: t.turns}, true
}
