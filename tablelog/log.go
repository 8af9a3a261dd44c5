package tablelog

import (
	"fmt"
	"slices"
	"sync"
)

// Turn is the protocol layer's answer to "who may post at this seq".
type Turn struct {
	// Seat is the one seat entitled to post.
	Seat uint8
	// Key is that seat's signing key at this seq (from the genesis, or from
	// a later BotSeat).
	Key Identity
	// Kinds are the kinds the seat may post; anything else is rejected.
	Kinds []Kind
	// Instead, when not empty, names other seats that may post at this seq
	// in Seat's place, each with its key and its own kinds (the decider of
	// a silent seat's void). Whichever envelope a log appends first takes
	// the seq; the protocol layer must make sure that every honest log
	// appends the same one.
	Instead []Turn
}

// Of returns the turn of author: t itself or one of t.Instead.
func (t Turn) Of(author uint8) (Turn, bool) {
	if author == t.Seat {
		return t, true
	}
	for _, alt := range t.Instead {
		if alt.Seat == author {
			return alt, true
		}
	}
	return Turn{}, false
}

// Protocol is the hook through which the game protocol drives a Log. The Log
// calls it with its lock held and strictly in seq order: Entitled(seq) is
// asked only after every envelope before seq has been passed to Apply. The
// hooks must not call back into the Log.
type Protocol interface {
	// Entitled returns the Turn at seq. An error means nobody may post at
	// seq (the game is over, or the protocol is waiting for something
	// outside the log); the envelope is rejected with ErrNotEntitled.
	Entitled(seq uint64) (Turn, error)
	// Apply validates the body of an envelope that has passed every frame
	// check and, if it is valid, advances the protocol state. It must not
	// change anything when it returns an error; the envelope is then
	// rejected with ErrRejected and the log stays where it was.
	Apply(env *Envelope) error
}

// Accusations is implemented by a Protocol that takes the evidence of an
// equivocation into the log (KindEquivocation): such an envelope is
// posted at the seq where a seat equivocated, in its place, by any other
// seat. AccuserKey returns the key of seat at seq, for the envelope's
// signature, or an error when seat may not post evidence there. The body
// itself (the two envelopes and the seat they convict) is checked by
// Apply. A Log whose Protocol lacks it refuses such envelopes.
type Accusations interface {
	AccuserKey(seq uint64, seat uint8) (Identity, error)
}

// Defaults for LogConfig.
const (
	DefaultMaxAhead      = 1024
	DefaultMaxAheadBytes = 16 << 20
	// maxCandidates bounds the envelopes buffered for one future seq. More
	// than one is possible because a buffered envelope is checked only when
	// its seq comes up: until then anyone can claim any author.
	maxCandidates = 4
)

// LogConfig configures a Log.
type LogConfig struct {
	// Table is the table id every envelope must carry.
	Table TableID
	// Protocol decides entitlement and validates bodies. Required.
	Protocol Protocol
	// MaxAhead is how far beyond the next seq an envelope is buffered
	// (DefaultMaxAhead if 0).
	MaxAhead uint64
	// MaxAheadBytes bounds the encoded size of all buffered envelopes
	// (DefaultMaxAheadBytes if 0).
	MaxAheadBytes int
}

// Log is the append-only, hash-chained log of one table. Append is its one
// state-changing entry point; it is safe for concurrent use.
type Log struct {
	mu    sync.Mutex
	cfg   LogConfig
	proto Protocol

	entries []*Envelope
	hashes  []Hash
	keys    []Identity // the key that verified each entry

	ahead      map[uint64][]*Envelope
	aheadBytes int

	evidence []Evidence
	evSeen   map[Hash]bool // hashes of Evidence.Second already recorded
}

// NewLog returns an empty log for cfg.Table.
func NewLog(cfg LogConfig) (*Log, error) {
	if cfg.Protocol == nil {
		return nil, fmt.Errorf("table: NewLog: no Protocol")
	}
	if cfg.MaxAhead == 0 {
		cfg.MaxAhead = DefaultMaxAhead
	}
	if cfg.MaxAheadBytes == 0 {
		cfg.MaxAheadBytes = DefaultMaxAheadBytes
	}
	return &Log{
		cfg:    cfg,
		proto:  cfg.Protocol,
		ahead:  make(map[uint64][]*Envelope),
		evSeen: make(map[Hash]bool),
	}, nil
}

// Table returns the log's table id.
func (l *Log) Table() TableID { return l.cfg.Table }

// Append offers env to the log. The checks run in a fixed order and the
// first failure is returned, wrapping its sentinel:
//
//  1. the envelope itself (ErrUnknownVersion, ErrUnknownKind, ErrTooLarge);
//  2. the table id (ErrWrongTable);
//  3. a seq already in the log: the same envelope is ErrDuplicate (nothing
//     to do); a different one by the same author after the same previous
//     envelope, validly signed, is kept as Evidence and returned as an
//     *EquivocationError (ErrEquivocation); one after another previous
//     envelope is ErrBadChain (a branch this log does not hold); anything
//     else is ErrNotEntitled or ErrBadSignature;
//  4. a seq ahead of the log: buffered (bounded) and reported as a *GapError
//     (ErrGap) naming the missing range;
//  5. the next seq: the author must be the entitled seat (ErrNotEntitled;
//     for an Equivocation, any seat the protocol's Accusations names),
//     the signature must verify under the seat's key (ErrBadSignature), the
//     previous hash must match (ErrBadChain), the kind must be allowed
//     (ErrNotEntitled), and the protocol must accept the body (ErrRejected).
//
// On success Append returns the envelopes it appended, in seq order: env and
// any buffered envelopes that now follow it. The log keeps its own copies.
func (l *Log) Append(env *Envelope) ([]*Envelope, error) {
	if env == nil {
		return nil, fmt.Errorf("%w: nil envelope", ErrMalformed)
	}
	if err := env.Validate(); err != nil {
		return nil, err
	}
	if env.Table != l.cfg.Table {
		return nil, fmt.Errorf("%w: %v, this log is %v", ErrWrongTable, env.Table, l.cfg.Table)
	}
	env = env.Clone()
	l.mu.Lock()
	defer l.mu.Unlock()
	next := uint64(len(l.entries))
	switch {
	case env.Seq < next:
		return nil, l.behind(env)
	case env.Seq > next:
		return nil, l.buffer(env)
	}
	if err := l.extend(env); err != nil {
		return nil, err
	}
	out := []*Envelope{env.Clone()}
	return append(out, l.drain()...), nil
}

// extend applies the checks of step 5 and appends env at the next seq.
func (l *Log) extend(env *Envelope) error {
	seq := env.Seq
	turn, err := l.turnOf(env)
	if err != nil {
		return err
	}
	if err := env.Verify(turn.Key); err != nil {
		return err
	}
	var prev Hash
	if seq > 0 {
		prev = l.hashes[seq-1]
	}
	if env.Prev != prev {
		return fmt.Errorf("%w: seq %d names %v, the log has %v", ErrBadChain, seq, env.Prev, prev)
	}
	if (seq == 0) != (env.Kind == KindGenesis) {
		return fmt.Errorf("%w: %v at seq %d: the genesis is seq 0 and only seq 0", ErrNotEntitled, env.Kind, seq)
	}
	if !slices.Contains(turn.Kinds, env.Kind) {
		return fmt.Errorf("%w: seat %d may not post %v at seq %d (allowed: %v)", ErrNotEntitled, env.Author, env.Kind, seq, turn.Kinds)
	}
	if err := l.proto.Apply(env); err != nil {
		return fmt.Errorf("%w: %v at seq %d by seat %d: %w", ErrRejected, env.Kind, seq, env.Author, err)
	}
	l.entries = append(l.entries, env)
	l.hashes = append(l.hashes, env.Hash())
	l.keys = append(l.keys, turn.Key)
	return nil
}

// turnOf returns the turn under which env may be posted at the next seq:
// its author's (Entitled), or for the evidence of an equivocation, any
// seat's with that one kind (Accusations).
func (l *Log) turnOf(env *Envelope) (Turn, error) {
	seq := env.Seq
	if env.Kind == KindEquivocation {
		acc, ok := l.proto.(Accusations)
		if !ok {
			return Turn{}, fmt.Errorf("%w: no evidence of equivocation is taken at this table", ErrNotEntitled)
		}
		key, err := acc.AccuserKey(seq, env.Author)
		if err != nil {
			return Turn{}, fmt.Errorf("%w: seat %d may not post evidence at seq %d: %w", ErrNotEntitled, env.Author, seq, err)
		}
		return Turn{Seat: env.Author, Key: key, Kinds: []Kind{KindEquivocation}}, nil
	}
	entitled, err := l.proto.Entitled(seq)
	if err != nil {
		return Turn{}, fmt.Errorf("%w: nobody may post at seq %d: %w", ErrNotEntitled, seq, err)
	}
	turn, ok := entitled.Of(env.Author)
	if !ok {
		return Turn{}, fmt.Errorf("%w: seat %d posted at seq %d, seat %d is entitled", ErrNotEntitled, env.Author, seq, entitled.Seat)
	}
	return turn, nil
}

// behind handles an envelope for a seq the log already holds.
func (l *Log) behind(env *Envelope) error {
	held := l.entries[env.Seq]
	if env.Hash() == l.hashes[env.Seq] {
		return fmt.Errorf("%w: seq %d", ErrDuplicate, env.Seq)
	}
	if env.Author != held.Author {
		return fmt.Errorf("%w: seat %d posted at seq %d, which seat %d holds", ErrNotEntitled, env.Author, env.Seq, held.Author)
	}
	if env.Prev != held.Prev {
		// Signed after another previous envelope: a branch this log
		// does not hold (a device that gave way signs again on the
		// branch it took). Only two envelopes after the same previous
		// one are an equivocation.
		return fmt.Errorf("%w: seat %d at seq %d names another previous envelope than the log's", ErrBadChain, env.Author, env.Seq)
	}
	key := l.keys[env.Seq]
	if err := env.Verify(key); err != nil {
		return err
	}
	ev := Evidence{Key: key, First: held.Clone(), Second: env.Clone()}
	if h := env.Hash(); !l.evSeen[h] {
		l.evSeen[h] = true
		l.evidence = append(l.evidence, ev)
	}
	return &EquivocationError{Evidence: ev}
}

// buffer keeps an envelope that is ahead of the log, within the bounds.
func (l *Log) buffer(env *Envelope) error {
	next := uint64(len(l.entries))
	gap := &GapError{From: next, To: env.Seq}
	if env.Seq-next > l.cfg.MaxAhead {
		gap.To = l.lowestAhead(env.Seq)
		return gap
	}
	h := env.Hash()
	cands := l.ahead[env.Seq]
	for _, c := range cands {
		if c.Hash() == h {
			gap.To, gap.Buffered = l.lowestAhead(env.Seq), true
			return gap
		}
	}
	size := EnvelopeHeaderSize + len(env.Body) + SignatureSize
	if len(cands) >= maxCandidates || l.aheadBytes+size > l.cfg.MaxAheadBytes {
		gap.To = l.lowestAhead(env.Seq)
		return gap
	}
	l.ahead[env.Seq] = append(cands, env)
	l.aheadBytes += size
	gap.To, gap.Buffered = l.lowestAhead(env.Seq), true
	return gap
}

// lowestAhead returns the lowest buffered seq, or limit if that is lower.
func (l *Log) lowestAhead(limit uint64) uint64 {
	low := limit
	for s := range l.ahead {
		low = min(low, s)
	}
	return low
}

// drain appends buffered envelopes while the next seq has one that passes.
// The candidates that lose are checked again as duplicates, so an
// equivocation among them is still recorded as evidence.
func (l *Log) drain() []*Envelope {
	var out []*Envelope
	for {
		next := uint64(len(l.entries))
		cands, ok := l.ahead[next]
		if !ok {
			return out
		}
		delete(l.ahead, next)
		for _, c := range cands {
			l.aheadBytes -= EnvelopeHeaderSize + len(c.Body) + SignatureSize
		}
		won := false
		for _, c := range cands {
			if !won && l.extend(c) == nil {
				won = true
				out = append(out, c.Clone())
			}
		}
		if !won {
			return out
		}
		for _, c := range cands {
			// Duplicates and losers by other seats need nothing more;
			// behind records any equivocation.
			_ = l.behind(c)
		}
	}
}

// Next returns the seq the next envelope must have (the log's length).
func (l *Log) Next() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return uint64(len(l.entries))
}

// Head returns the next seq and the hash the next envelope must name as
// its previous hash (zero for an empty log).
func (l *Log) Head() (next uint64, prev Hash) {
	l.mu.Lock()
	defer l.mu.Unlock()
	next = uint64(len(l.entries))
	if next > 0 {
		prev = l.hashes[next-1]
	}
	return next, prev
}

// Get returns a copy of the envelope at seq.
func (l *Log) Get(seq uint64) (*Envelope, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq >= uint64(len(l.entries)) {
		return nil, false
	}
	return l.entries[seq].Clone(), true
}

// Range returns copies of the envelopes with seq in [from, to), clipped to
// the log.
func (l *Log) Range(from, to uint64) []*Envelope {
	l.mu.Lock()
	defer l.mu.Unlock()
	to = min(to, uint64(len(l.entries)))
	var out []*Envelope
	for s := from; s < to; s++ {
		out = append(out, l.entries[s].Clone())
	}
	return out
}

// Missing returns the range [from, to) the log needs before it can apply
// its buffered envelopes; ok is false when nothing is buffered.
func (l *Log) Missing() (from, to uint64, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ahead) == 0 {
		return 0, 0, false
	}
	next := uint64(len(l.entries))
	return next, l.lowestAhead(next + l.cfg.MaxAhead + 1), true
}

// Evidence returns the equivocations seen so far, in the order found.
func (l *Log) Evidence() []Evidence {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Evidence, len(l.evidence))
	for i, ev := range l.evidence {
		out[i] = Evidence{Key: ev.Key, First: ev.First.Clone(), Second: ev.Second.Clone()}
	}
	return out
}
