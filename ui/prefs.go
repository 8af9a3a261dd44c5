package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
)

// Prefs are the app's settings, typed, over fyne.Preferences.
type Prefs struct {
	p fyne.Preferences
}

// Preference keys. Their meaning never changes: a new setting gets a new key.
const (
	keyName     = "name"
	keyLanguage = "lang"
	keyTheme    = "theme"
	keyPace     = "pace-ms"
	keyEdition  = "new.edition"
	keyPlayers  = "new.players"
	keyBots     = "new.bots"
	keyLength   = "new.length"
	keyTarget   = "new.target"
)

// Languages the app speaks, by code; "" follows the system.
var languages = []string{"", "en", "de", "fr"}

// Themes the app offers.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Bot paces on offer, slowest last; the default is the second.
var paces = []time.Duration{250 * time.Millisecond, 600 * time.Millisecond, 1200 * time.Millisecond, 2000 * time.Millisecond}

const defaultPace = 600 * time.Millisecond

// maxNameLen bounds a player's name in runes.
const maxNameLen = 20

// Name is the person's name; "" until set.
func (p Prefs) Name() string { return p.p.String(keyName) }

// SetName stores the person's name, trimmed; names longer than 20
// characters are an error.
func (p Prefs) SetName(name string) error {
	if err := p.checkName(name); err != nil {
		return err
	}
	p.p.SetString(keyName, strings.TrimSpace(name))
	return nil
}

// checkName says what is wrong with a name, if anything.
func (Prefs) checkName(name string) error {
	if n := len([]rune(strings.TrimSpace(name))); n > maxNameLen {
		return fmt.Errorf("%s", trn("settings.name.long", "A name has at most {{.Count}} characters", maxNameLen))
	}
	return nil
}

// Language is the chosen language code, or "" to follow the system.
func (p Prefs) Language() string {
	l := p.p.String(keyLanguage)
	for _, k := range languages {
		if k == l {
			return l
		}
	}
	return ""
}

// SetLanguage chooses a language: "", "en", "de" or "fr".
func (p Prefs) SetLanguage(code string) error {
	for _, k := range languages {
		if k == code {
			p.p.SetString(keyLanguage, code)
			return nil
		}
	}
	return fmt.Errorf("no language %q: want en, de or fr", code)
}

// Theme is ThemeSystem, ThemeLight or ThemeDark.
func (p Prefs) Theme() string {
	switch t := p.p.String(keyTheme); t {
	case ThemeLight, ThemeDark:
		return t
	}
	return ThemeSystem
}

// SetTheme chooses ThemeSystem, ThemeLight or ThemeDark.
func (p Prefs) SetTheme(t string) error {
	switch t {
	case ThemeSystem, ThemeLight, ThemeDark:
		p.p.SetString(keyTheme, t)
		return nil
	}
	return fmt.Errorf("no theme %q: want system, light or dark", t)
}

// Pace is how long the table waits after each bot move.
func (p Prefs) Pace() time.Duration {
	ms := p.p.IntWithFallback(keyPace, int(defaultPace/time.Millisecond))
	d := time.Duration(ms) * time.Millisecond
	for _, q := range paces {
		if q == d {
			return d
		}
	}
	return defaultPace
}

// SetPace chooses one of the offered bot paces.
func (p Prefs) SetPace(d time.Duration) error {
	for _, q := range paces {
		if q == d {
			p.p.SetInt(keyPace, int(d/time.Millisecond))
			return nil
		}
	}
	return fmt.Errorf("no bot pace %v", d)
}
