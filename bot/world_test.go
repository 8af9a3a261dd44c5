package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/njetlan/njet/engine"
)

// TestWorldFitsTheView plays games with the heuristic and, at decisions of
// every phase, builds determinized games from the deciding seat's view. Each
// must show that seat exactly what it saw (hand, board, tricks, voids, hand
// sizes, whose turn), and give no seat a card of a suit it has shown it
// lacks (R-TRICK-2).
func TestWorldFitsTheView(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(tc.n)))
			g, err := engine.NewGame(engine.Config{Edition: tc.e, Players: tc.n, FirstDealer: 1 % tc.n})
			if err != nil {
				t.Fatal(err)
			}
			h := NewHeuristic(rand.New(rand.NewPCG(1, 1)))
			var det engine.Game
			checked := map[engine.Phase]int{}
			for steps := 0; g.Phase() != engine.PhaseGameOver && steps < 5000; steps++ {
				if p := g.Phase(); p == engine.PhaseDeal || p == engine.PhaseRoundOver {
					deck := tc.e.Deck(tc.n)
					rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
					if err := g.DealDeck(deck); err != nil {
						t.Fatal(err)
					}
					continue
				}
				s := g.Waiting()[0]
				v := g.View(s)
				legal := g.Legal(s)
				w, err := newWorld(&v)
				if err != nil {
					t.Fatalf("step %d, %s: %v", steps, v.Phase, err)
				}
				for k := range 3 {
					if _, err := w.build(&det, rng, nil); err != nil {
						t.Fatalf("step %d, %s, deal %d: %v", steps, v.Phase, k, err)
					}
					dv := det.View(s)
					switch {
					case dv.Hand != v.Hand:
						t.Fatalf("step %d: hand %v, want %v", steps, dv.Hand.Cards(tc.e), v.Hand.Cards(tc.e))
					case dv.Board != v.Board || dv.Phase != v.Phase || dv.Turn != v.Turn:
						t.Fatalf("step %d: board, phase or turn differ", steps)
					case !slices.Equal(dv.HandSizes, v.HandSizes) && v.Phase != engine.PhaseDiscard:
						t.Fatalf("step %d: hand sizes %v, want %v", steps, dv.HandSizes, v.HandSizes)
					case !slices.Equal(dv.Voids, v.Voids):
						t.Fatalf("step %d: voids %v, want %v", steps, dv.Voids, v.Voids)
					case fmt.Sprint(dv.Trick, dv.Tricks) != fmt.Sprint(v.Trick, v.Tricks):
						t.Fatalf("step %d: tricks differ", steps)
					case !slices.Equal(dv.Team, v.Team) || dv.Rules != v.Rules:
						t.Fatalf("step %d: teams or rules differ", steps)
					}
					for o := 0; o < tc.n; o++ {
						for _, c := range det.Held(o).Cards(tc.e) {
							if v.Voids[o]&(1<<engine.SuitOf(c, v.Rules)) != 0 {
								t.Fatalf("step %d: seat %d holds %s after showing a void in its suit", steps, o, c)
							}
						}
					}
					if !slices.Equal(det.Legal(s), legal) {
						t.Fatalf("step %d: legal actions differ", steps)
					}
				}
				checked[v.Phase]++
				if err := g.Apply(h.Act(&v, legal)); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("checked %v", checked)
		})
	}
}
