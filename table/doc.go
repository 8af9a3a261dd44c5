// Package table is the one game protocol under a table of any game this
// program plays: every peer holds the same signed, hash-chained log and
// exchanges it over a network (package tablelog, which knows no game), and
// the protocol replays the log into the mental-poker state and the rules
// of the game its genesis names.
//
// The parts of this package:
//
//   - Game (game.go, genesis.go, bodies.go, build.go, round.go,
//     takeover.go, handback.go, complaint.go): the one game protocol, the
//     Protocol hook for every game. It reads the genesis (its game, seats
//     and keys), takes the acknowledgements, and runs each crypto round:
//     round keys, shuffles, the deal tokens that open each hand to its
//     seat, the reveals. After a cheat the table votes the round void and
//     seats a bot (VoidVote, BotSeat), unless the game's cheats end the
//     table. A seat entitled next that stays silent is taken over: the
//     devices still there sign SilenceVotes outside the log (vote.go), one
//     of them posts them as the certificate of a VoidSilent, and every seat
//     without a vote gets a bot; a device's own log refuses a takeover of
//     a seat it plays unless a strict majority voted it (its guard). At a
//     table of two of a competitive game the other seat posts an Abandon
//     instead. A seat taken over is handed back to its device, or to a
//     watcher, with a SeatClaim (claim.go). A sealed message that does not
//     open is answered by its recipient's Complaint, which every log
//     re-checks to name the sender (or the complainer). Two envelopes of
//     one seat at one seq are posted by any other seat as an Equivocation
//     at that seq (equivocation.go), which voids the round like a cheat
//     and outweighs any branch. A Violation names the seat that broke a
//     check, or the checking software itself (seat -1), never a seat for
//     the software's failure.
//   - Rules (rules.go): what a game adds to the Game: the cards of a
//     deal, whose turn it is in the play, what a move does, what a hosted
//     seat's player chooses, the audit after the reveals, and what a
//     takeover or a hand-back does to the round in progress. Njet
//     (njet.go, njet_bodies.go, njet_draft.go, package engine) deals
//     every round anew and votes a cheat's round void; The Game
//     (thegame.go, thegame_draft.go, thegame_audit.go, thegame_view.go,
//     package thegame) is one crypto round that a takeover or a hand-back
//     deals again from the cards not yet played, and its cheats end the
//     table. A third game is a third implementation and an entry in
//     gameSpecs (docs/architecture.md, "Adding a game").
//   - Peer (peer.go, person.go, silence.go, handback.go, fork.go,
//     equivocation.go): one
//     device's seat at a table of any game — Replica + Game + the players
//     of its bots (PeerConfig.NewPlayer: the table imports no player) or a
//     person's moves (Submit) — with a view and events for a UI. It votes
//     and decides the takeover of a silent seat, claims its seat back and
//     approves others' claims, and after a partition compares its branch
//     with a member's and follows the heavier one; holding the two
//     envelopes of an equivocation, it rewinds to their seq and posts
//     the evidence there.
//   - Verify (verify.go): the offline check of an export. The tests'
//     Selfplay (selfplay_test.go) plays a table of bot peers over a
//     MemNetwork, with crashes, silences, leaves and watchers on demand.
//
// The game protocol imports crypto, the log and the rules engines
// (engine, thegame), never a player.
// docs/protocol.md is the wire-level description, docs/architecture.md
// the map of the layers.
package table
