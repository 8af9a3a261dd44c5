// Package bot holds computer players for Njet!.
//
// A Player chooses one action from the actions the engine says are legal for
// its seat, looking only at that seat's engine.View: bots never see hidden
// cards. Two kinds exist:
//
//   - "random" picks any legal action, uniformly.
//   - "heuristic" plays like a sensible beginner: in the Njet phase it blocks
//     the trump and supertrump colours it is weak in and steers the points
//     value and the start player by the strength of its hand; it picks a
//     partner from the blocks the others placed; it discards low side cards
//     and keeps trumps; in trick play it wins tricks that hold loot, leads
//     its masters and long suits, follows low when it cannot win and never
//     overtakes its partner.
//
// New builds a player by kind name. Every player takes a *rand.Rand and
// draws from nothing else, so a game with seeded players is reproducible.
// The package does no I/O and imports only the engine, so it builds for
// every platform the engine builds for.
package bot
