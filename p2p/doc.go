// Package p2p puts a Njet table on a real LAN with no server: a libp2p host
// per device, a gossipsub topic per table, a stream protocol for log
// ranges, a lobby before the genesis, and mDNS discovery.
//
// The parts:
//
//   - Node (node.go): the device's libp2p host — TCP and QUIC only, no
//     relay, no DHT, no port mapping, a persisted Ed25519 identity
//     (LoadIdentity) that is also the key of the device's seat — and its
//     gossipsub router (StrictSign, content-hash message ids). Interfaces
//     are read through anet (ifaces.go), which works on Android 11+.
//   - Lobby (lobby.go, /njet/lobby/1): before the genesis, joiners claim a
//     seat with their identity (the secure channel's remote key, never a
//     field they fill in); when enough have, the host writes the genesis —
//     its own seat 0, the joiners, then bots with keys the host holds — and
//     sends every joiner the Setup (roster.go): genesis plus member devices.
//   - Table and Endpoint (transport.go): a device's membership of one
//     table. The topic validator rejects oversized, malformed, foreign,
//     non-member and wrongly signed envelopes before they propagate: the
//     envelope's author seat must be held by the pubsub message's signed
//     source (a device's own seat, or a bot it hosts); SilenceVotes pass by
//     the same rule, the voter seat standing for the author. Each local
//     seat gets an Endpoint, which implements tablelog.Transport. Member
//     connections are protected in the connection manager and redialed
//     when lost.
//   - Sync (sync.go, /njet/sync/1): one tablelog.SyncRequest, one response,
//     served to member devices only. Pubsub neither orders nor stores; the
//     table's Log and this protocol do.
//   - Watching and claiming a seat (watch.go, /njet/watch/1; claim.go,
//     /njet/seat-claim/1): a device that is no member reads the log from a
//     member, and may send it a signed claim of a seat a bot plays, which
//     the member publishes on the topic. The device becomes a member only
//     when a SeatClaim in the member's own stored log hands it the seat
//     (Table.admitFromLog): the peer filter, the validator and the sync
//     server then take it for that seat.
//   - Session (session.go): runs a table.Peer per local seat (a bot's, or
//     a person's with LocalSeat.Human) over the device's store, with the
//     patience and votes for a silent seat, and lingers after the game
//     until the others caught up.
//     SaveTable and LoadTable (persist.go) let a restarted device resume.
//   - Discovery (discovery.go, joincode.go): tables advertise as
//     _njet._tcp over mDNS with a short TTL; Browse re-queries in rounds,
//     because zeroconf reports an entry only once per browse, and drops
//     what stopped answering. A join code (host address, port and key
//     fingerprint) or an address works where multicast does not.
//
// docs/lan.md describes the wire protocols and the LAN commands.
package p2p
