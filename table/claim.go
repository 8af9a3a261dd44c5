package table

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/njetlan/njet/tablelog"
)

// SeatClaimRequest is a device's request, outside the log, to play a seat
// that a bot plays now: the device that played it before the table took it
// over, back again, or a watcher. It names the seat and the claimant's
// key and is signed by that key, which proves the claimant holds it. The
// request travels over the table's transport like a SilenceVote.
//
// A request names the deal (crypto round) it is for: the one whose key
// setup comes next when it is signed, which the approvals name too. So a
// request is good for one deal only, and one replayed later (by any member
// that heard it) is refused by every peer and every log: the seat cannot
// be handed to a device that left again. Requests of version 1 named no
// deal; logs written before keep them in their SeatClaim bodies (body
// version 1) and still verify, but no peer accepts or approves one any
// more.
type SeatClaimRequest struct {
	Table tablelog.TableID
	Deal  uint64
	Seat  uint8
	Key   tablelog.Identity
	Sig   [tablelog.SignatureSize]byte
	// legacy marks a version 1 request, read from an old SeatClaim body:
	// its signature covers no deal.
	legacy bool
}

// SeatApproval is one seat's signed agreement, outside the log, that the
// seat named in a SeatClaimRequest goes to the claimant's key at the start
// of deal Deal. The seat's player (a bot's host, or a lobby bot's own
// peer) collects one from every seat still played by its own device and
// posts them in the SeatClaim envelope. An approval by the claimed seat
// itself (Approver == Seat, signed by the key playing it) is that seat's
// consent to give itself away.
type SeatApproval struct {
	Table    tablelog.TableID
	Deal     uint64
	Seat     uint8
	Key      tablelog.Identity
	Approver uint8 // the approving seat; its current key signs
	Sig      [tablelog.SignatureSize]byte
}

// Wire constants of the claim messages. Like VoteTag, no envelope version
// will ever take these values.
const (
	ClaimTag     = 0x43 // 'C'
	ApprovalTag  = 0x41 // 'A'
	ClaimVersion = 1
	// ClaimRequestVersion is the version of a SeatClaimRequest on the
	// wire: 2 names the deal (version 1, without it, could be replayed).
	ClaimRequestVersion = 2
	ClaimSize           = 2 + 32 + 8 + 1 + 32 + tablelog.SignatureSize
	ApprovalSize        = 2 + 32 + 8 + 1 + 32 + 1 + tablelog.SignatureSize
	claimDomain         = "njet/table/v1/seat-claim\x00"
	approvalDomain      = "njet/table/v1/seat-approval\x00"
	claimSignedSize     = ClaimSize - tablelog.SignatureSize
	// seatClaimBodyVersion is the SeatClaim body that carries a request
	// of ClaimRequestVersion; body version 1 carries a version 1 request.
	seatClaimBodyVersion = 2
)

// IsClaim reports whether a message on a table's transport is a
// SeatClaimRequest (by its first byte).
func IsClaim(data []byte) bool { return len(data) > 0 && data[0] == ClaimTag }

// IsApproval reports whether a message on a table's transport is a
// SeatApproval (by its first byte).
func IsApproval(data []byte) bool { return len(data) > 0 && data[0] == ApprovalTag }

// IsSideMessage reports whether a message on a table's transport travels
// outside the log (a vote, a seat claim, an approval or a presence) rather
// than being an envelope.
func IsSideMessage(data []byte) bool {
	return IsVote(data) || IsClaim(data) || IsApproval(data) || IsPresence(data)
}

func (c *SeatClaimRequest) appendSigned(b []byte) []byte {
	if c.legacy {
		b = append(b, ClaimTag, ClaimVersion)
		b = append(b, c.Table[:]...)
		b = append(b, c.Seat)
		return append(b, c.Key[:]...)
	}
	b = append(b, ClaimTag, ClaimRequestVersion)
	b = append(b, c.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, c.Deal)
	b = append(b, c.Seat)
	return append(b, c.Key[:]...)
}

// Sign signs the request with the claimant's key, which must be c.Key.
func (c *SeatClaimRequest) Sign(priv ed25519.PrivateKey) error {
	return signSide(priv, c.appendSigned([]byte(claimDomain)), &c.Sig)
}

// Verify checks the claimant's signature under c.Key.
func (c *SeatClaimRequest) Verify() error {
	return verifySide(c.Key, c.appendSigned([]byte(claimDomain)), c.Sig[:], "claim of seat %d", c.Seat)
}

// MarshalBinary encodes the request (ClaimSize bytes). A version 1
// request, which only an old log holds, is never sent again.
func (c *SeatClaimRequest) MarshalBinary() ([]byte, error) {
	if c.legacy {
		return nil, fmt.Errorf("%w: a claim request of version 1 names no deal and is not sent", tablelog.ErrUnknownVersion)
	}
	return append(c.appendSigned(make([]byte, 0, ClaimSize)), c.Sig[:]...), nil
}

// ParseClaim decodes a claim request strictly; Verify checks it. A
// request of version 1 (no deal) is refused with ErrUnknownVersion: it
// could be replayed.
func ParseClaim(data []byte) (*SeatClaimRequest, error) {
	if len(data) >= 2 && data[0] == ClaimTag && data[1] == ClaimVersion {
		return nil, fmt.Errorf("%w: a seat claim request of version 1 names no deal; the claimant must update the app", tablelog.ErrUnknownVersion)
	}
	if err := sideFrame(data, "claim", ClaimSize, ClaimTag, ClaimRequestVersion); err != nil {
		return nil, err
	}
	c := &SeatClaimRequest{Deal: binary.BigEndian.Uint64(data[34:42]), Seat: data[42]}
	copy(c.Table[:], data[2:34])
	copy(c.Key[:], data[43:75])
	copy(c.Sig[:], data[claimSignedSize:])
	return c, nil
}

func (a *SeatApproval) appendSigned(b []byte) []byte {
	b = append(b, ApprovalTag, ClaimVersion)
	b = append(b, a.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, a.Deal)
	b = append(b, a.Seat)
	b = append(b, a.Key[:]...)
	return append(b, a.Approver)
}

// Sign signs the approval with the approving seat's key.
func (a *SeatApproval) Sign(priv ed25519.PrivateKey) error {
	return signSide(priv, a.appendSigned([]byte(approvalDomain)), &a.Sig)
}

// Verify checks the signature under key, the approving seat's key.
func (a *SeatApproval) Verify(key tablelog.Identity) error {
	return verifySide(key, a.appendSigned([]byte(approvalDomain)), a.Sig[:], "approval of seat %d for seat %d", a.Approver, a.Seat)
}

// MarshalBinary encodes the approval (ApprovalSize bytes).
func (a *SeatApproval) MarshalBinary() ([]byte, error) {
	return append(a.appendSigned(make([]byte, 0, ApprovalSize)), a.Sig[:]...), nil
}

// ParseApproval decodes an approval strictly; Verify checks it.
func ParseApproval(data []byte) (*SeatApproval, error) {
	if err := sideFrame(data, "approval", ApprovalSize, ApprovalTag, ClaimVersion); err != nil {
		return nil, err
	}
	a := &SeatApproval{Deal: binary.BigEndian.Uint64(data[34:42]), Seat: data[42], Approver: data[75]}
	copy(a.Table[:], data[2:34])
	copy(a.Key[:], data[43:75])
	copy(a.Sig[:], data[76:])
	return a, nil
}

// seatClaim is a decoded SeatClaim body: the request and the approvals,
// one per seat still played by its own device, in seat order.
type seatClaim struct {
	req       SeatClaimRequest
	approvals []*SeatApproval
}

// seatClaimBody encodes a SeatClaim body: version · seat (1) · key (32) ·
// the claimant's signature (64) · count (1) · count × (approver (1) ·
// signature (64)). Body version 2 carries a request of version 2, whose
// deal is the claim's own (the approvals'), so it is not repeated.
func seatClaimBody(req *SeatClaimRequest, approvals []*SeatApproval) []byte {
	w := newWriter()
	if !req.legacy {
		w = newWriterVersion(seatClaimBodyVersion)
	}
	w.u8(int(req.Seat))
	w.raw(req.Key[:])
	w.raw(req.Sig[:])
	w.u8(len(approvals))
	for _, a := range approvals {
		w.u8(int(a.Approver))
		w.raw(a.Sig[:])
	}
	return w.bytes()
}

// parseSeatClaim decodes a SeatClaim body of table at deal: the approvals
// are rebuilt from it (they sign the table, deal, seat and key).
func parseSeatClaim(table tablelog.TableID, deal uint64, body []byte) (*seatClaim, error) {
	legacy := len(body) == 0 || body[0] != seatClaimBodyVersion
	var r *reader
	if legacy {
		r = newReader(tablelog.KindSeatClaim, body)
	} else {
		r = newReaderVersion(tablelog.KindSeatClaim, seatClaimBodyVersion, body)
	}
	c := &seatClaim{req: SeatClaimRequest{Table: table, Deal: deal, Seat: uint8(r.u8()), legacy: legacy}}
	c.req.Key = r.identity()
	copy(c.req.Sig[:], r.take(tablelog.SignatureSize))
	n := r.u8()
	for i := 0; i < n && r.err == nil; i++ {
		a := &SeatApproval{Table: table, Deal: deal, Seat: c.req.Seat, Key: c.req.Key, Approver: uint8(r.u8())}
		copy(a.Sig[:], r.take(tablelog.SignatureSize))
		c.approvals = append(c.approvals, a)
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return c, nil
}

// check checks a decoded claim against the keys that play the seats now
// and the seats whose approval it needs, in seat order (want): the
// request is signed by the key it names, a key no seat holds, and it
// carries exactly one approval per seat of want, in that order, each
// valid under that seat's key.
func (c *seatClaim) check(keys []tablelog.Identity, want []int) error {
	seat := int(c.req.Seat)
	if err := c.req.Verify(); err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	if slices.Contains(keys, c.req.Key) {
		return fmt.Errorf("%w: a claim of seat %d with a key already seated", tablelog.ErrMalformed, seat)
	}
	if len(c.approvals) != len(want) {
		return fmt.Errorf("%w: %d approvals, want one from each of the %d seats still played", ErrVote, len(c.approvals), len(want))
	}
	for i, a := range c.approvals {
		if int(a.Approver) != want[i] {
			return fmt.Errorf("%w: approval %d is seat %d's, want seat %d's", ErrVote, i, a.Approver, want[i])
		}
		if err := a.Verify(keys[a.Approver]); err != nil {
			return fmt.Errorf("%w: %w", ErrVote, err)
		}
	}
	return nil
}

// ClaimOf returns the seat a SeatClaim envelope hands over and the
// claimant's key. It reads the body only: whether the claim stands is the
// Log's business, so a caller trusts it only for an envelope its log
// accepted (a transport admits the claimant's device from its stored log).
func ClaimOf(env *tablelog.Envelope) (seat int, key tablelog.Identity, err error) {
	if env == nil || env.Kind != tablelog.KindSeatClaim {
		return 0, tablelog.Identity{}, fmt.Errorf("%w: not a SeatClaim", tablelog.ErrMalformed)
	}
	c, err := parseSeatClaim(env.Table, 0, env.Body)
	if err != nil {
		return 0, tablelog.Identity{}, err
	}
	return int(c.req.Seat), c.req.Key, nil
}
