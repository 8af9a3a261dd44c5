package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tgsim "github.com/njetlan/njet/thegame/sim"
)

func TestSimTheGame(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "g.jsonl")
	var stdout, stderr bytes.Buffer
	code := Run([]string{"sim", "--game", "thegame", "--players", "2", "--games", "4", "--seed", "3", "--bots", "greedy,coop", "--record", rec}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, w := range []string{"The Game, 2 players, 4 games, seed 3, signals on", "greedy", "coop", "cards left against greedy on the same deals"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := tgsim.ReadRecords(f)
	if err != nil || len(recs) != 8 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if err := tgsim.CheckRecords(recs); err != nil {
		t.Fatal(err)
	}
}

func TestTheGameUsage(t *testing.T) {
	cases := [][]string{
		{"sim", "--game", "thegame", "--players", "6"},
		{"sim", "--game", "thegame", "--bots", "oracle"},
		{"sim", "--game", "thegame", "--games", "0"},
		{"sim", "--game", "chess"},
		{"play", "--game", "chess"},
		{"play", "--game", "thegame", "--bot", "oracle"},
		{"play", "--extreme"},
		{"play", "--game", "thegame", "--edition", "modern"},
		{"play", "--game", "thegame", "--short"},
		{"sim", "--signals=false"},
		{"host", "--game", "thegame", "--name", "G", "--rounds", "3"},
		{"selfplay", "--game", "thegame", "--out", "x", "--bot", "heuristic"},
		{"selfplay", "--game", "thegame", "--out", "x", "--extreme", "--players", "7"},
	}
	for _, args := range cases {
		var stdout, stderr bytes.Buffer
		if code := Run(args, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

func TestPlayTheGameFromCLI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := newCLI(strings.NewReader("help\nquit\n"), &stdout, &stderr)
	if code := c.run([]string{"play", "--game", "thegame", "--extreme", "--players", "3", "--seed", "8"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, w := range []string{"njet play --game thegame --extreme --players 3 --bot coop --seed 8", "The Game Extreme, 3 players: you are seat 0, the others are bots.", "You left the game."} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}

// TestSelfplayTheGame: njet selfplay --game thegame plays a whole table of
// The Game between coop bots, and njet verify checks each peer's log.
func TestSelfplayTheGame(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"selfplay", "--game", "thegame", "--players", "2", "--seed", "5", "--out", dir}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("selfplay: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	for seat := range 2 {
		var vout, verr bytes.Buffer
		path := filepath.Join(dir, fmt.Sprintf("seat-%d.njetlog", seat))
		if code := Run([]string{"verify", path}, &vout, &verr); code != ExitOK || !strings.Contains(vout.String(), "of The Game") {
			t.Fatalf("verify seat %d: exit %d: %s%s", seat, code, vout.String(), verr.String())
		}
	}
}
