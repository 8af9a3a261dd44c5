package crypto_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/internal/forge"
	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/proof"
	"go.dedis.ch/kyber/v4/shuffle"
)

// forgeTable runs key setup and the honest passes of every seat but the
// last, and returns the round and the deck the last seat shuffles.
func forgeTable(t *testing.T, n, k int, seed uint64) (*crypto.Round, crypto.Deck) {
	t.Helper()
	var s [32]byte
	s[0], s[1] = byte(seed), byte(seed>>8)
	rnd := rand.NewChaCha8(s)
	p := crypto.Params{Round: 3, Parties: n, Cards: k, DeckID: "njet-forge"}
	copy(p.TableID[:], "forged table")
	keys := make([]crypto.KeyMessage, n)
	for i := range n {
		sec, err := crypto.NewSecrets(i, rnd)
		if err != nil {
			t.Fatal(err)
		}
		m, err := sec.KeyMessage(p, rnd)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = *m
	}
	r, err := crypto.NewRound(p, keys)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := crypto.InitialDeck(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n - 1 {
		m, err := r.Shuffle(i, deck, rnd)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.VerifyShuffle(deck, m); err != nil {
			t.Fatal(err)
		}
		deck = m.Deck
	}
	return r, deck
}

// kyberAccepts runs kyber's PairShuffle verifier alone, as VerifyShuffle
// did before the link check.
func kyberAccepts(t *testing.T, r *crypto.Round, in crypto.Deck, m *crypto.ShuffleMessage) error {
	t.Helper()
	suite, statement := r.ShuffleProofContext(m.Seat, in, m.Deck)
	point := func(p crypto.Point) kyber.Point {
		q := suite.Point()
		if err := q.UnmarshalBinary(p.Bytes()); err != nil {
			t.Fatal(err)
		}
		return q
	}
	k := len(in)
	X, Y := make([]kyber.Point, k), make([]kyber.Point, k)
	Xbar, Ybar := make([]kyber.Point, k), make([]kyber.Point, k)
	for i := range k {
		X[i], Y[i] = point(in[i].C1), point(in[i].C2)
		Xbar[i], Ybar[i] = point(m.Deck[i].C1), point(m.Deck[i].C2)
	}
	v := shuffle.Verifier(suite, suite.Point().Base(), point(r.JointKey()), X, Y, Xbar, Ybar)
	return proof.HashVerify(suite, statement, v, m.Proof)
}

// TestForgedShuffle plays the attack on the shuffle proof: the last seat
// makes each of its first positions "its card + 2 × the card at an honest
// seat's position", a deck that is no permutation of its input. kyber's
// verifier alone accepts the proof (the upstream gap); VerifyShuffle
// rejects it and names the shuffler, at every deck size and seat count.
func TestForgedShuffle(t *testing.T) {
	for _, k := range []int{36, 40, 60} {
		for n := 2; n <= 5; n++ {
			t.Run(fmt.Sprintf("cards=%d/seats=%d", k, n), func(t *testing.T) {
				r, in := forgeTable(t, n, k, uint64(100*k+n))
				last := n - 1
				// The positions a round-robin deal gives the last seat read
				// the positions it gives seat 0.
				var pairs []forge.Pair
				for pos := last; pos+last < k && len(pairs) < k/n; pos += n {
					pairs = append(pairs, forge.Pair{U: pos, V: pos - last})
				}
				m, err := forge.Shuffle(r, last, in, pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := kyberAccepts(t, r, in, m); err != nil {
					t.Fatalf("kyber's verifier rejects the forgery (%v): the test no longer plays the upstream gap", err)
				}
				err = r.VerifyShuffle(in, m)
				var ce *crypto.CheatError
				if !errors.As(err, &ce) || ce.Seat != last || ce.Check != crypto.CheckShuffle {
					t.Fatalf("VerifyShuffle: %v, want a shuffle cheat by seat %d", err, last)
				}
				if !errors.Is(err, crypto.ErrShuffle) {
					t.Fatalf("%v does not wrap ErrShuffle", err)
				}
			})
		}
	}
}

// TestForgedShuffleOnePosition is the smallest forgery: one position
// becomes card_u + 2·card_v, every other is re-encrypted in place.
func TestForgedShuffleOnePosition(t *testing.T) {
	r, in := forgeTable(t, 2, 36, 7)
	m, err := forge.Shuffle(r, 1, in, []forge.Pair{{U: 5, V: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := kyberAccepts(t, r, in, m); err != nil {
		t.Fatalf("kyber's verifier: %v", err)
	}
	var ce *crypto.CheatError
	if err := r.VerifyShuffle(in, m); !errors.As(err, &ce) || ce.Seat != 1 || ce.Check != crypto.CheckShuffle {
		t.Fatalf("VerifyShuffle: %v, want a shuffle cheat by seat 1", err)
	}
	t.Logf("rejected: %v", ce)
}

// TestHonestShufflePassesBoth checks the control: an honest pass passes
// kyber's verifier and ours, at every size.
func TestHonestShufflePassesBoth(t *testing.T) {
	for _, k := range []int{36, 40, 60} {
		t.Run(fmt.Sprintf("cards=%d", k), func(t *testing.T) {
			r, in := forgeTable(t, 2, k, uint64(k))
			var s [32]byte
			m, err := r.Shuffle(1, in, rand.NewChaCha8(s))
			if err != nil {
				t.Fatal(err)
			}
			if err := kyberAccepts(t, r, in, m); err != nil {
				t.Fatal(err)
			}
			if err := r.VerifyShuffle(in, m); err != nil {
				t.Fatal(err)
			}
		})
	}
}
