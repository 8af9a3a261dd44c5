package crypto

import (
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
)

// reencrypt returns c re-randomised under the round's joint key: the same
// card, a ciphertext nobody can link to c without the secrets.
func reencrypt(t *testing.T, tt *table, c Ciphertext) Ciphertext {
	t.Helper()
	b := must(randomScalar(tt.rand)).of(t)
	x := must(c.C1.element()).of(t)
	y := must(c.C2.element()).of(t)
	x = ristretto255.NewElement().Add(x, ristretto255.NewElement().ScalarBaseMult(b))
	y = ristretto255.NewElement().Add(y, ristretto255.NewElement().ScalarMult(b, tt.round.joint))
	return Ciphertext{pointOf(x), pointOf(y)}
}

// tamperedTable is a round whose deck went wrong at the pass of seat bad:
// tamper rewrites that pass's output (after an honest shuffle, as if its
// proof had been forged), the later seats shuffle the result honestly, and
// only the positions in dealt are dealt. Every seat then reveals.
func tamperedTable(t *testing.T, n, k, bad int, seed uint64, dealt []int, tamper func(tt *table, d Deck)) *table {
	t.Helper()
	p := testParams(n, k)
	tt := &table{t: t, rand: seeded(seed), p: p, openings: map[int][]Opening{}, holder: map[int]int{}, cards: map[int]int{}}
	tt.tr.Params = p
	for i := range n {
		s := must(NewSecrets(i, tt.rand)).of(t)
		tt.secrets = append(tt.secrets, s)
		tt.tr.Keys = append(tt.tr.Keys, *must(s.KeyMessage(p, tt.rand)).of(t))
	}
	tt.round = must(NewRound(p, tt.tr.Keys)).of(t)
	tt.deck = must(InitialDeck(p)).of(t)
	for i := range n {
		m := must(tt.round.Shuffle(i, tt.deck, tt.rand)).of(t)
		if i == bad {
			m.Deck = append(Deck(nil), m.Deck...)
			tamper(tt, m.Deck)
		}
		tt.tr.Shuffles = append(tt.tr.Shuffles, *m)
		tt.deck = m.Deck
	}
	for _, pos := range dealt {
		tt.deal(pos, pos%n)
	}
	tt.reveal()
	return tt
}

// The full-deck audit decrypts every position, dealt or not: a duplicate
// card hidden in positions nobody was dealt is caught, and blamed on the
// seat whose pass introduced it.
func TestAuditDeckUndealtDuplicate(t *testing.T) {
	for _, k := range []int{36, 40, 60} {
		for n := 2; n <= 5; n++ {
			t.Run(fmt.Sprintf("cards=%d/seats=%d", k, n), func(t *testing.T) {
				bad := n / 2
				dealt := []int{0, 1, 2, 3}
				tt := tamperedTable(t, n, k, bad, uint64(k*10+n), dealt, func(tt *table, d Deck) {
					// The last position becomes a copy of the one before:
					// a card twice, another card gone.
					d[k-1] = reencrypt(t, tt, d[k-2])
				})
				// The hands dealt are fine: every dealt position opened.
				if len(tt.cards) != len(dealt) {
					t.Fatalf("%d positions opened, want %d", len(tt.cards), len(dealt))
				}
				wantCheat(t, tt.round.AuditDeck(tt.tr.Shuffles, tt.tr.Reveals), bad, CheckDeck)
			})
		}
	}
}

func TestAuditDeck(t *testing.T) {
	t.Run("honest round passes", func(t *testing.T) {
		for _, c := range []struct{ n, k int }{{2, 36}, {3, 40}, {5, 60}} {
			tt := fullRound(t, c.n, c.k, uint64(c.n*c.k))
			if err := tt.round.AuditDeck(tt.tr.Shuffles, tt.tr.Reveals); err != nil {
				t.Fatalf("%d seats, %d cards: %v", c.n, c.k, err)
			}
			if err := Audit(&tt.tr); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("a position that is no card", func(t *testing.T) {
		tt := tamperedTable(t, 3, 36, 0, 41, nil, func(tt *table, d Deck) {
			c := d[7]
			y := must(c.C2.element()).of(t)
			y.Add(y, ristretto255.NewGeneratorElement())
			d[7].C2 = pointOf(y)
		})
		wantCheat(t, tt.round.AuditDeck(tt.tr.Shuffles, tt.tr.Reveals), 0, CheckDeck)
	})
	t.Run("the last pass duplicates", func(t *testing.T) {
		tt := tamperedTable(t, 4, 40, 3, 42, []int{0, 1}, func(tt *table, d Deck) {
			d[20] = reencrypt(t, tt, d[30])
		})
		wantCheat(t, tt.round.AuditDeck(tt.tr.Shuffles, tt.tr.Reveals), 3, CheckDeck)
	})
	t.Run("a false reveal is named", func(t *testing.T) {
		tt := fullRound(t, 3, 36, 43)
		reveals := append([]Reveal(nil), tt.tr.Reveals...)
		reveals[1].Key[0] ^= 1
		err := tt.round.AuditDeck(tt.tr.Shuffles, reveals)
		wantCheat(t, err, 1, CheckReveal)
	})
	t.Run("a missing reveal is named", func(t *testing.T) {
		tt := fullRound(t, 3, 36, 44)
		wantCheat(t, tt.round.AuditDeck(tt.tr.Shuffles, tt.tr.Reveals[:2]), 2, CheckMissing)
	})
	t.Run("Audit names the shuffler first", func(t *testing.T) {
		tt := tamperedTable(t, 3, 36, 1, 45, []int{0}, func(tt *table, d Deck) {
			d[35] = reencrypt(t, tt, d[34])
		})
		wantCheat(t, Audit(&tt.tr), 1, CheckShuffle)
	})
}
