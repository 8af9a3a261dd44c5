// Package thegame holds the rules of The Game, the cooperative card game by
// Steffen Benndorf, in its base form and with the Extreme commands.
//
// Like package engine it is pure and deterministic: no randomness, no clock,
// no I/O, the standard library only. A Game is created from a Config and
// changed only through Apply, which validates an Action fully before it
// changes anything and returns an error wrapping one of the sentinels of
// errors.go when the action is illegal.
//
// The order of the deck comes from outside, one card at a time: the deal and
// every draw after a turn are ActDraw actions that carry the drawn card.
// NeedDraw says which seat draws next, so a table can open the next position
// of an encrypted deck to that seat alone; Feed applies draws from a known
// deck order (simulations, tests).
//
// The rules of one turn live in Position, a small value that bots copy to
// plan a turn: which card may go on which pile (CheckPlay), what a play does
// to the piles and to the commands in force (Play), whether the turn may end
// (CheckEnd) and whether its duties can still be met (Feasible). The Game
// wraps it with the seats, the draw pile, the signals and the result.
//
// The rule ids G-… in comments and test names refer to docs/thegame-rules.md.
package thegame
