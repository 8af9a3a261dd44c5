package crypto

import (
	"crypto/sha256"
)

// Bounds on a round. Decoders reject counts outside them.
const (
	MinParties   = 1  // fewest seats at a table (The Game is played alone too)
	MaxParties   = 5  // most seats at a table
	MinCards     = 2  // smallest deck (a redeal of The Game shuffles the cards not yet played)
	MaxCards     = 98 // largest deck (the 98 cards of The Game)
	MaxDeckIDLen = 64 // longest deck id, in bytes
)

// Params is the public context of one round: every proof of the round is
// bound to it, so that nothing can be replayed into another table, round or
// deck.
type Params struct {
	TableID [32]byte // identifies the table, e.g. a hash of its genesis
	Round   uint64   // round number at the table
	Parties int      // number of seats, MinParties..MaxParties
	Cards   int      // number of cards, MinCards..MaxCards
	DeckID  string   // names the card set; card points are derived from it
}

// Validate reports whether the parameters are within bounds.
func (p Params) Validate() error {
	switch {
	case p.Parties < MinParties || p.Parties > MaxParties:
		return usageError("%d parties, want %d..%d", p.Parties, MinParties, MaxParties)
	case p.Cards < MinCards || p.Cards > MaxCards:
		return usageError("%d cards, want %d..%d", p.Cards, MinCards, MaxCards)
	case len(p.DeckID) == 0 || len(p.DeckID) > MaxDeckIDLen:
		return usageError("deck id of %d bytes, want 1..%d", len(p.DeckID), MaxDeckIDLen)
	}
	return nil
}

const paramsMaxLen = 2 + 32 + 8 + 1 + 1 + 1 + MaxDeckIDLen

func (p *Params) wire(c codec) {
	c.hash(&p.TableID)
	c.u64(&p.Round)
	c.bounded(&p.Parties, "parties", MinParties, MaxParties)
	c.bounded(&p.Cards, "cards", MinCards, MaxCards)
	c.text8(&p.DeckID, "deck id length", 1, MaxDeckIDLen)
}

// MarshalBinary encodes the parameters.
func (p Params) MarshalBinary() ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return encode(kindParams, paramsMaxLen, p.wire), nil
}

// UnmarshalBinary decodes parameters strictly.
func (p *Params) UnmarshalBinary(b []byte) error {
	return decodeInto(p, kindParams, b, paramsMaxLen, (*Params).wire)
}

// digest is the hash of the encoded parameters that every proof binds to.
func (p Params) digest() [32]byte {
	b, err := p.MarshalBinary()
	if err != nil {
		// Invalid parameters never reach a proof: callers validate first.
		// Hash a marker so that the value still differs from any valid one.
		return sha256.Sum256([]byte("njet/crypto/v1/invalid-params"))
	}
	return sha256.Sum256(b)
}
