//go:build !nogui

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui"
)

// This file is the only one that needs cgo and GL: it opens the window.
// Built with the nogui tag, njet leaves it out and keeps every command.

func init() { openWindow = runApp }

// appID names the app to the system (preferences, storage); FyneApp.toml
// says the same.
const appID = "io.github.njetlan.njet"

// smokePace is the bots' pace in the test modes (the probe, The Game's
// smoke game): fast, yet every move is painted.
const smokePace = 30 * time.Millisecond

// appGCPercent is the garbage collector's target for the app: most of
// the app's live heap is font data that stays for its whole life, and
// Go's default lets the heap grow to twice the live data between
// collections. The app's collections take well under 1% of its processor
// time, so half that headroom costs nothing a person notices and keeps
// about 10 MB less resident (scripts/bench-app.sh). GOGC, when set, wins.
const appGCPercent = 50

// runApp opens the app's window and returns when it closes.
func runApp(c *cli, o appOptions) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(appGCPercent)
	}
	a := app.NewWithID(appID)
	if o.blank > 0 {
		return blankWindow(a, o)
	}
	lanDev := &lanApp{dir: filepath.Join(a.Storage().RootURI().Path(), "lan")}
	defer lanDev.Close() // the app has closed: nowhere left to tell
	env := ui.Env{Now: c.now}
	if !o.firstFrame && (o.probe == "" || o.lanLog != "") {
		env.LAN = lanDev // the first-frame runs and local probe runs stay off the network
	}
	if o.probe != "" {
		w, closeProbe, err := probeWriter(c, o.probe)
		if err != nil {
			fmt.Fprintf(c.stderr, "njet: --probe: %v\n", err)
			return exitFail
		}
		defer closeProbe()
		env.Probe = w
		env.Pace = smokePace
		if o.pace > 0 {
			env.Pace = o.pace
		}
		if o.probeSave != "" {
			env.Finished = func(save []byte) {
				if err := os.WriteFile(o.probeSave, save, 0o600); err != nil {
					fmt.Fprintf(c.stderr, "njet: --probe-save: %v\n", err)
				}
			}
		}
	}
	var u *ui.App
	if o.firstFrame {
		env.FirstFrame = func() {
			now := time.Now()
			fmt.Fprintf(c.stdout, "first frame %.1f ms after start (unix ns %d)\n",
				float64(now.Sub(processStart).Microseconds())/1000, now.UnixNano())
			u.Quit()
		}
	}
	if o.smokeTG {
		env.LAN = nil // the smoke game stays off the network
		env.Pace = smokePace
		if o.pace > 0 {
			env.Pace = o.pace
		}
	}
	code := exitOK
	if o.lanLog != "" {
		env.Trace = func(what string, at time.Time) { fmt.Fprintf(c.stdout, "trace %s %d\n", what, at.UnixNano()) }
		code = exitFail // until a LAN game is over
		env.LANOver = func(t ui.LANTable, err error) {
			code = lanOver(c, o, t, err)
			fyne.Do(u.Quit)
		}
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

// blankWindow shows a window holding one label for o.blank, the same
// fyne with nothing of the app: what any window of this build costs.
func blankWindow(a fyne.App, o appOptions) int {
	w := a.NewWindow(ui.AppName)
	w.SetContent(widget.NewLabel(ui.AppName))
	w.Resize(fyne.NewSize(1024, 720))
	if o.width > 0 {
		w.Resize(fyne.NewSize(o.width, o.height))
	}
	time.AfterFunc(o.blank, func() { fyne.Do(a.Quit) })
	w.ShowAndRun()
	return exitOK
}

// probeWriter opens the probe's file, or stdout for "-".
func probeWriter(c *cli, name string) (io.Writer, func(), error) {
	if name == "-" {
		return c.stdout, func() {}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil // the app has closed: nowhere left to tell
}

// lanOver writes the LAN table's log and says how its play ended.
func lanOver(c *cli, o appOptions, t ui.LANTable, err error) int {
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: the LAN table: %v\n", err)
		return exitFail
	}
	f, err := os.Create(o.lanLog)
	if err == nil {
		err = errors.Join(t.ExportLog(f), f.Close())
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: the LAN table's log: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "lan over %s\n", t.ID())
	return exitOK
}
