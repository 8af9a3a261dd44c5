package crypto

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"

	"github.com/gtank/ristretto255"
)

// Ciphertext is an ElGamal encryption (C1, C2) = (r*G, M + r*H) of a card
// point M under the joint key H.
type Ciphertext struct {
	C1, C2 Point
}

// Deck is the encrypted deck: position i holds the ciphertext of whatever
// card ended up there. Positions mean nothing to this package; the caller
// decides which position goes to which seat.
type Deck []Ciphertext

// InitialDeck returns the starting deck: card i at position i, encrypted
// with randomness zero, so that everyone computes the same deck. The first
// shuffle re-randomises it.
func InitialDeck(p Params) (Deck, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	d := make(Deck, p.Cards)
	for i := range d {
		d[i] = Ciphertext{C1: identity, C2: pointOf(cardPoint(p.DeckID, i))}
	}
	return d, nil
}

// Digest is a hash of the deck, bound into the shuffle proofs.
func (d Deck) Digest() [32]byte {
	h := sha256.New()
	h.Write([]byte("njet/crypto/v1/deck"))
	h.Write([]byte{byte(len(d))})
	for _, c := range d {
		h.Write(c.C1[:])
		h.Write(c.C2[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// elements decodes every point of the deck.
func (d Deck) elements() (c1, c2 []*ristretto255.Element, err error) {
	c1 = make([]*ristretto255.Element, len(d))
	c2 = make([]*ristretto255.Element, len(d))
	for i, c := range d {
		if c1[i], err = c.C1.element(); err != nil {
			return nil, nil, fmt.Errorf("position %d: %w", i, err)
		}
		if c2[i], err = c.C2.element(); err != nil {
			return nil, nil, fmt.Errorf("position %d: %w", i, err)
		}
	}
	return c1, c2, nil
}

// deckCache keeps the decoded points of the last few decks a Round has
// decoded, so that a deck verified as one pass's output is not decoded
// again as the next pass's input or for every token dealt from it. Entries
// are matched by content, so a caller that reuses or changes a Deck slice
// never gets stale points. Cached elements are shared: never write to them.
type deckCache struct {
	mu      sync.Mutex
	entries []deckEntry // most recently used first
}

type deckEntry struct {
	deck   Deck // a private copy
	c1, c2 []*ristretto255.Element
}

const deckCacheSize = 4

// elements returns the decoded points of d, decoding it on a miss.
func (c *deckCache) elements(d Deck) (c1, c2 []*ristretto255.Element, err error) {
	c.mu.Lock()
	for i, e := range c.entries {
		if slices.Equal(e.deck, d) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			c.mu.Unlock()
			return e.c1, e.c2, nil
		}
	}
	c.mu.Unlock()
	if c1, c2, err = d.elements(); err != nil {
		return nil, nil, err
	}
	c.add(d, c1, c2)
	return c1, c2, nil
}

// add records the decoded points of d.
func (c *deckCache) add(d Deck, c1, c2 []*ristretto255.Element) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := deckEntry{deck: slices.Clone(d), c1: c1, c2: c2}
	if len(c.entries) < deckCacheSize {
		c.entries = append(c.entries, deckEntry{})
	}
	copy(c.entries[1:], c.entries)
	c.entries[0] = e
}
