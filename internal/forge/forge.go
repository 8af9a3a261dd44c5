// Package forge builds what a cheater sends and an honest device never
// does: shuffle passes that are not permutations of their input, with
// proofs that go.dedis.ch/kyber/v4's shuffle.PairShuffle.Verify (v4.0.2)
// accepts on its own, and second Ed25519 signatures of a message (Sign),
// with which a seat equivocates. It exists for tests only: they play the
// attacks against crypto.Round.VerifyShuffle and the table, which must
// catch them and name the cheater. Nothing outside _test.go files imports
// it.
//
// The forgery follows the gap described in the crypto package: kyber's
// verifier never checks that the embedded simple k-shuffle runs on
// X_i = A_i + λ·B_i and Y_i = C_i + λ·D_i. The forger therefore proves an
// honest simple shuffle of values of its own choosing, answers the pair
// shuffle's challenge ρ with σ = T⁻ᵀ·ρ, where T is the linear map it
// applied to the deck, and picks D_i = σ_i·Γ − W_i after ρ is known, so
// that equations (33) to (35) of Neff's paper hold.
package forge

import (
	"errors"
	"fmt"

	"github.com/njetlan/njet/crypto"
	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/proof"
	"go.dedis.ch/kyber/v4/shuffle"
)

// Pair asks that output position U hold input U plus twice input V (then
// re-encrypted): after the deal, whoever may decrypt position U learns
// M_U + 2·M_V and so, by a table look-up, the card at V.
type Pair struct{ U, V int }

// The prover's messages, laid out exactly as kyber's (field order is the
// wire order).
type ega1 struct {
	Gamma            kyber.Point
	A, C, U, W       []kyber.Point
	Lambda1, Lambda2 kyber.Point
}

type ega2 struct{ Zrho []kyber.Scalar }

type ega3 struct{ D []kyber.Point }

type ega4 struct{ Zlambda kyber.Scalar }

type ega5 struct {
	Zsigma []kyber.Scalar
	Ztau   kyber.Scalar
}

// Shuffle returns seat's forged pass over in: every position u of pairs
// becomes in[u] + 2·in[v], every other position is in re-encrypted in
// place. The U positions must be distinct and none of them may also be a V
// position (then T, the identity plus 2 at each (U, V), is invertible and
// T⁻ᵀ has a closed form).
func Shuffle(r *crypto.Round, seat int, in crypto.Deck, pairs []Pair) (*crypto.ShuffleMessage, error) {
	k := len(in)
	if k < 2 {
		return nil, errors.New("forge: deck too small")
	}
	isU := make(map[int]bool, len(pairs))
	for _, p := range pairs {
		if p.U < 0 || p.U >= k || p.V < 0 || p.V >= k || p.U == p.V || isU[p.U] {
			return nil, fmt.Errorf("forge: bad pair %+v", p)
		}
		isU[p.U] = true
	}
	for _, p := range pairs {
		if isU[p.V] {
			return nil, fmt.Errorf("forge: position %d is both a U and a V", p.V)
		}
	}
	suite, _ := r.ShuffleProofContext(seat, in, in)
	rnd := suite.RandomStream()
	pick := func() kyber.Scalar { return suite.Scalar().Pick(rnd) }
	point := func(b []byte) (kyber.Point, error) {
		p := suite.Point()
		if err := p.UnmarshalBinary(b); err != nil {
			return nil, err
		}
		return p, nil
	}
	jk := r.JointKey()
	H, err := point(jk.Bytes())
	if err != nil {
		return nil, err
	}
	G := suite.Point().Base()
	X, Y := make([]kyber.Point, k), make([]kyber.Point, k)
	for i, c := range in {
		if X[i], err = point(c.C1.Bytes()); err != nil {
			return nil, err
		}
		if Y[i], err = point(c.C2.Bytes()); err != nil {
			return nil, err
		}
	}
	// The output deck: T·in plus a fresh encryption of zero under β_j.
	beta := make([]kyber.Scalar, k)
	out := make(crypto.Deck, k)
	two := suite.Scalar().SetInt64(2)
	for j := range k {
		beta[j] = pick()
		xb := suite.Point().Add(X[j], suite.Point().Mul(beta[j], G))
		yb := suite.Point().Add(Y[j], suite.Point().Mul(beta[j], H))
		out[j] = crypto.Ciphertext{}
		if err := setPoints(&out[j], xb, yb); err != nil {
			return nil, err
		}
	}
	for _, p := range pairs {
		xb := suite.Point().Add(X[p.U], suite.Point().Mul(two, X[p.V]))
		xb.Add(xb, suite.Point().Mul(beta[p.U], G))
		yb := suite.Point().Add(Y[p.U], suite.Point().Mul(two, Y[p.V]))
		yb.Add(yb, suite.Point().Mul(beta[p.U], H))
		if err := setPoints(&out[p.U], xb, yb); err != nil {
			return nil, err
		}
	}
	_, statement := r.ShuffleProofContext(seat, in, out)

	prover := func(ctx proof.ProverContext) error {
		gamma := pick()
		p1 := ega1{
			Gamma: suite.Point().Mul(gamma, G),
			A:     make([]kyber.Point, k), C: make([]kyber.Point, k),
			U: make([]kyber.Point, k), W: make([]kyber.Point, k),
		}
		for i := range k {
			p1.A[i] = suite.Point().Mul(pick(), G)
			p1.C[i] = suite.Point().Mul(pick(), G)
			p1.U[i] = suite.Point().Mul(pick(), G)
			p1.W[i] = suite.Point().Mul(pick(), G)
		}
		lambda0 := pick()
		p1.Lambda1 = suite.Point().Mul(lambda0, G)
		p1.Lambda2 = suite.Point().Mul(lambda0, H)
		if err := ctx.Put(&p1); err != nil {
			return err
		}
		v2 := ega2{Zrho: make([]kyber.Scalar, k)}
		if err := ctx.PubRand(&v2); err != nil {
			return err
		}
		// σ = T⁻ᵀ·ρ: σ_i = ρ_i except at each V, where σ_V = ρ_V − 2·Σ ρ_U.
		sigma := make([]kyber.Scalar, k)
		for i := range k {
			sigma[i] = suite.Scalar().Set(v2.Zrho[i])
		}
		for _, p := range pairs {
			sigma[p.V].Sub(sigma[p.V], suite.Scalar().Mul(two, v2.Zrho[p.U]))
		}
		p3 := ega3{D: make([]kyber.Point, k)}
		for i := range k {
			p3.D[i] = suite.Point().Sub(suite.Point().Mul(sigma[i], p1.Gamma), p1.W[i])
		}
		if err := ctx.Put(&p3); err != nil {
			return err
		}
		var v4 ega4
		if err := ctx.PubRand(&v4); err != nil {
			return err
		}
		// Σ σ_j·out_j − Σ ρ_i·in_i = (Σ σ_j·β_j)·(G, H), so τ = Σ σ_j·β_j − λ0.
		tau := suite.Scalar().Neg(lambda0)
		for j := range k {
			tau.Add(tau, suite.Scalar().Mul(sigma[j], beta[j]))
		}
		if err := ctx.Put(&ega5{Zsigma: sigma, Ztau: tau}); err != nil {
			return err
		}
		// An honest simple shuffle of values unrelated to A, B, C, D.
		xs, ys := make([]kyber.Scalar, k), make([]kyber.Scalar, k)
		for i := range k {
			xs[i] = pick()
			ys[i] = suite.Scalar().Mul(gamma, xs[i])
		}
		ss := new(shuffle.SimpleShuffle).Init(suite, k)
		return ss.Prove(G, gamma, xs, ys, rnd, ctx)
	}
	prf, err := proof.HashProve(suite, statement, prover)
	if err != nil {
		return nil, err
	}
	return &crypto.ShuffleMessage{Seat: seat, Deck: out, Proof: prf}, nil
}

// setPoints stores kyber points as a ciphertext.
func setPoints(c *crypto.Ciphertext, x, y kyber.Point) error {
	xb, err := x.MarshalBinary()
	if err != nil {
		return err
	}
	yb, err := y.MarshalBinary()
	if err != nil {
		return err
	}
	if len(xb) != len(c.C1) || len(yb) != len(c.C2) {
		return errors.New("forge: point encoding of the wrong size")
	}
	copy(c.C1[:], xb)
	copy(c.C2[:], yb)
	return nil
}
