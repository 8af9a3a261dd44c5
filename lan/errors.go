package lan

import (
	"errors"

	"github.com/njetlan/njet/p2p"
)

// Errors of the package, wrapped with their cause; their texts read as the
// start of a message ("cannot reach the host: …").
var (
	// Errors of Host and Join.

	// ErrNotFilled: the lobby did not fill before the wait ended.
	ErrNotFilled = errors.New("no table")
	// ErrNotFound: no table with a free seat (and the id prefix asked
	// for) appeared on the LAN.
	ErrNotFound = errors.New("no table found")
	// ErrUnreachable: the host at the address or join code did not answer.
	ErrUnreachable = errors.New("cannot reach the host")

	// ErrNoNetwork (WatchTables): the device is on no network; the
	// tables show once it joins one.
	ErrNoNetwork = p2p.ErrNoNetwork

	// Errors of Watcher.TakeSeat.

	// ErrNotBotSeat: the seat asked for is played by no bot that may be
	// handed over: a person's or a device's own seat, or a cheater's
	// seat, which stays with its bot.
	ErrNotBotSeat = errors.New("that seat cannot be taken")
	// ErrSeatRefused: the table's devices refused the claim, or the log
	// handed the seat to another device.
	ErrSeatRefused = errors.New("the table refuses the seat")
	// ErrGameOver: the game ended before the seat changed hands.
	ErrGameOver = errors.New("the game is over")
)
