package thegame

import "errors"

// Sentinel errors. Every error from Apply and NewGame wraps one of them;
// test with errors.Is.
var (
	ErrBadConfig   = errors.New("thegame: bad game configuration")
	ErrBadCard     = errors.New("thegame: no such card")
	ErrBadAction   = errors.New("thegame: malformed action")
	ErrGameOver    = errors.New("thegame: the game is over")
	ErrWrongPhase  = errors.New("thegame: action not allowed in this phase")
	ErrNotYourTurn = errors.New("thegame: not this seat's turn")
	ErrDrawn       = errors.New("thegame: card already drawn")
	ErrNotInHand   = errors.New("thegame: card not in the hand")
	ErrIllegalPlay = errors.New("thegame: card does not fit the pile")
	ErrCommand     = errors.New("thegame: the move breaks a command in force")
	ErrTooFew      = errors.New("thegame: the turn has not played enough cards")
	ErrNoTalking   = errors.New("thegame: no talking is in force")
)
