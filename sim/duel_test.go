package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// TestSeatings checks the duplicate rotation: at every table each seat is
// held by A as often as by B, and A and B hold as many seats in all.
func TestSeatings(t *testing.T) {
	for n, want := range map[int]int{2: 2, 3: 6, 4: 4, 5: 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ss := Seatings(n)
			if len(ss) != want {
				t.Fatalf("%d seatings, want %d", len(ss), want)
			}
			total := 0
			for s := 0; s < n; s++ {
				a := 0
				for _, seating := range ss {
					if seating[s] {
						a++
					}
				}
				if 2*a != len(ss) {
					t.Errorf("seat %d is A in %d of %d seatings", s, a, len(ss))
				}
				total += a
			}
			if 2*total != n*len(ss) {
				t.Errorf("A holds %d of %d seats", total, n*len(ss))
			}
		})
	}
}

func TestMeanHalf(t *testing.T) {
	for _, tc := range []struct {
		xs         []float64
		mean, half float64
	}{
		{nil, 0, 0},
		{[]float64{3}, 3, 0},
		{[]float64{1, 2, 3, 4}, 2.5, 1.96 * math.Sqrt(5.0/3) / 2},
		{[]float64{-2, 2}, 0, 1.96 * math.Sqrt(8) / math.Sqrt(2)},
	} {
		m, h := meanHalf(tc.xs)
		if math.Abs(m-tc.mean) > 1e-12 || math.Abs(h-tc.half) > 1e-12 {
			t.Errorf("meanHalf(%v) = %v ± %v, want %v ± %v", tc.xs, m, h, tc.mean, tc.half)
		}
	}
}

// TestDuelStatistics replays a tiny duel deal by deal, seating by seating,
// and checks the figures Duel reports against sums made here: the points
// per seat and round of each kind, the mean of the per-deal differences and
// 1.96 times their standard deviation over the square root of the deals.
// It also checks that the number of workers does not change the result.
func TestDuelStatistics(t *testing.T) {
	cfg := DuelConfig{Edition: engine.Modern, Players: 3, Deals: 5, Seed: 11, A: "heuristic", B: "random"}
	var diffs []float64
	var sumA, sumB float64
	var nA, nB int
	seatings := Seatings(cfg.Players)
	for d := 1; d <= cfg.Deals; d++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(d)))
		dealer := rng.IntN(cfg.Players)
		deck := cfg.Edition.Deck(cfg.Players)
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		var dA, dB float64
		for k, seating := range seatings {
			players := make([]bot.Player, cfg.Players)
			for s := range players {
				src := rand.New(rand.NewPCG(cfg.Seed^duelSalt, uint64(d)<<8|uint64(k)<<3|uint64(s)))
				if seating[s] {
					players[s] = bot.NewHeuristic(src)
				} else {
					players[s] = bot.NewRandom(src)
				}
			}
			points, err := PlayRound(cfg.Edition, dealer, deck, players)
			if err != nil {
				t.Fatal(err)
			}
			for s, x := range points {
				if seating[s] {
					dA += float64(x)
					nA++
				} else {
					dB += float64(x)
					nB++
				}
			}
		}
		sumA += dA
		sumB += dB
		per := float64(len(seatings)*cfg.Players) / 2
		diffs = append(diffs, dA/per-dB/per)
	}
	mean := 0.0
	for _, x := range diffs {
		mean += x
	}
	mean /= float64(len(diffs))
	ss := 0.0
	for _, x := range diffs {
		ss += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(ss/float64(len(diffs)-1)) / math.Sqrt(float64(len(diffs)))

	var progress []int
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			c := cfg
			c.Workers = workers
			progress = progress[:0]
			c.Progress = func(r DuelResult) { progress = append(progress, r.Deals) }
			r, err := Duel(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
			if r.Deals != cfg.Deals || !near(r.PerSeatA, sumA/float64(nA)) || !near(r.PerSeatB, sumB/float64(nB)) ||
				!near(r.Diff, mean) || !near(r.Half, half) {
				t.Fatalf("got %+v, want %d deals, %v vs %v, difference %v ± %v",
					r, cfg.Deals, sumA/float64(nA), sumB/float64(nB), mean, half)
			}
			if !near(r.Diff, r.PerSeatA-r.PerSeatB) {
				t.Errorf("difference %v is not A's %v minus B's %v", r.Diff, r.PerSeatA, r.PerSeatB)
			}
			if fmt.Sprint(progress) != "[1 2 3 4 5]" {
				t.Errorf("progress after deals %v, want 1 to 5 in order", progress)
			}
		})
	}
}

// TestDuelLine pins the format of the line the duel command ends with.
func TestDuelLine(t *testing.T) {
	r := DuelResult{A: "search", B: "heuristic", PerSeatA: 12.3456, PerSeatB: 10, Diff: 2.3456, Half: 0.5}
	want := "search vs heuristic: points per seat per round 12.346 vs 10.000, difference 2.346 ± 0.500 (95% confidence)"
	if got := r.Line(); got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
	re := regexp.MustCompile(`^\S+ vs \S+: points per seat per round -?[0-9.]+ vs -?[0-9.]+, difference -?[0-9.]+ ± [0-9.]+ \(95% confidence\)$`)
	if !re.MatchString(r.Line()) {
		t.Fatalf("Line() = %q does not match %s", r.Line(), re)
	}
	if g := r.Gain(); math.Abs(g-0.23456) > 1e-9 {
		t.Errorf("Gain() = %v, want 0.23456", g)
	}
}

func TestDuelErrors(t *testing.T) {
	ok := DuelConfig{Edition: engine.Classic, Players: 4, Deals: 1, A: "random", B: "heuristic"}
	for _, tc := range []struct {
		name string
		edit func(*DuelConfig)
	}{
		{"no edition", func(c *DuelConfig) { c.Edition = 0 }},
		{"classic 5", func(c *DuelConfig) { c.Players = 5 }},
		{"modern 1", func(c *DuelConfig) { c.Edition, c.Players = engine.Modern, 1 }},
		{"no deals", func(c *DuelConfig) { c.Deals = 0 }},
		{"unknown A", func(c *DuelConfig) { c.A = "genius" }},
		{"unknown B", func(c *DuelConfig) { c.B = "search:zero" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if _, err := Duel(context.Background(), c); err == nil {
				t.Fatal("no error")
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		c := ok
		c.Deals = 50
		if _, err := Duel(ctx, c); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	})
}
