package crypto

import (
	"crypto/hpke"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// SealKind says what a sealed message carries. Append-only.
type SealKind uint8

// Kinds of sealed message.
const (
	SealDeal    SealKind = 1 // one token for a position dealt to the recipient
	SealForward SealKind = 2 // every token of a position passed to the recipient
)

// Sealed is a message for one recipient that travels through the public
// log: an HPKE ciphertext to the recipient's round key and a hash
// commitment to its plaintext. The plaintext starts with a random salt, so
// the commitment hides it; revealing the plaintext (or the recipient's HPKE
// secret after the round) lets anyone check it.
type Sealed struct {
	Kind       SealKind
	From, To   int
	Position   int
	Commitment [32]byte
	Ciphertext []byte
}

const (
	hpkeOverhead    = 32 + 16 // encapsulated X25519 key and AEAD tag
	dealPlainLen    = 32 + tokenLen
	forwardPlainMax = 32 + 1 + MaxParties*openingLen
	sealedCTMax     = hpkeOverhead + forwardPlainMax
	sealedMaxLen    = 2 + 4 + 32 + 2 + sealedCTMax
)

func (r *Round) sealHeader(kind SealKind, from, to, pos int) []byte {
	return append(r.digest[:len(r.digest):len(r.digest)], byte(kind), byte(from), byte(to), byte(pos))
}

func (r *Round) commitment(kind SealKind, from, to, pos int, plain []byte) [32]byte {
	h := transcriptHash("njet/crypto/v1/commit", r.sealHeader(kind, from, to, pos), plain)
	var c [32]byte
	copy(c[:], h[:32])
	return c
}

func (r *Round) hpkeInfo(kind SealKind, from, to, pos int) []byte {
	h := transcriptHash("njet/crypto/v1/seal", r.sealHeader(kind, from, to, pos))
	return h[:32]
}

// seal encrypts plain (which starts with its salt) from s to seat to. A
// seal that fails because of the recipient's key is that seat's fault: the
// error is a *CheatError naming it (check CheckHPKEKey), so that the caller
// reports the key's owner rather than stopping as if it had failed itself.
// NewRound already refuses such keys; this guards rounds built from keys
// checked by an older version.
func (r *Round) seal(kind SealKind, from, to, pos int, plain []byte) (*Sealed, error) {
	ct, err := hpke.Seal(r.hpke[to], hpkeKDF, hpkeAEAD, r.hpkeInfo(kind, from, to, pos), plain)
	if err != nil {
		var key [32]byte
		if b := r.hpke[to].Bytes(); len(b) != len(key) {
			return nil, cheat(to, CheckHPKEKey, "cannot seal to seat %d: key of %d bytes", to, len(b))
		} else {
			copy(key[:], b)
		}
		if kerr := checkHPKEKey(key); kerr != nil {
			return nil, cheat(to, CheckHPKEKey, "cannot seal to seat %d: %v", to, kerr)
		}
		return nil, fmt.Errorf("crypto: sealing to seat %d: %w", to, err)
	}
	return &Sealed{
		Kind: kind, From: from, To: to, Position: pos,
		Commitment: r.commitment(kind, from, to, pos, plain),
		Ciphertext: ct,
	}, nil
}

// open decrypts m with the recipient's HPKE key and checks the commitment.
// Failures name the sender.
func (r *Round) open(priv hpke.PrivateKey, m *Sealed) ([]byte, error) {
	if err := r.checkSealedHeader(m); err != nil {
		return nil, err
	}
	plain, err := hpke.Open(priv, hpkeKDF, hpkeAEAD, r.hpkeInfo(m.Kind, m.From, m.To, m.Position), m.Ciphertext)
	if err != nil {
		return nil, cheat(m.From, CheckCiphertext, "sealed message for seat %d does not open", m.To)
	}
	if r.commitment(m.Kind, m.From, m.To, m.Position, plain) != m.Commitment {
		return nil, cheat(m.From, CheckCommitment, "sealed message for seat %d does not match its commitment", m.To)
	}
	return plain, nil
}

func (r *Round) checkSealedHeader(m *Sealed) error {
	n := r.params.Parties
	switch {
	case m.From < 0 || m.From >= n:
		return cheat(m.From, CheckParams, "sender seat %d at a table of %d", m.From, n)
	case m.To < 0 || m.To >= n || m.To == m.From:
		return cheat(m.From, CheckParams, "recipient seat %d", m.To)
	case m.Position < 0 || m.Position >= r.params.Cards:
		return cheat(m.From, CheckParams, "position %d", m.Position)
	case m.Kind < SealDeal || m.Kind > SealRecovery:
		return cheat(m.From, CheckParams, "unknown seal kind %d", m.Kind)
	}
	return nil
}

// Deal produces seat s's token for position pos, sealed to seat to, who
// gets the position privately.
func (r *Round) Deal(s *Secrets, deck Deck, pos, to int, rand io.Reader) (*Sealed, error) {
	if to < 0 || to >= r.params.Parties || to == s.seat {
		return nil, usageError("cannot deal to seat %d", to)
	}
	t, err := r.Token(s, deck, pos, rand)
	if err != nil {
		return nil, err
	}
	o := Opening{Token: t}
	if _, err := io.ReadFull(rand, o.Salt[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	return r.seal(SealDeal, s.seat, to, pos, plaintext(dealPlainLen, o.dealPlain))
}

// OpenDeal is run by the recipient of a dealt token: it decrypts m, checks
// the commitment and the token's proof, and returns the opening to keep
// (for the card, a later play or a pass). Failures name the sender.
func (r *Round) OpenDeal(s *Secrets, deck Deck, m *Sealed) (Opening, error) {
	if err := r.checkSecrets(s); err != nil {
		return Opening{}, err
	}
	if m.To != s.seat {
		return Opening{}, usageError("sealed message for seat %d opened by seat %d", m.To, s.seat)
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return Opening{}, err
	}
	return r.openDeal(priv, deck, m)
}

func (r *Round) openDeal(priv hpke.PrivateKey, deck Deck, m *Sealed) (Opening, error) {
	o, err := r.unsealDeal(priv, m)
	if err != nil {
		return Opening{}, err
	}
	if _, err := r.verifyToken(deck, &o.Token); err != nil {
		return Opening{}, err
	}
	return o, nil
}

// unsealDeal decrypts a sealed deal, checks its commitment and decodes the
// token, leaving the token's proof to be verified. Failures name the
// sender.
func (r *Round) unsealDeal(priv hpke.PrivateKey, m *Sealed) (Opening, error) {
	if m.Kind != SealDeal {
		return Opening{}, cheat(m.From, CheckParams, "seal kind %d where a deal was expected", m.Kind)
	}
	o, err := unseal(r, priv, m, (*Opening).dealPlain)
	if err != nil {
		return Opening{}, err
	}
	if o.Token.Seat != m.From || o.Token.Position != m.Position {
		return Opening{}, cheat(m.From, CheckTokenProof, "sealed token of seat %d for position %d", o.Token.Seat, o.Token.Position)
	}
	return o, nil
}

// unseal decrypts m and reads its plaintext into the fields of a fresh T
// that walk lists.
// The decoding is lax: the points of a token are validated when its proof
// is verified, which names the same sender for the same check. Failures
// name the sender.
func unseal[T any](r *Round, priv hpke.PrivateKey, m *Sealed, walk func(*T, codec)) (T, error) {
	var o T
	plain, err := r.open(priv, m)
	if err != nil {
		return o, err
	}
	if err := readPlain(plain, m.From, true, func(c codec) { walk(&o, c) }); err != nil {
		var zero T
		return zero, err
	}
	return o, nil
}

// OpenDeals is OpenDeal for many sealed deals at once, typically all the
// tokens of a hand: it decrypts each and checks its commitment, then checks
// every token's proof in one batch (on several cores for a large batch).
// It returns the openings in the order of ms, or the failure of the first
// bad message in that order, naming its sender, as OpenDeal would.
func (r *Round) OpenDeals(s *Secrets, deck Deck, ms []Sealed) ([]Opening, error) {
	if err := r.checkSecrets(s); err != nil {
		return nil, err
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return nil, err
	}
	for i := range ms {
		if ms[i].To != s.seat {
			return nil, usageError("sealed message for seat %d opened by seat %d", ms[i].To, s.seat)
		}
	}
	out := make([]Opening, len(ms))
	n := len(ms)
	var unsealErr error
	for i := range ms {
		if out[i], err = r.unsealDeal(priv, &ms[i]); err != nil {
			n, unsealErr = i, err
			break
		}
	}
	toks := make([]Token, n)
	for i := range toks {
		toks[i] = out[i].Token
	}
	if err := r.verifyTokensParallel(deck, toks); err != nil {
		return nil, err
	}
	if unsealErr != nil {
		return nil, unsealErr
	}
	return out, nil
}

// Card recovers the card at position pos for its holder s from the
// openings of every other seat (as returned by OpenDeal or OpenForward,
// which have checked them). The holder's own share needs no proof here.
func (r *Round) Card(s *Secrets, deck Deck, pos int, openings []Opening) (int, error) {
	c1, err := r.positionC1(deck, pos)
	if err != nil {
		return 0, err
	}
	if err := r.checkSecrets(s); err != nil {
		return 0, err
	}
	shares := make([]*ristretto255.Element, r.params.Parties)
	shares[s.seat] = ristretto255.NewElement().ScalarMult(&s.key, c1)
	for _, o := range openings {
		t := o.Token
		if t.Seat == s.seat {
			continue
		}
		if t.Seat < 0 || t.Seat >= len(shares) || t.Position != pos || shares[t.Seat] != nil {
			return 0, usageError("opening of seat %d for position %d", t.Seat, t.Position)
		}
		if shares[t.Seat], err = t.Share.element(); err != nil {
			return 0, usageError("opening of seat %d: %v", t.Seat, err)
		}
	}
	for i, D := range shares {
		if D == nil {
			return 0, usageError("no token of seat %d for position %d", i, pos)
		}
	}
	return r.cardOf(deck, pos, shares)
}

// checkOpenings verifies a full set of openings for position pos, one per
// seat, published or forwarded by author: every proof must hold, and every
// salted opening must open the commitment of a sealed deal in log (so the
// token is the very one that was dealt). It returns the card. Failures name
// author, who vouched for the set.
func (r *Round) checkOpenings(deck Deck, pos, author int, openings []Opening, log []Sealed) (int, error) {
	n := r.params.Parties
	if len(openings) != n {
		return 0, cheat(author, CheckMissing, "%d tokens for position %d, want %d", len(openings), pos, n)
	}
	// The common case, everything in order: every proof is checked in one
	// batch. Any failure reruns the checks one by one, so that the failure
	// reported is the first in order, whatever its kind.
	if shares, ok := r.checkOpeningsBatch(deck, pos, openings, log); ok {
		return r.cardOf(deck, pos, shares)
	}
	shares := make([]*ristretto255.Element, n)
	for i := range openings {
		o := &openings[i]
		if o.Token.Seat != i || o.Token.Position != pos {
			return 0, cheat(author, CheckMissing, "token %d is seat %d's for position %d", i, o.Token.Seat, o.Token.Position)
		}
		D, err := r.verifyToken(deck, &o.Token)
		if err != nil {
			return 0, cheat(author, CheckTokenProof, "token of seat %d: %v", i, err)
		}
		shares[i] = D
		if o.Salt != ([32]byte{}) && !r.matchesDeal(o, log) {
			return 0, cheat(author, CheckCommitment, "token of seat %d for position %d is not the one dealt", i, pos)
		}
	}
	return r.cardOf(deck, pos, shares)
}

// checkOpeningsBatch runs the checks of checkOpenings with the proofs
// checked in one batch, and reports whether all of them hold.
func (r *Round) checkOpeningsBatch(deck Deck, pos int, openings []Opening, log []Sealed) ([]*ristretto255.Element, bool) {
	toks := make([]Token, len(openings))
	for i := range openings {
		o := &openings[i]
		if o.Token.Seat != i || o.Token.Position != pos {
			return nil, false
		}
		toks[i] = o.Token
	}
	shares, err := r.verifyTokens(deck, toks)
	if err != nil {
		return nil, false
	}
	for i := range openings {
		if o := &openings[i]; o.Salt != ([32]byte{}) && !r.matchesDeal(o, log) {
			return nil, false
		}
	}
	return shares, true
}

// matchesDeal reports whether o opens the commitment of a sealed deal of
// its seat and position in log.
func (r *Round) matchesDeal(o *Opening, log []Sealed) bool {
	return r.committed(log, SealDeal, o.Token.Seat, -1, o.Token.Position, plaintext(dealPlainLen, o.dealPlain))
}

// committed reports whether log holds a sealed message of the given kind
// from seat from for position pos, to seat to (to any seat when to < 0),
// whose commitment plain opens.
func (r *Round) committed(log []Sealed, kind SealKind, from, to, pos int, plain []byte) bool {
	for i := range log {
		m := &log[i]
		if m.Kind == kind && m.From == from && (to < 0 || m.To == to) && m.Position == pos &&
			m.Commitment == r.commitment(kind, m.From, m.To, m.Position, plain) {
			return true
		}
	}
	return false
}

// Forward passes position pos from its holder s to seat to: it seals every
// seat's token for the position (the openings s received, plus its own
// token with a fresh proof) to the new holder.
func (r *Round) Forward(s *Secrets, deck Deck, pos, to int, openings []Opening, rand io.Reader) (*Sealed, error) {
	if to < 0 || to >= r.params.Parties || to == s.seat {
		return nil, usageError("cannot forward to seat %d", to)
	}
	all, err := r.fullSet(s, deck, pos, openings, rand)
	if err != nil {
		return nil, err
	}
	var salt [32]byte
	if _, err := io.ReadFull(rand, salt[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	plain := plaintext(forwardPlainMax, func(c codec) { forwardPlain(c, &salt, &all, r.params.Parties) })
	return r.seal(SealForward, s.seat, to, pos, plain)
}

// fullSet orders the openings of the other seats by seat and adds s's own
// token; it checks the others' proofs, so that an honest seat never
// vouches for a bad token.
func (r *Round) fullSet(s *Secrets, deck Deck, pos int, openings []Opening, rand io.Reader) ([]Opening, error) {
	all := make([]Opening, r.params.Parties)
	have := make([]bool, r.params.Parties)
	for _, o := range openings {
		t := o.Token
		if t.Seat < 0 || t.Seat >= r.params.Parties || t.Seat == s.seat || t.Position != pos || have[t.Seat] {
			continue
		}
		if err := r.VerifyToken(deck, &t); err != nil {
			return nil, err
		}
		all[t.Seat], have[t.Seat] = o, true
	}
	own, err := r.Token(s, deck, pos, rand)
	if err != nil {
		return nil, err
	}
	all[s.seat], have[s.seat] = Opening{Token: own}, true
	for i, ok := range have {
		if !ok {
			return nil, usageError("no token of seat %d for position %d", i, pos)
		}
	}
	return all, nil
}

// OpenForward is run by the new holder of a passed position: it decrypts
// m, checks its commitment, every token's proof, and that every salted
// token is the original dealt one (against the commitments in log, the
// round's sealed messages so far). It returns the openings to keep and the
// card. Failures name the forwarding seat.
func (r *Round) OpenForward(s *Secrets, deck Deck, m *Sealed, log []Sealed) ([]Opening, int, error) {
	if err := r.checkSecrets(s); err != nil {
		return nil, 0, err
	}
	if m.To != s.seat {
		return nil, 0, usageError("sealed message for seat %d opened by seat %d", m.To, s.seat)
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return nil, 0, err
	}
	return r.openForward(priv, deck, m, log)
}

func (r *Round) openForward(priv hpke.PrivateKey, deck Deck, m *Sealed, log []Sealed) ([]Opening, int, error) {
	if m.Kind != SealForward {
		return nil, 0, cheat(m.From, CheckParams, "seal kind %d where a forward was expected", m.Kind)
	}
	plain, err := r.open(priv, m)
	if err != nil {
		return nil, 0, err
	}
	var salt [32]byte
	var openings []Opening
	if err := readPlain(plain, m.From, false, func(c codec) { forwardPlain(c, &salt, &openings, r.params.Parties) }); err != nil {
		return nil, 0, err
	}
	card, err := r.checkOpenings(deck, m.Position, m.From, openings, log)
	if err != nil {
		return nil, 0, err
	}
	return openings, card, nil
}

// forwardPlain walks the plaintext of a sealed forward: the salt, then the
// openings, one per seat of a table of the given size.
func forwardPlain(c codec, salt *[32]byte, openings *[]Opening, parties int) {
	c.hash(salt)
	list(c, openings, "token count", parties, parties, (*Opening).wire)
}

func (m *Sealed) wire(c codec) {
	c.seat(&m.From)
	c.bounded(&m.To, "recipient", 0, MaxParties-1)
	c.sealKind(&m.Kind)
	c.bounded(&m.Position, "position", 0, MaxCards-1)
	c.hash(&m.Commitment)
	c.blob16(&m.Ciphertext, sealedCTMax)
}

// MarshalBinary encodes the message.
func (m *Sealed) MarshalBinary() ([]byte, error) {
	if len(m.Ciphertext) > sealedCTMax {
		return nil, usageError("ciphertext of %d bytes", len(m.Ciphertext))
	}
	return encode(kindSealed, sealedMaxLen, m.wire), nil
}

// UnmarshalBinary decodes a message strictly.
func (m *Sealed) UnmarshalBinary(b []byte) error {
	return decodeInto(m, kindSealed, b, sealedMaxLen, (*Sealed).wire)
}
