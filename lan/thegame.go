package lan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
)

// TheGamePerson lets a person play the device's own seat at a table of
// The Game, in whatever front end, until the game is over (nil), the
// person leaves (ErrLeft), or ctx ends (its error). ctx also ends when the
// session stops first. The seat's peer runs in Play; a TheGamePerson only
// reads the seat and hands it the person's moves (term.PlayTheGameLAN and
// the app's table screen do this).
type TheGamePerson func(ctx context.Context, seat *TheGameSeat) error

// TheGameSeat is a person's seat at a LAN table of The Game. It tells the
// seat's view, the moves of every seat in order, whether the table waits
// for the person, and takes the person's moves, checked before they are
// posted. Its methods may be called from any goroutine, but Next keeps
// one count of the moves told: one reader calls it.
type TheGameSeat struct {
	peer  *table.TheGamePeer
	names []string
	told  int
}

// NewTheGameSeat returns the seat a person plays through peer, which must
// be a person's (table.TheGamePeerConfig.Person); names are the players'
// names by seat ("" for a seat without one).
func NewTheGameSeat(peer *table.TheGamePeer, names []string) (*TheGameSeat, error) {
	if peer == nil || !peer.Person() {
		return nil, fmt.Errorf("lan: NewTheGameSeat: %w", table.ErrNotHuman)
	}
	return &TheGameSeat{peer: peer, names: names}, nil
}

// You returns the person's seat.
func (s *TheGameSeat) You() int { return s.peer.Seat() }

// Name returns the name of seat n as the genesis fixes it, or "".
func (s *TheGameSeat) Name(n int) string {
	if n < 0 || n >= len(s.names) {
		return ""
	}
	return s.names[n]
}

// View returns what the person's seat may know now: the piles, the
// person's hand, the others' hand sizes, the signals, the commands.
func (s *TheGameSeat) View() thegame.View { return s.peer.Game().View(s.You()) }

// Act hands the person's move to the seat's peer, which posts it: see
// table.TheGamePeer.Submit for the checks; a refused move changes nothing.
func (s *TheGameSeat) Act(a thegame.Action) error { return s.peer.Submit(a) }

// Warning reports whether the play a would end the game as lost, and the
// command that could not be kept.
func (s *TheGameSeat) Warning(a thegame.Action) (thegame.Command, bool) { return s.peer.Warning(a) }

// Moves returns the moves of the game from the from-th on (plays,
// signals, ends of turn; draws are not told).
func (s *TheGameSeat) Moves(from int) []thegame.Action { return s.peer.Game().Moves(from) }

// YourTurn reports whether the table waits for the person's move.
func (s *TheGameSeat) YourTurn() bool { return s.peer.YourTurn() }

// Waiting returns the seat the table waits for, and false when it waits
// for nobody.
func (s *TheGameSeat) Waiting() (int, bool) { return s.peer.Waiting() }

// Changed receives a value whenever the table may have moved on.
func (s *TheGameSeat) Changed() <-chan struct{} { return s.peer.Changed() }

// Over reports whether the game is over (its result is known; the audit
// follows once every seat has revealed).
func (s *TheGameSeat) Over() bool { return s.View().Phase == thegame.PhaseOver }

// Result returns the game's result, meaningful once it is over.
func (s *TheGameSeat) Result() thegame.Result { return s.View().Result }

// Halted returns the violation that halted the table, or nil.
func (s *TheGameSeat) Halted() error {
	if v := s.peer.Game().Violation(); v != nil {
		return v
	}
	return nil
}

// maxNextWaits bounds the looks Next takes at the table before it gives
// up; the peer looks again at least every tick, so this is hours.
const maxNextWaits = 1 << 22

// Next waits for the next move of the game, the person's own included,
// and returns it. It returns io.EOF once the game is over and every move
// has been told, the table's violation when it halted, and ctx's error
// when ctx ends.
func (s *TheGameSeat) Next(ctx context.Context) (thegame.Action, error) {
	for range maxNextWaits {
		if m := s.Moves(s.told); len(m) > 0 {
			s.told++
			return m[0], nil
		}
		if err := s.Halted(); err != nil {
			return thegame.Action{}, err
		}
		if s.Over() {
			return thegame.Action{}, io.EOF
		}
		select {
		case <-ctx.Done():
			return thegame.Action{}, ctx.Err()
		case <-s.Changed():
		}
	}
	return thegame.Action{}, fmt.Errorf("lan: the table of The Game did not move on")
}

// playTheGame runs a session at a table of The Game to the end: bots
// play the device's seats, or person plays its own seat (when not nil);
// onEvent hears CatchingUp once the person's game is over.
func playTheGame(ctx context.Context, s *p2p.Session, p *table.TheGamePeer, person TheGamePerson, names []string, onEvent func(Event)) (Outcome, error) {
	var err error
	var left bool
	if person != nil && p.Person() {
		left, err = runTheGamePerson(ctx, s, p, person, names, onEvent)
	} else {
		err = s.Run(ctx, nil)
	}
	out := Outcome{Left: left, Over: p.Game().Over()}
	if r, ok := p.Game().Result(); ok {
		out.TheGame = &r
	}
	if v := p.Game().Violation(); v != nil && err == nil {
		err = v
	}
	out.CloseErr = s.Close()
	out.Envelopes, out.Head = p.Log().Head()
	if !out.Over {
		out.Waiting = "the game of The Game did not end"
		if seat, ok := p.Waiting(); ok {
			out.Waiting = fmt.Sprintf("the table waits for seat %d", seat)
		}
	}
	return out, err
}

// runTheGamePerson runs the session while person plays the device's own
// seat. It reports whether the person left before the end (the session
// is then stopped; the store keeps the seat). Once the game is over it
// waits for the session, which lingers for the others.
func runTheGamePerson(ctx context.Context, s *p2p.Session, p *table.TheGamePeer, person TheGamePerson, names []string, onEvent func(Event)) (left bool, err error) {
	seat, err := NewTheGameSeat(p, names)
	if err != nil {
		return false, err
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	pctx, endPerson := context.WithCancel(ctx)
	defer endPerson()
	ran := make(chan error, 1)
	go func() {
		ran <- s.Run(sctx, nil)
		if p.Game().Over() {
			// The others caught up before the person saw the end: a
			// moment to tell it (the peer's view stays).
			t := time.NewTimer(overGrace)
			select {
			case <-pctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
		endPerson()
	}()
	perr := person(pctx, seat)
	switch {
	case perr == nil:
		onEvent(CatchingUp{})
		return false, <-ran
	case errors.Is(perr, ErrLeft):
		stop()
		if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
			return true, err
		}
		return true, nil
	case pctx.Err() != nil && ctx.Err() == nil:
		return false, <-ran
	}
	stop()
	if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
		return false, errors.Join(perr, err)
	}
	return false, perr
}
