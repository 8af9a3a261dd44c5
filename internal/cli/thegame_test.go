package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tgsim "github.com/njetlan/njet/thegame/sim"
)

func TestChosenGame(t *testing.T) {
	cases := map[string][]string{
		"njet":    {"--players", "3"},
		"thegame": {"--players", "3", "--game", "thegame"},
		"x":       {"-game=x"},
	}
	for want, args := range cases {
		if got := chosenGame(args); got != want {
			t.Errorf("chosenGame(%q) = %q, want %q", args, got, want)
		}
	}
	if got := chosenGame([]string{"--", "--game", "thegame"}); got != "njet" {
		t.Errorf("after --: %q", got)
	}
}

func TestSimTheGame(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "g.jsonl")
	var stdout, stderr bytes.Buffer
	code := Run([]string{"sim", "--game", "thegame", "--players", "2", "--games", "4", "--seed", "3", "--bots", "greedy,coop", "--record", rec}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, w := range []string{"The Game, 2 player(s), 4 games, seed 3, signals on", "greedy", "coop", "cards left against greedy on the same deals"} {
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
	for _, w := range []string{"njet play --game thegame --extreme --players 3 --bot coop --seed 8", "The Game Extreme, 3 player(s)", "You left the game."} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}
