package crypto

import (
	"fmt"

	"github.com/gtank/ristretto255"
)

// AuditDeck is the full-deck check that ends a round, once every seat has
// revealed: with the sum of the revealed ElGamal secrets it decrypts every
// position of the final deck, dealt or not, played or not, and checks that
// the deck holds each of the edition's cards exactly once. A valid shuffle
// proof already guarantees this; the audit does not rely on it, so a flaw
// in a shuffle proof (such as the gap in kyber's verifier that
// shufflelink.go closes) cannot hide a forged deck in positions nobody was
// dealt.
//
// shuffles are the round's passes in seat order (shuffles[i] from seat i)
// and reveals every seat's reveal (reveals[i] from seat i). When the final
// deck fails, every pass's output is decrypted in turn and the first that
// is not the edition's cards once each is blamed: the error is a
// *CheatError naming that pass's seat with CheckDeck. A bad reveal fails
// as Round.Secrets does, naming its seat.
func (r *Round) AuditDeck(shuffles []ShuffleMessage, reveals []Reveal) error {
	n := r.params.Parties
	if len(shuffles) != n {
		return cheat(missingSeat(len(shuffles), n), CheckMissing, "%d shuffle passes for %d seats", len(shuffles), n)
	}
	if len(reveals) != n {
		return cheat(missingSeat(len(reveals), n), CheckMissing, "%d reveals for %d seats", len(reveals), n)
	}
	secrets := make([]*Secrets, n)
	for i := range reveals {
		if reveals[i].Seat != i {
			return cheat(reveals[i].Seat, CheckMissing, "reveal of seat %d in slot %d", reveals[i].Seat, i)
		}
		s, err := r.Secrets(&reveals[i])
		if err != nil {
			return err
		}
		secrets[i] = s
	}
	return r.AuditDeckSecrets(shuffles, secrets)
}

// AuditDeckSecrets is AuditDeck for a caller that has already opened every
// seat's reveal with Secrets (secrets[i] of seat i), so that the reveals
// are not decoded and checked a second time. Secrets that are not the
// round's, seat by seat, are a usage error.
func (r *Round) AuditDeckSecrets(shuffles []ShuffleMessage, secrets []*Secrets) error {
	n := r.params.Parties
	if len(shuffles) != n {
		return cheat(missingSeat(len(shuffles), n), CheckMissing, "%d shuffle passes for %d seats", len(shuffles), n)
	}
	if len(secrets) != n {
		return usageError("%d secrets for %d seats", len(secrets), n)
	}
	var x ristretto255.Scalar
	for i, s := range secrets {
		if err := r.checkSecrets(s); err != nil {
			return err
		}
		if s.seat != i {
			return usageError("secrets of seat %d in slot %d", s.seat, i)
		}
		x.Add(&x, &s.key)
	}
	final := r.deckCards(shuffles[n-1].Deck, &x)
	if final == nil {
		return nil
	}
	for i := range shuffles {
		if err := r.deckCards(shuffles[i].Deck, &x); err != nil {
			return cheat(shuffles[i].Seat, CheckDeck, "after the pass of seat %d: %v", shuffles[i].Seat, err)
		}
	}
	// Unreachable for a final deck that is the last pass's output; kept so
	// that the audit never passes a bad deck.
	return cheat(-1, CheckDeck, "final deck: %v", final)
}

// deckCards decrypts every position of deck with the joint secret x and
// reports the first position that is not a card, or the first card that
// appears twice (then some card is missing, as the deck has as many
// positions as the edition has cards).
func (r *Round) deckCards(deck Deck, x *ristretto255.Scalar) error {
	k := r.params.Cards
	if len(deck) != k {
		return fmt.Errorf("deck of %d positions, want %d", len(deck), k)
	}
	c1, c2, err := r.decks.elements(deck)
	if err != nil {
		return err
	}
	seen := make([]int, k) // card -> 1 + the position holding it
	var M ristretto255.Element
	for pos := range k {
		M.ScalarMult(x, c1[pos])
		M.Subtract(c2[pos], &M)
		card, ok := r.cards[pointOf(&M)]
		if !ok {
			return fmt.Errorf("position %d decrypts to no card of deck %q", pos, r.params.DeckID)
		}
		if seen[card] != 0 {
			return fmt.Errorf("card %d at positions %d and %d", card, seen[card]-1, pos)
		}
		seen[card] = pos + 1
	}
	return nil
}
