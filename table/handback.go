package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrNotClaimable: a claimant asked for a seat no bot plays that may be
// handed over: a seat its own device plays (a person's), or the seat of a
// cheater, which stays with its bot.
var ErrNotClaimable = errors.New("table: the seat cannot be handed to a claimant")

// A seat a bot plays goes to a device at the start of a deal: a seat the
// table handed to a bot, to the device that played it, back again, or to
// a watcher; a bot seated from the lobby, to a watcher. The claimant
// publishes a signed SeatClaimRequest; every peer whose own device still
// plays its seat approves it for the deal about to start (SeatApproval),
// a lobby bot's own peer included, whose approval is its consent; the peer
// playing the seat (the bot's host, or the lobby bot's own peer), at the
// seat's key turn, posts a SeatClaim carrying the request and every
// approval instead of the round key, and the claimant's device posts the
// seat's envelopes from then on. Approvals are given automatically: the
// table has nothing to lose by a seat played by a device rather than a
// bot. Consent is given only by a peer lending its seat
// (PeerConfig.Lend): a person's seat never changes hands.

// claimDeal is the deal whose key setup a claim made now is for: the deal
// under way while its keys are being posted, otherwise the next one.
func claimDeal(game *Game) uint64 {
	game.mu.Lock()
	defer game.mu.Unlock()
	if game.st == stKeys {
		return game.deal
	}
	return game.deal + 1
}

// claim publishes this peer's request for its own seat while another key
// plays it and a claim of it may stand (a device back after the table took
// its seat over, or a watcher configured with the seat it wants).
func (p *Peer) claim(ctx context.Context) {
	game, _, _ := p.state()
	if game.Genesis() == nil || game.Over() || p.cfg.Seat < 0 || p.cfg.Seat >= game.Genesis().Players() {
		return
	}
	if game.Claimable(p.cfg.Seat) != nil || game.KeyOf(p.cfg.Seat) == p.id {
		return
	}
	req := &SeatClaimRequest{Table: p.cfg.Table, Seat: uint8(p.cfg.Seat), Key: p.id}
	if req.Sign(p.cfg.Key) != nil {
		return
	}
	p.keepClaim(req)
	b, err := req.MarshalBinary()
	if err != nil {
		return
	}
	if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: publish a seat claim: %v", p.cfg.Seat, err)
	}
}

// keepClaim keeps a valid request for a bot-played seat (the latest one
// per seat).
func (p *Peer) keepClaim(req *SeatClaimRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.claims[req.Seat]; cur == nil || cur.Key != req.Key {
		p.claims[req.Seat] = req
		delete(p.approvals, req.Seat)
	}
}

func (p *Peer) receiveClaim(m Received) {
	req, err := ParseClaim(m.Data)
	if err != nil || req.Table != p.cfg.Table || req.Verify() != nil {
		return
	}
	game, _, _ := p.state()
	if game.Claimable(int(req.Seat)) != nil {
		return
	}
	p.keepClaim(req)
	p.signal()
}

func (p *Peer) receiveApproval(m Received) {
	a, err := ParseApproval(m.Data)
	if err != nil {
		return
	}
	game, _, _ := p.state()
	if game.CheckApproval(a, claimDeal(game)) != nil {
		return
	}
	p.keepApproval(a)
	p.signal()
}

// keepApproval keeps an approval of the claim this peer holds for its seat.
func (p *Peer) keepApproval(a *SeatApproval) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.claims[a.Seat]; c == nil || c.Key != a.Key {
		return
	}
	if p.approvals[a.Seat] == nil {
		p.approvals[a.Seat] = map[uint8]*SeatApproval{}
	}
	p.approvals[a.Seat][a.Approver] = a
}

// approve signs, keeps and publishes this peer's approvals of the claims
// it holds: one per seat it plays with its own device's key, for the deal
// about to start. Its own seat consents to a claim of itself only when the
// peer lends it (PeerConfig.Lend).
func (p *Peer) approve(ctx context.Context) {
	game, _, _ := p.state()
	if game.Genesis() == nil || game.Over() {
		return
	}
	deal := claimDeal(game)
	p.mu.Lock()
	claims := make([]*SeatClaimRequest, 0, len(p.claims))
	for _, c := range p.claims {
		claims = append(claims, c)
	}
	p.mu.Unlock()
	for _, c := range claims {
		if game.Claimable(int(c.Seat)) != nil || game.KeyOf(int(c.Seat)) == c.Key {
			continue // the seat went to this claim, or cannot go to any now
		}
		for _, s := range game.Approvers(int(c.Seat)) {
			if !p.hosts(game, s) || s == int(c.Seat) && !p.cfg.Lend {
				continue
			}
			key, err := p.keyOf(game, s)
			if err != nil {
				continue
			}
			a := &SeatApproval{Table: p.cfg.Table, Deal: deal, Seat: c.Seat, Key: c.Key, Approver: uint8(s)}
			if a.Sign(key) != nil || game.CheckApproval(a, deal) != nil {
				continue
			}
			p.keepApproval(a)
			if b, err := a.MarshalBinary(); err == nil {
				if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
					p.cfg.Logf("table: seat %d: publish an approval: %v", p.cfg.Seat, err)
				}
			}
		}
	}
}

// handBack drafts the SeatClaim this peer posts at a hosted bot's key
// turn when it holds a claim of that seat and the approval of every seat
// that must approve it for this deal; nil otherwise.
func (p *Peer) handBack(game *Game, seq uint64, turn Turn) *draft {
	if !slices.Contains(turn.Kinds, KindSeatClaim) {
		return nil
	}
	seat := turn.Seat
	deal := game.Deal()
	want := game.Approvers(int(seat))
	p.mu.Lock()
	req := p.claims[seat]
	held := p.approvals[seat]
	var approvals []*SeatApproval
	for _, s := range want {
		if a := held[uint8(s)]; a != nil && a.Deal == deal {
			approvals = append(approvals, a)
		}
	}
	p.mu.Unlock()
	if req == nil || len(approvals) != len(want) {
		return nil
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d hands seat %d back to its claimant at seq %d", p.cfg.Seat, seat, seq)
	}
	return &draft{seq: seq, kind: KindSeatClaim, body: seatClaimBody(req, approvals), secrets: map[string][]byte{}}
}

// Claimable reports whether a claimant may ask for seat now: nil while a
// bot the table seated for silence plays it, or a bot seated from the
// lobby (GameConfig.LobbyBots) still plays it with its genesis key (the
// claim is then handed over at the key setup of the next deal); ErrOver
// once the game is over; ErrNotClaimable, with the reason, for a seat its
// own device plays (a person, or a device's own seat played by its bot),
// a lobby bot's seat already handed to a claimant, a seat hosting bots,
// or a cheater's.
func (g *Game) Claimable(seat int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.gen == nil || seat < 0 || seat >= g.n:
		return fmt.Errorf("%w: no seat %d", ErrNotClaimable, seat)
	case g.st == stOver:
		return ErrOver
	}
	if _, bot := g.botHost[seat]; bot {
		if !g.handable[seat] {
			return fmt.Errorf("%w: seat %d was taken from a cheater and stays with its bot", ErrNotClaimable, seat)
		}
		return nil
	}
	if !slices.Contains(g.cfg.LobbyBots, seat) || g.keys[seat] != g.gen.Keys[seat] {
		return fmt.Errorf("%w: seat %d is played by its own device, not by a bot", ErrNotClaimable, seat)
	}
	if !g.seatClaimable(seat) {
		return fmt.Errorf("%w: seat %d hosts bots for seats taken over", ErrNotClaimable, seat)
	}
	return nil
}
