package sim

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
)

// TestRecordVariantR_END: every record names how long its game lasts, a
// game of fixed length gives its number of rounds, and only the round that
// ended the game is marked over, so a reader tells a finished game from a
// cut one (UnfinishedGames).
func TestRecordVariantR_END(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		variant string
		rounds  int
	}{
		{"classic whole", Config{Edition: engine.Classic, Players: 4}, VariantWhole, 8},
		{"classic short", Config{Edition: engine.Classic, Players: 3, Short: true}, VariantShort, 3},
		{"classic target", Config{Edition: engine.Classic, Players: 3, Target: 100}, VariantTarget, 0},
		{"modern whole", Config{Edition: engine.Modern, Players: 5}, VariantWhole, 10},
		{"modern target", Config{Edition: engine.Modern, Players: 2, Target: 150}, VariantTarget, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, recs := recordsOf(t, tc.cfg)
			if tc.rounds > 0 && len(recs) != tc.rounds {
				t.Fatalf("%d records, want %d", len(recs), tc.rounds)
			}
			for i, r := range recs {
				if r.Variant != tc.variant || r.Rounds != tc.rounds || r.Over != (i == len(recs)-1) {
					t.Fatalf("round %d: variant %q rounds %d over %v", r.Round, r.Variant, r.Rounds, r.Over)
				}
			}
			if err := CheckRecords(recs); err != nil {
				t.Fatal(err)
			}
			if got := UnfinishedGames(recs); len(got) != 0 {
				t.Fatalf("whole game listed unfinished: %v", got)
			}
			cut := clone(t, recs[:len(recs)-1])
			if err := CheckRecords(cut); err != nil {
				t.Fatalf("a cut game is still consistent: %v", err)
			}
			if len(cut) > 0 && !slices.Equal(UnfinishedGames(cut), []int{1}) {
				t.Fatalf("cut game: unfinished %v, want [1]", UnfinishedGames(cut))
			}
		})
	}
}

// TestCheckRecordsVariant: a variant, number of rounds or end mark that
// does not fit the game is refused.
func TestCheckRecordsVariant(t *testing.T) {
	_, whole := recordsOf(t, Config{Edition: engine.Classic, Players: 4})
	_, target := recordsOf(t, Config{Edition: engine.Modern, Players: 3, Target: 200})
	_, modern := recordsOf(t, Config{Edition: engine.Modern, Players: 4})
	last := len(whole) - 1
	for _, tc := range []struct {
		name   string
		recs   []Record
		change func(recs []Record) []Record
		want   string
	}{
		{"unknown variant", whole, func(r []Record) []Record {
			for i := range r {
				r[i].Variant = "marathon"
			}
			return r
		}, `unknown variant "marathon"`},
		{"variant changes", whole, func(r []Record) []Record { r[1].Variant = VariantShort; return r }, "the variant changes"},
		{"wrong number of rounds", whole, func(r []Record) []Record {
			for i := range r {
				r[i].Rounds = 6
			}
			return r
		}, "has 8 rounds, the record says 6"},
		{"short in modern", modern, func(r []Record) []Record {
			for i := range r {
				r[i].Variant = VariantShort
			}
			return r
		}, "only Classic"},
		{"target variant without a target", whole, func(r []Record) []Record {
			for i := range r {
				r[i].Variant, r[i].Rounds = VariantTarget, 0
			}
			return r
		}, `variant "target" with target 0`},
		{"target without the target variant", target, func(r []Record) []Record {
			for i := range r {
				r[i].Variant = VariantWhole
			}
			return r
		}, `variant "whole" with target 200`},
		{"rounds without a variant", whole, func(r []Record) []Record {
			for i := range r {
				r[i].Variant = ""
			}
			return r
		}, "without a variant"},
		{"last round not marked", whole, func(r []Record) []Record { r[last].Over = false; return r }, "not marked over"},
		{"marked over too early", whole, func(r []Record) []Record { r[2].Over = true; return r[:3] }, "the game goes on"},
		{"target game marked over early", target, func(r []Record) []Record { r[0].Over = true; return r[:1] }, "the game goes on"},
		{"a round after the end", whole, func(r []Record) []Record {
			extra := r[last]
			extra.Round++
			extra.Dealer = (extra.Dealer + 1) % extra.Players
			return append(r, extra)
		}, "a round after the game ended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := tc.change(clone(t, tc.recs))
			err := CheckRecords(recs)
			if !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ErrRecord saying %q", err, tc.want)
			}
		})
	}
}
