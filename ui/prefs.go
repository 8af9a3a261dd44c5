package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// localFile is the name of the unfinished local game in the storage
// directory.
const localFile = "local.json"

// theGameFile is the unfinished local game of The Game in the storage
// directory (thegame_save.go); theGameAside is where a save of it that
// cannot be continued is set aside.
const (
	theGameFile  = "thegame.json"
	theGameAside = "thegame.damaged.json"
)

// maxSave bounds the size of a save file that is read back.
const maxSave = 4 << 20

// errNoSave says there is no unfinished local game.
var errNoSave = errors.New("no saved game")

// saveGame writes g's save to dir/local.json through a temporary file, so
// that a crash never leaves half a file. A game that says it is over
// (seat.Local.Over) is not saved but removed: a choice's save can come
// after the game has ended.
func saveGame(dir string, g Saver) error { return saveFile(dir, localFile, g) }

// saveFile writes g's save to dir/name the way saveGame does.
func saveFile(dir, name string, g Saver) error {
	if o, ok := g.(interface{ Over() bool }); ok && o.Over() {
		return clearFile(dir, name)
	}
	data, err := g.Save()
	if err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name()) // the error below is the one that matters
		return fmt.Errorf("saving the game: %w", werr)
	}
	return nil
}

// loadGame reads the saved local game, or errNoSave.
func loadGame(dir string) ([]byte, error) { return loadFile(dir, localFile) }

// loadFile reads the saved game dir/name, or errNoSave.
func loadFile(dir, name string) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoSave
	}
	if err != nil {
		return nil, fmt.Errorf("reading the saved game: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSave+1))
	if err != nil {
		return nil, fmt.Errorf("reading the saved game: %w", err)
	}
	if len(data) > maxSave {
		return nil, fmt.Errorf("reading the saved game: larger than %d bytes", maxSave)
	}
	if len(data) == 0 {
		return nil, errNoSave
	}
	return data, nil
}

// clearGame removes the saved local game; a missing file is fine.
func clearGame(dir string) error { return clearFile(dir, localFile) }

// clearFile removes the saved game dir/name; a missing file is fine.
func clearFile(dir, name string) error {
	err := os.Remove(filepath.Join(dir, name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the saved game: %w", err)
	}
	return nil
}
