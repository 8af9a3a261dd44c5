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
	{"quick", 1920},
	{"normal", 15360},
	{"deep", 30720},
}

// DefaultPlayouts is the budget of the "search" kind without a level.
const DefaultPlayouts = 15360

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

// maxBlockCandidates bounds the blocks searched at one Njet decision.
const maxBlockCandidates = 8

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
// it takes the action with the best average margin for its own seat: its
// points (its team's, doubled when it holds the bonus) minus the mean of
// the other seats' points. The playout budget
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
	alive        []int     // the candidates still searched, by index
	means        []float64 // per candidate: paired mean against the prior
	vals         []float64 // per deal, per candidate: the seat's margin (NaN: not played)
	weights      []float64 // per deal: the weight of the blocks' evidence
	stats        SearchStats
}

// SearchStats counts what a Search did, for tests and benchmarks.
type SearchStats struct {
	Decisions int // calls to Act with more than one legal action
	Playouts  int
	Worlds    int // determinized deals built
	Fallbacks int // decisions left to the heuristic because no deal fitted
	Overrides int // decisions where the search chose against the heuristic
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
	// The heuristic's choice is the prior: the search departs from it only
	// where its playouts say, with confidence, that another action scores
	// more. Few playouts then cost little strength.
	prior := p.fallback.Act(v, legal)
	p.cands = p.candidates(v, legal, prior)
	h := slices.Index(p.cands, prior)
	nc := len(p.cands)
	// Sequential halving: the budget is spent in stages, and after each
	// stage the lower half of the candidates, by their paired mean against
	// the prior, is dropped (the prior stays). The comparison that decides,
	// the best candidate against the prior, so gets most of the deals.
	stages := 1
	for alive := nc; alive > 2; alive = (alive + 1) / 2 {
		stages++
	}
	p.alive = p.alive[:0]
	for i := range p.cands {
		p.alive = append(p.alive, i)
	}
	p.vals = p.vals[:0]
	p.weights = p.weights[:0]
	var start time.Time
	if p.limit > 0 {
		start = p.now()
	}
	it := 0
	timeUp := func() bool { return it > 0 && p.limit > 0 && p.now().Sub(start) >= p.limit }
stages:
	for st := 0; st < stages; st++ {
		if st > 0 {
			p.halve(h, nc)
		}
		deals := max(1, p.playouts/stages/len(p.alive))
		for range deals {
			if timeUp() {
				break stages
			}
			logw, err := w.build(&p.world, p.rng, p.ro.blockEvidence)
			it++
			if err != nil {
				continue
			}
			p.stats.Worlds++
			// Deals that fit the other seats' blocks count more (soft
			// evidence), tempered and bounded so that a few deals cannot
			// outweigh all the others.
			p.weights = append(p.weights, math.Exp(max(-3, min(3, evidenceWeight*logw))))
			seed := p.rng.Uint64()
			base := len(p.vals)
			for range p.cands {
				p.vals = append(p.vals, math.NaN()) // not played in this deal
			}
			for _, i := range p.alive {
				p.trial = p.world
				x := math.Inf(-1)
				if p.trial.Apply(p.cands[i]) == nil {
					// Every candidate meets the same luck in its rollout.
					p.ro.pcg.Seed(seed, uint64(it))
					x = p.ro.run(&p.trial, v.Seat)
					p.stats.Playouts++
				}
				p.vals[base+i] = x
			}
		}
	}
	if len(p.weights) == 0 {
		p.stats.Fallbacks++
		return prior
	}
	best, bestMean := h, math.Inf(-1)
	for _, i := range p.alive {
		if m, _ := p.paired(i, h, nc); i != h && m > bestMean {
			best, bestMean = i, m
		}
	}
	if best == h {
		return prior
	}
	if m, se := p.paired(best, h, nc); m > confidence*se && m > 0 {
		p.stats.Overrides++
		return p.cands[best]
	}
	return prior
}

// confidence is how many standard errors a candidate must score above the
// heuristic's choice for the search to prefer it.
const confidence = 1.0

// halve keeps the prior h and the better half of the other candidates
// still searched, by their paired mean against h, best first.
func (p *Search) halve(h, nc int) {
	keep := max(1, (len(p.alive)+1)/2-1)
	others := slices.DeleteFunc(p.alive, func(i int) bool { return i == h })
	if cap(p.means) < nc {
		p.means = make([]float64, nc)
	}
	means := p.means[:nc]
	for _, i := range others {
		means[i], _ = p.paired(i, h, nc)
	}
	slices.SortStableFunc(others, func(a, b int) int {
		switch ma, mb := means[a], means[b]; {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	p.alive = append(others[:min(keep, len(others))], h)
}

// paired returns the weighted mean, over the deals where both were played
// out, of candidate i's score minus candidate j's, and the standard error of
// that mean.
func (p *Search) paired(i, j, nc int) (mean, se float64) {
	var sw, sw2, sum float64
	for k, w := range p.weights {
		d := p.vals[k*nc+i] - p.vals[k*nc+j]
		if math.IsNaN(d) {
			continue // one of them was dropped before this deal
		}
		if math.IsInf(d, 0) {
			return math.Inf(-1), 0
		}
		sw += w
		sw2 += w * w
		sum += w * d
	}
	if sw == 0 {
		return math.Inf(-1), 0
	}
	mean = sum / sw
	var ss float64
	for k, w := range p.weights {
		d := p.vals[k*nc+i] - p.vals[k*nc+j] - mean
		if math.IsNaN(d) {
			continue
		}
		ss += w * d * d
	}
	neff := sw * sw / sw2
	if neff < 2 {
		return mean, math.Inf(1)
	}
	return mean, math.Sqrt(ss / sw / (neff - 1))
}

// candidates is the actions worth searching, prior among them: for a block
// the fields the seat's hand most wants gone, for a two-card discard the
// pairs of its least useful cards, otherwise every legal action.
func (p *Search) candidates(v *engine.View, legal []engine.Action, prior engine.Action) []engine.Action {
	out := append(p.cands[:0], legal...)
	var score func(i int) float64
	limit := len(out)
	switch legal[0].Kind {
	case engine.ActBlock:
		limit = maxBlockCandidates
		p.ro.legal = append(p.ro.legal[:0], out...)
		p.ro.blockScores(v.Hand, v.Seat)
		scores := p.ro.scores
		score = func(i int) float64 { return scores[i] }
	case engine.ActDiscard:
		limit = maxCandidates
		p.ro.setRules(v.Rules)
		score = func(i int) float64 {
			a := out[i]
			s := p.ro.keep(a.Cards[0])
			if a.Cards[1] != engine.NoCard {
				s += p.ro.keep(a.Cards[1])
			}
			return -float64(s)
		}
	}
	if len(out) <= limit {
		return out
	}
	// Order by score, best first, keeping the engine's order among equals.
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		sa, sb := score(a), score(b)
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	kept := make([]engine.Action, 0, limit+1)
	for _, i := range idx[:limit] {
		kept = append(kept, out[i])
	}
	if !slices.Contains(kept, prior) {
		kept = append(kept, prior)
	}
	return kept
}
