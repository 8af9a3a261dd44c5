package table

import (
	"encoding/binary"
	"fmt"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// BodyVersion is the version byte that starts every body of the game
// protocol. A new layout of any body gets a new number.
const BodyVersion = 1

// maxSealedSize bounds one encoded crypto.Sealed inside a body.
const maxSealedSize = 1 << 10

// writer appends the fields of a body.
type writer struct{ b []byte }

func newWriter() *writer              { return &writer{b: []byte{BodyVersion}} }
func newWriterVersion(v byte) *writer { return &writer{b: []byte{v}} }
func (w *writer) u8(v int)            { w.b = append(w.b, byte(v)) }
func (w *writer) u16(v int)           { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) u64(v uint64)        { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) raw(v []byte)        { w.b = append(w.b, v...) }
func (w *writer) blob(v []byte)       { w.u16(len(v)); w.raw(v) }
func (w *writer) bytes() []byte       { return w.b }
func (w *writer) flag(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}
func (w *writer) marshal(m marshaler) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	w.blob(b)
	return nil
}

type marshaler interface{ MarshalBinary() ([]byte, error) }

// reader takes the fields of a body strictly: the first failure sticks and
// finish reports it, or trailing bytes.
type reader struct {
	b    []byte
	kind tablelog.Kind
	err  error
}

func newReader(kind tablelog.Kind, b []byte) *reader { return newReaderVersion(kind, BodyVersion, b) }

// newReaderVersion reads a body of version v (a kind whose body has a
// later version).
func newReaderVersion(kind tablelog.Kind, v byte, b []byte) *reader {
	r := &reader{b: b, kind: kind}
	if len(b) == 0 {
		r.fail("empty body")
		return r
	}
	if b[0] != v {
		r.err = fmt.Errorf("%w: %v body version %d", tablelog.ErrUnknownVersion, kind, b[0])
		return r
	}
	r.b = b[1:]
	return r
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %v body: %s", tablelog.ErrMalformed, r.kind, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.fail("truncated")
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() int     { return int(r.take(1)[0]) }
func (r *reader) u16() int    { return int(binary.BigEndian.Uint16(r.take(2))) }
func (r *reader) u64() uint64 { return binary.BigEndian.Uint64(r.take(8)) }

// identity reads an Ed25519 public key.
func (r *reader) identity() (id tablelog.Identity) {
	copy(id[:], r.take(32))
	return id
}

func (r *reader) flag() bool {
	v := r.u8()
	if v > 1 {
		r.fail("flag %d", v)
	}
	return v == 1
}
func (r *reader) blob(limit int) []byte {
	n := r.u16()
	if n > limit {
		r.fail("field of %d bytes (limit %d)", n, limit)
		return nil
	}
	return r.take(n)
}

// unmarshal decodes a length-prefixed crypto message into m.
func (r *reader) unmarshal(m interface{ UnmarshalBinary([]byte) error }, limit int) {
	b := r.blob(limit)
	if r.err != nil {
		return
	}
	if err := m.UnmarshalBinary(b); err != nil {
		r.err = fmt.Errorf("%w: %v body: %w", tablelog.ErrMalformed, r.kind, err)
	}
}

func (r *reader) finish() error {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d trailing bytes", len(r.b))
	}
	return r.err
}

// Bodies of the other kinds. Each encoder and decoder pair is strict: one
// value, one encoding.

func ackBody(genesis tablelog.Hash) []byte {
	w := newWriter()
	w.raw(genesis[:])
	return w.bytes()
}

func parseAck(body []byte) (tablelog.Hash, error) {
	r := newReader(tablelog.KindAck, body)
	var h tablelog.Hash
	copy(h[:], r.take(32))
	return h, r.finish()
}

// cryptoBody wraps one crypto message: version, then its encoding.
func cryptoBody(m marshaler) ([]byte, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return append([]byte{BodyVersion}, b...), nil
}

func parseCrypto(kind tablelog.Kind, body []byte, m interface{ UnmarshalBinary([]byte) error }) error {
	r := newReader(kind, body)
	if r.err != nil {
		return r.err
	}
	if err := m.UnmarshalBinary(r.b); err != nil {
		return fmt.Errorf("%w: %v body: %w", tablelog.ErrMalformed, kind, err)
	}
	return nil
}

func dealBody(sealed []*crypto.Sealed) ([]byte, error) {
	w := newWriter()
	w.u16(len(sealed))
	for _, s := range sealed {
		if err := w.marshal(s); err != nil {
			return nil, err
		}
	}
	return w.bytes(), nil
}

// dealEscrowBody encodes a DealTokens body of version 2: the tokens, then
// the seat's escrow; without an escrow (nil) the body of version 1.
func dealEscrowBody(sealed []crypto.Sealed, m *crypto.EscrowMessage) ([]byte, error) {
	ptrs := make([]*crypto.Sealed, len(sealed))
	for i := range sealed {
		ptrs[i] = &sealed[i]
	}
	b, err := dealBody(ptrs)
	if err != nil || m == nil {
		return b, err
	}
	w := &writer{b: b}
	w.b[0] = dealVersionEscrow
	if err := w.marshal(m); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

// dealVersionEscrow is the body version of a DealTokens that carries the
// seat's escrow after its tokens.
const dealVersionEscrow = 2

// maxEscrowSize bounds one encoded crypto.EscrowMessage inside a body.
const maxEscrowSize = 1 << 11

func parseDeal(body []byte) ([]crypto.Sealed, error) {
	sealed, _, err := parseSealed(tablelog.KindDealTokens, body, false)
	return sealed, err
}

// parseDealTokens decodes a DealTokens body of either version: version 1
// holds the tokens only, version 2 the seat's escrow after them.
func parseDealTokens(body []byte) ([]crypto.Sealed, *crypto.EscrowMessage, error) {
	return parseSealed(tablelog.KindDealTokens, body, true)
}

// parseSealed decodes a list of sealed messages (a DealTokens or a
// Recovery body), and the escrow that follows them in a DealTokens of
// version 2 when escrow allows it.
func parseSealed(kind tablelog.Kind, body []byte, escrow bool) ([]crypto.Sealed, *crypto.EscrowMessage, error) {
	var m *crypto.EscrowMessage
	var r *reader
	if escrow && len(body) > 0 && body[0] == dealVersionEscrow {
		r, m = &reader{b: body[1:], kind: kind}, new(crypto.EscrowMessage)
	} else {
		r = newReader(kind, body)
	}
	n := r.u16()
	if n > crypto.MaxParties*crypto.MaxCards {
		r.fail("%d sealed tokens", n)
	}
	var out []crypto.Sealed
	for i := 0; i < n && r.err == nil; i++ {
		var s crypto.Sealed
		r.unmarshal(&s, maxSealedSize)
		out = append(out, s)
	}
	if m != nil {
		r.unmarshal(m, maxEscrowSize)
	}
	if err := r.finish(); err != nil {
		return nil, nil, err
	}
	return out, m, nil
}

func voteBody(seq uint64) []byte {
	w := newWriter()
	w.u64(seq)
	return w.bytes()
}

func parseVote(body []byte) (uint64, error) {
	r := newReader(tablelog.KindVoidVote, body)
	seq := r.u64()
	return seq, r.finish()
}

func botSeatBody(seat int, key tablelog.Identity) []byte {
	w := newWriter()
	w.u8(seat)
	w.raw(key[:])
	return w.bytes()
}

func parseBotSeat(body []byte) (int, tablelog.Identity, error) {
	r := newReader(tablelog.KindBotSeat, body)
	seat := r.u8()
	key := r.identity()
	return seat, key, r.finish()
}

func abandonBody(silent int) []byte {
	w := newWriter()
	w.u8(silent)
	return w.bytes()
}

func parseAbandon(body []byte) (int, error) {
	r := newReader(tablelog.KindAbandon, body)
	seat := r.u8()
	return seat, r.finish()
}

// complaint is the body of a Complaint: the sealed message that does not
// open for the complainer (its kind, sender and position; the recipient is
// the envelope's author) and the complainer's round secrets.
type complaint struct {
	kind   crypto.SealKind
	from   int
	pos    int
	reveal *crypto.Reveal
}

func complaintBody(c *complaint) ([]byte, error) {
	w := newWriter()
	w.u8(int(c.kind))
	w.u8(c.from)
	w.u8(c.pos)
	if err := w.marshal(c.reveal); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

func parseComplaint(body []byte) (*complaint, error) {
	r := newReader(tablelog.KindComplaint, body)
	c := &complaint{kind: crypto.SealKind(r.u8()), from: r.u8(), pos: r.u8(), reveal: new(crypto.Reveal)}
	if r.err == nil && (c.kind < crypto.SealDeal || c.kind > crypto.SealRecovery) {
		r.fail("seal kind %d", c.kind)
	}
	r.unmarshal(c.reveal, 256)
	return c, r.finish()
}
