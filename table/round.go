package table

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// cryptoRound is the mental-poker state of one crypto round: the round
// keys, the shuffled deck, the sealed tokens of the deal (and of later
// openings to one seat: a Njet pass, The Game's draws), the plays that
// opened positions to everyone and the reveals.
type cryptoRound struct {
	params   crypto.Params
	keys     []crypto.KeyMessage
	cr       *crypto.Round
	deck     crypto.Deck
	shuffles []crypto.ShuffleMessage
	sealed   []crypto.Sealed
	dealt    int // DealTokens of the deal posted so far
	plays    []crypto.PlayMessage
	reveals  []crypto.Reveal
	// hands are the cards dealt to each seat, in seat order from
	// position 0.
	hands []int
	// escrows are each seat's escrow of its round secret, by seat (nil
	// for a seat that dealt without one: a table of two, The Game, a log
	// written before escrows).
	escrows []*crypto.EscrowMessage
	// gone is the seat whose device left while the round went on with
	// its cards recovered from its escrow, or -1; host is the seat whose
	// device plays it and alone learns its cards. recovering are the
	// positions the Recovery envelopes open to the host, recoveryPosted
	// counts those posted.
	gone, host     int
	recovering     []int
	recoveryPosted int

	// Hosted seats only.
	secrets  map[int]*crypto.Secrets
	openings map[int][]crypto.Opening // per position: the tokens a hosted holder received
	// recOpen holds, at the host, the openings of the gone seat's
	// positions that the Recovery envelopes carried.
	recOpen map[int][]crypto.RecoveryOpening
	// bad maps a hosted seat to the index in sealed of the first message
	// to it that did not open: the seat posts a Complaint at its next turn
	// instead of halting alone (which would make it look silent).
	bad map[int]int
}

// revealed returns every seat's round secrets from its reveal; a reveal
// whose secrets do not check names its seat. A seat gone whose cards were
// recovered revealed nothing: its secret is rebuilt from its escrow.
func (rd *cryptoRound) revealed() ([]*crypto.Secrets, *Violation) {
	secrets := make([]*crypto.Secrets, len(rd.reveals))
	for s := range rd.reveals {
		if s == rd.gone {
			continue
		}
		sec, err := rd.cr.Secrets(&rd.reveals[s])
		if err != nil {
			return nil, cryptoViolation(s, err)
		}
		secrets[s] = sec
	}
	if rd.gone >= 0 {
		sec, v := rd.rebuiltSecrets(secrets)
		if v != nil {
			return nil, v
		}
		secrets[rd.gone] = sec
	}
	return secrets, nil
}

// startRound begins the next crypto round: keys, shuffles and tokens, over
// the deck the game's rules deal.
func (g *Game) startRound() {
	g.round++
	id, cards, hands := g.rules.deal()
	g.rd = &cryptoRound{
		params:   crypto.Params{TableID: g.cfg.Table, Round: g.round, Parties: g.n, Cards: cards, DeckID: id},
		hands:    hands,
		escrows:  make([]*crypto.EscrowMessage, g.n),
		gone:     -1,
		host:     -1,
		secrets:  map[int]*crypto.Secrets{},
		openings: map[int][]crypto.Opening{},
		recOpen:  map[int][]crypto.RecoveryOpening{},
		bad:      map[int]int{},
	}
	g.st = stKeys
}

// handStart returns the first position of seat's hand in the deal.
func (g *Game) handStart(seat int) int {
	p := 0
	for s := range seat {
		p += g.rd.hands[s]
	}
	return p
}

// fixedRand is the randomness for computations whose output is never
// published (proofs recomputed to compare keys, tokens rebuilt in the
// audit from revealed secrets).
func fixedRand() *rand.ChaCha8 { return rand.NewChaCha8([32]byte{'n', 'j', 'e', 't'}) }

func (g *Game) applyKey(seat int, body []byte) (*Violation, error) {
	var km crypto.KeyMessage
	if err := parseCrypto(tablelog.KindRoundKey, body, &km); err != nil {
		return nil, err
	}
	rd := g.rd
	if km.Seat != seat {
		return violation(seat, CheckStructure, "a key message for seat %d", km.Seat), nil
	}
	if err := crypto.VerifyKey(rd.params, &km); err != nil {
		return cryptoViolation(seat, err), nil
	}
	if g.cfg.Vault != nil {
		if b, err := g.cfg.Vault.Secret(g.rules.keysName(g.round, seat)); err == nil {
			s := new(crypto.Secrets)
			if err := s.UnmarshalBinary(b); err != nil {
				return private(violation(seat, CheckKeys, "stored secrets: %v", err)), nil
			}
			mine, err := s.KeyMessage(rd.params, fixedRand())
			if err != nil || mine.Key != km.Key || mine.HPKE != km.HPKE || s.Seat() != seat {
				return private(violation(seat, CheckKeys, "the posted key is not the stored one")), nil
			}
			rd.secrets[seat] = s
		}
	}
	rd.keys = append(rd.keys, km)
	if len(rd.keys) < g.n {
		return nil, nil
	}
	cr, err := crypto.NewRound(rd.params, rd.keys)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	deck, err := crypto.InitialDeck(rd.params)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	rd.cr, rd.deck = cr, deck
	g.st = stShuffle
	return nil, nil
}

func (g *Game) applyShuffle(seat int, body []byte) (*Violation, error) {
	var m crypto.ShuffleMessage
	if err := parseCrypto(tablelog.KindShuffle, body, &m); err != nil {
		return nil, err
	}
	rd := g.rd
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a shuffle for seat %d", m.Seat), nil
	}
	err := rd.cr.VerifyShuffle(rd.deck, &m)
	if g.layoutFault != nil {
		err = g.layoutFault
	}
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	rd.shuffles = append(rd.shuffles, m)
	rd.deck = m.Deck
	if len(rd.shuffles) < g.n {
		return nil, nil
	}
	if g.n == 1 {
		// Nobody to give tokens: the seat opens its hand alone.
		g.st = stPlay
		return g.rules.dealt(), nil
	}
	g.st = stDeal
	return nil, nil
}

// dealOrder is the order of the sealed tokens in seat's DealTokens: for
// every other seat in seat order, its hand's positions in order.
func (g *Game) dealOrder(seat int) (to, pos []int) {
	first := 0
	for t, size := range g.rd.hands {
		for p := first; p < first+size && t != seat; p++ {
			to, pos = append(to, t), append(pos, p)
		}
		first += size
	}
	return to, pos
}

func (g *Game) applyDeal(seat int, body []byte) (*Violation, error) {
	sealed, escrow, err := parseDealTokens(body)
	if err != nil {
		return nil, err
	}
	if escrow != nil && !g.escrowed() {
		return nil, fmt.Errorf("%w: an escrow at a table that makes none", tablelog.ErrMalformed)
	}
	to, pos := g.dealOrder(seat)
	if v := g.takeSealed(seat, sealed, to, pos); v != nil {
		return v, nil
	}
	if escrow != nil {
		if v := g.takeEscrow(seat, escrow); v != nil {
			return v, nil
		}
	}
	g.rd.dealt++
	if g.rd.dealt < g.n {
		return nil, nil
	}
	g.st = stPlay
	return g.rules.dealt(), nil
}

// takeTokens takes a DealTokens body of seat that must hold one sealed
// token per position pos[i] to seat to[i], in that order: it checks the
// layout, opens the tokens addressed to the seats this peer hosts and
// keeps them for the round. A token that does not open for a hosted seat
// is noted for the seat's Complaint.
func (g *Game) takeTokens(seat int, body []byte, to, pos []int) (*Violation, error) {
	sealed, err := parseDeal(body)
	if err != nil {
		return nil, err
	}
	return g.takeSealed(seat, sealed, to, pos), nil
}

// takeSealed is takeTokens with the body decoded.
func (g *Game) takeSealed(seat int, sealed []crypto.Sealed, to, pos []int) *Violation {
	rd := g.rd
	if len(sealed) != len(to) {
		return violation(seat, CheckStructure, "%d sealed tokens, want %d", len(sealed), len(to))
	}
	for i := range sealed {
		m := &sealed[i]
		if m.Kind != crypto.SealDeal || m.From != seat || m.To != to[i] || m.Position != pos[i] {
			return violation(seat, CheckStructure, "sealed token %d is %d from %d to %d for position %d",
				i, m.Kind, m.From, m.To, m.Position)
		}
	}
	opened := map[int]crypto.Opening{}
	for i := range sealed {
		m := &sealed[i]
		sec, ok := g.opensFor(m.To)
		if !ok {
			continue
		}
		o, err := rd.cr.OpenDeal(sec, rd.deck, m)
		if err != nil {
			// Only the recipient can see this: it complains publicly at
			// its next turn (applyComplaint) and meanwhile follows the
			// table without that card.
			g.noteBad(m.To, len(rd.sealed)+i)
			continue
		}
		opened[m.Position] = o
	}
	for p, o := range opened {
		rd.openings[p] = append(rd.openings[p], o)
	}
	rd.sealed = append(rd.sealed, sealed...)
	return nil
}

// opensFor returns the round secrets of seat when this peer opens the
// cards sealed to it: it hosts the seat and no token to it has failed.
func (g *Game) opensFor(seat int) (*crypto.Secrets, bool) {
	sec, hosted := g.rd.secrets[seat]
	_, bad := g.rd.bad[seat]
	return sec, hosted && !bad
}

// noteBad records that the sealed message at index i of the round's,
// addressed to hosted seat, did not open; the first one stands.
func (g *Game) noteBad(seat, i int) {
	if _, ok := g.rd.bad[seat]; !ok {
		g.rd.bad[seat] = i
	}
}

// openCard returns the deck index (the card) at position p of seat's hand,
// opened with the tokens this peer received for the hosted seat. A token
// set that does not open it is a violation only this peer sees.
func (g *Game) openCard(seat, p int) (int, *Violation) {
	rd := g.rd
	i, err := rd.cr.Card(rd.secrets[seat], rd.deck, p, rd.openings[p])
	if err != nil {
		return 0, private(violation(seat, CheckTokens, "position %d: %v", p, err))
	}
	if i < 0 || i >= rd.params.Cards {
		return 0, private(violation(seat, CheckTokens, "position %d opens to card %d of %d", p, i, rd.params.Cards))
	}
	return i, nil
}

// verifyPlay checks a play message of seat that opens a position to
// everyone, and returns the deck index it opens.
func (g *Game) verifyPlay(seat int, m *crypto.PlayMessage) (int, *Violation) {
	rd := g.rd
	i, err := rd.cr.VerifyPlay(rd.deck, m, rd.sealed)
	if err != nil {
		return 0, cryptoViolation(seat, err)
	}
	if i < 0 || i >= rd.params.Cards {
		return 0, violation(seat, CheckPosition, "position %d opens to card %d of %d", m.Position, i, rd.params.Cards)
	}
	rd.plays = append(rd.plays, *m)
	return i, nil
}

func (g *Game) applyReveal(seat int, body []byte) (*Violation, error) {
	rv, v, err := g.rules.reveal(seat, body)
	if v != nil || err != nil {
		return v, err
	}
	rd := g.rd
	rd.reveals = append(rd.reveals, *rv)
	if rd.gone >= 0 {
		return g.passGone(), nil
	}
	if len(rd.reveals) < g.n {
		return nil, nil
	}
	return g.rules.audit(), nil
}

// revealSecrets checks seat's revealed round secrets against its round key.
func (g *Game) revealSecrets(seat int, rv *crypto.Reveal) *Violation {
	if rv.Seat != seat {
		return violation(seat, CheckStructure, "a reveal for seat %d", rv.Seat)
	}
	if _, err := g.rd.cr.Secrets(rv); err != nil {
		return cryptoViolation(seat, err)
	}
	return nil
}

// complainable reports whether the seat entitled now may post a Complaint
// instead of its normal envelope: while a deal's sealed messages are in
// play (from the deal tokens to the reveals) and no violation is pending.
// The complaint takes the complainer's own turn, so it never races
// another envelope for a seq. Nobody else can tell whether the seat
// received a bad token, so every entitled seat may.
func (g *Game) complainable() bool {
	return g.gen != nil && g.halt == nil && g.n > 1 && g.rd != nil && g.rd.cr != nil && g.st >= stDeal && g.st <= stReveal
}

// complaint returns the index in the round's sealed messages of the first
// one to hosted seat that did not open, when the seat may complain now.
func (g *Game) complaint(seat int) (int, bool) {
	if !g.complainable() {
		return 0, false
	}
	i, bad := g.rd.bad[g.complainer(seat)]
	return i, bad
}

// complainer is the seat whose sealed messages seat's Complaint concerns:
// the seat itself, or for a recovered seat's bot the host, whose device
// posts for it. A Recovery that does not open for the host is complained
// of at the host's next turn or at the recovered seat's, whichever comes
// first: the recovered seat's card could not be played without it.
func (g *Game) complainer(seat int) int {
	if rd := g.rd; rd != nil && seat == rd.gone && rd.host >= 0 {
		return rd.host
	}
	return seat
}

// Complaining reports whether hosted seat has received a sealed message
// that does not open and will post a Complaint at its turn.
func (g *Game) Complaining(seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, bad := g.complaint(seat)
	return bad
}

// applyComplaint checks a seat's complaint that a sealed message to it
// does not open (judgeComplaint): the round halts either way, naming the
// sender of a message that does not open, or the complainer.
func (g *Game) applyComplaint(seat int, body []byte) (*Violation, error) {
	c, err := parseComplaint(body)
	if err != nil {
		return nil, err
	}
	if !g.complainable() {
		return nil, fmt.Errorf("%w: a complaint outside a deal", tablelog.ErrMalformed)
	}
	return judgeComplaint(g.rd, g.complainer(seat), c)
}

// hosted returns the round secrets of a seat this peer hosts.
func (g *Game) hosted(seat int) (*crypto.Secrets, error) {
	sec, ok := g.rd.secrets[seat]
	if !ok {
		return nil, fmt.Errorf("%w: no round secrets for seat %d", ErrSecretsLost, seat)
	}
	return sec, nil
}

// draftTokens fills d with seat's DealTokens: a token sealed to to[i] for
// position pos[i], in order.
func (g *Game) draftTokens(d *draft, seat int, to, pos []int, rnd io.Reader) error {
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	rd := g.rd
	sealed := make([]*crypto.Sealed, len(to))
	for i := range to {
		if sealed[i], err = rd.cr.Deal(sec, rd.deck, pos[i], to[i], rnd); err != nil {
			return err
		}
	}
	d.kind = tablelog.KindDealTokens
	d.body, err = dealBody(sealed)
	return err
}
