package table

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkTheGameTable plays whole games of The Game Extreme with coop
// bots on a MemNetwork and verifies each log: the time of a game, of its
// verification, and the size of its log.
func BenchmarkTheGameTable(b *testing.B) {
	for _, n := range []int{1, 3, 5} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var envs, size, games int
			var play, verify time.Duration
			seed := uint64(0)
			for b.Loop() {
				seed++
				s, err := newTestSelfplay(theGameConfig(b, n, true, seed))
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				start := time.Now()
				err = s.Run(ctx)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				play += time.Since(start)
				x := seatExport(b, s, 0)
				start = time.Now()
				v, err := Verify(bytes.NewReader(x))
				if err != nil {
					b.Fatal(err)
				}
				verify += time.Since(start)
				envs += v.Envelopes
				size += len(x)
				games++
			}
			b.ReportMetric(float64(play.Milliseconds())/float64(games), "ms/game")
			b.ReportMetric(float64(verify.Milliseconds())/float64(games), "ms/verify")
			b.ReportMetric(float64(envs)/float64(games), "envelopes/game")
			b.ReportMetric(float64(size)/1024/float64(games), "KiB/log")
		})
	}
}
