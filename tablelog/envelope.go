package tablelog

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// EnvelopeVersion is the only envelope wire version this code reads and
// writes. A new layout gets a new number; old numbers are never reused.
const EnvelopeVersion = 1

// Size limits of the envelope encoding.
//
// MaxEnvelopeSize bounds what one peer can make every other peer hold, hash,
// store and forward. The largest body the protocol plans is a shuffle: 60
// ElGamal ciphertexts (about 4 KiB) with a Neff shuffle proof (about 23 KiB
// measured with kyber), or a deal of tokens with proofs for five seats; 256 KiB
// leaves a wide margin for those while staying far below gossipsub's 1 MiB
// message limit, so an envelope always fits into one pubsub message and a sync
// response of MaxRangeBytes holds at least a dozen of them.
const (
	MaxEnvelopeSize = 256 << 10
	// EnvelopeHeaderSize is the fixed part before the body: version (1),
	// table (32), seq (8), prev (32), author (1), kind (1), body length (4).
	EnvelopeHeaderSize = 1 + 32 + 8 + 32 + 1 + 1 + 4
	// SignatureSize is the Ed25519 signature size that ends every envelope.
	SignatureSize = ed25519.SignatureSize
	// MaxBodySize is the largest body that keeps the envelope within
	// MaxEnvelopeSize.
	MaxBodySize = MaxEnvelopeSize - EnvelopeHeaderSize - SignatureSize
)

// Domain separation strings. Every hash and signature in the table layer
// starts with one of them, so a signature or hash made for one purpose can
// never be taken for another (or for another protocol using the same keys:
// the peers' libp2p identity keys also sign pubsub messages).
const (
	signDomain   = "njet/table/v1/envelope-signature\x00"
	hashDomain   = "njet/table/v1/envelope-hash\x00"
	exportDomain = "njet/table/v1/export-digest\x00"
)

// Hash is the SHA-256 hash of an envelope (see Envelope.Hash).
type Hash [32]byte

// String returns the hash in hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is all zero bytes (the genesis' previous hash).
func (h Hash) IsZero() bool { return h == Hash{} }

// Envelope is one signed entry of a table's log.
//
// The table layer owns the frame (table, seq, previous hash, author, kind,
// signature); the body belongs to the protocol layer, which decodes it
// according to Kind.
type Envelope struct {
	// Version is the wire version, EnvelopeVersion.
	Version uint8
	// Table is the table this envelope belongs to.
	Table TableID
	// Seq is the position in the log; the genesis is 0.
	Seq uint64
	// Prev is the hash of the envelope at Seq-1; zero for the genesis.
	Prev Hash
	// Author is the seat that signed the envelope.
	Author uint8
	// Kind says what the body is.
	Kind Kind
	// Body is the protocol layer's payload, at most MaxBodySize bytes.
	Body []byte
	// Signature is the author's Ed25519 signature over SignedBytes.
	Signature [SignatureSize]byte
}

// Clone returns a deep copy of e.
func (e *Envelope) Clone() *Envelope {
	c := *e
	c.Body = bytes.Clone(e.Body)
	return &c
}

// Validate checks the fields against the wire rules: known version and kind,
// body size.
func (e *Envelope) Validate() error {
	if e.Version != EnvelopeVersion {
		return fmt.Errorf("%w: envelope version %d", ErrUnknownVersion, e.Version)
	}
	if !e.Kind.Valid() {
		return fmt.Errorf("%w: %d", ErrUnknownKind, uint8(e.Kind))
	}
	if len(e.Body) > MaxBodySize {
		return fmt.Errorf("%w: body of %d bytes (limit %d)", ErrTooLarge, len(e.Body), MaxBodySize)
	}
	return nil
}

// appendFrame appends everything but the signature. The caller has
// validated e, so the body length fits the uint32 field.
func (e *Envelope) appendFrame(b []byte) []byte {
	b = append(b, e.Version)
	b = append(b, e.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, e.Seq)
	b = append(b, e.Prev[:]...)
	b = append(b, e.Author, uint8(e.Kind))
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Body)))
	return append(b, e.Body...)
}

// MarshalBinary returns the envelope's encoding: the fields in order, all
// integers big-endian, the body prefixed by its 32-bit length, then the
// 64-byte signature. The encoding is canonical: one envelope, one encoding.
func (e *Envelope) MarshalBinary() ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, EnvelopeHeaderSize+len(e.Body)+SignatureSize)
	b = e.appendFrame(b)
	return append(b, e.Signature[:]...), nil
}

// SignedBytes returns what the author signs: a domain string followed by
// the encoding of every field but the signature.
func (e *Envelope) SignedBytes() ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(signDomain)+EnvelopeHeaderSize+len(e.Body))
	b = append(b, signDomain...)
	return e.appendFrame(b), nil
}

// Hash returns SHA-256 over a domain string and the full encoding, signature
// included. Hashes chain the log (Prev) and identify envelopes. An envelope
// that does not Validate has no encoding; its hash is the zero Hash.
func (e *Envelope) Hash() Hash {
	enc, err := e.MarshalBinary()
	if err != nil {
		return Hash{}
	}
	return hashEncoded(enc)
}

// hashEncoded hashes an envelope encoding (as stored or received).
func hashEncoded(enc []byte) Hash { return DomainHash(hashDomain, enc) }

// DomainHash is SHA-256 over a domain string and then each part in turn:
// every hash the table computes is separated by its own domain string.
func DomainHash(domain string, parts ...[]byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(domain))
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Sign sets e.Signature with priv over SignedBytes.
func (e *Envelope) Sign(priv ed25519.PrivateKey) error {
	if len(priv) != ed25519.PrivateKeySize {
		return fmt.Errorf("%w: private key of %d bytes", ErrMalformed, len(priv))
	}
	msg, err := e.SignedBytes()
	if err != nil {
		return err
	}
	copy(e.Signature[:], ed25519.Sign(priv, msg))
	return nil
}

// Verify checks e.Signature under key. It does not check that key is the
// author's: the Log does that from the protocol layer's Turn.
func (e *Envelope) Verify(key Identity) error {
	msg, err := e.SignedBytes()
	if err != nil {
		return err
	}
	if !ed25519.Verify(ed25519.PublicKey(key[:]), msg, e.Signature[:]) {
		return fmt.Errorf("%w: seq %d, author seat %d, kind %v", ErrBadSignature, e.Seq, e.Author, e.Kind)
	}
	return nil
}

// ParseEnvelope decodes an envelope strictly: the size limit, a known version
// and kind, a body length that matches, and no trailing bytes. It does not
// verify the signature (that needs the author's key).
func ParseEnvelope(data []byte) (*Envelope, error) {
	if len(data) > MaxEnvelopeSize {
		return nil, fmt.Errorf("%w: envelope of %d bytes (limit %d)", ErrTooLarge, len(data), MaxEnvelopeSize)
	}
	if len(data) < EnvelopeHeaderSize+SignatureSize {
		return nil, fmt.Errorf("%w: envelope of %d bytes is shorter than its fixed part", ErrMalformed, len(data))
	}
	e := &Envelope{Version: data[0]}
	if e.Version != EnvelopeVersion {
		return nil, fmt.Errorf("%w: envelope version %d", ErrUnknownVersion, e.Version)
	}
	p := data[1:]
	copy(e.Table[:], p[:32])
	p = p[32:]
	e.Seq = binary.BigEndian.Uint64(p)
	p = p[8:]
	copy(e.Prev[:], p[:32])
	p = p[32:]
	e.Author = p[0]
	e.Kind = Kind(p[1])
	if !e.Kind.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownKind, p[1])
	}
	n := binary.BigEndian.Uint32(p[2:])
	p = p[6:]
	if uint64(n)+SignatureSize != uint64(len(p)) {
		return nil, fmt.Errorf("%w: body length %d does not match the %d bytes that follow", ErrMalformed, n, len(p))
	}
	if n > 0 {
		e.Body = bytes.Clone(p[:n])
	}
	copy(e.Signature[:], p[n:])
	return e, nil
}

// UnmarshalBinary decodes data into e with ParseEnvelope's rules.
func (e *Envelope) UnmarshalBinary(data []byte) error {
	d, err := ParseEnvelope(data)
	if err != nil {
		return err
	}
	*e = *d
	return nil
}
