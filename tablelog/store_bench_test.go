package tablelog

import (
	"path/filepath"
	"testing"
)

// BenchmarkStoreAppend measures one durable Put of one envelope (fsync
// included), the cost a peer pays before it sends anything.
func BenchmarkStoreAppend(b *testing.B) {
	f := newFixture(b, 3, uint64(b.N)+10)
	envs := f.chain(b, b.N)
	s, err := OpenStore(filepath.Join(b.TempDir(), "njet.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ResetTimer()
	for _, e := range envs {
		if err := s.Put(e); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/envelope")
}
