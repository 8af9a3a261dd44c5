package crypto_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/njetlan/njet/crypto"
)

// Two seats deal a 36-card deck: seat 1 gets position 0 privately and then
// plays it; seat 0 checks the play and learns the same card.
func Example() {
	// Tests use a seeded source; production code passes crypto/rand.Reader.
	rnd := rand.NewChaCha8([32]byte{7})
	p := crypto.Params{Round: 1, Parties: 2, Cards: 36, DeckID: "example"}

	var secrets []*crypto.Secrets
	var keys []crypto.KeyMessage
	for seat := range p.Parties {
		s, err := crypto.NewSecrets(seat, rnd)
		if err != nil {
			fmt.Println(err)
			return
		}
		k, err := s.KeyMessage(p, rnd)
		if err != nil {
			fmt.Println(err)
			return
		}
		secrets, keys = append(secrets, s), append(keys, *k)
	}
	round, err := crypto.NewRound(p, keys)
	if err != nil {
		fmt.Println(err)
		return
	}

	deck, err := crypto.InitialDeck(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for seat := range p.Parties {
		pass, err := round.Shuffle(seat, deck, rnd)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := round.VerifyShuffle(deck, pass); err != nil {
			fmt.Println(err)
			return
		}
		deck = pass.Deck
	}

	// Seat 0 deals position 0 to seat 1.
	sealed, err := round.Deal(secrets[0], deck, 0, 1, rnd)
	if err != nil {
		fmt.Println(err)
		return
	}
	opening, err := round.OpenDeal(secrets[1], deck, sealed)
	if err != nil {
		fmt.Println(err)
		return
	}
	private, err := round.Card(secrets[1], deck, 0, []crypto.Opening{opening})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Seat 1 plays it; seat 0 verifies.
	play, err := round.Play(secrets[1], deck, 0, []crypto.Opening{opening}, rnd)
	if err != nil {
		fmt.Println(err)
		return
	}
	public, err := round.VerifyPlay(deck, play, []crypto.Sealed{*sealed})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("seat 1 saw the card it played:", private == public)
	// Output: seat 1 saw the card it played: true
}
