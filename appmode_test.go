package main

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
	saved := openWindow
	t.Cleanup(func() { openWindow = saved })
	cases := []struct {
		name     string
		args     []string
		window   bool
		wantCode int
		want     *appOptions
		wantErr  string
	}{
		{"no command", nil, true, exitOK, &appOptions{game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"probe phone", []string{"--probe", "p.jsonl", "--probe-save", "p.save", "--size", "360x740"}, true, exitOK,
			&appOptions{probe: "p.jsonl", probeSave: "p.save", width: 360, height: 740, game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"probe save alone", []string{"--probe-save", "p.save"}, true, exitUsage, nil, "--probe-save needs --probe"},
		{"blank", []string{"--blank", "5s", "--size", "360x740"}, true, exitOK,
			&appOptions{blank: 5 * time.Second, width: 360, height: 740, game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"bad blank", []string{"--blank", "-1s"}, true, exitUsage, nil, "bad --blank"},
		{"smoke gone", []string{"--smoke"}, true, exitUsage, nil, "flag provided but not defined"},
		{"bad size", []string{"--size", "big"}, true, exitUsage, nil, `bad --size "big"`},
		{"tiny size", []string{"--size", "10x10"}, true, exitUsage, nil, "bad --size"},
		{"bad edition", []string{"--edition", "deluxe"}, true, exitUsage, nil, `bad --edition "deluxe"`},
		{"bad bots", []string{"--bots", "genius"}, true, exitUsage, nil, `bad --bots entry "genius"`},
		{"bad pace", []string{"--pace", "-1s"}, true, exitUsage, nil, "bad --pace"},
		{"without the window", nil, false, exitUsage, nil, "Commands:"},
		{"LAN", []string{"--probe", "p.jsonl", "--lan-log", "t.njetlog", "--player", "Anna"}, true, exitOK,
			&appOptions{probe: "p.jsonl", lanLog: "t.njetlog", player: "Anna",
				game: seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 7, Bots: []string{"heuristic"}}}, ""},
		{"LAN log alone", []string{"--lan-log", "t.njetlog"}, true, exitUsage, nil, "--lan-log needs --probe"},
		{"LAN smoke gone", []string{"--smoke-lan-host", "a"}, true, exitUsage, nil, "flag provided but not defined"},
		{"The Game smoke", []string{"--smoke-thegame", "--extreme", "--players", "3", "--size", "360x740"}, true, exitOK,
			&appOptions{width: 360, height: 740, smokeTG: true, theGame: theGameSmoke{players: 3, extreme: true, bot: "coop", seed: 7}}, ""},
		{"The Game smoke defaults", []string{"--smoke-thegame"}, true, exitOK,
			&appOptions{smokeTG: true, theGame: theGameSmoke{players: 3, bot: "coop", seed: 7}}, ""},
		{"The Game smoke alone, greedy", []string{"--smoke-thegame", "--players", "1", "--bots", "greedy", "--seed", "12", "--pace", "50ms"}, true, exitOK,
			&appOptions{pace: 50 * time.Millisecond, smokeTG: true, theGame: theGameSmoke{players: 1, bot: "greedy", seed: 12}}, ""},
		{"The Game smoke, 6 players", []string{"--smoke-thegame", "--players", "6"}, true, exitUsage, nil, "bad --players 6: The Game seats 1 to 5"},
		{"The Game smoke, 0 players", []string{"--smoke-thegame", "--players", "0"}, true, exitUsage, nil, "bad --players 0"},
		{"The Game smoke, Njet's bots", []string{"--smoke-thegame", "--bots", "heuristic"}, true, exitUsage, nil, `bad --bots "heuristic"`},
		{"The Game smoke and a probe", []string{"--smoke-thegame", "--probe", "-"}, true, exitUsage, nil, "--probe does not go with --smoke-thegame"},
		{"The Game smoke, an edition", []string{"--smoke-thegame", "--edition", "modern"}, true, exitUsage, nil, "--edition does not go"},
		{"The Game smoke on the LAN", []string{"--smoke-thegame", "--lan-log", "x"}, true, exitUsage, nil, "--lan-log does not go"},
		{"The Game smoke, bad size", []string{"--smoke-thegame", "--size", "1x1"}, true, exitUsage, nil, "bad --size"},
		{"The Game smoke, bad pace", []string{"--smoke-thegame", "--pace", "2m"}, true, exitUsage, nil, "bad --pace"},
		{"Extreme alone", []string{"--extreme"}, true, exitUsage, nil, "--extreme needs --smoke-thegame"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *appOptions
			openWindow = func(_ *cli, o appOptions) int {
				got = &o
				return exitOK
			}
			var stdout, stderr bytes.Buffer
			cl := newCLI(strings.NewReader(""), &stdout, &stderr)
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
		openWindow = nil
		var stderr bytes.Buffer
		cl := newCLI(strings.NewReader(""), io.Discard, &stderr)
		cl.window = true
		if code := cl.run(nil); code != exitUsage || !strings.Contains(stderr.String(), "without the app") {
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
		{"R-SCORE-agree", good, printed, exitOK},
		{"R-SCORE-disagree", good, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(wrong)), ","), "[]"), exitFail},
		{"broken save", broken, printed, exitFail},
		{"no file", filepath.Join(dir, "none"), printed, exitFail},
		{"bad totals", good, "totals x,y", exitUsage},
		{"no totals", good, "", exitUsage},
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
