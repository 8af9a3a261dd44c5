package sim

import (
	"fmt"
	"testing"
)

// BenchmarkGames reports games/s and the mean cards left for each bot at
// 2 and 4 players.
func BenchmarkGames(b *testing.B) {
	for _, kind := range []string{"greedy", "coop"} {
		for _, n := range []int{2, 4} {
			b.Run(fmt.Sprintf("%s/%dp", kind, n), func(b *testing.B) {
				left := 0
				for i := 0; b.Loop(); i++ {
					sum, err := Run(Config{Players: n, Games: 1, Seed: uint64(i), Bot: kind, Signals: true})
					if err != nil {
						b.Fatal(err)
					}
					left += sum.Left[0]
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(left)/float64(b.N), "cards-left")
			})
		}
	}
}
