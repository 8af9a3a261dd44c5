package lan

import (
	"context"

	"github.com/njetlan/njet/seat"
)

// TheGamePerson lets a person play the device's own seat at a table of
// The Game, in whatever front end, until the game is over (nil), the
// person leaves (ErrLeft), or ctx ends (its error). ctx also ends when the
// session stops first. The seat's peer runs in Play; a TheGamePerson only
// reads the seat and hands it the person's moves (term.PlayTheGameLAN and
// the app's table screen do this).
type TheGamePerson func(ctx context.Context, seat *TheGameSeat) error

// TheGameSeat is a person's seat at a LAN table of The Game
// (seat.TheGameSeat).
type TheGameSeat = seat.TheGameSeat
