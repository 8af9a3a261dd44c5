package bot_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// decision is one position a seat had to decide, as it saw it.
type decision struct {
	view  engine.View
	legal []engine.Action
}

// decisions collects every decision with a choice from games of heuristic
// players: blocks, team choices, discards, passes and plays.
func decisions(tb testing.TB, e engine.Edition, n, games int, seed uint64) []decision {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var out []decision
	for range games {
		g, err := engine.NewGame(engine.Config{Edition: e, Players: n, FirstDealer: rng.IntN(n)})
		if err != nil {
			tb.Fatal(err)
		}
		players := make([]bot.Player, n)
		for s := range players {
			players[s] = bot.NewHeuristic(rand.New(rand.NewPCG(rng.Uint64(), 1)))
		}
		for steps := 0; g.Phase() != engine.PhaseGameOver; steps++ {
			if steps > 100000 {
				tb.Fatal("the game does not end")
			}
			if p := g.Phase(); p == engine.PhaseDeal || p == engine.PhaseRoundOver {
				deck := e.Deck(n)
				rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				if err := g.DealDeck(deck); err != nil {
					tb.Fatal(err)
				}
				continue
			}
			s := g.Waiting()[0]
			legal := g.Legal(s)
			v := g.View(s)
			if len(legal) > 1 {
				out = append(out, decision{view: v, legal: legal})
			}
			if err := g.Apply(players[s].Act(&v, legal)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkSearchDecision measures one search decision at each level over
// the decisions of whole games (Classic 3 and 4, Modern 2 to 5 players), every
// phase mixed as it comes in play: time per decision (mean, median and the
// slowest), decisions per second, and memory per decision (B/op); on Linux
// also the processor time of a decision (median and the slowest), which a
// loaded machine does not inflate.
func BenchmarkSearchDecision(b *testing.B) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}} {
		ds := decisions(b, tc.e, tc.n, 1, 7)
		for _, level := range []string{"quick", "normal", "deep"} {
			b.Run(fmt.Sprintf("%s%d/%s", tc.e, tc.n, level), func(b *testing.B) {
				p, err := bot.New("search:"+level, rand.New(rand.NewPCG(1, 2)))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				i := 0
				var times, cpu []time.Duration
				for b.Loop() {
					d := &ds[i%len(ds)]
					start := time.Now()
					c0, ok0 := threadCPU()
					p.Act(&d.view, d.legal)
					c1, ok1 := threadCPU()
					times = append(times, time.Since(start))
					if ok0 && ok1 {
						cpu = append(cpu, c1-c0)
					}
					i++
				}
				sec := b.Elapsed().Seconds()
				slices.Sort(times)
				b.ReportMetric(sec*1e3/float64(i), "ms/decision")
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median")
				b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "ms-max")
				b.ReportMetric(float64(i)/sec, "decisions/s")
				// The processor time of a decision does not count the time
				// it waited for a core on a loaded machine.
				if len(cpu) == i {
					slices.Sort(cpu)
					b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1e3, "cpu-ms-median")
					b.ReportMetric(float64(cpu[len(cpu)-1].Microseconds())/1e3, "cpu-ms-max")
				}
			})
		}
	}
}
