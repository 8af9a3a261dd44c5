package crypto

// This file adapts ristretto255 to kyber's Group, Point and Scalar interfaces
// so that kyber's Neff shuffle proof runs on a prime-order group whose
// encodings are canonical. kyber's own edwards25519 is slower and accepts
// points with a torsion component.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"

	"github.com/gtank/ristretto255"
	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/compatible/compatiblemod"
)

// groupOrder is l = 2^252 + 27742317777372353535851937790883648493.
var groupOrder = new(big.Int).SetBytes([]byte{
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x14, 0xde, 0xf9, 0xde, 0xa2, 0xf7, 0x9c, 0xd6,
	0x58, 0x12, 0x63, 0x1a, 0x5c, 0xf5, 0xd3, 0xed,
})

// kyberGroup is ristretto255 as a kyber.Group. With varTime set, points it
// creates use variable-time multiplication: only for verifiers, whose
// inputs are all public.
type kyberGroup struct {
	varTime bool
}

func (g *kyberGroup) String() string { return "ristretto255" }
func (g *kyberGroup) ScalarLen() int { return 32 }
func (g *kyberGroup) PointLen() int  { return 32 }

func (g *kyberGroup) Scalar() kyber.Scalar { return &kyberScalar{} }

func (g *kyberGroup) Point() kyber.Point {
	return &kyberPoint{e: *ristretto255.NewIdentityElement(), varTime: g.varTime}
}

// kyberPoint is a ristretto255 element, possibly held as a pending linear
// combination: its value is e + sum(terms[i].s * terms[i].p). Mul only
// records a term and Add and Sub with the receiver as first operand
// accumulate terms, so that a sum of products built the way the shuffle
// proof builds its checks is computed by one multi-scalar multiplication
// when the value is needed (Equal, encoding). Any other use flattens the
// operands first, so a pending point is evaluated at most once. base records
// that the point is the generator, so that multiplying it uses the
// precomputed base table.
type kyberPoint struct {
	e       ristretto255.Element
	terms   []lazyTerm
	base    bool
	varTime bool
}

// lazyTerm is a pending s*p; a nil p is the generator. p is never written
// after the term is made, so terms can be copied freely between points.
type lazyTerm struct {
	s ristretto255.Scalar
	p *ristretto255.Element
}

var (
	identityElement  = ristretto255.NewIdentityElement()
	generatorElement = ristretto255.NewGeneratorElement()
)

func asPoint(p kyber.Point) *kyberPoint {
	q, ok := p.(*kyberPoint)
	if !ok {
		// Only points of this group ever reach the adapter; mixing groups
		// is a programming error that kyber's interfaces cannot report.
		panic(fmt.Sprintf("crypto: foreign kyber.Point %T", p))
	}
	return q
}

func asScalar(s kyber.Scalar) *kyberScalar {
	q, ok := s.(*kyberScalar)
	if !ok {
		panic(fmt.Sprintf("crypto: foreign kyber.Scalar %T", s))
	}
	return q
}

// flatten evaluates the pending terms into e. Verifiers (varTime) use
// variable-time multiplication, provers constant-time multiplication.
func (p *kyberPoint) flatten() {
	if len(p.terms) == 0 {
		return
	}
	var sb ristretto255.Scalar // sum of the generator's coefficients
	hasBase := false
	scalars := make([]*ristretto255.Scalar, 0, len(p.terms)+1)
	points := make([]*ristretto255.Element, 0, len(p.terms)+1)
	for i := range p.terms {
		t := &p.terms[i]
		if t.p == nil {
			sb.Add(&sb, &t.s)
			hasBase = true
			continue
		}
		scalars = append(scalars, &t.s)
		points = append(points, t.p)
	}
	var v ristretto255.Element
	switch {
	case len(points) == 0:
		v.ScalarBaseMult(&sb)
	case p.varTime && len(points) == 1:
		v.VarTimeDoubleScalarBaseMult(scalars[0], points[0], &sb)
	case p.varTime:
		if hasBase {
			scalars = append(scalars, &sb)
			points = append(points, generatorElement)
		}
		v.VarTimeMultiScalarMult(scalars, points)
	default:
		if len(points) == 1 {
			v.ScalarMult(scalars[0], points[0])
		} else {
			v.MultiScalarMult(scalars, points)
		}
		if hasBase {
			var g ristretto255.Element
			v.Add(&v, g.ScalarBaseMult(&sb))
		}
	}
	p.e.Add(&p.e, &v)
	p.terms = p.terms[:0]
}

// isBase reports whether p is known to be the generator.
func (p *kyberPoint) isBase() bool { return p.base && len(p.terms) == 0 }

// setConcrete makes p the value v with no pending terms.
func (p *kyberPoint) setConcrete(v *ristretto255.Element) {
	p.e.Set(v)
	p.terms = p.terms[:0]
	p.base = false
}

func (p *kyberPoint) Equal(q kyber.Point) bool {
	o, ok := q.(*kyberPoint)
	if !ok {
		return false
	}
	p.flatten()
	o.flatten()
	return p.e.Equal(&o.e) == 1
}

func (p *kyberPoint) Null() kyber.Point {
	p.setConcrete(identityElement)
	return p
}

func (p *kyberPoint) Base() kyber.Point {
	p.setConcrete(generatorElement)
	p.base = true
	return p
}

// Pick sets p to a uniformly random element, mapped from 64 bytes of rand.
func (p *kyberPoint) Pick(rand cipher.Stream) kyber.Point {
	var b [64]byte
	rand.XORKeyStream(b[:], b[:])
	p.setConcrete(wideElement(&b))
	return p
}

func (p *kyberPoint) Set(q kyber.Point) kyber.Point {
	o := asPoint(q)
	if o == p {
		return p
	}
	p.e.Set(&o.e)
	p.terms = append(p.terms[:0], o.terms...)
	p.base = o.base
	return p
}

func (p *kyberPoint) Clone() kyber.Point {
	c := &kyberPoint{e: p.e, base: p.base, varTime: p.varTime}
	c.terms = append([]lazyTerm(nil), p.terms...)
	return c
}

// EmbedLen is 0: ristretto255 offers no simple reversible embedding of
// data, and the shuffle never embeds data.
func (p *kyberPoint) EmbedLen() int { return 0 }

// Embed embeds the first EmbedLen (that is, zero) bytes of data, as kyber's
// contract allows, so it picks a random point.
func (p *kyberPoint) Embed(_ []byte, rand cipher.Stream) kyber.Point { return p.Pick(rand) }

// Data always fails: no data is ever embedded.
func (p *kyberPoint) Data() ([]byte, error) {
	return nil, errors.New("crypto: ristretto255 points carry no embedded data")
}

// combine sets p = a + b, or a - b with neg. With p == a the terms of b are
// appended (an accumulation); otherwise both operands are flattened first
// and the sum is computed at once.
func (p *kyberPoint) combine(a, b *kyberPoint, neg bool) {
	if p != a || b == p {
		a.flatten()
		b.flatten()
		var v ristretto255.Element
		if neg {
			v.Subtract(&a.e, &b.e)
		} else {
			v.Add(&a.e, &b.e)
		}
		p.setConcrete(&v)
		return
	}
	if neg {
		p.e.Subtract(&p.e, &b.e)
	} else {
		p.e.Add(&p.e, &b.e)
	}
	for _, t := range b.terms {
		if neg {
			t.s.Negate(&t.s)
		}
		p.terms = append(p.terms, t)
	}
	p.base = false
}

func (p *kyberPoint) Add(a, b kyber.Point) kyber.Point {
	p.combine(asPoint(a), asPoint(b), false)
	return p
}

func (p *kyberPoint) Sub(a, b kyber.Point) kyber.Point {
	p.combine(asPoint(a), asPoint(b), true)
	return p
}

func (p *kyberPoint) Neg(a kyber.Point) kyber.Point {
	o := asPoint(a)
	if o != p {
		p.e.Set(&o.e)
		p.terms = append(p.terms[:0], o.terms...)
	}
	p.e.Negate(&p.e)
	for i := range p.terms {
		p.terms[i].s.Negate(&p.terms[i].s)
	}
	p.base = false
	return p
}

// Mul sets p = s*q; a nil q means the generator, as in kyber. The product
// is recorded as a pending term.
func (p *kyberPoint) Mul(s kyber.Scalar, q kyber.Point) kyber.Point {
	t := lazyTerm{s: asScalar(s).s}
	if q != nil {
		o := asPoint(q)
		if !o.isBase() {
			o.flatten()
			t.p = new(ristretto255.Element).Set(&o.e)
		}
	}
	p.e.Zero()
	p.terms = append(p.terms[:0], t)
	p.base = false
	return p
}

// element returns the value of p.
func (p *kyberPoint) element() *ristretto255.Element {
	p.flatten()
	return &p.e
}

func (p *kyberPoint) MarshalBinary() ([]byte, error) { return p.element().Bytes(), nil }

// UnmarshalBinary accepts only canonical encodings.
func (p *kyberPoint) UnmarshalBinary(b []byte) error {
	p.terms = p.terms[:0]
	p.base = false
	if _, err := p.e.SetCanonicalBytes(b); err != nil {
		return fmt.Errorf("%w: %v", ErrEncoding, errBadPoint)
	}
	return nil
}

func (p *kyberPoint) String() string   { return hex.EncodeToString(p.element().Bytes()) }
func (p *kyberPoint) MarshalSize() int { return 32 }

func (p *kyberPoint) MarshalTo(w io.Writer) (int, error) { return w.Write(p.element().Bytes()) }

// UnmarshalFrom reads an encoding from r, or picks a random point when r
// is a cipher.Stream (see unmarshalFrom).
func (p *kyberPoint) UnmarshalFrom(r io.Reader) (int, error) {
	return unmarshalFrom(r, func(s cipher.Stream) { p.Pick(s) }, p.UnmarshalBinary)
}

// unmarshalFrom reads a 32-byte encoding from r and decodes it with
// unmarshal. As everywhere in kyber, a reader that is also a cipher.Stream
// (a challenge or randomness stream) yields a random value instead, drawn
// with pick.
func unmarshalFrom(r io.Reader, pick func(cipher.Stream), unmarshal func([]byte) error) (int, error) {
	if s, ok := r.(cipher.Stream); ok {
		pick(s)
		return -1, nil
	}
	var b [32]byte
	n, err := io.ReadFull(r, b[:])
	if err != nil {
		return n, err
	}
	return n, unmarshal(b[:])
}

// kyberScalar is a ristretto255 scalar; its zero value is 0.
type kyberScalar struct {
	s ristretto255.Scalar
}

func (s *kyberScalar) Equal(t kyber.Scalar) bool {
	o, ok := t.(*kyberScalar)
	return ok && s.s.Equal(&o.s) == 1
}

func (s *kyberScalar) Set(a kyber.Scalar) kyber.Scalar { s.s.Set(&asScalar(a).s); return s }
func (s *kyberScalar) Clone() kyber.Scalar             { c := *s; return &c }
func (s *kyberScalar) Zero() kyber.Scalar              { s.s.Zero(); return s }
func (s *kyberScalar) One() kyber.Scalar               { return s.SetInt64(1) }

func (s *kyberScalar) SetInt64(v int64) kyber.Scalar {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-(v + 1)) + 1 // |v| without overflow at MinInt64
	}
	var b [64]byte
	for i := range 8 {
		b[i] = byte(u >> (8 * i))
	}
	s.s.Set(wideScalar(&b))
	if neg {
		s.s.Negate(&s.s)
	}
	return s
}

func (s *kyberScalar) Add(a, b kyber.Scalar) kyber.Scalar {
	s.s.Add(&asScalar(a).s, &asScalar(b).s)
	return s
}

func (s *kyberScalar) Sub(a, b kyber.Scalar) kyber.Scalar {
	s.s.Subtract(&asScalar(a).s, &asScalar(b).s)
	return s
}

func (s *kyberScalar) Neg(a kyber.Scalar) kyber.Scalar { s.s.Negate(&asScalar(a).s); return s }

func (s *kyberScalar) Mul(a, b kyber.Scalar) kyber.Scalar {
	s.s.Multiply(&asScalar(a).s, &asScalar(b).s)
	return s
}

// Div sets s = a/b; dividing by zero gives zero.
func (s *kyberScalar) Div(a, b kyber.Scalar) kyber.Scalar {
	inv := ristretto255.NewScalar().Invert(&asScalar(b).s)
	s.s.Multiply(&asScalar(a).s, inv)
	return s
}

// Inv sets s = 1/a; the inverse of zero is zero.
func (s *kyberScalar) Inv(a kyber.Scalar) kyber.Scalar { s.s.Invert(&asScalar(a).s); return s }

// Pick sets s to a uniform scalar reduced from 64 bytes of rand.
func (s *kyberScalar) Pick(rand cipher.Stream) kyber.Scalar {
	var b [64]byte
	rand.XORKeyStream(b[:], b[:])
	s.s.Set(wideScalar(&b))
	return s
}

// SetBytes sets s to the little-endian integer b reduced modulo the group
// order.
func (s *kyberScalar) SetBytes(b []byte) kyber.Scalar {
	var wide [64]byte
	if len(b) <= len(wide) {
		copy(wide[:], b)
	} else {
		be := make([]byte, len(b))
		for i, x := range b {
			be[len(b)-1-i] = x
		}
		v := new(big.Int).SetBytes(be)
		v.Mod(v, groupOrder)
		le := v.FillBytes(make([]byte, 32))
		for i, x := range le {
			wide[31-i] = x
		}
	}
	s.s.Set(wideScalar(&wide))
	return s
}

func (s *kyberScalar) ByteOrder() kyber.ByteOrder { return kyber.LittleEndian }

func (s *kyberScalar) GroupOrder() *compatiblemod.Mod { return compatiblemod.FromBigInt(groupOrder) }

func (s *kyberScalar) MarshalBinary() ([]byte, error) { return s.s.Bytes(), nil }

// UnmarshalBinary accepts only canonical encodings (below the group order).
func (s *kyberScalar) UnmarshalBinary(b []byte) error {
	if _, err := s.s.SetCanonicalBytes(b); err != nil {
		return fmt.Errorf("%w: non-canonical scalar", ErrEncoding)
	}
	return nil
}

func (s *kyberScalar) String() string                     { return hex.EncodeToString(s.s.Bytes()) }
func (s *kyberScalar) MarshalSize() int                   { return 32 }
func (s *kyberScalar) MarshalTo(w io.Writer) (int, error) { return w.Write(s.s.Bytes()) }

// UnmarshalFrom reads an encoding from r, or picks a random scalar when r
// is a cipher.Stream (see unmarshalFrom).
func (s *kyberScalar) UnmarshalFrom(r io.Reader) (int, error) {
	return unmarshalFrom(r, func(st cipher.Stream) { s.Pick(st) }, s.UnmarshalBinary)
}

// kyberSuite is the proof.Suite the shuffle proof runs with: the group, a
// hash, the XOF that derives Fiat-Shamir challenges, an encoding of proof
// messages and the prover's private random stream.
type kyberSuite struct {
	kyberGroup
	random cipher.Stream
}

func (s *kyberSuite) Hash() hash.Hash { return sha512.New() }

func (s *kyberSuite) XOF(seed []byte) kyber.XOF { return newShakeXOF(seed) }

// RandomStream returns the prover's stream. A verifier's suite has none and
// gets a stream over crypto/rand, which verification never reads.
func (s *kyberSuite) RandomStream() cipher.Stream {
	if s.random == nil {
		return systemStream{}
	}
	return s.random
}

func (s *kyberSuite) Write(w io.Writer, objs ...any) error { return writeObjects(w, objs...) }

func (s *kyberSuite) Read(r io.Reader, objs ...any) error {
	return readObjects(r, &s.kyberGroup, objs...)
}

// newProverStream turns 32 bytes of rand into an AES-256-CTR key stream for
// the prover's private coins. Drawing the key up front lets a failing random
// source surface as an error, which cipher.Stream cannot report.
func newProverStream(rand io.Reader) (cipher.Stream, error) {
	var key [32]byte
	if _, err := io.ReadFull(rand, key[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	var iv [aes.BlockSize]byte
	return cipher.NewCTR(block, iv[:]), nil
}

// systemStream is a cipher.Stream over crypto/rand, whose Read never fails.
type systemStream struct{}

func (systemStream) XORKeyStream(dst, src []byte) {
	buf := make([]byte, len(src))
	_, _ = rand.Read(buf) // documented never to return an error
	for i := range src {
		dst[i] = src[i] ^ buf[i]
	}
}
