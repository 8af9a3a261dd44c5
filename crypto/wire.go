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

// encoder appends fixed-layout fields to a buffer.
type encoder struct{ b []byte }

func newEncoder(kind byte, size int) *encoder {
	e := &encoder{b: make([]byte, 0, size+2)}
	e.b = append(e.b, WireVersion, kind)
	return e
}

func (e *encoder) u8(v int)         { e.b = append(e.b, byte(v)) }
func (e *encoder) u16(v int)        { e.b = binary.BigEndian.AppendUint16(e.b, uint16(v)) }
func (e *encoder) u32(v int)        { e.b = binary.BigEndian.AppendUint32(e.b, uint32(v)) }
func (e *encoder) u64(v uint64)     { e.b = binary.BigEndian.AppendUint64(e.b, v) }
func (e *encoder) raw(v []byte)     { e.b = append(e.b, v...) }
func (e *encoder) blob16(v []byte)  { e.u16(len(v)); e.raw(v) }
func (e *encoder) blob32(v []byte)  { e.u32(len(v)); e.raw(v) }
func (e *encoder) bytes() []byte    { return e.b }
func (e *encoder) point(p Point)    { e.raw(p[:]) }
func (e *encoder) proof(p [64]byte) { e.raw(p[:]) }
func (e *encoder) hash(h [32]byte)  { e.raw(h[:]) }

// decoder reads fields and remembers the first error. seat is the seat the
// message claims to come from, once read, so that failures can name it.
type decoder struct {
	b    []byte
	err  error
	seat int
	// lax skips the validation of points and token proofs, for input that
	// is verified right after decoding with the same attribution.
	lax bool
}

func newDecoder(kind byte, b []byte, maxLen int) *decoder {
	d := &decoder{b: b, seat: -1}
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
		d.err = cheat(d.seat, CheckEncoding, format, args...)
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

func (d *decoder) u8() int     { return int(d.take(1)[0]) }
func (d *decoder) u16() int    { return int(binary.BigEndian.Uint16(d.take(2))) }
func (d *decoder) u32() int    { return int(binary.BigEndian.Uint32(d.take(4))) }
func (d *decoder) u64() uint64 { return binary.BigEndian.Uint64(d.take(8)) }
func (d *decoder) hash() (h [32]byte) {
	copy(h[:], d.take(32))
	return h
}

// bounded reads a one-byte count and checks lo <= n <= hi.
func (d *decoder) bounded(what string, lo, hi int) int {
	n := d.u8()
	if d.err == nil && (n < lo || n > hi) {
		d.fail("%s %d out of range [%d, %d]", what, n, lo, hi)
	}
	return n
}

// readSeat reads a seat byte, bounded by MaxParties, and remembers it for
// attribution of later failures.
func (d *decoder) readSeat() int {
	s := d.u8()
	if d.err == nil {
		if s >= MaxParties {
			d.fail("seat %d out of range", s)
			return s
		}
		d.seat = s
	}
	return s
}

// point reads a canonical ristretto255 encoding and validates it, unless
// the decoder is lax.
func (d *decoder) point() Point {
	var p Point
	copy(p[:], d.take(32))
	if d.err == nil && !d.lax {
		if _, err := p.element(); err != nil {
			d.fail("%v", err)
		}
	}
	return p
}

// proof reads a (challenge, response) pair of canonical scalars.
func (d *decoder) proof() [64]byte {
	var p [64]byte
	copy(p[:], d.take(64))
	if d.err == nil {
		if _, _, err := splitProof(p); err != nil {
			d.fail("%v", err)
		}
	}
	return p
}

// tokenProof reads a token proof (A, B, z) and validates its encodings,
// unless the decoder is lax.
func (d *decoder) tokenProof() [tokenProofLen]byte {
	var p [tokenProofLen]byte
	copy(p[:], d.take(tokenProofLen))
	if d.err == nil && !d.lax {
		var A, B ristretto255.Element
		var z ristretto255.Scalar
		if err := splitTokenProof(&p, &A, &B, &z); err != nil {
			d.fail("%v", err)
		}
	}
	return p
}

func (d *decoder) blob16(max int) []byte {
	n := d.u16()
	if d.err == nil && n > max {
		d.fail("field of %d bytes exceeds the limit of %d", n, max)
		return nil
	}
	return append([]byte(nil), d.take(n)...)
}

func (d *decoder) blob32(max int) []byte {
	n := d.u32()
	if d.err == nil && n > max {
		d.fail("field of %d bytes exceeds the limit of %d", n, max)
		return nil
	}
	return d.take(n)
}

// finish reports the first error, or an error if bytes are left over.
func (d *decoder) finish() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	if d.err != nil {
		return d.err
	}
	return nil
}
