package table

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
)

// A seat handed back at a table of The Game (docs/protocol.md, "Handing a
// seat back at a table of The Game"). A device whose seat the table took
// over for silence comes back (restarted from its store, or its links up
// again): its caught-up log says a bot hosted elsewhere plays its seat, so
// it publishes a SeatClaimRequest signed with the seat's genesis key; every
// seat still played by its own device approves it for the crypto round the
// claim will open (SeatApproval, Deal = ClaimRound). At the start of the
// seat's next turn, before the bot plays a card, the bot's host posts a
// SeatClaim carrying the request and the approvals in the seat's own
// place. The game has a single deal, and the host knew the seat's hand, so
// the claim voids the hidden part of the game exactly as a takeover does:
// the cards not yet played are dealt again by a new crypto round (every
// seat shuffles, the claimant with its own key), each hand of the size it
// held; the piles, the turn, the commands and the signals stay.
//
// Only the key the genesis gave the seat may claim it: a watcher never
// takes a seat of The Game. A seat changes hands once at one point: a
// seat handed back and taken over again before it played a card of that
// turn waits for its next turn. A cheat halts a table of The Game, so no
// seat is ever a cheater's bot; a withheld reveal ends the game, after
// which nothing is handed back.

// redeal voids the hidden part of the game: from the play, the public
// position is kept to resume from; the cards not yet played go to a new
// crypto round, which starts with its round keys. Before the round's play
// begins, the round is dealt again from the same position.
func (g *TheGame) redeal() {
	if g.st == stPlay {
		g.resume = g.publicLocked()
	}
	g.round++
	g.startRound()
	g.st = stKeys
}

// claimRound is the crypto round a SeatClaim made now opens: the
// approvals of a claim name it, so that they stand until the claim, or a
// takeover, deals the cards again.
func (g *TheGame) claimRound() uint64 { return uint64(g.round) + 1 }

// ClaimRound returns the round a SeatApproval given now must name.
func (g *TheGame) ClaimRound() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.claimRound()
}

// handBackable reports whether seat may be handed back now, instead of the
// first envelope of its turn: it is on turn in the play and has played no
// card of the turn, a bot the table seated for silence plays it, it did
// not change hands already at this turn, no violation is pending, and
// enough cards are left to deal again (crypto.MinCards).
func (g *TheGame) handBackable(seat int) bool {
	if g.gen == nil || g.halt != nil || g.st != stPlay || g.phase != thegame.PhasePlay || g.turn != seat || g.pos.Played != 0 {
		return false
	}
	if _, bot := g.botHost[seat]; !bot {
		return false
	}
	if at, ok := g.claimedAt[seat]; ok && at == g.turns {
		return false
	}
	return thegame.DeckSize-g.playedC.Len() >= crypto.MinCards
}

// approvers are the seats whose approval a claim of seat needs: every
// other seat still played by its own device.
func (g *TheGame) approvers(seat int) []int {
	var out []int
	for s := range g.n {
		if s != seat && g.peerOf(s) == s {
			out = append(out, s)
		}
	}
	return out
}

// applySeatClaim hands the seat on turn back to the key its genesis gave
// it and deals the cards not yet played again: the request is signed by
// that key, and every other seat still played by its own device approved
// it for this round, in seat order.
func (g *TheGame) applySeatClaim(env *Envelope) error {
	c, err := parseSeatClaim(g.cfg.Table, g.claimRound(), env.Body)
	if err != nil {
		return err
	}
	seat := int(c.req.Seat)
	if seat != int(env.Author) || !g.handBackable(seat) {
		return fmt.Errorf("%w: a claim of seat %d at seat %d's turn", ErrVote, seat, env.Author)
	}
	if c.req.Key != g.gen.Keys[seat] {
		return fmt.Errorf("%w: seat %d claimed by key %v, which the genesis did not give it", ErrVote, seat, c.req.Key)
	}
	if err := c.check(g.seatKeys, g.approvers(seat)); err != nil {
		return err
	}
	g.seatKeys[seat] = c.req.Key
	delete(g.botHost, seat)
	if g.claimedAt == nil {
		g.claimedAt = map[int]int{}
	}
	g.claimedAt[seat] = g.turns
	g.handedBack = append(g.handedBack, HandBack{Seq: env.Seq, Seat: seat, Key: c.req.Key})
	g.redeal()
	return nil
}

// Claimable reports whether the device the genesis gave seat to may claim
// it now: nil while a bot the table seated for silence plays it; ErrOver
// once the game is over; ErrNotClaimable, with the reason, for a seat its
// own device plays, or after a violation halted the table.
func (g *TheGame) Claimable(seat int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.gen == nil || seat < 0 || seat >= g.n:
		return fmt.Errorf("%w: no seat %d", ErrNotClaimable, seat)
	case g.st >= stReveal:
		return ErrOver
	case g.halt != nil:
		return fmt.Errorf("%w: the table is halted: %w", ErrNotClaimable, g.halt)
	}
	if _, bot := g.botHost[seat]; !bot {
		return fmt.Errorf("%w: seat %d is played by its own device, not by a bot", ErrNotClaimable, seat)
	}
	return nil
}

// CheckApproval checks a SeatApproval for round against the state now: a
// bot plays the seat, the claimant's key is the seat's genesis key, the
// approver is a seat whose approval a claim needs, the signature that
// seat's key's.
func (g *TheGame) CheckApproval(a *SeatApproval, round uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || a.Table != g.cfg.Table || int(a.Seat) >= g.n || int(a.Approver) >= g.n || a.Deal != round {
		return fmt.Errorf("%w: an approval for round %d", ErrVote, a.Deal)
	}
	if _, bot := g.botHost[int(a.Seat)]; !bot || a.Key != g.gen.Keys[a.Seat] ||
		!slices.Contains(g.approvers(int(a.Seat)), int(a.Approver)) {
		return fmt.Errorf("%w: seat %d approving a claim of seat %d", ErrVote, a.Approver, a.Seat)
	}
	return a.Verify(g.seatKeys[a.Approver])
}

// Approvers returns the seats whose approval a claim of seat needs now.
func (g *TheGame) Approvers(seat int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil {
		return nil
	}
	return g.approvers(seat)
}

// KeyOf returns the key that plays seat now (its genesis key, or its
// bot's), or the zero Identity for no such seat.
func (g *TheGame) KeyOf(seat int) Identity {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || seat < 0 || seat >= g.n {
		return Identity{}
	}
	return g.seatKeys[seat]
}

// HandedBack returns the seats handed from a bot back to their device, in
// log order.
func (g *TheGame) HandedBack() []HandBack {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.handedBack)
}

// receiveSide takes a message outside the log from the transport (the
// replica's goroutine): a vote, a seat claim or an approval.
func (p *TheGamePeer) receiveSide(m Received) {
	switch {
	case IsVote(m.Data):
		p.receiveVote(m)
	case IsClaim(m.Data):
		// Only the seat's own genesis key may claim it: a request by any
		// other key would replace the device's own in the book.
		req, err := ParseClaim(m.Data)
		gen := p.Game().Genesis()
		if err != nil || gen == nil || req.Table != p.cfg.Table || int(req.Seat) >= gen.Players() ||
			req.Key != gen.Keys[req.Seat] || req.Verify() != nil || p.Game().Claimable(int(req.Seat)) != nil {
			return
		}
		p.book.keep(req)
	case IsApproval(m.Data):
		a, err := ParseApproval(m.Data)
		if err != nil || p.Game().CheckApproval(a, p.Game().ClaimRound()) != nil {
			return
		}
		p.book.keepApproval(a)
	}
}

// sideMessages publishes the peer's request for its own seat while a bot
// hosted elsewhere plays it and, once the peer has caught up, its
// approvals of the requests it holds. The peer sends them again on every
// tick until the seat is handed back: gossip loses messages.
//
// A restarted peer sends its request before every request of its catch-up
// too (catchUp), before its own log can tell whether the table took its
// seat over: at a table of bots the log may run on faster than the device
// replays and fetches it, and the request is what makes the table wait for
// it (the seat's next turn hands the seat back, and the redeal waits for
// its round key). The others keep a request only for a seat their own log
// says a bot plays, so a request for a seat the device still plays is
// dropped.
func (p *TheGamePeer) sideMessages(ctx context.Context) {
	if p.Done() || p.Game().Genesis() == nil {
		return
	}
	var out [][]byte
	if err := p.Game().Claimable(p.cfg.Seat); err == nil || p.CatchingUp() && !errors.Is(err, ErrOver) {
		if b, err := p.claimOwn(); err == nil {
			out = append(out, b)
		} else if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: a seat claim: %v", p.cfg.Seat, err)
		}
	}
	if p.CatchingUp() {
		p.publish(ctx, out)
		return
	}
	round := p.Game().ClaimRound()
	for _, c := range p.book.all() {
		if p.Game().Claimable(int(c.Seat)) != nil {
			// Handed back, or the game is over: a seat taken over again
			// later goes back only on a new request of its device.
			p.book.forget(c.Seat)
			continue
		}
		for _, s := range p.Game().Approvers(int(c.Seat)) {
			if !p.hosts(s) {
				continue
			}
			key, err := p.keyOf(s)
			if err != nil {
				continue
			}
			a := &SeatApproval{Table: p.cfg.Table, Deal: round, Seat: c.Seat, Key: c.Key, Approver: uint8(s)}
			if a.Sign(key) != nil || p.Game().CheckApproval(a, round) != nil {
				continue
			}
			p.book.keepApproval(a)
			if b, err := a.MarshalBinary(); err == nil {
				out = append(out, b)
			}
		}
	}
	p.publish(ctx, out)
}

// publish sends side messages on the table's transport.
func (p *TheGamePeer) publish(ctx context.Context, out [][]byte) {
	for _, b := range out {
		if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: publish a seat claim or approval: %v", p.cfg.Seat, err)
		}
	}
}

// claimOwn signs and keeps the request for the peer's own seat.
func (p *TheGamePeer) claimOwn() ([]byte, error) {
	id, err := IdentityOf(p.cfg.Key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	req := &SeatClaimRequest{Table: p.cfg.Table, Seat: uint8(p.cfg.Seat), Key: id}
	if err := req.Sign(p.cfg.Key); err != nil {
		return nil, err
	}
	p.book.keep(req)
	return req.MarshalBinary()
}

// handBack drafts the SeatClaim the peer posts for a bot seat it hosts at
// the start of the seat's turn, when it holds a request for the seat and
// the approval of every seat that must approve it; nil otherwise.
func (p *TheGamePeer) handBack(seq uint64, turn Turn) *draft {
	if !slices.Contains(turn.Kinds, KindSeatClaim) {
		return nil
	}
	req, approvals := p.book.approved(turn.Seat, p.Game().Approvers(int(turn.Seat)), p.Game().ClaimRound())
	if req == nil {
		return nil
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d hands seat %d back to its device at seq %d", p.cfg.Seat, turn.Seat, seq)
	}
	return &draft{seq: seq, kind: KindSeatClaim, body: seatClaimBody(req, approvals), secrets: map[string][]byte{}}
}

// dropBots stops the players of the bot seats the peer no longer hosts (a
// seat handed back): a seat taken over again later starts a fresh bot.
func (p *TheGamePeer) dropBots() {
	p.mu.Lock()
	seats := make([]int, 0, len(p.bots))
	for s := range p.bots {
		seats = append(seats, s)
	}
	p.mu.Unlock()
	for _, s := range seats {
		if !p.hosts(s) {
			p.mu.Lock()
			delete(p.bots, s)
			p.mu.Unlock()
		}
	}
}
