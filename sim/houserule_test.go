package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
)

// recordsOf simulates one game and returns its record lines and records.
func recordsOf(t *testing.T, cfg Config) ([]string, []Record) {
	t.Helper()
	var buf bytes.Buffer
	cfg.Games, cfg.Seed, cfg.Record = 1, 3, &buf
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(buf.String()), "\n"), recs
}

// TestRecordHouseRuleR_END: a Classic game played to a target records the
// target and names it a house rule (only the Modern rules have the
// variant); a Modern one records the target alone; a game of fixed length
// records neither key. CheckRecords accepts all three.
func TestRecordHouseRuleR_END(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		tail string // how every line ends
	}{
		{"classic target", Config{Edition: engine.Classic, Players: 4, Target: 200}, `],"target":200,"houseRules":["target"],"variant":"target"}`},
		{"modern target", Config{Edition: engine.Modern, Players: 3, Target: 200}, `],"target":200,"variant":"target"}`},
		{"classic rounds", Config{Edition: engine.Classic, Players: 3}, `],"variant":"whole","rounds":6}`},
		{"modern rounds", Config{Edition: engine.Modern, Players: 2}, `],"variant":"whole","rounds":8}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, recs := recordsOf(t, tc.cfg)
			for i, line := range lines {
				// The last round alone is marked over.
				if over := strings.HasSuffix(line, `,"over":true}`); over != (i == len(lines)-1) {
					t.Fatalf("round %d of %d: marked over %v", i+1, len(lines), over)
				}
				line = strings.TrimSuffix(line, `,"over":true}`)
				if !strings.HasSuffix(line, "}") {
					line += "}"
				}
				if !strings.HasSuffix(line, tc.tail) {
					t.Fatalf("round %d ends %q, want %q", i+1, line[max(0, len(line)-60):], tc.tail)
				}
			}
			if err := CheckRecords(recs); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCheckRecordsHouseRules: records written before the keys existed
// still pass; a house rule that does not fit the game is refused.
func TestCheckRecordsHouseRules(t *testing.T) {
	f, err := os.Open("testdata/classic4-before-variant.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckRecords(old); err != nil {
		t.Fatalf("an old record: %v", err)
	}
	_, classic := recordsOf(t, Config{Edition: engine.Classic, Players: 4, Target: 200})
	_, modern := recordsOf(t, Config{Edition: engine.Modern, Players: 3, Target: 200})
	if len(modern) < 2 {
		t.Fatalf("the game to 200 lasted %d round", len(modern))
	}
	for _, tc := range []struct {
		name   string
		recs   []Record
		change func(recs []Record)
		want   string
	}{
		{"classic target without the house rule", classic, func(r []Record) { r[0].HouseRules = nil }, "does not list the house rule"},
		{"house rule in a modern game", modern, func(r []Record) { r[0].HouseRules = []string{HouseRuleTarget} }, "house rules"},
		{"house rule without a target", old, func(r []Record) { r[0].HouseRules = []string{HouseRuleTarget} }, "house rules"},
		{"unknown house rule", classic, func(r []Record) { r[0].HouseRules = []string{"jokers"} }, `unknown house rule "jokers"`},
		{"target changes", modern, func(r []Record) { r[1].Target = 50 }, "the target changes from 200 to 50"},
		{"negative target", old, func(r []Record) { r[0].Target = -1 }, "target -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := clone(t, tc.recs)
			tc.change(recs)
			err := CheckRecords(recs)
			if !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ErrRecord saying %q", err, tc.want)
			}
		})
	}
}

// clone deep-copies records through their JSON form.
func clone(t *testing.T, recs []Record) []Record {
	t.Helper()
	b, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	var out []Record
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
