package ui

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
)

// TheGameWaiter is what a LAN source of The Game tells beside
// TheGameSource: the seat the table waits for, false when none.
type TheGameWaiter interface {
	Waiting() (int, bool)
}

// tgWaitQuiet is how long the table may wait for a device before the
// banner says so.
const tgWaitQuiet = 5 * time.Second

// LANTheGame is a LAN table of The Game: The Game's table screen fed by
// the person's seat, under a banner that says whom the table waits for
// and when the game is over while the other devices catch up.
type LANTheGame struct {
	lanFrame
	names []string

	view   fyne.CanvasObject
	body   *fyne.Container
	banner *widget.Label
	// Screen is the table screen once the table plays, for tests.
	Screen *TheGameScreen

	waitSeat  int
	waitSince time.Time
	done      bool // the play returned
}

// NewLANTheGame makes the screen of the LAN table t of The Game; Start
// plays it.
func NewLANTheGame(a *App, t LANTable) *LANTheGame {
	g := &LANTheGame{lanFrame: lanFrame{app: a, lan: t}, waitSeat: -1}
	if t != nil {
		g.names = t.Names()
	}
	g.banner = widget.NewLabel(tgw("thegame.lan.starting"))
	g.banner.Wrapping = fyne.TextWrapWord
	g.body = container.NewStack(container.NewBorder(g.banner, nil, nil, nil, nil))
	g.view = g.body
	return g
}

// View is the banner over the table.
func (g *LANTheGame) View() fyne.CanvasObject { return g.view }

// Banner is the banner's text, "" when hidden, for tests.
func (g *LANTheGame) Banner() string {
	if !g.banner.Visible() {
		return ""
	}
	return g.banner.Text
}

// Start plays the table; the table screen shows once the seat is ready.
func (g *LANTheGame) Start(ctx context.Context) {
	g.start(ctx, g)
	if g.lan == nil {
		return
	}
	g.goPlay(func(ctx context.Context) error {
		t, ok := g.lan.(TheGameLANTable)
		if !ok {
			return errWrongTable
		}
		return t.PlayTheGame(ctx, func(pctx context.Context, src TheGameSource) error { return g.person(ctx, pctx, src) },
			func(n GameNews) { g.app.do(func() { g.news(n) }) })
	}, g.finish)
}

// Stop leaves the table: the store keeps the seat.
func (g *LANTheGame) Stop() {
	g.stop(g)
	if g.Screen != nil {
		g.Screen.Stop()
	}
}

// person shows the table screen for src and waits until it has told the
// end of the game (nil), or pctx ends.
func (g *LANTheGame) person(ctx, pctx context.Context, src TheGameSource) error {
	over := make(chan struct{})
	s := &tgLANSource{TheGameSource: src, over: over}
	g.app.do(func() {
		g.banner.Hide()
		g.Screen = newTheGameScreenBanner(g.app, s, g.names, g.app.Pace(), g.app.do, g.banner)
		if g.hints() {
			g.Screen.offerHints()
		}
		g.Screen.onAgain = g.again(func() {})
		g.body.Objects = []fyne.CanvasObject{g.Screen.View()}
		g.body.Refresh()
		g.Screen.Start(ctx)
	})
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-over:
			return nil
		case <-pctx.Done():
			return pctx.Err()
		case <-tick.C:
			g.app.do(func() { g.look(s) })
		}
	}
}

// look says in the banner whom the table waits for, once it lasts.
func (g *LANTheGame) look(src TheGameSource) {
	w, ok := src.(TheGameWaiter)
	if !ok || g.done {
		return
	}
	seat, waiting := w.Waiting()
	you := src.You()
	switch {
	case !waiting || seat == you:
		g.waitSeat = -1
		g.banner.Hide()
	case seat != g.waitSeat:
		g.waitSeat, g.waitSince = seat, g.app.Now()
		g.banner.Hide()
	case g.app.Now().Sub(g.waitSince) >= tgWaitQuiet:
		name := ""
		if g.Screen != nil {
			name = g.Screen.name(seat)
		}
		g.banner.SetText(tgw("thegame.lan.waiting", "Seat", name, "S", int(g.app.Now().Sub(g.waitSince)/time.Second)))
		g.banner.Show()
	}
	g.relayout()
}

// reconnect is the app's return from the background: the table's devices
// are dialled at once, and the banner says so until they answer.
func (g *LANTheGame) reconnect() {
	if !g.live() || g.done {
		return
	}
	g.banner.SetText(reconnectingText())
	g.banner.Importance = widget.MediumImportance
	g.banner.Show()
	g.relayout()
	g.redial(func(err error) {
		if g.banner.Text != reconnectingText() {
			return
		}
		if err != nil {
			g.banner.SetText(reconnectFailed(err))
		} else {
			g.banner.Hide()
		}
		g.relayout()
	})
}

// relayout lays the screen out again after the banner came or went.
func (g *LANTheGame) relayout() {
	g.banner.Refresh()
	if g.Screen != nil {
		g.Screen.bannerChanged()
	}
	g.body.Refresh()
}

// news tells the table's progress in the banner.
func (g *LANTheGame) news(n GameNews) {
	switch n.Kind {
	case NewsViolation:
		g.banner.SetText(tgw("thegame.lan.halted", "Err", errText(n.Err)))
		g.banner.Importance = widget.DangerImportance
		g.banner.Show()
	case NewsCatchingUp:
		g.banner.SetText(tgw("thegame.lan.catching-up"))
		g.banner.Show()
	}
	g.relayout()
}

// finish tells why the play stopped, if it did not end with the game.
func (g *LANTheGame) finish(err error) {
	g.done = true
	if err != nil && !errors.Is(err, context.Canceled) {
		g.banner.SetText(tgw("thegame.lan.halted", "Err", err.Error()))
		g.banner.Importance = widget.DangerImportance
		g.banner.Show()
	} else {
		g.banner.Hide()
	}
	g.relayout()
}

// tgLANSource is the seat's source, telling when it has told the end.
type tgLANSource struct {
	TheGameSource
	over chan struct{}
	once sync.Once
}

func (s *tgLANSource) Next(ctx context.Context) (thegame.Action, error) {
	a, err := s.TheGameSource.Next(ctx)
	if errors.Is(err, io.EOF) {
		s.once.Do(func() { close(s.over) })
	}
	return a, err
}

// Waiting tells whom the table waits for, when the source knows.
func (s *tgLANSource) Waiting() (int, bool) {
	if w, ok := s.TheGameSource.(TheGameWaiter); ok {
		return w.Waiting()
	}
	return 0, false
}
