package table

import (
	"errors"
	"fmt"
	"slices"

	"github.com/njetlan/njet/engine"
)

// ErrIllegalAction: a human's submitted action is not one of the seat's
// legal actions now. It wraps the engine's reason when the engine gives one
// (engine.ErrMustFollow, engine.ErrIllegalBlock, …).
var ErrIllegalAction = errors.New("table: not a legal action for the seat now")

// ErrNotHuman: Submit on a peer whose seat is played by its bot.
var ErrNotHuman = errors.New("table: the seat is played by a bot")

// choiceKind reports whether an envelope of kind k carries a player's
// choice (asked of a human seat) rather than a step of the protocol.
func choiceKind(k Kind) bool {
	switch k {
	case KindBlock, KindTeam, KindDiscardCommit, KindPassCommit, KindPlay:
		return true
	}
	return false
}

// Submit hands the peer its human seat's choice for the current Prompt:
// a Njet block, a team choice, a discard or pass, or a play. It checks, in
// this order, that the peer's seat is a human's (ErrNotHuman), that the
// seat must choose now (engine.ErrNotYourTurn) and that the action is one
// of its legal actions (ErrIllegalAction, wrapping the engine's reason);
// on any error nothing changes and the prompt stands. Run posts the choice.
func (p *Peer) Submit(a engine.Action) error {
	if !p.cfg.Human {
		return ErrNotHuman
	}
	game, log, _ := p.state()
	next, prev := log.Head()
	seat := p.cfg.Seat
	turn, err := game.Entitled(next)
	if err != nil || int(turn.Seat) != seat || game.HostOf(seat) >= 0 || !choiceKind(turn.Kinds[0]) {
		return fmt.Errorf("%w: seat %d has nothing to choose at seq %d", engine.ErrNotYourTurn, seat, next)
	}
	if a.Seat != seat {
		return fmt.Errorf("%w: an action for seat %d submitted by seat %d", engine.ErrNotYourTurn, a.Seat, seat)
	}
	if err := game.checkAction(next, seat, a); err != nil {
		return err
	}
	p.mu.Lock()
	p.choice = &submission{seq: next, prev: prev, action: a}
	p.mu.Unlock()
	p.signal()
	return nil
}

// submitted returns the human's choice for seq, or prompts for it (once
// per seq and head) and reports false. A choice made at another head (the
// log followed another branch since, and seq now names another state) or
// no longer legal is dropped, and the seat is asked again.
func (p *Peer) submitted(game *Game, seq uint64, prev Hash, seat int, kind Kind) (engine.Action, bool) {
	p.mu.Lock()
	c := p.choice
	p.choice = nil
	asked := p.prompt != nil && p.prompt.Seq == seq && p.prompt.Head == prev
	p.mu.Unlock()
	if c != nil && c.seq == seq && c.prev == prev && game.checkAction(seq, seat, c.action) == nil {
		return c.action, true
	}
	if asked {
		return engine.Action{}, false
	}
	view, legal, err := game.options(seq, seat)
	if err != nil {
		return engine.Action{}, false
	}
	pr := &Prompt{Seq: seq, Head: prev, Seat: seat, Kind: kind, View: view, Legal: legal}
	p.mu.Lock()
	p.prompt = pr
	p.mu.Unlock()
	p.emit(pr)
	return engine.Action{}, false
}

// options returns seat's view and legal actions at seq.
func (g *Game) options(seq uint64, seat int) (engine.View, []engine.Action, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next || g.eng == nil {
		return engine.View{}, nil, fmt.Errorf("table: asked for seq %d, the game is at %d", seq, g.next)
	}
	return g.eng.View(seat), g.eng.Legal(seat), nil
}

// checkAction checks that a is one of seat's legal actions at seq.
func (g *Game) checkAction(seq uint64, seat int, a engine.Action) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next || g.eng == nil {
		return fmt.Errorf("%w: the game moved on", engine.ErrNotYourTurn)
	}
	if slices.Contains(g.eng.Legal(seat), a) {
		return nil
	}
	// Ask a copy of the engine why, for a clear error.
	if err := g.eng.Clone().Apply(a); err != nil {
		return fmt.Errorf("%w: %w", ErrIllegalAction, err)
	}
	return fmt.Errorf("%w: %v", ErrIllegalAction, a)
}
