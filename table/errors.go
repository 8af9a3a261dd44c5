package table

import (
	"errors"
)

// Sentinel errors of the game protocol, beside the log's (package
// tablelog): every refusal of a body, a vote or a claim wraps one of them
// or one of the log's; test with errors.Is.
var (
	// ErrSecretsLost: this device no longer holds a secret it needs to post
	// for a seat it hosts (its store was damaged): the seat stays silent.
	ErrSecretsLost = errors.New("table: this device lost its secrets for the round")
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
