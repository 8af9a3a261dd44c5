// Package bot holds computer players for Njet!.
//
// A Player chooses one action from the actions the engine says are legal for
// its seat, looking only at that seat's engine.View: bots never see hidden
// cards. Three kinds exist:
//
//   - "random" picks any legal action, uniformly.
//   - "heuristic" plays like a sensible beginner: in the Njet phase it blocks
//     the trump and supertrump colours it is weak in and steers the points
//     value and the start player by the strength of its hand; it picks a
//     partner from the blocks the others placed; it discards low side cards
//     and keeps trumps; in trick play it wins tricks that hold loot, leads
//     its masters and long suits, follows low when it cannot win, never
//     overtakes its partner, and reads the voids the seats have shown (no
//     lead into an opponent's ruff, a lead into its partner's).
//   - "search" (Search) is determinized Monte Carlo search with the
//     heuristic as its prior. world.go deals the hidden cards so that they
//     fit everything the seat has seen (its hand, discards, pass, the cards
//     played, the voids shown) and replays the round on a fresh engine;
//     rollout.go plays each candidate action out with a fast greedy policy
//     for all seats; search.go weighs the deals by how well they explain the
//     other seats' blocks and departs from the heuristic's choice only where
//     the playouts are surer than one standard error, spending its budget
//     on the candidates that stay in contest (sequential halving). Its
//     strength is set by a playout budget ("search:quick", "search",
//     "search:deep", "search:N"); given a seed and a budget it is
//     deterministic.
//
// New builds a player by kind name. Every player takes a *rand.Rand and
// draws from nothing else, so a game with seeded players is reproducible
// (a search given a time limit also reads the clock, and is not). The
// package does no I/O and imports only the engine and the standard library,
// so it builds for every platform the engine builds for.
package bot
