package crypto

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// seeded returns a deterministic random source for tests.
func seeded(seed uint64) io.Reader {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

func testParams(n, k int) Params {
	p := Params{Round: 7, Parties: n, Cards: k, DeckID: "njet-test"}
	copy(p.TableID[:], "table one")
	return p
}

// table is an honest round in progress, seen from all seats at once.
type table struct {
	t       testing.TB
	rand    io.Reader
	p       Params
	round   *Round
	secrets []*Secrets
	deck    Deck
	tr      Transcript
	// openings[p] are the openings the holder of position p received.
	openings map[int][]Opening
	holder   map[int]int
	cards    map[int]int // position -> card, as its holder saw it
}

// must(f()).of(tb) fails the test if f returned an error.
func must[T any](v T, err error) result[T] { return result[T]{v, err} }

type result[T any] struct {
	v   T
	err error
}

func (r result[T]) of(tb testing.TB) T {
	tb.Helper()
	if r.err != nil {
		tb.Fatal(r.err)
	}
	return r.v
}

// newTable runs key setup and all shuffle passes, each verified.
func newTable(tb testing.TB, p Params, rand io.Reader) *table {
	tb.Helper()
	tt := &table{t: tb, rand: rand, p: p, openings: map[int][]Opening{}, holder: map[int]int{}, cards: map[int]int{}}
	tt.tr.Params = p
	for i := range p.Parties {
		s := must(NewSecrets(i, rand)).of(tb)
		tt.secrets = append(tt.secrets, s)
		tt.tr.Keys = append(tt.tr.Keys, *must(s.KeyMessage(p, rand)).of(tb))
	}
	tt.round = must(NewRound(p, tt.tr.Keys)).of(tb)
	tt.deck = must(InitialDeck(p)).of(tb)
	for i := range p.Parties {
		m := must(tt.round.Shuffle(i, tt.deck, rand)).of(tb)
		if err := tt.round.VerifyShuffle(tt.deck, m); err != nil {
			tb.Fatal(err)
		}
		tt.tr.Shuffles = append(tt.tr.Shuffles, *m)
		tt.deck = m.Deck
	}
	return tt
}

// deal gives position pos to seat to: every other seat seals its token.
func (tt *table) deal(pos, to int) {
	tt.t.Helper()
	var sealed []Sealed
	for j, s := range tt.secrets {
		if j == to {
			continue
		}
		m := must(tt.round.Deal(s, tt.deck, pos, to, tt.rand)).of(tt.t)
		sealed = append(sealed, *m)
	}
	tt.tr.Sealed = append(tt.tr.Sealed, sealed...)
	got := must(tt.round.OpenDeals(tt.secrets[to], tt.deck, sealed)).of(tt.t)
	tt.openings[pos] = got
	tt.holder[pos] = to
	tt.cards[pos] = must(tt.round.Card(tt.secrets[to], tt.deck, pos, got)).of(tt.t)
}

// pass forwards position pos from its holder to seat to.
func (tt *table) pass(pos, to int) {
	tt.t.Helper()
	from := tt.holder[pos]
	m := must(tt.round.Forward(tt.secrets[from], tt.deck, pos, to, tt.openings[pos], tt.rand)).of(tt.t)
	openings, card, err := tt.round.OpenForward(tt.secrets[to], tt.deck, m, tt.tr.Sealed)
	if err != nil {
		tt.t.Fatal(err)
	}
	tt.tr.Sealed = append(tt.tr.Sealed, *m)
	if card != tt.cards[pos] {
		tt.t.Fatalf("passed card %d, holder saw %d", card, tt.cards[pos])
	}
	tt.openings[pos], tt.holder[pos] = openings, to
}

// play opens position pos for everyone and checks that all agree.
func (tt *table) play(pos int) int {
	tt.t.Helper()
	m := must(tt.round.Play(tt.secrets[tt.holder[pos]], tt.deck, pos, tt.openings[pos], tt.rand)).of(tt.t)
	card := must(tt.round.VerifyPlay(tt.deck, m, tt.tr.Sealed)).of(tt.t)
	if card != tt.cards[pos] {
		tt.t.Fatalf("position %d: played card %d, holder saw %d", pos, card, tt.cards[pos])
	}
	tt.tr.Plays = append(tt.tr.Plays, *m)
	return card
}

func (tt *table) reveal() {
	for _, s := range tt.secrets {
		tt.tr.Reveals = append(tt.tr.Reveals, *s.Reveal())
	}
}

// fullRound deals every position round-robin, passes one card, plays one
// card per seat, reveals, and returns the table.
func fullRound(tb testing.TB, n, k int, seed uint64) *table {
	tt := newTable(tb, testParams(n, k), seeded(seed))
	for pos := range k {
		tt.deal(pos, pos%n)
	}
	tt.pass(0, 1)
	for seat := range n {
		tt.play(seat + n) // position seat+n is held by seat
	}
	tt.play(0) // the passed card, played by its new holder
	tt.reveal()
	return tt
}

func TestRoundTrip(t *testing.T) {
	cardCounts := []int{36, 40, 48, 60}
	// The round passes a card between neighbours, so it needs two seats;
	// a seat alone is TestOpenDeckAlone's.
	for n := 2; n <= MaxParties; n++ {
		for _, k := range cardCounts {
			if testing.Short() && !(n == 2 && k == 36) && !(n == MaxParties && k == 60) {
				continue
			}
			t.Run(fmt.Sprintf("parties=%d/cards=%d", n, k), func(t *testing.T) {
				tt := fullRound(t, n, k, uint64(100*n+k))
				// Every position decrypted to a distinct card: the deck is a
				// permutation of the cards.
				seen := make(map[int]bool)
				for pos := range k {
					c, ok := tt.cards[pos]
					if !ok || c < 0 || c >= k || seen[c] {
						t.Fatalf("position %d: card %d (ok=%v, duplicate=%v)", pos, c, ok, seen[c])
					}
					seen[c] = true
				}
				// A seat learns only its own cards: without the other
				// seats' tokens it cannot open a position.
				other := (tt.holder[1] + 1) % n
				if _, err := tt.round.Card(tt.secrets[other], tt.deck, 1, nil); err == nil {
					t.Fatal("a seat opened a position it does not hold")
				}
				for i := range tt.tr.Sealed {
					m := tt.tr.Sealed[i]
					if m.To == other {
						continue
					}
					if _, err := tt.round.OpenDeal(tt.secrets[other], tt.deck, &m); err == nil {
						t.Fatal("a seat opened a token sealed to another seat")
					}
					m.To = other // pretend it was for us: the HPKE key differs
					if _, err := tt.round.OpenDeal(tt.secrets[other], tt.deck, &m); err == nil {
						t.Fatal("a seat opened a token sealed to another seat")
					}
					break
				}
				if err := Audit(&tt.tr); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// A reveal turns back into the very secrets it came from, and a reveal
// that does not match the round keys is refused, naming the seat.
func TestSecretsFromReveal(t *testing.T) {
	tt := fullRound(t, 3, 36, 7)
	for seat, s := range tt.secrets {
		got, err := tt.round.Secrets(s.Reveal())
		if err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		want, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if b, err := got.MarshalBinary(); err != nil || string(b) != string(want) || got.Seat() != seat {
			t.Fatalf("seat %d: the secrets differ (%v)", seat, err)
		}
	}
	wrong := *tt.secrets[1].Reveal()
	wrong.Seat = 2
	var ce *CheatError
	if _, err := tt.round.Secrets(&wrong); !errors.As(err, &ce) || ce.Seat != 2 || ce.Check != CheckReveal {
		t.Fatalf("seat 1's secrets revealed as seat 2: %v", err)
	}
}
