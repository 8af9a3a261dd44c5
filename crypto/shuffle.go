package crypto

import (
	"crypto/cipher"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"

	"github.com/gtank/ristretto255"
	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/proof"
	"go.dedis.ch/kyber/v4/shuffle"
)

// ShuffleMessage is one seat's shuffle pass: the re-randomised, permuted
// deck and a Neff proof that it holds the same cards as the input deck.
type ShuffleMessage struct {
	Seat  int
	Deck  Deck
	Proof []byte
}

// shuffleProofLen is the exact size of kyber's Neff proof for k pairs:
// 9k+3 points and 3k scalars of 32 bytes each.
func shuffleProofLen(k int) int { return 32 * (12*k + 3) }

// shuffleContext names the proof protocol for Fiat-Shamir. kyber's
// HashProve seeds its challenges only with this name and the prover's
// messages, so the name carries everything the proof must be bound to:
// the round, the seat, the joint key and both decks.
func shuffleContext(r *Round, seat int, in, out Deck) string {
	inD, outD := in.Digest(), out.Digest()
	h := transcriptHash("njet/crypto/v1/shuffle", r.digest[:], u8s(seat), r.jointPoint[:], inD[:], outD[:])
	return "njet/crypto/v1/shuffle/" + hex.EncodeToString(h[:32])
}

// ShuffleProofContext returns the kyber proof suite (ristretto255, SHA-512,
// cSHAKE256 challenges, the prover's coins from crypto/rand) and the
// Fiat-Shamir context string under which seat's shuffle proof from deck in
// to deck out is made and checked with kyber's shuffle.PairShuffle,
// proof.HashProve and proof.HashVerify. Shuffle and VerifyShuffle use the
// same statement; it is exported so that code outside the package that
// builds or checks proofs in this wire format (such as the forging prover
// the tests use) binds them to the same round, seat and decks.
func (r *Round) ShuffleProofContext(seat int, in, out Deck) (proof.Suite, string) {
	return &kyberSuite{}, shuffleContext(r, seat, in, out)
}

// Bytes returns a copy of the encoding.
func (p Point) Bytes() []byte { return append([]byte(nil), p[:]...) }

// Shuffle performs seat's pass: it permutes the input deck at random,
// re-randomises every ciphertext and proves that it did so correctly.
func (r *Round) Shuffle(seat int, in Deck, rand io.Reader) (*ShuffleMessage, error) {
	k := r.params.Cards
	if seat < 0 || seat >= r.params.Parties {
		return nil, usageError("seat %d out of range", seat)
	}
	if len(in) != k {
		return nil, usageError("deck of %d cards, want %d", len(in), k)
	}
	c1, c2, err := r.decks.elements(in)
	if err != nil {
		return nil, usageError("input deck: %v", err)
	}
	stream, err := newProverStream(rand)
	if err != nil {
		return nil, err
	}
	grp := &kyberGroup{}
	pi := randomPermutation(k, stream)
	beta := make([]kyber.Scalar, k)
	for i := range beta {
		beta[i] = grp.Scalar().Pick(stream)
	}
	X := make([]kyber.Point, k)
	Y := make([]kyber.Point, k)
	for i := range k {
		X[i] = &kyberPoint{e: *c1[i]}
		Y[i] = &kyberPoint{e: *c2[i]}
	}
	out := make(Deck, k)
	d1 := make([]*ristretto255.Element, k)
	d2 := make([]*ristretto255.Element, k)
	for i := range k {
		b := &asScalar(beta[pi[i]]).s
		x := ristretto255.NewElement().ScalarBaseMult(b)
		x.Add(x, c1[pi[i]])
		y := ristretto255.NewElement().ScalarMult(b, r.joint)
		y.Add(y, c2[pi[i]])
		d1[i], d2[i] = x, y
		out[i] = Ciphertext{C1: pointOf(x), C2: pointOf(y)}
	}
	// The prover's own output needs no decoding for the next pass or for
	// the tokens of the deal.
	r.decks.add(out, d1, d2)
	G := grp.Point().Base()
	H := &kyberPoint{e: *r.joint}
	ps := new(shuffle.PairShuffle).Init(grp, k)
	prover := func(ctx proof.ProverContext) error {
		return ps.Prove(pi, G, H, beta, X, Y, stream, ctx)
	}
	suite := &kyberSuite{random: stream}
	prf, err := proof.HashProve(suite, shuffleContext(r, seat, in, out), prover)
	if err != nil {
		return nil, err
	}
	return &ShuffleMessage{Seat: seat, Deck: out, Proof: prf}, nil
}

// randomPermutation draws a uniform permutation (Fisher-Yates, with
// rejection sampling so that no index is favoured).
func randomPermutation(k int, stream cipher.Stream) []int {
	pi := make([]int, k)
	for i := range pi {
		pi[i] = i
	}
	var b [8]byte
	for i := k - 1; i > 0; i-- {
		n := uint64(i + 1)
		limit := ^uint64(0) - (^uint64(0) % n)
		var v uint64
		for {
			clear(b[:])
			stream.XORKeyStream(b[:], b[:])
			v = binary.BigEndian.Uint64(b[:])
			if v < limit {
				break
			}
		}
		j := int(v % n)
		pi[i], pi[j] = pi[j], pi[i]
	}
	return pi
}

// VerifyShuffle checks m as the pass that turns deck in into m.Deck. Every
// failure names m.Seat.
func (r *Round) VerifyShuffle(in Deck, m *ShuffleMessage) error {
	k := r.params.Cards
	if m.Seat < 0 || m.Seat >= r.params.Parties {
		return cheat(m.Seat, CheckParams, "seat %d at a table of %d", m.Seat, r.params.Parties)
	}
	if len(in) != k {
		return usageError("input deck of %d cards, want %d", len(in), k)
	}
	if len(m.Deck) != k {
		return cheat(m.Seat, CheckShuffle, "output deck of %d cards, want %d", len(m.Deck), k)
	}
	if len(m.Proof) != shuffleProofLen(k) {
		return cheat(m.Seat, CheckShuffle, "proof of %d bytes, want %d", len(m.Proof), shuffleProofLen(k))
	}
	c1, c2, err := r.decks.elements(in)
	if err != nil {
		return usageError("input deck: %v", err)
	}
	d1, d2, err := m.Deck.elements()
	if err != nil {
		return cheat(m.Seat, CheckEncoding, "output deck: %v", err)
	}
	grp := &kyberGroup{varTime: true}
	X, Y := make([]kyber.Point, k), make([]kyber.Point, k)
	Xbar, Ybar := make([]kyber.Point, k), make([]kyber.Point, k)
	for i := range k {
		X[i] = &kyberPoint{e: *c1[i], varTime: true}
		Y[i] = &kyberPoint{e: *c2[i], varTime: true}
		Xbar[i] = &kyberPoint{e: *d1[i], varTime: true}
		Ybar[i] = &kyberPoint{e: *d2[i], varTime: true}
	}
	G := grp.Point().Base()
	H := &kyberPoint{e: *r.joint, varTime: true}
	// kyber's verifier alone accepts decks that are not a permutation of
	// the input (see shufflelink.go): record its transcript and check the
	// link it omits.
	ps := new(shuffle.PairShuffle).Init(grp, k)
	rec := &recordingVerifier{}
	verifier := func(ctx proof.VerifierContext) error {
		rec.inner = ctx
		return ps.Verify(G, H, X, Y, Xbar, Ybar, rec)
	}
	suite := &kyberSuite{kyberGroup: kyberGroup{varTime: true}}
	statement := shuffleContext(r, m.Seat, in, m.Deck)
	if err := proof.HashVerify(suite, statement, verifier, m.Proof); err != nil {
		return cheat(m.Seat, CheckShuffle, "%v", err)
	}
	if err := checkShuffleLink(rec, k, statement, m.Proof); err != nil {
		if errors.Is(err, errTranscriptLayout) {
			return err
		}
		return cheat(m.Seat, CheckShuffle, "%v", err)
	}
	// A verified output deck is the next pass's input and the deck dealt
	// from: keep its points.
	r.decks.add(m.Deck, d1, d2)
	return nil
}

func (m *ShuffleMessage) wire(c codec) {
	c.seat(&m.Seat)
	list(c, &m.Deck, "cards", MinCards, MaxCards, (*Ciphertext).wire)
	if c.ok() {
		c.raw(&m.Proof, shuffleProofLen(len(m.Deck)))
	}
}

func (ct *Ciphertext) wire(c codec) {
	c.point(&ct.C1)
	c.point(&ct.C2)
}

// MarshalBinary encodes the message.
func (m *ShuffleMessage) MarshalBinary() ([]byte, error) {
	k := len(m.Deck)
	if k < MinCards || k > MaxCards || len(m.Proof) != shuffleProofLen(k) {
		return nil, usageError("malformed shuffle message")
	}
	return encode(kindShuffle, 2+64*k+len(m.Proof), m.wire), nil
}

const shuffleMessageMaxLen = 2 + 2 + 64*MaxCards + 32*(12*MaxCards+3)

// UnmarshalBinary decodes a message strictly. The proof's own points and
// scalars are validated when it is verified.
func (m *ShuffleMessage) UnmarshalBinary(b []byte) error {
	return decodeInto(m, kindShuffle, b, shuffleMessageMaxLen, (*ShuffleMessage).wire)
}
