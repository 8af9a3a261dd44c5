package ui

import (
	"context"
	"time"
)

// NewLANTable returns the screen of the LAN table t: its game's screen
// (gameUI.lanTable).
func NewLANTable(a *App, t LANTable) Screen {
	game, _ := t.Game()
	return gameByID(game).lanTable(a, t)
}

// lanScreen is the screen of a LAN table, whatever its game: it hears
// that the app came back to the foreground (reconnect).
type lanScreen interface {
	Screen
	reconnect()
}

// lanFrame is what the LAN screens of every game share: the table, the
// screen's context, its place as the app's LAN screen (the one told when
// the app comes back), the table's play run off the UI goroutine, the
// redial on coming back, and the options the table gives the game's
// table screen (hints, playing again).
type lanFrame struct {
	app *App
	lan LANTable
	ctx context.Context
	// cancel ends ctx: the screen stopped.
	cancel context.CancelFunc
}

// start gives the screen s its context from ctx and makes it the app's
// LAN screen.
func (f *lanFrame) start(ctx context.Context, s lanScreen) {
	f.ctx, f.cancel = context.WithCancel(ctx)
	f.app.lanScreen = s
}

// stop ends the screen's context and its place as the app's LAN screen.
func (f *lanFrame) stop(s lanScreen) {
	if f.app.lanScreen == s {
		f.app.lanScreen = nil
	}
	if f.cancel != nil {
		f.cancel()
	}
}

// live reports whether the screen plays: started and not stopped.
func (f *lanFrame) live() bool { return f.ctx != nil && f.ctx.Err() == nil }

// goPlay runs the table's play off the UI goroutine; once it returns,
// Env.LANOver hears how it ended and done hears it on the UI goroutine,
// unless the screen stopped meanwhile (then nothing is left to show, and
// the app may be loading its words again).
func (f *lanFrame) goPlay(run func(ctx context.Context) error, done func(err error)) {
	ctx := f.ctx
	go func() {
		err := run(ctx)
		if over := f.app.env.LANOver; over != nil {
			over(f.lan, err)
		}
		f.app.do(func() {
			if ctx.Err() == nil {
				done(err)
			}
		})
	}()
}

// redial dials the table's devices at once (the app is back from the
// background) and tells done the outcome on the UI goroutine, unless the
// screen stopped meanwhile.
func (f *lanFrame) redial(done func(err error)) {
	ctx := f.ctx
	go func() {
		err := f.lan.Reconnect(ctx)
		f.app.do(func() {
			if ctx.Err() == nil {
				done(err)
			}
		})
	}()
}

// every runs tick on the UI goroutine once a second until ctx ends.
func (f *lanFrame) every(ctx context.Context, tick func()) {
	tk := time.NewTicker(time.Second)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			f.app.do(tick)
		}
	}
}

// hints reports whether the host of the table allowed hints.
func (f *lanFrame) hints() bool { return hintsAllowed(f.lan) }

// again is what "Play again" on the game-over view does: first, then the
// lobby of the table played again; nil when the table cannot be played
// again.
func (f *lanFrame) again(first func()) func() {
	if !canPlayAgain(f.lan) {
		return nil
	}
	return func() {
		first()
		f.app.Push(NewAgain(f.app, f.lan))
	}
}

// reconnectingText and reconnectFailed are the banner's words while the
// devices are dialled again, and when some cannot be reached.
func reconnectingText() string {
	return tr("lan.game.reconnecting", "Reconnecting and catching up…")
}

func reconnectFailed(err error) string {
	return tr("lan.game.reconnect-failed", "Some devices cannot be reached yet ({{.Err}}); the table keeps calling them.",
		map[string]any{"Err": err.Error()})
}

// enteredForeground tells the LAN table on the stack that the app is
// back: the device redials its members at once and catches up (a play
// that stopped starts again from the store); the banner says so until
// the table moves.
func (a *App) enteredForeground() {
	if s := a.lanScreen; s != nil {
		s.reconnect()
	}
}
