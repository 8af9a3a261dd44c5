package table

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/njetlan/njet/tablelog"
)

// ErrCannotVote: VoteVoid was called when there is nothing to vote on (see
// the error's text: the peer's own turn, no deal under way, the patience
// not over yet, …).
var ErrCannotVote = errors.New("table: no vote to void the round now")

// VoteVoid asks the peer to vote to void the round because the device of
// the seat entitled next is away (a UI's button). It fails with
// ErrCannotVote when the entitled seat is one the peer posts for, the
// seat cannot be taken over (no deal or acknowledgement under way, the
// seat at fault of a cheat being voted on, a table of two: see Abandon),
// or its device is at the table (see absence) or has been away for less
// than the patience.
// The vote itself is cast by Run.
func (p *Peer) VoteVoid() error {
	game, log, _ := p.state()
	next, prev := log.Head()
	turn, err := game.Entitled(next)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrCannotVote, err)
	case p.hosts(game, int(turn.Seat)):
		return fmt.Errorf("%w: the table waits for this peer's seat %d", ErrCannotVote, turn.Seat)
	case len(turn.Instead) == 0:
		return fmt.Errorf("%w: the round cannot be voided for seat %d at seq %d", ErrCannotVote, turn.Seat, next)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	since, why := p.absence(game, next, prev, int(turn.Seat))
	if why == AbsenceUnstated {
		return fmt.Errorf("%w: seat %d's device is at the table", ErrCannotVote, turn.Seat)
	}
	if idle := p.cfg.Now().Sub(since); idle < p.cfg.Patience {
		return fmt.Errorf("%w: seat %d's device has been away for %v, less than the patience of %v",
			ErrCannotVote, turn.Seat, idle.Round(time.Second), p.cfg.Patience)
	}
	p.wantVote = true
	p.signal()
	return nil
}

// DeclineVoid records that the peer's person does not want the seat
// entitled next taken over yet: the peer does not vote on its own
// (VoidAfter) while the log stays at this seq. VoteVoid still votes. It
// fails with ErrCannotVote when there is nothing to decline.
func (p *Peer) DeclineVoid() error {
	game, log, _ := p.state()
	next := log.Next()
	turn, err := game.Entitled(next)
	if err != nil || len(turn.Instead) == 0 || p.hosts(game, int(turn.Seat)) {
		return fmt.Errorf("%w: no seat to wait for at seq %d", ErrCannotVote, next)
	}
	p.mu.Lock()
	p.declined, p.wantVote = next, false
	p.mu.Unlock()
	return nil
}

// poll is the peer's periodic look at the clock, the votes and the seat
// claims, and once the game is over at the others' logs (probeFork).
func (p *Peer) poll(ctx context.Context) error {
	p.claim(ctx)
	p.approve(ctx, false)
	p.probeFork(ctx)
	return p.silence(ctx, true)
}

// silence votes when the device of the seat entitled next has been away
// long enough (absence) and the policy agrees; the decider's peer posts the VoidSilent once it
// holds every other seat's vote; a fenced voter asks the decider (on a
// poll) what it holds at the voted seq.
func (p *Peer) silence(ctx context.Context, polled bool) error {
	game, _, replica := p.state()
	next, prev := replica.Head()
	turn, err := game.Entitled(next)
	if err != nil || len(turn.Instead) == 0 || p.hosts(game, int(turn.Seat)) || !p.hosts(game, game.PeerOf(p.cfg.Seat)) {
		// Nothing to vote on, or this device plays no seat any more (a
		// bot plays its own, and with it every seat it hosted).
		return nil
	}
	if v := game.Violation(); v != nil && p.hosts(game, v.Seat) {
		// This device is at fault: it has no vote on the seats gone.
		return nil
	}
	silent := int(turn.Seat)
	if turn.Instead[0].Kinds[0] == tablelog.KindAbandon {
		return p.abandon(ctx, game, replica, next, prev, silent, int(turn.Instead[0].Seat))
	}
	p.mu.Lock()
	if p.voteSeq != next || p.votes == nil {
		p.voteSeq, p.votes = next, map[uint8]*SilenceVote{}
	}
	voted := p.mine != nil && p.mine.seq == next && p.mine.seat == silent
	restored := false
	if voted {
		// A restarted peer stands by its stored vote but holds no copy
		// of it: it signs it again (the same signature) to send it.
		_, held := p.votes[uint8(p.cfg.Seat)]
		restored = !held
		voted = held
	}
	since, why := p.absence(game, next, prev, silent)
	if restored {
		why = p.mine.why
	}
	idle := p.cfg.Now().Sub(since)
	want := p.wantVote
	p.wantVote = false
	p.mu.Unlock()
	switch {
	case !voted:
		auto := p.cfg.VoidAfter > 0 && idle >= p.cfg.VoidAfter && p.declined != next
		if !restored && (why == AbsenceUnstated || !(want || auto) || idle < p.cfg.Patience) {
			return nil
		}
		ok, err := p.vote(ctx, game, next, prev, silent, why)
		if err != nil || !ok {
			return err
		}
	case polled:
		p.publishVotes(ctx, game, next)
	}
	dec, mine := p.decider(game, next, silent)
	if dec < 0 {
		return nil
	}
	if mine {
		return p.decide(ctx, game, replica, next, prev, silent, dec)
	}
	// A lower voter has appeared: it decides, so this peer's vote now
	// binds it like any other voter's.
	if _, _, fenced := game.fenced(); !fenced && !game.setFence(next, silent) {
		return nil
	}
	if polled {
		return p.askDecider(ctx, game, replica, next, silent, dec)
	}
	return nil
}

// decider returns the lowest voter against silent at seq among the votes
// this peer holds (its own included), and whether it is a seat this peer
// posts for: that seat decides. A peer whose seats a takeover left out
// although it is here (its guard refused it) decides itself when it holds
// more votes than that takeover carried: its own, heavier takeover then
// wins wherever the two meet (compareVoids).
func (p *Peer) decider(game *Game, seq uint64, silent int) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	dec, own, held := -1, -1, 0
	if p.voteSeq == seq {
		for voter, v := range p.votes {
			if int(v.Silent) != silent {
				continue
			}
			held++
			if dec < 0 || int(voter) < dec {
				dec = int(voter)
			}
			if p.hosts(game, int(voter)) && (own < 0 || int(voter) < own) {
				own = int(voter)
			}
		}
	}
	if x := p.excluded; x != nil && x.seq == seq && own >= 0 && held > x.votes {
		return own, true
	}
	return dec, dec >= 0 && p.hosts(game, dec)
}

// exclusion is a takeover of this peer's seats, refused by its guard at
// seq, that carried that many votes.
type exclusion struct {
	seq   uint64
	votes int
}

// abandon ends a two-seat game whose other seat's device is away, when
// the policy agrees (VoidAfter, or VoteVoid): there are no votes to gather,
// the peer's own seat decides, and the game simply ends.
func (p *Peer) abandon(ctx context.Context, game *Game, replica *tablelog.Replica, seq uint64, prev tablelog.Hash, silent, dec int) error {
	if !p.hosts(game, dec) {
		return nil
	}
	p.mu.Lock()
	since, why := p.absence(game, seq, prev, silent)
	idle := p.cfg.Now().Sub(since)
	want := p.wantVote
	p.wantVote = false
	p.mu.Unlock()
	auto := p.cfg.VoidAfter > 0 && idle >= p.cfg.VoidAfter
	if why == AbsenceUnstated || !(want || auto) || idle < p.cfg.Patience {
		return nil
	}
	d, err := game.draftAbandon(seq)
	if err != nil {
		return nil // the log moved on meanwhile
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d ends the game: seat %d silent at seq %d", p.cfg.Seat, silent, seq)
	}
	return p.postDraft(ctx, replica, game, d, seq, prev, dec)
}

// postDraft signs the decider dec's draft at seq and posts it.
func (p *Peer) postDraft(ctx context.Context, replica *tablelog.Replica, game *Game, d *draft, seq uint64, prev tablelog.Hash, dec int) error {
	key, err := p.keyOf(game, dec)
	if err != nil {
		return err
	}
	env, err := p.seal(d, seq, prev, dec, key)
	if err != nil {
		return err
	}
	return p.post(ctx, replica, env)
}

// vote signs a vote for every seat the peer posts for (but the silent
// one), saying why the silent seat's device is away, stores its standing
// vote and fences its game against the silent seat's envelope at seq
// (unless it is the decider's peer), and only then publishes the votes. It
// reports false when the log moved on first.
func (p *Peer) vote(ctx context.Context, game *Game, seq uint64, prev tablelog.Hash, silent int, why Absence) (bool, error) {
	var votes []*SilenceVote
	for seat := range game.Genesis().Players() {
		if seat == silent || !p.hosts(game, seat) {
			continue
		}
		key, err := p.keyOf(game, seat)
		if err != nil {
			return false, err
		}
		v := &SilenceVote{Table: p.cfg.Table, Seq: seq, Prev: prev, Silent: uint8(silent), Voter: uint8(seat), Why: why}
		if err := v.Sign(key); err != nil {
			return false, err
		}
		votes = append(votes, v)
	}
	// Write-ahead: a restarted peer must still refuse what it voted
	// against, or the decider could use its vote after it took the
	// silent seat's envelope.
	rec := binary.BigEndian.AppendUint64(nil, seq)
	if err := p.cfg.Store.PutMeta(p.cfg.Table, metaVote, append(rec, byte(silent), byte(why))); err != nil {
		return false, err
	}
	if !p.stand(seq, silent, why) {
		return false, nil
	}
	p.mu.Lock()
	if p.voteSeq == seq {
		for _, v := range votes {
			p.votes[v.Voter] = v
		}
	}
	p.mu.Unlock()
	p.publishVotes(ctx, game, seq)
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d votes to void the round: seat %d silent at seq %d", p.cfg.Seat, silent, seq)
	}
	return true, nil
}

// stand records the peer's vote against seat at seq and, unless the peer
// may be the decider (no lower voter is known to it), fences its game. It
// reports false if the log has already passed seq (then the vote must not
// be sent).
func (p *Peer) stand(seq uint64, seat int, why Absence) bool {
	game, _, _ := p.state()
	lowest := true
	p.mu.Lock()
	if p.voteSeq == seq {
		for voter, v := range p.votes {
			lowest = lowest && (int(v.Silent) != seat || p.hosts(game, int(voter)) || !p.lowerThanMine(game, int(voter)))
		}
	}
	p.mu.Unlock()
	if !lowest && !game.setFence(seq, seat) {
		return false
	}
	if lowest && game.Next() != seq {
		return false
	}
	p.mu.Lock()
	p.mine = &standing{seq: seq, seat: seat, why: why, at: p.cfg.Now()}
	p.mu.Unlock()
	return true
}

// lowerThanMine reports whether seat is lower than every seat this peer
// posts for.
func (p *Peer) lowerThanMine(game *Game, seat int) bool {
	for s := range seat + 1 {
		if p.hosts(game, s) {
			return false
		}
	}
	return true
}

// publishVotes sends the peer's own votes for seq (again: gossip loses).
func (p *Peer) publishVotes(ctx context.Context, game *Game, seq uint64) {
	p.mu.Lock()
	var out [][]byte
	if p.voteSeq == seq {
		for voter, v := range p.votes {
			if !p.hosts(game, int(voter)) {
				continue
			}
			if b, err := v.MarshalBinary(); err == nil {
				out = append(out, b)
			}
		}
	}
	p.mu.Unlock()
	for _, b := range out {
		if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: publish a vote: %v", p.cfg.Seat, err)
		}
	}
}

// receiveSide takes a message that travels outside the log (the
// replica's goroutine).
func (p *Peer) receiveSide(m tablelog.Received) {
	switch {
	case IsClaim(m.Data):
		p.receiveClaim(m)
	case IsApproval(m.Data):
		p.receiveApproval(m)
	case IsPresence(m.Data):
		p.receivePresence(m)
	default:
		p.receiveVote(m)
	}
}

// receiveVote takes a vote from the transport: kept if it fits the head
// of the log.
func (p *Peer) receiveVote(m tablelog.Received) {
	v, err := ParseVote(m.Data)
	if err != nil {
		return
	}
	game, log, _ := p.state()
	next, prev := log.Head()
	if v.Seq != next || game.CheckVote(v, prev) != nil {
		return
	}
	if v.Why != AbsenceUnstated {
		// A voter's device is there: its vote is its sign of life too.
		p.sawDevice(game, int(v.Voter), next)
	}
	p.mu.Lock()
	if p.voteSeq != next || p.votes == nil {
		p.voteSeq, p.votes = next, map[uint8]*SilenceVote{}
	}
	p.votes[v.Voter] = v
	p.mu.Unlock()
	p.signal()
}

// decide posts the VoidSilent at seq, as the lowest voter's peer, once it
// holds a vote from every seat but the silent one, or once Grace has
// passed since its own vote: the seats whose votes it holds are the ones
// still played, every other seat goes to a bot it hosts. Votes whose
// voter's host has not voted are left out (a device goes with all its
// seats).
func (p *Peer) decide(ctx context.Context, game *Game, replica *tablelog.Replica, seq uint64, prev tablelog.Hash, silent, dec int) error {
	p.mu.Lock()
	var votes []*SilenceVote
	if p.voteSeq == seq {
		for _, v := range p.votes {
			if int(v.Silent) == silent {
				votes = append(votes, v)
			}
		}
	}
	waited := p.mine != nil && p.mine.seq == seq && p.cfg.Now().Sub(p.mine.at) >= p.cfg.Grace
	p.mu.Unlock()
	if len(votes) < game.Genesis().Players()-1 && !waited {
		return nil
	}
	votes = game.presentVotes(votes)
	rnd, err := p.randomness(seq)
	if err != nil {
		return err
	}
	d, err := game.draftVoidSilent(seq, prev, votes, rnd)
	if err != nil {
		// The log moved on meanwhile (the silent seat's envelope came).
		if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: no void at seq %d: %v", p.cfg.Seat, seq, err)
		}
		return nil
	}
	return p.postDraft(ctx, replica, game, d, seq, prev, dec)
}

// askDecider fetches the voted seq from the decider's peer: a fenced voter
// takes the silent seat's envelope only if the decider's log holds it.
func (p *Peer) askDecider(ctx context.Context, game *Game, replica *tablelog.Replica, seq uint64, silent, dec int) error {
	if s, seat, ok := game.fenced(); !ok || s != seq || seat != silent {
		return nil
	}
	from := game.Genesis().Keys[game.PeerOf(dec)]
	data, err := p.cfg.Transport.Fetch(ctx, from, seq, seq+tablelog.MaxRange)
	if err != nil || len(data) == 0 {
		return nil // ask again on the next poll
	}
	if env, err := tablelog.ParseEnvelope(data[0]); err == nil && env.Seq == seq && int(env.Author) == silent {
		game.allowFenced(seq, env.Hash())
	}
	for _, b := range data {
		if _, err := replica.Receive(from, b); err != nil {
			return err
		}
	}
	return nil
}
