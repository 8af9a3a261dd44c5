package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/njetlan/njet/tablelog"
)

// ErrNotClaimable: a claimant asked for a seat no bot plays that may be
// handed over: a seat its own device plays (a person's), or the seat of a
// cheater, which stays with its bot.
var ErrNotClaimable = errors.New("table: the seat cannot be handed to a claimant")

// A seat a bot plays goes to a device (docs/protocol.md, "Handing a seat
// back, and watchers taking a seat"): a seat the table handed to a bot, to
// the device that played it, back again, or (where the game allows) to a
// watcher; a bot seated from the lobby, to a watcher. The claimant
// publishes a signed SeatClaimRequest; every peer whose own device still
// plays its seat approves it for the crypto round the claim will open
// (SeatApproval), a lobby bot's own peer included, whose approval is its
// consent; the peer playing the seat (the bot's host, or the lobby bot's
// own peer), when the game's rules let the seat change hands, posts a
// SeatClaim carrying the request and every approval in the seat's own
// place, and the claimant's device posts the seat's envelopes from then
// on. A Njet seat changes hands at its key turn in the key setup of a
// deal; a seat of The Game at the start of its turn, before its bot plays
// a card, and the cards not yet played are dealt again. Approvals are
// given automatically: the table has nothing to lose by a seat played by
// a device rather than a bot. Consent is given only by a peer lending its
// seat (PeerConfig.Lend): a person's seat never changes hands.

// claimable reports whether the seat entitled now may be handed to a
// claimant instead of posting its envelope: the game's rules let it change
// hands now, no violation is pending, it did not change hands already at
// this point of the game, and a claim of it can stand (seatClaimable).
func (g *Game) claimable(seat int) bool {
	if g.gen == nil || g.halt != nil || !g.rules.claimAt(seat) {
		return false
	}
	if m, ok := g.changedAt[seat]; ok && m == g.rules.claimMark() {
		return false
	}
	return g.seatClaimable(seat)
}

// seatClaimable reports whether a claim of seat can stand in the log: a
// bot the table seated for silence (not a cheater's), or, where watchers
// may take seats, a seat played by its own key that hosts no bot. The
// second needs that key's consent (approvers), which only a device lending
// its bot gives, so a person's seat never changes hands without its
// device.
func (g *Game) seatClaimable(seat int) bool {
	if seat < 0 || seat >= g.n {
		return false
	}
	if _, bot := g.botHost[seat]; bot {
		return g.handable[seat]
	}
	if g.rules.traits().genesisClaims {
		return false
	}
	for _, h := range g.botHost {
		if h == seat {
			return false // the claimant could not run the bots it hosts
		}
	}
	return true
}

// approvers are the seats whose approval a claim of seat needs: every
// seat still played by its own device. A bot the table seated is played by
// its host's device, so for its seat these are the other seats; a seat
// played by its own key is among them: its approval is its consent.
func (g *Game) approvers(int) []int {
	var out []int
	for s := range g.n {
		if g.peerOf(s) == s {
			out = append(out, s)
		}
	}
	return out
}

// applySeatClaim hands the seat entitled now to the claimant's key: the
// request is signed by that key, which no seat holds now (at a game where
// only the genesis may claim, the seat's genesis key), and every seat
// still played by its own device approved it for the round it opens, in
// seat order (the claimed seat itself among them when its own key plays
// it). The game's rules then go on with the seat's new key.
func (g *Game) applySeatClaim(env *tablelog.Envelope) error {
	c, err := parseSeatClaim(g.cfg.Table, g.rules.claimRound(), env.Body)
	if err != nil {
		return err
	}
	seat := int(c.req.Seat)
	if seat != int(env.Author) || !g.claimable(seat) {
		return fmt.Errorf("%w: a claim of seat %d at seat %d's turn", ErrVote, seat, env.Author)
	}
	if g.rules.traits().genesisClaims && c.req.Key != g.gen.Keys[seat] {
		return fmt.Errorf("%w: seat %d claimed by key %v, which the genesis did not give it", ErrVote, seat, c.req.Key)
	}
	if err := c.check(g.keys, g.approvers(seat)); err != nil {
		return err
	}
	g.keys[seat] = c.req.Key
	delete(g.botHost, seat)
	delete(g.handable, seat)
	g.changedAt[seat] = g.rules.claimMark()
	g.handedBack = append(g.handedBack, HandBack{Seq: env.Seq, Seat: seat, Key: c.req.Key})
	g.rules.claimed(seat)
	return nil
}

// CheckApproval checks a SeatApproval for round against the state now: a
// claim of the seat can stand for the claimant's key, the approver is one
// whose approval a claim needs, the signature the approver's.
func (g *Game) CheckApproval(a *SeatApproval, round uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || a.Table != g.cfg.Table || int(a.Seat) >= g.n || int(a.Approver) >= g.n || a.Deal != round {
		return fmt.Errorf("%w: an approval for round %d", ErrVote, a.Deal)
	}
	if !g.seatClaimable(int(a.Seat)) || !slices.Contains(g.approvers(int(a.Seat)), int(a.Approver)) ||
		g.rules.traits().genesisClaims && a.Key != g.gen.Keys[a.Seat] {
		return fmt.Errorf("%w: seat %d approving a claim of seat %d", ErrVote, a.Approver, a.Seat)
	}
	return a.Verify(g.keys[a.Approver])
}

// Approvers returns the seats whose approval a claim of seat needs now:
// every seat still played by its own device (the claimed seat's own
// approval is its consent).
func (g *Game) Approvers(seat int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil {
		return nil
	}
	return g.approvers(seat)
}

// ClaimRound returns the crypto round that a SeatClaim posted next opens:
// a SeatApproval given now must name it.
func (g *Game) ClaimRound() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.rules == nil {
		return 0
	}
	return g.rules.claimRound()
}

// Claimable reports whether a claimant may ask for seat now: nil while a
// bot the table seated for silence plays it, or (where watchers take
// seats) a bot seated from the lobby (GameConfig.LobbyBots) still plays it
// with its genesis key; ErrOver once the game is over (no deal follows);
// ErrNotClaimable, with the reason, for a seat its own device plays (a
// person, or a device's own seat played by its bot), a lobby bot's seat
// already handed to a claimant, a seat hosting bots, a cheater's, or
// after a violation stopped the table.
func (g *Game) Claimable(seat int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.gen == nil || seat < 0 || seat >= g.n:
		return fmt.Errorf("%w: no seat %d", ErrNotClaimable, seat)
	case g.st == stOver || g.st == stReveal && g.rules.lastDeal():
		return ErrOver
	case g.stopped():
		return fmt.Errorf("%w: the table is halted: %w", ErrNotClaimable, g.halt)
	}
	if _, bot := g.botHost[seat]; bot {
		if !g.handable[seat] {
			return fmt.Errorf("%w: seat %d was taken from a cheater and stays with its bot", ErrNotClaimable, seat)
		}
		return nil
	}
	if g.rules.traits().genesisClaims || !slices.Contains(g.cfg.LobbyBots, seat) || g.keys[seat] != g.gen.Keys[seat] {
		return fmt.Errorf("%w: seat %d is played by its own device, not by a bot", ErrNotClaimable, seat)
	}
	if !g.seatClaimable(seat) {
		return fmt.Errorf("%w: seat %d hosts bots for seats taken over", ErrNotClaimable, seat)
	}
	return nil
}

// CheckClaim checks a SeatClaimRequest heard of: for this table and for
// the deal a claim posted now opens (ClaimRound), signed by the key it
// names, of a seat a claimant may ask for now (Claimable), and
// where only the genesis may claim a seat back, by the seat's genesis key
// (a request by any other key would replace the device's own in a book).
func (g *Game) CheckClaim(req *SeatClaimRequest) error {
	gen := g.Genesis()
	switch {
	case gen == nil || req.Table != g.cfg.Table || int(req.Seat) >= gen.Players():
		return fmt.Errorf("%w: a claim of seat %d", ErrNotClaimable, req.Seat)
	case g.genesisClaims() && req.Key != gen.Keys[req.Seat]:
		return fmt.Errorf("%w: seat %d claimed by a key the genesis did not give it", ErrNotClaimable, req.Seat)
	case req.legacy:
		return fmt.Errorf("%w: a claim of seat %d names no deal", ErrNotClaimable, req.Seat)
	}
	if round := g.ClaimRound(); req.Deal != round {
		// Signed for another deal: an old request replayed, or one
		// overtaken by the table (its claimant signs a new one).
		return fmt.Errorf("%w: a claim of seat %d for deal %d, the claim now opens deal %d", ErrNotClaimable, req.Seat, req.Deal, round)
	}
	if err := req.Verify(); err != nil {
		return err
	}
	return g.Claimable(int(req.Seat))
}

// genesisClaims reports whether only a seat's genesis key may claim it.
func (g *Game) genesisClaims() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rules != nil && g.rules.traits().genesisClaims
}

// claim publishes this peer's request for its own seat while another key
// plays it and a claim of it may stand (a device back after the table took
// its seat over, or a watcher configured with the seat it wants). While
// the peer catches up its log cannot tell yet: it asks anyway, and the
// others keep the request only if their logs say a bot plays the seat.
func (p *Peer) claim(ctx context.Context) {
	game, _, _ := p.state()
	gen := game.Genesis()
	if gen == nil || p.cfg.Seat < 0 || p.cfg.Seat >= gen.Players() {
		return
	}
	err := game.Claimable(p.cfg.Seat)
	if catching := p.CatchingUp(); errors.Is(err, ErrOver) || err != nil && !catching ||
		!catching && game.KeyOf(p.cfg.Seat) == p.id {
		return
	}
	req := &SeatClaimRequest{Table: p.cfg.Table, Deal: game.ClaimRound(), Seat: uint8(p.cfg.Seat), Key: p.id}
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
// approver. It has its own lock.
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
	cur := b.claims[req.Seat]
	if cur == nil || cur.Key != req.Key {
		b.claims[req.Seat] = req
		delete(b.approvals, req.Seat)
	} else if cur.Deal != req.Deal {
		// The same claimant for a later deal: its approvals name their
		// deals and are sorted out by approved.
		b.claims[req.Seat] = req
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

// holds reports whether the book holds approver's approval of the claim
// of seat for round.
func (b *claimBook) holds(seat, approver uint8, round uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.approvals[seat][approver]
	return a != nil && a.Deal == round
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

// approved returns the request held for seat and its approvals for round
// by the seats of want, in that order, once the book holds every one of
// them; nil otherwise.
func (b *claimBook) approved(seat uint8, want []int, round uint64) (*SeatClaimRequest, []*SeatApproval) {
	b.mu.Lock()
	defer b.mu.Unlock()
	req := b.claims[seat]
	held := b.approvals[seat]
	var approvals []*SeatApproval
	for _, s := range want {
		if a := held[uint8(s)]; a != nil && a.Deal == round {
			approvals = append(approvals, a)
		}
	}
	if req == nil || req.Deal != round || len(approvals) != len(want) {
		return nil, nil
	}
	return req, approvals
}

func (p *Peer) receiveClaim(m tablelog.Received) {
	req, err := ParseClaim(m.Data)
	if err != nil {
		return
	}
	game, _, _ := p.state()
	if game.CheckClaim(req) != nil {
		return
	}
	p.book.keep(req)
	p.signal()
}

func (p *Peer) receiveApproval(m tablelog.Received) {
	a, err := ParseApproval(m.Data)
	if err != nil {
		return
	}
	game, _, _ := p.state()
	if game.CheckApproval(a, game.ClaimRound()) != nil {
		return
	}
	p.book.keepApproval(a)
	p.signal()
}

// approve signs, keeps and publishes this peer's approvals of the claims
// it holds: one per seat it plays with its own device's key, for the round
// the claim will open. Its own seat consents to a claim of itself only
// when the peer lends it (PeerConfig.Lend). A claim of a seat that went to
// its claimant, or cannot go to any now, is forgotten: a seat taken over
// again later goes back only on a new request.
//
// With fresh, only approvals not yet held are signed: a claim names the
// deal it opens, so its approvals are made as soon as it comes, not at
// the next poll, by which time a table of bots may have dealt already.
// The poll signs and publishes them all again, as gossip loses messages.
func (p *Peer) approve(ctx context.Context, fresh bool) {
	game, _, _ := p.state()
	if game.Genesis() == nil || game.Over() || p.CatchingUp() {
		return
	}
	round := game.ClaimRound()
	for _, c := range p.book.all() {
		if game.Claimable(int(c.Seat)) != nil || game.KeyOf(int(c.Seat)) == c.Key {
			p.book.forget(c.Seat)
			continue
		}
		if c.Deal != round {
			continue // signed for another deal: its claimant signs anew
		}
		for _, s := range game.Approvers(int(c.Seat)) {
			if !p.hosts(game, s) || s == int(c.Seat) && !p.cfg.Lend || fresh && p.book.holds(c.Seat, uint8(s), round) {
				continue
			}
			key, err := p.keyOf(game, s)
			if err != nil {
				continue
			}
			a := &SeatApproval{Table: p.cfg.Table, Deal: round, Seat: c.Seat, Key: c.Key, Approver: uint8(s)}
			if a.Sign(key) != nil || game.CheckApproval(a, round) != nil {
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

// handBack drafts the SeatClaim this peer posts for a seat it plays when
// the seat may change hands and the peer holds a claim of it with the
// approval of every seat that must approve it; nil otherwise.
func (p *Peer) handBack(game *Game, seq uint64, turn tablelog.Turn) *draft {
	if !slices.Contains(turn.Kinds, tablelog.KindSeatClaim) {
		return nil
	}
	seat := turn.Seat
	req, approvals := p.book.approved(seat, game.Approvers(int(seat)), game.ClaimRound())
	if req == nil {
		return nil
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d hands seat %d back to its claimant at seq %d", p.cfg.Seat, seat, seq)
	}
	return &draft{seq: seq, kind: tablelog.KindSeatClaim, body: seatClaimBody(req, approvals), secrets: map[string][]byte{}}
}
