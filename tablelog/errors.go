package tablelog

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every rejection from the decoders, Log.Append, the Store
// and the transports wraps one of them with the reason; test with
// errors.Is. They are a table's errors, and their texts say so.
var (
	// ErrMalformed: bytes or fields that are not a valid encoding.
	ErrMalformed = errors.New("table: malformed")
	// ErrTooLarge: an envelope, body, message or file beyond its size
	// limit.
	ErrTooLarge = errors.New("table: too large")
	// ErrUnknownVersion: a wire version this code does not know.
	ErrUnknownVersion = errors.New("table: unknown version")
	// ErrUnknownKind: an envelope kind this code does not know.
	ErrUnknownKind = errors.New("table: unknown kind")
	// ErrWrongTable: an envelope for another table.
	ErrWrongTable = errors.New("table: envelope for another table")
	// ErrBadSignature: the signature does not verify under the entitled key.
	ErrBadSignature = errors.New("table: bad signature")
	// ErrNotEntitled: the author (or the kind) may not post at that seq.
	ErrNotEntitled = errors.New("table: author not entitled at this seq")
	// ErrBadChain: the previous hash is not the hash of the envelope before.
	ErrBadChain = errors.New("table: previous hash does not match")
	// ErrRejected: the protocol layer refused the body.
	ErrRejected = errors.New("table: rejected by the protocol")
	// ErrDuplicate: the envelope is already in the log (or already
	// buffered). Nothing changed; the caller can ignore it.
	ErrDuplicate = errors.New("table: duplicate envelope")
	// ErrEquivocation: the author signed two different envelopes for one
	// seq. The pair is kept as Evidence.
	ErrEquivocation = errors.New("table: equivocation")
	// ErrGap: the envelope is ahead of the log; the missing range is in a
	// *GapError.
	ErrGap = errors.New("table: gap in the log")
	// ErrConflict: the store already holds a different envelope at a seq.
	ErrConflict = errors.New("table: conflicts with the stored log")
	// ErrNotFound: no such table, envelope, secret or metadata in the store.
	ErrNotFound = errors.New("table: not found")
	// ErrCorrupt: an export file or stored record that fails its checks.
	ErrCorrupt = errors.New("table: corrupt")
	// ErrUnreachable: a transport cannot reach the peer (or is itself cut off).
	ErrUnreachable = errors.New("table: peer unreachable")
	// ErrClosed: the transport, store or replica has been closed.
	ErrClosed = errors.New("table: closed")
)

// GapError reports that an envelope arrived ahead of the log. Envelopes with
// seq in [From, To) are missing and should be requested from a member (the
// sync protocol). It unwraps to ErrGap.
type GapError struct {
	From, To uint64
	// Buffered tells whether the envelope was kept to be applied once the
	// gap is filled; false when it was too far ahead or the buffer was full.
	Buffered bool
}

// Error implements error.
func (e *GapError) Error() string {
	state := "buffered"
	if !e.Buffered {
		state = "dropped"
	}
	return fmt.Sprintf("%v: missing seqs [%d, %d), envelope %s", ErrGap, e.From, e.To, state)
}

// Unwrap returns ErrGap.
func (e *GapError) Unwrap() error { return ErrGap }

// EquivocationError carries the Evidence of an equivocation. It unwraps to
// ErrEquivocation.
type EquivocationError struct {
	Evidence Evidence
}

// Error implements error.
func (e *EquivocationError) Error() string {
	return fmt.Sprintf("%v: seat %d signed two envelopes for seq %d",
		ErrEquivocation, e.Evidence.First.Author, e.Evidence.First.Seq)
}

// Unwrap returns ErrEquivocation.
func (e *EquivocationError) Unwrap() error { return ErrEquivocation }
