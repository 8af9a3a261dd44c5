package words

// PlayAgain asks whether to play again with the same seats.
func PlayAgain() Msg { return msg("game.again") }

// NewGame says that a new game with the same seats begins.
func NewGame() Msg { return msg("game.again.new") }

// Hint words the strong bot's move offered to the person as a hint.
func Hint(move Msg) Msg { return msg("hint", "Move", move) }

// NoHint says there is no hint to give now.
func NoHint() Msg { return msg("hint.none") }

// HintsOff says that the host of a LAN table did not allow hints.
func HintsOff() Msg { return msg("hint.off") }
