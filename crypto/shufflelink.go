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
// combination, computed by a single multi-scalar multiplication; its
// weights are derived by hashing the statement and the whole proof, which
// the prover has fixed before they exist.

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
var errTranscriptLayout = errors.New("crypto: unexpected layout of kyber's shuffle transcript")

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
	// Weights e_i (for the X equations) and f_i (for the Y equations) from
	// a hash of the statement and the proof.
	xof := sha3.NewCSHAKE256(nil, []byte("njet/crypto/v1/shuffle-link"))
	_, _ = xof.Write([]byte(statement)) // writing to a SHAKE never fails
	_, _ = xof.Write(prf)
	weight := func() *ristretto255.Scalar {
		var b [64]byte
		_, _ = xof.Read(b[:]) // reading from a SHAKE never fails
		return wideScalar(&b)
	}
	// Σ e_i·(X_i − A_i + λ·U_i) − (λ·Σ e_i·ρ_i)·G + Σ f_i·(Y_i − C_i − λ·D_i) = 0
	scalars := make([]*ristretto255.Scalar, 0, 6*k+1)
	points := make([]*ristretto255.Element, 0, 6*k+1)
	add := func(s *ristretto255.Scalar, p kyber.Point) error {
		e, err := elementOf(p)
		if err != nil {
			return err
		}
		scalars = append(scalars, s)
		points = append(points, e)
		return nil
	}
	var rhoSum ristretto255.Scalar
	for i := range k {
		rho, err := scalarOf(t.Rho[i])
		if err != nil {
			return err
		}
		e, f := weight(), weight()
		negE := ristretto255.NewScalar().Negate(e)
		eLambda := ristretto255.NewScalar().Multiply(e, lambda)
		negF := ristretto255.NewScalar().Negate(f)
		negFLambda := ristretto255.NewScalar().Multiply(negF, lambda)
		rhoSum.Add(&rhoSum, ristretto255.NewScalar().Multiply(e, rho))
		for _, term := range []struct {
			s *ristretto255.Scalar
			p kyber.Point
		}{{e, t.X[i]}, {negE, t.A[i]}, {eLambda, t.U[i]}, {f, t.Y[i]}, {negF, t.C[i]}, {negFLambda, t.D[i]}} {
			if err := add(term.s, term.p); err != nil {
				return err
			}
		}
	}
	g := ristretto255.NewScalar().Multiply(&rhoSum, lambda)
	g.Negate(g)
	scalars = append(scalars, g)
	points = append(points, generatorElement)
	var sum ristretto255.Element
	sum.VarTimeMultiScalarMult(scalars, points)
	if sum.Equal(identityElement) != 1 {
		return fmt.Errorf("%w: the simple shuffle's inputs are not A+λB and C+λD", errLinkBroken)
	}
	return nil
}

// errLinkBroken is a shuffle proof whose embedded simple shuffle is not
// tied to the pair shuffle's commitments.
var errLinkBroken = errors.New("embedded simple shuffle not linked to the pair shuffle")
