package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// DuelConfig describes a duplicate match between two bot kinds.
type DuelConfig struct {
	Edition engine.Edition
	Players int
	// Deals is the number of deals; each is played Seatings(Players) times.
	Deals int
	// Seed fixes the match: deal d (1-based) shuffles its deck and picks its
	// dealer from rand.NewPCG(Seed, d), and the bots of its seating k draw
	// from rand.NewPCG(Seed^duelSalt, d<<8|k<<3|seat).
	Seed uint64
	A, B string // bot kinds (bot.New)
	// TimeLimit, when positive, caps each decision of a search bot (see
	// bot.Search.SetTimeLimit); the results then depend on the machine.
	TimeLimit time.Duration
	// Workers is the number of deals played at once; 0 means GOMAXPROCS.
	// The result does not depend on it.
	Workers int
	// Progress, when not nil, is called after each deal in deal order, from
	// one goroutine at a time, with the standing so far.
	Progress func(DuelResult)
}

// duelSalt separates the bots' random streams from the deals'.
const duelSalt = 0x9e3779b97f4a7c15

// DuelResult is the standing of a duplicate match.
type DuelResult struct {
	A, B  string
	Deals int // deals played
	// PerSeatA and PerSeatB are the points one seat of each kind scored in
	// one round, on average over every seat it held in every seating.
	PerSeatA, PerSeatB float64
	// Diff is the mean over deals of the per-deal difference (A's points
	// per seat and round minus B's in that deal, over all its seatings);
	// Half is the half-width of its 95% confidence interval,
	// 1.96·s/√Deals with s the deals' sample standard deviation.
	Diff, Half float64
}

// Line is the one-line summary the duel command ends with.
func (r DuelResult) Line() string {
	return fmt.Sprintf("%s vs %s: points per seat per round %.3f vs %.3f, difference %.3f ± %.3f (95%% confidence)",
		r.A, r.B, r.PerSeatA, r.PerSeatB, r.Diff, r.Half)
}

// Gain is A's points per seat and round relative to B's, minus 1 (0.15 is
// 15% more); NaN when B's is not positive.
func (r DuelResult) Gain() float64 {
	if r.PerSeatB <= 0 {
		return math.NaN()
	}
	return r.PerSeatA/r.PerSeatB - 1
}

// Seatings lists, for a table of n seats, the seatings every deal is played
// with: seat s is held by kind A where seating[s] is true. They are the n
// rotations of "A in the first ⌈n/2⌉ seats", and for odd n also the n
// rotations of its complement, so that every seat is held by A and by B
// equally often and each kind sits in the majority as often as the other.
func Seatings(n int) [][]bool {
	var out [][]bool
	half := (n + 1) / 2
	for _, flip := range []bool{false, true} {
		if flip && n%2 == 0 {
			break
		}
		for r := 0; r < n; r++ {
			s := make([]bool, n)
			for i := 0; i < n; i++ {
				s[(i+r)%n] = (i < half) != flip
			}
			out = append(out, s)
		}
	}
	return out
}

// dealOutcome is what one deal gave each kind over all its seatings.
type dealOutcome struct {
	pointsA, pointsB float64
	seatsA, seatsB   int
	err              error
}

// Duel plays cfg.Deals deals in duplicate and returns the standing. It
// stops early, with the deals played so far and ctx's error, when ctx ends.
func Duel(ctx context.Context, cfg DuelConfig) (DuelResult, error) {
	res := DuelResult{A: cfg.A, B: cfg.B}
	if !cfg.Edition.Valid() {
		return res, fmt.Errorf("sim: duel: unknown edition %d", cfg.Edition)
	}
	if _, err := engine.NewGame(engine.Config{Edition: cfg.Edition, Players: cfg.Players}); err != nil {
		return res, fmt.Errorf("sim: duel: %w", err)
	}
	if cfg.Deals < 1 {
		return res, fmt.Errorf("sim: duel: %d deals, want at least 1", cfg.Deals)
	}
	for _, k := range []string{cfg.A, cfg.B} {
		if _, err := bot.New(k, rand.New(rand.NewPCG(0, 0))); err != nil {
			return res, fmt.Errorf("sim: duel: %w", err)
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Deals)
	seatings := Seatings(cfg.Players)
	outcomes := make([]dealOutcome, cfg.Deals)
	done := make([]chan struct{}, cfg.Deals)
	for i := range done {
		done[i] = make(chan struct{})
	}
	jobs := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range jobs {
				outcomes[d] = playDeal(cfg, d+1, seatings)
				close(done[d])
			}
		}()
	}
	go func() {
		defer close(jobs)
		for d := 0; d < cfg.Deals; d++ {
			select {
			case jobs <- d:
			case <-ctx.Done():
				return
			}
		}
	}()
	var diffs []float64
	var sumA, sumB float64
	var seatsA, seatsB int
	var err error
collect:
	for d := 0; d < cfg.Deals; d++ {
		select {
		case <-done[d]:
		case <-ctx.Done():
			err = ctx.Err()
			break collect
		}
		o := outcomes[d]
		if o.err != nil {
			err = fmt.Errorf("sim: duel: deal %d: %w", d+1, o.err)
			break
		}
		sumA += o.pointsA
		sumB += o.pointsB
		seatsA += o.seatsA
		seatsB += o.seatsB
		diffs = append(diffs, o.pointsA/float64(o.seatsA)-o.pointsB/float64(o.seatsB))
		res = standing(res, diffs, sumA, sumB, seatsA, seatsB)
		if cfg.Progress != nil {
			cfg.Progress(res)
		}
	}
	cancel()
	wg.Wait()
	return res, err
}

// standing fills in r's figures from the per-deal differences and sums.
func standing(r DuelResult, diffs []float64, sumA, sumB float64, seatsA, seatsB int) DuelResult {
	r.Deals = len(diffs)
	r.PerSeatA = sumA / float64(seatsA)
	r.PerSeatB = sumB / float64(seatsB)
	r.Diff, r.Half = meanHalf(diffs)
	return r
}

// meanHalf returns the mean of xs and the half-width of its 95% confidence
// interval by the normal approximation, 1.96·s/√n (0 for fewer than two).
func meanHalf(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// playDeal plays deal d once per seating.
func playDeal(cfg DuelConfig, d int, seatings [][]bool) dealOutcome {
	var o dealOutcome
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(d)))
	dealer := rng.IntN(cfg.Players)
	deck := cfg.Edition.Deck(cfg.Players)
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	for k, seating := range seatings {
		players := make([]bot.Player, cfg.Players)
		for s := range players {
			kind := cfg.B
			if seating[s] {
				kind = cfg.A
			}
			src := rand.New(rand.NewPCG(cfg.Seed^duelSalt, uint64(d)<<8|uint64(k)<<3|uint64(s)))
			p, err := bot.New(kind, src)
			if err != nil {
				o.err = err
				return o
			}
			if sp, ok := p.(*bot.Search); ok && cfg.TimeLimit > 0 {
				sp.SetTimeLimit(cfg.TimeLimit, nil)
			}
			players[s] = p
		}
		points, err := PlayRound(cfg.Edition, dealer, deck, players)
		if err != nil {
			o.err = fmt.Errorf("seating %d: %w", k+1, err)
			return o
		}
		for s, x := range points {
			if seating[s] {
				o.pointsA += float64(x)
				o.seatsA++
			} else {
				o.pointsB += float64(x)
				o.seatsB++
			}
		}
	}
	return o
}

// PlayRound plays one round of edition e from the given dealer and deck
// order (engine DealDeck) with one player per seat, and returns each seat's
// points in it.
func PlayRound(e engine.Edition, dealer int, deck []engine.Card, players []bot.Player) ([]int, error) {
	g, err := engine.NewGame(engine.Config{Edition: e, Players: len(players), FirstDealer: dealer})
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if err := g.DealDeck(deck); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	var legal []engine.Action
	for step := 0; step < maxSteps; step++ {
		ph := g.Phase()
		if ph == engine.PhaseRoundOver || ph == engine.PhaseGameOver {
			return g.History().Score.Points, nil
		}
		waiting := g.Waiting()
		if len(waiting) == 0 {
			return nil, fmt.Errorf("%w: nobody to act in phase %s", ErrStuck, ph)
		}
		s := waiting[0]
		legal = g.AppendLegal(legal[:0], s)
		if len(legal) == 0 {
			return nil, fmt.Errorf("%w: seat %d has no legal action in phase %s", ErrStuck, s, ph)
		}
		v := g.View(s)
		a := players[s].Act(&v, legal)
		if err := g.Apply(a); err != nil {
			return nil, fmt.Errorf("sim: seat %d (%s): %w", s, players[s].Name(), err)
		}
	}
	return nil, fmt.Errorf("%w: more than %d actions", ErrStuck, maxSteps)
}
