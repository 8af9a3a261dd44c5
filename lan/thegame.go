package lan

import "github.com/njetlan/njet/seat"

// TheGameSeat is a person's seat at a LAN table of The Game
// (seat.TheGameSeat), which PersonSeat.TheGameSeat returns.
type TheGameSeat = seat.TheGameSeat
