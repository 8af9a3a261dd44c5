package seat

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
)

// TheGameSeat is a person's seat at a LAN table of The Game (lan.Play
// makes one for its TheGamePerson). It tells the
// seat's view, the moves of every seat in order, whether the table waits
// for the person, and takes the person's moves, checked before they are
// posted. Its methods may be called from any goroutine, but Next keeps
// what it told: one reader calls it.
type TheGameSeat struct {
	peer    *table.Peer
	names   []string
	changed <-chan struct{}
	told    Told[thegame.Action]
	queue   []thegame.Action // moves taken as told, not returned yet
	// seen is the person's view when Next last returned.
	seen seen
}

// seen is what of the person's view a screen shows besides the moves:
// the phase, the seat on turn, the person's hand.
type seen struct {
	phase thegame.Phase
	turn  int
	hand  []thegame.Card
}

func seenOf(v thegame.View) seen { return seen{phase: v.Phase, turn: v.Turn, hand: v.Hand} }

func (a seen) equal(b seen) bool {
	return a.phase == b.phase && a.turn == b.turn && slices.Equal(a.hand, b.hand)
}

// ViewChanged is the error of TheGameSeat.Next when the person's view
// changed with no move to tell: the cards were dealt, drawn after a turn,
// or dealt again after a takeover (draws are not told as moves). The view
// has the new hand; Next goes on with the moves.
type ViewChanged struct{}

func (*ViewChanged) Error() string { return "seat: the person's cards were dealt or drawn" }

// Rewound is the error of TheGameSeat.Next when the table's log no longer
// holds every move Next told: the device was cut off from the table,
// which went on without it, and follows the table's log now. Kept are the
// moves told that still stand, in order; Next goes on with the table's
// moves after them.
type Rewound struct {
	Kept []thegame.Action
}

func (r *Rewound) Error() string {
	return fmt.Sprintf("seat: the table went on without this device; %d moves told stand", len(r.Kept))
}

// NewTheGameSeat returns the seat a person plays through peer, which must
// be a person's at a table of The Game (table.PeerConfig.Human); names
// are the players' names by seat ("" for a seat without one), and changed
// receives a value whenever the table may have moved on (nil: the peer's
// own Changed).
func NewTheGameSeat(peer *table.Peer, names []string, changed <-chan struct{}) (*TheGameSeat, error) {
	if peer == nil || !peer.Human() || peer.Game().Genesis() != nil && peer.Game().Genesis().Game != table.GameTheGame {
		return nil, fmt.Errorf("seat: NewTheGameSeat: %w", table.ErrNotHuman)
	}
	if changed == nil {
		changed = peer.Changed()
	}
	return &TheGameSeat{peer: peer, names: names, changed: changed, told: Comparable[thegame.Action]()}, nil
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
func (s *TheGameSeat) View() thegame.View { return s.peer.Game().TheGame().View(s.You()) }

// Act hands the person's move to the seat's peer, which posts it: see
// table.Peer.Submit for the checks; a refused move changes nothing.
func (s *TheGameSeat) Act(a thegame.Action) error { return s.peer.Submit(a) }

// Warning reports whether the play a would end the game as lost, and the
// command that could not be kept.
func (s *TheGameSeat) Warning(a thegame.Action) (thegame.Command, bool) {
	return s.peer.Game().TheGame().Warning(a)
}

// Moves returns the moves of the game from the from-th on (plays,
// signals, ends of turn; draws are not told).
func (s *TheGameSeat) Moves(from int) []thegame.Action {
	if tg := s.peer.Game().TheGame(); tg != nil {
		return tg.Moves(from)
	}
	return nil
}

// Host returns the seat whose device plays seat now: the host of the bot
// the table seated there when its device left, or the seat itself.
func (s *TheGameSeat) Host(seat int) int { return s.peer.Game().PeerOf(seat) }

// Wait is what the table waits for: the seat, the vote on it once its
// device is silent, the clock on the person's own move.
func (s *TheGameSeat) Wait() Wait { return waitOf(s.peer.View()) }

// VoteVoid votes that a bot plays the silent seat the table waits for (the
// cards not yet played are then dealt again); it returns an error wrapping
// ErrCannotVote unless Wait's vote is open.
func (s *TheGameSeat) VoteVoid() error {
	if err := s.peer.VoteVoid(); err != nil {
		return fmt.Errorf("%w: %w", ErrCannotVote, err)
	}
	return nil
}

// Hints reports whether the host allowed hints at the table.
func (s *TheGameSeat) Hints() bool { return s.peer.Game().Genesis().Hints }

// YourTurn reports whether the table waits for the person's move.
func (s *TheGameSeat) YourTurn() bool { return s.peer.YourTurn() }

// Waiting returns the seat the table waits for, and false when it waits
// for nobody.
func (s *TheGameSeat) Waiting() (int, bool) { return s.peer.Waiting() }

// Changed receives a value whenever the table may have moved on.
func (s *TheGameSeat) Changed() <-chan struct{} { return s.changed }

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
// has been told, the table's violation when it halted, a *Rewound when
// the table's log left moves it told, a *ViewChanged when the person's view
// changed while no move was made (the deal, their draw after their turn),
// and ctx's error when ctx ends.
func (s *TheGameSeat) Next(ctx context.Context) (thegame.Action, error) {
	for range maxNextWaits {
		if len(s.queue) == 0 {
			now := s.Moves(0)
			fresh, switched := s.told.News(now)
			s.queue = fresh
			if switched {
				return thegame.Action{}, &Rewound{Kept: slices.Clone(now[:len(now)-len(fresh)])}
			}
		}
		if len(s.queue) > 0 {
			a := s.queue[0]
			s.queue = s.queue[1:]
			s.seen = seenOf(s.View())
			return a, nil
		}
		if err := s.Halted(); err != nil {
			return thegame.Action{}, err
		}
		if s.Over() {
			return thegame.Action{}, io.EOF
		}
		if now := seenOf(s.View()); !now.equal(s.seen) {
			s.seen = now
			return thegame.Action{}, &ViewChanged{}
		}
		select {
		case <-ctx.Done():
			return thegame.Action{}, ctx.Err()
		case <-s.Changed():
		}
	}
	return thegame.Action{}, fmt.Errorf("seat: the table of The Game did not move on")
}
