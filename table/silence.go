package table

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"
)

// ErrCannotVote: VoteVoid was called when there is nothing to vote on (see
// the error's text: the peer's own turn, no deal under way, the patience
// not over yet, …).
var ErrCannotVote = errors.New("table: no vote to void the round now")

// VoteVoid asks the peer to vote to void the round because the seat
// entitled next stays silent (a UI's button). It fails with ErrCannotVote
// when the entitled seat is one the peer posts for, the round cannot be
// voided (no deal under way, a cheat being voted on, the silent seat is or
// hosts a bot), or the seat has been silent for less than the patience.
// The vote itself is cast by Run.
func (p *Peer) VoteVoid() error {
	game, log, _ := p.state()
	next := log.Next()
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
	if idle := p.cfg.Now().Sub(p.waitingSince(next)); idle < p.cfg.Patience {
		return fmt.Errorf("%w: seat %d has been silent for %v, less than the patience of %v",
			ErrCannotVote, turn.Seat, idle.Round(time.Second), p.cfg.Patience)
	}
	p.wantVote = true
	p.signal()
	return nil
}

// poll is the peer's periodic look at the clock and at the votes.
func (p *Peer) poll(ctx context.Context) error { return p.silence(ctx, true) }

// silence votes when the seat entitled next has been silent long enough
// and the policy agrees; the decider's peer posts the VoidSilent once it
// holds every other seat's vote; a fenced voter asks the decider (on a
// poll) what it holds at the voted seq.
func (p *Peer) silence(ctx context.Context, polled bool) error {
	game, log, replica := p.state()
	next, prev := log.Head()
	turn, err := game.Entitled(next)
	if err != nil || len(turn.Instead) == 0 || p.hosts(game, int(turn.Seat)) {
		return nil
	}
	silent, dec := int(turn.Seat), int(turn.Instead[0].Seat)
	if turn.Instead[0].Kinds[0] == KindAbandon {
		return p.abandon(ctx, game, replica, next, prev, silent, dec)
	}
	p.mu.Lock()
	if p.voteSeq != next || p.votes == nil {
		p.voteSeq, p.votes = next, map[uint8]*SilenceVote{}
	}
	voted := p.mine != nil && p.mine.seq == next && p.mine.seat == silent
	idle := p.cfg.Now().Sub(p.waitingSince(next))
	want := p.wantVote
	p.wantVote = false
	p.mu.Unlock()
	switch {
	case !voted:
		auto := p.cfg.VoidAfter > 0 && idle >= p.cfg.VoidAfter
		if !(want || auto) || idle < p.cfg.Patience {
			return nil
		}
		ok, err := p.vote(ctx, game, next, prev, silent, dec)
		if err != nil || !ok {
			return err
		}
	case polled:
		p.publishVotes(ctx, game, next)
	}
	if p.hosts(game, dec) {
		return p.decide(ctx, game, replica, next, prev, silent, dec)
	}
	if polled {
		return p.askDecider(ctx, game, replica, next, silent, dec)
	}
	return nil
}

// abandon ends a two-seat game whose other seat stays silent, when the
// policy agrees (VoidAfter, or VoteVoid): there are no votes to gather,
// the peer's own seat decides, and the game simply ends.
func (p *Peer) abandon(ctx context.Context, game *Game, replica *Replica, seq uint64, prev Hash, silent, dec int) error {
	if !p.hosts(game, dec) {
		return nil
	}
	p.mu.Lock()
	idle := p.cfg.Now().Sub(p.waitingSince(seq))
	want := p.wantVote
	p.wantVote = false
	p.mu.Unlock()
	auto := p.cfg.VoidAfter > 0 && idle >= p.cfg.VoidAfter
	if !(want || auto) || idle < p.cfg.Patience {
		return nil
	}
	d, err := game.draftAbandon(seq)
	if err != nil {
		return nil // the log moved on meanwhile
	}
	key, err := p.keyOf(game, dec)
	if err != nil {
		return err
	}
	env, err := p.seal(d, seq, prev, dec, key)
	if err != nil {
		return err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d ends the game: seat %d silent at seq %d", p.cfg.Seat, silent, seq)
	}
	return p.post(ctx, replica, env)
}

// vote signs a vote for every seat the peer posts for (but the silent
// one), stores its standing vote and fences its game against the silent
// seat's envelope at seq (unless it is the decider's peer), and only then
// publishes the votes. It reports false when the log moved on first.
func (p *Peer) vote(ctx context.Context, game *Game, seq uint64, prev Hash, silent, dec int) (bool, error) {
	var votes []*SilenceVote
	for seat := range game.Genesis().Players() {
		if seat == silent || !p.hosts(game, seat) {
			continue
		}
		key, err := p.keyOf(game, seat)
		if err != nil {
			return false, err
		}
		v := &SilenceVote{Table: p.cfg.Table, Seq: seq, Prev: prev, Silent: uint8(silent), Voter: uint8(seat)}
		if err := v.Sign(key); err != nil {
			return false, err
		}
		votes = append(votes, v)
	}
	// Write-ahead: a restarted peer must still refuse what it voted
	// against, or the decider could use its vote after it took the
	// silent seat's envelope.
	rec := binary.BigEndian.AppendUint64(nil, seq)
	if err := p.cfg.Store.PutMeta(p.cfg.Table, metaVote, append(rec, byte(silent))); err != nil {
		return false, err
	}
	if !p.stand(seq, silent) {
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
// is the decider's, fences its game. It reports false if the log has
// already passed seq (then the vote must not be sent).
func (p *Peer) stand(seq uint64, seat int) bool {
	game, _, _ := p.state()
	if !p.hosts(game, decider(seat)) && !game.setFence(seq, seat) {
		return false
	}
	p.mu.Lock()
	p.mine = &standing{seq: seq, seat: seat}
	p.mu.Unlock()
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

// receiveVote takes a vote from the transport (the replica's goroutine):
// kept if it fits the head of the log.
func (p *Peer) receiveVote(m Received) {
	v, err := ParseVote(m.Data)
	if err != nil {
		return
	}
	game, log, _ := p.state()
	next, prev := log.Head()
	if v.Seq != next || game.CheckVote(v, prev) != nil {
		return
	}
	p.mu.Lock()
	if p.voteSeq != next || p.votes == nil {
		p.voteSeq, p.votes = next, map[uint8]*SilenceVote{}
	}
	p.votes[v.Voter] = v
	p.mu.Unlock()
	p.signal()
}

// decide posts the VoidSilent at seq once the decider's peer holds a vote
// from every seat but the silent one (its own included).
func (p *Peer) decide(ctx context.Context, game *Game, replica *Replica, seq uint64, prev Hash, silent, dec int) error {
	p.mu.Lock()
	var votes []*SilenceVote
	if p.voteSeq == seq {
		for _, v := range p.votes {
			if int(v.Silent) == silent {
				votes = append(votes, v)
			}
		}
	}
	p.mu.Unlock()
	if len(votes) < game.Genesis().Players()-1 {
		return nil
	}
	rnd, _, err := p.randomness(seq)
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

// askDecider fetches the voted seq from the decider's peer: a fenced voter
// takes the silent seat's envelope only if the decider's log holds it.
func (p *Peer) askDecider(ctx context.Context, game *Game, replica *Replica, seq uint64, silent, dec int) error {
	if s, seat, ok := game.fenced(); !ok || s != seq || seat != silent {
		return nil
	}
	host := game.HostOf(dec)
	if host < 0 {
		host = dec
	}
	from := game.Genesis().Keys[host]
	data, err := p.cfg.Transport.Fetch(ctx, from, seq, seq+MaxRange)
	if err != nil || len(data) == 0 {
		return nil // ask again on the next poll
	}
	if env, err := ParseEnvelope(data[0]); err == nil && env.Seq == seq && int(env.Author) == silent {
		game.allowFenced(seq, env.Hash())
	}
	for _, b := range data {
		if _, err := replica.receive(from, b); err != nil {
			return err
		}
	}
	return nil
}

// ownTail returns the first seq of the peer's own envelopes at the end of
// its log (at most maxPostsInARow of them), if the log ends with some.
func (p *Peer) ownTail(game *Game, log *Log) (uint64, bool) {
	next := log.Next()
	u := next
	for u > 1 && next-u < maxPostsInARow {
		env, ok := log.Get(u - 1)
		if !ok || !p.hosts(game, int(env.Author)) {
			break
		}
		u--
	}
	return u, u < next
}

// rejected hears of an envelope the log refused (the replica's goroutine).
// One from another seat at or after the peer's own last envelopes suggests
// that the table went on without them: Run then checks for a VoidSilent.
func (p *Peer) rejected(from Identity, env *Envelope, err error) {
	game, log, _ := p.state()
	if game.Genesis() == nil || p.hosts(game, int(env.Author)) {
		return
	}
	u, ok := p.ownTail(game, log)
	if !ok || env.Seq < u {
		return
	}
	p.mu.Lock()
	if !p.checked[log.Next()] {
		p.diverged = &from
	}
	p.mu.Unlock()
	p.signal()
}

func (p *Peer) takeDiverged() (Identity, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.diverged == nil {
		return Identity{}, false
	}
	from := *p.diverged
	p.diverged = nil
	return from, true
}

// checkDiverged asks member from for the peer's own last envelopes. If its
// log holds, at one of those seqs, a VoidSilent (or, at two seats, an
// Abandon) that the log up to there accepts, the peer's envelopes from that seq on were never taken by any
// other seat (every one of them voted, and a voter takes the silent seat's
// envelope only from the decider, whose log has the void): the peer stops
// its replica with stop, drops them from its store, replays the rest and
// reports true; it then follows the table as everyone else does.
func (p *Peer) checkDiverged(ctx context.Context, from Identity, stop func(error) error) (bool, error) {
	game, log, _ := p.state()
	next := log.Next()
	u, ok := p.ownTail(game, log)
	if !ok {
		return false, nil
	}
	data, err := p.cfg.Transport.Fetch(ctx, from, u, next)
	if err != nil {
		return false, nil // the next rejection asks again
	}
	ours := log.Range(u, next)
	var cand *Envelope
	for i, b := range data {
		env, err := ParseEnvelope(b)
		if err != nil || i >= len(ours) {
			break
		}
		if env.Hash() != ours[i].Hash() {
			cand = env
			break
		}
	}
	if cand == nil || cand.Kind != KindVoidSilent && cand.Kind != KindAbandon || !p.supersedes(cand) {
		p.mu.Lock()
		p.checked[next] = true
		p.mu.Unlock()
		return false, nil
	}
	if err := stop(nil); err != nil {
		return true, err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: the table voided seq %d in its absence; dropping its envelopes [%d, %d)",
			p.cfg.Seat, cand.Seq, cand.Seq, next)
	}
	if err := p.cfg.Store.rewind(p.cfg.Table, cand.Seq); err != nil {
		return true, err
	}
	if err := p.open(); err != nil {
		return true, err
	}
	// Take the void at once, before the peer could post at its seq again.
	_, _, replica := p.state()
	if err := replica.appendAndPersist(cand); err != nil {
		return true, err
	}
	p.emit(nil)
	return true, errRewound
}

// supersedes replays the stored log before env's seq into an observer and
// reports whether env follows it.
func (p *Peer) supersedes(env *Envelope) bool {
	envs, err := p.cfg.Store.Envelopes(p.cfg.Table, 0, env.Seq)
	if err != nil || uint64(len(envs)) != env.Seq {
		return false
	}
	obs := NewGame(GameConfig{Table: p.cfg.Table, Creator: p.cfg.Creator})
	l, err := NewLog(LogConfig{Table: p.cfg.Table, Protocol: obs})
	if err != nil {
		return false
	}
	for _, e := range slices.Concat(envs, []*Envelope{env}) {
		if _, err := l.Append(e); err != nil {
			return false
		}
	}
	return true
}
