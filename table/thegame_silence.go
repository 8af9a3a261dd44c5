package table

import (
	"context"
	"encoding/binary"
)

// silenceState is what a TheGamePeer knows about the seat it waits for:
// since when the log has stood at its head, the votes it holds for that
// seq, and its own standing vote.
type silenceState struct {
	head    uint64 // the seq the log waits at
	since   int64  // when it began to wait there (Unix nanoseconds of cfg.Now)
	seq     uint64 // the seq of votes
	votes   map[uint8]*SilenceVote
	mine    uint64 // the seq of this peer's own vote, 0 for none
	votedAt int64
	sent    int64 // when the peer last published its votes
}

// metaTheGameVote records a TheGamePeer's standing vote: seq (8) and the
// silent seat (1). Its name begins like metaVote, so that a rewind drops
// it with the branch it was cast on.
const metaTheGameVote = metaVote + "/thegame"

// republish is how often a voter sends its votes again (gossip loses).
const republish = 250_000_000 // 250 ms in nanoseconds

// restoreVote fences a restarted peer against the seat it voted against,
// when its log still stands at that seq: the vote may already be in a
// certificate.
func (p *TheGamePeer) restoreVote() {
	b, err := p.cfg.Store.Meta(p.cfg.Table, metaTheGameVote)
	if err != nil || len(b) != 9 {
		return
	}
	seq := binary.BigEndian.Uint64(b)
	if p.Game().setFence(seq, int(b[8])) {
		p.mu.Lock()
		p.silence.mine, p.silence.votedAt = seq, p.cfg.Now().UnixNano()
		p.mu.Unlock()
	}
}

// receiveVote takes a vote from the transport (the replica's goroutine):
// kept when it fits the head of the log.
func (p *TheGamePeer) receiveVote(m Received) {
	if !IsVote(m.Data) {
		return
	}
	v, err := ParseVote(m.Data)
	if err != nil {
		return
	}
	next, prev := p.Log().Head()
	if v.Seq != next || p.Game().CheckVote(v, prev) != nil {
		return
	}
	p.mu.Lock()
	if p.silence.seq != next || p.silence.votes == nil {
		p.silence.seq, p.silence.votes = next, map[uint8]*SilenceVote{}
	}
	p.silence.votes[v.Voter] = v
	p.mu.Unlock()
}

// watchSilence votes when the seat entitled next has been silent long
// enough, and the decider's peer (the lowest voter) posts the VoidSilent
// once every other seat has voted or Grace has passed since its own vote.
// A voter that does not decide is fenced: it takes the silent seat's
// envelope at that seq only from the decider's log.
func (p *TheGamePeer) watchSilence(ctx context.Context) error {
	next, prev := p.rep().head()
	now := p.cfg.Now().UnixNano()
	p.mu.Lock()
	if p.silence.head != next || p.silence.since == 0 {
		p.silence.head, p.silence.since = next, now
	}
	idle := now - p.silence.since
	p.mu.Unlock()
	if p.Done() || p.cfg.VoidAfter <= 0 {
		return nil
	}
	turn, err := p.Game().Entitled(next)
	if err != nil || len(turn.Instead) == 0 || p.hosts(int(turn.Seat)) || !p.hosts(p.cfg.Seat) {
		return nil
	}
	silent := int(turn.Seat)
	wait := max(p.cfg.VoidAfter, p.cfg.Patience)
	p.mu.Lock()
	voted := p.silence.mine == next && p.silence.seq == next && p.silence.votes[uint8(p.cfg.Seat)] != nil
	resend := voted && now-p.silence.sent >= republish
	p.mu.Unlock()
	switch {
	case !voted && idle < int64(wait):
		return nil
	case !voted:
		if ok, err := p.vote(ctx, next, prev, silent); err != nil || !ok {
			return err
		}
	case resend:
		p.publishVotes(ctx, next)
	}
	dec := p.decider(next, silent)
	if dec < 0 {
		return nil
	}
	if p.hosts(dec) {
		return p.decide(ctx, next, prev, silent, dec)
	}
	if resend {
		return p.askDecider(ctx, next, silent, dec)
	}
	return nil
}

// vote signs a vote for every seat the peer posts for, stores its standing
// vote and fences its game against the silent seat at seq, and only then
// publishes the votes. It reports false when the log moved on first.
func (p *TheGamePeer) vote(ctx context.Context, seq uint64, prev Hash, silent int) (bool, error) {
	gen := p.Game().Genesis()
	var votes []*SilenceVote
	for seat := range gen.Players() {
		if seat == silent || !p.hosts(seat) {
			continue
		}
		key, err := p.keyOf(seat)
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
	// against.
	rec := binary.BigEndian.AppendUint64(nil, seq)
	if err := p.cfg.Store.PutMeta(p.cfg.Table, metaTheGameVote, append(rec, byte(silent))); err != nil {
		return false, err
	}
	if !p.Game().setFence(seq, silent) {
		return false, nil
	}
	now := p.cfg.Now().UnixNano()
	p.mu.Lock()
	if p.silence.seq != seq || p.silence.votes == nil {
		p.silence.seq, p.silence.votes = seq, map[uint8]*SilenceVote{}
	}
	for _, v := range votes {
		p.silence.votes[v.Voter] = v
	}
	if p.silence.mine != seq {
		p.silence.votedAt = now
	}
	p.silence.mine = seq
	p.mu.Unlock()
	p.publishVotes(ctx, seq)
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d votes to take over seat %d, silent at seq %d", p.cfg.Seat, silent, seq)
	}
	return true, nil
}

// publishVotes sends the peer's own votes for seq.
func (p *TheGamePeer) publishVotes(ctx context.Context, seq uint64) {
	p.mu.Lock()
	var out [][]byte
	if p.silence.seq == seq {
		for voter, v := range p.silence.votes {
			if !p.hosts(int(voter)) {
				continue
			}
			if b, err := v.MarshalBinary(); err == nil {
				out = append(out, b)
			}
		}
	}
	p.silence.sent = p.cfg.Now().UnixNano()
	p.mu.Unlock()
	for _, b := range out {
		if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: publish a vote: %v", p.cfg.Seat, err)
		}
	}
}

// decider returns the lowest voter against silent at seq among the votes
// the peer holds, or -1.
func (p *TheGamePeer) decider(seq uint64, silent int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	dec := -1
	if p.silence.seq != seq {
		return dec
	}
	for voter, v := range p.silence.votes {
		if int(v.Silent) == silent && (dec < 0 || int(voter) < dec) {
			dec = int(voter)
		}
	}
	return dec
}

// decide posts the VoidSilent at seq as the decider's peer, once every
// other seat has voted or Grace has passed since its own vote.
func (p *TheGamePeer) decide(ctx context.Context, seq uint64, prev Hash, silent, dec int) error {
	p.mu.Lock()
	var votes []*SilenceVote
	for _, v := range p.silence.votes {
		if int(v.Silent) == silent {
			votes = append(votes, v)
		}
	}
	waited := p.silence.mine == seq && p.cfg.Now().UnixNano()-p.silence.votedAt >= int64(p.cfg.Grace)
	p.mu.Unlock()
	if len(votes) < p.Game().Genesis().Players()-1 && !waited {
		return nil
	}
	votes = p.Game().presentVotes(votes)
	rnd, err := p.randomness(seq)
	if err != nil {
		return err
	}
	d, err := p.Game().draftVoidSilent(seq, prev, votes, rnd)
	if err != nil {
		if p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: no takeover at seq %d: %v", p.cfg.Seat, seq, err)
		}
		return nil // the log moved on meanwhile
	}
	for name, s := range d.secrets {
		if err := p.cfg.Store.PutSecret(p.cfg.Table, name, s); err != nil {
			return err
		}
	}
	key, err := p.keyOf(dec)
	if err != nil {
		return err
	}
	env := &Envelope{Version: EnvelopeVersion, Table: p.cfg.Table, Seq: seq, Prev: prev,
		Author: uint8(dec), Kind: d.kind, Body: d.body}
	if err := env.Sign(key); err != nil {
		return err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d takes over for seat %d, silent at seq %d, with %d votes", dec, silent, seq, len(votes))
	}
	if err := p.rep().Post(ctx, env); err != nil && ctx.Err() == nil && p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: post the takeover at seq %d: %v", p.cfg.Seat, seq, err)
	}
	return nil
}

// askDecider fetches the voted seq from the decider's device: a fenced
// voter takes the silent seat's envelope only if the decider's log holds
// it, and takes the decider's takeover as soon as it can.
func (p *TheGamePeer) askDecider(ctx context.Context, seq uint64, silent, dec int) error {
	if s, seat, ok := p.Game().fenced(); !ok || s != seq || seat != silent {
		return nil
	}
	gen := p.Game().Genesis()
	from := gen.Keys[p.Game().PeerOf(dec)]
	data, err := p.cfg.Transport.Fetch(ctx, from, seq, seq+MaxRange)
	if err != nil || len(data) == 0 {
		return nil // ask again later
	}
	if env, err := ParseEnvelope(data[0]); err == nil && env.Seq == seq && int(env.Author) == silent {
		p.Game().allowFenced(seq, env.Hash())
	}
	for _, b := range data {
		if _, err := p.rep().receive(from, b); err != nil {
			return err
		}
	}
	return nil
}
