package crypto

import (
	"crypto/sha512"
	"errors"
	"io"
	"runtime"
	"sync"

	"github.com/gtank/ristretto255"
)

// Token is a seat's decryption token for one deck position: its share
// D = x*C1 of the decryption, with a DLEQ (Chaum-Pedersen) proof that
// log_G(Y) = log_C1(D) for its published key Y, bound to the round, the
// seat and the position. A token with a valid proof is the only correct
// one, so tokens can be forwarded and re-checked by anyone.
//
// The proof is (A, B, z) with A = k*G, B = k*C1, challenge
// c = H(round, seat, position, Y, C1, D, A, B) and z = k + c*x; it holds if
// z*G = A + c*Y and z*C1 = B + c*D. Carrying the commitments rather than
// the challenge lets a holder check many tokens with one multi-scalar
// multiplication (VerifyTokens, OpenDeals).
type Token struct {
	Seat     int
	Position int
	Share    Point
	Proof    [tokenProofLen]byte // A, B, z
}

// Opening is a token with the salt of the sealed message that carried it:
// together they open that message's commitment. The salt is zero for a
// token that never travelled sealed (a seat's own token).
type Opening struct {
	Token Token
	Salt  [32]byte
}

const tokenProofLen = 32 + 32 + 32
const tokenLen = 1 + 1 + 32 + tokenProofLen
const openingLen = tokenLen + 32

// Token computes seat s.Seat()'s decryption token for position pos.
func (r *Round) Token(s *Secrets, deck Deck, pos int, rand io.Reader) (Token, error) {
	if err := r.checkSecrets(s); err != nil {
		return Token{}, err
	}
	c1, err := r.positionC1(deck, pos)
	if err != nil {
		return Token{}, err
	}
	var D, A, B ristretto255.Element
	D.ScalarMult(&s.key, c1)
	t := Token{Seat: s.seat, Position: pos, Share: pointOf(&D)}
	C1 := deck[pos].C1
	k, err := nonce(rand, &s.key, r.digest, "token", C1[:], t.Share[:])
	if err != nil {
		return Token{}, err
	}
	A.ScalarBaseMult(k)
	B.ScalarMult(k, c1)
	copy(t.Proof[:32], A.Bytes())
	copy(t.Proof[32:64], B.Bytes())
	c := r.tokenChallenge(&t, C1)
	z := ristretto255.NewScalar().Multiply(c, &s.key)
	z.Add(z, k)
	copy(t.Proof[64:], z.Bytes())
	return t, nil
}

// positionC1 returns the decoded C1 of position pos, from the round's deck
// cache when the deck decodes as a whole.
func (r *Round) positionC1(deck Deck, pos int) (*ristretto255.Element, error) {
	if len(deck) != r.params.Cards {
		return nil, usageError("deck of %d cards, want %d", len(deck), r.params.Cards)
	}
	if pos < 0 || pos >= len(deck) {
		return nil, usageError("position %d out of range", pos)
	}
	if c1s, _, err := r.decks.elements(deck); err == nil {
		return c1s[pos], nil
	}
	c1, err := deck[pos].C1.element()
	if err != nil {
		return nil, usageError("deck position %d: %v", pos, err)
	}
	return c1, nil
}

// tokenChallenge hashes the statement and the commitments A, B (the first
// 64 bytes of the proof).
func (r *Round) tokenChallenge(t *Token, C1 Point) *ristretto255.Scalar {
	Y := r.keys[t.Seat].Key
	return hashToScalar("njet/crypto/v1/token-proof", r.digest[:], u8s(t.Seat, t.Position),
		Y[:], C1[:], t.Share[:], t.Proof[:32], t.Proof[32:64])
}

// VerifyToken checks t against the deck. Failures name t.Seat.
func (r *Round) VerifyToken(deck Deck, t *Token) error {
	_, err := r.verifyToken(deck, t)
	return err
}

// VerifyTokens checks every token against the deck at once, which costs a
// fraction of checking them one by one. It returns nil or the failure of
// the first bad token in order, naming its seat, exactly as VerifyToken
// would.
func (r *Round) VerifyTokens(deck Deck, ts []Token) error {
	_, err := r.verifyTokens(deck, ts)
	return err
}

// parsedToken is a token whose fields have been decoded and checked for
// range, with its challenge.
type parsedToken struct {
	t       *Token
	c1      *ristretto255.Element
	D, A, B ristretto255.Element
	c, z    ristretto255.Scalar
}

// parseToken decodes t and computes its challenge. Failures name t.Seat.
func (r *Round) parseToken(deck Deck, t *Token, pt *parsedToken) error {
	if t.Seat < 0 || t.Seat >= r.params.Parties {
		return cheat(t.Seat, CheckParams, "token of seat %d at a table of %d", t.Seat, r.params.Parties)
	}
	if t.Position < 0 || t.Position >= r.params.Cards {
		return cheat(t.Seat, CheckParams, "token for position %d", t.Position)
	}
	c1, err := r.positionC1(deck, t.Position)
	if err != nil {
		return err
	}
	pt.t, pt.c1 = t, c1
	if _, err := pt.D.SetCanonicalBytes(t.Share[:]); err != nil {
		return cheat(t.Seat, CheckEncoding, "token share: %v", errBadPoint)
	}
	if err := splitTokenProof(&t.Proof, &pt.A, &pt.B, &pt.z); err != nil {
		return cheat(t.Seat, CheckEncoding, "token proof: %v", err)
	}
	pt.c.Set(r.tokenChallenge(t, deck[t.Position].C1))
	return nil
}

// splitTokenProof decodes (A, B, z), rejecting non-canonical encodings.
func splitTokenProof(p *[tokenProofLen]byte, A, B *ristretto255.Element, z *ristretto255.Scalar) error {
	if _, err := A.SetCanonicalBytes(p[:32]); err != nil {
		return errors.New("non-canonical proof commitment")
	}
	if _, err := B.SetCanonicalBytes(p[32:64]); err != nil {
		return errors.New("non-canonical proof commitment")
	}
	if _, err := z.SetCanonicalBytes(p[64:]); err != nil {
		return errors.New("non-canonical proof response")
	}
	return nil
}

// check verifies one parsed token on its own: z*G - c*Y = A and
// z*C1 - c*D = B.
func (r *Round) checkParsed(pt *parsedToken) error {
	var negC ristretto255.Scalar
	negC.Negate(&pt.c)
	var v ristretto255.Element
	v.VarTimeDoubleScalarBaseMult(&negC, r.elg[pt.t.Seat], &pt.z)
	ok := v.Equal(&pt.A) == 1
	if ok {
		v.VarTimeMultiScalarMult([]*ristretto255.Scalar{&pt.z, &negC}, []*ristretto255.Element{pt.c1, &pt.D})
		ok = v.Equal(&pt.B) == 1
	}
	if !ok {
		return cheat(pt.t.Seat, CheckTokenProof, "DLEQ proof for position %d does not verify", pt.t.Position)
	}
	return nil
}

// verifyToken checks t and returns its decoded share.
func (r *Round) verifyToken(deck Deck, t *Token) (*ristretto255.Element, error) {
	var pt parsedToken
	if err := r.parseToken(deck, t, &pt); err != nil {
		return nil, err
	}
	if err := r.checkParsed(&pt); err != nil {
		return nil, err
	}
	return &pt.D, nil
}

// verifyTokens checks ts and returns their decoded shares. A failure is
// that of the first bad token in order, as verifyToken reports it.
func (r *Round) verifyTokens(deck Deck, ts []Token) ([]*ristretto255.Element, error) {
	pts := make([]parsedToken, len(ts))
	n := len(ts)
	var parseErr error
	for i := range ts {
		if err := r.parseToken(deck, &ts[i], &pts[i]); err != nil {
			n, parseErr = i, err
			break
		}
	}
	if err := r.checkBatch(pts[:n]); err != nil {
		return nil, err
	}
	if parseErr != nil {
		return nil, parseErr
	}
	shares := make([]*ristretto255.Element, len(ts))
	for i := range pts {
		shares[i] = &pts[i].D
	}
	return shares, nil
}

// checkBatch verifies parsed tokens with one random linear combination of
// all their equations,
//
//	sum_i rho_i*(z_i*G - c_i*Y_i - A_i) + sigma_i*(z_i*C1_i - c_i*D_i - B_i) = 0,
//
// with 128-bit weights rho_i, sigma_i derived from a hash of every token,
// so that a token cannot be chosen to cancel another's error. When the
// combination fails it checks the tokens one by one and returns the first
// failure, which names the culprit.
func (r *Round) checkBatch(pts []parsedToken) error {
	switch len(pts) {
	case 0:
		return nil
	case 1:
		return r.checkParsed(&pts[0])
	}
	if r.batchHolds(pts) {
		return nil
	}
	for i := range pts {
		if err := r.checkParsed(&pts[i]); err != nil {
			return err
		}
	}
	// Every token holds on its own; the combination can only have failed
	// by an error of this code, never by a forged proof.
	return nil
}

// batchHolds evaluates the combined equation of checkBatch.
func (r *Round) batchHolds(pts []parsedToken) bool {
	seed := sha512.New()
	seed.Write([]byte("njet/crypto/v1/token-batch"))
	seed.Write(r.digest[:])
	for i := range pts {
		t := pts[i].t
		seed.Write([]byte{byte(t.Seat), byte(t.Position)})
		seed.Write(t.Share[:])
		seed.Write(t.Proof[:])
	}
	var key [64]byte
	seed.Sum(key[:0])

	n := len(pts)
	scalars := make([]ristretto255.Scalar, 0, 1+r.params.Parties+4*n)
	points := make([]*ristretto255.Element, 0, cap(scalars))
	var gCoef ristretto255.Scalar
	yCoef := make([]ristretto255.Scalar, r.params.Parties)
	c1Coef := make(map[int]int, n) // position -> index in scalars
	// Reserve slots so that pointers into scalars stay valid.
	scalars = append(scalars, ristretto255.Scalar{})
	points = append(points, generatorElement)
	for j := range yCoef {
		scalars = append(scalars, ristretto255.Scalar{})
		points = append(points, r.elg[j])
	}
	var w [64]byte
	var rho, sigma, tmp ristretto255.Scalar
	for i := range pts {
		pt := &pts[i]
		h := transcriptHash("njet/crypto/v1/token-batch-weight", key[:], u8s(i>>8, i&0xff))
		clear(w[:])
		copy(w[:16], h[:16])
		rho.SetUniformBytes(w[:])
		copy(w[:16], h[16:32])
		sigma.SetUniformBytes(w[:])

		gCoef.Add(&gCoef, tmp.Multiply(&rho, &pt.z))
		yCoef[pt.t.Seat].Subtract(&yCoef[pt.t.Seat], tmp.Multiply(&rho, &pt.c))
		tmp.Multiply(&sigma, &pt.z)
		if k, ok := c1Coef[pt.t.Position]; ok {
			scalars[k].Add(&scalars[k], &tmp)
		} else {
			c1Coef[pt.t.Position] = len(scalars)
			scalars = append(scalars, tmp)
			points = append(points, pt.c1)
		}
		scalars = append(scalars, ristretto255.Scalar{})
		scalars[len(scalars)-1].Multiply(&sigma, &pt.c)
		scalars[len(scalars)-1].Negate(&scalars[len(scalars)-1])
		points = append(points, &pt.D)
		scalars = append(scalars, ristretto255.Scalar{})
		scalars[len(scalars)-1].Negate(&rho)
		points = append(points, &pt.A)
		scalars = append(scalars, ristretto255.Scalar{})
		scalars[len(scalars)-1].Negate(&sigma)
		points = append(points, &pt.B)
	}
	scalars[0] = gCoef
	for j := range yCoef {
		scalars[1+j] = yCoef[j]
	}
	sp := make([]*ristretto255.Scalar, len(scalars))
	for i := range scalars {
		sp[i] = &scalars[i]
	}
	var v ristretto255.Element
	v.VarTimeMultiScalarMult(sp, points)
	return v.Equal(identityElement) == 1
}

// cardOf decrypts position pos given every seat's share and maps the
// result back to a card index.
func (r *Round) cardOf(deck Deck, pos int, shares []*ristretto255.Element) (int, error) {
	M, err := deck[pos].C2.element()
	if err != nil {
		return 0, usageError("deck position %d: %v", pos, err)
	}
	M = ristretto255.NewElement().Set(M)
	for _, D := range shares {
		M.Subtract(M, D)
	}
	card, ok := r.cards[pointOf(M)]
	if !ok {
		// Proven shares of a proven deck always decrypt to a card.
		return 0, usageError("position %d does not decrypt to a card of deck %q", pos, r.params.DeckID)
	}
	return card, nil
}

// wire walks a token inside another message, whose sender is the one
// failures name.
func (t *Token) wire(c codec) {
	c.bounded(&t.Seat, "seat", 0, MaxParties-1)
	t.wireShare(c)
}

// wireAlone walks a token sent on its own, as its seat's message.
func (t *Token) wireAlone(c codec) {
	c.seat(&t.Seat)
	t.wireShare(c)
}

// wireShare walks the fields after the seat.
func (t *Token) wireShare(c codec) {
	c.bounded(&t.Position, "position", 0, MaxCards-1)
	c.point(&t.Share)
	c.tokenProof(&t.Proof)
}

// wire walks an opening in place: in a play, a forward or a recovered play.
func (o *Opening) wire(c codec) {
	o.Token.wire(c)
	c.hash(&o.Salt)
}

// dealPlain walks the plaintext of a sealed deal: the salt, then the token.
func (o *Opening) dealPlain(c codec) {
	c.hash(&o.Salt)
	o.Token.wire(c)
}

// MarshalBinary encodes the token on its own.
func (t *Token) MarshalBinary() ([]byte, error) {
	return encode(kindToken, tokenLen, t.wireAlone), nil
}

// UnmarshalBinary decodes a token strictly.
func (t *Token) UnmarshalBinary(b []byte) error {
	return decodeInto(t, kindToken, b, 2+tokenLen, (*Token).wireAlone)
}

// minParallelBatch is the smallest batch of tokens worth splitting across
// cores: below it the goroutines cost more than they save.
const minParallelBatch = 32

// verifyTokensParallel is verifyTokens with large batches split into
// contiguous chunks checked on all cores. The failure returned is still
// that of the first bad token in order.
func (r *Round) verifyTokensParallel(deck Deck, ts []Token) error {
	workers := min(runtime.GOMAXPROCS(0), len(ts)/(minParallelBatch/2))
	if len(ts) < minParallelBatch || workers < 2 {
		_, err := r.verifyTokens(deck, ts)
		return err
	}
	// Decode the deck once, before the workers share the cache.
	if _, err := r.positionC1(deck, 0); err != nil {
		return err
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(ts)/workers, (w+1)*len(ts)/workers
		wg.Go(func() {
			_, errs[w] = r.verifyTokens(deck, ts[lo:hi])
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
