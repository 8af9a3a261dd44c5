package crypto

import (
	"github.com/gtank/ristretto255"
)

// Reveal is what a seat publishes after the round: its round secrets. With
// every seat's reveal, anyone can open every sealed message of the round
// and re-check it. Keys are per round, so revealing them costs nothing
// later.
type Reveal struct {
	Seat     int
	Key      [32]byte // ElGamal secret scalar
	HPKESeed [32]byte // seed of the HPKE key pair
}

// Reveal returns the secrets to publish once the round is over. Publishing
// them earlier gives away the seat's cards.
func (s *Secrets) Reveal() *Reveal {
	m := &Reveal{Seat: s.seat, HPKESeed: s.hpkeSeed}
	copy(m.Key[:], s.key.Bytes())
	return m
}

// Secrets turns a seat's reveal back into its round Secrets, checking it
// against the round keys first: the revealed scalar must give the seat's
// published key share and the revealed seed its published HPKE key. An
// auditor uses the result to open the seat's sealed messages or to rebuild
// its tokens; failures are *CheatError values naming m.Seat.
func (r *Round) Secrets(m *Reveal) (*Secrets, error) {
	if m.Seat < 0 || m.Seat >= r.params.Parties {
		return nil, cheat(m.Seat, CheckParams, "seat %d at a table of %d", m.Seat, r.params.Parties)
	}
	var x ristretto255.Scalar
	if _, err := x.SetCanonicalBytes(m.Key[:]); err != nil {
		return nil, cheat(m.Seat, CheckEncoding, "non-canonical key scalar")
	}
	s, err := newSecrets(m.Seat, &x, m.HPKESeed)
	if err != nil {
		return nil, cheat(m.Seat, CheckReveal, "HPKE seed: %v", err)
	}
	if s.pub != r.keys[m.Seat].Key {
		return nil, cheat(m.Seat, CheckReveal, "revealed key does not match the published key")
	}
	if string(s.priv.PublicKey().Bytes()) != string(r.keys[m.Seat].HPKE[:]) {
		return nil, cheat(m.Seat, CheckReveal, "revealed HPKE key does not match the published key")
	}
	return s, nil
}

// VerifyReveal checks a reveal against the round keys.
func (r *Round) VerifyReveal(m *Reveal) error {
	_, err := r.Secrets(m)
	return err
}

const revealLen = 2 + 1 + 32 + 32

func (m *Reveal) wire(c codec) {
	c.seat(&m.Seat)
	c.hash(&m.Key)
	c.hash(&m.HPKESeed)
}

// MarshalBinary encodes the message.
func (m *Reveal) MarshalBinary() ([]byte, error) {
	return encode(kindReveal, revealLen, m.wire), nil
}

// UnmarshalBinary decodes a message strictly.
func (m *Reveal) UnmarshalBinary(b []byte) error {
	d := newDecoder(kindReveal, b, revealLen)
	var q Reveal
	q.wire(d)
	if d.err == nil {
		var x ristretto255.Scalar
		if _, err := x.SetCanonicalBytes(q.Key[:]); err != nil {
			d.fail("non-canonical key scalar")
		}
	}
	if err := d.finish(); err != nil {
		return err
	}
	*m = q
	return nil
}

// Transcript collects every public message of a round and the reveals
// that end it, in the order the protocol produces them.
type Transcript struct {
	Params   Params
	Keys     []KeyMessage     // Keys[i] from seat i
	Shuffles []ShuffleMessage // Shuffles[i] is the pass of seat i, in seat order
	Sealed   []Sealed         // sealed deals and forwards, in log order
	Plays    []PlayMessage    // plays, in log order
	Reveals  []Reveal         // Reveals[i] from seat i
}

// Audit re-verifies a whole round: every key proof, every shuffle pass in
// turn, every reveal against the keys, every position of the final deck
// (decrypted with the revealed keys, see AuditDeck), every sealed message
// (opened with the recipient's revealed HPKE key: ciphertext, commitment,
// token proofs, originality of forwarded tokens) and every play. It
// returns nil or the
// first failure, a *CheatError naming the seat responsible. Checks run in
// that order; within a kind, in transcript order.
func Audit(t *Transcript) error {
	p := t.Params
	if err := p.Validate(); err != nil {
		return &CheatError{Seat: -1, Check: CheckParams, Err: err}
	}
	n := p.Parties
	if len(t.Keys) != n {
		return cheat(missingSeat(len(t.Keys), n), CheckMissing, "%d key messages for %d seats", len(t.Keys), n)
	}
	r, err := NewRound(p, t.Keys)
	if err != nil {
		return err
	}
	deck, err := InitialDeck(p)
	if err != nil {
		return err
	}
	for i := range n {
		if i >= len(t.Shuffles) {
			return cheat(i, CheckMissing, "no shuffle pass")
		}
		m := &t.Shuffles[i]
		if m.Seat != i {
			return cheat(m.Seat, CheckMissing, "shuffle pass %d by seat %d", i, m.Seat)
		}
		if err := r.VerifyShuffle(deck, m); err != nil {
			return err
		}
		deck = m.Deck
	}
	if len(t.Shuffles) > n {
		return cheat(t.Shuffles[n].Seat, CheckMissing, "extra shuffle pass")
	}
	if len(t.Reveals) != n {
		return cheat(missingSeat(len(t.Reveals), n), CheckMissing, "%d reveals for %d seats", len(t.Reveals), n)
	}
	secrets := make([]*Secrets, n)
	for i := range t.Reveals {
		m := &t.Reveals[i]
		if m.Seat != i {
			return cheat(m.Seat, CheckMissing, "reveal of seat %d in slot %d", m.Seat, i)
		}
		if secrets[i], err = r.Secrets(m); err != nil {
			return err
		}
	}
	if err := r.AuditDeckSecrets(t.Shuffles, secrets); err != nil {
		return err
	}
	for i := range t.Sealed {
		m := &t.Sealed[i]
		if err := r.checkSealedHeader(m); err != nil {
			return err
		}
		priv, err := secrets[m.To].hpkeKey()
		if err != nil {
			return err
		}
		switch m.Kind {
		case SealDeal:
			_, err = r.openDeal(priv, deck, m)
		case SealForward:
			_, _, err = r.openForward(priv, deck, m, t.Sealed[:i])
		}
		if err != nil {
			return err
		}
	}
	for i := range t.Plays {
		if _, err := r.VerifyPlay(deck, &t.Plays[i], t.Sealed); err != nil {
			return err
		}
	}
	return nil
}

// missingSeat is the first seat without a message when have of want
// messages are present, or -1 when there are too many.
func missingSeat(have, want int) int {
	if have < want {
		return have
	}
	return -1
}

const (
	maxSealedMessages = 2 * MaxParties * MaxCards
	transcriptMaxLen  = 2 + paramsMaxLen + 4 +
		MaxParties*(4+keyMessageLen) + MaxParties*(4+shuffleMessageMaxLen) +
		maxSealedMessages*(4+sealedMaxLen) + MaxCards*(4+playMaxLen) + MaxParties*(4+revealLen) + 16
)

type binaryMessage interface {
	MarshalBinary() ([]byte, error)
}

// MarshalBinary encodes the transcript: the parameters, then each list of
// messages as a count and length-prefixed message encodings.
func (t *Transcript) MarshalBinary() ([]byte, error) {
	e := newEncoder(kindTranscript, 1<<16)
	pb, err := t.Params.MarshalBinary()
	if err != nil {
		return nil, err
	}
	e.blob32(pb)
	lists := [][]binaryMessage{
		listOf(t.Keys), listOf(t.Shuffles), listOf(t.Sealed), listOf(t.Plays), listOf(t.Reveals),
	}
	for _, list := range lists {
		e.u16(len(list))
		for _, m := range list {
			b, err := m.MarshalBinary()
			if err != nil {
				return nil, err
			}
			e.blob32(b)
		}
	}
	return e.bytes(), nil
}

func listOf[T any, P interface {
	*T
	binaryMessage
}](v []T) []binaryMessage {
	out := make([]binaryMessage, len(v))
	for i := range v {
		out[i] = P(&v[i])
	}
	return out
}

// UnmarshalBinary decodes a transcript strictly, bounding every count.
func (t *Transcript) UnmarshalBinary(b []byte) error {
	d := newDecoder(kindTranscript, b, transcriptMaxLen)
	var q Transcript
	if d.err == nil {
		if err := q.Params.UnmarshalBinary(d.blob32(paramsMaxLen)); err != nil && d.err == nil {
			d.err = err
		}
	}
	q.Keys = readList[KeyMessage](d, MaxParties, keyMessageLen)
	q.Shuffles = readList[ShuffleMessage](d, MaxParties, shuffleMessageMaxLen)
	q.Sealed = readList[Sealed](d, maxSealedMessages, sealedMaxLen)
	q.Plays = readList[PlayMessage](d, MaxCards, playMaxLen)
	q.Reveals = readList[Reveal](d, MaxParties, revealLen)
	if err := d.finish(); err != nil {
		return err
	}
	*t = q
	return nil
}

func readList[T any, P interface {
	*T
	UnmarshalBinary([]byte) error
}](d *decoder, maxCount, maxLen int) []T {
	n := d.u16()
	if d.err != nil {
		return nil
	}
	if n > maxCount {
		d.fail("%d messages exceed the limit of %d", n, maxCount)
		return nil
	}
	out := make([]T, n)
	for i := range out {
		b := d.blob32(maxLen)
		if d.err != nil {
			return nil
		}
		if err := P(&out[i]).UnmarshalBinary(b); err != nil {
			d.err = err
			return nil
		}
	}
	return out
}
