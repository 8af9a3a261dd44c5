// Package bot plays The Game (package thegame) for a seat.
//
// A Player sees only its seat's View. Greedy is the baseline: it lays the
// card that moves a pile the least, backwards tricks first, and plays no
// more than the turn's minimum. Coop plays as a team member: it plans its
// whole turn by search, counts the cards already played so that a jump over
// played numbers costs nothing, reads the other seats' signals and gives
// its own, plays extra cards only when they cost next to nothing, and once
// the draw pile is empty searches for the longest run it can still lay.
//
// The expert (NewExpert) is Coop's planning with a better Judgement: every
// unplayed card is priced by how many piles it still fits, so that a jump
// costs what it takes from the cards' homes rather than the count of
// numbers it skips; its turn search remembers the positions it has reached.
//
// All are deterministic: the same views give the same actions.
package bot
