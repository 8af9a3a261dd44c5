package ui

import (
	"context"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// njetID is Njet!'s ID in package games.
const njetID = "njet"

// njetUI is Njet!'s part of the app: the new-game form (newgame.go), the
// rules of both editions (rules.go), the table (table.go and the files of
// its widgets) fed by a seat.Seat, whose local game is kept in
// local.json, and the LAN table (langame.go).
var njetUI = &gameUI{
	id:       njetID,
	title:    func() string { return tr("home.play", "Njet!") },
	about:    func() string { return "" },
	newLabel: func() string { return tr("home.new", "New game against bots") },
	setup:    func(a *App) Screen { return NewNewGame(a) },
	rules:    func(a *App) Screen { return NewRules(a) },
	save:     saveFiles{file: "local.json"},
	describe: func(*App, []byte) (string, string) { return tr("home.continue", "Continue the game"), "" },
	resume: func(a *App, data []byte) error {
		l, err := seat.ResumeLocal(data)
		if err == nil {
			a.playLocal(l, TableOptions{})
		}
		return err
	},
	badSave:  func() string { return tr("home.resume.bad", "The saved game cannot be continued") },
	lanTable: func(a *App, t LANTable) Screen { return NewLANGame(a, t) },
	variantName: func(v string) string {
		return tr("game.njet-edition", "Njet! {{.Edition}}", map[string]any{"Edition": editionName(editionOf(v))})
	},
	host:        hostNjet,
	fairStep:    fairStep.String,
	fairVerdict: njetVerdict,
}

// editionOf is the edition of a variant's ID.
func editionOf(variant string) engine.Edition {
	if variant == engine.Modern.String() {
		return engine.Modern
	}
	return engine.Classic
}

// startNjet begins a new local game of Njet!, replacing any saved one, and
// shows its table over the home screen.
func startNjet(a *App, cfg seat.LocalConfig) error {
	l, err := seat.NewLocal(cfg)
	if err != nil {
		return err
	}
	a.startLocal(njetID, l, func() { a.playLocal(l, TableOptions{}) })
	return nil
}

// playAgain starts a new local game like cfg (edition, seats, names,
// bots, length) with a fresh deal.
func (a *App) playAgain(cfg seat.LocalConfig) error {
	seed, err := freshSeed()
	if err != nil {
		return err
	}
	cfg.Seed = seed
	return startNjet(a, cfg)
}

// playLocal shows the table of l over a fresh home screen. Unless opt asks
// for its own hooks, the game is saved after every choice; Home on the
// table saves it and goes home, where Continue offers it again; its save
// is removed once the game is over, and Done on the game-over view goes
// home.
func (a *App) playLocal(l *seat.Local, opt TableOptions) {
	opt.Names = namesOf(l.Config())
	opt.Hints = true
	if opt.OnAgain == nil {
		opt.OnAgain = func() {
			if err := a.playAgain(l.Config()); err != nil {
				a.ShowError(err)
			}
		}
	}
	if opt.OnChoice == nil {
		opt.OnChoice = func() { a.SaveLocal(njetID, l) }
	}
	if opt.OnGameOver == nil {
		opt.OnGameOver = func() {
			a.ClearLocal(njetID)
			a.Reset(NewHome(a))
		}
	}
	if opt.OnHome == nil {
		opt.OnHome = func() {
			a.SaveLocal(njetID, l)
			a.Reset(NewHome(a))
		}
	}
	a.sitDown(njetID, l, NewTableScreen(a, a.clearedAtEnd(l), opt))
}

// clearedAtEnd is l as the table reads it: once it tells GameOver the save
// is removed, so a finished game is no longer offered even when the app
// closes on the game-over view.
func (a *App) clearedAtEnd(l *seat.Local) seat.Seat {
	return &overWatch{Seat: l, over: func() {
		if a.env.Finished != nil {
			if data, err := l.Save(); err == nil {
				a.env.Finished(data)
			} else {
				a.do(func() { a.ShowError(err) })
			}
		}
		a.do(func() { a.ClearLocal(njetID) })
	}}
}

// overWatch is a seat that calls over once when it tells GameOver.
type overWatch struct {
	seat.Seat
	over func()
	told bool
}

// Next passes the seat's events on and notes GameOver.
func (w *overWatch) Next(ctx context.Context) (seat.Event, error) {
	ev, err := w.Seat.Next(ctx)
	if _, ok := ev.(seat.GameOver); ok && !w.told {
		w.told = true
		w.over()
	}
	return ev, err
}
