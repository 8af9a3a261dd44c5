package crypto

import (
	"crypto/ecdh"
	"crypto/hpke"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// HPKE suite for sealed messages: DHKEM(X25519, HKDF-SHA256),
// HKDF-SHA256, ChaCha20-Poly1305.
var (
	hpkeKEM  = hpke.DHKEM(ecdh.X25519())
	hpkeKDF  = hpke.HKDFSHA256()
	hpkeAEAD = hpke.ChaCha20Poly1305()
)

// Secrets are one seat's secrets for one round: its ElGamal key share and
// the seed of its HPKE key. A peer stores them (MarshalBinary) before it
// sends anything that depends on them: with n-of-n decryption, a seat that
// loses them makes the rest of the deck unreadable.
type Secrets struct {
	seat     int
	key      ristretto255.Scalar
	hpkeSeed [32]byte

	// Derived from the above by newSecrets.
	pub  Point
	priv hpke.PrivateKey
}

// newSecrets builds secrets and derives their public parts.
func newSecrets(seat int, key *ristretto255.Scalar, seed [32]byte) (*Secrets, error) {
	s := &Secrets{seat: seat, hpkeSeed: seed}
	s.key.Set(key)
	s.pub = pointOf(ristretto255.NewElement().ScalarBaseMult(key))
	priv, err := hpkeKEM.DeriveKeyPair(seed[:])
	if err != nil {
		return nil, err
	}
	s.priv = priv
	return s, nil
}

// NewSecrets draws fresh round secrets for seat from rand (crypto/rand in
// production).
func NewSecrets(seat int, rand io.Reader) (*Secrets, error) {
	if seat < 0 || seat >= MaxParties {
		return nil, usageError("seat %d out of range", seat)
	}
	x, err := randomScalar(rand)
	if err != nil {
		return nil, err
	}
	var seed [32]byte
	if _, err := io.ReadFull(rand, seed[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	return newSecrets(seat, x, seed)
}

// Seat returns the seat the secrets belong to.
func (s *Secrets) Seat() int { return s.seat }

// String hides the secrets, so that they never end up in a log by accident.
func (s *Secrets) String() string { return fmt.Sprintf("crypto.Secrets{seat %d}", s.seat) }

func (s *Secrets) hpkeKey() (hpke.PrivateKey, error) {
	if s.priv == nil {
		return nil, usageError("secrets not initialised: use NewSecrets or UnmarshalBinary")
	}
	return s.priv, nil
}

// public returns the ElGamal public key share x*G.
func (s *Secrets) public() Point { return s.pub }

// Stored secrets have the layout of their Reveal, under their own kind.
const secretsLen = revealLen

// MarshalBinary encodes the secrets for private storage.
func (s *Secrets) MarshalBinary() ([]byte, error) {
	return encode(kindSecrets, secretsLen, s.Reveal().wire), nil
}

// UnmarshalBinary decodes secrets stored by MarshalBinary.
func (s *Secrets) UnmarshalBinary(b []byte) error {
	var q Reveal
	if err := decode(kindSecrets, b, secretsLen, q.wire); err != nil {
		return err
	}
	var x ristretto255.Scalar
	if _, err := x.SetCanonicalBytes(q.Key[:]); err != nil {
		return cheat(q.Seat, CheckEncoding, "non-canonical key scalar")
	}
	n, err := newSecrets(q.Seat, &x, q.HPKESeed)
	if err != nil {
		return err
	}
	*s = *n
	return nil
}

// KeyMessage publishes a seat's round keys: its ElGamal key share, its HPKE
// public key, and a Schnorr proof of knowledge of the ElGamal secret bound
// to the round parameters, the seat and the HPKE key.
type KeyMessage struct {
	Seat  int
	Key   Point    // ElGamal public key share x*G
	HPKE  [32]byte // X25519 public key for sealed messages
	Proof [64]byte // Schnorr proof (challenge, response)
}

// KeyMessage builds the seat's key message for the round.
func (s *Secrets) KeyMessage(p Params, rand io.Reader) (*KeyMessage, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if s.seat >= p.Parties {
		return nil, usageError("seat %d at a table of %d", s.seat, p.Parties)
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return nil, err
	}
	m := &KeyMessage{Seat: s.seat}
	copy(m.HPKE[:], priv.PublicKey().Bytes())
	m.Key = s.public()
	k, err := nonce(rand, &s.key, p.digest(), "key", m.Key[:])
	if err != nil {
		return nil, err
	}
	R := ristretto255.NewElement().ScalarBaseMult(k)
	c := keyChallenge(p, m, pointOf(R))
	z := ristretto255.NewScalar().Multiply(c, &s.key)
	z.Add(z, k)
	m.Proof = joinProof(c, z)
	return m, nil
}

func keyChallenge(p Params, m *KeyMessage, R Point) *ristretto255.Scalar {
	d := p.digest()
	return hashToScalar("njet/crypto/v1/key-proof", d[:], u8s(m.Seat), m.Key[:], m.HPKE[:], R[:])
}

// VerifyKey checks a key message: valid encodings, a key other than the
// identity, an HPKE key others can seal to (see checkHPKEKey), and a proof
// of knowledge bound to this round and seat. Without that proof the last
// seat could pick a key that cancels the others.
func VerifyKey(p Params, m *KeyMessage) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if m.Seat < 0 || m.Seat >= p.Parties {
		return cheat(m.Seat, CheckParams, "seat %d at a table of %d", m.Seat, p.Parties)
	}
	Y, err := m.Key.element()
	if err != nil {
		return cheat(m.Seat, CheckEncoding, "key: %v", err)
	}
	if m.Key == identity {
		return cheat(m.Seat, CheckKeyProof, "identity key")
	}
	if err := checkHPKEKey(m.HPKE); err != nil {
		return cheat(m.Seat, CheckHPKEKey, "%v", err)
	}
	c, z, err := splitProof(m.Proof)
	if err != nil {
		return cheat(m.Seat, CheckEncoding, "key proof: %v", err)
	}
	// R = z*G - c*Y
	negC := ristretto255.NewScalar().Negate(c)
	R := ristretto255.NewElement().VarTimeDoubleScalarBaseMult(negC, Y, z)
	if keyChallenge(p, m, pointOf(R)).Equal(c) != 1 {
		return cheat(m.Seat, CheckKeyProof, "proof of knowledge does not verify")
	}
	return nil
}

const keyMessageLen = 2 + 1 + 32 + 32 + 64

func (m *KeyMessage) wire(c codec) {
	c.seat(&m.Seat)
	c.point(&m.Key)
	c.hash(&m.HPKE)
	c.proof(&m.Proof)
}

// MarshalBinary encodes the message.
func (m *KeyMessage) MarshalBinary() ([]byte, error) {
	return encode(kindKey, keyMessageLen, m.wire), nil
}

// UnmarshalBinary decodes a message strictly; a failure names the seat the
// message claims once that byte is read.
func (m *KeyMessage) UnmarshalBinary(b []byte) error {
	return decodeInto(m, kindKey, b, keyMessageLen, (*KeyMessage).wire)
}

// Round is the verified public state of a round that every later step
// needs: the parameters, every seat's keys, the joint key and the card
// points. Build it with NewRound once all key messages are in.
type Round struct {
	params Params
	digest [32]byte
	keys   []KeyMessage
	elg    []*ristretto255.Element
	hpke   []hpke.PublicKey
	joint  *ristretto255.Element
	cards  map[Point]int

	jointPoint Point     // encoding of joint
	decks      deckCache // decoded decks, see deckCache
}

// NewRound verifies the key messages of all seats (keys[i] from seat i) and
// derives the joint key, the sum of all key shares.
func NewRound(p Params, keys []KeyMessage) (*Round, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(keys) != p.Parties {
		return nil, usageError("%d key messages for %d seats", len(keys), p.Parties)
	}
	r := &Round{
		params: p,
		digest: p.digest(),
		keys:   append([]KeyMessage(nil), keys...),
		elg:    make([]*ristretto255.Element, p.Parties),
		hpke:   make([]hpke.PublicKey, p.Parties),
		joint:  ristretto255.NewIdentityElement(),
		cards:  make(map[Point]int, p.Cards),
	}
	for i := range keys {
		m := &keys[i]
		if m.Seat != i {
			return nil, cheat(m.Seat, CheckMissing, "key message of seat %d in slot %d", m.Seat, i)
		}
		if err := VerifyKey(p, m); err != nil {
			return nil, err
		}
		Y, err := m.Key.element()
		if err != nil {
			return nil, cheat(i, CheckEncoding, "key: %v", err)
		}
		pk, err := hpkeKEM.NewPublicKey(m.HPKE[:])
		if err != nil {
			return nil, cheat(i, CheckHPKEKey, "HPKE key: %v", err)
		}
		r.elg[i], r.hpke[i] = Y, pk
		r.joint.Add(r.joint, Y)
	}
	r.jointPoint = pointOf(r.joint)
	for i := range p.Cards {
		r.cards[pointOf(cardPoint(p.DeckID, i))] = i
	}
	return r, nil
}

// Params returns the round's parameters.
func (r *Round) Params() Params { return r.params }

// JointKey returns the joint ElGamal key the deck is encrypted to.
func (r *Round) JointKey() Point { return r.jointPoint }

// Keys returns a copy of the verified key messages, indexed by seat.
func (r *Round) Keys() []KeyMessage { return append([]KeyMessage(nil), r.keys...) }

func (r *Round) checkSecrets(s *Secrets) error {
	if s == nil || s.seat >= r.params.Parties {
		return usageError("secrets for a seat outside the table")
	}
	if s.public() != r.keys[s.seat].Key {
		return usageError("secrets of seat %d do not match its published key", s.seat)
	}
	return nil
}

// hpkeProbe is a fixed X25519 private key used only to test public keys: it
// is clamped like every X25519 scalar, so it is a multiple of the cofactor
// 8, and its product with a point of small order (on the curve or on its
// twist) is the all-zero output that X25519 reports as an error. Any other
// point gives a non-zero output for every clamped scalar.
var hpkeProbe = func() *ecdh.PrivateKey {
	var b [32]byte
	for i := range b {
		b[i] = byte(0x5a ^ i)
	}
	k, err := ecdh.X25519().NewPrivateKey(b[:])
	if err != nil {
		// NewPrivateKey accepts every 32-byte string.
		return nil
	}
	return k
}()

// checkHPKEKey rejects an X25519 public key that nobody could seal to, or
// that the owner would not be able to open: a non-canonical encoding (the
// top bit set, or a coordinate not below 2^255-19) or a point of small
// order (such as all zero bytes), with which the sender's Diffie-Hellman
// output would be all zero and HPKE refuses to seal. The key proof does not
// cover the HPKE key's secret, so this check is what stops a seat from
// publishing a key that makes every honest dealer's seal fail.
func checkHPKEKey(key [32]byte) error {
	if !canonicalX25519(key) {
		return fmt.Errorf("non-canonical X25519 key %x", key)
	}
	pub, err := ecdh.X25519().NewPublicKey(key[:])
	if err != nil {
		return fmt.Errorf("X25519 key: %v", err)
	}
	if hpkeProbe == nil {
		return fmt.Errorf("X25519 probe key unavailable")
	}
	if _, err := hpkeProbe.ECDH(pub); err != nil {
		return fmt.Errorf("X25519 key of small order %x", key)
	}
	if _, err := hpkeKEM.NewPublicKey(key[:]); err != nil {
		return fmt.Errorf("HPKE key: %v", err)
	}
	return nil
}

// canonicalX25519 reports whether key is the little-endian encoding of a
// field element below p = 2^255-19, with the unused top bit clear.
func canonicalX25519(key [32]byte) bool {
	if key[31] < 0x7f {
		return true
	}
	if key[31] > 0x7f {
		return false
	}
	for i := 30; i >= 1; i-- {
		if key[i] != 0xff {
			return true
		}
	}
	return key[0] < 0xed
}
