//go:build !nogui

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui"
)

// This file is the only one that needs cgo and GL: it opens the window.
// Built with the nogui tag, njet leaves it out and keeps every command.

func init() { openWindow = runApp }

// appID names the app to the system (preferences, storage); FyneApp.toml
// says the same.
const appID = "io.github.njetlan.njet"

// smokePace is the bots' pace in the smoke mode: fast, yet every move is
// painted.
const smokePace = 30 * time.Millisecond

// runApp opens the app's window and returns when it closes.
func runApp(c *cli, o appOptions) int {
	a := app.NewWithID(appID)
	lanDev := &lanApp{dir: filepath.Join(a.Storage().RootURI().Path(), "lan")}
	defer lanDev.Close() // the app has closed: nowhere left to tell
	env := ui.Env{Now: c.now}
	if !o.smoke && !o.firstFrame {
		env.LAN = lanDev // the smoke and first-frame runs stay off the network
	}
	var u *ui.App
	if o.firstFrame {
		env.FirstFrame = func() {
			now := time.Now()
			fmt.Fprintf(c.stdout, "first frame %.1f ms after start (unix ns %d)\n",
				float64(now.Sub(processStart).Microseconds())/1000, now.UnixNano())
			if !o.smoke {
				u.Quit()
			}
		}
	}
	lanSmoke := o.lanHost != "" || o.lanJoin != ""
	if o.smokeTG {
		env.LAN = nil // the smoke game stays off the network
	}
	if o.smoke || lanSmoke || o.smokeTG {
		env.Pace = smokePace
		if o.pace > 0 {
			env.Pace = o.pace
		}
	}
	if lanSmoke {
		env.Trace = func(what string, at time.Time) { fmt.Fprintf(c.stdout, "trace %s %d\n", what, at.UnixNano()) }
	}
	u = ui.New(a, env)
	if o.width > 0 {
		u.Window().Resize(fyne.NewSize(o.width, o.height))
	}
	if o.player != "" {
		if err := u.Prefs().SetName(o.player); err != nil {
			fmt.Fprintf(c.stderr, "njet: --player: %v\n", err)
			return exitUsage
		}
	}
	code := exitOK
	if lanSmoke {
		code = exitFail // until the game is over
		done := func(t ui.LANTable, err error) {
			code = lanSmokeDone(c, o, t, err)
			fyne.Do(u.Quit)
		}
		var err error
		if o.lanHost != "" {
			err = u.SmokeLANHost(ui.LANHostConfig{Name: o.lanHost, Edition: o.game.Edition, Players: o.game.Players,
				Short: o.game.Short, Target: o.game.Target}, done)
		} else {
			err = u.SmokeLANJoin(o.lanJoin, done)
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "njet: LAN smoke: %v\n", err)
			return exitFail
		}
	}
	if o.smoke {
		code = exitFail // until the game ends
		err := u.Smoke(o.game, func(shown []int, g *seat.Local) {
			code = smokeDone(c, o, shown, g)
			u.Quit()
		})
		if err != nil {
			fmt.Fprintf(c.stderr, "njet: smoke: %v\n", err)
			return exitFail
		}
	}
	if g := o.theGame; o.smokeTG {
		code = exitFail // until the game ends
		cfg := ui.TheGameConfig{Players: g.players, Extreme: g.extreme, Bot: g.bot, Seed: g.seed}
		err := u.SmokeTheGame(cfg, func(left int, rating thegame.Rating, err error) {
			if err != nil {
				fmt.Fprintf(c.stderr, "njet: smoke: %v\n", err)
			} else {
				fmt.Fprintf(c.stdout, "thegame over: %d cards left, %s\n", left, rating.Words())
				code = exitOK
			}
			u.Quit()
		})
		if err != nil {
			fmt.Fprintf(c.stderr, "njet: smoke: %v\n", err)
			return exitFail
		}
	}
	u.Run()
	return code
}

// lanSmokeDone writes the LAN table's log when asked and says how the
// game ended.
func lanSmokeDone(c *cli, o appOptions, t ui.LANTable, err error) int {
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: LAN smoke: %v\n", err)
		return exitFail
	}
	if o.lanLog != "" {
		f, err := os.Create(o.lanLog)
		if err == nil {
			err = errors.Join(t.ExportLog(f), f.Close())
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "njet: LAN smoke: the log: %v\n", err)
			return exitFail
		}
	}
	fmt.Fprintf(c.stdout, "lan over %s\n", t.ID())
	return exitOK
}

// smokeDone prints the totals the table showed, writes the save when asked
// and returns the exit code.
func smokeDone(c *cli, o appOptions, shown []int, g *seat.Local) int {
	parts := make([]string, len(shown))
	for i, t := range shown {
		parts[i] = fmt.Sprint(t)
	}
	fmt.Fprintf(c.stdout, "totals %s\n", strings.Join(parts, ","))
	if o.smokeSave == "" {
		return exitOK
	}
	data, err := g.Save()
	if err == nil {
		err = os.WriteFile(o.smokeSave, data, 0o600)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: smoke: %v\n", err)
		return exitFail
	}
	return exitOK
}
