package bot

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/thegame"
)

// BenchmarkDecision plays whole games, one per iteration (seeded by the
// iteration), every seat the same kind, and times each decision of the
// bots (Act, and Talk between turns) and each Apply of the engine in
// processor time of the thread: on a loaded machine that leaves out the
// time spent waiting for a core. It reports the 99th percentile and the
// worst decision, the worst Apply, and the processor time of the slowest
// whole game. Run it with -benchtime Nx for N games per kind, variant and
// player count.
func BenchmarkDecision(b *testing.B) {
	if _, ok := threadCPU(); !ok {
		b.Skip("no per-thread processor time on this system")
	}
	for _, kind := range Kinds() {
		for _, extreme := range []bool{false, true} {
			for n := thegame.MinPlayers; n <= thegame.MaxPlayers; n++ {
				name := fmt.Sprintf("%s/%s/%dp", kind, map[bool]string{false: "base", true: "extreme"}[extreme], n)
				b.Run(name, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var t timings
					for i := 0; b.Loop(); i++ {
						if err := t.game(kind, n, extreme, uint64(i)); err != nil {
							b.Fatal(err)
						}
					}
					t.report(b)
				})
			}
		}
	}
}

// timings collects processor times of one benchmark.
type timings struct {
	decisions []time.Duration
	applyMax  time.Duration
	gameMax   time.Duration
}

// measure runs f and returns the processor time it took.
func measure(f func()) time.Duration {
	c0, _ := threadCPU()
	f()
	c1, _ := threadCPU()
	return c1 - c0
}

func (t *timings) game(kind string, n int, extreme bool, seed uint64) error {
	g, err := thegame.NewGame(thegame.Config{Players: n, Extreme: extreme})
	if err != nil {
		return err
	}
	deck := thegame.Deck()
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	players := make([]Player, n)
	for s := range players {
		if players[s], err = New(kind, true); err != nil {
			return err
		}
	}
	var total time.Duration
	apply := func(a thegame.Action) error {
		var err error
		d := measure(func() { err = g.Apply(a) })
		t.applyMax = max(t.applyMax, d)
		total += d
		return err
	}
	talked := -1
	for range 20000 {
		if err := g.Feed(deck); err != nil {
			return err
		}
		if g.Phase() == thegame.PhaseOver {
			t.gameMax = max(t.gameMax, total)
			return nil
		}
		if talked != g.Turns() {
			talked = g.Turns()
			for s := range n {
				v := g.View(s)
				var acts []thegame.Action
				d := measure(func() { acts = players[s].Talk(&v) })
				t.decisions = append(t.decisions, d)
				total += d
				for _, a := range acts {
					if g.CanSignal() {
						if err := apply(a); err != nil {
							return err
						}
					}
				}
			}
		}
		v := g.View(g.Turn())
		var a thegame.Action
		d := measure(func() { a = players[g.Turn()].Act(&v) })
		t.decisions = append(t.decisions, d)
		total += d
		if err := apply(a); err != nil {
			return err
		}
	}
	return fmt.Errorf("the game of seed %d did not end", seed)
}

func (t *timings) report(b *testing.B) {
	if len(t.decisions) == 0 {
		return
	}
	slices.Sort(t.decisions)
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(ms(t.decisions[len(t.decisions)*99/100]), "cpu-ms-p99")
	b.ReportMetric(ms(t.decisions[len(t.decisions)-1]), "cpu-ms-max")
	b.ReportMetric(ms(t.applyMax), "apply-cpu-ms-max")
	b.ReportMetric(ms(t.gameMax), "game-cpu-ms-max")
	b.ReportMetric(float64(len(t.decisions))/float64(b.N), "decisions/game")
}
