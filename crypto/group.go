package crypto

import (
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Point is the canonical 32-byte encoding of a ristretto255 group element,
// the form in which points travel and are stored. Points are decoded, and so
// validated, whenever they are used.
type Point [32]byte

// String returns the point in hex.
func (p Point) String() string { return hex.EncodeToString(p[:]) }

var errBadPoint = errors.New("not a canonical ristretto255 encoding")

// element decodes p, rejecting non-canonical encodings.
func (p Point) element() (*ristretto255.Element, error) {
	e, err := ristretto255.NewElement().SetCanonicalBytes(p[:])
	if err != nil {
		return nil, errBadPoint
	}
	return e, nil
}

func pointOf(e *ristretto255.Element) Point {
	var p Point
	copy(p[:], e.Bytes())
	return p
}

// wideScalar reduces 64 uniform bytes to a scalar. SetUniformBytes fails
// only on a length other than 64, which the array type rules out.
func wideScalar(b *[64]byte) *ristretto255.Scalar {
	s := ristretto255.NewScalar()
	if _, err := s.SetUniformBytes(b[:]); err != nil {
		return ristretto255.NewScalar()
	}
	return s
}

// wideElement maps 64 uniform bytes to a group element; like wideScalar it
// cannot fail on a 64-byte input.
func wideElement(b *[64]byte) *ristretto255.Element {
	e := ristretto255.NewElement()
	if _, err := e.SetUniformBytes(b[:]); err != nil {
		return ristretto255.NewIdentityElement()
	}
	return e
}

var identity = pointOf(ristretto255.NewIdentityElement())

// randomScalar draws a uniform scalar from rand.
func randomScalar(rand io.Reader) (*ristretto255.Scalar, error) {
	var b [64]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	return wideScalar(&b), nil
}

// nonce derives a proof nonce from fresh randomness, the secret and the
// digest of the round's parameters, so that a weak random source alone does
// not leak the secret (hedged nonces), and a source that repeats itself
// still gives different nonces in different rounds, tables and decks even
// if a secret were ever used in more than one.
func nonce(rand io.Reader, secret *ristretto255.Scalar, digest [32]byte, domain string, parts ...[]byte) (*ristretto255.Scalar, error) {
	var fresh [32]byte
	if _, err := io.ReadFull(rand, fresh[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	all := append([][]byte{fresh[:], secret.Bytes(), digest[:]}, parts...)
	return hashToScalar("njet/crypto/v1/nonce/"+domain, all...), nil
}

// transcriptHash feeds length-framed parts into SHA-512 under a domain label.
func transcriptHash(domain string, parts ...[]byte) [64]byte {
	h := sha512.New()
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(domain)))
	h.Write(n[:])
	h.Write([]byte(domain))
	for _, p := range parts {
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var out [64]byte
	h.Sum(out[:0])
	return out
}

func hashToScalar(domain string, parts ...[]byte) *ristretto255.Scalar {
	d := transcriptHash(domain, parts...)
	return wideScalar(&d)
}

// cardPoint maps card index i of a deck to a group element by hashing a
// domain-separated label. Nobody knows a discrete-log relation between two
// such points, which i*G would give away.
func cardPoint(deckID string, i int) *ristretto255.Element {
	var idx [2]byte
	binary.BigEndian.PutUint16(idx[:], uint16(i))
	d := transcriptHash("njet/crypto/v1/card", []byte(deckID), idx[:])
	return wideElement(&d)
}

// splitProof decodes a (challenge, response) pair of canonical scalars.
func splitProof(p [64]byte) (c, z *ristretto255.Scalar, err error) {
	c, err = ristretto255.NewScalar().SetCanonicalBytes(p[:32])
	if err != nil {
		return nil, nil, errors.New("non-canonical proof challenge")
	}
	z, err = ristretto255.NewScalar().SetCanonicalBytes(p[32:])
	if err != nil {
		return nil, nil, errors.New("non-canonical proof response")
	}
	return c, z, nil
}

func joinProof(c, z *ristretto255.Scalar) [64]byte {
	var p [64]byte
	copy(p[:32], c.Bytes())
	copy(p[32:], z.Bytes())
	return p
}

// u8s encodes small integers as bytes for hashing.
func u8s(v ...int) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}
