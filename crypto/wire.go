package crypto

import (
	"encoding/binary"

	"github.com/gtank/ristretto255"
)

// WireVersion is the first byte of every encoded message. A decoder rejects
// any other value.
const WireVersion = 2

// Message kinds: the second byte of every encoded message. Append-only.
const (
	kindParams        = 1
	kindSecrets       = 2
	kindKey           = 3
	kindShuffle       = 4
	kindToken         = 5
	kindSealed        = 6
	kindPlay          = 7
	kindReveal        = 8
	kindTranscript    = 9
	kindEscrow        = 10
	kindEscrowShare   = 11
	kindRecoveredPlay = 12
)

// codec walks the fields of a message in wire order. The encoder writes
// each field; the decoder reads into it, checks it and remembers the first
// failure. A message's wire method lists its fields once for both.
type codec interface {
	// seat is the seat the message comes from. The decoder bounds it by
	// MaxParties and names it in every later failure.
	seat(v *int)
	// bounded is a one-byte number in [lo, hi], named what in a failure.
	bounded(v *int, what string, lo, hi int)
	// sealKind is a byte naming one of the seal kinds.
	sealKind(v *SealKind)
	u64(v *uint64)
	hash(v *[32]byte)
	// point is a canonical ristretto255 encoding; a lax decoder leaves it
	// to be validated later.
	point(v *Point)
	// proof is a (challenge, response) pair of canonical scalars.
	proof(v *[64]byte)
	// tokenProof is a token proof (A, B, z); a lax decoder leaves it to be
	// validated later.
	tokenProof(v *[tokenProofLen]byte)
	// raw is n bytes as they stand; the encoder writes *v, which its
	// caller has checked to be n bytes long.
	raw(v *[]byte, n int)
	// blob16 is a two-byte length and at most max bytes.
	blob16(v *[]byte, max int)
	// text8 is a one-byte length in [lo, hi], named what in a failure, and
	// that many bytes.
	text8(v *string, what string, lo, hi int)
	// check fails the decoder with the message unless cond holds; the
	// encoder leaves such rules to its caller.
	check(cond bool, format string, args ...any)
	// ok reports whether the walk goes on: always when encoding, until the
	// first failure when decoding.
	ok() bool
}

// sized makes *v hold n elements. A value being encoded already does (n
// was taken from it); a decoder's fresh value gets them allocated.
func sized[S ~[]T, T any](v *S, n int) {
	if len(*v) != n {
		*v = make(S, n)
	}
}

// list walks a one-byte count in [lo, hi], named what in a failure, and
// then each element of *v. A decoder leaves *v nil if the count fails.
func list[S ~[]T, T any](c codec, v *S, what string, lo, hi int, wire func(*T, codec)) {
	n := len(*v)
	c.bounded(&n, what, lo, hi)
	if !c.ok() {
		return
	}
	sized(v, n)
	for i := range *v {
		wire(&(*v)[i], c)
	}
}

// encode returns the message of the given kind whose fields wire walks;
// size is the capacity to start with.
func encode(kind byte, size int, wire func(codec)) []byte {
	e := newEncoder(kind, size)
	wire(e)
	return e.bytes()
}

// plaintext returns the fields wire walks with no header: the plaintext
// of a sealed message. size is the capacity to start with.
func plaintext(size int, wire func(codec)) []byte {
	e := &encoder{b: make([]byte, 0, size)}
	wire(e)
	return e.bytes()
}

// readPlain reads plain, the plaintext of a sealed message from seat
// sender, into the fields wire walks, and rejects bytes left over. Its
// failures name the sender; lax leaves points and token proofs to be
// validated later.
func readPlain(plain []byte, sender int, lax bool, wire func(codec)) error {
	d := &decoder{b: plain, sender: sender, lax: lax}
	wire(d)
	return d.finish()
}

// decode reads b, a message of the given kind and at most maxLen bytes,
// into the fields wire walks, and rejects bytes left over.
func decode(kind byte, b []byte, maxLen int, wire func(codec)) error {
	d := newDecoder(kind, b, maxLen)
	wire(d)
	return d.finish()
}

// decodeInto decodes b, a message of the given kind and at most maxLen
// bytes whose fields wire walks, into *m; on a failure *m is left as it
// was.
func decodeInto[T any](m *T, kind byte, b []byte, maxLen int, wire func(*T, codec)) error {
	var q T
	if err := decode(kind, b, maxLen, func(c codec) { wire(&q, c) }); err != nil {
		return err
	}
	*m = q
	return nil
}

// encoder appends fields to a buffer.
type encoder struct{ b []byte }

func newEncoder(kind byte, size int) *encoder {
	e := &encoder{b: make([]byte, 0, size+2)}
	e.b = append(e.b, WireVersion, kind)
	return e
}

func (e *encoder) bytes() []byte { return e.b }

func (e *encoder) u8(v int)        { e.b = append(e.b, byte(v)) }
func (e *encoder) u16(v int)       { e.b = binary.BigEndian.AppendUint16(e.b, uint16(v)) }
func (e *encoder) u32(v int)       { e.b = binary.BigEndian.AppendUint32(e.b, uint32(v)) }
func (e *encoder) blob32(v []byte) { e.u32(len(v)); e.b = append(e.b, v...) }

func (e *encoder) seat(v *int)                         { e.u8(*v) }
func (e *encoder) bounded(v *int, _ string, _, _ int)  { e.u8(*v) }
func (e *encoder) sealKind(v *SealKind)                { e.u8(int(*v)) }
func (e *encoder) u64(v *uint64)                       { e.b = binary.BigEndian.AppendUint64(e.b, *v) }
func (e *encoder) hash(v *[32]byte)                    { e.b = append(e.b, v[:]...) }
func (e *encoder) point(v *Point)                      { e.b = append(e.b, v[:]...) }
func (e *encoder) proof(v *[64]byte)                   { e.b = append(e.b, v[:]...) }
func (e *encoder) tokenProof(v *[tokenProofLen]byte)   { e.b = append(e.b, v[:]...) }
func (e *encoder) raw(v *[]byte, _ int)                { e.b = append(e.b, *v...) }
func (e *encoder) blob16(v *[]byte, _ int)             { e.u16(len(*v)); e.b = append(e.b, *v...) }
func (e *encoder) text8(v *string, _ string, _, _ int) { e.u8(len(*v)); e.b = append(e.b, *v...) }
func (e *encoder) check(bool, string, ...any)          {}
func (e *encoder) ok() bool                            { return true }

// decoder reads fields and remembers the first error. sender is the seat
// the message claims to come from, once read, so that failures can name it.
type decoder struct {
	b      []byte
	err    error
	sender int
	// lax skips the validation of points and token proofs, for input that
	// is verified right after decoding with the same attribution.
	lax bool
}

func newDecoder(kind byte, b []byte, maxLen int) *decoder {
	d := &decoder{b: b, sender: -1}
	switch {
	case len(b) > maxLen:
		d.fail("message of %d bytes exceeds the limit of %d", len(b), maxLen)
	case len(b) < 2:
		d.fail("message too short")
	case b[0] != WireVersion:
		d.fail("unknown wire version %d", b[0])
	case b[1] != kind:
		d.fail("message kind %d, want %d", b[1], kind)
	default:
		d.b = b[2:]
	}
	return d
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = cheat(d.sender, CheckEncoding, format, args...)
	}
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return make([]byte, n)
	}
	if len(d.b) < n {
		d.fail("truncated message")
		return make([]byte, n)
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) u8() int  { return int(d.take(1)[0]) }
func (d *decoder) u16() int { return int(binary.BigEndian.Uint16(d.take(2))) }
func (d *decoder) u32() int { return int(binary.BigEndian.Uint32(d.take(4))) }

func (d *decoder) blob32(max int) []byte {
	n := d.u32()
	if d.err == nil && n > max {
		d.fail("field of %d bytes exceeds the limit of %d", n, max)
		return nil
	}
	return d.take(n)
}

func (d *decoder) seat(v *int) {
	*v = d.u8()
	if d.err == nil {
		if *v >= MaxParties {
			d.fail("seat %d out of range", *v)
			return
		}
		d.sender = *v
	}
}

func (d *decoder) bounded(v *int, what string, lo, hi int) {
	*v = d.u8()
	if d.err == nil && (*v < lo || *v > hi) {
		d.fail("%s %d out of range [%d, %d]", what, *v, lo, hi)
	}
}

func (d *decoder) sealKind(v *SealKind) {
	var k int
	d.bounded(&k, "seal kind", int(SealDeal), int(SealRecovery))
	*v = SealKind(k)
}

func (d *decoder) u64(v *uint64)    { *v = binary.BigEndian.Uint64(d.take(8)) }
func (d *decoder) hash(v *[32]byte) { copy(v[:], d.take(32)) }

func (d *decoder) point(v *Point) {
	copy(v[:], d.take(32))
	if d.err == nil && !d.lax {
		if _, err := v.element(); err != nil {
			d.fail("%v", err)
		}
	}
}

func (d *decoder) proof(v *[64]byte) {
	copy(v[:], d.take(64))
	if d.err == nil {
		if _, _, err := splitProof(*v); err != nil {
			d.fail("%v", err)
		}
	}
}

func (d *decoder) tokenProof(v *[tokenProofLen]byte) {
	copy(v[:], d.take(tokenProofLen))
	if d.err == nil && !d.lax {
		var A, B ristretto255.Element
		var z ristretto255.Scalar
		if err := splitTokenProof(v, &A, &B, &z); err != nil {
			d.fail("%v", err)
		}
	}
}

func (d *decoder) raw(v *[]byte, n int) { *v = append([]byte(nil), d.take(n)...) }

func (d *decoder) blob16(v *[]byte, max int) {
	n := d.u16()
	if d.err == nil && n > max {
		d.fail("field of %d bytes exceeds the limit of %d", n, max)
		return
	}
	*v = append([]byte(nil), d.take(n)...)
}

func (d *decoder) text8(v *string, what string, lo, hi int) {
	var n int
	d.bounded(&n, what, lo, hi)
	*v = string(d.take(n))
}

func (d *decoder) check(cond bool, format string, args ...any) {
	if d.err == nil && !cond {
		d.fail(format, args...)
	}
}

func (d *decoder) ok() bool { return d.err == nil }

// finish reports the first error, or an error if bytes are left over.
func (d *decoder) finish() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	return d.err
}
