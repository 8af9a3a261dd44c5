package seat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// sameTheGame fails unless got and want are the same game: the engine's
// whole state, the moves, the bots' last signals and the configuration.
func sameTheGame(t *testing.T, got, want *TheGameLocal) {
	t.Helper()
	got.mu.Lock()
	defer got.mu.Unlock()
	want.mu.Lock()
	defer want.mu.Unlock()
	if *got.g != *want.g {
		t.Fatalf("the engine's state differs:\n got %+v\nwant %+v", *got.g, *want.g)
	}
	if !slices.Equal(got.moves, want.moves) || got.talked != want.talked || got.cfg != want.cfg {
		t.Fatalf("moves %d / %d, talked %d / %d, config %+v / %+v", len(got.moves), len(want.moves), got.talked, want.talked, got.cfg, want.cfg)
	}
	if gv, wv := got.g.View(0), want.g.View(0); !reflect.DeepEqual(gv, wv) {
		t.Fatalf("the person's view differs:\n got %+v\nwant %+v", gv, wv)
	}
}

// TestTheGameSaveFixtures: saves the app wrote before the local game of
// The Game moved into this package resume at the position they were made
// at, save again to the same bytes, and play on to the end.
func TestTheGameSaveFixtures(t *testing.T) {
	cases := []struct {
		file  string
		cfg   TheGameLocalConfig
		turns int
		draw  int
		hand  []thegame.Card
	}{
		{"thegame-extreme-3p.json", TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 20260101}, 13, 53, []thegame.Card{29, 41, 58, 97}},
		{"thegame-base-1p.json", TheGameLocalConfig{Players: 1, Bot: "greedy", Seed: 7}, 9, 74, []thegame.Card{3, 22, 25, 52, 62, 70, 76}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			l, err := ResumeTheGameLocal(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Config(); got != c.cfg {
				t.Fatalf("config %+v, want %+v", got, c.cfg)
			}
			v := l.View()
			if v.Turns != c.turns || v.DrawPile != c.draw || !slices.Equal(v.Hand, c.hand) || v.Turn != 0 {
				t.Fatalf("turn %d (seat %d), draw pile %d, hand %v; want turn %d, %d, %v", v.Turns, v.Turn, v.DrawPile, v.Hand, c.turns, c.draw, c.hand)
			}
			again, err := l.Save()
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(data) {
				t.Fatalf("saved again as\n%s\nwant\n%s", again, data)
			}
			if h := l.History(); len(h) == 0 || len(h) != strings.Count(string(data), `"act"`) {
				t.Fatalf("%d moves told before the resume", len(h))
			}
			playTheGame(t, l, tgbot.NewCoop(false))
			if !l.Over() {
				t.Fatal("the resumed game did not play to its end")
			}
		})
	}
}

// validTheGameSave is the save of a 3-player Extreme game after its first
// turn, as a map to damage.
func validTheGameSave(t *testing.T) map[string]any {
	t.Helper()
	l, err := NewTheGameLocal(TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	person := tgbot.NewCoop(false)
	for range 8 {
		v := l.View()
		a := person.Act(&v)
		if err := l.Act(a); err != nil {
			t.Fatal(err)
		}
		if a.Kind == thegame.ActEnd {
			break
		}
	}
	data, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ResumeTheGameLocal(data); err != nil {
		t.Fatalf("the valid save does not resume: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResumeTheGameBadSave: a save that cannot be read, or whose game
// breaks a rule, is refused with an error wrapping ErrBadSave that says
// why.
func TestResumeTheGameBadSave(t *testing.T) {
	edit := func(f func(m map[string]any)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			m := validTheGameSave(t)
			f(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	raw := func(s string) func(t *testing.T) []byte { return func(*testing.T) []byte { return []byte(s) } }
	valid := func(t *testing.T) []byte {
		data, err := json.Marshal(validTheGameSave(t))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	moves := func(m map[string]any) []any { return m["moves"].([]any) }
	cases := []struct {
		name string
		data func(t *testing.T) []byte
		why  string
	}{
		{"not JSON", raw("{{{ not a game"), "invalid character"},
		{"cut short", func(t *testing.T) []byte { d := valid(t); return d[:len(d)/2] }, "unexpected EOF"},
		{"two saves", func(t *testing.T) []byte { d := valid(t); return append(append(d, '\n'), d...) }, "more than one save"},
		{"unknown key", edit(func(m map[string]any) { m["cheat"] = true }), "unknown field"},
		{"format", edit(func(m map[string]any) { m["format"] = 2 }), "format 2"},
		{"variant", edit(func(m map[string]any) { m["variant"] = "deluxe" }), `variant "deluxe"`},
		{"assignment", edit(func(m map[string]any) { m["assignment"] = 9 }), "command assignment 9"},
		{"players", edit(func(m map[string]any) { m["players"] = 7 }), "7 players"},
		{"bot", edit(func(m map[string]any) { m["bot"] = "genius" }), "unknown kind"},
		{"card not held", edit(func(m map[string]any) { moves(m)[0].(map[string]any)["card"] = 1 }), "move 1"},
		{"unknown move", edit(func(m map[string]any) { moves(m)[1].(map[string]any)["act"] = "peek" }), `unknown move "peek"`},
		{"out of turn", edit(func(m map[string]any) { moves(m)[0].(map[string]any)["seat"] = 2 }), "move 1"},
		{"too many moves", edit(func(m map[string]any) { m["moves"] = make([]any, maxTheGameMoves+1) }), "at most"},
		{"signals ahead", edit(func(m map[string]any) { m["talked"] = 999 }), "signals of turn 999"},
		{"wrong type", edit(func(m map[string]any) { m["seed"] = "seven" }), "cannot unmarshal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ResumeTheGameLocal(c.data(t))
			if !errors.Is(err, ErrBadSave) || !strings.Contains(err.Error(), c.why) {
				t.Fatalf("%v: want ErrBadSave and %q", err, c.why)
			}
		})
	}
}

// FuzzResumeTheGameLocal: any bytes as a save give a game or an error
// wrapping ErrBadSave, never a panic; a game that resumes saves to bytes
// that resume to the same game.
func FuzzResumeTheGameLocal(f *testing.F) {
	l, err := NewTheGameLocal(TheGameLocalConfig{Players: 2, Extreme: true, Bot: "greedy", Seed: 4})
	if err != nil {
		f.Fatal(err)
	}
	seed, err := l.Save()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, name := range []string{"thegame-extreme-3p.json", "thegame-base-1p.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":1,"players":1,"variant":"base","bot":"coop","seed":1,"talked":-1,"moves":[{"seat":0,"act":"end"}]}`))
	f.Add([]byte(`{"format":1,"players":3,"variant":"extreme","assignment":1,"bot":"coop","seed":9,"talked":0,"moves":[{"seat":1,"act":"signal","pile":2,"signal":"mine"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ResumeTheGameLocal(data)
		if err != nil {
			if !errors.Is(err, ErrBadSave) {
				t.Fatalf("%v does not wrap ErrBadSave", err)
			}
			return
		}
		again, err := g.Save()
		if err != nil {
			t.Fatal(err)
		}
		g2, err := ResumeTheGameLocal(again)
		if err != nil {
			t.Fatalf("a resumed game's save does not resume: %v", err)
		}
		sameTheGame(t, g2, g)
	})
}
