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
	CheckSoftware  = "software"        // not a cheat: the checking software failed (crypto.ErrSoftware); Seat is -1
	CheckEquivocal = "equivocation"    // two envelopes of the seat at one seq, both validly signed (tablelog.ErrEquivocation)
)

// Violation is a detected cheat: the seat whose signed envelope (at Seq)
// broke the check. The log holding that envelope is the evidence. It wraps
// ErrCheat and the underlying error. A failure of the checking software
// itself (CheckSoftware) names no seat: Seat is -1, and it wraps neither
// ErrCheat nor any seat's fault, only ErrSoftware.
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
	if v.Check == CheckSoftware {
		return fmt.Sprintf("table: the checking software failed at seq %d, no seat is at fault (update the app on every device): %v", v.Seq, v.Err)
	}
	return fmt.Sprintf("table: seat %d failed the %s check at seq %d: %v", v.Seat, v.Check, v.Seq, v.Err)
}

// Unwrap returns ErrCheat and the underlying error; for a seat voided as
// silent (CheckSilent), which cheated in nothing, only the underlying
// ErrSilent. A seat silent at its reveal (CheckWithheld) did cheat.
func (v *Violation) Unwrap() []error {
	switch v.Check {
	case CheckSilent:
		return []error{v.Err}
	case CheckSoftware:
		return []error{ErrSoftware, v.Err}
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
// author when it names none. A failure of the checking software (a proof
// library's transcript laid out otherwise than expected) is no seat's: it
// names the software, so that an update of a library never blames an
// honest seat.
func cryptoViolation(author int, err error) *Violation {
	if errors.Is(err, crypto.ErrSoftware) {
		return softwareViolation(err)
	}
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

// softwareViolation is the halt for a failure of the checking software:
// every device runs the same checks on the same log, so every one halts
// there, and none blames a seat.
func softwareViolation(err error) *Violation {
	return &Violation{Seat: -1, Check: CheckSoftware, Err: err}
}
