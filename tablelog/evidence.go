package tablelog

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// EvidenceVersion is the wire version of an encoded Evidence.
const EvidenceVersion = 1

// maxEvidenceSize bounds an encoded Evidence: version, key, two length
// prefixes and two envelopes.
const maxEvidenceSize = 1 + 32 + 2*(4+MaxEnvelopeSize)

// Evidence is proof that a seat equivocated: two different envelopes, both
// validly signed by Key, for the same table and seq with the same author.
// Honest peers sign each seq once (Ed25519 signing is deterministic), so the
// pair alone convicts the key's owner. Verify checks it without any log;
// whoever holds the genesis can confirm that Key was the seat's key.
type Evidence struct {
	// Key is the key that signed both envelopes.
	Key Identity
	// First is the envelope the log holds (or saw first); Second the other.
	First, Second *Envelope
}

// Verify checks that the evidence proves an equivocation.
func (ev Evidence) Verify() error {
	if ev.First == nil || ev.Second == nil {
		return fmt.Errorf("%w: evidence without two envelopes", ErrMalformed)
	}
	a, err := ev.First.MarshalBinary()
	if err != nil {
		return err
	}
	b, err := ev.Second.MarshalBinary()
	if err != nil {
		return err
	}
	switch {
	case bytes.Equal(a, b):
		return fmt.Errorf("%w: evidence holds the same envelope twice", ErrMalformed)
	case ev.First.Table != ev.Second.Table:
		return fmt.Errorf("%w: evidence envelopes are for different tables", ErrMalformed)
	case ev.First.Seq != ev.Second.Seq:
		return fmt.Errorf("%w: evidence envelopes are for seqs %d and %d", ErrMalformed, ev.First.Seq, ev.Second.Seq)
	case ev.First.Author != ev.Second.Author:
		return fmt.Errorf("%w: evidence envelopes are by seats %d and %d", ErrMalformed, ev.First.Author, ev.Second.Author)
	}
	if err := ev.First.Verify(ev.Key); err != nil {
		return err
	}
	return ev.Second.Verify(ev.Key)
}

// MarshalBinary encodes the evidence: version (1 byte), key (32), then each
// envelope prefixed by its 32-bit big-endian length.
func (ev Evidence) MarshalBinary() ([]byte, error) {
	if ev.First == nil || ev.Second == nil {
		return nil, fmt.Errorf("%w: evidence without two envelopes", ErrMalformed)
	}
	a, err := ev.First.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b, err := ev.Second.MarshalBinary()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 1+32+8+len(a)+len(b))
	out = append(out, EvidenceVersion)
	out = append(out, ev.Key[:]...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(a)))
	out = append(out, a...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(b)))
	return append(out, b...), nil
}

// ParseEvidence decodes evidence strictly (no trailing bytes) and checks its
// structure: two different envelopes for one table, seq and author. It does
// not check the signatures; call Verify.
func ParseEvidence(data []byte) (Evidence, error) {
	var ev Evidence
	if len(data) > maxEvidenceSize {
		return ev, fmt.Errorf("%w: evidence of %d bytes", ErrTooLarge, len(data))
	}
	if len(data) < 1+32 {
		return ev, fmt.Errorf("%w: evidence of %d bytes", ErrMalformed, len(data))
	}
	if data[0] != EvidenceVersion {
		return ev, fmt.Errorf("%w: evidence version %d", ErrUnknownVersion, data[0])
	}
	copy(ev.Key[:], data[1:33])
	p := data[33:]
	var envs [2]*Envelope
	for i := range envs {
		if len(p) < 4 {
			return ev, fmt.Errorf("%w: evidence truncated", ErrMalformed)
		}
		n := binary.BigEndian.Uint32(p)
		p = p[4:]
		if uint64(n) > uint64(len(p)) {
			return ev, fmt.Errorf("%w: evidence envelope length %d exceeds the data", ErrMalformed, n)
		}
		e, err := ParseEnvelope(p[:n])
		if err != nil {
			return ev, err
		}
		envs[i] = e
		p = p[n:]
	}
	if len(p) != 0 {
		return ev, fmt.Errorf("%w: %d trailing bytes after evidence", ErrMalformed, len(p))
	}
	ev.First, ev.Second = envs[0], envs[1]
	a, b := ev.First, ev.Second
	if a.Table != b.Table || a.Seq != b.Seq || a.Author != b.Author || a.Hash() == b.Hash() {
		return Evidence{}, fmt.Errorf("%w: evidence envelopes do not conflict", ErrMalformed)
	}
	return ev, nil
}
