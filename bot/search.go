package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/njetlan/njet/engine"
)

// Search levels: how many playouts a decision may use. A playout is one
// determinized round played to its end after one candidate action.
var searchLevels = []struct {
	Name     string
	Playouts int
}{
	{"quick", 240},
	{"normal", 960},
	{"deep", 3840},
}

// DefaultPlayouts is the budget of the "search" kind without a level.
const DefaultPlayouts = 960

// SearchLevels lists the level names New accepts after "search:", weakest
// first, with their playout budgets.
func SearchLevels() []string {
	out := make([]string, len(searchLevels))
	for i, l := range searchLevels {
		out[i] = l.Name + "=" + strconv.Itoa(l.Playouts)
	}
	return out
}

// maxPlayouts bounds a budget given as a number.
const maxPlayouts = 1 << 20

// evidenceWeight tempers the likelihood of the other seats' blocks.
const evidenceWeight = 0.5

// maxCandidates bounds the actions searched at one decision; a two-card
// discard (up to 120 pairs) is cut to the pairs of the least useful cards.
const maxCandidates = 24

// parseSearch reads the part of a kind after "search:": a level name or a
// playout count.
func parseSearch(spec string) (int, error) {
	if spec == "" {
		return DefaultPlayouts, nil
	}
	for _, l := range searchLevels {
		if spec == l.Name {
			return l.Playouts, nil
		}
	}
	n, err := strconv.Atoi(spec)
	if err != nil || n < 1 || n > maxPlayouts {
		names := make([]string, len(searchLevels))
		for i, l := range searchLevels {
			names[i] = l.Name
		}
		return 0, fmt.Errorf("%w: search level %q (want %s, or a number of playouts from 1 to %d)",
			ErrUnknownKind, spec, strings.Join(names, ", "), maxPlayouts)
	}
	return n, nil
}

// Search decides every action by determinized search (perfect-information
// Monte Carlo): for each of many deals of the hidden cards that agree with
// everything its seat has seen, it replays the round, tries every candidate
// action and plays the round out with a fast greedy policy for all seats;
// it takes the action with the best average score for its own seat, which
// is its team's score, doubled when it holds the bonus. The playout budget
// fixes its strength and its cost; given a seed and a budget it is
// deterministic. With a time limit (SetTimeLimit) it stops early when the
// clock says so, and then it is not.
type Search struct {
	rng      *rand.Rand
	playouts int
	name     string
	limit    time.Duration
	now      func() time.Time
	fallback *Heuristic

	world, trial engine.Game
	ro           *rollout
	cands        []engine.Action
	sums         []float64
	stats        SearchStats
}

// SearchStats counts what a Search did, for tests and benchmarks.
type SearchStats struct {
	Decisions int // calls to Act with more than one legal action
	Playouts  int
	Worlds    int // determinized deals built
	Fallbacks int // decisions left to the heuristic because no deal fitted
}

// NewSearch returns a Search player with the given playout budget per
// decision (at least 1) drawing from rng.
func NewSearch(rng *rand.Rand, playouts int) *Search {
	playouts = max(1, playouts)
	name := "search"
	if playouts != DefaultPlayouts {
		name = "search:" + strconv.Itoa(playouts)
		for _, l := range searchLevels {
			if l.Playouts == playouts {
				name = "search:" + l.Name
			}
		}
	}
	return &Search{rng: rng, playouts: playouts, name: name, fallback: NewHeuristic(rng)}
}

// SetTimeLimit caps the time of one decision at d (0: no cap), read from
// now (time.Now when nil). The search always completes one playout of every
// candidate. A capped search depends on the machine's speed: only the
// playout budget makes it reproducible.
func (p *Search) SetTimeLimit(d time.Duration, now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	p.limit, p.now = d, now
}

// Name returns "search", or "search:LEVEL" for another budget.
func (p *Search) Name() string { return p.name }

// Stats returns the counts so far.
func (p *Search) Stats() SearchStats { return p.stats }

// Act searches the legal actions and returns the best one.
func (p *Search) Act(v *engine.View, legal []engine.Action) engine.Action {
	if len(legal) == 0 {
		return engine.Action{}
	}
	if len(legal) == 1 || v == nil {
		return legal[0]
	}
	p.stats.Decisions++
	w, err := newWorld(v)
	if err != nil {
		p.stats.Fallbacks++
		return p.fallback.Act(v, legal)
	}
	if p.ro == nil || p.ro.e != v.Edition || p.ro.n != v.Players || !slices.Equal(p.ro.chars, v.Characters) {
		p.ro = newRollout(v.Edition, slices.Clone(v.Characters))
	}
	p.cands = p.candidates(v, legal)
	if cap(p.sums) < len(p.cands) {
		p.sums = make([]float64, len(p.cands))
	}
	p.sums = p.sums[:len(p.cands)]
	clear(p.sums)
	var start time.Time
	if p.limit > 0 {
		start = p.now()
	}
	rounds := (p.playouts + len(p.cands) - 1) / len(p.cands)
	built := 0
	for it := 0; it < rounds; it++ {
		if it > 0 && p.limit > 0 && p.now().Sub(start) >= p.limit {
			break
		}
		logw, err := w.build(&p.world, p.rng, p.ro.blockEvidence)
		if err != nil {
			continue
		}
		built++
		p.stats.Worlds++
		// Deals that fit the other seats' blocks count more (soft
		// evidence), tempered and bounded so that a few deals cannot
		// outweigh all the others.
		weight := math.Exp(max(-4, min(4, evidenceWeight*logw)))
		seed := p.rng.Uint64()
		for i, a := range p.cands {
			p.trial = p.world
			if err := p.trial.Apply(a); err != nil {
				p.sums[i] = math.Inf(-1)
				continue
			}
			// Every candidate meets the same luck in its rollout.
			p.ro.pcg.Seed(seed, uint64(it))
			p.sums[i] += weight * float64(p.ro.run(&p.trial, v.Seat))
			p.stats.Playouts++
		}
	}
	if built == 0 {
		p.stats.Fallbacks++
		return p.fallback.Act(v, legal)
	}
	best := 0
	for i := 1; i < len(p.sums); i++ {
		if p.sums[i] > p.sums[best] {
			best = i
		}
	}
	return p.cands[best]
}

// candidates is legal, cut to maxCandidates for a two-card discard: the
// pairs whose cards the rollout policy values least.
func (p *Search) candidates(v *engine.View, legal []engine.Action) []engine.Action {
	if len(legal) <= maxCandidates || legal[0].Kind != engine.ActDiscard {
		return legal
	}
	p.ro.setRules(v.Rules)
	out := slices.Clone(legal)
	score := func(a engine.Action) int {
		s := p.ro.keep(a.Cards[0])
		if a.Cards[1] != engine.NoCard {
			s += p.ro.keep(a.Cards[1])
		}
		return s
	}
	slices.SortStableFunc(out, func(a, b engine.Action) int { return score(a) - score(b) })
	return out[:maxCandidates]
}
