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

	"github.com/njetlan/njet/internal/cli"
	"github.com/njetlan/njet/lanapp"
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
func runApp(c cli.Env, o cli.AppOptions) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(appGCPercent)
	}
	a := app.NewWithID(appID)
	if o.Blank > 0 {
		return blankWindow(a, o)
	}
	lanDev := &lanapp.LAN{Dir: filepath.Join(a.Storage().RootURI().Path(), "lan"), Lock: multicastLock}
	defer lanDev.Close() // the app has closed: nowhere left to tell
	env := ui.Env{Now: c.Now}
	if !o.FirstFrame && (o.Probe == "" || o.LANLog != "") {
		env.LAN = lanDev // the first-frame runs and local probe runs stay off the network
	}
	if o.Probe != "" {
		w, closeProbe, err := probeWriter(c, o.Probe)
		if err != nil {
			fmt.Fprintf(c.Stderr, "njet: --probe: %v\n", err)
			return cli.ExitFail
		}
		defer closeProbe()
		env.Probe = w
		env.Pace = smokePace
		if o.Pace > 0 {
			env.Pace = o.Pace
		}
		if o.ProbeSave != "" {
			env.Finished = func(save []byte) {
				if err := os.WriteFile(o.ProbeSave, save, 0o600); err != nil {
					fmt.Fprintf(c.Stderr, "njet: --probe-save: %v\n", err)
				}
			}
		}
	}
	var u *ui.App
	if o.FirstFrame {
		env.FirstFrame = func() {
			now := time.Now()
			fmt.Fprintf(c.Stdout, "first frame %.1f ms after start (unix ns %d)\n",
				float64(now.Sub(processStart).Microseconds())/1000, now.UnixNano())
			u.Quit()
		}
	}
	if o.SmokeTheGame {
		env.LAN = nil // the smoke game stays off the network
		env.Pace = smokePace
		if o.Pace > 0 {
			env.Pace = o.Pace
		}
	}
	code := cli.ExitOK
	if o.LANLog != "" {
		env.Trace = func(what string, at time.Time) { fmt.Fprintf(c.Stdout, "trace %s %d\n", what, at.UnixNano()) }
		code = cli.ExitFail // until a LAN game is over
		env.LANOver = func(t ui.LANTable, err error) {
			code = lanOver(c, o, t, err)
			// The last screen stays a moment, for whoever looks at it.
			time.AfterFunc(lanOverLinger, func() { fyne.Do(u.Quit) })
		}
	}
	u = ui.New(a, env)
	if o.Width > 0 {
		u.Window().Resize(fyne.NewSize(o.Width, o.Height))
	}
	if o.Player != "" {
		if err := u.Prefs().SetName(o.Player); err != nil {
			fmt.Fprintf(c.Stderr, "njet: --player: %v\n", err)
			return cli.ExitUsage
		}
	}
	if g := o.TheGame; o.SmokeTheGame {
		code = cli.ExitFail // until the game ends
		cfg := seat.TheGameLocalConfig{Players: g.Players, Extreme: g.Extreme, Bot: g.Bot, Seed: g.Seed}
		err := u.SmokeTheGame(cfg, func(left int, rating thegame.Rating, err error) {
			if err != nil {
				fmt.Fprintf(c.Stderr, "njet: smoke: %v\n", err)
			} else {
				fmt.Fprintf(c.Stdout, "thegame over: %d cards left, %s\n", left, rating.Words())
				code = cli.ExitOK
			}
			u.Quit()
		})
		if err != nil {
			fmt.Fprintf(c.Stderr, "njet: smoke: %v\n", err)
			return cli.ExitFail
		}
	}
	u.Run()
	return code
}

// blankWindow shows a window holding one label for o.Blank, the same
// fyne with nothing of the app: what any window of this build costs.
func blankWindow(a fyne.App, o cli.AppOptions) int {
	w := a.NewWindow(ui.AppName)
	w.SetContent(widget.NewLabel(ui.AppName))
	w.Resize(fyne.NewSize(1024, 720))
	if o.Width > 0 {
		w.Resize(fyne.NewSize(o.Width, o.Height))
	}
	time.AfterFunc(o.Blank, func() { fyne.Do(a.Quit) })
	w.ShowAndRun()
	return cli.ExitOK
}

// probeWriter opens the probe's file, or stdout for "-".
func probeWriter(c cli.Env, name string) (io.Writer, func(), error) {
	if name == "-" {
		return c.Stdout, func() {}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil // the app has closed: nowhere left to tell
}

// lanOverLinger is how long the app in its probe mode shows its last
// screen once a LAN table's play ended, before it quits.
const lanOverLinger = 2 * time.Second

// lanOver writes the LAN table's log and says how its play ended.
func lanOver(c cli.Env, o cli.AppOptions, t ui.LANTable, err error) int {
	if err != nil {
		fmt.Fprintf(c.Stderr, "njet: the LAN table: %v\n", err)
		return cli.ExitFail
	}
	f, err := os.Create(o.LANLog)
	if err == nil {
		err = errors.Join(t.ExportLog(f), f.Close())
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "njet: the LAN table's log: %v\n", err)
		return cli.ExitFail
	}
	fmt.Fprintf(c.Stdout, "lan over %s\n", t.ID())
	return cli.ExitOK
}
