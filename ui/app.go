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
	// Storage is the directory that holds the unfinished local games
	// (saves.go). Empty means the fyne.App's own storage.
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

	lanScreen lanScreen // the LAN table on the stack, told when the app comes back

	saveMu sync.Mutex            // one writer of a save at a time; guards saves too
	saves  map[string]*localSave // each game's save, by the game's ID
	saving sync.WaitGroup        // saves under way
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
	u := &App{fy: a, env: env, prefs: Prefs{p: a.Preferences()}, saves: newSaves()}
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

// storage is the directory of the saved games.
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

// stopper is the Stop of a screen whose work runs under a context of its
// own: leaving the screen cancels that context.
type stopper struct{ cancel context.CancelFunc }

// Stop cancels the work the screen started.
func (s *stopper) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// maxColumn is the widest a form or text column grows on a desktop.
const maxColumn = 560

// columnLayout centres its objects, stacked, in a column at most widest
// wide (maxColumn when 0), with padding either side on a phone.
type columnLayout struct{ widest float32 }

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

func (l columnLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	widest := l.widest
	if widest == 0 {
		widest = maxColumn
	}
	w := min(size.Width-2*theme.Padding(), widest)
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

// formPage is the screen of a form that sets up a game: the page's bar,
// the form scrolling in a column, and its button below it, which stays in
// view and deals: what goes wrong is shown to the person.
func (a *App) formPage(title string, form fyne.CanvasObject, button *widget.Button, deal func() error) fyne.CanvasObject {
	button.OnTapped = func() {
		if err := deal(); err != nil {
			a.ShowError(err)
		}
	}
	bottom := container.New(columnLayout{}, container.NewPadded(button))
	return a.page(title, container.NewBorder(nil, bottom, nil, nil, column(form)))
}

// pageBack is page with a back button that calls back.
func (a *App) pageBack(title string, body fyne.CanvasObject, back func()) fyne.CanvasObject {
	backBtn := widget.NewButtonWithIcon(tr("app.back", "Back"), theme.NavigateBackIcon(), back)
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	// A title longer than a phone's bar (in French or German) goes on to
	// a second line rather than lose its end.
	heading.Wrapping = fyne.TextWrapWord
	bar := container.NewBorder(nil, nil, container.NewCenter(backBtn), nil, heading)
	return container.NewBorder(container.NewVBox(bar, widget.NewSeparator()), nil, nil, nil, body)
}

// trace tells Env.Trace, when set, that what happened at at.
func (a *App) trace(what string, at time.Time) {
	if a.env.Trace != nil {
		a.env.Trace(what, at)
	}
}

// Quit ends the app (from any goroutine).
func (a *App) Quit() {
	a.do(a.fy.Quit)
}
