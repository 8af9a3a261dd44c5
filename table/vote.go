package table

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// SilenceVote is one seat's signed vote to void the round because the seat
// entitled at Seq has stayed silent. It travels outside the log, over the
// same Transport as the envelopes (a Publish of its encoding); the decider
// collects one from every seat but the silent one and posts them all at Seq
// as the certificate of a VoidSilent envelope. Prev binds the vote to the
// voter's log: the hash of its envelope at Seq-1.
type SilenceVote struct {
	Table  tablelog.TableID
	Seq    uint64
	Prev   tablelog.Hash
	Silent uint8 // the seat entitled at Seq that stays silent
	Voter  uint8 // the seat that votes; its key signs
	// Why the voter finds the silent seat's device away. A vote of
	// VoteVersion 1 says nothing (AbsenceUnstated); any other reason is
	// encoded in VoteVersionWhy.
	Why Absence
	Sig [tablelog.SignatureSize]byte
}

// Wire constants of a SilenceVote. A message on a table's transport is an
// envelope when its first byte is EnvelopeVersion and a vote when it is
// VoteTag; no envelope version will ever take the value of VoteTag.
const (
	VoteTag     = 0x56 // 'V'
	VoteVersion = 1
	// VoteSize is the fixed size of an encoded SilenceVote of VoteVersion:
	// tag, version, table (32), seq (8), prev (32), silent (1), voter (1),
	// signature (64).
	VoteSize = 2 + 32 + 8 + 32 + 1 + 1 + tablelog.SignatureSize
	// VoteVersionWhy is the version of a vote that says why (Why), one
	// byte after the voter: VoteSizeWhy bytes.
	VoteVersionWhy = 2
	VoteSizeWhy    = VoteSize + 1
)

const voteDomain = "njet/table/v1/silence-vote\x00"

// IsVote reports whether a message received on a table's transport is a
// SilenceVote (by its first byte) rather than an envelope.
func IsVote(data []byte) bool { return len(data) > 0 && data[0] == VoteTag }

func (v *SilenceVote) appendSigned(b []byte) []byte {
	version := byte(VoteVersion)
	if v.Why != AbsenceUnstated {
		version = VoteVersionWhy
	}
	b = append(b, VoteTag, version)
	b = append(b, v.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, v.Seq)
	b = append(b, v.Prev[:]...)
	b = append(b, v.Silent, v.Voter)
	if version == VoteVersionWhy {
		b = append(b, byte(v.Why))
	}
	return b
}

// size is the length of the vote's encoding.
func (v *SilenceVote) size() int {
	if v.Why != AbsenceUnstated {
		return VoteSizeWhy
	}
	return VoteSize
}

// check refuses a vote that cannot be encoded: against the voter itself,
// or with no known reason.
func (v *SilenceVote) check() error {
	switch {
	case v.Silent == v.Voter:
		return fmt.Errorf("%w: seat %d votes against itself", tablelog.ErrMalformed, v.Voter)
	case v.Why >= absenceEnd:
		return fmt.Errorf("%w: vote of seat %d with reason %v", tablelog.ErrMalformed, v.Voter, v.Why)
	}
	return nil
}

func (v *SilenceVote) signedMessage() []byte {
	return v.appendSigned([]byte(voteDomain))
}

// Sign signs the vote with the voter seat's key.
func (v *SilenceVote) Sign(priv ed25519.PrivateKey) error {
	if err := v.check(); err != nil {
		return err
	}
	return signSide(priv, v.signedMessage(), &v.Sig)
}

// signSide signs msg, a side message's signed part, with priv into sig.
func signSide(priv ed25519.PrivateKey, msg []byte, sig *[tablelog.SignatureSize]byte) error {
	if len(priv) != ed25519.PrivateKeySize {
		return fmt.Errorf("%w: private key of %d bytes", tablelog.ErrMalformed, len(priv))
	}
	copy(sig[:], ed25519.Sign(priv, msg))
	return nil
}

// verifySide checks the signature sig over msg under key: a bad one is
// ErrBadSignature, with what was signed said by format and args.
func verifySide(key tablelog.Identity, msg, sig []byte, format string, args ...any) error {
	if ed25519.Verify(key.PublicKey(), msg, sig) {
		return nil
	}
	return fmt.Errorf("%w: %s", tablelog.ErrBadSignature, fmt.Sprintf(format, args...))
}

// sideFrame checks the frame of a side message (what): its size, its tag
// and its version.
func sideFrame(data []byte, what string, size int, tag, version byte) error {
	switch {
	case len(data) != size:
		return fmt.Errorf("%w: %s of %d bytes (want %d)", tablelog.ErrMalformed, what, len(data), size)
	case data[0] != tag:
		return fmt.Errorf("%w: no %s (first byte %#x)", tablelog.ErrMalformed, what, data[0])
	case data[1] != version:
		return fmt.Errorf("%w: %s version %d", tablelog.ErrUnknownVersion, what, data[1])
	}
	return nil
}

// Verify checks the signature under key, the voter seat's key.
func (v *SilenceVote) Verify(key tablelog.Identity) error {
	return verifySide(key, v.signedMessage(), v.Sig[:], "vote of seat %d against seat %d at seq %d", v.Voter, v.Silent, v.Seq)
}

// MarshalBinary encodes the vote (VoteSize bytes, or VoteSizeWhy for a
// vote that says why).
func (v *SilenceVote) MarshalBinary() ([]byte, error) {
	if err := v.check(); err != nil {
		return nil, err
	}
	b := v.appendSigned(make([]byte, 0, v.size()))
	return append(b, v.Sig[:]...), nil
}

// voteLen is the size of the encoded vote that data starts with, by its
// version byte (VoteSize when it names none known: the parse then fails).
func voteLen(data []byte) int {
	if len(data) > 1 && data[1] == VoteVersionWhy {
		return VoteSizeWhy
	}
	return VoteSize
}

// ParseVote decodes a vote strictly: exact size, tag, version, distinct
// seats, a known reason. The signature is checked by Verify, against the
// voter's key.
func ParseVote(data []byte) (*SilenceVote, error) {
	version := byte(VoteVersion)
	if len(data) > 1 && data[1] == VoteVersionWhy {
		version = VoteVersionWhy
	}
	if err := sideFrame(data, "vote", voteLen(data), VoteTag, version); err != nil {
		return nil, err
	}
	v := &SilenceVote{}
	p := data[2:]
	copy(v.Table[:], p[:32])
	v.Seq = binary.BigEndian.Uint64(p[32:])
	copy(v.Prev[:], p[40:72])
	v.Silent, v.Voter = p[72], p[73]
	p = p[74:]
	if version == VoteVersionWhy {
		v.Why, p = Absence(p[0]), p[1:]
		if v.Why == AbsenceUnstated {
			return nil, fmt.Errorf("%w: a vote of version %d without a reason", tablelog.ErrMalformed, version)
		}
	}
	copy(v.Sig[:], p)
	if err := v.check(); err != nil {
		return nil, err
	}
	return v, nil
}

// voidSilentVersion is the version of the VoidSilent body that names
// every seat taken over (the silent seat and every seat without a vote),
// each with its bot's key. Version 1 (BodyVersion) bodies, written when a
// certificate needed every other seat, name the silent seat's bot only;
// they read as the same thing with one seat taken.
const voidSilentVersion = 2

// takenSeat is a seat a VoidSilent hands to a bot, with the bot's key.
type takenSeat struct {
	seat int
	bot  tablelog.Identity
}

// voidSilentBody encodes a VoidSilent body (version 2): the silent seat,
// the seats taken over with their bots' keys in seat order, and the
// certificate, one vote per voter in seat order.
func voidSilentBody(silent int, taken []takenSeat, votes []*SilenceVote) ([]byte, error) {
	b := []byte{voidSilentVersion, byte(silent), byte(len(taken))}
	for _, t := range taken {
		b = append(b, byte(t.seat))
		b = append(b, t.bot[:]...)
	}
	b = append(b, byte(len(votes)))
	for _, v := range votes {
		enc, err := v.MarshalBinary()
		if err != nil {
			return nil, err
		}
		b = append(b, enc...)
	}
	return b, nil
}

// voidSilent is a decoded VoidSilent body.
type voidSilent struct {
	silent int
	taken  []takenSeat
	votes  []*SilenceVote
	v1     bool // the body was version 1: one seat taken, the silent one
}

// encode returns the body's encoding in the version it was read in.
func (vs *voidSilent) encode() ([]byte, error) {
	if !vs.v1 {
		return voidSilentBody(vs.silent, vs.taken, vs.votes)
	}
	b, err := voidSilentBody(vs.silent, nil, vs.votes)
	if err != nil || len(vs.taken) != 1 {
		return nil, fmt.Errorf("%w: a version 1 VoidSilent takes one seat", tablelog.ErrMalformed)
	}
	// Version 1: the silent seat, its bot's key, the votes.
	return slices.Concat([]byte{BodyVersion, byte(vs.silent)}, vs.taken[0].bot[:], b[3:]), nil
}

// voters returns the seats whose votes the certificate carries, in order.
func (vs *voidSilent) voters() []int {
	out := make([]int, len(vs.votes))
	for i, v := range vs.votes {
		out[i] = int(v.Voter)
	}
	return out
}

func parseVoidSilent(body []byte) (*voidSilent, error) {
	v2 := len(body) > 0 && body[0] == voidSilentVersion
	if v2 {
		// The reader checks the common version byte; the layout after it
		// is this version's.
		body = append([]byte{BodyVersion}, body[1:]...)
	}
	r := newReader(tablelog.KindVoidSilent, body)
	vs := &voidSilent{silent: r.u8()}
	if v2 {
		t := r.u8()
		if t == 0 || t >= crypto.MaxParties {
			r.fail("%d seats taken", t)
		}
		for i := 0; i < t && r.err == nil; i++ {
			ts := takenSeat{seat: r.u8(), bot: r.identity()}
			if i > 0 && ts.seat <= vs.taken[i-1].seat {
				r.fail("taken seats out of order")
			}
			vs.taken = append(vs.taken, ts)
		}
	} else {
		ts := takenSeat{seat: vs.silent, bot: r.identity()}
		vs.taken, vs.v1 = []takenSeat{ts}, true
	}
	n := r.u8()
	if n >= crypto.MaxParties {
		r.fail("%d votes", n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		v, err := ParseVote(r.take(voteLen(r.b)))
		if err != nil && r.err == nil {
			r.err = fmt.Errorf("%w: VoidSilent body: vote %d: %w", tablelog.ErrMalformed, i, err)
		}
		vs.votes = append(vs.votes, v)
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return vs, nil
}

// departed reports whether a voter found the silent seat's device gone
// (AbsenceGone): then the seat left, whatever the others saw. Votes of
// version 1, which say nothing, never do.
func (vs *voidSilent) departed() bool {
	return slices.ContainsFunc(vs.votes, func(v *SilenceVote) bool { return v.Why == AbsenceGone })
}

// compareVoids orders two VoidSilents for the same seq: the one whose
// certificate carries more votes comes first, and between equal counts the
// one whose voters, in seat order, are lower at the first difference. It
// returns a negative number when a wins, positive when b wins, 0 for the
// same voters.
func compareVoids(a, b *voidSilent) int {
	if len(a.votes) != len(b.votes) {
		return len(b.votes) - len(a.votes)
	}
	return slices.Compare(a.voters(), b.voters())
}
