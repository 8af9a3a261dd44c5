package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
)

func players(t *testing.T, name table.GameName) table.NewPlayer {
	t.Helper()
	g, err := games.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return g.NewPlayer
}

// TestTables: a table of bots of each game plays to its end; every peer
// ends with the same log, which verifies offline with the peers' result.
func TestTables(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"njet", Config{Edition: engine.Classic, Players: 3, Rounds: 1, Seed: 4, Bot: "random", NewPlayer: players(t, table.GameNjet)}},
		{"thegame", Config{Game: table.GameTheGame, Extreme: true, Players: 2, Seed: 8, Bot: "coop", NewPlayer: players(t, table.GameTheGame)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Dir = t.TempDir()
			s, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := s.Run(ctx); err != nil {
				t.Fatal(err)
			}
			out := s.Outcomes()
			if len(out) != c.cfg.Players {
				t.Fatalf("%d outcomes for %d seats", len(out), c.cfg.Players)
			}
			for _, o := range out {
				if o.Violation != nil || o.Next < 10 || o.Head != out[0].Head || o.Next != out[0].Next {
					t.Fatalf("seat %d ended at %d with %v (violation %v); seat 0 at %d with %v",
						o.Seat, o.Next, o.Head, o.Violation, out[0].Next, out[0].Head)
				}
			}
			if c.cfg.Game == table.GameNjet && len(out[0].Results) != c.cfg.Rounds {
				t.Fatalf("%d rounds played, want %d", len(out[0].Results), c.cfg.Rounds)
			}
			path := filepath.Join(t.TempDir(), "log.njetlog")
			head, err := s.Export(1, path)
			if err != nil || head != out[0].Head {
				t.Fatalf("export: head %v, %v; want %v", head, err, out[0].Head)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			v, err := table.Verify(f)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Over || v.Table != s.ID() || uint64(v.Envelopes) != out[0].Next || len(v.Results) != len(out[0].Results) {
				t.Fatalf("verified: over %v, table %v, %d envelopes, %d rounds", v.Over, v.Table, v.Envelopes, len(v.Results))
			}
		})
	}
}

// TestBadConfig: a table New cannot play is refused with the reason.
func TestBadConfig(t *testing.T) {
	ok := Config{Edition: engine.Classic, Players: 3, Seed: 1, Bot: "random", NewPlayer: players(t, table.GameNjet), Dir: t.TempDir()}
	for name, change := range map[string]func(c *Config){
		"no bot":        func(c *Config) { c.Bot = "" },
		"no players":    func(c *Config) { c.NewPlayer = nil },
		"no directory":  func(c *Config) { c.Dir = "" },
		"no seats":      func(c *Config) { c.Players = 0 },
		"too many":      func(c *Config) { c.Players = 9 },
		"unknown game":  func(c *Config) { c.Game = 200 },
		"seven at njet": func(c *Config) { c.Players = 7 },
	} {
		c := ok
		change(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: New accepted %+v", name, c)
		}
	}
	if _, err := New(ok); err != nil {
		t.Fatalf("the good config: %v", err)
	}
}
