package games

import (
	"errors"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// A seat asked for with a bot kind of another game gets this game's bot
// of the same strength; the game's own kinds, with their suffixes, stay.
func TestBot(t *testing.T) {
	for _, c := range []struct {
		game table.GameName
		kind string
		want string
	}{
		{table.GameTheGame, "random", "greedy"},
		{table.GameTheGame, "heuristic", "coop"},
		{table.GameTheGame, "search", "expert"},
		{table.GameTheGame, "search:quick", "expert"},
		{table.GameTheGame, "expert-silent", "expert-silent"},
		{table.GameTheGame, "greedy", "greedy"},
		{table.GameTheGame, "coop-silent", "coop-silent"},
		{table.GameTheGame, "", "coop"},
		{table.GameNjet, "greedy", "random"},
		{table.GameNjet, "coop", "heuristic"},
		{table.GameNjet, "expert", "search"},
		{table.GameNjet, "search:quick", "search:quick"},
		{table.GameNjet, "Heuristic", "heuristic"},
		{table.GameNjet, "nobody", "heuristic"},
	} {
		g, err := ByName(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Bot(c.kind); got != c.want {
			t.Errorf("%s: Bot(%q) = %q, want %q", g.ID, c.kind, got, c.want)
		}
	}
}

// Every game answers by its genesis name, its id and each variant's
// advert word, and its bots of every strength are kinds it plays.
func TestRegistry(t *testing.T) {
	for _, g := range All() {
		t.Run(g.ID, func(t *testing.T) {
			if byName, err := ByName(g.Name); err != nil || byName != g {
				t.Errorf("ByName(%v) = %v, %v", g.Name, byName, err)
			}
			if byID, err := ByID(g.ID); err != nil || byID != g {
				t.Errorf("ByID(%q) = %v, %v", g.ID, byID, err)
			}
			for _, v := range g.Variants {
				if byAd, w, err := ByAd(v.Ad); err != nil || byAd != g || w != v {
					t.Errorf("ByAd(%q) = %v, %+v, %v", v.Ad, byAd, w, err)
				}
			}
			for _, s := range Strengths() {
				if err := g.CheckBot(g.Bots[s]); err != nil {
					t.Errorf("the bot of strength %d: %v", s, err)
				}
			}
			for _, k := range g.Kinds {
				if err := g.CheckBot(k); err != nil {
					t.Errorf("kind %q: %v", k, err)
				}
			}
		})
	}
	for _, bad := range []string{"chess", ""} {
		if _, err := ByID(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("ByID(%q): %v, want ErrUnknown", bad, err)
		}
	}
	if _, _, err := ByAd("checkers"); !errors.Is(err, ErrUnknown) {
		t.Errorf("ByAd: %v, want ErrUnknown", err)
	}
}

// Genesis writes a table of each variant that Of reads back, with the
// game's own fields, and refuses a seat count the variant does not seat.
func TestGenesis(t *testing.T) {
	keys := make([]tablelog.Identity, 5)
	for i := range keys {
		keys[i][0] = byte(i + 1)
	}
	for _, g := range All() {
		for _, v := range g.Variants {
			t.Run(g.ID+"/"+v.ID, func(t *testing.T) {
				n := max(v.MinPlayers, 3)
				gen, err := g.Genesis(v.ID, Setup{Keys: keys[:n], Names: []string{"Ada", "", ""}, Rounds: 1})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := gen.MarshalBinary(); err != nil {
					t.Fatal(err)
				}
				back, w, err := Of(gen)
				if err != nil || back != g || w.ID != v.ID || gen.Players() != n || gen.Name(0) != "Ada" {
					t.Fatalf("Of: %v, %+v, %v; %d players", back, w, err, gen.Players())
				}
				if _, err := g.Genesis(v.ID, Setup{Keys: keys[:0]}); err == nil {
					t.Error("a table without seats")
				}
			})
		}
	}
	if e, err := Edition("modern"); err != nil || e != engine.Modern {
		t.Errorf("Edition(modern) = %v, %v", e, err)
	}
}
