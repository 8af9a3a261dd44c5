package ui

import (
	"fmt"
	"slices"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
)

// A game brings the app its own screens: the setup of a game against
// bots, its rules, its table and game-over view, the screen of a LAN
// table, and the words for its part of home, of the host form, the LAN
// list, the lobby and fair play. The shell (home, the LAN list, the host
// form, the lobby, fair play, checking a log, saving and continuing)
// asks the registry below and never names a game: a new game is a new
// entry, with its screens, and nothing of the shell changes.

// gameUI is one game's part of the app. Its hooks run on the UI
// goroutine unless they say otherwise.
type gameUI struct {
	// id is the game's ID in package games ("njet", "thegame"): the key
	// of its save, of its tables and of its entry here.
	id string
	// title names the game; about says under it on home what kind of
	// game it is ("" for nothing); newLabel is home's button that sets up
	// a game against bots.
	title, about, newLabel func() string
	// setup makes the screen that sets up a game against bots, rules the
	// screen of the game's rules.
	setup, rules func(a *App) Screen

	// save is where the app keeps the game's unfinished local game.
	save saveFiles
	// describe names a saved game on home: the words of its Continue
	// button and, when the game says more, a line above it ("").
	describe func(a *App, data []byte) (label, line string)
	// resume sits the person down again at the saved game data; an error
	// says why it cannot be continued.
	resume func(a *App, data []byte) error
	// badSave heads the message of a save that cannot be continued.
	badSave func() string

	// lanTable makes the screen of a LAN table of the game.
	lanTable func(a *App, t LANTable) Screen
	// variantName names a variant (its ID in package games) in the LAN
	// list, the lobby and the host form.
	variantName func(variant string) string
	// host puts the game's own choices on the host form (its fields, its
	// player counts) and says how to read them.
	host func(f *HostForm) hostPart

	// fairStep says a check of fair play in the game's words, fairVerdict
	// the verdict on a log that passed, fairDetails the game's own lines
	// of the details (nil: none).
	fairStep    func(s fairStep) string
	fairVerdict func(v *table.Verification) string
	fairDetails func(v *table.Verification) []string
}

// saveFiles are the files of a game's save in the app's storage: file
// holds the unfinished game; aside, when set, is where a save that cannot
// be continued is put, kept for the person, and such a save stays
// offered until then, so that the person learns what became of it.
// Without aside an unreadable save is removed and not offered.
type saveFiles struct {
	file, aside string
}

// gameUIs are the games of the app, in the order home offers them; the
// first is the app's own game (its rules are home's Rules).
var gameUIs []*gameUI

// The registry is filled at start: its entries' screens lead back to
// home, which reads it.
func init() { gameUIs = []*gameUI{njetUI, theGameUI} }

// gameByID is the app's part of the game id, or the app's own game for an
// id it does not know (a table of a game this app has no screens for is
// refused by package lan before it gets here).
func gameByID(id string) *gameUI {
	if i := slices.IndexFunc(gameUIs, func(g *gameUI) bool { return g.id == id }); i >= 0 {
		return gameUIs[i]
	}
	return gameUIs[0]
}

// checkGameUIs reports an entry whose id the registry of games does not
// know, or a game of the registry without an entry.
func checkGameUIs() error {
	for _, g := range gameUIs {
		if _, err := games.ByID(g.id); err != nil {
			return fmt.Errorf("ui: %w", err)
		}
	}
	for _, g := range games.All() {
		if !slices.ContainsFunc(gameUIs, func(u *gameUI) bool { return u.id == g.ID }) {
			return fmt.Errorf("ui: no screens for the game %s", g.ID)
		}
	}
	return nil
}
