package crypto

// kyber's shuffle.PairShuffle.Verify (v4.0.2) runs Neff's ElGamal pair
// shuffle (Neff 2004, section 4) and its embedded simple k-shuffle, but it
// takes the simple shuffle's inputs X and Y as the prover sends them and
// never checks that they are the values the pair shuffle defines from the
// earlier commitments:
//
//	X_i = A_i + λ·B_i,  Y_i = C_i + λ·D_i,  with B_i = ρ_i·G − U_i.
//
// Without that link the simple shuffle proves nothing about the output
// deck: equation (33), σ_i·Γ = W_i + D_i, then holds for any σ because D_i
// is chosen after ρ, and a prover can answer for out = T·in + re-encryption
// with T any invertible matrix, not only a permutation. A seat could then
// build one of its positions as "its card + 2·an honest seat's card" and
// read the honest card after the deal.
//
// checkShuffleLink adds the missing check. kyber's verifier is run through
// a VerifierContext that records every message read from the proof and
// every challenge derived from it; once kyber has accepted, the recorded
// A, C, U, D, ρ, λ and the simple shuffle's X, Y must satisfy the two
// equations above for every i, and Γ must not be the identity (Neff needs
// γ ≠ 0). The 2k equations are checked at once as one random linear
// combination with 128-bit weights, computed by two multi-scalar
// multiplications; the weights are derived by hashing the statement and
// the whole proof, which the prover has fixed before they exist.

import (
	"crypto/sha3"
	"errors"
	"fmt"
	"reflect"

	"github.com/gtank/ristretto255"
	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/proof"
)

// recordingVerifier passes every call through to the real verifier context
// and keeps what it read, in order: Gets are the prover's messages, Rands
// the challenges.
type recordingVerifier struct {
	inner proof.VerifierContext
	gets  []any
	rands []any
}

func (v *recordingVerifier) Get(m any) error {
	if err := v.inner.Get(m); err != nil {
		return err
	}
	v.gets = append(v.gets, m)
	return nil
}

func (v *recordingVerifier) PubRand(ms ...any) error {
	if err := v.inner.PubRand(ms...); err != nil {
		return err
	}
	v.rands = append(v.rands, ms...)
	return nil
}

// errTranscriptLayout reports a kyber whose proof messages are not laid out
// as this file expects: a local failure (the dependency changed), never a
// seat's fault.
var errTranscriptLayout = fmt.Errorf("%w: unexpected layout of kyber's shuffle transcript", ErrSoftware)

// pairTranscript holds what the link check needs from a verified proof.
type pairTranscript struct {
	Gamma      kyber.Point
	A, C, U, D []kyber.Point
	Rho        []kyber.Scalar
	Lambda     kyber.Scalar
	X, Y       []kyber.Point // the simple shuffle's inputs, as sent
}

// field returns the exported field name of a recorded message (a struct or
// a pointer to one) as a T.
func field[T any](msg any, name string) (T, error) {
	var zero T
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return zero, errTranscriptLayout
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return zero, errTranscriptLayout
	}
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanInterface() {
		return zero, errTranscriptLayout
	}
	t, ok := f.Interface().(T)
	if !ok {
		return zero, errTranscriptLayout
	}
	return t, nil
}

// transcript extracts the pair shuffle's values from what kyber read: its
// Gets are (ega1, ega3, ega5, ssa0, ssa2, ssa4) and its challenges (ega2,
// ega4, ssa1, ssa3), in protocol order.
func (v *recordingVerifier) transcript(k int) (*pairTranscript, error) {
	if len(v.gets) != 6 || len(v.rands) != 4 {
		return nil, errTranscriptLayout
	}
	var t pairTranscript
	var err error
	get := func(dst *[]kyber.Point, msg any, name string) {
		if err == nil {
			*dst, err = field[[]kyber.Point](msg, name)
			if err == nil && len(*dst) != k {
				err = errTranscriptLayout
			}
		}
	}
	get(&t.A, v.gets[0], "A")
	get(&t.C, v.gets[0], "C")
	get(&t.U, v.gets[0], "U")
	get(&t.D, v.gets[1], "D")
	get(&t.X, v.gets[3], "X")
	get(&t.Y, v.gets[3], "Y")
	if err != nil {
		return nil, err
	}
	if t.Gamma, err = field[kyber.Point](v.gets[0], "Gamma"); err != nil {
		return nil, err
	}
	if t.Rho, err = field[[]kyber.Scalar](v.rands[0], "Zrho"); err != nil || len(t.Rho) != k {
		return nil, errTranscriptLayout
	}
	if t.Lambda, err = field[kyber.Scalar](v.rands[1], "Zlambda"); err != nil {
		return nil, err
	}
	return &t, nil
}

// elementOf returns the value of a point read by the verifier.
func elementOf(p kyber.Point) (*ristretto255.Element, error) {
	q, ok := p.(*kyberPoint)
	if !ok || q == nil {
		return nil, errTranscriptLayout
	}
	return q.element(), nil
}

func scalarOf(s kyber.Scalar) (*ristretto255.Scalar, error) {
	q, ok := s.(*kyberScalar)
	if !ok || q == nil {
		return nil, errTranscriptLayout
	}
	return &q.s, nil
}

// checkShuffleLink checks the recorded transcript of a proof that kyber
// accepted. It returns errLinkBroken when the prover's simple-shuffle
// inputs are not the ones the pair shuffle defines, errTranscriptLayout
// when the transcript cannot be read.
func checkShuffleLink(rec *recordingVerifier, k int, statement string, prf []byte) error {
	t, err := rec.transcript(k)
	if err != nil {
		return err
	}
	gamma, err := elementOf(t.Gamma)
	if err != nil {
		return err
	}
	if gamma.Equal(identityElement) == 1 {
		return fmt.Errorf("%w: Γ is the identity", errLinkBroken)
	}
	lambda, err := scalarOf(t.Lambda)
	if err != nil {
		return err
	}
	// Weights e_i (for the X equations) and f_i (for the Y equations) of
	// 128 bits each, from a hash of the statement and the proof: a false
	// equation survives the combination with probability 2^-128, and short
	// weights halve the additions of the multi-scalar multiplications.
	xof := sha3.NewCSHAKE256(nil, []byte("njet/crypto/v1/shuffle-link"))
	_, _ = xof.Write([]byte(statement)) // writing to a SHAKE never fails
	_, _ = xof.Write(prf)
	weight := func() (*ristretto255.Scalar, error) {
		var b [32]byte
		_, _ = xof.Read(b[:16]) // reading from a SHAKE never fails
		return ristretto255.NewScalar().SetCanonicalBytes(b[:])
	}
	// With P_i = X_i − A_i, Q_i = Y_i − C_i the equations are
	//   Σ e_i·P_i + Σ f_i·Q_i + λ·(Σ e_i·U_i − Σ f_i·D_i) − (λ·Σ e_i·ρ_i)·G = 0,
	// computed as V = Σ e_i·U_i + Σ f_i·(−D_i), then one more
	// multi-scalar multiplication over the P, Q, V and G.
	var pts [6][]*ristretto255.Element
	for j, ps := range [...][]kyber.Point{t.X, t.Y, t.A, t.C, t.U, t.D} {
		pts[j] = make([]*ristretto255.Element, len(ps))
		for i, p := range ps {
			if pts[j][i], err = elementOf(p); err != nil {
				return err
			}
		}
	}
	X, Y, A, C, U, D := pts[0], pts[1], pts[2], pts[3], pts[4], pts[5]
	ws := make([]*ristretto255.Scalar, 2*k, 2*k+2)
	inner := make([]*ristretto255.Element, 2*k)
	outer := make([]*ristretto255.Element, 2*k, 2*k+2)
	var rhoSum ristretto255.Scalar
	for i := range k {
		rho, err := scalarOf(t.Rho[i])
		if err != nil {
			return err
		}
		if ws[i], err = weight(); err != nil {
			return err
		}
		if ws[k+i], err = weight(); err != nil {
			return err
		}
		rhoSum.Add(&rhoSum, ristretto255.NewScalar().Multiply(ws[i], rho))
		inner[i] = U[i]
		inner[k+i] = ristretto255.NewElement().Negate(D[i])
		outer[i] = ristretto255.NewElement().Subtract(X[i], A[i])
		outer[k+i] = ristretto255.NewElement().Subtract(Y[i], C[i])
	}
	var V ristretto255.Element
	V.VarTimeMultiScalarMult(ws, inner)
	g := ristretto255.NewScalar().Multiply(&rhoSum, lambda)
	g.Negate(g)
	ws = append(ws, lambda, g)
	outer = append(outer, &V, generatorElement)
	var sum ristretto255.Element
	sum.VarTimeMultiScalarMult(ws, outer)
	if sum.Equal(identityElement) != 1 {
		return fmt.Errorf("%w: the simple shuffle's inputs are not A+λB and C+λD", errLinkBroken)
	}
	return nil
}

// errLinkBroken is a shuffle proof whose embedded simple shuffle is not
// tied to the pair shuffle's commitments.
var errLinkBroken = errors.New("embedded simple shuffle not linked to the pair shuffle")
