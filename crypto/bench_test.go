package crypto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/proof"
	"go.dedis.ch/kyber/v4/shuffle"
)

// BenchmarkShufflePass times one seat's shuffle pass: proving it, and
// verifying it as every other seat does.
func BenchmarkShufflePass(b *testing.B) {
	for _, k := range []int{36, 60} {
		b.Run(fmt.Sprintf("cards=%d", k), func(b *testing.B) {
			tt := newTable(b, testParams(2, k), seeded(11))
			var prove, verify time.Duration
			for b.Loop() {
				t0 := time.Now()
				m := must(tt.round.Shuffle(0, tt.deck, tt.rand)).of(b)
				t1 := time.Now()
				if err := tt.round.VerifyShuffle(tt.deck, m); err != nil {
					b.Fatal(err)
				}
				prove += t1.Sub(t0)
				verify += time.Since(t1)
			}
			b.ReportMetric(float64(prove.Microseconds())/1000/float64(b.N), "ms/prove")
			b.ReportMetric(float64(verify.Microseconds())/1000/float64(b.N), "ms/verify")
		})
	}
}

// BenchmarkDeal times the critical path of a deal: key setup, one proven
// and verified shuffle pass per seat in turn, and opening every hand (each
// other seat's token with its proof, sealed with HPKE, then opened and
// verified by the holder).
func BenchmarkDeal(b *testing.B) {
	for _, c := range []struct{ n, k int }{{3, 36}, {5, 60}} {
		b.Run(fmt.Sprintf("players=%d/cards=%d", c.n, c.k), func(b *testing.B) {
			p := testParams(c.n, c.k)
			rnd := seeded(12)
			for b.Loop() {
				tt := newTable(b, p, rnd)
				for pos := range c.k {
					tt.deal(pos, pos%c.n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/deal")
		})
		b.Run(fmt.Sprintf("players=%d/cards=%d/pipelined", c.n, c.k), func(b *testing.B) {
			p := testParams(c.n, c.k)
			rnd := seeded(12)
			for b.Loop() {
				if err := dealPipelined(p, rnd); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/deal")
		})
	}
}

// dealPipelined does the work of BenchmarkDeal as a table of separate
// devices does it: each seat has its own Round; seat k+1 proves its pass
// while pass k is being verified (by seat k-1, standing for every peer,
// which all verify at the same time on their own devices); the deal starts
// only once every pass is verified; the seats compute and seal their
// tokens side by side; and each holder opens its whole hand with OpenDeals.
// All devices share this machine's cores, so the wall time is an upper
// bound on a real table's.
func dealPipelined(p Params, rnd io.Reader) error {
	n, k := p.Parties, p.Cards
	rands := make([]io.Reader, n)
	for i := range rands {
		var b [8]byte
		if _, err := io.ReadFull(rnd, b[:]); err != nil {
			return err
		}
		rands[i] = seeded(binary.LittleEndian.Uint64(b[:]))
	}
	secrets := make([]*Secrets, n)
	keys := make([]KeyMessage, n)
	rounds := make([]*Round, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s, err := NewSecrets(i, rands[i])
			if err == nil {
				var m *KeyMessage
				if m, err = s.KeyMessage(p, rands[i]); err == nil {
					secrets[i], keys[i] = s, *m
				}
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i := range n {
		wg.Go(func() { rounds[i], errs[i] = NewRound(p, keys) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}

	deck, err := InitialDeck(p)
	if err != nil {
		return err
	}
	verrs := make([]error, n)
	var verified sync.WaitGroup
	for i := range n {
		m, err := rounds[i].Shuffle(i, deck, rands[i])
		if err != nil {
			verified.Wait()
			return err
		}
		in := deck
		verified.Go(func() { verrs[i] = rounds[(i+n-1)%n].VerifyShuffle(in, m) })
		deck = m.Deck
	}
	verified.Wait()
	if err := errors.Join(verrs...); err != nil {
		return err
	}

	// sealed[from][pos] is seat from's token for position pos.
	sealed := make([][]*Sealed, n)
	for j := range n {
		sealed[j] = make([]*Sealed, k)
		wg.Go(func() {
			for pos := range k {
				if to := pos % n; to != j {
					if sealed[j][pos], errs[j] = rounds[j].Deal(secrets[j], deck, pos, to, rands[j]); errs[j] != nil {
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for h := range n {
		wg.Go(func() {
			var hand []Sealed
			for pos := h; pos < k; pos += n {
				for j := range n {
					if j != h {
						hand = append(hand, *sealed[j][pos])
					}
				}
			}
			var got []Opening
			if got, errs[h] = rounds[h].OpenDeals(secrets[h], deck, hand); errs[h] != nil {
				return
			}
			for pos := h; pos < k; pos += n {
				if _, errs[h] = rounds[h].Card(secrets[h], deck, pos, got[:n-1]); errs[h] != nil {
					return
				}
				got = got[n-1:]
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// BenchmarkShuffleLink times the check VerifyShuffle adds to kyber's
// verifier (shufflelink.go) on its own, for one 60-card pass: the part of
// ms/verify in BenchmarkShufflePass that soundness costs.
func BenchmarkShuffleLink(b *testing.B) {
	const k = 60
	tt := newTable(b, testParams(2, k), seeded(13))
	m := must(tt.round.Shuffle(0, tt.deck, tt.rand)).of(b)
	statement := shuffleContext(tt.round, 0, tt.deck, m.Deck)
	grp := &kyberGroup{varTime: true}
	c1, c2, err := tt.deck.elements()
	if err != nil {
		b.Fatal(err)
	}
	d1, d2, err := m.Deck.elements()
	if err != nil {
		b.Fatal(err)
	}
	X, Y, Xbar, Ybar := make([]kyber.Point, k), make([]kyber.Point, k), make([]kyber.Point, k), make([]kyber.Point, k)
	for i := range k {
		X[i], Y[i] = &kyberPoint{e: *c1[i], varTime: true}, &kyberPoint{e: *c2[i], varTime: true}
		Xbar[i], Ybar[i] = &kyberPoint{e: *d1[i], varTime: true}, &kyberPoint{e: *d2[i], varTime: true}
	}
	rec := &recordingVerifier{}
	verifier := func(ctx proof.VerifierContext) error {
		rec.inner = ctx
		return new(shuffle.PairShuffle).Init(grp, k).Verify(grp.Point().Base(), &kyberPoint{e: *tt.round.joint, varTime: true}, X, Y, Xbar, Ybar, rec)
	}
	if err := proof.HashVerify(&kyberSuite{kyberGroup: *grp}, statement, verifier, m.Proof); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := checkShuffleLink(rec, k, statement, m.Proof); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/link")
}
