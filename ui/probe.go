package ui

import (
	"context"
	"io"
	"reflect"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// NjetWords are the words on the Njet table's buttons in the app's
// language, which a person (a test's, or the driver of the real window)
// looks for.
func NjetWords() reach.NjetWords {
	return reach.NjetWords{
		Next: tr("table.next-round", "Next"),
		Done: tr("table.game-over-done", "Done"),
		Confirm: []string{tr("table.confirm-pass", "Pass this card"),
			trn("table.confirm-discard", "Discard these cards", 1), trn("table.confirm-discard", "Discard these cards", 2)},
	}
}

// probeEvery is how often the probe looks at the window.
const probeEvery = 50 * time.Millisecond

// probe writes what the window shows to w (package reach), as a line of
// JSON each time it changes, until ctx ends: the hidden mode in which a
// driver outside the process plays the app with the real pointer.
func (a *App) probe(ctx context.Context, w io.Writer) {
	p := reach.NewProbe(w)
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	failed := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		a.do(func() {
			if failed {
				return
			}
			if err := p.Write(a.look()); err != nil {
				failed = true // the reader has gone; the app goes on
				a.ShowError(err)
			}
		})
	}
}

// look reads the window as a person sees it.
func (a *App) look() *reach.Screen {
	c := a.win.Canvas()
	inside, err := reach.Rendered(c)
	if err != nil {
		inside = nil // containers alone: the driver will miss what widgets hold
	}
	s := reach.Scan(c, inside)
	s.Name = screenName(a.Top())
	s.Scale = c.Scale()
	return s
}

// screenName names a screen by its type: "Home", "TableScreen".
func screenName(s Screen) string {
	if s == nil {
		return ""
	}
	return reflect.Indirect(reflect.ValueOf(s)).Type().Name()
}

// SetUpWords are the words on the way from the home screen to a new game
// of Njet! and at its table, in one language, for a driver of the real
// window that looks for them.
type SetUpWords struct {
	NewGame, Deal string
	// Edition names each edition as its option says.
	Edition map[engine.Edition]string
	// Whole and Short are the whole and the Classic short game's
	// options for their rounds; Target the target score's.
	Whole, Short func(rounds int) string
	Target       string
	// Length and Seed are the labels above the length's and the seed's
	// controls.
	Length, Seed string
	// You is what the table calls the person when the settings hold no
	// name.
	You   string
	Table reach.NjetWords
	LAN   LANWords
}

// LANWords are the words on the way to a LAN table: home's button, the
// host form's labels and buttons, the lobby's start.
type LANWords struct {
	Host, Name, Players, Bots, Short, Open, Start string
}

// WordsIn switches the process's words to language code ("en", "de",
// "fr") and returns them.
func WordsIn(code string) SetUpWords {
	setupLang(code)
	return setUpWords()
}

// setUpWords are the SetUpWords in the language in use.
func setUpWords() SetUpWords {
	return SetUpWords{
		NewGame: tr("home.new", "New game against bots"),
		Deal:    tr("newgame.play", "Deal the cards"),
		Edition: map[engine.Edition]string{engine.Classic: editionName(engine.Classic), engine.Modern: editionName(engine.Modern)},
		Whole: func(n int) string {
			return tr("newgame.length.whole", "Whole game: {{.Rounds}} rounds", map[string]any{"Rounds": n})
		},
		Short: func(n int) string {
			return tr("newgame.length.short", "Short game: {{.Rounds}} rounds", map[string]any{"Rounds": n})
		},
		Target: tr("newgame.length.target", "Up to a target score"),
		Length: tr("newgame.length", "Length of the game"),
		Seed:   tr("newgame.seed", "Seed (to replay a game)"),
		You:    say(words.Msg{ID: "seat.you", Text: "You"}),
		LAN: LANWords{
			Host:    tr("lan.host", "Host a table"),
			Name:    tr("lan.host.name", "Table name"),
			Players: tr("newgame.players", "Players"),
			Bots:    tr("lan.host.bots", "Seats for bots"),
			Short:   tr("lan.host.short", "Short game"),
			Open:    tr("lan.host.open", "Open the table"),
			Start:   tr("lan.lobby.start", "Start the game"),
		},
		Table: NjetWords(),
	}
}
