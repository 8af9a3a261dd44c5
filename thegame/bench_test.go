package thegame

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRandomGame plays whole 3-player games with random legal actions
// and reports games/s and actions/s through Apply, Legal and Feed.
func BenchmarkRandomGame(b *testing.B) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			actions := 0
			for i := 0; b.Loop(); i++ {
				deck := shuffled(uint64(i))
				r := rand.New(rand.NewPCG(uint64(i), 5))
				g, err := NewGame(Config{Players: 3, Extreme: v.extreme})
				if err != nil {
					b.Fatal(err)
				}
				for g.Phase() != PhaseOver {
					if err := g.Feed(deck); err != nil {
						b.Fatal(err)
					}
					if g.Phase() == PhaseOver {
						break
					}
					legal := g.Legal(g.Turn())
					if err := g.Apply(legal[r.IntN(len(legal))]); err != nil {
						b.Fatal(err)
					}
					actions++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
