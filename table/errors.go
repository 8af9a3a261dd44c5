package table

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every rejection from the decoders, Log.Append, the Store
// and the transports wraps one of them with the reason, and so does every
// refusal of the game protocol (below); test with errors.Is.
var (
	// ErrMalformed: bytes or fields that are not a valid encoding.
	ErrMalformed = errors.New("table: malformed")
	// ErrTooLarge: an envelope, body or file beyond its size limit.
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
	// ErrSecretsLost: this device no longer holds a secret it needs to post
	// for a seat it hosts (its store was damaged): the seat stays silent.
	ErrSecretsLost = errors.New("table: this device lost its secrets for the round")

	// Errors of the game protocol.

	// ErrCheat is wrapped by every *Violation.
	ErrCheat = errors.New("table: cheat detected")
	// ErrHalted: a violation stopped the round; nobody may post.
	ErrHalted = errors.New("table: the round is halted by a violation")
	// ErrOver: the game is over; nobody may post.
	ErrOver = errors.New("table: the game is over")
	// ErrSilent is the reason of a round voided because a seat stayed
	// silent (KindVoidSilent): no cheat, only absence.
	ErrSilent = errors.New("table: the seat stayed silent")
	// ErrVote: a SilenceVote (or a VoidSilent certificate) that does not
	// fit the log: wrong table, seq, previous hash or seats, or a bad
	// signature.
	ErrVote = errors.New("table: invalid vote")
	// ErrFenced: this peer voted to void the round of the seat that posted
	// the envelope at that seq; it takes that seq only from the decider.
	ErrFenced = errors.New("table: the seat was voted silent at this seq")
	// ErrWithheld is the reason of a round voided because a seat stayed
	// silent at its reveal, after the play: a cheat, since the reveal is
	// what lets the others audit the seat's hand.
	ErrWithheld = errors.New("table: the seat withheld its reveal")
	// ErrFalseComplaint: a Complaint about a sealed message that opens
	// with the complainer's revealed secrets.
	ErrFalseComplaint = errors.New("table: the sealed message opens")
	// ErrSoftware: the checking software failed, not a seat (a
	// *Violation with CheckSoftware). The table halts and names no seat.
	ErrSoftware = errors.New("table: a failure of the checking software, not of any seat")
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
