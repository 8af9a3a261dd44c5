package tablelog

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// ReplicaConfig wires a Replica.
type ReplicaConfig struct {
	// Log is the table's log, driven by the protocol layer's hooks.
	Log *Log
	// Store persists the log; NewReplica replays what it holds into Log.
	Store *Store
	// Transport carries envelopes to and from the other members.
	Transport Transport
	// Peers are the other members, asked for missing ranges.
	Peers []Identity
	// Rand picks the member to ask; only Run's goroutine uses it.
	Rand *rand.Rand
	// Tick, when not nil, makes Run ask a member for whatever follows its
	// log (or fills its gap) on every tick. That recovers envelopes lost at
	// the end of the log, which no later envelope reveals as a gap.
	Tick <-chan time.Time
	// Logf, when not nil, is told about envelopes that were rejected.
	Logf func(format string, args ...any)
	// Side, when not nil, tells the messages that travel outside the log
	// (the table's votes, seat claims, approvals and presences) from
	// envelopes, by their first bytes.
	Side func(data []byte) bool
	// Vote, when not nil, receives every side message, unparsed, in Run's
	// goroutine; it must not block. Without it such messages are dropped.
	Vote func(m Received)
	// Rejected, when not nil, is told about every received or fetched
	// envelope the log refused (not duplicates, not gaps), with the member
	// it came from, in Run's goroutine; it must not block.
	Rejected func(from Identity, env *Envelope, err error)
}

// Replica keeps one peer's copy of a table's log up to date: it appends what
// the transport delivers, persists it, asks members for missing ranges, and
// posts the peer's own envelopes durably before publishing them. Post and
// Changed are safe to call from other goroutines while Run runs.
type Replica struct {
	cfg     ReplicaConfig
	changed chan struct{}

	mu     sync.Mutex // orders Log.Append and Store.Put as one step
	failed error      // a store failure; the replica must be restarted
}

// NewReplica returns a replica and replays the stored log into cfg.Log
// (every envelope passes every check again, and the protocol layer's Apply
// rebuilds its state). A stored log that does not replay is an error.
func NewReplica(cfg ReplicaConfig) (*Replica, error) {
	if cfg.Log == nil || cfg.Store == nil || cfg.Transport == nil || cfg.Rand == nil {
		return nil, fmt.Errorf("table: NewReplica: Log, Store, Transport and Rand are required")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	table := cfg.Log.Table()
	next, err := cfg.Store.Next(table)
	if err != nil {
		return nil, err
	}
	envs, err := cfg.Store.Envelopes(table, 0, next)
	if err != nil {
		return nil, err
	}
	for _, e := range envs {
		if _, err := cfg.Log.Append(e); err != nil && !errors.Is(err, ErrDuplicate) {
			return nil, fmt.Errorf("table: stored log does not replay: %w", err)
		}
	}
	return &Replica{cfg: cfg, changed: make(chan struct{}, 1)}, nil
}

// Changed returns a channel that receives a value after the log has grown.
// Signals coalesce: one value may stand for many appends. Never closed.
func (r *Replica) Changed() <-chan struct{} { return r.changed }

func (r *Replica) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Post appends the peer's own envelope, makes it durable, and only then
// publishes it (the write-ahead rule). An error before the publish means
// nothing was sent.
func (r *Replica) Post(ctx context.Context, env *Envelope) error {
	if env == nil {
		return fmt.Errorf("%w: nil envelope", ErrMalformed)
	}
	enc, err := env.MarshalBinary()
	if err != nil {
		return err
	}
	if err := r.Append(env); err != nil {
		return err
	}
	return r.cfg.Transport.Publish(ctx, enc)
}

// Head returns the log's next seq and the hash of its last envelope once
// the store holds every envelope before it: a peer that drafts at that seq
// stores its secrets for it after them (see Store.Rewind).
func (r *Replica) Head() (uint64, Hash) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cfg.Log.Head()
}

// Append offers env to the log and stores what it appended.
func (r *Replica) Append(env *Envelope) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed != nil {
		return r.failed
	}
	appended, err := r.cfg.Log.Append(env)
	if len(appended) > 0 {
		if perr := r.cfg.Store.Put(appended...); perr != nil {
			r.failed = fmt.Errorf("table: replica store: %w", perr)
			return r.failed
		}
		r.notify()
	}
	var eq *EquivocationError
	if errors.As(err, &eq) {
		if perr := r.cfg.Store.PutEvidence(r.cfg.Log.Table(), eq.Evidence); perr != nil {
			r.failed = fmt.Errorf("table: replica store: %w", perr)
			return r.failed
		}
	}
	return err
}

type fetchJob struct {
	peer     Identity
	from, to uint64
}

type fetchResult struct {
	job  fetchJob
	data [][]byte
	err  error
}

// Run receives and fetches envelopes until ctx ends (then it returns nil),
// the transport closes its channel (ErrClosed), or the store fails. It
// starts one goroutine for range requests and waits for it before
// returning.
func (r *Replica) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	jobs := make(chan fetchJob, 1)
	results := make(chan fetchResult, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.fetch(ctx, jobs, results)
	}()
	defer func() {
		cancel()
		wg.Wait()
	}()
	msgs := r.cfg.Transport.Messages()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-msgs:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("%w: transport stopped delivering", ErrClosed)
			}
			if r.cfg.Side != nil && r.cfg.Side(m.Data) {
				if r.cfg.Vote != nil {
					r.cfg.Vote(m)
				}
				continue
			}
			gap, err := r.Receive(m.From, m.Data)
			if err != nil {
				return err
			}
			if gap != nil {
				r.request(jobs, fetchJob{peer: m.From, from: gap.From, to: gap.To})
			}
		case res := <-results:
			if res.err != nil {
				r.cfg.Logf("table: range [%d, %d) from %v: %v", res.job.from, res.job.to, res.job.peer, res.err)
			}
			for _, d := range res.data {
				if _, err := r.Receive(res.job.peer, d); err != nil {
					return err
				}
			}
			if from, to, ok := r.cfg.Log.Missing(); ok {
				r.request(jobs, fetchJob{peer: r.pickPeer(), from: from, to: to})
			} else if len(res.data) > 0 {
				// The member had more; it may have still more.
				next := r.cfg.Log.Next()
				r.request(jobs, fetchJob{peer: res.job.peer, from: next, to: next + MaxRange})
			}
		case <-r.cfg.Tick:
			from, to, ok := r.cfg.Log.Missing()
			if !ok {
				from = r.cfg.Log.Next()
				to = from + MaxRange
			}
			r.request(jobs, fetchJob{peer: r.pickPeer(), from: from, to: to})
		}
	}
}

// Receive parses and appends one received envelope. It returns the gap to
// fill, if any, and an error only when the replica can no longer go on.
func (r *Replica) Receive(from Identity, data []byte) (*GapError, error) {
	env, err := ParseEnvelope(data)
	if err != nil {
		r.cfg.Logf("table: dropped a received envelope: %v", err)
		return nil, nil
	}
	err = r.Append(env)
	var gap *GapError
	switch {
	case err == nil, errors.Is(err, ErrDuplicate):
		return nil, nil
	case errors.As(err, &gap):
		return gap, nil
	}
	r.mu.Lock()
	failed := r.failed
	r.mu.Unlock()
	if failed != nil {
		return nil, failed
	}
	r.cfg.Logf("table: rejected seq %d from seat %d: %v", env.Seq, env.Author, err)
	if r.cfg.Rejected != nil {
		r.cfg.Rejected(from, env, err)
	}
	return nil, nil
}

// request hands a range request to the fetch goroutine unless it is busy;
// a skipped request is made again on the next gap, result or tick.
func (r *Replica) request(jobs chan<- fetchJob, job fetchJob) {
	if len(r.cfg.Peers) == 0 {
		return
	}
	select {
	case jobs <- job:
	default:
	}
}

func (r *Replica) pickPeer() Identity {
	if len(r.cfg.Peers) == 0 {
		return Identity{}
	}
	return r.cfg.Peers[r.cfg.Rand.IntN(len(r.cfg.Peers))]
}

// fetch runs range requests one at a time until ctx ends.
func (r *Replica) fetch(ctx context.Context, jobs <-chan fetchJob, results chan<- fetchResult) {
	for {
		select {
		case <-ctx.Done():
			return
		case job := <-jobs:
			data, err := r.cfg.Transport.Fetch(ctx, job.peer, job.from, job.to)
			select {
			case results <- fetchResult{job: job, data: data, err: err}:
			case <-ctx.Done():
				return
			}
		}
	}
}
