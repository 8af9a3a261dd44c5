package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// TestNoCommandOpensTheApp: with the window available, njet without a
// command (or with only the app's flags) opens the app with those flags;
// bad flags are usage errors; without the window it prints the usage.
func TestNoCommandOpensTheApp(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		window   bool
		wantCode int
		want     *AppOptions
		wantErr  string
	}{
		{"no command", nil, true, ExitOK, &AppOptions{Game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"probe phone", []string{"--probe", "p.jsonl", "--probe-save", "p.save", "--size", "360x740"}, true, ExitOK,
			&AppOptions{Probe: "p.jsonl", ProbeSave: "p.save", Width: 360, Height: 740, Game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"probe save alone", []string{"--probe-save", "p.save"}, true, ExitUsage, nil, "--probe-save needs --probe"},
		{"blank", []string{"--blank", "5s", "--size", "360x740"}, true, ExitOK,
			&AppOptions{Blank: 5 * time.Second, Width: 360, Height: 740, Game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"bad blank", []string{"--blank", "-1s"}, true, ExitUsage, nil, "bad --blank"},
		{"smoke gone", []string{"--smoke"}, true, ExitUsage, nil, "flag provided but not defined"},
		{"bad size", []string{"--size", "big"}, true, ExitUsage, nil, `bad --size "big"`},
		{"tiny size", []string{"--size", "10x10"}, true, ExitUsage, nil, "bad --size"},
		{"bad edition", []string{"--edition", "deluxe"}, true, ExitUsage, nil, `bad --edition "deluxe"`},
		{"bad bots", []string{"--bots", "genius"}, true, ExitUsage, nil, `bad --bots entry "genius"`},
		{"bad pace", []string{"--pace", "-1s"}, true, ExitUsage, nil, "bad --pace"},
		{"without the window", nil, false, ExitUsage, nil, "Commands:"},
		{"LAN", []string{"--probe", "p.jsonl", "--lan-log", "t.njetlog", "--player", "Anna"}, true, ExitOK,
			&AppOptions{Probe: "p.jsonl", LANLog: "t.njetlog", Player: "Anna",
				Game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"LAN log alone", []string{"--lan-log", "t.njetlog"}, true, ExitUsage, nil, "--lan-log needs --probe"},
		{"LAN smoke gone", []string{"--smoke-lan-host", "a"}, true, ExitUsage, nil, "flag provided but not defined"},
		{"The Game smoke", []string{"--smoke-thegame", "--extreme", "--players", "3", "--size", "360x740"}, true, ExitOK,
			&AppOptions{Width: 360, Height: 740, SmokeTheGame: true, TheGame: TheGameSmoke{Players: 3, Extreme: true, Bot: "coop", Seed: 7}}, ""},
		{"The Game smoke defaults", []string{"--smoke-thegame"}, true, ExitOK,
			&AppOptions{SmokeTheGame: true, TheGame: TheGameSmoke{Players: 3, Bot: "coop", Seed: 7}}, ""},
		{"The Game smoke alone, greedy", []string{"--smoke-thegame", "--players", "1", "--bots", "greedy", "--seed", "12", "--pace", "50ms"}, true, ExitOK,
			&AppOptions{Pace: 50 * time.Millisecond, SmokeTheGame: true, TheGame: TheGameSmoke{Players: 1, Bot: "greedy", Seed: 12}}, ""},
		{"The Game smoke, 6 players", []string{"--smoke-thegame", "--players", "6"}, true, ExitUsage, nil, "bad --players 6: The Game seats 1 to 5"},
		{"The Game smoke, 0 players", []string{"--smoke-thegame", "--players", "0"}, true, ExitUsage, nil, "bad --players 0"},
		{"The Game smoke, Njet's bots", []string{"--smoke-thegame", "--bots", "heuristic"}, true, ExitUsage, nil, `bad --bots "heuristic"`},
		{"The Game smoke and a probe", []string{"--smoke-thegame", "--probe", "-"}, true, ExitUsage, nil, "--probe does not go with --smoke-thegame"},
		{"The Game smoke, an edition", []string{"--smoke-thegame", "--edition", "modern"}, true, ExitUsage, nil, "--edition does not go"},
		{"The Game smoke on the LAN", []string{"--smoke-thegame", "--lan-log", "x"}, true, ExitUsage, nil, "--lan-log does not go"},
		{"The Game smoke, bad size", []string{"--smoke-thegame", "--size", "1x1"}, true, ExitUsage, nil, "bad --size"},
		{"The Game smoke, bad pace", []string{"--smoke-thegame", "--pace", "2m"}, true, ExitUsage, nil, "bad --pace"},
		{"Extreme alone", []string{"--extreme"}, true, ExitUsage, nil, "--extreme needs --smoke-thegame"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *AppOptions
			var stdout, stderr bytes.Buffer
			cl := newCLI(strings.NewReader(""), &stdout, &stderr)
			cl.open = func(_ Env, o AppOptions) int {
				got = &o
				return ExitOK
			}
			cl.window = c.window
			code := cl.run(c.args)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.wantCode, stderr.String())
			}
			if c.wantErr != "" && !strings.Contains(stderr.String(), c.wantErr) {
				t.Fatalf("stderr %q lacks %q", stderr.String(), c.wantErr)
			}
			if (got == nil) != (c.want == nil) {
				t.Fatalf("app opened: %v, want %v", got != nil, c.want != nil)
			}
			if c.want != nil && fmt.Sprint(*got) != fmt.Sprint(*c.want) {
				t.Fatalf("options %+v, want %+v", *got, *c.want)
			}
		})
	}
	t.Run("nogui", func(t *testing.T) {
		var stderr bytes.Buffer
		cl := newCLI(strings.NewReader(""), io.Discard, &stderr)
		cl.window = true
		if code := cl.run(nil); code != ExitUsage || !strings.Contains(stderr.String(), "without the app") {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	})
}

// playSaved plays a whole short game through a local seat, answering with
// the first legal choice, and returns its save and the engine's totals.
func playSaved(t *testing.T, cfg seat.LocalConfig) ([]byte, []int) {
	t.Helper()
	l, err := seat.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range maxReplayEvents {
		ev, err := l.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if y, ok := ev.(seat.YourTurn); ok {
			if err := l.Choose(y.Prompt.Seq, y.Prompt.Legal[len(y.Prompt.Legal)-1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	return data, l.Totals()
}

// TestSmokeCheck: the replay of a saved game from its seed, bots and the
// person's choices gives the engine's totals (R-SCORE, R-END); other
// totals, broken saves and bad --totals are errors.
func TestSmokeCheck(t *testing.T) {
	dir := t.TempDir()
	data, totals := playSaved(t, seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true, Bots: []string{"heuristic", "random"}})
	good := filepath.Join(dir, "game.save")
	if err := os.WriteFile(good, data, 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.save")
	if err := os.WriteFile(broken, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	printed := "totals " + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(totals)), ","), "[]")
	wrong := append([]int(nil), totals...)
	wrong[0]++
	cases := []struct {
		name   string
		file   string
		totals string
		code   int
	}{
		{"R-SCORE-agree", good, printed, ExitOK},
		{"R-SCORE-disagree", good, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(wrong)), ","), "[]"), ExitFail},
		{"broken save", broken, printed, ExitFail},
		{"no file", filepath.Join(dir, "none"), printed, ExitFail},
		{"bad totals", good, "totals x,y", ExitUsage},
		{"no totals", good, "", ExitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cl := newCLI(strings.NewReader(""), &stdout, &stderr)
			cl.window = true
			if got := cl.run([]string{"--smoke-check", c.file, "--totals", c.totals}); got != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", got, c.code, stderr.String())
			}
		})
	}
}
