package table

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// BenchmarkDealEscrow measures a round's deal (round keys, shuffles and
// deal tokens, from the first RoundKey to the first Block) with and
// without the escrow: the processor time of the whole table (every seat
// drafts its envelopes, and every seat's game and an observer's check
// them, on one thread) per deal, the same divided among the devices, and
// the bytes of the deal's envelope bodies.
func BenchmarkDealEscrow(b *testing.B) {
	for _, players := range []int{3, 4, 5} {
		for _, escrow := range []bool{false, true} {
			b.Run(fmt.Sprintf("players=%d/escrow=%v", players, escrow), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var cpu time.Duration
				bytes := 0
				for i := range b.N {
					b.StopTimer()
					d := newDriver(b, engine.Modern, players, 1, uint64(i))
					for _, g := range d.games {
						g.noEscrow = !escrow
					}
					for {
						if _, kind, err := d.turn(); err != nil || kind != tablelog.KindAck {
							break
						}
						d.step()
					}
					b.StartTimer()
					c0, ok := threadCPU()
					start := time.Now()
					for {
						seat, kind, err := d.turn()
						if err != nil || kind == tablelog.KindBlock {
							break
						}
						env := d.envelope(seat)
						bytes += len(env.Body)
						d.postAll(env)
					}
					if c1, _ := threadCPU(); ok {
						cpu += c1 - c0
					} else {
						cpu += time.Since(start)
					}
				}
				ms := float64(cpu.Microseconds()) / 1e3 / float64(b.N)
				b.ReportMetric(ms, "cpu-ms/deal")
				b.ReportMetric(ms/float64(players+1), "cpu-ms/deal/device")
				b.ReportMetric(float64(bytes)/float64(b.N), "bytes/deal")
			})
		}
	}
}
