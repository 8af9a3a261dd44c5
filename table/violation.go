package table

import (
	"errors"
	"fmt"

	"github.com/njetlan/njet/crypto"
)

// Names of the checks a Violation can report (besides crypto.Check names
// and the checks of each game's own rules).
const (
	CheckStructure = "structure"       // a body that breaks the protocol's layout rules
	CheckPosition  = "position"        // a played position the seat does not hold
	CheckKeys      = "hosted key"      // a hosted seat's stored secrets do not match its key
	CheckTokens    = "private opening" // a hosted seat's card does not decrypt from the tokens it opened
	CheckSilent    = "silent"          // not a cheat: the round was voided for a silent seat (ErrSilent)
	CheckWithheld  = "withheld reveal" // a seat silent at its reveal, after the play (ErrWithheld)
	CheckComplaint = "false complaint" // a Complaint about a sealed message that opens (ErrFalseComplaint)
)

// Violation is a detected cheat: the seat whose signed envelope (at Seq)
// broke the check. The log holding that envelope is the evidence. It wraps
// ErrCheat and the underlying error.
type Violation struct {
	Seq   uint64
	Seat  int
	Check string
	Err   error
	// Private is set when only this peer could make the check (a sealed
	// message to a seat it hosts, its engine's knowledge of a hosted hand):
	// the others do not halt, so there is no vote to void the round.
	Private bool
}

// Error names the seat and the check.
func (v *Violation) Error() string {
	return fmt.Sprintf("table: seat %d failed the %s check at seq %d: %v", v.Seat, v.Check, v.Seq, v.Err)
}

// Unwrap returns ErrCheat and the underlying error; for a seat voided as
// silent (CheckSilent), which cheated in nothing, only the underlying
// ErrSilent. A seat silent at its reveal (CheckWithheld) did cheat.
func (v *Violation) Unwrap() []error {
	if v.Check == CheckSilent {
		return []error{v.Err}
	}
	return []error{ErrCheat, v.Err}
}

func violation(seat int, check string, format string, args ...any) *Violation {
	return &Violation{Seat: seat, Check: check, Err: fmt.Errorf(format, args...)}
}

// private marks v as seen by this peer alone (see Violation.Private).
func private(v *Violation) *Violation {
	v.Private = true
	return v
}

// cryptoViolation attributes a crypto failure: the seat it names, or the
// author when it names none.
func cryptoViolation(author int, err error) *Violation {
	var ce *crypto.CheatError
	if errors.As(err, &ce) {
		seat := ce.Seat
		if seat < 0 {
			seat = author
		}
		return &Violation{Seat: seat, Check: ce.Check.String(), Err: err}
	}
	return &Violation{Seat: author, Check: CheckStructure, Err: err}
}
