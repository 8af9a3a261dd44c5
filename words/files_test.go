package words

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"slices"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "write translations/game.en.json from the catalogue")

// englishJSON renders a catalogue as a go-i18n file: a plain string per
// phrase, an object with "one" and "other" for plural phrases.
func englishJSON(catalogue map[string]entry) ([]byte, error) {
	ids := make([]string, 0, len(catalogue))
	for id := range catalogue {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, id := range ids {
		e := catalogue[id]
		k, err := json.Marshal(id)
		if err != nil {
			return nil, err
		}
		var v []byte
		if e.one != "" {
			v, err = json.Marshal(map[string]string{"one": e.one, "other": e.other})
		} else {
			v, err = json.Marshal(e.other)
		}
		if err != nil {
			return nil, err
		}
		b.WriteString("  " + string(k) + ": " + string(v))
		if i < len(ids)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// TestEnglishFileIsTheCatalogue keeps game.en.json in step with the
// catalogue (go test ./words -update rewrites it).
func TestEnglishFileIsTheCatalogue(t *testing.T) {
	want, err := englishJSON(catalogue)
	if err != nil {
		t.Fatal(err)
	}
	const path = "translations/game.en.json"
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

// phrase is one id of a translation file: its forms by plural category.
type phrase map[string]string

// readFile reads a go-i18n translation file of the embedded set.
func readFile(t *testing.T, name string) map[string]phrase {
	t.Helper()
	raw, err := Translations.ReadFile("translations/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := map[string]phrase{}
	for id, v := range file {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[id] = phrase{"other": s}
			continue
		}
		var p phrase
		if err := json.Unmarshal(v, &p); err != nil {
			t.Fatalf("%s: %s: %v", name, id, err)
		}
		out[id] = p
	}
	return out
}

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// placeholders lists the placeholder names of a template, sorted, once each.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}
