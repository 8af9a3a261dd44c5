package table

import (
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// The escrow of a deal and the recovery of a seat gone (docs/protocol.md,
// "A device gone during the tricks"). At a table whose rules recover
// (Njet) and of three seats or more, every seat's DealTokens carries its
// escrow: its round secret split into one share for every other seat.
// When a device leaves during the tricks and it took exactly one seat
// with it, the round is not voided: every other seat but the host of the
// seat's new bot posts a Recovery, sealed to that host, and the host
// plays the seat's cards with RecoveredPlays everyone checks. At the
// reveal the seat gone reveals nothing: its secret is rebuilt from the
// shares the others' reveals open, and the audit runs as for any round.

// recoverer is what rules that can play a gone seat on from the escrow add
// to rules. The core asks it through a type assertion, so a game without
// it (The Game) deals with escrows and recoveries nowhere.
type recoverer interface {
	// forget is told, on every peer, that seat is played on from the
	// escrow: a peer that knew its hand (the seat's own device, still
	// running) forgets it.
	forget(seat int) *Violation
	// recoverable reports whether a seat taken over now may be played on
	// from the escrow rather than the round dealt again.
	recoverable() bool
	// holding returns the positions seat holds now, in order: the
	// positions the others' Recovery envelopes open to the host.
	holding(seat int) []int
	// recoveredHand is told, at the host only, that every opening of the
	// gone seat's positions has come: the rules read its cards.
	recoveredHand(seat int) *Violation
	// revealGone stands for the gone seat's Reveal: what the rules keep of
	// a reveal, derived from the public play.
	revealGone(seat int) *Violation
}

// Recovery is a takeover during the tricks (or at the reveal) that kept
// the round: the seat's device was gone, its cards were recovered from the
// escrow by the device of seat Host, which plays them from then on.
type Recovery struct {
	Seq  uint64 // the VoidSilent
	Seat int
	Host int
}

// escrowed reports whether the deals of this table carry escrows.
func (g *Game) escrowed() bool {
	_, ok := g.rules.(recoverer)
	return ok && g.n >= crypto.MinEscrowParties && !g.noEscrow
}

// takeEscrow takes seat's escrow from its DealTokens: what anyone can
// check of it (crypto VerifyEscrow), then each hosted holder opens its
// share; a share that does not open is noted for the holder's Complaint,
// as a deal token is. The shares join the round's sealed messages.
func (g *Game) takeEscrow(seat int, m *crypto.EscrowMessage) *Violation {
	rd := g.rd
	if m.Seat != seat {
		return violation(seat, CheckStructure, "an escrow of seat %d", m.Seat)
	}
	if err := rd.cr.VerifyEscrow(m); err != nil {
		return cryptoViolation(seat, err)
	}
	for i := range m.Shares {
		to := m.Shares[i].To
		if sec, ok := g.opensFor(to); ok {
			if _, err := rd.cr.OpenEscrow(sec, m); err != nil {
				g.noteBad(to, len(rd.sealed)+i)
			}
		}
	}
	rd.escrows[seat] = m
	rd.sealed = append(rd.sealed, m.Shares...)
	return nil
}

// draftDeal fills d with seat's DealTokens of the deal: its tokens and, at
// a table that escrows, its escrow.
func (g *Game) draftDeal(d *draft, seat int, rnd io.Reader) error {
	to, pos := g.dealOrder(seat)
	if err := g.draftTokens(d, seat, to, pos, rnd); err != nil || !g.escrowed() {
		return err
	}
	sealed, err := parseDeal(d.body)
	if err != nil {
		return err
	}
	m, err := g.rd.cr.Escrow(g.rd.secrets[seat], rnd)
	if err != nil {
		return err
	}
	d.body, err = dealEscrowBody(sealed, m)
	return err
}

// recoverSeat tells whether the takeover of seat, the only seat taken at
// this seq, keeps the round: the seat escrowed its secret, no seat of the
// round was recovered before (its shares died with it), and the rules can
// play on.
func (g *Game) recoverSeat(seat int) bool {
	rc, ok := g.rules.(recoverer)
	rd := g.rd
	return ok && g.escrowed() && rd != nil && rd.cr != nil && rd.gone < 0 && rd.escrows[seat] != nil && rc.recoverable()
}

// recover keeps the round after the takeover of seat at seq: its bot,
// hosted by the device of seat host, plays on with the cards the escrow
// recovers. At the reveal the seat's reveal is passed over.
func (g *Game) recover(seq uint64, seat int) *Violation {
	rd, rc := g.rd, g.rules.(recoverer)
	rd.gone, rd.host = seat, g.peerOf(seat)
	g.recovered = append(g.recovered, Recovery{Seq: seq, Seat: seat, Host: rd.host})
	if g.st == stPlay {
		if v := rc.forget(seat); v != nil {
			return v
		}
	}
	if g.st == stReveal {
		return g.passGone()
	}
	rd.recovering = rc.holding(seat)
	return nil
}

// recoverers are the seats that post a Recovery, in seat order: all but
// the seat gone and its host.
func (g *Game) recoverers() []int {
	var out []int
	for s := range g.n {
		if s != g.rd.gone && s != g.rd.host {
			out = append(out, s)
		}
	}
	return out
}

// recoveryDue returns the seat whose Recovery the table waits for, if any.
func (g *Game) recoveryDue() (int, bool) {
	rd := g.rd
	if rd == nil || rd.gone < 0 || g.st != stPlay {
		return 0, false
	}
	r := g.recoverers()
	if rd.recoveryPosted >= len(r) {
		return 0, false
	}
	return r[rd.recoveryPosted], true
}

// applyRecovery takes seat's Recovery: one sealed recovery to the host for
// each position the gone seat holds, in order. The host opens them (one
// that does not open is noted for its Complaint); once all have come, it
// reads the gone seat's cards.
func (g *Game) applyRecovery(seat int, body []byte) (*Violation, error) {
	due, ok := g.recoveryDue()
	if !ok || due != seat || g.halt != nil {
		return nil, fmt.Errorf("%w: a recovery of seat %d and none is due", tablelog.ErrMalformed, seat)
	}
	sealed, _, err := parseSealed(tablelog.KindRecovery, body, false)
	if err != nil {
		return nil, err
	}
	rd := g.rd
	if len(sealed) != len(rd.recovering) {
		return violation(seat, CheckStructure, "%d sealed recoveries, want %d", len(sealed), len(rd.recovering)), nil
	}
	for i := range sealed {
		m := &sealed[i]
		if m.Kind != crypto.SealRecovery || m.From != seat || m.To != rd.host || m.Position != rd.recovering[i] {
			return violation(seat, CheckStructure, "sealed recovery %d is %d from %d to %d for position %d",
				i, m.Kind, m.From, m.To, m.Position), nil
		}
	}
	if sec, ok := g.opensFor(rd.host); ok {
		m := rd.escrows[rd.gone]
		for i := range sealed {
			o, err := rd.cr.OpenRecovery(sec, m, rd.deck, &sealed[i])
			if err != nil {
				g.noteBad(rd.host, len(rd.sealed)+i)
				continue
			}
			rd.recOpen[o.Token.Position] = append(rd.recOpen[o.Token.Position], o)
		}
	}
	rd.sealed = append(rd.sealed, sealed...)
	rd.recoveryPosted++
	if _, due := g.recoveryDue(); due {
		return nil, nil
	}
	if _, ok := g.opensFor(rd.host); ok {
		return g.rules.(recoverer).recoveredHand(rd.gone), nil
	}
	return nil, nil
}

// draftRecovery fills d with hosted seat's Recovery: for each position the
// gone seat holds, its token and its recovery token sealed to the host.
func (g *Game) draftRecovery(d *draft, seat int, rnd io.Reader) error {
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	rd := g.rd
	m := rd.escrows[rd.gone]
	sh, err := rd.cr.OpenEscrow(sec, m)
	if err != nil {
		return err
	}
	sealed := make([]*crypto.Sealed, len(rd.recovering))
	for i, p := range rd.recovering {
		if sealed[i], err = rd.cr.Recover(sec, sh, m, rd.deck, p, rd.host, rnd); err != nil {
			return err
		}
	}
	d.kind = tablelog.KindRecovery
	d.body, err = dealBody(sealed)
	return err
}

// recoveredOpenings returns, at the host, the openings of position p of
// the gone seat, one per seat but the gone one in seat order: the host's
// own (unsealed) and those the Recoveries carried.
func (g *Game) recoveredOpenings(p int, rnd io.Reader) ([]crypto.RecoveryOpening, error) {
	rd := g.rd
	sec, err := g.hosted(rd.host)
	if err != nil {
		return nil, err
	}
	m := rd.escrows[rd.gone]
	sh, err := rd.cr.OpenEscrow(sec, m)
	if err != nil {
		return nil, err
	}
	own, err := rd.cr.RecoveryOf(sec, sh, m, rd.deck, p, rnd)
	if err != nil {
		return nil, err
	}
	out := append(slices.Clone(rd.recOpen[p]), own)
	if len(out) != g.n-1 {
		return nil, fmt.Errorf("table: %d openings of position %d of seat %d, want %d", len(out), p, rd.gone, g.n-1)
	}
	slices.SortFunc(out, func(a, b crypto.RecoveryOpening) int { return a.Token.Seat - b.Token.Seat })
	return out, nil
}

// recoveredCard opens position p of the gone seat at the host.
func (g *Game) recoveredCard(p int) (int, *Violation) {
	rd := g.rd
	openings, err := g.recoveredOpenings(p, fixedRand())
	if err != nil {
		return 0, private(violation(rd.gone, CheckTokens, "position %d: %v", p, err))
	}
	i, err := rd.cr.RecoveredCard(rd.escrows[rd.gone], rd.deck, p, openings)
	if err != nil {
		return 0, private(violation(rd.gone, CheckTokens, "position %d: %v", p, err))
	}
	return i, nil
}

// verifyRecoveredPlay checks a recovered play of the gone seat, which the
// seat's bot posts: the host opens the position with every other seat's
// token and recovery token. It returns the deck index it opens.
func (g *Game) verifyRecoveredPlay(seat int, p *crypto.RecoveredPlay) (int, *Violation) {
	rd := g.rd
	if rd.gone != seat || p.Owner != seat || p.Seat != rd.host {
		return 0, violation(seat, CheckStructure, "a recovered play of seat %d by seat %d; seat %d's device is gone, seat %d plays it",
			p.Owner, p.Seat, rd.gone, rd.host)
	}
	i, err := rd.cr.VerifyRecoveredPlay(rd.deck, rd.escrows[seat], p, rd.sealed)
	if err != nil {
		// The envelope is the recovered seat's, signed by its bot: the
		// seat is at fault, as for any play, whoever's token failed.
		v := cryptoViolation(seat, err)
		v.Seat = seat
		return 0, v
	}
	if i < 0 || i >= rd.params.Cards {
		return 0, violation(seat, CheckPosition, "position %d opens to card %d of %d", p.Position, i, rd.params.Cards)
	}
	return i, nil
}

// passGone passes over the gone seat's reveal when it comes up: the rules
// derive what they keep of it, and the audit rebuilds its secret from the
// escrow. It may complete the reveals and run the audit.
func (g *Game) passGone() *Violation {
	rd := g.rd
	if len(rd.reveals) == rd.gone {
		if v := g.rules.(recoverer).revealGone(rd.gone); v != nil {
			return v
		}
		rd.reveals = append(rd.reveals, crypto.Reveal{Seat: rd.gone})
	}
	if len(rd.reveals) < g.n {
		return nil
	}
	return g.rules.audit()
}

// revealsBegin starts the reveals after the play; a gone seat first in
// seat order is passed over at once.
func (g *Game) revealsBegin() *Violation {
	g.st = stReveal
	if g.rd.gone >= 0 {
		return g.passGone()
	}
	return nil
}

// rebuiltSecrets rebuilds the gone seat's round secret from the shares of
// its escrow, each opened with its holder's revealed secrets. A share that
// does not open, or does not match, names the seat gone: it escrowed it.
func (rd *cryptoRound) rebuiltSecrets(secrets []*crypto.Secrets) (*crypto.Secrets, *Violation) {
	m := rd.escrows[rd.gone]
	var shares []crypto.EscrowShare
	for j, sec := range secrets {
		if j == rd.gone {
			continue
		}
		sh, err := rd.cr.OpenEscrow(sec, m)
		if err != nil {
			return nil, cryptoViolation(rd.gone, err)
		}
		shares = append(shares, *sh)
	}
	s, err := rd.cr.RecoveredSecrets(m, shares)
	if err != nil {
		return nil, cryptoViolation(rd.gone, err)
	}
	return s, nil
}

// auditSealed opens message i of the round's sealed messages with its
// recipient's revealed secrets. The messages to a seat gone stay closed:
// its HPKE key was never escrowed, and nothing it would have opened was
// needed after it left (the host opened its cards with fresh tokens).
func (rd *cryptoRound) auditSealed(secrets []*crypto.Secrets, i int) error {
	m := &rd.sealed[i]
	if m.To == rd.gone {
		return nil
	}
	var err error
	switch m.Kind {
	case crypto.SealDeal:
		_, err = rd.cr.OpenDeal(secrets[m.To], rd.deck, m)
	case crypto.SealForward:
		_, _, err = rd.cr.OpenForward(secrets[m.To], rd.deck, m, rd.sealed[:i])
	case crypto.SealEscrow:
		_, err = rd.cr.OpenEscrow(secrets[m.To], rd.escrows[m.From])
	case crypto.SealRecovery:
		_, err = rd.cr.OpenRecovery(secrets[m.To], rd.escrows[rd.gone], rd.deck, m)
	default:
		err = fmt.Errorf("sealed message %d of kind %d", i, m.Kind)
	}
	return err
}

// Recovered returns the takeovers that kept their round (the seat's cards
// recovered from the escrow), in order.
func (g *Game) Recovered() []Recovery {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.recovered)
}
