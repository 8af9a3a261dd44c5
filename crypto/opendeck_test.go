package crypto

import (
	"errors"
	"fmt"
	"testing"
)

// TestOpenDeck shuffles a deck at tables of one to five seats, with the
// largest deck, and opens it with every seat's secrets: each card once, and
// the card each position's holder would see with the tokens.
func TestOpenDeck(t *testing.T) {
	for _, c := range []struct{ n, k int }{{1, 98}, {3, 36}, {5, 98}} {
		t.Run(fmt.Sprintf("parties=%d/cards=%d", c.n, c.k), func(t *testing.T) {
			tt := newTable(t, testParams(c.n, c.k), seeded(uint64(c.n*1000+c.k)))
			cards, err := tt.round.OpenDeck(tt.deck, tt.secrets)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int]bool{}
			for _, card := range cards {
				if card < 0 || card >= c.k || seen[card] {
					t.Fatalf("card %d twice or out of range", card)
				}
				seen[card] = true
			}
			// Position 0 opened by its holder, seat 0, with the others' tokens.
			var openings []Opening
			for s := 1; s < c.n; s++ {
				tok := must(tt.round.Token(tt.secrets[s], tt.deck, 0, tt.rand)).of(t)
				openings = append(openings, Opening{Token: tok})
			}
			got := must(tt.round.Card(tt.secrets[0], tt.deck, 0, openings)).of(t)
			if got != cards[0] {
				t.Fatalf("position 0: holder sees %d, OpenDeck %d", got, cards[0])
			}
			if _, err := tt.round.OpenDeck(tt.deck, tt.secrets[:c.n-1]); err == nil {
				t.Fatal("a missing secret was accepted")
			}
		})
	}
}

// TestOpenDeckForged: a deck that is not the cards once each does not open.
func TestOpenDeckForged(t *testing.T) {
	tt := newTable(t, testParams(2, 36), seeded(5))
	forged := append(Deck(nil), tt.deck...)
	forged[1] = forged[0]
	if _, err := tt.round.OpenDeck(forged, tt.secrets); !errors.Is(err, ErrDeck) {
		t.Fatalf("got %v, want ErrDeck", err)
	}
}
