package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/njetlan/njet/tablelog"
)

// The comparison of branches after a partition (docs/protocol.md, "A true
// partition"): a peer finds a member whose log went another way (an
// envelope of the member that its log refuses, or once the game is over
// the end of a member's log that differs), weighs the two branches by
// their first takeovers and, on the lighter one, rewinds and takes the
// member's.

// forkWatch is what a peer has heard of a member whose log seems to differ
// from its own: the member to compare with, where the branches were last
// compared, and when the peer last asked the members at the end of its
// game. The zero value is ready: no head of a log with a genesis and a
// first envelope is 0.
type forkWatch struct {
	mu       sync.Mutex
	diverged *divergence
	// checkedAt is the head of the log where the branches were last
	// compared, and refusals counts the refused envelopes since.
	checkedAt uint64
	refusals  int
	// probedAt is when the peer last asked the members for the end of
	// their logs (probe).
	probedAt time.Time
	// head is the log's length when the peer last saw it grow, at
	// grewAt (stalled).
	head   uint64
	grewAt time.Time
}

// divergence is a member whose log seems to differ from this peer's, and
// the seq of the envelope of its that this peer's log refused.
type divergence struct {
	from tablelog.Identity
	seq  uint64
	// heavy: the refused envelope is a takeover or the evidence of an
	// equivocation, which may outweigh this peer's branch at once.
	heavy bool
}

// refused hears of env, from member from, refused by a log whose next seq
// is next: one from another seat suggests that the member's log and this
// peer's went different ways at some seq (a takeover decided while this
// device was cut off, or two takeovers at once). Once compared at a head
// of the log, they are compared again after recheckAfter more refusals
// (the member's branch grows), or at once when the refused envelope is a
// takeover.
func (w *forkWatch) refused(next uint64, from tablelog.Identity, env *tablelog.Envelope) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.refusals++
	heavy := env.Kind == tablelog.KindVoidSilent || env.Kind == tablelog.KindAbandon || env.Kind == tablelog.KindEquivocation
	if w.diverged != nil && w.diverged.heavy && !heavy {
		// A takeover or the evidence of an equivocation is compared
		// first: the plain envelopes of a member on a dropped branch
		// (the equivocator's own, say) must not crowd it out.
		return
	}
	if w.checkedAt != next || w.refusals >= recheckAfter || heavy {
		w.diverged = &divergence{from: from, seq: env.Seq, heavy: heavy}
	}
}

// recheckAfter is how many more refused envelopes make the peer compare
// the branches again at the same head.
const recheckAfter = 32

// found records a member that holds another envelope at seq.
func (w *forkWatch) found(from tablelog.Identity, seq uint64) {
	w.mu.Lock()
	w.diverged = &divergence{from: from, seq: seq}
	w.mu.Unlock()
}

// take returns the member to compare with, if any, and forgets it.
func (w *forkWatch) take() (*divergence, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.diverged
	w.diverged = nil
	return d, d != nil
}

// checked records that the branches were compared with the log at next
// and this peer keeps its own.
func (w *forkWatch) checked(next uint64) {
	w.mu.Lock()
	w.checkedAt, w.refusals = next, 0
	w.mu.Unlock()
}

// probeDue reports whether every has passed since the last probe, and if
// so starts the next period.
func (w *forkWatch) probeDue(every time.Duration) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if time.Since(w.probedAt) < every {
		return false
	}
	w.probedAt = time.Now()
	return true
}

// stalled reports whether the log, now next long, has not grown for
// stallAfter.
func (w *forkWatch) stalled(next uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if next != w.head || w.grewAt.IsZero() {
		w.head, w.grewAt = next, time.Now()
		return false
	}
	return time.Since(w.grewAt) >= stallAfter
}

// probeEvery is how often a peer whose game is over asks the members for
// the end of their logs (branches.probe), and probeWait how long it waits
// for one answer. A peer whose log has not grown for stallAfter asks the
// members for their envelope at its head every stallProbeEvery
// (branches.probeHead).
const (
	probeEvery      = time.Second
	probeWait       = 2 * time.Second
	stallAfter      = 10 * time.Second
	stallProbeEvery = 10 * time.Second
)

// branches compares a peer's log with the members' and weighs branches.
type branches struct {
	table     tablelog.TableID
	store     *tablelog.Store
	transport tablelog.Transport
	members   []tablelog.Identity
	// players is the number of seats at the table (the genesis's).
	players int
	// observer returns a fresh protocol of the table's game without a
	// vault, to replay a branch (follows).
	observer func() tablelog.Protocol
}

// probe asks each member for its envelopes at the last seqs of log. A
// device that finished the game alone while cut off from the others holds
// a branch they never saw, and hears of no envelope it would refuse: the
// others, finished too, post nothing more. It returns the first member
// that holds another envelope at one of those seqs, to compare with as
// after a refusal.
func (b branches) probe(ctx context.Context, log *tablelog.Log) (*divergence, bool) {
	next := log.Next()
	if next < 2 {
		return nil, false
	}
	for _, from := range b.members {
		if d, ok := b.probeMember(ctx, from, log, next-min(next-1, tablelog.MaxRange)); ok {
			return d, true
		}
	}
	return nil, false
}

// probeHead asks each member for its envelope at the head of log (the
// last seq), as probe does for a window of seqs: it returns the first
// member that holds another envelope there, or whose shorter log ends
// with another envelope than the peer's at that seq.
func (b branches) probeHead(ctx context.Context, log *tablelog.Log) (*divergence, bool) {
	next := log.Next()
	if next < 2 {
		return nil, false
	}
	for _, from := range b.members {
		if d, ok := b.probeMember(ctx, from, log, next-1); ok {
			return d, true
		}
	}
	return nil, false
}

// probeMember asks member from for its envelopes at seqs lo to the head
// of log, and reports the first that differs from log's. A member whose
// log is shorter than the peer's (it finished on a shorter branch, or it
// is behind) is asked for its last envelope too: another envelope than
// the peer's at that seq is a divergence; the same one, a member behind.
func (b branches) probeMember(ctx context.Context, from tablelog.Identity, log *tablelog.Log, lo uint64) (*divergence, bool) {
	next := log.Next()
	ctx, cancel := context.WithTimeout(ctx, probeWait)
	defer cancel()
	data, err := b.transport.Fetch(ctx, from, lo, next)
	if err != nil {
		return nil, false
	}
	if d, ok := differs(log, from, data); ok {
		return d, true
	}
	end, ok := b.memberEnd(ctx, from, next)
	if !ok || end < 2 {
		return nil, false
	}
	if data, err = b.transport.Fetch(ctx, from, end-1, end); err != nil {
		return nil, false
	}
	return differs(log, from, data)
}

// memberEnd finds, by halving, the length of member from's log when it is
// shorter than next: it reports false when the member holds an envelope
// at next-1, or does not answer.
func (b branches) memberEnd(ctx context.Context, from tablelog.Identity, next uint64) (uint64, bool) {
	holds := func(seq uint64) (bool, error) {
		data, err := b.transport.Fetch(ctx, from, seq, seq+1)
		return len(data) > 0, err
	}
	if next < 2 {
		return 0, false
	}
	if ok, err := holds(next - 1); err != nil || ok {
		return 0, false
	}
	lo, hi := uint64(0), next-1 // the member holds lo (the genesis), not hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := holds(mid)
		if err != nil {
			return 0, false
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true
}

// differs returns the first of member from's envelopes data that differs
// from log's envelope at its seq.
func differs(log *tablelog.Log, from tablelog.Identity, data [][]byte) (*divergence, bool) {
	for _, raw := range data {
		env, err := tablelog.ParseEnvelope(raw)
		if err != nil {
			break
		}
		if ours, ok := log.Get(env.Seq); ok && ours.Hash() != env.Hash() {
			return &divergence{from: from, seq: env.Seq}, true
		}
	}
	return nil, false
}

// compare compares log with member d.from's. If they differ from some seq
// k on, each branch is weighed by its first takeover (VoidSilent) at or
// after k (yields). When this peer's branch gives way, compare checks the
// member's branch up to its first takeover against the stored log up to k
// (follows) and returns k and that branch. It reports false when the peer
// keeps its own branch (with the k where they differ, or 0 when they do
// not), and errNoAnswer when the member did not answer (the next refusal
// asks again).
func (b branches) compare(ctx context.Context, d *divergence, log *tablelog.Log) (uint64, []*tablelog.Envelope, bool, error) {
	next := log.Next()
	k, ok, err := b.firstDifference(ctx, d.from, log, min(next, d.seq+1))
	if err != nil {
		return 0, nil, false, err
	}
	if !ok && d.seq >= next {
		// The member's log goes on from this peer's head with something
		// this peer refused there: a takeover of a seat it plays.
		k, ok = next, true
	}
	if !ok {
		return 0, nil, false, nil
	}
	theirs := b.branch(ctx, d.from, k)
	if ours, ok := log.Get(k); ok && len(theirs) > 0 && theirs[0].Author == ours.Author && theirs[0].Prev == ours.Prev {
		// One seat, two envelopes after the same one: an equivocation,
		// not two branches to weigh. The log checks the member's and
		// keeps the pair as evidence, which the peer then posts.
		_, _ = log.Append(theirs[0])
		return 0, nil, false, nil
	}
	if len(theirs) == 0 {
		return 0, nil, false, nil
	}
	if !b.yields(log.Range(k, next), theirs) {
		return k, nil, false, nil
	}
	if i := firstTakeover(theirs); i >= 0 {
		theirs = theirs[:i+1]
	}
	if !b.follows(k, theirs) {
		return k, nil, false, nil
	}
	return k, theirs, true, nil
}

// errNoAnswer: a member did not answer a request while the branches were
// compared.
var errNoAnswer = errors.New("table: the member did not answer")

// firstDifference finds, by halving, the first seq below hi at which
// member from holds another envelope than log (the genesis is the same for
// both). It reports false when they agree below hi, and errNoAnswer when
// the member does not answer.
func (b branches) firstDifference(ctx context.Context, from tablelog.Identity, log *tablelog.Log, hi uint64) (uint64, bool, error) {
	same := func(seq uint64) (bool, error) {
		data, err := b.transport.Fetch(ctx, from, seq, seq+1)
		if err != nil || len(data) == 0 {
			return false, errNoAnswer
		}
		env, err := tablelog.ParseEnvelope(data[0])
		ours, ok := log.Get(seq)
		if err != nil || !ok || env.Seq != seq {
			return false, errNoAnswer
		}
		return env.Hash() == ours.Hash(), nil
	}
	if hi < 2 {
		return 0, false, nil
	}
	hiSeq := hi - 1
	if eq, err := same(hiSeq); err != nil || eq {
		return 0, false, err
	}
	lo := uint64(0)
	for hiSeq-lo > 1 {
		mid := lo + (hiSeq-lo)/2
		eq, err := same(mid)
		if err != nil {
			return 0, false, err
		}
		if eq {
			lo = mid
		} else {
			hiSeq = mid
		}
	}
	return hiSeq, true, nil
}

// maxBranchAsks bounds the requests for a member's branch while looking
// for its first takeover, and for the rest of it once taken (takeRest).
const maxBranchAsks = 16

// branch fetches member from's envelopes from seq k on, until its first
// takeover or the end of what it holds (bounded).
func (b branches) branch(ctx context.Context, from tablelog.Identity, k uint64) []*tablelog.Envelope {
	var out []*tablelog.Envelope
	for range maxBranchAsks {
		seq := k + uint64(len(out))
		data, err := b.transport.Fetch(ctx, from, seq, seq+tablelog.MaxRange)
		if err != nil || len(data) == 0 {
			return out
		}
		for _, raw := range data {
			env, err := tablelog.ParseEnvelope(raw)
			if err != nil || env.Seq != k+uint64(len(out)) {
				return out
			}
			out = append(out, env)
			if env.Kind == tablelog.KindVoidSilent || env.Kind == tablelog.KindAbandon {
				return out
			}
		}
	}
	return out
}

// firstTakeover returns the index of the first VoidSilent or Abandon in
// envs, or -1.
func firstTakeover(envs []*tablelog.Envelope) int {
	for i, env := range envs {
		if env.Kind == tablelog.KindVoidSilent || env.Kind == tablelog.KindAbandon {
			return i
		}
	}
	return -1
}

// yields reports whether this peer's branch (ours, from the first seq that
// differs) gives way to the member's (theirs, from the same seq): when the
// member's begins with the evidence of an equivocation and its own does
// not (or with evidence posted by a lower seat); otherwise when the
// member's first takeover outweighs its own (compareVoids: more voters,
// then the lower voters), or when its own branch has no takeover since
// the difference and the member's was voted by a strict majority of the
// seats (no branch without those seats can ever outweigh it). At a table
// of two, an Abandon at the difference is followed.
func (b branches) yields(ours, theirs []*tablelog.Envelope) bool {
	// The evidence of an equivocation at the difference outweighs the
	// branch that split there: whatever followed the split on either
	// side (a takeover voted with the equivocator among others) is void.
	// Of two, the one by the lower seat stands (outweighs).
	if len(theirs) > 0 && theirs[0].Kind == tablelog.KindEquivocation {
		return outweighs(theirs[0], ours, b.players)
	}
	if len(ours) > 0 && ours[0].Kind == tablelog.KindEquivocation {
		// The mirror of outweighs: only a takeover there by a strict
		// majority outweighs the evidence.
		return len(theirs) > 0 && theirs[0].Kind == tablelog.KindVoidSilent && !outweighs(ours[0], theirs, b.players)
	}
	ti := firstTakeover(theirs)
	if ti < 0 {
		return false
	}
	if theirs[ti].Kind == tablelog.KindAbandon {
		// Two seats: the only other seat ended the game at this seq.
		return ti == 0 && (len(ours) == 0 || ours[0].Kind != tablelog.KindAbandon)
	}
	tv, err := parseVoidSilent(theirs[ti].Body)
	if err != nil {
		return false
	}
	oi := firstTakeover(ours)
	if oi < 0 || ours[oi].Kind != tablelog.KindVoidSilent {
		return 2*len(tv.votes) > b.players
	}
	ov, err := parseVoidSilent(ours[oi].Body)
	return err == nil && compareVoids(tv, ov) < 0
}

// follows replays the stored log before seq k, then branch, into an
// observer and reports whether every envelope is accepted.
func (b branches) follows(k uint64, branch []*tablelog.Envelope) bool {
	_, l, err := b.replay(k)
	if err != nil {
		return false
	}
	for _, e := range branch {
		if _, err := l.Append(e); err != nil {
			return false
		}
	}
	return true
}

// replay replays the stored log before seq k into an observer's game and
// log.
func (b branches) replay(k uint64) (*Game, *tablelog.Log, error) {
	envs, err := b.store.Envelopes(b.table, 0, k)
	if err != nil {
		return nil, nil, err
	}
	if uint64(len(envs)) != k {
		return nil, nil, fmt.Errorf("%w: the store holds %d envelopes, not %d", tablelog.ErrNotFound, len(envs), k)
	}
	obs := b.observer()
	l, err := tablelog.NewLog(tablelog.LogConfig{Table: b.table, Protocol: obs})
	if err != nil {
		return nil, nil, err
	}
	for _, e := range envs {
		if _, err := l.Append(e); err != nil {
			return nil, nil, err
		}
	}
	game, ok := obs.(*Game)
	if !ok {
		return nil, nil, fmt.Errorf("table: the observer is no Game")
	}
	return game, l, nil
}

// takeRest takes what follows the replica's log from member from while it
// answers (bounded), after the peer took the member's branch: a device
// that comes back as the others finish may not reach them again once they
// have left, and its own branch is gone. What does not come now comes by
// the usual catching up.
func takeRest(ctx context.Context, tr tablelog.Transport, from tablelog.Identity, replica *tablelog.Replica) {
	for range maxBranchAsks {
		next, _ := replica.Head()
		data, err := tr.Fetch(ctx, from, next, next+tablelog.MaxRange)
		if err != nil || len(data) == 0 {
			return
		}
		taken := 0
		for _, b := range data {
			if _, err := replica.Receive(from, b); err != nil {
				break
			}
			taken++
		}
		if n, _ := replica.Head(); n == next || taken < len(data) {
			return
		}
	}
}

// probeFork, once the game is over or halted, asks each member for its envelopes
// at the last seqs of this peer's log (branches.probe), at most every
// probeEvery. A device that finished the game alone while cut off hears
// of no envelope it would refuse, as the others, finished too, post
// nothing more. A member that holds another envelope at one of those seqs
// is compared with this peer as after a refusal (checkDiverged), and the
// lighter branch gives way.
//
// A peer whose game goes on but whose log has not grown for a while asks
// the members, less often, for their envelope at its head
// (branches.probeHead): a device left on a branch the others dropped,
// whose next poster now follows the others, hears of nothing it would
// refuse either, and the others cannot tell it (gossip drops an envelope
// it has carried before). A member that holds another envelope there, or
// none, is compared with; one that is merely behind holds the same
// envelopes below its head, and the peer keeps its branch.
func (p *Peer) probeFork(ctx context.Context) {
	game, log, _ := p.state()
	b := p.branches(game)
	var d *divergence
	var ok bool
	switch {
	case game.Over() || game.Stopped():
		if !p.forks.probeDue(probeEvery) {
			return
		}
		d, ok = b.probe(ctx, log)
	case p.forks.stalled(log.Next()) && p.forks.probeDue(stallProbeEvery):
		d, ok = b.probeHead(ctx, log)
	}
	if ok {
		p.forks.found(d.from, d.seq)
		p.signal()
	}
}

// rejected hears of an envelope the log refused (the replica's goroutine):
// see forkWatch.refused. A takeover of this peer's seats that its guard
// refused at the head of its log is remembered (decider).
func (p *Peer) rejected(from tablelog.Identity, env *tablelog.Envelope, err error) {
	game, log, _ := p.state()
	next := log.Next()
	if game.Genesis() == nil || next < 2 {
		return
	}
	if env.Kind == tablelog.KindVoidSilent && env.Seq == next && errors.Is(err, ErrFenced) {
		if vs, perr := parseVoidSilent(env.Body); perr == nil {
			p.mu.Lock()
			p.excluded = &exclusion{seq: next, votes: len(vs.votes)}
			p.mu.Unlock()
		}
	}
	p.forks.refused(next, from, env)
	p.signal()
}

// pushBranch publishes again this peer's envelope at k, where a member's
// log went another way and this peer keeps its own branch: a member whose
// branch gives way may never have heard of it (an envelope lost, or one of
// two at a seq its log dropped while it waited for an earlier one), and
// its log refuses it now, which makes it compare the branches in turn.
// The one envelope is enough: the member fetches the rest by sync.
func (p *Peer) pushBranch(ctx context.Context, log *tablelog.Log, k uint64) {
	env, ok := log.Get(k)
	if !ok {
		return
	}
	b, err := env.MarshalBinary()
	if err != nil {
		return
	}
	if err := p.cfg.Transport.Publish(ctx, b); err != nil && p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: publish seq %d again: %v", p.cfg.Seat, k, err)
	}
}

// branches returns the peer's comparison of branches.
func (p *Peer) branches(game *Game) branches {
	n := 0
	if gen := game.Genesis(); gen != nil {
		n = gen.Players()
	}
	return branches{table: p.cfg.Table, store: p.cfg.Store, transport: p.cfg.Transport, members: p.cfg.Peers,
		players: n, observer: func() tablelog.Protocol { return NewGame(GameConfig{Table: p.cfg.Table, Creator: p.cfg.Creator}) }}
}

// checkDiverged compares this peer's log with member d.from's
// (branches.compare: the first difference k, each branch weighed by its
// first takeover at or after k). To yield, the peer stops its replica with
// stop, drops its envelopes from k on (the one place where stored
// envelopes are removed), takes the member's branch, lets it through its
// own fence and guard, takes what follows it while the member answers
// (with outer, the context of Run: stop cancels the one of the replica)
// and reports true.
func (p *Peer) checkDiverged(ctx, outer context.Context, d *divergence, stop func(error) error) (bool, error) {
	game, log, _ := p.state()
	next := log.Next()
	k, theirs, ok, err := p.branches(game).compare(ctx, d, log)
	if err != nil {
		return false, nil // the member did not answer: the next refusal asks again
	}
	if !ok {
		p.forks.checked(next)
		if k > 0 {
			p.pushBranch(ctx, log, k)
		}
		return false, nil
	}
	if err := stop(nil); err != nil {
		return true, err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: the table went on without this device from seq %d; dropping its envelopes [%d, %d)",
			p.cfg.Seat, k, k, next)
	}
	if err := p.rewind(k, &p.rewinds); err != nil {
		return true, err
	}
	// Take the member's branch at once, before the peer could post at its
	// seqs again.
	game, _, replica := p.state()
	for _, env := range theirs {
		game.allowBranch(env)
		if err := replica.Append(env); err != nil {
			return true, err
		}
	}
	takeRest(outer, p.cfg.Transport, d.from, replica)
	p.emit(nil)
	return true, errRewound
}

// rewind drops the stored envelopes from seq on and opens the peer again
// on the rest: a new game, log and replica, and fresh players (those of
// the dropped branch remember its cards). tally counts the rewinds of its
// kind (Rewinds, Accusations).
func (p *Peer) rewind(seq uint64, tally *int) error {
	if err := p.cfg.Store.Rewind(p.cfg.Table, seq); err != nil {
		return err
	}
	p.mu.Lock()
	*tally++
	p.mu.Unlock()
	return p.open()
}
