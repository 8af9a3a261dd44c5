// Package ui is the Njet app: a Fyne window on desktop and phone.
//
// App owns the window, the settings and a stack of screens. A Screen is a
// view with a lifetime: Start gets a context that ends when the screen leaves
// the stack, and Stop cancels what it started. Screens never decide anything
// about the game: legality, scoring and turn order come from the engine
// through package seat; a screen shows what a seat tells it and sends the
// person's choices back. The Game's table (thegame_*.go) reads a
// TheGameSource in the same way: a local game against bots, or later a LAN
// table, with the rules in package thegame.
//
// The package never imports Fyne's app package, so its tests run in software
// with fyne.io/fyne/v2/test and CGO_ENABLED=0; package main creates the
// fyne.App and hands it to New.
package ui

import (
	"context"
	"image"
	"io"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Env is what the app needs from its surroundings, so that tests can
// replace it.
type Env struct {
	// Storage is the directory that holds local.json, the unfinished local
	// game. Empty means the fyne.App's own storage.
	Storage string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Pace, when positive, replaces the settings' bot pace (the test modes
	// play fast).
	Pace time.Duration
	// FirstFrame, when set, is called once from the first painted frame.
	FirstFrame func()
	// LAN is the way to tables on the local network; nil leaves LAN play
	// out of the app.
	LAN LAN
	// Do runs a function on the UI's goroutine, in the order given, without
	// waiting for it; nil means fyne.Do. Every piece of work that runs in
	// a goroutine of its own touches widgets only through it (App.do).
	Do func(func())
	// Trace, when set, hears when things happen on the way to and at a
	// LAN table, for measurements: "listed NAME" (a table first listed),
	// "tap NAME", "lobby-seats" (the lobby shows its seats),
	// "round-start N" (the play began, for the first round; the result of
	// round N-1 was shown, after whose audit the next shuffle begins) and
	// "cards N" (the hand of round N is shown).
	Trace func(what string, at time.Time)
	// Probe, when set, hears what the window shows, as lines of JSON
	// (package reach), each time it changes: the hidden mode in which a
	// driver plays the app with the real pointer.
	Probe io.Writer
	// Finished, when set, gets the save of each local game of Njet! that
	// ends, from the goroutine that reads the game.
	Finished func(save []byte)
	// LANOver, when set, hears how each LAN table's play ended, from the
	// play's goroutine; the table's screen then stays up after the game
	// over, for whoever looks at it.
	LANOver func(t LANTable, err error)
}

// Screen is one page of the app. The router calls Start once when the screen
// comes onto the stack and Stop once when it leaves it (Back or Reset); a
// screen covered by another keeps running. Start must not block: work that
// waits runs in goroutines that end with ctx and touch widgets only through
// App.do.
type Screen interface {
	View() fyne.CanvasObject
	Start(ctx context.Context)
	Stop()
}

// KeyHandler is implemented by screens that take keyboard input (arrows,
// Enter, digits). The app gives every key except Escape and the Android back
// key to the top screen; TypedKey reports whether it used the key.
type KeyHandler interface {
	TypedKey(ev *fyne.KeyEvent) bool
}

// RuneHandler is implemented by screens that take typed characters.
type RuneHandler interface {
	TypedRune(r rune) bool
}

// Saver is a game that can be written down and resumed later;
// *seat.Local is one.
type Saver interface {
	Save() ([]byte, error)
}

// App is the Njet app: one window, a stack of screens, the settings.
type App struct {
	fy    fyne.App
	win   fyne.Window
	env   Env
	prefs Prefs
	theme *appTheme

	body  *fyne.Container // holds the top screen's view
	stack []*entry

	lanGame *LANGame // the LAN table on the stack, told when the app comes back
	// lanTheGame is the LAN table of The Game on the stack, told too.
	lanTheGame *LANTheGame

	saveMu  sync.Mutex     // one writer of local.json at a time; guards live too
	live    Saver          // the local game being played, saved on exit
	saveGen int            // counts ClearLocal calls; a save from before one is dropped
	saving  sync.WaitGroup // saves under way
	tgLive  Saver          // the local game of The Game being played, saved on exit
	tgGen   int            // counts ClearTheGame calls, as saveGen does
	// tgSeed, when set, gives the seeds of new games of The Game in
	// place of fresh random ones (tests replay a game so).
	tgSeed func() uint64

	stopProbe context.CancelFunc // ends the probe, when Env.Probe is set
}

// entry is a screen on the stack with the cancel of its context.
type entry struct {
	screen Screen
	cancel context.CancelFunc
}

// New sets the app up in a: translations, theme, the window titled "Njet"
// with the home screen. Call Run to show it, or use Window in tests.
func New(a fyne.App, env Env) *App {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Do == nil {
		env.Do = fyne.Do
	}
	u := &App{fy: a, env: env, prefs: Prefs{p: a.Preferences()}}
	setupLang(u.prefs.Language())
	u.theme = newAppTheme(u.prefs.Theme())
	a.Settings().SetTheme(u.theme)
	a.SetIcon(Icon())
	u.win = a.NewWindow(appName)
	u.win.SetIcon(Icon())
	u.win.Resize(fyne.NewSize(1024, 720))
	u.body = container.NewStack()
	root := u.body
	if env.FirstFrame != nil {
		root = container.NewStack(firstFrameProbe(env.FirstFrame), u.body)
	}
	u.win.SetContent(root)
	u.win.Canvas().SetOnTypedKey(u.typedKey)
	u.win.Canvas().SetOnTypedRune(u.typedRune)
	lc := a.Lifecycle()
	lc.SetOnExitedForeground(u.saveLive)
	lc.SetOnStopped(u.saveLive)
	lc.SetOnEnteredForeground(u.enteredForeground)
	u.Reset(NewHome(u))
	if env.Probe != nil {
		ctx, cancel := context.WithCancel(context.Background())
		u.stopProbe = cancel
		go u.probe(ctx, env.Probe)
	}
	return u
}

// do runs f on the UI's goroutine (Env.Do) and returns at once.
func (a *App) do(f func()) { a.env.Do(f) }

// AppName is the window title and the app's name.
const AppName = "Njet"

// appName is AppName, for the package's own use.
const appName = AppName

// Window is the app's window.
func (a *App) Window() fyne.Window { return a.win }

// Run shows the window and runs the app until it closes.
func (a *App) Run() {
	a.win.SetMaster()
	a.win.ShowAndRun()
	if a.stopProbe != nil {
		a.stopProbe()
	}
	a.saveLive()
	a.stopAll()
}

// Push puts s on top of the stack and starts it.
func (a *App) Push(s Screen) {
	ctx, cancel := context.WithCancel(context.Background())
	a.stack = append(a.stack, &entry{screen: s, cancel: cancel})
	a.show(s)
	s.Start(ctx)
}

// Back stops the top screen and shows the one below it; on the first screen
// it does nothing.
func (a *App) Back() {
	if len(a.stack) < 2 {
		return
	}
	top := a.stack[len(a.stack)-1]
	a.stack = a.stack[:len(a.stack)-1]
	top.cancel()
	top.screen.Stop()
	a.show(a.stack[len(a.stack)-1].screen)
}

// Reset stops every screen and starts s as the only one.
func (a *App) Reset(s Screen) {
	a.stopAll()
	a.Push(s)
}

// Top is the screen on top of the stack, or nil.
func (a *App) Top() Screen {
	if len(a.stack) == 0 {
		return nil
	}
	return a.stack[len(a.stack)-1].screen
}

// Depth is the number of screens on the stack.
func (a *App) Depth() int { return len(a.stack) }

func (a *App) stopAll() {
	for i := len(a.stack) - 1; i >= 0; i-- {
		a.stack[i].cancel()
		a.stack[i].screen.Stop()
	}
	a.stack = nil
}

func (a *App) show(s Screen) {
	a.body.Objects = []fyne.CanvasObject{s.View()}
	a.body.Refresh()
	a.win.Canvas().Unfocus()
}

// typedKey sends Escape and the Android back key to Back, every other key to
// the top screen.
func (a *App) typedKey(ev *fyne.KeyEvent) {
	if top, ok := a.Top().(KeyHandler); ok && top.TypedKey(ev) {
		return
	}
	switch {
	case ev.Name == keyBack && len(a.stack) < 2:
		// On the first screen the system's back leaves the app, as the
		// driver would have done without our key handler.
		if d, ok := a.fy.Driver().(interface{ GoBack() }); ok {
			d.GoBack()
		}
	case ev.Name == fyne.KeyEscape || ev.Name == keyBack:
		a.Back()
	}
}

// keyBack is the name the mobile driver gives the Android back button.
const keyBack fyne.KeyName = "Back"

func (a *App) typedRune(r rune) {
	if top, ok := a.Top().(RuneHandler); ok {
		top.TypedRune(r)
	}
}

// Prefs are the app's settings.
func (a *App) Prefs() Prefs { return a.prefs }

// Pace is how long the table waits after each bot move, from the settings.
func (a *App) Pace() time.Duration {
	if a.env.Pace > 0 {
		return a.env.Pace
	}
	return a.prefs.Pace()
}

// PlayerName is the person's name from the settings.
func (a *App) PlayerName() string { return a.prefs.Name() }

// Now is the app's clock.
func (a *App) Now() time.Time { return a.env.Now() }

// SaveLocal writes the local game g so that it resumes after the app
// closes; call it after every choice. The writing runs off the UI
// goroutine; g stays the game saved on exit too. A failed save shows an
// error and the game goes on.
func (a *App) SaveLocal(g Saver) {
	a.saveMu.Lock()
	a.live = g
	gen := a.saveGen
	a.saveMu.Unlock()
	a.saving.Add(1)
	go func() {
		defer a.saving.Done()
		a.saveMu.Lock()
		defer a.saveMu.Unlock()
		if gen != a.saveGen {
			return // cleared since: the game is over or replaced
		}
		// g.Save reads the game as it is now, so saves that run late still
		// write the latest state.
		if err := saveGame(a.storage(), g); err != nil {
			a.do(func() { a.ShowError(err) })
		}
	}()
}

// ClearLocal removes the saved local game (at game over, or when the person
// starts another); saves still under way are dropped.
func (a *App) ClearLocal() {
	a.saveMu.Lock()
	a.live = nil
	a.saveGen++
	err := clearGame(a.storage())
	a.saveMu.Unlock()
	if err != nil {
		a.ShowError(err)
	}
}

// HasSavedGame reports whether an unfinished local game is saved, once the
// saves under way are written.
func (a *App) HasSavedGame() bool {
	a.saving.Wait()
	_, err := loadGame(a.storage())
	return err == nil
}

// saveLive writes the game being played at once (on exit or background).
func (a *App) saveLive() {
	a.saving.Wait()
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	if a.live != nil {
		_ = saveGame(a.storage(), a.live) // nowhere left to tell on exit
	}
	if a.tgLive != nil {
		_ = saveFile(a.storage(), theGameFile, a.tgLive)
	}
}

// setLive makes g the game saved on exit, without saving it now.
func (a *App) setLive(g Saver) {
	a.saveMu.Lock()
	a.live = g
	a.saveMu.Unlock()
}

// storage is the directory of local.json.
func (a *App) storage() string {
	if a.env.Storage != "" {
		return a.env.Storage
	}
	return a.fy.Storage().RootURI().Path()
}

// ShowError tells the person what went wrong in a dialog.
func (a *App) ShowError(err error) {
	showError(a.win, err)
}

// firstFrameProbe is an invisible raster whose image is generated while the
// first frame is painted; it calls f once.
func firstFrameProbe(f func()) fyne.CanvasObject {
	done := false
	r := canvas.NewRaster(func(w, h int) image.Image {
		if !done {
			done = true
			f()
		}
		return image.NewNRGBA(image.Rect(0, 0, 1, 1))
	})
	return r
}

// showError shows err in a dialog over w.
func showError(w fyne.Window, err error) {
	dialog.ShowError(err, w)
}

// staticScreen is a Screen with nothing running behind its view.
type staticScreen struct {
	view fyne.CanvasObject
}

func (s *staticScreen) View() fyne.CanvasObject { return s.view }
func (s *staticScreen) Start(context.Context)   {}
func (s *staticScreen) Stop()                   {}

// maxColumn is the widest a form or text column grows on a desktop.
const maxColumn = 560

// columnLayout centres its objects, stacked, in a column at most maxColumn
// wide, with padding either side on a phone.
type columnLayout struct{}

func (columnLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		s = s.Max(o.MinSize())
	}
	return s.Add(fyne.NewSize(2*theme.Padding(), 0))
}

func (columnLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := size.Width - 2*theme.Padding()
	if w > maxColumn {
		w = maxColumn
	}
	x := (size.Width - w) / 2
	for _, o := range objs {
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
	}
}

// column puts content in a centred, scrolling column.
func column(content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVScroll(container.New(columnLayout{}, content))
}

// page is a screen's frame: a bar with a back button and the title above
// the body.
func (a *App) page(title string, body fyne.CanvasObject) fyne.CanvasObject {
	return a.pageBack(title, body, a.Back)
}

// pageBack is page with a back button that calls back.
func (a *App) pageBack(title string, body fyne.CanvasObject, back func()) fyne.CanvasObject {
	backBtn := widget.NewButtonWithIcon(tr("app.back", "Back"), theme.NavigateBackIcon(), back)
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	heading.Truncation = fyne.TextTruncateEllipsis
	bar := container.NewBorder(nil, nil, backBtn, nil, heading)
	return container.NewBorder(container.NewVBox(bar, widget.NewSeparator()), nil, nil, nil, body)
}

// trace tells Env.Trace, when set, that what happened at at.
func (a *App) trace(what string, at time.Time) {
	if a.env.Trace != nil {
		a.env.Trace(what, at)
	}
}

// smokeHold is how long The Game's smoke mode shows the game-over view.
const smokeHold = 1500 * time.Millisecond
