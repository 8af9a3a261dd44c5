package crypto

import (
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Escrow lets the other seats of a round finish it when one seat's device
// is gone for good.
//
// With n-of-n decryption the positions a seat holds open only with its own
// token, so a seat that vanishes mid-round takes its cards with it: without
// an escrow the round must be dealt again and every trick played so far is
// lost. Before the deck is shuffled, each seat X therefore splits its
// ElGamal secret x into additive shares, one for each other seat j,
// x = sum of s_j, publishes the commitments A_j = s_j*G (whose sum must be
// X's published key Y) and seals each s_j to its holder j (EscrowMessage).
// Each holder checks its share against its commitment (OpenEscrow).
//
// When X is gone, every other seat j sends the seat that now plays X's seat
// (the host of X's bot), for each position X holds, its own decryption
// token and its recovery token R_j = s_j*C1, both with DLEQ proofs, sealed
// to the host (SealRecovery). The recovery tokens add up to X's token
// x*C1, so the host learns X's cards and plays them with a RecoveredPlay
// that everyone checks. After the round each holder publishes its share
// and anyone rebuilds x (RecoveredSecrets) to audit the whole deck.
//
// What it costs in secrecy: all the other seats together can now open X's
// positions; any smaller set of them learns nothing of x, since every share
// short of the last is a uniformly random scalar. That is the threat
// model's bound, "no coalition short of every other seat sees a hand". At
// two seats the single share would be x itself, handing the opponent the
// hand, so an escrow needs three seats or more (MinEscrowParties).

// MinEscrowParties is the smallest table an escrow is made at.
const MinEscrowParties = 3

// Seal kinds of the escrow. Append-only, after SealDeal and SealForward.
const (
	SealEscrow   SealKind = 3 // one escrow share for its holder, inside an EscrowMessage
	SealRecovery SealKind = 4 // a holder's token and recovery token for the host of a seat gone
)

const (
	escrowPlainLen   = 32 + 32 // salt, share scalar
	escrowCTLen      = hpkeOverhead + escrowPlainLen
	recoveryLen      = 1 + tokenLen // owner, token
	recoveryPlainLen = 32 + tokenLen + recoveryLen
	escrowShareLen   = 2 + 2 + 32
	escrowMaxLen     = 2 + 2 + MaxParties*32 + (MaxParties-1)*(32+escrowCTLen)
)

// EscrowMessage is seat Seat's escrow for the round: the commitments to the
// shares of its secret, one per seat (the identity at Seat's own index),
// and the shares sealed to their holders in seat order, Seat skipped.
type EscrowMessage struct {
	Seat   int
	Commit []Point
	Shares []Sealed
}

// EscrowShare is one holder's share of an owner's round secret. The holder
// keeps it as a secret during the round and publishes it after the round
// when the owner could not reveal its own secrets.
type EscrowShare struct {
	Owner, Holder int
	Key           [32]byte // the share scalar s_Holder
}

// Escrow splits seat s's round secret among the other seats and seals each
// share to its holder.
func (r *Round) Escrow(s *Secrets, rand io.Reader) (*EscrowMessage, error) {
	if err := r.checkSecrets(s); err != nil {
		return nil, err
	}
	n := r.params.Parties
	if n < MinEscrowParties {
		return nil, usageError("no escrow at a table of %d seats", n)
	}
	m := &EscrowMessage{Seat: s.seat, Commit: make([]Point, n)}
	m.Commit[s.seat] = identity
	last := -1
	rest := ristretto255.NewScalar().Set(&s.key)
	shares := make([]*ristretto255.Scalar, n)
	for j := range n {
		if j == s.seat {
			continue
		}
		last = j
	}
	for j := range n {
		if j == s.seat {
			continue
		}
		if j == last {
			shares[j] = rest
			break
		}
		v, err := randomScalar(rand)
		if err != nil {
			return nil, err
		}
		shares[j] = v
		rest.Subtract(rest, v)
	}
	for j := range n {
		if j == s.seat {
			continue
		}
		m.Commit[j] = pointOf(ristretto255.NewElement().ScalarBaseMult(shares[j]))
		var salt [32]byte
		if _, err := io.ReadFull(rand, salt[:]); err != nil {
			return nil, fmt.Errorf("crypto: random source: %w", err)
		}
		key := [32]byte(shares[j].Bytes())
		plain := plaintext(escrowPlainLen, func(c codec) { escrowPlain(c, &salt, &key) })
		sealed, err := r.seal(SealEscrow, s.seat, j, 0, plain)
		if err != nil {
			return nil, err
		}
		m.Shares = append(m.Shares, *sealed)
	}
	return m, nil
}

// escrowPlain walks the plaintext of a sealed escrow share: the salt, then
// the share's scalar.
func escrowPlain(c codec, salt, key *[32]byte) {
	c.hash(salt)
	c.hash(key)
}

// VerifyEscrow checks what anyone can check of an escrow: its shape, that
// no share is zero and that the commitments add up to the seat's published
// key. Failures name m.Seat.
func (r *Round) VerifyEscrow(m *EscrowMessage) error {
	_, err := r.escrowCommits(m)
	return err
}

// escrowCommits checks m as VerifyEscrow does and returns the decoded
// commitments (nil at the owner's index).
func (r *Round) escrowCommits(m *EscrowMessage) ([]*ristretto255.Element, error) {
	n := r.params.Parties
	switch {
	case m.Seat < 0 || m.Seat >= n:
		return nil, cheat(m.Seat, CheckParams, "escrow of seat %d at a table of %d", m.Seat, n)
	case n < MinEscrowParties:
		return nil, cheat(m.Seat, CheckParams, "escrow at a table of %d seats", n)
	case len(m.Commit) != n:
		return nil, cheat(m.Seat, CheckMissing, "%d escrow commitments for %d seats", len(m.Commit), n)
	case len(m.Shares) != n-1:
		return nil, cheat(m.Seat, CheckMissing, "%d escrow shares for %d other seats", len(m.Shares), n-1)
	case m.Commit[m.Seat] != identity:
		return nil, cheat(m.Seat, CheckEscrow, "a commitment to a share of its own")
	}
	sum := ristretto255.NewIdentityElement()
	out := make([]*ristretto255.Element, n)
	k := 0
	for j := range n {
		if j == m.Seat {
			continue
		}
		A, err := m.Commit[j].element()
		if err != nil {
			return nil, cheat(m.Seat, CheckEncoding, "escrow commitment for seat %d: %v", j, err)
		}
		if m.Commit[j] == identity {
			return nil, cheat(m.Seat, CheckEscrow, "a zero share for seat %d", j)
		}
		sh := &m.Shares[k]
		k++
		if sh.Kind != SealEscrow || sh.From != m.Seat || sh.To != j || sh.Position != 0 {
			return nil, cheat(m.Seat, CheckEscrow, "share %d is sealed from %d to %d (kind %d, position %d)", k-1, sh.From, sh.To, sh.Kind, sh.Position)
		}
		if len(sh.Ciphertext) != escrowCTLen {
			return nil, cheat(m.Seat, CheckEncoding, "escrow share for seat %d of %d bytes", j, len(sh.Ciphertext))
		}
		out[j] = A
		sum.Add(sum, A)
	}
	if pointOf(sum) != r.keys[m.Seat].Key {
		return nil, cheat(m.Seat, CheckEscrow, "the commitments do not add up to the seat's key")
	}
	return out, nil
}

// OpenEscrow is run by holder s: it opens its share of m and checks it
// against its commitment. Failures name the owner, m.Seat.
func (r *Round) OpenEscrow(s *Secrets, m *EscrowMessage) (*EscrowShare, error) {
	if err := r.checkSecrets(s); err != nil {
		return nil, err
	}
	if s.seat == m.Seat {
		return nil, usageError("seat %d opening its own escrow", s.seat)
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return nil, err
	}
	commits, err := r.escrowCommits(m)
	if err != nil {
		return nil, err
	}
	var sealed *Sealed
	for i := range m.Shares {
		if m.Shares[i].To == s.seat {
			sealed = &m.Shares[i]
		}
	}
	plain, err := r.open(priv, sealed)
	if err != nil {
		return nil, err
	}
	var salt, key [32]byte
	if err := readPlain(plain, m.Seat, false, func(c codec) { escrowPlain(c, &salt, &key) }); err != nil {
		return nil, err
	}
	x, err := ristretto255.NewScalar().SetCanonicalBytes(key[:])
	if err != nil {
		return nil, cheat(m.Seat, CheckEncoding, "escrow share for seat %d: non-canonical scalar", s.seat)
	}
	if ristretto255.NewElement().ScalarBaseMult(x).Equal(commits[s.seat]) != 1 {
		return nil, cheat(m.Seat, CheckEscrow, "escrow share for seat %d does not match its commitment", s.seat)
	}
	sh := &EscrowShare{Owner: m.Seat, Holder: s.seat}
	copy(sh.Key[:], x.Bytes())
	return sh, nil
}

// VerifyEscrowShare checks a share published after the round against the
// owner's escrow. Failures name the holder.
func (r *Round) VerifyEscrowShare(m *EscrowMessage, sh *EscrowShare) error {
	_, err := r.escrowShare(m, sh)
	return err
}

// escrowShare checks sh as VerifyEscrowShare does and returns its scalar.
func (r *Round) escrowShare(m *EscrowMessage, sh *EscrowShare) (*ristretto255.Scalar, error) {
	commits, err := r.escrowCommits(m)
	if err != nil {
		return nil, err
	}
	if sh.Holder < 0 || sh.Holder >= r.params.Parties || sh.Holder == m.Seat || sh.Owner != m.Seat {
		return nil, cheat(sh.Holder, CheckParams, "share of seat %d's escrow held by seat %d", sh.Owner, sh.Holder)
	}
	x, err := ristretto255.NewScalar().SetCanonicalBytes(sh.Key[:])
	if err != nil {
		return nil, cheat(sh.Holder, CheckEncoding, "escrow share: non-canonical scalar")
	}
	if ristretto255.NewElement().ScalarBaseMult(x).Equal(commits[sh.Holder]) != 1 {
		return nil, cheat(sh.Holder, CheckEscrow, "published share of seat %d's escrow does not match its commitment", m.Seat)
	}
	return x, nil
}

// RecoveredSecrets rebuilds the owner's round secret from every other
// seat's share, checked one by one (failures name the holder). The result
// serves audits, such as AuditDeckSecrets; it holds no HPKE key, so the
// messages sealed to the owner stay closed.
func (r *Round) RecoveredSecrets(m *EscrowMessage, shares []EscrowShare) (*Secrets, error) {
	if _, err := r.escrowCommits(m); err != nil {
		return nil, err
	}
	n := r.params.Parties
	have := make([]bool, n)
	x := ristretto255.NewScalar()
	for i := range shares {
		sh := &shares[i]
		v, err := r.escrowShare(m, sh)
		if err != nil {
			return nil, err
		}
		if have[sh.Holder] {
			return nil, cheat(sh.Holder, CheckMissing, "two shares of seat %d's escrow", m.Seat)
		}
		have[sh.Holder] = true
		x.Add(x, v)
	}
	for j := range n {
		if j != m.Seat && !have[j] {
			return nil, cheat(j, CheckMissing, "no share of seat %d's escrow", m.Seat)
		}
	}
	s := &Secrets{seat: m.Seat}
	s.key.Set(x)
	s.pub = pointOf(ristretto255.NewElement().ScalarBaseMult(x))
	if s.pub != r.keys[m.Seat].Key {
		// The commitments add up to the key and every share matches its
		// commitment, so the sum cannot differ.
		return nil, usageError("recovered secret of seat %d does not match its key", m.Seat)
	}
	return s, nil
}

// RecoveryToken is a holder's share of an owner's decryption token for one
// position: Share = s*C1 for the holder's escrow share s, with a DLEQ proof
// against the holder's commitment in the owner's escrow. Token.Seat is the
// holder.
type RecoveryToken struct {
	Owner int
	Token Token
}

// RecoveryOpening is what the host of a seat gone holds for one position
// from one other seat: that seat's own token and its recovery token, with
// the salt of the sealed message that carried them (zero for the host's
// own).
type RecoveryOpening struct {
	Token    Token
	Recovery RecoveryToken
	Salt     [32]byte
}

// recoveryToken computes holder sh.Holder's recovery token for pos.
func (r *Round) recoveryToken(sh *EscrowShare, m *EscrowMessage, deck Deck, pos int, rand io.Reader) (RecoveryToken, error) {
	x, err := r.escrowShare(m, sh)
	if err != nil {
		return RecoveryToken{}, err
	}
	c1, err := r.positionC1(deck, pos)
	if err != nil {
		return RecoveryToken{}, err
	}
	var D, A, B ristretto255.Element
	D.ScalarMult(x, c1)
	t := RecoveryToken{Owner: m.Seat, Token: Token{Seat: sh.Holder, Position: pos, Share: pointOf(&D)}}
	C1 := deck[pos].C1
	k, err := nonce(rand, x, r.digest, "recovery", u8s(m.Seat), C1[:], t.Token.Share[:])
	if err != nil {
		return RecoveryToken{}, err
	}
	A.ScalarBaseMult(k)
	B.ScalarMult(k, c1)
	copy(t.Token.Proof[:32], A.Bytes())
	copy(t.Token.Proof[32:64], B.Bytes())
	c := r.recoveryChallenge(&t, m.Commit[sh.Holder], C1)
	z := ristretto255.NewScalar().Multiply(c, x)
	z.Add(z, k)
	copy(t.Token.Proof[64:], z.Bytes())
	return t, nil
}

func (r *Round) recoveryChallenge(t *RecoveryToken, commit, C1 Point) *ristretto255.Scalar {
	return hashToScalar("njet/crypto/v1/recovery-proof", r.digest[:], u8s(t.Owner, t.Token.Seat, t.Token.Position),
		commit[:], C1[:], t.Token.Share[:], t.Token.Proof[:32], t.Token.Proof[32:64])
}

// VerifyRecoveryToken checks a recovery token against the owner's escrow.
// Failures name the holder, t.Token.Seat.
func (r *Round) VerifyRecoveryToken(m *EscrowMessage, deck Deck, t *RecoveryToken) error {
	_, err := r.verifyRecovery(m, deck, t)
	return err
}

func (r *Round) verifyRecovery(m *EscrowMessage, deck Deck, t *RecoveryToken) (*ristretto255.Element, error) {
	holder := t.Token.Seat
	if t.Owner != m.Seat || holder < 0 || holder >= r.params.Parties || holder == m.Seat {
		return nil, cheat(holder, CheckParams, "recovery token of seat %d for seat %d's escrow", holder, t.Owner)
	}
	commits, err := r.escrowCommits(m)
	if err != nil {
		return nil, err
	}
	if t.Token.Position < 0 || t.Token.Position >= r.params.Cards {
		return nil, cheat(holder, CheckParams, "recovery token for position %d", t.Token.Position)
	}
	c1, err := r.positionC1(deck, t.Token.Position)
	if err != nil {
		return nil, err
	}
	D, err := t.Token.Share.element()
	if err != nil {
		return nil, cheat(holder, CheckEncoding, "recovery token: %v", err)
	}
	var A, B ristretto255.Element
	var z ristretto255.Scalar
	if err := splitTokenProof(&t.Token.Proof, &A, &B, &z); err != nil {
		return nil, cheat(holder, CheckEncoding, "recovery proof: %v", err)
	}
	c := r.recoveryChallenge(t, m.Commit[holder], deck[t.Token.Position].C1)
	// z*G = A + c*A_holder and z*C1 = B + c*D
	var lhs, rhs ristretto255.Element
	lhs.ScalarBaseMult(&z)
	rhs.ScalarMult(c, commits[holder])
	rhs.Add(&rhs, &A)
	if lhs.Equal(&rhs) != 1 {
		return nil, cheat(holder, CheckTokenProof, "recovery proof for position %d does not verify", t.Token.Position)
	}
	lhs.ScalarMult(&z, c1)
	rhs.ScalarMult(c, D)
	rhs.Add(&rhs, &B)
	if lhs.Equal(&rhs) != 1 {
		return nil, cheat(holder, CheckTokenProof, "recovery proof for position %d does not verify", t.Token.Position)
	}
	return D, nil
}

// Recover builds what holder s sends, for position pos of the owner of m,
// to the seat to that now plays the owner's seat: its token and its
// recovery token, sealed. For the host itself (to == s.Seat()) use
// RecoveryOf instead.
func (r *Round) Recover(s *Secrets, sh *EscrowShare, m *EscrowMessage, deck Deck, pos, to int, rand io.Reader) (*Sealed, error) {
	if to < 0 || to >= r.params.Parties || to == s.seat || to == m.Seat {
		return nil, usageError("cannot send a recovery to seat %d", to)
	}
	o, err := r.RecoveryOf(s, sh, m, deck, pos, rand)
	if err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(rand, o.Salt[:]); err != nil {
		return nil, fmt.Errorf("crypto: random source: %w", err)
	}
	return r.seal(SealRecovery, s.seat, to, pos, plaintext(recoveryPlainLen, o.recoveryPlain))
}

// RecoveryOf is holder s's own opening of position pos of m's owner,
// unsealed: the host's part, or the body of what Recover seals.
func (r *Round) RecoveryOf(s *Secrets, sh *EscrowShare, m *EscrowMessage, deck Deck, pos int, rand io.Reader) (RecoveryOpening, error) {
	if sh.Holder != s.seat || sh.Owner != m.Seat {
		return RecoveryOpening{}, usageError("share of seat %d's escrow held by %d used by seat %d", sh.Owner, sh.Holder, s.seat)
	}
	t, err := r.Token(s, deck, pos, rand)
	if err != nil {
		return RecoveryOpening{}, err
	}
	rt, err := r.recoveryToken(sh, m, deck, pos, rand)
	if err != nil {
		return RecoveryOpening{}, err
	}
	return RecoveryOpening{Token: t, Recovery: rt}, nil
}

// OpenRecovery is run by the host s: it opens a sealed recovery and checks
// both proofs. Failures name the sender.
func (r *Round) OpenRecovery(s *Secrets, m *EscrowMessage, deck Deck, sealed *Sealed) (RecoveryOpening, error) {
	if err := r.checkSecrets(s); err != nil {
		return RecoveryOpening{}, err
	}
	if sealed.To != s.seat {
		return RecoveryOpening{}, usageError("sealed message for seat %d opened by seat %d", sealed.To, s.seat)
	}
	if sealed.Kind != SealRecovery {
		return RecoveryOpening{}, cheat(sealed.From, CheckParams, "seal kind %d where a recovery was expected", sealed.Kind)
	}
	priv, err := s.hpkeKey()
	if err != nil {
		return RecoveryOpening{}, err
	}
	o, err := unseal(r, priv, sealed, (*RecoveryOpening).recoveryPlain)
	if err != nil {
		return RecoveryOpening{}, err
	}
	if o.Token.Seat != sealed.From || o.Recovery.Token.Seat != sealed.From ||
		o.Token.Position != sealed.Position || o.Recovery.Token.Position != sealed.Position {
		return RecoveryOpening{}, cheat(sealed.From, CheckTokenProof, "sealed recovery of seat %d/%d for positions %d/%d",
			o.Token.Seat, o.Recovery.Token.Seat, o.Token.Position, o.Recovery.Token.Position)
	}
	if err := r.checkRecoveryOpening(m, deck, &o); err != nil {
		return RecoveryOpening{}, err
	}
	return o, nil
}

// checkRecoveryOpening checks both proofs of o. Failures name its seat.
func (r *Round) checkRecoveryOpening(m *EscrowMessage, deck Deck, o *RecoveryOpening) error {
	if _, err := r.verifyToken(deck, &o.Token); err != nil {
		return err
	}
	_, err := r.verifyRecovery(m, deck, &o.Recovery)
	return err
}

// RecoveredPlay opens a position of a seat gone for everyone: the host
// publishes, for every other seat in seat order, its token and its
// recovery token.
type RecoveredPlay struct {
	Seat     int // the host, who plays the position
	Owner    int // the seat gone, whose position it is
	Position int
	Openings []RecoveryOpening // one per seat but Owner, in seat order
}

// recoveredShares checks a full set of openings of pos for m's owner, one
// per other seat in seat order, and returns the decryption shares (the
// owner's the sum of the recovery tokens). Failures name author.
func (r *Round) recoveredShares(m *EscrowMessage, deck Deck, pos, author int, openings []RecoveryOpening) ([]*ristretto255.Element, error) {
	n := r.params.Parties
	if len(openings) != n-1 {
		return nil, cheat(author, CheckMissing, "%d recovery openings for position %d, want %d", len(openings), pos, n-1)
	}
	shares := make([]*ristretto255.Element, n)
	owner := ristretto255.NewIdentityElement()
	k := 0
	for j := range n {
		if j == m.Seat {
			continue
		}
		o := &openings[k]
		k++
		if o.Token.Seat != j || o.Recovery.Token.Seat != j || o.Token.Position != pos || o.Recovery.Token.Position != pos || o.Recovery.Owner != m.Seat {
			return nil, cheat(author, CheckMissing, "recovery opening %d is seat %d's for position %d", k-1, o.Token.Seat, o.Token.Position)
		}
		D, err := r.verifyToken(deck, &o.Token)
		if err != nil {
			return nil, cheat(author, CheckTokenProof, "token of seat %d: %v", j, err)
		}
		R, err := r.verifyRecovery(m, deck, &o.Recovery)
		if err != nil {
			return nil, cheat(author, CheckTokenProof, "recovery token of seat %d: %v", j, err)
		}
		shares[j] = D
		owner.Add(owner, R)
	}
	shares[m.Seat] = owner
	return shares, nil
}

// RecoveredCard is the host's reading of position pos of m's owner from a
// full set of openings (its own from RecoveryOf, the others' from
// OpenRecovery), one per seat but the owner, in seat order.
func (r *Round) RecoveredCard(m *EscrowMessage, deck Deck, pos int, openings []RecoveryOpening) (int, error) {
	shares, err := r.recoveredShares(m, deck, pos, -1, openings)
	if err != nil {
		return 0, err
	}
	return r.cardOf(deck, pos, shares)
}

// VerifyRecoveredPlay checks a recovered play against the owner's escrow
// and the round's sealed recoveries so far (a salted opening must open the
// commitment of one of them), and returns the card. Failures name p.Seat.
func (r *Round) VerifyRecoveredPlay(deck Deck, m *EscrowMessage, p *RecoveredPlay, log []Sealed) (int, error) {
	n := r.params.Parties
	if p.Seat < 0 || p.Seat >= n || p.Seat == m.Seat || p.Owner != m.Seat {
		return 0, cheat(p.Seat, CheckParams, "recovered play by seat %d of seat %d's position", p.Seat, p.Owner)
	}
	if p.Position < 0 || p.Position >= r.params.Cards {
		return 0, cheat(p.Seat, CheckParams, "position %d", p.Position)
	}
	shares, err := r.recoveredShares(m, deck, p.Position, p.Seat, p.Openings)
	if err != nil {
		return 0, err
	}
	for i := range p.Openings {
		o := &p.Openings[i]
		if o.Salt != ([32]byte{}) && !r.matchesRecovery(o, p.Seat, log) {
			return 0, cheat(p.Seat, CheckCommitment, "recovery of seat %d for position %d is not the one sent", o.Token.Seat, p.Position)
		}
	}
	return r.cardOf(deck, p.Position, shares)
}

// matchesRecovery reports whether o opens the commitment of a sealed
// recovery from its seat to host in log.
func (r *Round) matchesRecovery(o *RecoveryOpening, host int, log []Sealed) bool {
	return r.committed(log, SealRecovery, o.Token.Seat, host, o.Token.Position, plaintext(recoveryPlainLen, o.recoveryPlain))
}

func (t *RecoveryToken) wire(c codec) {
	c.bounded(&t.Owner, "owner", 0, MaxParties-1)
	t.Token.wire(c)
}

// wire walks a recovery opening in place, in a recovered play.
func (o *RecoveryOpening) wire(c codec) {
	o.Token.wire(c)
	o.Recovery.wire(c)
	c.hash(&o.Salt)
}

// recoveryPlain walks the plaintext of a sealed recovery: the salt, then
// the token and the recovery token.
func (o *RecoveryOpening) recoveryPlain(c codec) {
	c.hash(&o.Salt)
	o.Token.wire(c)
	o.Recovery.wire(c)
}

// wire walks the message: of the sealed shares only the commitments and
// ciphertexts, in seat order. The owner's own commitment is read as it
// stands; VerifyEscrow requires the identity there.
func (m *EscrowMessage) wire(c codec) {
	c.seat(&m.Seat)
	n := len(m.Commit)
	c.bounded(&n, "seats", MinEscrowParties, MaxParties)
	c.check(m.Seat < n, "seat %d at a table of %d", m.Seat, n)
	if !c.ok() {
		return
	}
	sized(&m.Commit, n)
	for j := range m.Commit {
		if j == m.Seat {
			c.hash((*[32]byte)(&m.Commit[j]))
		} else {
			c.point(&m.Commit[j])
		}
	}
	sized(&m.Shares, n-1)
	for i := range m.Shares {
		c.hash(&m.Shares[i].Commitment)
		c.raw(&m.Shares[i].Ciphertext, escrowCTLen)
	}
}

// MarshalBinary encodes the message.
func (m *EscrowMessage) MarshalBinary() ([]byte, error) {
	n := len(m.Commit)
	if n < MinEscrowParties || n > MaxParties || len(m.Shares) != n-1 {
		return nil, usageError("malformed escrow message")
	}
	for i := range m.Shares {
		if len(m.Shares[i].Ciphertext) != escrowCTLen {
			return nil, usageError("escrow share of %d bytes", len(m.Shares[i].Ciphertext))
		}
	}
	return encode(kindEscrow, escrowMaxLen, m.wire), nil
}

// UnmarshalBinary decodes a message strictly. The sealed shares' headers
// follow from the owner and the seat order.
func (m *EscrowMessage) UnmarshalBinary(b []byte) error {
	var q EscrowMessage
	if err := decode(kindEscrow, b, escrowMaxLen, q.wire); err != nil {
		return err
	}
	for i := range q.Shares {
		sh := &q.Shares[i]
		sh.Kind, sh.From, sh.To = SealEscrow, q.Seat, i
		if i >= q.Seat { // the owner holds no share of its own
			sh.To++
		}
	}
	*m = q
	return nil
}

func (sh *EscrowShare) wire(c codec) {
	c.bounded(&sh.Owner, "owner", 0, MaxParties-1)
	c.seat(&sh.Holder)
	c.hash(&sh.Key)
}

// MarshalBinary encodes the share.
func (sh *EscrowShare) MarshalBinary() ([]byte, error) {
	return encode(kindEscrowShare, escrowShareLen, sh.wire), nil
}

// UnmarshalBinary decodes a share strictly; the scalar must be canonical.
func (sh *EscrowShare) UnmarshalBinary(b []byte) error {
	d := newDecoder(kindEscrowShare, b, escrowShareLen)
	var q EscrowShare
	q.wire(d)
	if d.err == nil {
		if _, err := ristretto255.NewScalar().SetCanonicalBytes(q.Key[:]); err != nil {
			d.fail("non-canonical share scalar")
		}
	}
	if err := d.finish(); err != nil {
		return err
	}
	*sh = q
	return nil
}

// String hides the share's scalar.
func (sh *EscrowShare) String() string {
	return fmt.Sprintf("crypto.EscrowShare{owner %d, holder %d}", sh.Owner, sh.Holder)
}

const recoveredPlayMaxLen = 2 + 4 + (MaxParties-1)*(tokenLen+recoveryLen+32)

func (p *RecoveredPlay) wire(c codec) {
	c.seat(&p.Seat)
	c.bounded(&p.Owner, "owner", 0, MaxParties-1)
	c.bounded(&p.Position, "position", 0, MaxCards-1)
	list(c, &p.Openings, "opening count", MinEscrowParties-1, MaxParties-1, (*RecoveryOpening).wire)
}

// MarshalBinary encodes the message.
func (p *RecoveredPlay) MarshalBinary() ([]byte, error) {
	if len(p.Openings) < MinEscrowParties-1 || len(p.Openings) > MaxParties-1 {
		return nil, usageError("%d recovery openings", len(p.Openings))
	}
	return encode(kindRecoveredPlay, recoveredPlayMaxLen, p.wire), nil
}

// UnmarshalBinary decodes a message strictly.
func (p *RecoveredPlay) UnmarshalBinary(b []byte) error {
	return decodeInto(p, kindRecoveredPlay, b, recoveredPlayMaxLen, (*RecoveredPlay).wire)
}
