package crypto

import (
	"errors"
	"testing"

	"github.com/gtank/ristretto255"
)

// wantCheat checks that err is a *CheatError naming seat for check.
func wantCheat(t *testing.T, err error, seat int, check Check) {
	t.Helper()
	var ce *CheatError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a cheat by seat %d", err, seat)
	}
	if ce.Seat != seat || ce.Check != check {
		t.Fatalf("got seat %d check %q (%v), want seat %d check %q", ce.Seat, ce.Check, err, seat, check)
	}
	if !errors.Is(err, check.sentinel()) || !errors.Is(err, ErrCheat) {
		t.Fatalf("%v does not match its sentinels", err)
	}
}

func TestCheatShuffle(t *testing.T) {
	tt := newTable(t, testParams(3, 36), seeded(1))
	in := tt.tr.Shuffles[0].Deck
	honest := must(tt.round.Shuffle(1, in, tt.rand)).of(t)
	if err := tt.round.VerifyShuffle(in, honest); err != nil {
		t.Fatal(err)
	}
	fresh := func() *ShuffleMessage {
		m := *honest
		m.Deck = append(Deck(nil), honest.Deck...)
		return &m
	}
	// A fresh encryption of card 0 under the joint key.
	enc := func(card int) Ciphertext {
		r := must(randomScalar(tt.rand)).of(t)
		c1 := ristretto255.NewElement().ScalarBaseMult(r)
		c2 := ristretto255.NewElement().ScalarMult(r, tt.round.joint)
		c2.Add(c2, cardPoint(tt.p.DeckID, card))
		return Ciphertext{pointOf(c1), pointOf(c2)}
	}
	tests := []struct {
		name   string
		tamper func(m *ShuffleMessage)
		check  Check
	}{
		{"duplicate", func(m *ShuffleMessage) { m.Deck[3] = m.Deck[5] }, CheckShuffle},
		{"replace", func(m *ShuffleMessage) { m.Deck[3] = enc(0) }, CheckShuffle},
		{"drop", func(m *ShuffleMessage) { m.Deck = m.Deck[:35] }, CheckShuffle},
		{"drop and refill", func(m *ShuffleMessage) { m.Deck[0] = enc(7) }, CheckShuffle},
		{"swap after proof", func(m *ShuffleMessage) { m.Deck[1], m.Deck[2] = m.Deck[2], m.Deck[1] }, CheckShuffle},
		{"truncated proof", func(m *ShuffleMessage) { m.Proof = m.Proof[:len(m.Proof)-1] }, CheckShuffle},
		{"flipped proof byte", func(m *ShuffleMessage) {
			m.Proof = append([]byte(nil), m.Proof...)
			m.Proof[100] ^= 1
		}, CheckShuffle},
		{"point off the group", func(m *ShuffleMessage) { m.Deck[4].C2 = Point{0xff, 0xff} }, CheckEncoding},
		{"claimed by another seat", func(m *ShuffleMessage) { m.Seat = 2 }, CheckShuffle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := fresh()
			tc.tamper(m)
			wantCheat(t, tt.round.VerifyShuffle(in, m), m.Seat, tc.check)
		})
	}
	t.Run("replayed into another round", func(t *testing.T) {
		p := tt.p
		p.Round++
		other := must(NewRound(p, rekey(t, tt, p))).of(t)
		// Same keys, same decks: only the round differs.
		wantCheat(t, other.VerifyShuffle(in, honest), 1, CheckShuffle)
	})
	t.Run("replayed into another table", func(t *testing.T) {
		p := tt.p
		p.TableID[0] ^= 1
		other := must(NewRound(p, rekey(t, tt, p))).of(t)
		wantCheat(t, other.VerifyShuffle(in, honest), 1, CheckShuffle)
	})
}

// rekey re-issues the table's keys (same secrets) for other parameters.
func rekey(t *testing.T, tt *table, p Params) []KeyMessage {
	var keys []KeyMessage
	for _, s := range tt.secrets {
		keys = append(keys, *must(s.KeyMessage(p, tt.rand)).of(t))
	}
	return keys
}

func TestCheatKeys(t *testing.T) {
	p := testParams(3, 36)
	rnd := seeded(2)
	var secrets []*Secrets
	var keys []KeyMessage
	for i := range 3 {
		s := must(NewSecrets(i, rnd)).of(t)
		secrets = append(secrets, s)
		keys = append(keys, *must(s.KeyMessage(p, rnd)).of(t))
	}
	t.Run("rogue key without proof", func(t *testing.T) {
		// Seat 2 picks Y2 = T - Y0 - Y1 for a T it knows, so that the joint
		// key is T; it cannot prove knowledge of log Y2.
		target := ristretto255.NewElement().ScalarBaseMult(must(randomScalar(rnd)).of(t))
		y0 := must(keys[0].Key.element()).of(t)
		y1 := must(keys[1].Key.element()).of(t)
		rogue := ristretto255.NewElement().Subtract(target, y0)
		rogue.Subtract(rogue, y1)
		bad := append([]KeyMessage(nil), keys...)
		bad[2].Key = pointOf(rogue)
		_, err := NewRound(p, bad)
		wantCheat(t, err, 2, CheckKeyProof)
	})
	t.Run("proof replayed from another round", func(t *testing.T) {
		q := p
		q.Round++
		_, err := NewRound(q, keys)
		wantCheat(t, err, 0, CheckKeyProof)
	})
	t.Run("proof replayed from another table", func(t *testing.T) {
		q := p
		q.TableID[5] ^= 1
		wantCheat(t, VerifyKey(q, &keys[1]), 1, CheckKeyProof)
	})
	t.Run("proof replayed for another seat", func(t *testing.T) {
		m := keys[0]
		m.Seat = 1
		wantCheat(t, VerifyKey(p, &m), 1, CheckKeyProof)
	})
	t.Run("identity key", func(t *testing.T) {
		m := keys[1]
		m.Key = identity
		wantCheat(t, VerifyKey(p, &m), 1, CheckKeyProof)
	})
	t.Run("point off the group", func(t *testing.T) {
		b := must(keys[1].MarshalBinary()).of(t)
		b[3] ^= 0x80 // the top bit of a canonical encoding is always clear
		var m KeyMessage
		wantCheat(t, m.UnmarshalBinary(b), 1, CheckEncoding)
		m = keys[1]
		m.Key[31] |= 0x80
		wantCheat(t, VerifyKey(p, &m), 1, CheckEncoding)
	})
}

func TestCheatTokens(t *testing.T) {
	tt := newTable(t, testParams(3, 36), seeded(3))
	const pos, to = 4, 1
	honest := must(tt.round.Deal(tt.secrets[0], tt.deck, pos, to, tt.rand)).of(t)

	t.Run("wrong token", func(t *testing.T) {
		// Seat 0 seals a share that is off by a known point, with the
		// proof of the true share.
		tok := must(tt.round.Token(tt.secrets[0], tt.deck, pos, tt.rand)).of(t)
		tok.Share = pointOf(ristretto255.NewElement().Add(must(tok.Share.element()).of(t), cardPoint("x", 1)))
		m := sealRaw(t, tt, 0, to, pos, tok)
		_, err := tt.round.OpenDeal(tt.secrets[to], tt.deck, m)
		wantCheat(t, err, 0, CheckTokenProof)
	})
	t.Run("token replayed for another position", func(t *testing.T) {
		tok := must(tt.round.Token(tt.secrets[0], tt.deck, pos+1, tt.rand)).of(t)
		tok.Position = pos
		wantCheat(t, tt.round.VerifyToken(tt.deck, &tok), 0, CheckTokenProof)
	})
	t.Run("token replayed for another seat", func(t *testing.T) {
		tok := must(tt.round.Token(tt.secrets[0], tt.deck, pos, tt.rand)).of(t)
		tok.Seat = 2
		wantCheat(t, tt.round.VerifyToken(tt.deck, &tok), 2, CheckTokenProof)
	})
	t.Run("token replayed from another round", func(t *testing.T) {
		p := tt.p
		p.Round++
		other := must(NewRound(p, rekey(t, tt, p))).of(t)
		tok := must(tt.round.Token(tt.secrets[2], tt.deck, pos, tt.rand)).of(t)
		wantCheat(t, other.VerifyToken(tt.deck, &tok), 2, CheckTokenProof)
	})
	t.Run("tampered commitment", func(t *testing.T) {
		m := *honest
		m.Commitment[0] ^= 1
		_, err := tt.round.OpenDeal(tt.secrets[to], tt.deck, &m)
		wantCheat(t, err, 0, CheckCommitment)
	})
	t.Run("tampered ciphertext", func(t *testing.T) {
		m := *honest
		m.Ciphertext = append([]byte(nil), m.Ciphertext...)
		m.Ciphertext[40] ^= 1
		_, err := tt.round.OpenDeal(tt.secrets[to], tt.deck, &m)
		wantCheat(t, err, 0, CheckCiphertext)
	})
	t.Run("forwarded token that is not the original", func(t *testing.T) {
		tt.deal(pos, to)
		openings := append([]Opening(nil), tt.openings[pos]...)
		// Seat 1 forwards position 4 to seat 2, but alters seat 0's
		// opening: a different salt no longer opens seat 0's commitment.
		openings[0].Salt[0] ^= 1
		all := append(openings, Opening{Token: must(tt.round.Token(tt.secrets[to], tt.deck, pos, tt.rand)).of(t)})
		m := sealForward(t, tt, to, 2, pos, all)
		_, _, err := tt.round.OpenForward(tt.secrets[2], tt.deck, m, tt.tr.Sealed)
		wantCheat(t, err, to, CheckCommitment)
		// A share that is not the dealt one fails its proof.
		openings[0].Salt[0] ^= 1
		openings[0].Token.Share = openings[1].Token.Share
		all = append(openings[:2:2], all[2])
		m = sealForward(t, tt, to, 2, pos, all)
		_, _, err = tt.round.OpenForward(tt.secrets[2], tt.deck, m, tt.tr.Sealed)
		wantCheat(t, err, to, CheckTokenProof)
	})
	t.Run("played token that is not the original", func(t *testing.T) {
		m := must(tt.round.Play(tt.secrets[to], tt.deck, pos, tt.openings[pos], tt.rand)).of(t)
		m.Openings[2].Token.Share = m.Openings[0].Token.Share
		_, err := tt.round.VerifyPlay(tt.deck, m, tt.tr.Sealed)
		wantCheat(t, err, to, CheckTokenProof)
	})
}

// sealRaw seals an arbitrary token, as a cheating sender would.
func sealRaw(t *testing.T, tt *table, from, to, pos int, tok Token) *Sealed {
	e := &encoder{}
	o := Opening{Token: tok, Salt: [32]byte{1}}
	o.dealPlain(e)
	return must(tt.round.seal(SealDeal, from, to, pos, e.bytes())).of(t)
}

// sealForward seals arbitrary openings, as a cheating forwarder would.
func sealForward(t *testing.T, tt *table, from, to, pos int, all []Opening) *Sealed {
	e := &encoder{}
	forwardPlain(e, &[32]byte{2}, &all, len(all))
	return must(tt.round.seal(SealForward, from, to, pos, e.bytes())).of(t)
}

// TestAuditBlames checks that Audit finds a cheat hidden in a finished
// round and names the seat.
func TestAuditBlames(t *testing.T) {
	base := fullRound(t, 3, 36, 9)
	if err := Audit(&base.tr); err != nil {
		t.Fatal(err)
	}
	clone := func() *Transcript {
		b := must(base.tr.MarshalBinary()).of(t)
		var tr Transcript
		if err := tr.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		return &tr
	}
	tests := []struct {
		name   string
		tamper func(tr *Transcript) int
		check  Check
	}{
		{"bad shuffle", func(tr *Transcript) int {
			d := tr.Shuffles[1].Deck
			d[0], d[1] = d[1], d[0]
			return 1
		}, CheckShuffle},
		{"bad sealed token", func(tr *Transcript) int {
			tr.Sealed[3].Commitment[7] ^= 1
			return tr.Sealed[3].From
		}, CheckCommitment},
		{"false reveal", func(tr *Transcript) int {
			tr.Reveals[2].HPKESeed[0] ^= 1
			return 2
		}, CheckReveal},
		{"missing reveal", func(tr *Transcript) int {
			tr.Reveals = tr.Reveals[:2]
			return 2
		}, CheckMissing},
		{"bad play", func(tr *Transcript) int {
			o := tr.Plays[1].Openings
			o[0].Token.Proof[0] ^= 1
			return tr.Plays[1].Seat
		}, CheckTokenProof},
		{"key proof from another round", func(tr *Transcript) int {
			tr.Params.Round++
			return 0
		}, CheckKeyProof},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := clone()
			seat := tc.tamper(tr)
			wantCheat(t, Audit(tr), seat, tc.check)
		})
	}
}

// TestCheatBatch checks that a bad token hidden in a batch is caught and
// blamed on its seat, and that the first bad token in order is the one
// reported.
func TestCheatBatch(t *testing.T) {
	tt := newTable(t, testParams(4, 36), seeded(4))
	const to = 3
	var sealed []Sealed
	var toks []Token
	for pos := range 12 {
		for from := range 3 {
			sealed = append(sealed, *must(tt.round.Deal(tt.secrets[from], tt.deck, pos, to, tt.rand)).of(t))
			toks = append(toks, must(tt.round.Token(tt.secrets[from], tt.deck, pos, tt.rand)).of(t))
		}
	}
	if _, err := tt.round.OpenDeals(tt.secrets[to], tt.deck, sealed); err != nil {
		t.Fatal(err)
	}
	if err := tt.round.VerifyTokens(tt.deck, toks); err != nil {
		t.Fatal(err)
	}
	t.Run("wrong share", func(t *testing.T) {
		bad := append([]Token(nil), toks...)
		bad[20].Share = bad[21].Share
		wantCheat(t, tt.round.VerifyTokens(tt.deck, bad), bad[20].Seat, CheckTokenProof)
	})
	t.Run("first of two", func(t *testing.T) {
		bad := append([]Token(nil), toks...)
		bad[31].Proof[70] ^= 1
		bad[7].Proof[0], bad[8].Proof[0] = bad[8].Proof[0], bad[7].Proof[0]
		wantCheat(t, tt.round.VerifyTokens(tt.deck, bad), bad[7].Seat, CheckTokenProof)
	})
	t.Run("bad encoding after bad proof", func(t *testing.T) {
		bad := append([]Token(nil), toks...)
		bad[5].Share = bad[4].Share
		bad[9].Share[31] |= 0x80
		wantCheat(t, tt.round.VerifyTokens(tt.deck, bad), bad[5].Seat, CheckTokenProof)
		wantCheat(t, tt.round.VerifyTokens(tt.deck, bad[6:]), bad[9].Seat, CheckEncoding)
	})
	t.Run("errors that cancel", func(t *testing.T) {
		// Two tokens off by opposite amounts: their sum is right, each is
		// wrong.
		bad := append([]Token(nil), toks...)
		delta := cardPoint("x", 2)
		d0 := must(bad[0].Share.element()).of(t)
		d3 := must(bad[3].Share.element()).of(t)
		bad[0].Share = pointOf(ristretto255.NewElement().Add(d0, delta))
		bad[3].Share = pointOf(ristretto255.NewElement().Subtract(d3, delta))
		wantCheat(t, tt.round.VerifyTokens(tt.deck, bad), bad[0].Seat, CheckTokenProof)
	})
	t.Run("bad sealed token in a hand", func(t *testing.T) {
		bad := append([]Sealed(nil), sealed...)
		tok := must(tt.round.Token(tt.secrets[1], tt.deck, bad[25].Position, tt.rand)).of(t)
		tok.Share = pointOf(ristretto255.NewElement().Add(must(tok.Share.element()).of(t), cardPoint("x", 1)))
		bad[25] = *sealRaw(t, tt, 1, to, bad[25].Position, tok)
		bad[30].Ciphertext = append([]byte(nil), bad[30].Ciphertext...)
		bad[30].Ciphertext[40] ^= 1
		_, err := tt.round.OpenDeals(tt.secrets[to], tt.deck, bad)
		wantCheat(t, err, 1, CheckTokenProof)
		_, err = tt.round.OpenDeals(tt.secrets[to], tt.deck, bad[26:])
		wantCheat(t, err, bad[30].From, CheckCiphertext)
	})
}
