package sim_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/njetlan/njet/sim"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCheckRecordsInconsistent checks that records which contradict each
// other within a game are an error, not a panic.
func TestCheckRecordsInconsistent(t *testing.T) {
	five := readTestdata(t, "modern5.jsonl")
	for name, tamper := range map[string]func(r []sim.Record){
		"R-SEAT count changes within a game": func(r []sim.Record) {
			r[1].Players = 3
			r[1].Characters, r[1].Hands = r[1].Characters[:3], r[1].Hands[:3]
			r[1].Discards, r[1].Passes = r[1].Discards[:3], r[1].Passes[:3]
			r[1].Score.Points, r[1].Totals = r[1].Score.Points[:3], r[1].Totals[:3]
		},
		"R-SEAT count shrinks within a game": func(r []sim.Record) {
			r[0].Players = 3
			r[0].Totals = r[0].Totals[:3]
		},
		"edition changes within a game": func(r []sim.Record) { r[1].Edition = "classic" },
		"totals of the wrong length":    func(r []sim.Record) { r[0].Totals = r[0].Totals[:2] },
	} {
		t.Run(name, func(t *testing.T) {
			recs, err := sim.ReadRecords(bytes.NewReader(five))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) < 2 || recs[0].Game != recs[1].Game {
				t.Fatal("the test data has no second round")
			}
			tamper(recs)
			if err := sim.CheckRecords(recs); !errors.Is(err, sim.ErrRecord) {
				t.Fatalf("got %v, want ErrRecord", err)
			}
		})
	}
}

// FuzzCheckRecords reads any bytes as a records file and checks them: an
// error or nil, never a panic; the test data is the seed.
func FuzzCheckRecords(f *testing.F) {
	for _, name := range []string{"classic4.jsonl", "modern2.jsonl", "modern5.jsonl"} {
		data := readTestdata(f, name)
		f.Add(data)
		if i := bytes.IndexByte(data, '\n'); i > 0 {
			f.Add(data[:i+1])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := sim.ReadRecords(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := sim.CheckRecords(recs); err != nil && !errors.Is(err, sim.ErrRecord) {
			t.Fatalf("an error that is not ErrRecord: %v", err)
		}
	})
}
