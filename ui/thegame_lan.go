package ui

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
)

// TheGameWaiter is what a LAN source of The Game tells beside
// TheGameSource: the seat the table waits for, false when none.
type TheGameWaiter interface {
	Waiting() (int, bool)
}

// TheGameVoter is what a LAN source of The Game offers for a silent seat:
// the table's vote on it, and the person's vote for a bot there.
type TheGameVoter interface {
	Wait() seat.Wait
	VoteVoid() error
}

// TheGameHoster is what a LAN source of The Game tells of the seats'
// devices: the seat whose device plays seat now (the host of the bot the
// table seated there, or the seat itself).
type TheGameHoster interface {
	Host(seat int) int
}

// waitQuiet is how long a LAN table may wait for a device before the
// banner says so: a move comes within moments, and whose it is the table
// shows.
const waitQuiet = 5 * time.Second

// LANTheGame is a LAN table of The Game: The Game's table screen fed by
// the person's seat, under a banner that says whom the table waits for
// and when the game is over while the other devices catch up.
type LANTheGame struct {
	lanFrame
	names []string

	view   fyne.CanvasObject
	body   *fyne.Container
	banner *widget.Label
	// Vote votes for a bot in the silent seat the table waits for, once
	// its device has been away for longer than the patience; it stands
	// under the banner, in voteRow.
	Vote    *widget.Button
	voteRow *fyne.Container
	bar     *fyne.Container // the banner and voteRow
	voter   TheGameVoter
	// Screen is the table screen once the table plays, for tests.
	Screen *TheGameScreen

	waitSeat  int
	waitSince time.Time
	done      bool // the play returned

	// hosts are the seats' hosts as last seen; away tells, while a bot
	// plays the person's seat, whose device hosts it; told is the news
	// the banner tells for a while.
	hosts seat.Hosts
	away  string
	told  news
	clock clockWatch
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
	g.Vote = widget.NewButtonWithIcon(tgw("thegame.lan.vote"), theme.AccountIcon(), g.vote)
	g.Vote.Importance = widget.HighImportance
	g.voteRow = container.NewHBox(layout.NewSpacer(), g.Vote)
	g.voteRow.Hide()
	g.bar = container.NewVBox(g.banner, g.voteRow)
	g.body = container.NewStack(container.NewBorder(g.bar, nil, nil, nil, nil))
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
	s := &tgLANSource{TheGameSource: src, over: over, rewound: func() {
		g.app.do(func() { g.tell(tgw("thegame.lan.back")) })
	}}
	g.app.do(func() {
		g.banner.Hide()
		g.Screen = newTheGameScreenBanner(g.app, s, g.names, g.app.Pace(), g.app.do, g.bar)
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

// look says in the banner what the person should know of the table now:
// that a bot plays their seat while their device was away, news of a seat
// that changed hands, or whom the table waits for, once it lasts.
func (g *LANTheGame) look(src TheGameSource) {
	w, ok := src.(TheGameWaiter)
	if !ok || g.done {
		return
	}
	you := src.You()
	if h, ok := src.(TheGameHoster); ok {
		g.lookHosts(h, you)
	}
	text := g.waitText(w, you)
	g.voter, _ = src.(TheGameVoter)
	var wait seat.Wait
	if g.voter != nil {
		wait = g.voter.Wait()
	}
	clock, told := g.clock.banner(g.app, wait.ClockOuts, wait.Until), g.told.now(g.app)
	voting := false
	switch {
	case g.away != "":
		text = g.away
	case !wait.CutOff.IsZero():
		// This device hears none of the others: it is most likely the one
		// cut off, and a vote would reach nobody.
		text = cutOffText(g.app, wait.CutOff)
	case text != "" && wait.Voidable && wait.Seat == g.waitSeat:
		// The help says how long the device has been away: the wait's own
		// line would only make the banner taller.
		voting = true
		text = tgw("thegame.lan.vote-help", "Name", g.seatName(wait.Seat), "Patience", int(wait.Patience/time.Second),
			"Votes", wait.Votes, "Needed", wait.Needed)
		if wait.Voted {
			g.Vote.Disable()
		} else {
			g.Vote.Enable()
		}
	case told != "" || clock != "":
		// News of the table, and the table's clock on the person's move
		// (or that their bot just made one for them).
		text = joinSays(told, clock)
	}
	if voting != g.voteRow.Visible() {
		if voting {
			g.voteRow.Show()
		} else {
			g.voteRow.Hide()
		}
	}
	if text == "" {
		g.banner.Hide()
	} else {
		g.banner.SetText(text)
		g.banner.Show()
	}
	g.relayout()
}

// waitText is whom the table waits for, once it lasts, or "".
func (g *LANTheGame) waitText(w TheGameWaiter, you int) string {
	seat, waiting := w.Waiting()
	switch {
	case !waiting || seat == you:
		g.waitSeat = -1
	case seat != g.waitSeat:
		g.waitSeat, g.waitSince = seat, g.app.Now()
	case g.app.Now().Sub(g.waitSince) >= waitQuiet:
		return tgw("thegame.lan.waiting", "Seat", g.seatName(seat), "S", int(g.app.Now().Sub(g.waitSince)/time.Second))
	}
	return ""
}

// lookHosts tells the seats that changed hands since the last look: the
// person's own, taken over while their device was away and given back,
// and another seat whose device left, now played by a bot.
func (g *LANTheGame) lookHosts(h TheGameHoster, you int) {
	n := len(g.names)
	if g.Screen != nil {
		n = max(n, len(g.Screen.view.HandSizes))
	}
	if you < 0 || you >= n {
		return
	}
	now := make([]int, n)
	for s := range now {
		now[s] = h.Host(s)
	}
	news, changed := g.hosts.News(you, now)
	if g.Screen != nil && changed {
		// The seats changed hands: the table screen shows whether the
		// person may play, and the hand dealt again.
		g.Screen.refresh()
	}
	for _, c := range news {
		switch {
		case c.Seat == you && c.Host != you:
			g.away = tgw("thegame.lan.away", "Host", g.seatName(c.Host))
		case c.Seat == you:
			g.away = ""
			g.tell(tgw("thegame.lan.yours"))
		case c.Host == you:
			g.tell(tgw("thegame.lan.gone.you", "Name", g.seatName(c.Seat)))
		default:
			g.tell(tgw("thegame.lan.gone", "Name", g.seatName(c.Seat), "Host", g.seatName(c.Host)))
		}
	}
}

// vote votes for a bot in the silent seat.
func (g *LANTheGame) vote() {
	if g.voter != nil {
		castVote(g.app, g.voter, g.Vote)
	}
}

// tell shows news in the banner for a while.
func (g *LANTheGame) tell(text string) {
	g.told.tell(g.app, text)
	if !g.done && g.away == "" {
		g.banner.SetText(text)
		g.banner.Show()
		g.relayout()
	}
}

// seatName names a seat as the table screen does.
func (g *LANTheGame) seatName(seat int) string {
	if g.Screen != nil {
		return g.Screen.name(seat)
	}
	return seatName(g.names, seat, -1, "")
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

// tgLANSource is the seat's source, telling when it has told the end,
// and when the table's log left moves it told (rewound).
type tgLANSource struct {
	TheGameSource
	over    chan struct{}
	once    sync.Once
	rewound func()
}

func (s *tgLANSource) Next(ctx context.Context) (thegame.Action, error) {
	a, err := s.TheGameSource.Next(ctx)
	var rw *seat.Rewound
	switch {
	case errors.Is(err, io.EOF):
		s.once.Do(func() { close(s.over) })
	case errors.As(err, &rw) && s.rewound != nil:
		s.rewound()
	}
	return a, err
}

// Wait is what the table waits for, when the source knows;
// else no vote is open.
func (s *tgLANSource) Wait() seat.Wait {
	if v, ok := s.TheGameSource.(TheGameVoter); ok {
		return v.Wait()
	}
	return seat.Wait{Seat: -1}
}

// VoteVoid votes for a bot in the silent seat, where the source can.
func (s *tgLANSource) VoteVoid() error {
	if v, ok := s.TheGameSource.(TheGameVoter); ok {
		return v.VoteVoid()
	}
	return seat.ErrCannotVote
}

// Host tells who plays a seat, when the source knows; else the seat
// itself.
func (s *tgLANSource) Host(seat int) int {
	if h, ok := s.TheGameSource.(TheGameHoster); ok {
		return h.Host(seat)
	}
	return seat
}

// Waiting tells whom the table waits for, when the source knows.
func (s *tgLANSource) Waiting() (int, bool) {
	if w, ok := s.TheGameSource.(TheGameWaiter); ok {
		return w.Waiting()
	}
	return 0, false
}
