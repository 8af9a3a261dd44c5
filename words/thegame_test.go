package words

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/njetlan/njet/thegame"
)

// TestTheGameEnglishFile keeps thegame.en.json in step with The Game's
// catalogue (go test ./words -update rewrites it).
func TestTheGameEnglishFile(t *testing.T) {
	want, err := englishJSON(theGameCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	const path = "translations/thegame.en.json"
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the catalogue: run go test ./words -update", path)
	}
}

// TestTheGameEveryIDInEveryLanguage: The Game's ids all begin with
// "thegame.", none is also an id of the Njet catalogue, and the three files
// hold every one with the same placeholders and plural forms.
func TestTheGameEveryIDInEveryLanguage(t *testing.T) {
	files := map[string]map[string]phrase{}
	for _, l := range languages {
		files[l] = readFile(t, "thegame."+l+".json")
	}
	for id, e := range theGameCatalogue {
		if !strings.HasPrefix(id, "thegame.") {
			t.Errorf("%q is not under thegame.", id)
		}
		if _, ok := catalogue[id]; ok {
			t.Errorf("%q is in both catalogues", id)
		}
		want := placeholders(e.other)
		for _, l := range languages {
			p, ok := files[l][id]
			if !ok {
				t.Errorf("%s: no %q", l, id)
				continue
			}
			if (e.one != "") != (p["one"] != "") {
				t.Errorf("%s: %q: plural forms %v, English has one=%q", l, id, p, e.one)
			}
			for form, text := range p {
				got := placeholders(text)
				if form == "one" {
					got = slices.DeleteFunc(got, func(s string) bool { return s == "Count" })
					w := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "Count" })
					if !slices.Equal(got, w) {
						t.Errorf("%s: %q one: placeholders %v, want %v", l, id, got, w)
					}
					continue
				}
				if form != "other" {
					t.Errorf("%s: %q: unknown plural form %q", l, id, form)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q: placeholders %v, want %v", l, id, got, want)
				}
				if _, err := template.New(id).Parse(text); err != nil {
					t.Errorf("%s: %q: %v", l, id, err)
				}
			}
		}
	}
	for _, l := range languages {
		for id := range files[l] {
			if _, ok := theGameCatalogue[id]; !ok {
				t.Errorf("%s: %q is not in The Game's catalogue", l, id)
			}
		}
	}
}

// theGameTranslator renders a message in language l from both sets of
// files.
func theGameTranslator(t *testing.T, l string) Translator {
	file := readFile(t, "game."+l+".json")
	for id, p := range readFile(t, "thegame."+l+".json") {
		file[id] = p
	}
	return func(id, en string, data map[string]any, count int, plural bool) string {
		p, ok := file[id]
		if !ok {
			t.Errorf("%s: no %q", l, id)
			return en
		}
		text := p["other"]
		if plural && p["one"] != "" && (count == 1 || l == "fr" && count == 0) {
			text = p["one"]
		}
		tm, err := template.New(id).Option("missingkey=error").Parse(text)
		if err != nil {
			t.Errorf("%s: %q: %v", l, id, err)
			return en
		}
		var b strings.Builder
		if err := tm.Execute(&b, data); err != nil {
			t.Errorf("%s: %q: %v", l, id, err)
		}
		return b.String()
	}
}

// TestTheGameWords words every command with its rule and cards (G-X1), every
// signal (G-S1) and every rating (G-B8) in the three languages: known ids,
// nothing internal, nothing empty, and the ratings and commands distinct.
func TestTheGameWords(t *testing.T) {
	var msgs []Msg
	for _, k := range thegame.Commands() {
		msgs = append(msgs, CommandName(k), CommandRule(k), CommandCards(k))
	}
	for _, s := range []thegame.Signal{thegame.SignalNone, thegame.SignalMine, thegame.SignalGood} {
		msgs = append(msgs, Signal(s), SignalShort(s))
	}
	for _, r := range []thegame.Rating{thegame.RatingWon, thegame.RatingExcellent, thegame.RatingPlayOn, thegame.RatingLost} {
		msgs = append(msgs, Rating(r))
	}
	msgs = append(msgs, TheGameCount("thegame.over.left", 1), TheGameCount("thegame.over.left", 7),
		TheGame("thegame.move.play", "Seat", Bot(2), "Card", 37, "Pile", 3))
	for _, l := range languages {
		t.Run(l, func(t *testing.T) {
			tr := theGameTranslator(t, l)
			seen := map[string]string{}
			for _, m := range msgs {
				if _, ok := lookup(m.ID); !ok {
					t.Errorf("%q is in no catalogue", m.ID)
				}
				text := m.Say(tr)
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s says nothing", m.ID)
				}
				for _, bad := range []string{"{{", "<no value>", "%!", "thegame.", "no-talking", "draw-one"} {
					if strings.Contains(text, bad) {
						t.Errorf("%q holds %q", text, bad)
					}
				}
				if prev, ok := seen[text]; ok && prev != m.ID && m.ID != "thegame.over.left" && !strings.HasSuffix(m.ID, ".tag") {
					t.Errorf("%s and %s both say %q", prev, m.ID, text)
				}
				seen[text] = m.ID
				if l == "en" && text != m.String() {
					t.Errorf("the English file and String differ: %q vs %q", text, m.String())
				}
			}
		})
	}
	if got := CommandCards(thegame.CmdSkull).String(); got != "(cards 6, 31, 55, 80)" {
		t.Errorf("the skull's cards are %q", got)
	}
	if got := TheGameCount("thegame.over.left", 1).String(); got != "Cards left: 1" {
		t.Errorf("one card left reads %q", got)
	}
	if got := TheGame("nothing.here").Text; got != "" {
		t.Errorf("an unknown id has the text %q", got)
	}
}
