package ui

import (
	"context"
	"sync"
	"time"

	"github.com/njetlan/njet/words"
)

// tableFrame is what every game's table screen has: the app (nil in tests
// that build a screen alone), the bots' pace, the way to the UI goroutine,
// and the one reader of the game, started with the screen and ended with
// it. The game's screen holds the rest: its widgets and what it reads.
type tableFrame struct {
	app  *App
	pace time.Duration
	do   func(func()) // runs a function on the UI goroutine: App.do

	mu      sync.Mutex
	cancel  context.CancelFunc
	started bool
}

// appPace is the bot pace from the settings of the app a, or 0 without
// an app (a screen built alone in a test).
func appPace(a *App) time.Duration {
	if a == nil {
		return 0
	}
	return a.Pace()
}

// run starts the screen's reader once, read in a goroutine of its own
// with a context that ends with ctx or Stop; then runs after it, under
// the frame's lock, with that context.
func (f *tableFrame) run(ctx context.Context, read, then func(ctx context.Context)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started {
		return
	}
	f.started = true
	ctx, f.cancel = context.WithCancel(ctx)
	go read(ctx)
	then(ctx)
}

// Stop ends the reading; the game is left as it is (a local game is
// saved by the app and can be resumed, a LAN seat stays in the store).
func (f *tableFrame) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel != nil {
		f.cancel()
	}
}

// seatName is how a table calls seat s: its name at the table, else "You"
// for the person's seat you, else own (the name the game gives it), else
// "Bot N".
func seatName(names []string, s, you int, own string) string {
	switch {
	case s >= 0 && s < len(names) && names[s] != "":
		return names[s]
	case s == you:
		return say(words.You())
	case own != "":
		return own
	}
	return say(words.Bot(s))
}
