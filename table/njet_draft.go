package table

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// ErrIllegalAction: a person's move is not one of the seat's legal moves
// now. It wraps the rules' reason when they give one (engine.ErrMustFollow,
// engine.ErrIllegalBlock, …), or names a move of another game's type.
var ErrIllegalAction = errors.New("table: not a legal action for the seat now")

// njetPlayer is how the rules of Njet ask a player (a bot of package bot
// is one): one of the legal actions, given the seat's view.
type njetPlayer interface {
	Act(v *engine.View, legal []engine.Action) engine.Action
}

// draft fills d with the seat's block, team choice, discard or pass, or
// play.
func (n *Njet) draft(d *draft, seat int, rnd io.Reader, c chooser) error {
	_, kind, _ := n.entitled()
	if len(kind) != 1 {
		return fmt.Errorf("table: cannot draft in engine phase %s", n.eng.Phase())
	}
	a, ok, err := n.choose(seat, c)
	if err != nil || !ok {
		return err
	}
	d.kind = kind[0]
	switch d.kind {
	case tablelog.KindBlock:
		d.body = blockBody(a.Row, a.Field)
	case tablelog.KindTeam:
		d.body = teamBody(a.Partners, a.Bonus)
	case tablelog.KindDiscardCommit, tablelog.KindPassCommit:
		return n.draftChoice(d, seat, a, rnd)
	case tablelog.KindPlay:
		return n.draftPlay(d, seat, a, rnd)
	case tablelog.KindRecoveredPlay:
		return n.draftRecoveredPlay(d, seat, a, rnd)
	}
	return nil
}

// choose returns the seat's action: its person's move, or its player's
// choice among the engine's legal actions. It reports false while a
// person has not chosen.
func (n *Njet) choose(seat int, c chooser) (engine.Action, bool, error) {
	legal := n.eng.Legal(seat)
	v := n.eng.View(seat)
	if seat == n.g.rd.gone {
		v, legal = n.recoveredChoice(seat)
	}
	if len(legal) == 0 {
		return engine.Action{}, false, fmt.Errorf("table: seat %d has no legal action", seat)
	}
	var a engine.Action
	if c.person {
		if c.move == nil {
			return engine.Action{}, false, nil
		}
		m, ok := c.move.(engine.Action)
		if !ok {
			return engine.Action{}, false, fmt.Errorf("%w: a %T at a Njet table", ErrIllegalAction, c.move)
		}
		a = m
	} else {
		pl, ok := c.player.(njetPlayer)
		if !ok {
			return engine.Action{}, false, fmt.Errorf("table: seat %d: a player %T does not play Njet", seat, c.player)
		}
		a = pl.Act(&v, legal)
	}
	if (c.strict || c.person) && !slices.Contains(legal, a) {
		return engine.Action{}, false, fmt.Errorf("%w: seat %d: %v", ErrIllegalAction, seat, a)
	}
	return a, true, nil
}

// positionOf finds the deck position where hosted seat holds card c.
func (n *Njet) positionOf(seat int, c engine.Card) (int, error) {
	d := n.d
	left := (seat + n.g.n - 1) % n.g.n
	for p, pc := range d.cardAt {
		if pc != c || d.playedBy[p] >= 0 {
			continue
		}
		if o := n.owner(p); o == seat && d.passPos[seat] != p || o == left && d.passPos[left] == p {
			return p, nil
		}
	}
	return 0, fmt.Errorf("table: seat %d holds %s at no position", seat, c)
}

func (n *Njet) draftChoice(d *draft, seat int, a engine.Action, rnd io.Reader) error {
	g, rd := n.g, n.g.rd
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	ch := &choice{}
	cards := []engine.Card{a.Card}
	if d.kind == tablelog.KindDiscardCommit {
		cards = cards[:0]
		for _, c := range a.Cards {
			if c != engine.NoCard {
				cards = append(cards, c)
			}
		}
	}
	for _, c := range cards {
		p, err := n.positionOf(seat, c)
		if err != nil {
			return err
		}
		ch.Positions = append(ch.Positions, p)
	}
	slices.Sort(ch.Positions)
	if _, err := io.ReadFull(rnd, ch.Salt[:]); err != nil {
		return err
	}
	var fwd *crypto.Sealed
	if d.kind == tablelog.KindPassCommit {
		p := ch.Positions[0]
		if fwd, err = rd.cr.Forward(sec, rd.deck, p, (seat+1)%g.n, rd.openings[p], rnd); err != nil {
			return err
		}
	}
	w := &writer{}
	ch.encode(w)
	d.secrets[choiceName(g.round, seat)] = w.bytes()
	d.body, err = commitBody(ch.commitment(g.cfg.Table, g.round, seat, d.kind), fwd)
	return err
}

func (n *Njet) draftPlay(d *draft, seat int, a engine.Action, rnd io.Reader) error {
	g, rd := n.g, n.g.rd
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	p, err := n.positionOf(seat, a.Card)
	if err != nil {
		return err
	}
	m, err := rd.cr.Play(sec, rd.deck, p, rd.openings[p], rnd)
	if err != nil {
		return err
	}
	d.body, err = cryptoBody(m)
	return err
}

// asks: every envelope of the play at a Njet table is its seat's choice.
func (n *Njet) asks(int) (bool, bool) { return true, false }

// checkMove checks that move is one of seat's legal actions now.
func (n *Njet) checkMove(seat int, move any, now bool) error {
	a, err := ownMove(seat, move, now, func(a engine.Action) int { return a.Seat }, engine.ErrNotYourTurn)
	if err != nil || slices.Contains(n.eng.Legal(seat), a) {
		return err
	}
	// Ask a copy of the engine why, for a clear error.
	if err := n.eng.Clone().Apply(a); err != nil {
		return fmt.Errorf("%w: %w", ErrIllegalAction, err)
	}
	return fmt.Errorf("%w: %v", ErrIllegalAction, a)
}

// options returns what a person's seat is asked with: its view and its
// legal actions.
func (n *Njet) options(seat int) (engine.View, []engine.Action) {
	n.g.mu.Lock()
	defer n.g.mu.Unlock()
	return n.eng.View(seat), n.eng.Legal(seat)
}
