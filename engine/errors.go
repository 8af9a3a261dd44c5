package engine

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every error from Apply, NewGame and the parsers wraps one
// of them; test with errors.Is.
var (
	ErrBadConfig      = errors.New("engine: bad game configuration")
	ErrBadCard        = errors.New("engine: no such card")
	ErrBadAction      = errors.New("engine: malformed action")
	ErrGameOver       = errors.New("engine: the game is over")
	ErrWrongPhase     = errors.New("engine: action not allowed in this phase")
	ErrNotYourTurn    = errors.New("engine: not this seat's turn")
	ErrAlreadyActed   = errors.New("engine: seat has already acted in this phase")
	ErrIllegalBlock   = errors.New("engine: field cannot be blocked")
	ErrIllegalTeam    = errors.New("engine: illegal team choice")
	ErrIllegalCard    = errors.New("engine: seat cannot hold that card")
	ErrMustFollow     = errors.New("engine: must follow the led suit")
	ErrRenege         = errors.New("engine: renege: play contradicts a void the seat has shown")
	ErrIllegalDiscard = errors.New("engine: illegal discard")
	ErrAudit          = errors.New("engine: the revealed round does not match the play")
)

// SeatError attributes an error to the seat at fault. It unwraps to one of
// the sentinels above.
type SeatError struct {
	Seat int
	Err  error
}

// Error names the seat and the fault.
func (e *SeatError) Error() string { return "seat " + strconv.Itoa(e.Seat) + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *SeatError) Unwrap() error { return e.Err }
