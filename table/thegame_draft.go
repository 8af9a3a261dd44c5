package table

import (
	"fmt"
	"io"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// theGamePlayer is how the rules of The Game ask a player (a bot of
// package thegame/bot is one): a play or the end of the turn, and the
// signals it gives before the turn ends.
type theGamePlayer interface {
	Act(v *thegame.View) thegame.Action
	Talk(v *thegame.View) []thegame.Action
}

// The bodies of The Game's own kinds: a Play carries the pile and the
// crypto play message that opens the position to everyone; a Signal the
// pile and the signal; a TurnEnd and a Stuck the version alone.

func playBody(pile int, m *crypto.PlayMessage) ([]byte, error) {
	w := newWriter()
	w.u8(pile)
	if err := w.marshal(m); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

const maxPlayMessage = 1 << 11

func parsePlayBody(body []byte) (int, *crypto.PlayMessage, error) {
	r := newReader(tablelog.KindPlay, body)
	pile := r.u8()
	m := new(crypto.PlayMessage)
	r.unmarshal(m, maxPlayMessage)
	if err := r.finish(); err != nil {
		return 0, nil, err
	}
	if pile >= thegame.NumPiles {
		return 0, nil, fmt.Errorf("%w: Play body: no pile %d", tablelog.ErrMalformed, pile)
	}
	return pile, m, nil
}

func signalBody(pile int, s thegame.Signal) []byte {
	w := newWriter()
	w.u8(pile)
	w.u8(int(s))
	return w.bytes()
}

func parseSignal(body []byte) (int, thegame.Signal, error) {
	r := newReader(tablelog.KindSignal, body)
	pile, s := r.u8(), thegame.Signal(r.u8())
	return pile, s, r.finish()
}

// emptyBody is the body of a TurnEnd or a Stuck: the version alone.
func emptyBody() []byte { return newWriter().bytes() }

func parseEmpty(kind tablelog.Kind, body []byte) error { return newReader(kind, body).finish() }

// draft fills d with the envelope of hosted seat in the play: its tokens
// for another seat's draw, or its turn.
func (t *TheGame) draft(d *draft, seat int, rnd io.Reader, c chooser) error {
	if t.phase == thegame.PhaseDraw {
		to, pos := t.drawOrder()
		return t.g.draftTokens(d, seat, to, pos, rnd)
	}
	return t.draftTurn(d, seat, rnd, c)
}

// draftTurn chooses the next envelope of the seat on turn. The seat knows
// its hand, so it says what the rules decide from it: Stuck when the turn
// cannot be played (G-B6, G-X2), TurnEnd when nothing more fits (unless
// its person gives a signal first); otherwise its person's move, or its
// player plays a card, or gives its signals and ends the turn. A person
// who has not chosen leaves d empty.
func (t *TheGame) draftTurn(d *draft, seat int, rnd io.Reader, c chooser) error {
	q := t.pos
	q.Hand = t.handOf(seat)
	move, _ := c.move.(thegame.Action)
	signal := c.person && c.move != nil && move.Kind == thegame.ActSignal
	switch {
	case q.Played == 0 && !q.CanPlayMin(), q.Played > 0 && !q.Feasible():
		d.kind, d.body = tablelog.KindStuck, emptyBody()
		return nil
	case q.Played > 0 && !q.CanPlayAny() && !signal:
		d.kind, d.body = tablelog.KindTurnEnd, emptyBody()
		return nil
	}
	if c.person {
		if c.move == nil {
			return nil
		}
		if err := t.checkMove(seat, c.move, true); err != nil {
			return err
		}
		switch move.Kind {
		case thegame.ActPlay:
			return t.draftPlay(d, seat, move.Card, move.Pile, rnd)
		case thegame.ActSignal:
			d.kind, d.body = tablelog.KindSignal, signalBody(move.Pile, move.Signal)
		default:
			d.kind, d.body = tablelog.KindTurnEnd, emptyBody()
		}
		return nil
	}
	pl, ok := c.player.(theGamePlayer)
	if !ok {
		return fmt.Errorf("table: seat %d: a player %T does not play The Game", seat, c.player)
	}
	v := t.view(seat)
	a := pl.Act(&v)
	switch a.Kind {
	case thegame.ActPlay:
		if err := q.CheckPlay(a.Card, a.Pile); err != nil {
			return fmt.Errorf("table: the player of seat %d chose %v: %w", seat, a, err)
		}
		return t.draftPlay(d, seat, a.Card, a.Pile, rnd)
	case thegame.ActEnd:
		if !q.CanEnd() {
			return fmt.Errorf("table: the player of seat %d ends a turn that may not end", seat)
		}
		if !v.Muted {
			for _, s := range pl.Talk(&v) {
				if s.Kind == thegame.ActSignal && s.Pile >= 0 && s.Pile < thegame.NumPiles && v.Signals[seat][s.Pile] != s.Signal {
					d.kind, d.body = tablelog.KindSignal, signalBody(s.Pile, s.Signal)
					return nil
				}
			}
		}
		d.kind, d.body = tablelog.KindTurnEnd, emptyBody()
		return nil
	}
	return fmt.Errorf("table: the player of seat %d has no move", seat)
}

// draftPlay opens card c of the seat's hand to everyone, for pile.
func (t *TheGame) draftPlay(d *draft, seat int, c thegame.Card, pile int, rnd io.Reader) error {
	g, rd := t.g, t.g.rd
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	pos := -1
	for p, k := range t.known {
		if k == c && t.holder[p] == seat && !t.played[p] {
			pos = p
		}
	}
	if pos < 0 {
		return fmt.Errorf("table: seat %d holds %s at no position", seat, c)
	}
	m, err := rd.cr.Play(sec, rd.deck, pos, rd.openings[pos], rnd)
	if err != nil {
		return err
	}
	d.kind = tablelog.KindPlay
	d.body, err = playBody(pile, m)
	return err
}

// asks: the seat on turn in the play moves by its person's word, but the
// rules decide alone a Stuck, and the end of a turn where nothing more
// fits.
func (t *TheGame) asks(seat int) (bool, bool) {
	if t.phase != thegame.PhasePlay || t.turn != seat {
		return false, false
	}
	q := t.pos
	q.Hand = t.handOf(seat)
	return true, q.Played == 0 && !q.CanPlayMin() || q.Played > 0 && (!q.Feasible() || !q.CanPlayAny())
}

// checkMove checks a person's move: a card on a pile, a signal or the end
// of the turn, against the position and the seat's hand.
func (t *TheGame) checkMove(seat int, move any, now bool) error {
	a, err := ownMove(seat, move, now, func(a thegame.Action) int { return a.Seat }, thegame.ErrNotYourTurn)
	if err != nil {
		return err
	}
	q := t.pos
	q.Hand = t.handOf(seat)
	switch a.Kind {
	case thegame.ActPlay:
		return q.CheckPlay(a.Card, a.Pile)
	case thegame.ActEnd:
		return q.CheckEnd()
	case thegame.ActSignal:
		switch {
		case a.Pile < 0 || a.Pile >= thegame.NumPiles:
			return fmt.Errorf("%w: no pile %d", thegame.ErrBadAction, a.Pile)
		case a.Signal > thegame.SignalGood:
			return fmt.Errorf("%w: no signal %d", thegame.ErrBadAction, a.Signal)
		case q.InForce(thegame.CmdSilence):
			return thegame.ErrNoTalking
		}
		return nil
	}
	return fmt.Errorf("%w: a person may play, signal or end the turn, not %v", thegame.ErrBadAction, a.Kind)
}
