package table

import (
	"errors"
	"fmt"
	"time"

	"github.com/njetlan/njet/tablelog"
)

// ErrNotHuman: Submit on a peer whose seat is played by its player.
var ErrNotHuman = errors.New("table: the seat is played by a bot")

// ErrMovePending: a person's move is refused because the seat's previous
// move has not reached the log yet. Nothing is lost: the earlier move is
// still posted, and the later one may be made again once it has been.
var ErrMovePending = errors.New("table: the seat's previous move is still being posted")

// submission is a person's move checked at the log's head (seq, prev): a
// seq names no state by itself once a branch can be dropped.
type submission struct {
	seq  uint64
	prev tablelog.Hash
	move any
}

// Human reports whether a person plays the peer's seat (PeerConfig.Human).
func (p *Peer) Human() bool { return p.cfg.Human }

// Submit hands the peer its person's move: at a Njet table an
// engine.Action (a block, a team choice, a discard or pass, or a play), at
// a table of The Game a thegame.Action (a card on a pile, a signal or the
// end of the turn). It checks, in this order, that a person plays the
// seat (ErrNotHuman), that the seat may move now (the game's own "not
// your turn": engine.ErrNotYourTurn, thegame.ErrNotYourTurn), that no
// earlier move is still being posted (ErrMovePending) and that the rules
// allow the move (ErrIllegalAction wrapping the engine's reason at a Njet
// table; the sentinels of package thegame at a table of The Game); on any
// error nothing changes. Run posts the move.
func (p *Peer) Submit(move any) error {
	if !p.cfg.Human {
		return ErrNotHuman
	}
	game, log, _ := p.state()
	next, prev := log.Head()
	seat := p.cfg.Seat
	now, _ := game.asks(next, seat)
	now = now && p.hosts(game, seat) && game.HostOf(seat) < 0
	if !now {
		return game.checkMove(next, seat, move, false) // the game's own "not your turn"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.pending; s != nil && s.seq == next && s.prev == prev {
		return fmt.Errorf("%w: %v", ErrMovePending, s.move)
	}
	if err := game.checkMove(next, seat, move, true); err != nil {
		return err
	}
	p.pending = &submission{seq: next, prev: prev, move: move}
	p.signal()
	return nil
}

// YourTurn reports whether the table waits for the person's move: the
// seat may move, the rules cannot decide its envelope alone, and no move
// of it is waiting to be posted.
func (p *Peer) YourTurn() bool {
	if !p.cfg.Human {
		return false
	}
	game, log, _ := p.state()
	next, prev := log.Head()
	asks, alone := game.asks(next, p.cfg.Seat)
	if !asks || alone || !p.hosts(game, p.cfg.Seat) || game.HostOf(p.cfg.Seat) >= 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.pending
	return s == nil || s.seq != next || s.prev != prev
}

// chooser returns who chooses the next envelope of seat at seq: its
// person when a person plays it and the envelope may carry the person's
// move (the move waiting at this head, or none if the rules could decide
// alone), else its player. It reports false while the person is to
// choose and has not.
func (p *Peer) chooser(game *Game, seq uint64, prev tablelog.Hash, seat int, kind tablelog.Kind) (chooser, bool) {
	if p.cfg.Human && seat == p.cfg.Seat && game.HostOf(seat) < 0 {
		if asks, alone := game.asks(seq, seat); asks {
			p.mu.Lock()
			s := p.pending
			if s != nil && (s.seq != seq || s.prev != prev) {
				// The log moved on since (the move was posted, or the log
				// followed another branch): it is no longer this move.
				s, p.pending = nil, nil
			}
			p.mu.Unlock()
			switch {
			case s == nil && !alone && !p.clockOut(seq, prev):
				p.ask(game, seq, prev, seat, kind)
				return chooser{}, false
			case s != nil || alone:
				c := chooser{person: true}
				if s != nil {
					c.move = s.move
				}
				return c, true
			}
			// The table's clock ran out: the device's bot moves for the
			// person, who keeps the seat.
			p.mu.Lock()
			if p.outOf != p.prompt {
				p.outOf = p.prompt
				p.clockOuts++
			}
			p.mu.Unlock()
			if p.cfg.Logf != nil {
				p.cfg.Logf("table: seat %d: the clock ran out at seq %d; its bot moves", seat, seq)
			}
			if pl, err := p.clockBot(); err == nil {
				return chooser{player: pl, strict: true}, true
			}
		}
	}
	pl, err := p.playerOf(seat)
	if err != nil {
		return chooser{}, false
	}
	return chooser{player: pl, strict: true}, true
}

// ask prompts the person for its move at seq (once per seq and head): an
// Event with the Prompt, and Changed.
func (p *Peer) ask(game *Game, seq uint64, prev tablelog.Hash, seat int, kind tablelog.Kind) {
	p.mu.Lock()
	asked := p.prompt != nil && p.prompt.Seq == seq && p.prompt.Head == prev
	p.mu.Unlock()
	if asked {
		return
	}
	pr := &Prompt{Seq: seq, Head: prev, Seat: seat, Kind: kind}
	if c := game.Genesis().Clock; c > 0 {
		pr.Until = p.cfg.Now().Add(time.Duration(c) * time.Second)
	}
	if nj := game.Njet(); nj != nil {
		pr.View, pr.Legal = nj.options(seat)
	}
	p.mu.Lock()
	p.prompt = pr
	p.mu.Unlock()
	p.emit(pr)
	p.looked()
}

// clockOut reports whether the person's time for the move asked at (seq,
// prev) has run out (Prompt.Until).
func (p *Peer) clockOut(seq uint64, prev tablelog.Hash) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	pr := p.prompt
	return pr != nil && pr.Seq == seq && pr.Head == prev && !pr.Until.IsZero() && !p.cfg.Now().Before(pr.Until)
}

// clockBot returns the player that moves for the person whose time ran
// out (PeerConfig.ClockBot).
func (p *Peer) clockBot() (Player, error) {
	if p.cfg.ClockBot == "" {
		return p.playerOf(p.cfg.Seat)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clockPlayer == nil {
		pl, err := p.cfg.NewPlayer(p.cfg.ClockBot, p.botRand)
		if err != nil {
			return nil, err
		}
		p.clockPlayer = pl
	}
	return p.clockPlayer, nil
}
