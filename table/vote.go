package table

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"

	"github.com/njetlan/njet/crypto"
)

// SilenceVote is one seat's signed vote to void the round because the seat
// entitled at Seq has stayed silent. It travels outside the log, over the
// same Transport as the envelopes (a Publish of its encoding); the decider
// collects one from every seat but the silent one and posts them all at Seq
// as the certificate of a VoidSilent envelope. Prev binds the vote to the
// voter's log: the hash of its envelope at Seq-1.
type SilenceVote struct {
	Table  TableID
	Seq    uint64
	Prev   Hash
	Silent uint8 // the seat entitled at Seq that stays silent
	Voter  uint8 // the seat that votes; its key signs
	Sig    [SignatureSize]byte
}

// Wire constants of a SilenceVote. A message on a table's transport is an
// envelope when its first byte is EnvelopeVersion and a vote when it is
// VoteTag; no envelope version will ever take the value of VoteTag.
const (
	VoteTag     = 0x56 // 'V'
	VoteVersion = 1
	// VoteSize is the fixed size of an encoded SilenceVote: tag, version,
	// table (32), seq (8), prev (32), silent (1), voter (1), signature (64).
	VoteSize = 2 + 32 + 8 + 32 + 1 + 1 + SignatureSize
	// voteSignedSize is the part of the encoding the signature covers.
	voteSignedSize = VoteSize - SignatureSize
)

const voteDomain = "njet/table/v1/silence-vote\x00"

// IsVote reports whether a message received on a table's transport is a
// SilenceVote (by its first byte) rather than an envelope.
func IsVote(data []byte) bool { return len(data) > 0 && data[0] == VoteTag }

func (v *SilenceVote) appendSigned(b []byte) []byte {
	b = append(b, VoteTag, VoteVersion)
	b = append(b, v.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, v.Seq)
	b = append(b, v.Prev[:]...)
	return append(b, v.Silent, v.Voter)
}

func (v *SilenceVote) signedMessage() []byte {
	return v.appendSigned([]byte(voteDomain))
}

// Sign signs the vote with the voter seat's key.
func (v *SilenceVote) Sign(priv ed25519.PrivateKey) error {
	if len(priv) != ed25519.PrivateKeySize {
		return fmt.Errorf("%w: private key of %d bytes", ErrMalformed, len(priv))
	}
	if v.Silent == v.Voter {
		return fmt.Errorf("%w: seat %d votes against itself", ErrMalformed, v.Voter)
	}
	copy(v.Sig[:], ed25519.Sign(priv, v.signedMessage()))
	return nil
}

// Verify checks the signature under key, the voter seat's key.
func (v *SilenceVote) Verify(key Identity) error {
	if !ed25519.Verify(key.PublicKey(), v.signedMessage(), v.Sig[:]) {
		return fmt.Errorf("%w: vote of seat %d against seat %d at seq %d", ErrBadSignature, v.Voter, v.Silent, v.Seq)
	}
	return nil
}

// MarshalBinary encodes the vote (VoteSize bytes).
func (v *SilenceVote) MarshalBinary() ([]byte, error) {
	if v.Silent == v.Voter {
		return nil, fmt.Errorf("%w: seat %d votes against itself", ErrMalformed, v.Voter)
	}
	b := v.appendSigned(make([]byte, 0, VoteSize))
	return append(b, v.Sig[:]...), nil
}

// ParseVote decodes a vote strictly: exact size, tag, version, distinct
// seats. The signature is checked by Verify, against the voter's key.
func ParseVote(data []byte) (*SilenceVote, error) {
	if len(data) != VoteSize {
		return nil, fmt.Errorf("%w: vote of %d bytes (want %d)", ErrMalformed, len(data), VoteSize)
	}
	if data[0] != VoteTag {
		return nil, fmt.Errorf("%w: not a vote (first byte %#x)", ErrMalformed, data[0])
	}
	if data[1] != VoteVersion {
		return nil, fmt.Errorf("%w: vote version %d", ErrUnknownVersion, data[1])
	}
	v := &SilenceVote{}
	p := data[2:]
	copy(v.Table[:], p[:32])
	v.Seq = binary.BigEndian.Uint64(p[32:])
	copy(v.Prev[:], p[40:72])
	v.Silent, v.Voter = p[72], p[73]
	copy(v.Sig[:], p[74:])
	if v.Silent == v.Voter {
		return nil, fmt.Errorf("%w: seat %d votes against itself", ErrMalformed, v.Voter)
	}
	return v, nil
}

// voidSilentBody encodes a VoidSilent body: the silent seat, the bot's key
// and the certificate, one vote per other seat in seat order.
func voidSilentBody(silent int, bot Identity, votes []*SilenceVote) ([]byte, error) {
	w := newWriter()
	w.u8(silent)
	w.raw(bot[:])
	w.u8(len(votes))
	for _, v := range votes {
		b, err := v.MarshalBinary()
		if err != nil {
			return nil, err
		}
		w.raw(b)
	}
	return w.bytes(), nil
}

// voidSilent is a decoded VoidSilent body.
type voidSilent struct {
	silent int
	bot    Identity
	votes  []*SilenceVote
}

func parseVoidSilent(body []byte) (*voidSilent, error) {
	r := newReader(KindVoidSilent, body)
	vs := &voidSilent{silent: r.u8()}
	copy(vs.bot[:], r.take(32))
	n := r.u8()
	if n >= crypto.MaxParties {
		r.fail("%d votes", n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		v, err := ParseVote(r.take(VoteSize))
		if err != nil && r.err == nil {
			r.err = fmt.Errorf("%w: VoidSilent body: vote %d: %w", ErrMalformed, i, err)
		}
		vs.votes = append(vs.votes, v)
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return vs, nil
}
