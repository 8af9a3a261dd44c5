package table

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
)

// A takeover at a table of The Game (docs/protocol.md, "Leaving devices at
// a table of The Game"). The devices still present vote and decide as at
// a Njet table: a VoidSilent at the silent seat's seq carries a signed
// vote of every seat still played, its author is one of the voters, and
// every seat without a vote gets a bot hosted by the author's device. What
// it voids is the hidden part of the game: the crypto round. The piles,
// the turn and what it has done, the signals and the hand sizes stay; the
// cards not yet played, public because every played card is, become a new
// smaller deck that every seat shuffles again (the bots with their new
// keys), each seat gets a new hand of the size it held and the rest is the
// draw pile. A takeover before the round's play begins deals that round
// again.

// startRound begins a crypto round over g.cards (every card at the first
// round): keys, shuffle and deal start afresh. The public state stays.
func (g *TheGame) startRound() {
	if g.round == 1 {
		g.cards = thegame.Deck()
	} else {
		g.cards = g.cards[:0:0]
		for _, c := range thegame.Deck() {
			if !g.playedC.Has(c) {
				g.cards = append(g.cards, c)
			}
		}
	}
	m := len(g.cards)
	id := fmt.Sprintf("thegame/%d", g.n)
	if g.round > 1 {
		id = fmt.Sprintf("thegame/%d/redeal", g.n)
	}
	g.params = crypto.Params{TableID: g.cfg.Table, Round: uint64(g.round), Parties: g.n, Cards: m, DeckID: id}
	g.sizes = make([]int, g.n)
	for s := range g.n {
		g.sizes[s] = g.h
		if g.resume != nil {
			g.sizes[s] = g.resume.HandSizes[s]
		}
	}
	g.cr, g.deck = nil, nil
	g.keys, g.shuffles, g.sealed, g.plays, g.reveals = nil, nil, nil, nil, nil
	g.dealt, g.drawn, g.due, g.givers = 0, 0, 0, 0
	g.secrets = map[int]*crypto.Secrets{}
	g.openings = map[int][]crypto.Opening{}
	g.bad = map[int]int{}
	g.known = map[int]thegame.Card{}
	g.holder = slices.Repeat([]int{-1}, m)
	g.played = make([]bool, m)
	g.record = nil
}

// voidable reports whether the seat entitled now may be taken over for
// staying silent: with more than one seat and no violation, from the
// acknowledgements to the end of the play, while at least two cards are
// left to deal again (crypto.MinCards), and during the reveals after the
// game, where a takeover ends the table with the result not verified
// (applyWithheld).
func (g *TheGame) voidable() bool {
	if g.gen == nil || g.halt != nil || g.n < 2 {
		return false
	}
	if g.st == stReveal {
		return true
	}
	if thegame.DeckSize-g.playedC.Len() < crypto.MinCards {
		return false
	}
	return g.st >= stAcks && g.st <= stPlay
}

// peerOf returns the seat whose device posts for seat: the host of its
// bot, or the seat itself.
func (g *TheGame) peerOf(seat int) int {
	if h, ok := g.botHost[seat]; ok {
		return h
	}
	return seat
}

// PeerOf returns the seat whose device posts for seat.
func (g *TheGame) PeerOf(seat int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peerOf(seat)
}

// Takeovers returns one violation (CheckSilent) per takeover so far, with
// its seq and the silent seat.
func (g *TheGame) Takeovers() []*Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.voids)
}

// checkVote checks a SilenceVote against the state at seq g.next, whose
// previous envelope hashes to prev.
func (g *TheGame) checkVote(v *SilenceVote, prev Hash) error {
	if g.gen == nil {
		return fmt.Errorf("%w: before the genesis", ErrVote)
	}
	if v.Table != g.cfg.Table || v.Seq != g.next || v.Prev != prev {
		return fmt.Errorf("%w: a vote for seq %d of table %v, this log is at %d of %v", ErrVote, v.Seq, v.Table, g.next, g.cfg.Table)
	}
	seat, _, err := g.turnLocked()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	if int(v.Silent) != seat || !g.voidable() {
		return fmt.Errorf("%w: a vote against seat %d, seat %d is entitled at seq %d", ErrVote, v.Silent, seat, v.Seq)
	}
	if int(v.Voter) >= g.n || v.Voter == v.Silent {
		return fmt.Errorf("%w: voter seat %d", ErrVote, v.Voter)
	}
	if err := v.Verify(g.seatKeys[v.Voter]); err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	return nil
}

// CheckVote checks a SilenceVote against the state at Next(), given the
// hash of the log's envelope before it.
func (g *TheGame) CheckVote(v *SilenceVote, prev Hash) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checkVote(v, prev)
}

// checkCertificate checks a VoidSilent's certificate as at a Njet table
// (Game.checkCertificate): at least one vote, voters in increasing seat
// order and each vote valid, the seats taken exactly the seats without a
// vote, a device present or gone with all its seats, every bot key new.
func (g *TheGame) checkCertificate(vs *voidSilent, prev Hash) error {
	if len(vs.votes) == 0 {
		return fmt.Errorf("%w: a void without votes", ErrVote)
	}
	voted := make([]bool, g.n)
	for i, v := range vs.votes {
		if i > 0 && v.Voter <= vs.votes[i-1].Voter {
			return fmt.Errorf("%w: vote %d is seat %d's, after seat %d's", ErrVote, i, v.Voter, vs.votes[i-1].Voter)
		}
		if err := g.checkVote(v, prev); err != nil {
			return err
		}
		voted[v.Voter] = true
	}
	var want []int
	for s := range g.n {
		if !voted[s] {
			want = append(want, s)
		}
	}
	if len(vs.taken) != len(want) {
		return fmt.Errorf("%w: %d seats taken over, %d seats have no vote", ErrVote, len(vs.taken), len(want))
	}
	keys := map[Identity]bool{}
	for i, t := range vs.taken {
		if t.seat != want[i] {
			return fmt.Errorf("%w: seat %d taken over, seat %d has no vote", ErrVote, t.seat, want[i])
		}
		if slices.Contains(g.seatKeys, t.bot) || slices.Contains(g.gen.Keys, t.bot) || keys[t.bot] {
			return fmt.Errorf("%w: a bot for seat %d with a key already seated", ErrMalformed, t.seat)
		}
		keys[t.bot] = true
	}
	for s := range g.n {
		if h := g.peerOf(s); voted[s] != voted[h] {
			return fmt.Errorf("%w: seat %d and its host, seat %d, are not both present or both gone", ErrVote, s, h)
		}
	}
	return nil
}

// applyVoidSilent takes over the seats without a vote and voids the
// hidden part of the game: a new crypto round deals the cards not yet
// played again, from the public position at this seq.
func (g *TheGame) applyVoidSilent(env *Envelope) error {
	vs, err := parseVoidSilent(env.Body)
	if err != nil {
		return err
	}
	seat, _, err := g.turnLocked()
	if err != nil {
		return err
	}
	if vs.silent != seat || !g.voidable() {
		return fmt.Errorf("%w: seat %d voids seat %d at seq %d, seat %d is entitled", ErrVote, env.Author, vs.silent, env.Seq, seat)
	}
	if err := g.checkCertificate(vs, env.Prev); err != nil {
		return err
	}
	if !slices.Contains(vs.voters(), int(env.Author)) {
		return fmt.Errorf("%w: seat %d posts a void it did not vote for", ErrVote, env.Author)
	}
	v := &Violation{Seq: env.Seq, Seat: seat, Check: CheckSilent, Err: ErrSilent}
	g.voids = append(g.voids, v)
	host := g.peerOf(int(env.Author))
	for _, t := range vs.taken {
		g.seatKeys[t.seat] = t.bot
		g.botHost[t.seat] = host
	}
	if g.st == stReveal {
		g.applyWithheld(v)
		return nil
	}
	// A takeover before the play of the round deals the round again from
	// the same position (the first deal, or the last takeover's).
	g.redeal()
	return nil
}

// publicLocked returns the public position of the play in progress.
func (g *TheGame) publicLocked() *thegame.Public {
	pub := &thegame.Public{Phase: g.phase, Turn: g.turn, Turns: g.turns, Piles: g.pos.Piles, Played: g.playedC,
		HandSizes: slices.Clone(g.hands), Due: g.due, Signals: g.signals}
	if g.phase == thegame.PhasePlay {
		pub.PlayedThisTurn, pub.OnPiles, pub.Three = g.pos.Played, g.pos.OnPiles, g.pos.Three
	}
	return pub
}

// presentVotes keeps the votes whose voter's host has voted too: a device
// is present with all its seats or gone with all of them.
func (g *TheGame) presentVotes(votes []*SilenceVote) []*SilenceVote {
	g.mu.Lock()
	defer g.mu.Unlock()
	voted := map[int]bool{}
	for _, v := range votes {
		voted[int(v.Voter)] = true
	}
	var out []*SilenceVote
	for _, v := range votes {
		if voted[g.peerOf(int(v.Voter))] {
			out = append(out, v)
		}
	}
	return out
}

// draftVoidSilent builds the VoidSilent the decider posts at seq with the
// certificate votes: every seat without a vote gets a bot, whose key seed
// is the secret to store first. It changes no state.
func (g *TheGame) draftVoidSilent(seq uint64, prev Hash, votes []*SilenceVote, rnd io.Reader) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	silent, _, err := g.turnLocked()
	if err != nil {
		return nil, err
	}
	if !g.voidable() {
		return nil, fmt.Errorf("table: seat %d cannot be taken over now", silent)
	}
	cert := slices.Clone(votes)
	slices.SortFunc(cert, func(a, b *SilenceVote) int { return int(a.Voter) - int(b.Voter) })
	voted := make([]bool, g.n)
	for _, v := range cert {
		voted[v.Voter] = true
	}
	d := &draft{seq: seq, kind: KindVoidSilent, secrets: map[string][]byte{}}
	var taken []takenSeat
	for s := range g.n {
		if voted[s] {
			continue
		}
		var seed [ed25519.SeedSize]byte
		if _, err := io.ReadFull(rnd, seed[:]); err != nil {
			return nil, err
		}
		id, err := IdentityOf(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		taken = append(taken, takenSeat{seat: s, bot: id})
		d.secrets[botKeyName(s)] = seed[:]
	}
	vs := &voidSilent{silent: silent, taken: taken, votes: cert}
	if err := g.checkCertificate(vs, prev); err != nil {
		return nil, err
	}
	if d.body, err = vs.encode(); err != nil {
		return nil, err
	}
	return d, nil
}

// setFence binds the game to its peer's vote against seat at seq: the
// seat's own envelope at seq is refused unless the decider's log holds it
// (allowFenced). It reports false when the game is past seq.
func (g *TheGame) setFence(seq uint64, seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next != seq {
		return false
	}
	g.fence = &fence{seq: seq, seat: seat}
	return true
}

// allowFenced lets the fenced seat's envelope with hash h through.
func (g *TheGame) allowFenced(seq uint64, h Hash) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence != nil && g.fence.seq == seq {
		g.fence.allow = h
	}
}

// fenced returns the seq and seat of the peer's standing vote, if any.
func (g *TheGame) fenced() (uint64, int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence == nil {
		return 0, 0, false
	}
	return g.fence.seq, g.fence.seat, true
}
