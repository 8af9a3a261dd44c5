package crypto

import (
	"fmt"

	"github.com/gtank/ristretto255"
)

// OpenDeck decrypts every position of deck with every seat's revealed
// secrets (secrets[i] of seat i, as Secrets returns them from the reveals)
// and returns the card index at each position. A game whose rules replay
// the whole order of the deck after the round (a draw pile opened one card
// at a time, say) reads that order here. It fails when a secret is not the
// round's, or when a position decrypts to no card or to a card seen
// before: then the deck is not the round's cards once each, and AuditDeck
// names the seat to blame.
func (r *Round) OpenDeck(deck Deck, secrets []*Secrets) ([]int, error) {
	n := r.params.Parties
	if len(secrets) != n {
		return nil, usageError("%d secrets for %d seats", len(secrets), n)
	}
	var x ristretto255.Scalar
	for i, s := range secrets {
		if err := r.checkSecrets(s); err != nil {
			return nil, err
		}
		if s.seat != i {
			return nil, usageError("secrets of seat %d in slot %d", s.seat, i)
		}
		x.Add(&x, &s.key)
	}
	k := r.params.Cards
	if len(deck) != k {
		return nil, usageError("deck of %d positions, want %d", len(deck), k)
	}
	c1, c2, err := r.decks.elements(deck)
	if err != nil {
		return nil, usageError("deck: %v", err)
	}
	out := make([]int, k)
	seen := make([]bool, k)
	var M ristretto255.Element
	for pos := range k {
		M.ScalarMult(&x, c1[pos])
		M.Subtract(c2[pos], &M)
		card, ok := r.cards[pointOf(&M)]
		if !ok || seen[card] {
			return nil, cheat(-1, CheckDeck, "%s", fmt.Sprintf("position %d decrypts to no new card of deck %q", pos, r.params.DeckID))
		}
		seen[card] = true
		out[pos] = card
	}
	return out, nil
}
