// Package tablelog is the replicated log of a table and the network it
// travels over: every peer holds the same signed, hash-chained sequence of
// envelopes. It knows no game: the game protocol (package table) says
// through the Protocol hook who may post at each seq and whether a body is
// acceptable.
//
// The parts:
//
//   - Envelope (envelope.go, kind.go): one signed log entry. Its binary
//     encoding is canonical, versioned and strictly decoded; its hash chains
//     the log; the signature is the author seat's Ed25519 key, its
//     Identity (id.go), the same key as the peer's libp2p identity.
//   - Log (log.go): the append-only chain of one table. Append checks table,
//     seq, previous hash, signature and entitlement — at every seq exactly
//     one seat may post, as the protocol layer says through the Protocol
//     hook — and rejects anything else with an error wrapping a sentinel.
//     It buffers envelopes that arrive early, recognises duplicates and
//     keeps equivocations as Evidence (evidence.go).
//   - Store (store.go, export.go): the peer's append-only file of
//     checksummed records: the log, its own secrets and metadata, written
//     durably before anything is sent, and a damaged file set aside on
//     open; export and import of a log as a file, read strictly or as a
//     stream (ExportReader).
//   - Transport (transport.go, sync.go): publish to the members, receive,
//     and fetch a range from one member (the sync protocol). MemNetwork
//     (mem.go) is an in-process, lossy, reordering implementation for
//     tests and simulations; the libp2p one lives in package p2p.
//   - Replica (replica.go): Log + Store + Transport in one loop, with gap
//     filling by range requests.
//
// The package imports only the standard library.
package tablelog
