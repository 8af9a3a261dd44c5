// Package engine holds the rules of the card game Njet!, in both published
// editions: Classic (1997, 3-4 players) and Modern (2017, 2-5 players).
//
// The package is pure and deterministic: no randomness, no clock, no I/O.
// A Game is created from a Config and changed only through Apply, which
// validates an Action fully before it changes anything and returns an error
// wrapping one of the sentinels of errors.go when the action is illegal. The
// deck order comes from outside (a verifiable shuffle in a real game, a
// seeded generator in simulations); DealDeck turns one into the deals.
//
// A round runs through explicit phases: the deal, the Njet phase where the
// seats block fields of the Board until one field of each row is free and
// decides the round's Rules, the teams, the discard or pass, the tricks, and
// the score. Legal lists what a seat may do; View holds what a seat may
// know.
//
// Every peer of a table runs its own engine, which knows only its own hand.
// Other seats' deals, discards and passes then arrive as hidden actions, and
// each hand is modelled as the cards known to be in it plus a count of
// unknown ones. A played card must be one the seat can hold; a seat that
// does not follow suit shows a void, and a later card of that suit is a
// renege reported at once. After the round every seat reveals its hand, and
// AuditRound re-checks the whole round against it.
//
// The rule ids R-… used in comments and test names refer to the project's
// rules digest.
package engine
