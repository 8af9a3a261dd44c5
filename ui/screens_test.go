package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"image/png"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// TestNewGameConfig: the form offers each edition's player counts (R-SEAT
// table: Classic 3-4, Modern 2-5), the Classic short game only in Classic,
// the target score as a house rule in Classic, and turns the choices into
// the seat's configuration; bad numbers are errors.
func TestNewGameConfig(t *testing.T) {
	cases := []struct {
		name              string
		edition           string
		players           string
		bots              []string // per other seat: "Easy", "Normal" or "Strong"
		length            int      // index among the offered lengths
		target, seed      string
		wantPlayers       []string
		wantLengths       int
		want              seat.LocalConfig
		wantErr           bool
		houseRuleOnTarget bool
	}{
		{name: "R-END-classic-4p-whole", edition: "Classic", players: "4", bots: []string{"Normal", "Easy", "Normal"}, length: 0, seed: "7",
			wantPlayers: []string{"3", "4"}, wantLengths: 3, houseRuleOnTarget: true,
			want: seat.LocalConfig{Edition: engine.Classic, Players: 4, Bots: []string{"heuristic", "random", "heuristic"}, Seed: 7}},
		{name: "R-END-classic-3p-short", edition: "Classic", players: "3", bots: []string{"Easy", "Easy"}, length: 1, seed: " 12 ",
			wantPlayers: []string{"3", "4"}, wantLengths: 3, houseRuleOnTarget: true,
			want: seat.LocalConfig{Edition: engine.Classic, Players: 3, Bots: []string{"random", "random"}, Short: true, Seed: 12}},
		{name: "R-END-modern-5p-target", edition: "Modern", players: "5", bots: []string{"Normal", "Strong", "Easy", "Easy"}, length: 1, target: "100", seed: "1",
			wantPlayers: []string{"2", "3", "4", "5"}, wantLengths: 2,
			want: seat.LocalConfig{Edition: engine.Modern, Players: 5, Bots: []string{"heuristic", "search", "random", "random"}, Target: 100, Seed: 1}},
		{name: "modern-2p", edition: "Modern", players: "2", bots: []string{"Easy"}, length: 0, seed: "3",
			wantPlayers: []string{"2", "3", "4", "5"}, wantLengths: 2,
			want: seat.LocalConfig{Edition: engine.Modern, Players: 2, Bots: []string{"random"}, Seed: 3}},
		{name: "bad seed", edition: "Classic", players: "4", seed: "seven", wantPlayers: []string{"3", "4"}, wantLengths: 3, houseRuleOnTarget: true, wantErr: true},
		{name: "negative seed", edition: "Classic", players: "4", seed: "-1", wantPlayers: []string{"3", "4"}, wantLengths: 3, houseRuleOnTarget: true, wantErr: true},
		{name: "bad target", edition: "Modern", players: "3", length: 1, target: "0", wantPlayers: []string{"2", "3", "4", "5"}, wantLengths: 2, wantErr: true},
		{name: "huge target", edition: "Classic", players: "4", length: 2, target: "99999", wantPlayers: []string{"3", "4"}, wantLengths: 3, houseRuleOnTarget: true, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := newTestApp(t, "en")
			n := NewNewGame(u)
			n.Edition.SetSelected(c.edition)
			if !slices.Equal(n.Players.Options, c.wantPlayers) {
				t.Fatalf("players offered %v, want %v", n.Players.Options, c.wantPlayers)
			}
			n.Players.SetSelected(c.players)
			p, _ := strconv.Atoi(c.players)
			if len(n.Bots) != p-1 {
				t.Fatalf("%d bot choices for %d players", len(n.Bots), p)
			}
			for i, b := range c.bots {
				n.Bots[i].SetSelected(b)
			}
			if len(n.Length.Options) != c.wantLengths {
				t.Fatalf("lengths offered %v", n.Length.Options)
			}
			if n.HouseRule.Visible() != c.houseRuleOnTarget {
				t.Fatalf("the house-rule note shows: %v", n.HouseRule.Visible())
			}
			n.Length.SetSelected(n.Length.Options[c.length])
			if n.Target.Visible() != (c.target != "") {
				t.Fatalf("target entry visible %v", n.Target.Visible())
			}
			if c.target != "" {
				n.Target.SetText(c.target)
			}
			n.Seed.SetText(c.seed)
			cfg, err := n.Config()
			if c.wantErr {
				if err == nil {
					t.Fatalf("config %+v, want an error", cfg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.Names = append([]string{""}, botNames[:c.want.Players-1]...) // no name in the settings
			if cfg.Edition != c.want.Edition || cfg.Players != c.want.Players || !slices.Equal(cfg.Bots, c.want.Bots) ||
				cfg.Short != c.want.Short || cfg.Target != c.want.Target || cfg.Seed != c.want.Seed || !slices.Equal(cfg.Names, c.want.Names) {
				t.Fatalf("config %+v, want %+v", cfg, c.want)
			}
			if _, err := seat.NewLocal(cfg); err != nil {
				t.Fatalf("the seat refuses the form's game: %v", err)
			}
		})
	}
}

// TestNewGameRoundsFromEngine: the whole and short game lengths shown are
// the engine's (R-END).
func TestNewGameRoundsFromEngine(t *testing.T) {
	u := newTestApp(t, "en")
	n := NewNewGame(u)
	n.Edition.SetSelected("Classic")
	n.Players.SetSelected("3")
	if n.Length.Options[0] != "Whole game: 6 rounds" || n.Length.Options[1] != "Short game: 3 rounds" {
		t.Fatalf("Classic 3p lengths %v", n.Length.Options)
	}
	n.Edition.SetSelected("Modern")
	n.Players.SetSelected("5")
	if n.Length.Options[0] != "Whole game: 10 rounds" {
		t.Fatalf("Modern 5p lengths %v", n.Length.Options)
	}
}

// TestNewGameRemembersChoices: starting a game keeps the form's choices for
// next time and saves the new game.
func TestNewGameRemembersChoices(t *testing.T) {
	u := newTestApp(t, "en")
	n := NewNewGame(u)
	n.Edition.SetSelected("Modern")
	n.Players.SetSelected("3")
	n.Bots[1].SetSelected("Easy")
	n.Bots[0].SetSelected("Strong")
	n.Seed.SetText("5")
	test.Tap(n.Play)
	if !u.HasSavedGame(njetID) {
		t.Fatal("the new game is not saved")
	}
	if _, ok := u.Top().(*TableScreen); !ok {
		t.Fatalf("the top screen is %T", u.Top())
	}
	stopTables(t, u)
	again := NewNewGame(u)
	if again.Edition.Selected != "Modern" || again.Players.Selected != "3" || again.Bots[1].Selected != "Easy" || again.Bots[0].Selected != "Strong" {
		t.Fatalf("remembered %q %q %q %q", again.Edition.Selected, again.Players.Selected, again.Bots[0].Selected, again.Bots[1].Selected)
	}
}

// TestContinueResumes: the saved game of a started table comes back on
// Continue: the same game (edition, players, seed, names) at a new table.
func TestContinueResumes(t *testing.T) {
	u := newTestApp(t, "en")
	cfg := seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 9, Short: true, Names: []string{"You", "Ada", "Boris"}}
	if err := startNjet(u, cfg); err != nil {
		t.Fatal(err)
	}
	stopTables(t, u)
	h := NewHome(u)
	u.Reset(h)
	if !h.Game(njetID).Continue.Visible() {
		t.Fatal("Continue is hidden with a saved game")
	}
	test.Tap(h.Game(njetID).Continue)
	if _, ok := u.Top().(*TableScreen); !ok {
		t.Fatalf("Continue shows %T", u.Top())
	}
	stopTables(t, u)
	l, ok := u.saves[njetID].live.(*seat.Local)
	if !ok {
		t.Fatalf("the live game is %T", u.saves[njetID].live)
	}
	got := l.Config()
	if got.Edition != cfg.Edition || got.Players != cfg.Players || got.Seed != cfg.Seed || !got.Short || !slices.Equal(got.Names, cfg.Names) {
		t.Fatalf("resumed %+v, saved %+v", got, cfg)
	}
}

// stopTables stops every screen and waits for the table screens' pumps to
// end, so that nothing draws behind the test's back.
func stopTables(t *testing.T, u *App) {
	t.Helper()
	var tables []*TableScreen
	for _, e := range u.stack {
		if ts, ok := e.screen.(*TableScreen); ok {
			tables = append(tables, ts)
		}
	}
	u.stopAll()
	for _, ts := range tables {
		select {
		case <-ts.done:
		case <-time.After(10 * time.Second):
			t.Fatal("a table's pump does not end")
		}
	}
}

// TestSettings: each setting is kept at once and read back; a language
// change rebuilds home and settings in that language.
func TestSettings(t *testing.T) {
	u := newTestApp(t, "en")
	s := NewSettings(u)
	u.Push(s)
	s.Name.SetText("  Marta ")
	if u.PlayerName() != "Marta" {
		t.Fatalf("name %q", u.PlayerName())
	}
	s.Name.SetText(strings.Repeat("x", maxNameLen+1))
	if u.PlayerName() != "Marta" || s.Name.Validate() == nil {
		t.Fatalf("a long name was taken: %q", u.PlayerName())
	}
	s.Pace.SetSelected("Slow")
	if u.Pace() != 1200*time.Millisecond {
		t.Fatalf("pace %v", u.Pace())
	}
	s.Theme.SetSelected("Dark")
	if u.Prefs().Theme() != ThemeDark || u.theme.force != ThemeDark {
		t.Fatalf("theme %q", u.Prefs().Theme())
	}
	s.Language.SetSelected("Deutsch")
	if u.Prefs().Language() != "de" {
		t.Fatalf("language %q", u.Prefs().Language())
	}
	top, ok := u.Top().(*Settings)
	if !ok || u.Depth() != 2 {
		t.Fatalf("after a language change: %T at depth %d", u.Top(), u.Depth())
	}
	if got := top.Pace.Selected; got != "Langsam" {
		t.Fatalf("the settings speak English still: pace %q", got)
	}
	if h := NewHome(u); h.Rules.Text != "Regeln" {
		t.Fatalf("home says %q", h.Rules.Text)
	}
	top.Language.SetSelected("Français")
	if h := NewHome(u); h.Rules.Text != "Règles" {
		t.Fatalf("home says %q", h.Rules.Text)
	}
}

// TestPrefsRefuseBadValues: bad settings are errors, and stored junk reads
// back as the default.
func TestPrefsRefuseBadValues(t *testing.T) {
	u := newTestApp(t, "en")
	p := u.Prefs()
	if p.SetLanguage("xx") == nil || p.SetTheme("pink") == nil || p.SetPace(3*time.Second) == nil {
		t.Fatal("a bad setting was taken")
	}
	p.p.SetString(keyTheme, "pink")
	p.p.SetInt(keyPace, 7)
	p.p.SetString(keyLanguage, "tlh")
	if p.Theme() != ThemeSystem || p.Pace() != defaultPace || p.Language() != "" {
		t.Fatalf("junk read back as %q %v %q", p.Theme(), p.Pace(), p.Language())
	}
}

// TestIcon: Icon.png at the module root is the icon this code draws.
func TestIcon(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, iconImage(512)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "Icon.png")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatal("Icon.png differs from the drawn icon; run go test ./ui/ -run TestIcon -update")
	}
	if Icon() == nil || len(Icon().Content()) == 0 {
		t.Fatal("no window icon")
	}
}

// appFiles are the files whose words live in app.*.json; the table
// screen's live in table.*.json.
var appFiles = []string{"app.go", "home.go", "newgame.go", "njet.go", "rules.go", "settings.go", "prefs.go", "lang.go", "theme.go", "icon.go"}

// usedKeys are the translation keys the package's files use with their
// English text: every literal tr and trn call, and the keys of the tables
// of words (fair play's for the others, the app's own screens' when app
// is true).
func usedKeys(t *testing.T, app bool) map[string]string {
	t.Helper()
	keys := map[string]string{}
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || app != slices.Contains(appFiles, name) {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			id, ok := call.Fun.(*ast.Ident)
			if !ok || (id.Name != "tr" && id.Name != "trn") {
				return true
			}
			k, ok1 := call.Args[0].(*ast.BasicLit)
			e, ok2 := call.Args[1].(*ast.BasicLit)
			if ok1 && ok2 && k.Kind == token.STRING && e.Kind == token.STRING {
				key, _ := strconv.Unquote(k.Value)
				en, _ := strconv.Unquote(e.Value)
				keys[key] = en
			}
			return true
		})
	}
	if !app {
		for _, w := range fairWords {
			keys[w.key] = w.english
		}
		for _, w := range theGameFairWords {
			keys[w.key] = w.english
		}
		return keys
	}
	for _, l := range botLevels {
		keys[l.key] = l.english
	}
	for _, c := range themeChoices {
		keys[c.key] = c.english
	}
	for _, p := range ruleParts {
		keys["rules."+p.key+".heading"] = p.heading
		if p.modern == "" {
			keys["rules."+p.key] = p.text
		} else {
			keys["rules."+p.key+".classic"] = p.text
			keys["rules."+p.key+".modern"] = p.modern
		}
	}
	return keys
}

// readTranslations reads one of the package's translation files; plural
// entries come back as their "other" form. A missing file reads as empty.
func readTranslations(t *testing.T, name string) map[string]string {
	t.Helper()
	raw, err := translations.ReadFile("translations/" + name)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := map[string]string{}
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil || forms["other"] == "" {
			t.Fatalf("%s: %s is neither text nor plural forms", name, k)
		}
		out[k] = forms["other"]
	}
	return out
}

// placeholders lists the {{.X}} fields of a text.
func placeholders(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		out = append(out, s[i:i+j+2])
		s = s[i+j+2:]
	}
	sort.Strings(out)
	return out
}

// TestTranslationsComplete: every key the package uses has German and
// French text with the same placeholders (in app.*.json or table.*.json);
// app.*.json hold no keys the app's screens do not use, and app.en.json is
// the English of the code (-update rewrites it).
func TestTranslationsComplete(t *testing.T) {
	keys := usedKeys(t, true)
	others := usedKeys(t, false)
	if len(keys) < 40 {
		t.Fatalf("only %d keys found", len(keys))
	}
	if *update {
		data, err := json.MarshalIndent(keys, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("translations", "app.en.json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, code := range []string{"en", "de", "fr"} {
		t.Run(code, func(t *testing.T) {
			tr := readTranslations(t, "app."+code+".json")
			table := readTranslations(t, "table."+code+".json")
			maps.Copy(table, readTranslations(t, "lan."+code+".json"))
			maps.Copy(table, readTranslations(t, "again."+code+".json"))
			if code != "en" {
				for k, en := range others {
					got, ok := table[k]
					if !ok {
						got, ok = tr[k]
					}
					if !ok {
						t.Errorf("%s has no %s", code, k)
					} else if !slices.Equal(placeholders(got), placeholders(en)) {
						t.Errorf("%s %s has placeholders %v, English %v", code, k, placeholders(got), placeholders(en))
					}
				}
			}
			for k, en := range keys {
				got, ok := tr[k]
				if !ok {
					t.Errorf("%s has no %s", code, k)
					continue
				}
				if code == "en" && got != en {
					t.Errorf("en %s is %q, the code says %q", k, got, en)
				}
				if !slices.Equal(placeholders(got), placeholders(en)) {
					t.Errorf("%s %s has placeholders %v, English %v", code, k, placeholders(got), placeholders(en))
				}
			}
			for k := range tr {
				if _, ok := keys[k]; !ok {
					t.Errorf("%s has %s, which nothing uses", code, k)
				}
			}
		})
	}
}

// TestGameOverRemovesSave: a local game read to its end (R-END, a target
// of 1) through the seat the table gets leaves no save behind, so home
// stops offering to continue.
func TestGameOverRemovesSave(t *testing.T) {
	u := newTestApp(t, "en")
	l, err := seat.NewLocal(seat.LocalConfig{Edition: engine.Modern, Players: 2, Seed: 3, Target: 1})
	if err != nil {
		t.Fatal(err)
	}
	u.SaveLocal(njetID, l)
	s := u.clearedAtEnd(l)
	for range 100000 {
		ev, err := s.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if y, ok := ev.(seat.YourTurn); ok {
			if err := s.Choose(y.Prompt.Seq, y.Prompt.Legal[0]); err != nil {
				t.Fatal(err)
			}
			u.SaveLocal(njetID, l) // as the table's OnChoice does, even after the last choice
			if !l.Over() && !u.HasSavedGame(njetID) {
				t.Fatal("the game underway is not saved")
			}
		}
	}
	if !l.Over() {
		t.Fatal("the game did not end")
	}
	if u.HasSavedGame(njetID) {
		t.Fatal("the finished game is still saved")
	}
}

// TestLanguageFromSystem: with no language chosen the app speaks the
// system's (German here, French there), and English under the C locale.
func TestLanguageFromSystem(t *testing.T) {
	setupLang("en") // takes the process's own LANGUAGE first
	saved := systemLanguage
	t.Cleanup(func() { systemLanguage = saved })
	cases := []struct {
		system, lang, want string
	}{
		{"de", "", "Regeln"},
		{"fr_FR", "", "Règles"},
		{"", "C.UTF-8", "Rules"},
	}
	for _, c := range cases {
		t.Run(c.system+c.lang, func(t *testing.T) {
			systemLanguage = c.system
			t.Setenv("LC_ALL", c.lang)
			u := newTestApp(t, "")
			if got := NewHome(u).Rules.Text; got != c.want {
				t.Fatalf("home says %q, want %q", got, c.want)
			}
		})
	}
}
