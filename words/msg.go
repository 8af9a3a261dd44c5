package words

import (
	"embed"
	"strconv"
	"strings"
	"sync"
	"text/template"
)

// Translations holds the game's words in every language the app offers, as
// go-i18n JSON files named game.LANG.json in the directory "translations":
// lang.AddTranslationsFS(words.Translations, "translations") loads them.
//
//go:embed translations
var Translations embed.FS

// Msg is one phrase of the game: what a front end says, before it is said
// in a language.
type Msg struct {
	// ID names the phrase in the translation files: stable, dotted, never
	// shown to a player (e.g. "field.discard.pass-left").
	ID string
	// Text is the English template, with {{.Name}} placeholders; for a
	// plural phrase it is the English form that fits Count.
	Text string
	// Args fill the placeholders. A value may itself be a Msg (or a []Msg,
	// shown as a list); Data renders those first.
	Args map[string]any
	// Count chooses the plural form when Plural is set; it is also given to
	// the template as {{.Count}}.
	Count  int
	Plural bool
}

// String renders the English text.
func (m Msg) String() string {
	return m.Render(func(n Msg) string { return n.english() })
}

// Render fills the template that say returns for m: say renders the
// message's own template, and the nested messages among the arguments are
// rendered through say first. The English text is
// m.Render(func(n Msg) string { ... English ... }); the app passes a
// lookup in the player's language (see Translator).
func (m Msg) Render(say func(Msg) string) string {
	return say(Msg{ID: m.ID, Text: m.Text, Args: m.Data(say), Count: m.Count, Plural: m.Plural})
}

// Data returns the template data of m: the arguments with every nested Msg
// rendered by say (recursively), and Count for plural phrases.
func (m Msg) Data(say func(Msg) string) map[string]any {
	data := make(map[string]any, len(m.Args)+1)
	for k, v := range m.Args {
		switch x := v.(type) {
		case Msg:
			data[k] = x.Render(say)
		default:
			data[k] = v
		}
	}
	if m.Plural {
		data["Count"] = m.Count
	}
	return data
}

// Translator looks a phrase up in the player's language: the id, the
// English fallback text, the template data and, for plural phrases, the
// count. With fyne's lang package it is
//
//	func(id, en string, data map[string]any, count int, plural bool) string {
//		if plural {
//			return lang.XN(id, en, count, data)
//		}
//		return lang.X(id, en, data)
//	}
type Translator func(id, en string, data map[string]any, count int, plural bool) string

// Say renders m through t, nested messages included.
func (m Msg) Say(t Translator) string {
	var say func(Msg) string
	say = func(n Msg) string {
		return t(n.ID, n.Text, n.Args, n.Count, n.Plural)
	}
	return m.Render(say)
}

// templates caches the parsed English templates by text.
var templates sync.Map // string -> *template.Template

// english fills m's English template with m.Args, whose nested messages
// are already rendered. A template that fails says so in the text rather
// than failing the caller.
func (m Msg) english() string {
	if !strings.Contains(m.Text, "{{") {
		return m.Text
	}
	var t *template.Template
	if v, ok := templates.Load(m.Text); ok {
		t = v.(*template.Template)
	} else {
		var err error
		t, err = template.New(m.ID).Option("missingkey=zero").Parse(m.Text)
		if err != nil {
			return m.Text
		}
		templates.Store(m.Text, t)
	}
	var b strings.Builder
	if err := t.Execute(&b, m.Args); err != nil {
		return m.Text
	}
	return b.String()
}

// entry is one phrase of the English catalogue: one form, or the "one" and
// "other" forms of a plural phrase.
type entry struct {
	one, other string
}

// lookup returns the catalogue entry of id; the second result is false for
// an id the catalogue does not hold (a programming error the tests catch).
func lookup(id string) (entry, bool) {
	if e, ok := catalogue[id]; ok {
		return e, true
	}
	e, ok := theGameCatalogue[id]
	return e, ok
}

// msg builds the Msg of a catalogue phrase. args are name, value pairs.
func msg(id string, args ...any) Msg {
	e, _ := lookup(id)
	m := Msg{ID: id, Text: e.other}
	if len(args) > 0 {
		m.Args = make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			if k, ok := args[i].(string); ok {
				m.Args[k] = args[i+1]
			}
		}
	}
	return m
}

// plural builds the Msg of a plural catalogue phrase for count n.
func plural(id string, n int, args ...any) Msg {
	m := msg(id, args...)
	e, _ := lookup(id)
	m.Plural, m.Count = true, n
	if n == 1 && e.one != "" {
		m.Text = e.one
	}
	return m
}

// Plain wraps text that needs no translation (a player's name, a number)
// as a Msg.
func Plain(text string) Msg { return msg("plain", "Text", text) }

// Number is a number as a Msg.
func Number(n int) Msg { return Plain(strconv.Itoa(n)) }

// List joins messages in the language's way: "a", "a and b", "a, b and c".
func List(items []Msg) Msg {
	switch len(items) {
	case 0:
		return msg("list.none")
	case 1:
		return items[0]
	case 2:
		return msg("list.two", "A", items[0], "B", items[1])
	}
	return msg("list.more", "First", items[0], "Rest", List(items[1:]))
}

// Join puts messages side by side with a separator that is the same in
// every language (" + " between team members, " | " between hand groups).
func Join(items []Msg, sep string) Msg {
	switch len(items) {
	case 0:
		return msg("list.none")
	case 1:
		return items[0]
	}
	return msg("join", "First", items[0], "Sep", sep, "Rest", Join(items[1:], sep))
}
