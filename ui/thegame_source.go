package ui

import (
	"context"

	"github.com/njetlan/njet/thegame"
)

// TheGameSource is the game a table screen of The Game shows: a local game
// against bots on this device, or a LAN table. The screen reads the person's
// view and the moves in order, and sends the person's actions back; it
// never decides anything about the game itself.
type TheGameSource interface {
	// You is the person's seat.
	You() int
	// View is what the person's seat may know now.
	View() thegame.View
	// Warning reports whether the play a would end the game as lost, and
	// the command that could not be kept (thegame.Game.Warning).
	Warning(a thegame.Action) (thegame.Command, bool)
	// Act carries out the person's play, end of turn or signal. A refused
	// action changes nothing; the error wraps the engine's sentinel.
	Act(a thegame.Action) error
	// Next waits for the next move of the game, the person's own included,
	// and returns it; draws are not told. It returns io.EOF once the game
	// is over and every move has been told, a *seat.Rewound when a LAN
	// table's log no longer holds every move told (the screen then keeps
	// the moves that stand and goes on), a *seat.ViewChanged when the
	// person's cards were dealt or drawn with no move to tell (the screen
	// shows the hand), and ctx's error when ctx ends.
	Next(ctx context.Context) (thegame.Action, error)
}
