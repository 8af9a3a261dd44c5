package sim

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/njetlan/njet/thegame"
)

func TestRunRecordsReplay(t *testing.T) {
	for _, extreme := range []bool{false, true} {
		for _, kind := range []string{"greedy", "coop"} {
			for n := 1; n <= 5; n++ {
				t.Run(fmt.Sprintf("%s/extreme=%v/%dp", kind, extreme, n), func(t *testing.T) {
					var buf bytes.Buffer
					cfg := Config{Players: n, Extreme: extreme, Games: 3, Seed: 9, Bot: kind, Signals: true, Record: &buf}
					sum, err := Run(cfg)
					if err != nil {
						t.Fatal(err)
					}
					recs, err := ReadRecords(&buf)
					if err != nil {
						t.Fatal(err)
					}
					if len(recs) != 3 || sum.Games != 3 || len(sum.Left) != 3 {
						t.Fatalf("%d records, summary %+v", len(recs), sum)
					}
					if err := CheckRecords(recs); err != nil {
						t.Fatal(err)
					}
					for i, r := range recs {
						if r.Result.CardsLeft != sum.Left[i] || r.Players != n || (r.Variant == "extreme") != extreme {
							t.Errorf("record %d: %+v vs %d left", i, r.Result, sum.Left[i])
						}
					}
					again, err := Run(Config{Players: n, Extreme: extreme, Games: 3, Seed: 9, Bot: kind, Signals: true})
					if err != nil || fmt.Sprint(again.Left) != fmt.Sprint(sum.Left) {
						t.Fatalf("the same seed gave %v then %v (%v)", sum.Left, again.Left, err)
					}
				})
			}
		}
	}
}

func TestCheckRecordsCatchesTampering(t *testing.T) {
	var buf bytes.Buffer
	if _, err := Run(Config{Players: 2, Games: 1, Seed: 4, Bot: "coop", Signals: true, Record: &buf}); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(buf.String())
	cases := map[string]func(string) string{
		"result":      func(s string) string { return strings.Replace(s, `"cardsLeft":`, `"cardsLeft":1`, 1) },
		"format":      func(s string) string { return strings.Replace(s, `"format":1`, `"format":7`, 1) },
		"unknown key": func(s string) string { return strings.Replace(s, `{"format"`, `{"extra":1,"format"`, 1) },
		"not json":    func(s string) string { return s[:len(s)/2] },
		"deck":        func(s string) string { return strings.Replace(s, `"deck":[`, `"deck":[2,`, 1) },
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			recs, err := ReadRecords(strings.NewReader(tamper(line)))
			if err == nil {
				err = CheckRecords(recs)
			}
			if !errors.Is(err, ErrBadRecord) {
				t.Fatalf("error %v, want ErrBadRecord", err)
			}
		})
	}
}

func TestMeanAndDiffIntervals(t *testing.T) {
	m, h := MeanCI([]int{2, 4, 6})
	if m != 4 || h < 2.26 || h > 2.27 {
		t.Errorf("MeanCI = %v ± %v, want 4 ± 2.263", m, h)
	}
	d, h, err := DiffCI([]int{5, 5, 5}, []int{3, 3, 3})
	if err != nil || d != 2 || h != 0 {
		t.Errorf("DiffCI = %v ± %v, %v", d, h, err)
	}
	if _, _, err := DiffCI([]int{1}, nil); err == nil {
		t.Error("DiffCI of unequal batches")
	}
	if _, err := Run(Config{Players: 2, Games: 0, Bot: "coop"}); err == nil {
		t.Error("Run with no games")
	}
	if _, err := Run(Config{Players: 2, Games: 1, Bot: "oracle"}); err == nil {
		t.Error("Run with an unknown bot")
	}
	if _, err := Run(Config{Players: 9, Games: 1, Bot: "coop"}); !errors.Is(err, thegame.ErrBadConfig) {
		t.Errorf("Run with 9 players: %v", err)
	}
}

func TestWilson(t *testing.T) {
	cases := []struct {
		k, n   int
		lo, hi float64 // to 0.0005
	}{
		{0, 1000, 0, 0.0038},
		{1000, 1000, 0.9962, 1},
		{123, 1000, 0.1040, 0.1448},
		{1, 2, 0.0945, 0.9055},
		{0, 0, 0, 1},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d-of-%d", tc.k, tc.n), func(t *testing.T) {
			lo, hi := Wilson(tc.k, tc.n)
			if math.Abs(lo-tc.lo) > 0.0005 || math.Abs(hi-tc.hi) > 0.0005 {
				t.Errorf("Wilson(%d, %d) = %.4f..%.4f, want %.4f..%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
			}
			if tc.n > 0 && (hi <= lo || float64(tc.k)/float64(tc.n) < lo || float64(tc.k)/float64(tc.n) > hi) {
				t.Errorf("the interval %.4f..%.4f does not hold the rate", lo, hi)
			}
		})
	}
}
