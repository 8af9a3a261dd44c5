package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRandomRound plays random legal rounds: a shuffled deal, then a
// uniformly random legal action of a waiting seat until the round is scored.
// A new game starts when one ends.
func BenchmarkRandomRound(b *testing.B) {
	for _, su := range setups {
		b.Run(setupName(su.ed, su.players), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			cfg := Config{Edition: su.ed, Players: su.players}
			g, err := NewGame(cfg)
			if err != nil {
				b.Fatal(err)
			}
			deck := su.ed.Deck(su.players)
			buf := make([]Action, 0, 256)
			waiting := make([]int, 0, maxSeats)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if g.Phase() == PhaseGameOver {
					if g, err = NewGame(cfg); err != nil {
						b.Fatal(err)
					}
				}
				r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				if err := g.DealDeck(deck); err != nil {
					b.Fatal(err)
				}
				for g.Phase() != PhaseRoundOver && g.Phase() != PhaseGameOver {
					seat := g.Turn()
					if seat < 0 {
						waiting = g.AppendWaiting(waiting[:0])
						seat = waiting[r.IntN(len(waiting))]
					}
					buf = g.AppendLegal(buf[:0], seat)
					if err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}
