package table

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// ErrMovePending: a person's move is refused because the seat's previous
// move has not reached the log yet. Nothing is lost: the earlier move is
// still posted, and the later one may be made again once it has been.
var ErrMovePending = errors.New("table: the seat's previous move is still being posted")

// tgPerson holds what a person submitted for the seat of a TheGamePeer
// until the peer posts it.
type tgPerson struct {
	mu      sync.Mutex
	pending *tgSubmission
	wake    chan struct{} // a submission is waiting
	changed chan struct{} // the peer looked at the log again
}

// tgSubmission is a person's move checked at the log's head (seq, prev).
type tgSubmission struct {
	seq    uint64
	prev   Hash
	action thegame.Action
}

func newTGPerson() *tgPerson {
	return &tgPerson{wake: make(chan struct{}, 1), changed: make(chan struct{}, 1)}
}

// wakeC is the channel Run waits on for a person's move; nil (never ready)
// at a bot's seat.
func (p *TheGamePeer) wakeC() <-chan struct{} {
	if p.person == nil {
		return nil
	}
	return p.person.wake
}

// looked tells a person's front end that the peer looked at the log again.
func (p *TheGamePeer) looked() {
	if p.person == nil {
		return
	}
	select {
	case p.person.changed <- struct{}{}:
	default:
	}
}

// Person reports whether a person plays the seat (TheGamePeerConfig.Person).
func (p *TheGamePeer) Person() bool { return p.person != nil }

// Changed receives a value whenever the peer of a person's seat has looked
// at the log again: the table may have moved on, and the seat may be on
// turn. It is buffered (one value) and nil at a bot's seat.
func (p *TheGamePeer) Changed() <-chan struct{} {
	if p.person == nil {
		return nil
	}
	return p.person.changed
}

// Seat returns the peer's seat.
func (p *TheGamePeer) Seat() int { return p.cfg.Seat }

// Submit hands the peer the person's next move: a card on a pile
// (thegame.ActPlay), a signal (thegame.ActSignal) or the end of the turn
// (thegame.ActEnd), all only while the seat is on turn. It checks, in this
// order, that a person plays the seat (ErrNotHuman), that the seat is on
// turn (thegame.ErrNotYourTurn), that no earlier move is still being
// posted (ErrMovePending) and that the rules allow the move now (the
// engine's sentinel, thegame.ErrIllegalPlay, ErrCommand, ErrTooFew,
// ErrNoTalking, ErrNotInHand, ErrBadAction); on any error nothing changes.
// Run posts the move.
func (p *TheGamePeer) Submit(a thegame.Action) error {
	if p.person == nil {
		return ErrNotHuman
	}
	seat := p.cfg.Seat
	if a.Seat != seat {
		return fmt.Errorf("%w: a move for seat %d submitted by seat %d", thegame.ErrNotYourTurn, a.Seat, seat)
	}
	next, prev := p.rep().head()
	turn, err := p.Game().Entitled(next)
	if err != nil || int(turn.Seat) != seat || !slices.Contains(turn.Kinds, KindPlay) {
		return fmt.Errorf("%w: seat %d is not on turn", thegame.ErrNotYourTurn, seat)
	}
	if !p.hosts(seat) {
		return fmt.Errorf("%w: a bot plays seat %d until the table hands it back", thegame.ErrNotYourTurn, seat)
	}
	p.person.mu.Lock()
	defer p.person.mu.Unlock()
	if s := p.person.pending; s != nil && s.seq == next && s.prev == prev {
		return fmt.Errorf("%w: %v", ErrMovePending, s.action)
	}
	if err := p.Game().checkPersonMove(next, seat, a); err != nil {
		return err
	}
	p.person.pending = &tgSubmission{seq: next, prev: prev, action: a}
	select {
	case p.person.wake <- struct{}{}:
	default:
	}
	return nil
}

// YourTurn reports whether the table waits for the person's move: the
// seat is on turn, may go on, and no move of it is waiting to be posted.
func (p *TheGamePeer) YourTurn() bool {
	if p.person == nil {
		return false
	}
	next, prev := p.rep().head()
	turn, err := p.Game().Entitled(next)
	if err != nil || int(turn.Seat) != p.cfg.Seat || !slices.Contains(turn.Kinds, KindPlay) || !p.hosts(p.cfg.Seat) {
		// Not the seat's turn, or a bot plays the seat until it is
		// handed back.
		return false
	}
	p.person.mu.Lock()
	s := p.person.pending
	p.person.mu.Unlock()
	if s != nil && s.seq == next && s.prev == prev {
		return false
	}
	return !p.Game().seatOwes(next, p.cfg.Seat)
}

// Waiting returns the seat the table waits for now, and false when it
// waits for nobody (before the genesis, or once the game is over or
// halted).
func (p *TheGamePeer) Waiting() (int, bool) {
	next, _ := p.rep().head()
	turn, err := p.Game().Entitled(next)
	if err != nil || next == 0 {
		return 0, false
	}
	return int(turn.Seat), true
}

// Warning reports whether the play a would end the game as lost, and the
// command that could not be kept (as thegame.Game.Warning does).
func (p *TheGamePeer) Warning(a thegame.Action) (thegame.Command, bool) {
	return p.Game().warning(a)
}

// draftSeat drafts the seat's envelope at seq next: a person's move when a
// person plays the seat and the game is in play, else what the protocol
// or the bot owes. It returns nil when the seat waits for its person.
func (p *TheGamePeer) draftSeat(next uint64, prev Hash, seat int, rnd io.Reader, pl tgbot.Player) (*draft, error) {
	if p.person == nil || seat != p.cfg.Seat {
		// A bot: the peer's own seat, or one it hosts for a device gone.
		return p.Game().draft(next, seat, rnd, pl)
	}
	p.person.mu.Lock()
	s := p.person.pending
	if s != nil && (s.seq != next || s.prev != prev) {
		// The log moved on since (a move of the person was posted, or
		// the log followed another branch): it is no longer this move.
		s, p.person.pending = nil, nil
	}
	p.person.mu.Unlock()
	var a *thegame.Action
	if s != nil {
		a = &s.action
	}
	d, err := p.Game().draftPerson(next, p.cfg.Seat, rnd, a, pl)
	if err != nil && s != nil {
		// The move no longer fits: drop it, and the seat is asked again.
		p.person.mu.Lock()
		p.person.pending = nil
		p.person.mu.Unlock()
		if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: a person's move dropped: %v", p.cfg.Seat, err)
		}
		return nil, nil
	}
	return d, err
}

// draftPerson drafts a person's seat at seq: the protocol's steps (and a
// Complaint) as for a bot; in play, Stuck and the end of a turn where
// nothing more fits as the rules decide, else the person's move a (nil:
// the seat waits, and draftPerson returns nil).
func (g *TheGame) draftPerson(seq uint64, seat int, rnd io.Reader, a *thegame.Action, pl tgbot.Player) (*draft, error) {
	g.mu.Lock()
	_, complains := g.complaint(seat)
	inPlay := g.st == stPlay && g.phase == thegame.PhasePlay && g.halt == nil && !complains
	g.mu.Unlock()
	if !inPlay {
		return g.draft(seq, seat, rnd, pl)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next || g.turn != seat {
		return nil, fmt.Errorf("table: seat %d is not on turn at seq %d", seat, seq)
	}
	d := &draft{seq: seq, secrets: map[string][]byte{}}
	q := g.pos
	q.Hand = g.handOf(seat)
	switch {
	case q.Played == 0 && !q.CanPlayMin(), q.Played > 0 && !q.Feasible():
		d.kind, d.body = KindStuck, emptyBody()
		return d, nil
	case q.Played > 0 && !q.CanPlayAny() && (a == nil || a.Kind != thegame.ActSignal):
		d.kind, d.body = KindTurnEnd, emptyBody()
		return d, nil
	case a == nil:
		return nil, nil
	}
	if err := g.checkPersonLocked(&q, *a); err != nil {
		return nil, err
	}
	switch a.Kind {
	case thegame.ActPlay:
		if err := g.draftPlay(d, seat, a.Card, a.Pile, rnd); err != nil {
			return nil, err
		}
	case thegame.ActSignal:
		d.kind, d.body = KindSignal, signalBody(a.Pile, a.Signal)
	default:
		d.kind, d.body = KindTurnEnd, emptyBody()
	}
	return d, nil
}

// seatOwes reports whether the seat on turn at seq owes an envelope the
// rules decide without its player: a Stuck, the end of a turn where
// nothing more fits, or a Complaint about a token that did not open.
func (g *TheGame) seatOwes(seq uint64, seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next || g.st != stPlay || g.phase != thegame.PhasePlay || g.turn != seat {
		return false
	}
	if _, complains := g.complaint(seat); complains {
		return true
	}
	q := g.pos
	q.Hand = g.handOf(seat)
	return q.Played == 0 && !q.CanPlayMin() || q.Played > 0 && (!q.Feasible() || !q.CanPlayAny())
}

// checkPersonMove checks a person's move for seat at seq.
func (g *TheGame) checkPersonMove(seq uint64, seat int, a thegame.Action) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next || g.st != stPlay || g.phase != thegame.PhasePlay || g.turn != seat {
		return fmt.Errorf("%w: the game moved on", thegame.ErrNotYourTurn)
	}
	q := g.pos
	q.Hand = g.handOf(seat)
	return g.checkPersonLocked(&q, a)
}

// checkPersonLocked checks move a against position q (with the seat's
// hand); g.mu is held.
func (g *TheGame) checkPersonLocked(q *thegame.Position, a thegame.Action) error {
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

// warning tells whether the play a by the seat on turn would lose the
// game (the person's hand is this peer's).
func (g *TheGame) warning(a thegame.Action) (thegame.Command, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if a.Kind != thegame.ActPlay || g.st != stPlay || g.phase != thegame.PhasePlay || a.Seat != g.turn {
		return thegame.CmdNone, false
	}
	q := g.pos
	q.Hand = g.handOf(a.Seat)
	if q.CheckPlay(a.Card, a.Pile) != nil {
		return thegame.CmdNone, false
	}
	q.Play(a.Card, a.Pile)
	if q.Stopped || q.Feasible() {
		return thegame.CmdNone, false
	}
	return q.Broken(), true
}

// Moves returns the public moves of the game from the from-th on, in log
// order: every play (with its card), signal and end of turn. Draws are
// not told. A front end keeps how many it has told and asks for the rest.
func (g *TheGame) Moves(from int) []thegame.Action {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []thegame.Action
	i := 0
	for _, r := range g.record {
		var a thegame.Action
		switch {
		case r.draw:
			continue
		case r.kind == KindPlay:
			a = thegame.Action{Kind: thegame.ActPlay, Seat: r.seat, Card: r.card, Pile: r.pile}
		case r.kind == KindSignal:
			a = thegame.Action{Kind: thegame.ActSignal, Seat: r.seat, Pile: r.pile, Signal: r.signal}
		case r.kind == KindTurnEnd:
			a = thegame.Action{Kind: thegame.ActEnd, Seat: r.seat}
		default:
			continue
		}
		if i >= from {
			out = append(out, a)
		}
		i++
	}
	return out
}
