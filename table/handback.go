package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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
	p.book.keep(req)
	b, err := req.MarshalBinary()
	if err != nil {
		return
	}
	if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: publish a seat claim: %v", p.cfg.Seat, err)
	}
}

// claimBook is what a peer holds of the seat claims outside the log: the
// latest request heard of per seat, and the approvals per claimed seat and
// approver. A Njet Peer and a TheGamePeer keep one each; it has its own
// lock.
type claimBook struct {
	mu        sync.Mutex
	claims    map[uint8]*SeatClaimRequest
	approvals map[uint8]map[uint8]*SeatApproval
}

// reset forgets every claim and approval (a peer that rebuilt its log).
func (b *claimBook) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.claims, b.approvals = map[uint8]*SeatClaimRequest{}, map[uint8]map[uint8]*SeatApproval{}
}

// keep keeps a valid request for a bot-played seat (the latest one per
// seat); the approvals of another claimant's request are dropped.
func (b *claimBook) keep(req *SeatClaimRequest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.claims == nil {
		b.claims, b.approvals = map[uint8]*SeatClaimRequest{}, map[uint8]map[uint8]*SeatApproval{}
	}
	if cur := b.claims[req.Seat]; cur == nil || cur.Key != req.Key {
		b.claims[req.Seat] = req
		delete(b.approvals, req.Seat)
	}
}

// keepApproval keeps an approval of the claim the book holds for its seat.
func (b *claimBook) keepApproval(a *SeatApproval) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.claims[a.Seat]; c == nil || c.Key != a.Key {
		return
	}
	if b.approvals[a.Seat] == nil {
		b.approvals[a.Seat] = map[uint8]*SeatApproval{}
	}
	b.approvals[a.Seat][a.Approver] = a
}

// forget drops the request held for seat and its approvals.
func (b *claimBook) forget(seat uint8) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.claims, seat)
	delete(b.approvals, seat)
}

// all returns the requests held, in seat order.
func (b *claimBook) all() []*SeatClaimRequest {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*SeatClaimRequest, 0, len(b.claims))
	for _, c := range b.claims {
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y *SeatClaimRequest) int { return int(x.Seat) - int(y.Seat) })
	return out
}

// approved returns the request held for seat and its approvals for deal by
// the seats of want, in that order, once the book holds every one of
// them; nil otherwise.
func (b *claimBook) approved(seat uint8, want []int, deal uint64) (*SeatClaimRequest, []*SeatApproval) {
	b.mu.Lock()
	defer b.mu.Unlock()
	req := b.claims[seat]
	held := b.approvals[seat]
	var approvals []*SeatApproval
	for _, s := range want {
		if a := held[uint8(s)]; a != nil && a.Deal == deal {
			approvals = append(approvals, a)
		}
	}
	if req == nil || len(approvals) != len(want) {
		return nil, nil
	}
	return req, approvals
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
	p.book.keep(req)
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
	p.book.keepApproval(a)
	p.signal()
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
	for _, c := range p.book.all() {
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
			p.book.keepApproval(a)
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
	req, approvals := p.book.approved(seat, game.Approvers(int(seat)), deal)
	if req == nil {
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
