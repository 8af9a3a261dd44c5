package sim_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// tables are every edition and player count.
var tables = []struct {
	edition engine.Edition
	players int
}{
	{engine.Classic, 3}, {engine.Classic, 4},
	{engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5},
}

func records(t *testing.T, cfg sim.Config) ([]byte, sim.Summary) {
	t.Helper()
	var buf bytes.Buffer
	cfg.Record = &buf
	sum, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return buf.Bytes(), sum
}

// TestRecordGolden pins the exact bytes of the records of a small seeded
// game, so that any change to the public format (docs/record.md) or to the
// bots' play shows up in review. Refresh with: go test ./sim -update
func TestRecordGolden(t *testing.T) {
	for _, tc := range []struct {
		file    string
		edition engine.Edition
		players int
		bots    []string
	}{
		{"classic4.jsonl", engine.Classic, 4, []string{"heuristic", "random"}},
		{"modern5.jsonl", engine.Modern, 5, []string{"heuristic"}},
		{"modern2.jsonl", engine.Modern, 2, []string{"random", "heuristic"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, _ := records(t, sim.Config{Edition: tc.edition, Players: tc.players, Games: 1, Seed: 7, Bots: tc.bots})
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./sim -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						at := 0
						for at < min(len(gl[i]), len(wl[i])) && gl[i][at] == wl[i][at] {
							at++
						}
						from := max(0, at-60)
						t.Fatalf("line %d differs at byte %d (refresh with -update if intended):\n got ...%s\nwant ...%s",
							i+1, at, gl[i][from:min(len(gl[i]), at+60)], wl[i][from:min(len(wl[i]), at+60)])
					}
				}
				t.Fatalf("got %d lines, want %d", len(gl), len(wl))
			}
		})
	}
}

// TestRecordKeyOrder checks the keys of a record line against the order
// docs/record.md documents, and the arrays that are [] rather than null.
func TestRecordKeyOrder(t *testing.T) {
	out, _ := records(t, sim.Config{Edition: engine.Modern, Players: 4, Games: 1, Seed: 3})
	line, _, _ := bytes.Cut(out, []byte("\n"))
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, fmt.Sprint(tok))
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
	}
	want := "game round edition players dealer characters hands unused blocks rules teams bonus discards passes tricks score totals variant rounds"
	if got := strings.Join(keys, " "); got != want {
		t.Fatalf("keys\n got %s\nwant %s", got, want)
	}
	for _, k := range []string{`"unused":[]`, `"bonus":null`} {
		if !bytes.Contains(line, []byte(k)) {
			t.Errorf("no %s in %s", k, line)
		}
	}
	// Only "bonus" and the entries of "passes" may be null.
	rest := bytes.Replace(line, []byte(`"bonus":null`), nil, 1)
	if i, j := bytes.Index(rest, []byte(`"passes":[`)), bytes.Index(rest, []byte(`],"tricks"`)); i >= 0 && j > i {
		rest = append(rest[:i:i], rest[j:]...)
	}
	if bytes.Contains(rest, []byte("null")) {
		t.Errorf("a null outside bonus and passes: %s", line)
	}
}

// TestRecordsConsistent plays games at every table, parses every record
// back and re-checks it against the rules (R-DECK, R-NJET, R-TEAM,
// R-DISCARD, R-TRICK, R-WIN, R-LOOT, R-SCORE, R-END).
func TestRecordsConsistent(t *testing.T) {
	for _, tc := range tables {
		t.Run(fmt.Sprintf("%s%d", tc.edition, tc.players), func(t *testing.T) {
			cfg := sim.Config{Edition: tc.edition, Players: tc.players, Games: 6, Seed: 11, Bots: []string{"random", "heuristic"}}
			out, sum := records(t, cfg)
			recs, err := sim.ReadRecords(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != sum.Rounds {
				t.Fatalf("%d records for %d rounds", len(recs), sum.Rounds)
			}
			g, err := engine.NewGame(engine.Config{Edition: tc.edition, Players: tc.players})
			if err != nil {
				t.Fatal(err)
			}
			if want := cfg.Games * g.Rounds(); len(recs) != want {
				t.Fatalf("%d rounds in %d games, want %d (R-END)", len(recs), cfg.Games, want)
			}
			if err := sim.CheckRecords(recs); err != nil {
				t.Fatal(err)
			}
			// The totals of the last round of each game are the sums of its
			// rounds' points: summed over seats they match the summary.
			points := 0
			for _, k := range sum.Kinds {
				points += k.Points
			}
			total := 0
			for _, r := range recs {
				if r.Round == g.Rounds() {
					for _, x := range r.Totals {
						total += x
					}
				}
			}
			if points != total {
				t.Fatalf("summary points %d, record totals %d", points, total)
			}
		})
	}
}

// TestCheckRecordsCatches tampers with a valid record and expects the
// checker to notice.
func TestCheckRecordsCatches(t *testing.T) {
	out, _ := records(t, sim.Config{Edition: engine.Classic, Players: 4, Games: 1, Seed: 5})
	fresh := func() []sim.Record {
		recs, err := sim.ReadRecords(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	if err := sim.CheckRecords(fresh()); err != nil {
		t.Fatalf("untouched records: %v", err)
	}
	for name, tamper := range map[string]func(r []sim.Record){
		"R-DECK duplicate card": func(r []sim.Record) { r[0].Hands[0][0] = r[0].Hands[1][0] },
		"R-SCORE points":        func(r []sim.Record) { r[0].Score.Points[0]++ },
		"totals":                func(r []sim.Record) { r[1].Totals[2]-- },
		"R-WIN winner":          func(r []sim.Record) { r[0].Tricks[0].Winner = (r[0].Tricks[0].Winner + 1) % 4 },
		"R-NJET block order":    func(r []sim.Record) { r[0].Blocks[0].Seat = (r[0].Blocks[0].Seat + 1) % 4 },
		"R-LOOT":                func(r []sim.Record) { r[0].Tricks[0].Loot = append(r[0].Tricks[0].Loot, "red1") },
		"rules":                 func(r []sim.Record) { r[0].Rules.Points = 5 },
		"round order":           func(r []sim.Record) { r[1].Round = 3 },
		"R-TRICK swapped plays": func(r []sim.Record) {
			for _, tr := range r[0].Tricks {
				if p := tr.Plays; p[0].Card != p[1].Card {
					p[0].Card, p[1].Card = p[1].Card, p[0].Card
					return
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			recs := fresh()
			tamper(recs)
			if err := sim.CheckRecords(recs); !errors.Is(err, sim.ErrRecord) {
				t.Fatalf("got %v, want ErrRecord", err)
			}
		})
	}
}

func TestReadRecordsMissingKey(t *testing.T) {
	out, _ := records(t, sim.Config{Edition: engine.Classic, Players: 3, Games: 1, Seed: 5})
	line, _, _ := bytes.Cut(out, []byte("\n"))
	broken := bytes.Replace(line, []byte(`"bonus":`), []byte(`"bonos":`), 1)
	if _, err := sim.ReadRecords(bytes.NewReader(broken)); !errors.Is(err, sim.ErrRecord) {
		t.Fatalf("got %v, want ErrRecord", err)
	}
	extra := bytes.Replace(line, []byte(`{"game"`), []byte(`{"future":1,"game"`), 1)
	if _, err := sim.ReadRecords(bytes.NewReader(extra)); err != nil {
		t.Fatalf("an unknown key must be ignored: %v", err)
	}
}

// TestRunReproducible checks that a seed fixes the games.
func TestRunReproducible(t *testing.T) {
	cfg := sim.Config{Edition: engine.Modern, Players: 4, Games: 3, Seed: 99, Bots: []string{"random", "heuristic"}}
	a, _ := records(t, cfg)
	b, _ := records(t, cfg)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with one seed differ")
	}
	cfg.Seed++
	c, _ := records(t, cfg)
	if bytes.Equal(a, c) {
		t.Fatal("two seeds play the same games")
	}
}

func TestRunUnknownBot(t *testing.T) {
	_, err := sim.Run(sim.Config{Edition: engine.Classic, Players: 4, Games: 1, Bots: []string{"genius"}})
	if err == nil || !strings.Contains(err.Error(), "genius") {
		t.Fatalf("got %v, want an error naming the kind", err)
	}
}

func ExampleRun() {
	sum, err := sim.Run(sim.Config{Edition: engine.Classic, Players: 4, Games: 2, Seed: 1, Bots: []string{"heuristic", "random"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Games, "games,", sum.Rounds, "rounds")
	for _, k := range sum.Kinds {
		fmt.Println(k.Kind, k.SeatGames, "seat-games")
	}
	// Output:
	// 2 games, 16 rounds
	// heuristic 4 seat-games
	// random 4 seat-games
}
