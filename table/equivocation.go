package table

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"github.com/njetlan/njet/tablelog"
)

// Equivocation in the log (docs/protocol.md, "Equivocation"). A seat that
// signs two different envelopes for one seq after the same previous
// envelope, and sends one to some devices and the other to the rest,
// splits the table: each side's log goes on from its own envelope, and
// the other side's envelopes look like silence. Any device that holds
// both (a log that refused the second, or a branch of a member compared
// with its own) rewinds its log to that seq and posts there, in the
// equivocator's place, an Equivocation envelope carrying the two: every
// log checks it, the round is voided and the equivocator's seat is
// handled as a cheater's (at The Game the table halts, naming it). Such
// an envelope outweighs any other at its seq when branches are compared
// (yields), and of two, the one by the lower seat wins; so every device
// ends on the branch of the evidence, and whatever the split cost on
// either side (a takeover, a vote, a reveal waited for) is dropped with
// the branch.

// equivocation is a decoded Equivocation body: the two envelopes, the one
// with the lower hash first, so one pair has one encoding.
type equivocation struct {
	a, b *tablelog.Envelope
}

// equivocationBody encodes the evidence ev as an Equivocation body:
// version · n1 (4) · envelope · n2 (4) · envelope, the envelope with the
// lower hash first.
func equivocationBody(ev tablelog.Evidence) ([]byte, error) {
	a, b := ev.First, ev.Second
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: evidence without two envelopes", tablelog.ErrMalformed)
	}
	if ha, hb := a.Hash(), b.Hash(); bytes.Compare(ha[:], hb[:]) > 0 {
		a, b = b, a
	}
	w := newWriter()
	for _, e := range []*tablelog.Envelope{a, b} {
		enc, err := e.MarshalBinary()
		if err != nil {
			return nil, err
		}
		w.b = binary.BigEndian.AppendUint32(w.b, uint32(len(enc)))
		w.raw(enc)
	}
	if len(w.b) > tablelog.MaxEnvelopeSize-tablelog.EnvelopeHeaderSize-tablelog.SignatureSize {
		return nil, fmt.Errorf("%w: the two envelopes of the evidence do not fit in one envelope", tablelog.ErrTooLarge)
	}
	return w.bytes(), nil
}

// parseEquivocation decodes an Equivocation body strictly: two envelopes
// that decode, in the order of their hashes, different.
func parseEquivocation(body []byte) (*equivocation, error) {
	r := newReader(tablelog.KindEquivocation, body)
	var envs [2]*tablelog.Envelope
	for i := range envs {
		n := r.take(4)
		if r.err != nil {
			return nil, r.err
		}
		size := binary.BigEndian.Uint32(n)
		if uint64(size) > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: an envelope of %d bytes in an evidence of %d", tablelog.ErrMalformed, size, len(body))
		}
		raw := r.take(int(size))
		e, err := tablelog.ParseEnvelope(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: envelope %d of the evidence: %w", tablelog.ErrMalformed, i+1, err)
		}
		envs[i] = e
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	ha, hb := envs[0].Hash(), envs[1].Hash()
	if bytes.Compare(ha[:], hb[:]) >= 0 {
		return nil, fmt.Errorf("%w: the envelopes of the evidence are the same or out of order", tablelog.ErrMalformed)
	}
	return &equivocation{a: envs[0], b: envs[1]}, nil
}

// AccuserKey implements Accusations: any seat may post the evidence of an
// equivocation at the seq where it happened while a deal is under way and
// no violation halts the table, with the key that plays it now.
func (g *Game) AccuserKey(seq uint64, seat uint8) (tablelog.Identity, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case seq != g.next:
		return tablelog.Identity{}, fmt.Errorf("table: asked for seq %d, the game is at %d", seq, g.next)
	case g.gen == nil || int(seat) >= g.n:
		return tablelog.Identity{}, fmt.Errorf("table: no seat %d", seat)
	case g.halt != nil:
		return tablelog.Identity{}, fmt.Errorf("%w: %w", ErrHalted, g.halt)
	case g.st < stKeys || g.st > stReveal:
		return tablelog.Identity{}, fmt.Errorf("table: no deal under way")
	}
	return g.keys[seat], nil
}

// applyEquivocation checks an Equivocation envelope at the seq the game is
// at: both envelopes are for this table and seq and name the previous
// envelope the log holds (the one env names), have one author entitled
// here (or allowed to post instead) other than env's, and verify under
// that seat's key. The seat is then at fault (CheckEquivocal): the round
// is voted void and its seat goes to a bot, as for any cheat.
func (g *Game) applyEquivocation(env *tablelog.Envelope) (*Violation, error) {
	eq, err := parseEquivocation(env.Body)
	if err != nil {
		return nil, err
	}
	turn, err := g.entitled(env.Seq)
	if err != nil {
		return nil, err
	}
	a, b := eq.a, eq.b
	switch {
	case a.Table != g.cfg.Table || b.Table != g.cfg.Table:
		return nil, fmt.Errorf("%w: evidence from another table", tablelog.ErrMalformed)
	case a.Seq != env.Seq || b.Seq != env.Seq:
		return nil, fmt.Errorf("%w: evidence for seqs %d and %d at seq %d", tablelog.ErrMalformed, a.Seq, b.Seq, env.Seq)
	case a.Prev != env.Prev || b.Prev != env.Prev:
		return nil, fmt.Errorf("%w: evidence that does not follow the log's envelope at seq %d", tablelog.ErrMalformed, env.Seq-1)
	case a.Author != b.Author:
		return nil, fmt.Errorf("%w: evidence of seats %d and %d", tablelog.ErrMalformed, a.Author, b.Author)
	case a.Author == env.Author:
		return nil, fmt.Errorf("%w: seat %d posts evidence against itself", tablelog.ErrMalformed, env.Author)
	}
	t, ok := turn.Of(a.Author)
	if !ok {
		return nil, fmt.Errorf("%w: seat %d may not post at seq %d", tablelog.ErrMalformed, a.Author, env.Seq)
	}
	if err := a.Verify(t.Key); err != nil {
		return nil, err
	}
	if err := b.Verify(t.Key); err != nil {
		return nil, err
	}
	return &Violation{Seat: int(a.Author), Check: CheckEquivocal,
		Err: fmt.Errorf("%w: seat %d signed two envelopes (%v and %v) at seq %d, shown by seat %d",
			tablelog.ErrEquivocation, a.Author, a.Kind, b.Kind, env.Seq, env.Author)}, nil
}

// Equivocator returns the seat whose equivocation the envelope at its seq
// proves, for an Equivocation envelope a log accepted.
func Equivocator(env *tablelog.Envelope) (int, error) {
	if env == nil || env.Kind != tablelog.KindEquivocation {
		return 0, fmt.Errorf("%w: not an Equivocation", tablelog.ErrMalformed)
	}
	eq, err := parseEquivocation(env.Body)
	if err != nil {
		return 0, err
	}
	return int(eq.a.Author), nil
}

// splitSince reports whether a branch (the envelopes from the seq of an
// equivocation on) may have been shaped by a split at that seq, so that
// the evidence acts on it: it is still in the deal under way there (no
// later deal began: no RoundKey of seat 0 after the first envelope), or
// it holds a takeover since (a split leaves each side without the other
// side's devices, so a side gets past the deal only by taking them over).
// A branch that went on for deals without a takeover never depended on
// the split: an equivocator signing a second envelope long after cannot
// make the table rewind that far.
func splitSince(branch []*tablelog.Envelope) bool {
	for i, env := range branch {
		switch {
		case env.Kind == tablelog.KindVoidSilent || env.Kind == tablelog.KindAbandon:
			return true
		case i > 0 && env.Kind == tablelog.KindRoundKey && env.Author == 0:
			return false
		}
	}
	return true
}

// outweighs reports whether evidence, an Equivocation envelope at the
// first seq where two branches differ, outweighs the other branch (ours,
// from that seq): another Equivocation by a higher seat; a branch that
// holds the accused seat's envelope there and may have been shaped by the
// split (splitSince); or a takeover there that a strict majority of the
// players did not vote.
func outweighs(evidence *tablelog.Envelope, ours []*tablelog.Envelope, players int) bool {
	if len(ours) == 0 {
		return true
	}
	first := ours[0]
	if first.Kind == tablelog.KindEquivocation {
		return evidence.Author < first.Author
	}
	accused, err := Equivocator(evidence)
	if err != nil {
		return false
	}
	if int(first.Author) == accused && first.Kind != tablelog.KindVoidSilent && first.Kind != tablelog.KindAbandon {
		return splitSince(ours)
	}
	if first.Kind == tablelog.KindVoidSilent {
		vs, err := parseVoidSilent(first.Body)
		return err == nil && 2*len(vs.votes) <= players
	}
	return false
}

// pendingEquivocation returns, of the evidence given, an equivocation of
// log's branch not yet answered: the accused seat's envelope is still in
// the log at that seq, after the same previous envelope as the pair.
// skip names evidence this peer found it cannot post; evidence of a
// branch the split cannot have shaped (splitSince), which it never can,
// is added to it when skip is not nil.
func pendingEquivocation(log *tablelog.Log, evidence []tablelog.Evidence, skip map[tablelog.Hash]bool) (tablelog.Evidence, bool) {
	for _, ev := range evidence {
		if ev.First == nil || ev.Second == nil || ev.First.Prev != ev.Second.Prev || skip[ev.Second.Hash()] {
			continue
		}
		held, ok := log.Get(ev.First.Seq)
		if !ok || held.Author != ev.First.Author || held.Prev != ev.First.Prev || held.Kind == tablelog.KindEquivocation {
			continue
		}
		if splitSince(log.Range(ev.First.Seq, log.Next())) {
			return ev, true
		}
		if skip != nil {
			skip[ev.Second.Hash()] = true
		}
	}
	return tablelog.Evidence{}, false
}

// accuse answers an equivocation this peer's log holds evidence of: it
// drafts the Equivocation envelope at the seq, signed for a seat it posts
// for there other than the accused, and checks it against its stored log
// before that seq. If it stands, the peer stops its replica with stop,
// keeps the evidence in its store, drops its envelopes from that seq on
// (whatever followed the split is void), posts the envelope and reports
// true. Evidence it cannot post (it plays no other seat, or the table
// takes none there) is not tried again.
func (p *Peer) accuse(ctx context.Context, ev tablelog.Evidence, stop func(error) error) (bool, error) {
	game, log, _ := p.state()
	seq, accused := ev.First.Seq, int(ev.First.Author)
	env, err := p.draftAccusation(game, ev)
	if err != nil || env == nil {
		p.mu.Lock()
		if p.unposted == nil {
			p.unposted = map[tablelog.Hash]bool{}
		}
		p.unposted[ev.Second.Hash()] = true
		p.mu.Unlock()
		if err != nil && p.cfg.Logf != nil {
			p.cfg.Logf("table: seat %d: the evidence against seat %d at seq %d cannot be posted: %v", p.cfg.Seat, accused, seq, err)
		}
		return false, nil
	}
	if err := stop(nil); err != nil {
		return true, err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: seat %d signed two envelopes at seq %d; posting the evidence there and dropping [%d, %d)",
			p.cfg.Seat, accused, seq, seq, log.Next())
	}
	if err := p.cfg.Store.PutEvidence(p.cfg.Table, ev); err != nil {
		return true, err
	}
	if err := p.rewind(seq, &p.accusations); err != nil {
		return true, err
	}
	_, _, replica := p.state()
	if err := p.post(ctx, replica, env); err != nil {
		return true, err
	}
	p.emit(nil)
	return true, errRewound
}

// draftAccusation signs the Equivocation envelope of ev for the first
// seat this peer posts for at its seq, other than the accused, and checks
// it by replaying the stored log before that seq and then it. It returns
// nil when the peer posts for no such seat.
func (p *Peer) draftAccusation(game *Game, ev tablelog.Evidence) (*tablelog.Envelope, error) {
	seq := ev.First.Seq
	body, err := equivocationBody(ev)
	if err != nil {
		return nil, err
	}
	b := p.branches(game)
	at, l, err := b.replay(seq)
	if err != nil {
		return nil, err
	}
	gen := at.Genesis()
	if gen == nil {
		return nil, nil
	}
	seats := []int{p.cfg.Seat}
	for s := range gen.Players() {
		if s != p.cfg.Seat {
			seats = append(seats, s)
		}
	}
	for _, s := range seats {
		if s == int(ev.First.Author) || s < 0 || s >= gen.Players() || !p.hosts(at, s) {
			continue
		}
		key, err := p.keyOf(at, s)
		if err != nil {
			continue
		}
		_, prev := l.Head()
		env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: p.cfg.Table, Seq: seq, Prev: prev, Author: uint8(s),
			Kind: tablelog.KindEquivocation, Body: body}
		if err := env.Sign(key); err != nil {
			return nil, err
		}
		if _, err := l.Append(env); err != nil {
			return nil, err
		}
		return env, nil
	}
	return nil, nil
}

// Accusations returns how many times the peer posted the evidence of an
// equivocation (dropping its envelopes after it).
func (p *Peer) Accusations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accusations
}

// equivocation returns evidence the peer holds and has not answered: its
// log's, and, once after it opened its store, the store's (a device that
// stopped between finding a pair and posting it).
func (p *Peer) equivocation() (tablelog.Evidence, bool) {
	_, log, _ := p.state()
	p.mu.Lock()
	if p.unposted == nil {
		p.unposted = map[tablelog.Hash]bool{}
	}
	skip, stored := p.unposted, !p.evidenceRead
	p.evidenceRead = true
	p.mu.Unlock()
	evidence := log.Evidence()
	if stored {
		if kept, err := p.cfg.Store.Evidence(p.cfg.Table); err == nil {
			evidence = append(evidence, kept...)
		}
	}
	return pendingEquivocation(log, evidence, skip)
}
