package crypto

import (
	"errors"
	"fmt"
)

// Check names the kind of verification that failed. Values are append-only:
// they may be stored next to an exported log.
type Check uint8

// The checks a message can fail.
const (
	CheckParams     Check = iota + 1 // round parameters or message bounds
	CheckEncoding                    // a point, scalar or field is not validly encoded
	CheckKeyProof                    // Schnorr proof of a round key
	CheckShuffle                     // proof of a correct shuffle
	CheckTokenProof                  // DLEQ proof of a decryption token
	CheckCommitment                  // hash commitment of a sealed message
	CheckCiphertext                  // HPKE ciphertext that does not open
	CheckReveal                      // revealed secrets that do not match the round keys
	CheckMissing                     // a message that should be there is missing or misplaced
	CheckHPKEKey                     // an HPKE public key nobody can seal to
	CheckDeck                        // the final deck is not the edition's cards, once each
	CheckEscrow                      // an escrow whose shares do not add up to the key, or a share that does not match its commitment
)

var checkNames = [...]string{
	CheckParams:     "params",
	CheckEncoding:   "encoding",
	CheckKeyProof:   "key proof",
	CheckShuffle:    "shuffle proof",
	CheckTokenProof: "token proof",
	CheckCommitment: "commitment",
	CheckCiphertext: "ciphertext",
	CheckReveal:     "reveal",
	CheckMissing:    "missing message",
	CheckHPKEKey:    "HPKE key",
	CheckDeck:       "deck",
	CheckEscrow:     "escrow",
}

// String returns the check's name.
func (c Check) String() string {
	if int(c) < len(checkNames) && checkNames[c] != "" {
		return checkNames[c]
	}
	return fmt.Sprintf("check(%d)", uint8(c))
}

// Sentinel errors, one per check, for use with errors.Is. A *CheatError
// wraps the sentinel of its check.
var (
	ErrParams     = errors.New("crypto: bad parameters")
	ErrEncoding   = errors.New("crypto: bad encoding")
	ErrKeyProof   = errors.New("crypto: bad key proof")
	ErrShuffle    = errors.New("crypto: bad shuffle")
	ErrTokenProof = errors.New("crypto: bad decryption token")
	ErrCommitment = errors.New("crypto: commitment mismatch")
	ErrCiphertext = errors.New("crypto: ciphertext does not open")
	ErrReveal     = errors.New("crypto: revealed secret does not match")
	ErrMissing    = errors.New("crypto: missing or misplaced message")
	ErrHPKEKey    = errors.New("crypto: unusable HPKE key")
	ErrDeck       = errors.New("crypto: deck is not the edition's cards")
	ErrEscrow     = errors.New("crypto: escrow does not match the key")

	// ErrCheat matches every *CheatError with errors.Is.
	ErrCheat = errors.New("crypto: cheat detected")

	// ErrSoftware is wrapped by a failure of the checking software itself,
	// not of any seat's message: a proof library whose transcript is not
	// laid out as this package expects (see shufflelink.go). A table halts
	// on it, naming the software, and blames no seat.
	ErrSoftware = errors.New("crypto: a failure of the checking software, not of any seat")
)

func (c Check) sentinel() error {
	switch c {
	case CheckParams:
		return ErrParams
	case CheckEncoding:
		return ErrEncoding
	case CheckKeyProof:
		return ErrKeyProof
	case CheckShuffle:
		return ErrShuffle
	case CheckTokenProof:
		return ErrTokenProof
	case CheckCommitment:
		return ErrCommitment
	case CheckCiphertext:
		return ErrCiphertext
	case CheckReveal:
		return ErrReveal
	case CheckHPKEKey:
		return ErrHPKEKey
	case CheckDeck:
		return ErrDeck
	case CheckEscrow:
		return ErrEscrow
	default:
		return ErrMissing
	}
}

// CheatError reports a failed check and the seat whose message failed it.
// Seat is -1 when a message could not be attributed (its seat field itself
// was unreadable); the caller then blames the author of the envelope that
// carried it.
type CheatError struct {
	Seat  int
	Check Check
	Err   error // wraps the sentinel of Check
}

// Error describes the failure and names the seat.
func (e *CheatError) Error() string {
	if e.Seat < 0 {
		return fmt.Sprintf("crypto: %s check failed: %v", e.Check, e.Err)
	}
	return fmt.Sprintf("crypto: seat %d failed the %s check: %v", e.Seat, e.Check, e.Err)
}

// Unwrap returns the underlying error, which wraps the check's sentinel.
func (e *CheatError) Unwrap() error { return e.Err }

// Is reports whether target is ErrCheat, so that errors.Is(err, ErrCheat)
// tells a cheat from a local failure such as a broken random source.
func (e *CheatError) Is(target error) bool { return target == ErrCheat }

// cheat builds a *CheatError whose Err wraps the sentinel of check.
func cheat(seat int, check Check, format string, args ...any) *CheatError {
	msg := fmt.Sprintf(format, args...)
	return &CheatError{Seat: seat, Check: check, Err: fmt.Errorf("%w: %s", check.sentinel(), msg)}
}

// usageError reports a mistake of the local caller, not of another seat.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrParams, fmt.Sprintf(format, args...))
}
