package ui

import (
	"embed"
	"os"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"github.com/njetlan/njet/words"
)

// translations holds the app's own words (app.*.json) and the table
// screen's (table.*.json); the game's words come from package words.
//
//go:embed translations
var translations embed.FS

// systemLanguage is LANGUAGE as the process found it, so that "follow the
// system" can undo a choice made earlier in the same run.
var (
	systemLanguage     string
	systemLanguageOnce sync.Once
)

// setupLang loads every translation and picks the language: code ("en",
// "de", "fr"), or the system's when code is "". Fyne's lang package reads the
// locale from the environment, so the choice goes through LANGUAGE.
func setupLang(code string) {
	systemLanguageOnce.Do(func() { systemLanguage = os.Getenv("LANGUAGE") })
	want := code
	if want == "" {
		want = systemLanguage
	}
	if want == "" && cLocale() {
		want = "en" // the C locale names no language; Fyne would log its name as an error
	}
	if want == "" {
		_ = os.Unsetenv("LANGUAGE") // cannot fail for a valid name
	} else {
		_ = os.Setenv("LANGUAGE", want)
	}
	for _, fsys := range []embed.FS{words.Translations, translations} {
		if err := lang.AddTranslationsFS(fsys, "translations"); err != nil {
			fyne.LogError("loading translations", err)
		}
	}
}

// cLocale reports whether the environment's locale is the C (POSIX) one.
func cLocale() bool {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" {
			base, _, _ := strings.Cut(v, ".")
			return base == "C" || base == "POSIX"
		}
	}
	return false
}

// tr is a piece of the app's text: its key and its English text, which is
// also the fallback. args fill {{.Name}} fields in the text.
func tr(key, english string, args ...map[string]any) string {
	if len(args) > 0 {
		return lang.LocalizeKey(key, english, args[0])
	}
	return lang.LocalizeKey(key, english)
}

// text is a piece of the app's text kept for later: its key and its
// English text.
type text struct{ key, english string }

// String is the text in the chosen language.
func (t text) String() string { return tr(t.key, t.english) }

// trn is tr with plural forms chosen by count; the text may use {{.Count}}.
func trn(key, english string, count int, args ...map[string]any) string {
	data := map[string]any{"Count": count}
	if len(args) > 0 {
		for k, v := range args[0] {
			data[k] = v
		}
	}
	return lang.LocalizePluralKey(key, english, count, data)
}

// say is a game phrase (an action, a card, a field, a trick's winner, an
// engine's reason) in the chosen language; phrases nested in its arguments
// are said first.
func say(m words.Msg) string {
	return m.Say(translate)
}

// translate looks one phrase up through fyne's lang package.
func translate(id, english string, data map[string]any, count int, plural bool) string {
	if plural {
		return lang.LocalizePluralKey(id, english, count, data)
	}
	return lang.LocalizeKey(id, english, data)
}
