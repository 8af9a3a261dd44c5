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
// when the entitled seat is one the peer posts for, the seat cannot be
// taken over (no deal or acknowledgement under way, the seat at fault of
// a cheat being voted on, a table of two: see Abandon), or the seat has
// been silent for less than the patience.
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
	p.approve(ctx)
	p.probeFork(ctx)
	return p.silence(ctx, true)
}

// probeEvery is how often a peer whose game is over asks the members for
// the end of their logs (probeFork), and probeWait how long it waits for
// one answer.
const (
	probeEvery = time.Second
	probeWait  = 2 * time.Second
)

// probeFork, once the game is over, asks each member for its envelopes
// at the last seqs of this peer's log. A device that finished the game
// alone while cut off from the others holds a branch they never saw, and
// hears of no envelope it would refuse: the others, finished too, post
// nothing more. A member that holds another envelope at one of those seqs
// is compared with this peer as after a refusal (checkDiverged), and the
// lighter branch gives way.
func (p *Peer) probeFork(ctx context.Context) {
	game, log, _ := p.state()
	if !game.Over() {
		return
	}
	p.mu.Lock()
	due := time.Since(p.probedAt) >= probeEvery
	if due {
		p.probedAt = time.Now()
	}
	p.mu.Unlock()
	next := log.Next()
	if !due || next < 2 {
		return
	}
	lo := next - min(next-1, MaxRange)
	for _, from := range p.cfg.Peers {
		fctx, cancel := context.WithTimeout(ctx, probeWait)
		data, err := p.cfg.Transport.Fetch(fctx, from, lo, next)
		cancel()
		if err != nil {
			continue
		}
		for _, b := range data {
			env, err := ParseEnvelope(b)
			if err != nil {
				break
			}
			if ours, ok := log.Get(env.Seq); ok && ours.Hash() != env.Hash() {
				p.mu.Lock()
				p.diverged = &divergence{from: from, seq: env.Seq}
				p.mu.Unlock()
				p.signal()
				return
			}
		}
	}
}

// silence votes when the seat entitled next has been silent long enough
// and the policy agrees; the decider's peer posts the VoidSilent once it
// holds every other seat's vote; a fenced voter asks the decider (on a
// poll) what it holds at the voted seq.
func (p *Peer) silence(ctx context.Context, polled bool) error {
	game, _, replica := p.state()
	next, prev := replica.head()
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
	if turn.Instead[0].Kinds[0] == KindAbandon {
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
	idle := p.cfg.Now().Sub(p.waitingSince(next))
	want := p.wantVote
	p.wantVote = false
	p.mu.Unlock()
	switch {
	case !voted:
		auto := p.cfg.VoidAfter > 0 && idle >= p.cfg.VoidAfter && p.declined != next
		if !restored && (!(want || auto) || idle < p.cfg.Patience) {
			return nil
		}
		ok, err := p.vote(ctx, game, next, prev, silent)
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
func (p *Peer) vote(ctx context.Context, game *Game, seq uint64, prev Hash, silent int) (bool, error) {
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
// may be the decider (no lower voter is known to it), fences its game. It
// reports false if the log has already passed seq (then the vote must not
// be sent).
func (p *Peer) stand(seq uint64, seat int) bool {
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
	p.mine = &standing{seq: seq, seat: seat, at: p.cfg.Now()}
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
func (p *Peer) receiveSide(m Received) {
	switch {
	case IsClaim(m.Data):
		p.receiveClaim(m)
	case IsApproval(m.Data):
		p.receiveApproval(m)
	default:
		p.receiveVote(m)
	}
}

// receiveVote takes a vote from the transport: kept if it fits the head
// of the log.
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

// decide posts the VoidSilent at seq, as the lowest voter's peer, once it
// holds a vote from every seat but the silent one, or once Grace has
// passed since its own vote: the seats whose votes it holds are the ones
// still played, every other seat goes to a bot it hosts. Votes whose
// voter's host has not voted are left out (a device goes with all its
// seats).
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
	waited := p.mine != nil && p.mine.seq == seq && p.cfg.Now().Sub(p.mine.at) >= p.cfg.Grace
	p.mu.Unlock()
	if len(votes) < game.Genesis().Players()-1 && !waited {
		return nil
	}
	votes = game.presentVotes(votes)
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
	from := game.Genesis().Keys[game.PeerOf(dec)]
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

// rejected hears of an envelope the log refused (the replica's goroutine).
// One from another seat suggests that the member's log and this peer's
// went different ways at some seq (a takeover decided while this device
// was cut off, or two takeovers at once): Run then compares the two
// branches (checkDiverged). Once compared at a head of the log, they are
// compared again after recheckAfter more refusals (the member's branch
// grows), or at once when the refused envelope is a takeover.
func (p *Peer) rejected(from Identity, env *Envelope, err error) {
	game, log, _ := p.state()
	next := log.Next()
	if game.Genesis() == nil || next < 2 {
		return
	}
	if env.Kind == KindVoidSilent && env.Seq == next && errors.Is(err, ErrFenced) {
		if vs, perr := parseVoidSilent(env.Body); perr == nil {
			p.mu.Lock()
			p.excluded = &exclusion{seq: next, votes: len(vs.votes)}
			p.mu.Unlock()
		}
	}
	p.mu.Lock()
	p.refusals++
	if p.checkedAt != next || p.refusals >= recheckAfter || env.Kind == KindVoidSilent || env.Kind == KindAbandon {
		p.diverged = &divergence{from: from, seq: env.Seq}
	}
	p.mu.Unlock()
	p.signal()
}

// recheckAfter is how many more refused envelopes make the peer compare
// the branches again at the same head.
const recheckAfter = 32

// divergence is a member whose log seems to differ from this peer's, and
// the seq of the envelope of its that this peer's log refused.
type divergence struct {
	from Identity
	seq  uint64
}

func (p *Peer) takeDiverged() (*divergence, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.diverged
	p.diverged = nil
	return d, d != nil
}

// maxBranchAsks bounds the requests for a member's branch while looking
// for its first takeover.
const maxBranchAsks = 16

// checkDiverged compares this peer's log with member d.from's. If they
// differ from some seq k on, each branch is weighed by its first takeover
// (VoidSilent) at or after k: the number of seats that voted in it, the
// seats still played on that branch. The peer yields, and follows the
// member's branch, when the member's takeover outweighs its own
// (compareVoids: more voters, then the lower voters), or when its own
// branch has no takeover since k and the member's was voted by a majority
// of the seats (no branch without those seats can ever outweigh it). At a
// table of two, an Abandon at k is followed as before. To yield, the peer
// checks the member's branch against its own stored log up to k, stops
// its replica with stop, drops its envelopes from k on (the one place
// where stored envelopes are removed), takes the member's branch and
// reports true.
func (p *Peer) checkDiverged(ctx context.Context, d *divergence, stop func(error) error) (bool, error) {
	game, log, _ := p.state()
	next := log.Next()
	done := func() (bool, error) {
		p.mu.Lock()
		p.checkedAt, p.refusals = next, 0
		p.mu.Unlock()
		return false, nil
	}
	k, ok, err := p.firstDifference(ctx, d.from, log, min(next, d.seq+1))
	if err != nil {
		return false, nil // the member did not answer: the next refusal asks again
	}
	if !ok && d.seq >= next {
		// The member's log goes on from this peer's head with something
		// this peer refused there: a takeover of a seat it plays.
		k, ok = next, true
	}
	if !ok {
		return done()
	}
	theirs := p.branch(ctx, d.from, k)
	if len(theirs) == 0 {
		return done()
	}
	ours := log.Range(k, next)
	if !p.yields(game, ours, theirs) {
		return done()
	}
	if i := firstTakeover(theirs); i >= 0 {
		theirs = theirs[:i+1]
	}
	if !p.follows(k, theirs) {
		return done()
	}
	if err := stop(nil); err != nil {
		return true, err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: the table went on without this device from seq %d; dropping its envelopes [%d, %d)",
			p.cfg.Seat, k, k, next)
	}
	if err := p.cfg.Store.rewind(p.cfg.Table, k); err != nil {
		return true, err
	}
	if err := p.open(); err != nil {
		return true, err
	}
	// Take the member's branch at once, before the peer could post at its
	// seqs again.
	game, _, replica := p.state()
	for _, env := range theirs {
		game.allowBranch(env)
		if err := replica.appendAndPersist(env); err != nil {
			return true, err
		}
	}
	// And what follows it, while the member answers: a device that comes
	// back as the others finish may not reach them again once they have
	// left, and its own branch is gone. What does not come now comes by
	// the usual catching up.
	for range maxBranchAsks {
		next, _ := replica.head()
		data, err := p.cfg.Transport.Fetch(ctx, d.from, next, next+MaxRange)
		if err != nil || len(data) == 0 {
			break
		}
		taken := 0
		for _, b := range data {
			if _, err := replica.receive(d.from, b); err != nil {
				break
			}
			taken++
		}
		if n, _ := replica.head(); n == next || taken < len(data) {
			break
		}
	}
	p.emit(nil)
	return true, errRewound
}

// errNoAnswer: a member did not answer a request while the branches were
// compared.
var errNoAnswer = errors.New("table: the member did not answer")

// firstDifference finds, by halving, the first seq below hi at which
// member from holds another envelope than this peer's log (the genesis is
// the same for both). It reports false when they agree below hi, and
// errNoAnswer when the member does not answer.
func (p *Peer) firstDifference(ctx context.Context, from Identity, log *Log, hi uint64) (uint64, bool, error) {
	same := func(seq uint64) (bool, error) {
		data, err := p.cfg.Transport.Fetch(ctx, from, seq, seq+1)
		if err != nil || len(data) == 0 {
			return false, errNoAnswer
		}
		env, err := ParseEnvelope(data[0])
		ours, ok := log.Get(seq)
		if err != nil || !ok || env.Seq != seq {
			return false, errNoAnswer
		}
		return env.Hash() == ours.Hash(), nil
	}
	if hi < 2 {
		return 0, false, nil
	}
	b := hi - 1
	if eq, err := same(b); err != nil || eq {
		return 0, false, err
	}
	a := uint64(0)
	for b-a > 1 {
		mid := a + (b-a)/2
		eq, err := same(mid)
		if err != nil {
			return 0, false, err
		}
		if eq {
			a = mid
		} else {
			b = mid
		}
	}
	return b, true, nil
}

// branch fetches member from's envelopes from seq k on, until its first
// takeover or the end of what it holds (bounded).
func (p *Peer) branch(ctx context.Context, from Identity, k uint64) []*Envelope {
	var out []*Envelope
	for range maxBranchAsks {
		seq := k + uint64(len(out))
		data, err := p.cfg.Transport.Fetch(ctx, from, seq, seq+MaxRange)
		if err != nil || len(data) == 0 {
			return out
		}
		for _, b := range data {
			env, err := ParseEnvelope(b)
			if err != nil || env.Seq != k+uint64(len(out)) {
				return out
			}
			out = append(out, env)
			if env.Kind == KindVoidSilent || env.Kind == KindAbandon {
				return out
			}
		}
	}
	return out
}

// firstTakeover returns the index of the first VoidSilent or Abandon in
// envs, or -1.
func firstTakeover(envs []*Envelope) int {
	for i, env := range envs {
		if env.Kind == KindVoidSilent || env.Kind == KindAbandon {
			return i
		}
	}
	return -1
}

// yields reports whether this peer's branch (ours, from the first seq that
// differs) gives way to the member's (theirs, from the same seq): see
// checkDiverged.
func (p *Peer) yields(game *Game, ours, theirs []*Envelope) bool {
	ti := firstTakeover(theirs)
	if ti < 0 {
		return false
	}
	if theirs[ti].Kind == KindAbandon {
		// Two seats: the only other seat ended the game at this seq.
		return ti == 0 && (len(ours) == 0 || ours[0].Kind != KindAbandon)
	}
	tv, err := parseVoidSilent(theirs[ti].Body)
	if err != nil {
		return false
	}
	oi := firstTakeover(ours)
	if oi < 0 || ours[oi].Kind != KindVoidSilent {
		n := 0
		if gen := game.Genesis(); gen != nil {
			n = gen.Players()
		}
		return 2*len(tv.votes) > n
	}
	ov, err := parseVoidSilent(ours[oi].Body)
	return err == nil && compareVoids(tv, ov) < 0
}

// follows replays the stored log before seq k, then branch, into an
// observer and reports whether every envelope is accepted.
func (p *Peer) follows(k uint64, branch []*Envelope) bool {
	envs, err := p.cfg.Store.Envelopes(p.cfg.Table, 0, k)
	if err != nil || uint64(len(envs)) != k {
		return false
	}
	obs := NewGame(GameConfig{Table: p.cfg.Table, Creator: p.cfg.Creator})
	l, err := NewLog(LogConfig{Table: p.cfg.Table, Protocol: obs})
	if err != nil {
		return false
	}
	for _, e := range slices.Concat(envs, branch) {
		if _, err := l.Append(e); err != nil {
			return false
		}
	}
	return true
}
