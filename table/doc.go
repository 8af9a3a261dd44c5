// Package table is the replicated log under a Njet table: every peer holds
// the same signed, hash-chained sequence of envelopes, and the game protocol
// (a layer above this package) replays it into the engine and the mental
// poker state.
//
// The parts:
//
//   - Envelope (envelope.go, kind.go): one signed log entry. Its binary
//     encoding is canonical, versioned and strictly decoded; its hash chains
//     the log; the signature is the author seat's Ed25519 key (the same key
//     as the peer's libp2p identity).
//   - Log (log.go): the append-only chain of one table. Append checks table,
//     seq, previous hash, signature and entitlement — at every seq exactly
//     one seat may post, as the protocol layer says through the Protocol
//     hook — and rejects anything else with an error wrapping a sentinel.
//     It buffers envelopes that arrive early, recognises duplicates and
//     keeps equivocations as Evidence.
//   - Store (store.go, export.go): the peer's append-only file of
//     checksummed records: the log, its own secrets and metadata, written
//     durably before anything is sent, and a damaged file set aside on
//     open; export and import of a log as a file, and VerifyReader, which
//     streams one.
//   - Transport (transport.go, sync.go): publish to the members, receive,
//     and fetch a range from one member (the sync protocol). MemNetwork
//     (memnet.go) is an in-process, lossy, reordering implementation for
//     tests and simulations; the libp2p one lives in package p2p.
//   - Replica (replica.go): Log + Store + Transport in one loop, with gap
//     filling by range requests.
//   - Game (protocol.go, bodies.go, build.go): the game protocol, the
//     Protocol hook that replays the log into the rules engine and the
//     mental-poker state, says who posts next, drafts a hosted seat's next
//     envelope, audits every round and halts on a cheat with a *Violation.
//   - Peer (peer.go, human.go, silence.go): one seat at a table — Replica +
//     Game + a bot or a human's Submit — with a view and events for a UI.
//     When the seat entitled next stays silent, the devices still there sign
//     SilenceVotes (vote.go) outside the log; a voter (normally the lowest)
//     posts them as the certificate of a VoidSilent, which voids the round
//     and seats bots in every seat without a vote (silence at the reveal is
//     recorded as a cheat); a device that went another way follows the
//     heavier branch when it comes back. A seat taken over for silence is
//     handed back at the next deal (claim.go, handback.go: SeatClaim) to
//     its device, back again, or to a watcher; a bot seated from the lobby
//     is handed to a watcher the same way, with its own key's consent
//     (PeerConfig.Lend). At a table of two the other seat posts
//     an Abandon instead: the game ends, and no seat is ever handed to its
//     opponent. A sealed message that does not open for its recipient is
//     answered by the recipient's Complaint, which every log re-checks to
//     name the sender (or the complainer, if the message opens).
//   - TheGame (thegame*.go): the protocol of a table of The Game (package
//     thegame), which a genesis of version 2 names: one mental-poker deal
//     of 98 cards, hands opened to their seats, draws opened to the drawer
//     one position at a time, plays opened to all, and after the reveals
//     the whole game replayed through the engine. A deal or draw token
//     that does not open is answered by the same Complaint
//     (thegame_complaint.go, complaint.go), which halts the table naming
//     the sender or the complainer. TheGamePeer plays a seat with a bot,
//     takes over devices gone as Peer does and, like it, follows the
//     heavier branch after a partition (fork.go: the branch comparison
//     both kinds of peer share); TheGameSelfplay runs a whole table over a
//     MemNetwork. A device gone is taken over and the cards not yet played
//     are dealt again (thegame_void.go); when it comes back, its seat is
//     handed back at the start of the seat's next turn with the same
//     SeatClaim and a redeal (thegame_handback.go).
//   - Selfplay (selfplay.go): a table of bot peers over a MemNetwork, with
//     crashes on demand; Verify (verify.go): the offline check of an export.
//
// The log layer imports only the standard library;
// the game protocol adds engine, crypto and bot, and thegame and its bots.
// docs/protocol.md is the wire-level description.
package table
