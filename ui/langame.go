package ui

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/words"
)

// LANGame is a LAN table: the table screen fed by the person's seat, with
// a banner above it for what a local game never has: whom the table waits
// for and since when, the vote to void a silent seat's round, shuffling,
// catching up and reconnecting, a cheat that halted the round, and after
// each audited round the way to the fair-play panel.
type LANGame struct {
	lanFrame

	view   *fyne.Container
	body   *fyne.Container
	banner *widget.Label
	table  *TableScreen
	st     *tapSeat

	// Vote, Fair and Leave are the banner's buttons, for tests.
	Vote, Fair, Leave *widget.Button

	you     int
	seats   []seat.SeatInfo
	turn    *seat.Turn
	halt    string
	note    string // shuffling, catching up, reconnecting
	watch   string // while a bot plays the person's seat: so it stays said
	told    news   // a seat taken over, a round dealt again
	clock   clockWatch
	audited int // the last audited round

	fin     chan error // the person's part ends: nil at the end, seat.ErrLeft on leaving
	playing bool       // the play runs
	stopped bool       // the play returned early with an error; the app's return plays on

	began bool // the play began (traced once, Env.Trace)
	round int  // the last round dealt
}

// NewLANGame makes the screen of the LAN table t; Start plays it.
func NewLANGame(a *App, t LANTable) *LANGame {
	g := &LANGame{lanFrame: lanFrame{app: a, lan: t}, you: -1, fin: make(chan error, 1)}
	g.banner = widget.NewLabel(tr("lan.game.connecting", "Connecting to the table…"))
	g.banner.Wrapping = fyne.TextWrapWord
	g.Vote = widget.NewButtonWithIcon(tr("lan.game.vote", "Vote for a bot"), theme.AccountIcon(), g.vote)
	g.Vote.Hide()
	g.Fair = widget.NewButtonWithIcon("", theme.ConfirmIcon(), g.showFairPlay)
	g.Fair.Hide()
	g.Leave = widget.NewButtonWithIcon(tr("lan.lobby.leave", "Leave"), theme.LogoutIcon(), g.leave)
	bar := container.New(&bannerLayout{}, g.banner, g.Vote, g.Fair, g.Leave)
	g.body = container.NewStack()
	g.view = container.NewBorder(bar, nil, nil, nil, g.body)
	return g
}

// View is the screen.
func (g *LANGame) View() fyne.CanvasObject { return g.view }

// Banner is the banner's text, for tests.
func (g *LANGame) Banner() string { return g.banner.Text }

// Start plays the table until the game is over, the person leaves or the
// screen stops.
func (g *LANGame) Start(ctx context.Context) {
	g.start(ctx, g)
	g.play()
	go g.every(g.ctx, func() {
		if g.turn != nil || g.clock.out.text != "" || g.told.text != "" {
			g.show() // the waiting time, the clock, the news until it is old
		}
	})
}

// play runs the table's play (again after it stopped early: the device
// goes on from its store and catches up).
func (g *LANGame) play() {
	g.playing, g.stopped = true, false
	g.goPlay(func(ctx context.Context) error {
		t, ok := g.lan.(NjetLANTable)
		if !ok {
			return errWrongTable
		}
		return t.PlayNjet(ctx, g.person, func(n GameNews) { g.app.do(func() { g.news(n) }) })
	}, func(err error) {
		switch {
		case err != nil:
			g.note = tr("lan.game.stopped", "The table stopped: {{.Err}}", map[string]any{"Err": err.Error()})
		default:
			g.note = tr("lan.game.over", "The game is over and every device holds the whole log.")
		}
		g.show()
		// The flags change last: whoever sees them sees the banner
		// written (Fyne's test driver runs this on the play's goroutine).
		g.playing, g.stopped = false, err != nil
	})
}

// reconnect is the app's return from the background: the table's devices
// are dialled at once, and a play that stopped meanwhile starts again
// from the store.
func (g *LANGame) reconnect() {
	if !g.live() {
		return
	}
	g.note = reconnectingText()
	g.show()
	if g.stopped && !g.playing {
		g.play()
	}
	g.redial(func(err error) {
		if err != nil {
			g.note = reconnectFailed(err)
		} else if g.note == reconnectingText() {
			g.note = tr("lan.game.reconnected", "Back at the table: catching up with the others…")
		}
		g.show()
	})
}

// Stop ends the play; a LAN table stays in the device's store.
func (g *LANGame) Stop() {
	g.stop(g)
	if g.table != nil {
		g.table.Stop()
	}
	_ = g.lan.Close() // the lobby of a hosted table; nothing left to tell
}

// person plays the person's seat in the table screen.
func (g *LANGame) person(ctx context.Context, s seat.Seat) error {
	st := &tapSeat{Seat: s, tell: func(ev seat.Event) { g.app.do(func() { g.event(ev) }) }}
	g.app.do(func() {
		g.st = st
		if g.table != nil {
			g.table.Stop() // the table of a play that stopped early
		}
		opt := TableOptions{Names: g.lan.Names(), Hints: g.hints(), OnAgain: g.again(func() { g.finish(nil) }), OnGameOver: func() {
			g.finish(nil)
			g.app.Back()
		}}
		g.table = NewTableScreen(g.app, st, opt)
		g.body.Objects = []fyne.CanvasObject{g.table.View()}
		g.body.Refresh()
		g.table.Start(ctx)
	})
	select {
	case err := <-g.fin:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// finish ends the person's part once.
func (g *LANGame) finish(err error) {
	select {
	case g.fin <- err:
	default:
	}
}

// leave leaves the table; the device's store keeps the seat.
func (g *LANGame) leave() {
	if g.st != nil {
		_ = g.st.Leave() // the seat is left either way
	}
	g.finish(fmt.Errorf("ui: %w", seat.ErrLeft))
	g.app.Back()
}

// vote votes to void the silent seat's round.
func (g *LANGame) vote() {
	if g.st != nil {
		castVote(g.app, g.st, g.Vote)
	}
}

// castVote casts the person's vote for a bot in the silent seat through
// voter (a LAN table of any game) and disables button once it is cast; a
// refusal is shown.
func castVote(a *App, voter interface{ VoteVoid() error }, button *widget.Button) {
	if err := voter.VoteVoid(); err != nil {
		a.ShowError(err)
		return
	}
	button.Disable()
}

// news takes Play's news.
func (g *LANGame) news(n GameNews) {
	switch n.Kind {
	case NewsShuffling:
		g.note = tr("lan.game.shuffling", "Shuffling and dealing: every device adds its own shuffle…")
	case NewsCatchingUp:
		g.note = tr("lan.game.catching-up", "Catching up: waiting until every device holds the whole log…")
	case NewsViolation:
		if g.halt == "" {
			g.halt = tr("lan.game.violation", "The round stopped: {{.Err}}", map[string]any{"Err": errText(n.Err)})
		}
	case NewsPlaying:
		g.note = ""
		if !g.began {
			g.began = true
			g.app.trace(fmt.Sprintf("round-start %d", g.round+1), g.app.Now())
		}
	}
	g.show()
}

// event takes one event of the seat, as the table screen reads it.
func (g *LANGame) event(ev seat.Event) {
	g.note = ""
	switch ev := ev.(type) {
	case seat.Sync:
		g.you, g.seats, g.turn = ev.State.You, ev.State.Seats, ev.State.Turn
		if ev.State.Halt != nil {
			g.halt = g.cheat(ev.State.Halt)
		}
		g.watch = ""
		if ev.State.Watching {
			g.watch = watchingText(ev.State.Back)
		}
		// A device that catches up (or follows the table's branch after
		// a partition) hears of the rounds audited meanwhile here alone.
		if n := len(ev.State.Results); ev.State.Audited && n > 0 {
			g.audit(ev.State.Results[n-1].Round)
		}
	case seat.Turn:
		t := ev
		g.turn = &t
		if t.Kind == 0 {
			g.note = tr("lan.game.shuffling", "Shuffling and dealing: every device adds its own shuffle…")
		}
	case seat.Dealt:
		g.turn = nil
		g.round = ev.Round
		g.app.trace(fmt.Sprintf("cards %d", ev.Round), g.app.Now())
	case seat.RoundOver:
		// The round's audit is over: the next deal's shuffle begins.
		g.app.trace(fmt.Sprintf("round-start %d", ev.Result.Round+1), g.app.Now())
	case seat.YourTurn:
		// The table waits for the person now: a wait for another seat is
		// over, and their own Turn (told first) holds the clock.
		if g.turn != nil && g.turn.Seat != g.you {
			g.turn = nil
		}
	case seat.Moved:
		g.turn = nil
	case seat.Halted:
		g.halt = g.cheat(ev.Cheat)
	case seat.RoundVoided:
		g.halt = ""
		g.told.tell(g.app, g.voided(ev))
	case seat.RoundKept:
		name := words.Plain(g.playerName(ev.Seat))
		if ev.Seat == g.you {
			name = words.Msg{}
		}
		g.told.tell(g.app, say(words.Gone(name, words.Plain(g.playerName(ev.Host)), true, ev.Host == g.you)))
	case seat.Watching:
		g.watch = watchingText(ev.Back)
	case seat.Returned:
		g.watch = ""
		g.told.tell(g.app, tr("lan.game.yours", "Your seat is yours again: play on."))
	case seat.Audited:
		g.audit(ev.Round)
	case seat.GameOver:
		g.turn = nil
	}
	g.show()
}

// watchingText says that a bot plays the person's seat, and whether their
// device asks for it back (back).
func watchingText(back bool) string {
	if back {
		return tr("lan.game.watching-back", "Your device was away too long: a bot plays your seat now. Your device asks for it back at the next deal.")
	}
	return tr("lan.game.watching", "A bot plays your seat now; you watch the table.")
}

// show writes the banner.
func (g *LANGame) show() {
	text, danger := g.note, false
	if text == "" {
		text = g.watch
	}
	g.Vote.Hide()
	var until time.Time
	outs := g.clock.outs
	if g.turn != nil {
		outs = g.turn.ClockOuts
		if g.turn.Seat == g.you {
			until = g.turn.Until
		}
	}
	clock, news := g.clock.banner(g.app, outs, until), g.told.now(g.app)
	switch {
	case g.halt != "":
		text, danger = g.halt, true
	case g.turn != nil && !g.turn.CutOff.IsZero():
		// This device hears none of the others: it is most likely the one
		// cut off, and a vote on another seat would reach nobody.
		text = cutOffText(g.app, g.turn.CutOff)
	case g.turn != nil && g.turn.Kind != 0 && g.turn.Seat != g.you && g.turn.Voidable:
		// The vote's words say how long the device has been away: the
		// wait's own line would only make the banner taller.
		g.Vote.Show()
		text = g.voteHelp(*g.turn)
	case news != "" || clock != "":
		// News of the table, and the table's clock on the person's move
		// (or that their bot just made one for them).
		text = joinSays(news, clock)
	case g.turn != nil && g.turn.Kind != 0 && g.turn.Seat != g.you && g.waited(*g.turn) >= waitQuiet:
		text = g.waiting(*g.turn)
	}
	if text == "" {
		text = tr("lan.game.playing", "Playing on the LAN")
	}
	g.banner.SetText(text)
	if danger {
		g.banner.Importance = widget.DangerImportance
	} else {
		g.banner.Importance = widget.MediumImportance
	}
	g.banner.Refresh()
	g.view.Refresh() // buttons came or went: the bar lays out again
}

// audit offers the fair-play panel up to round, the last audited.
func (g *LANGame) audit(round int) {
	g.audited = round
	g.Fair.SetText(tr("lan.game.fair", "Fair play: round {{.Round}}", map[string]any{"Round": round}))
	g.Fair.Show()
}

// playerName is how the table screen's tiles call seat s (seatName): the
// player's name, else "You" or "Bot N". The banner and the notes speak of
// a seat in those words, so that a person finds it on the table at once.
func (g *LANGame) playerName(s int) string {
	names := make([]string, len(g.seats))
	for i, si := range g.seats {
		names[i] = si.Name
	}
	return seatName(names, s, g.you, "")
}

// clockText counts down the person's move at a table with a clock: the
// whole seconds left until their bot makes it (seat.Wait.Until).
func clockText(a *App, until time.Time) string {
	return say(words.ClockLeft(max(int((until.Sub(a.Now())+time.Second-1)/time.Second), 0)))
}

// newsFor is how long the banner of a LAN table tells news: a seat that
// changed hands, a round dealt again, the person's time run out.
const newsFor = 10 * time.Second

// news is what a LAN table's banner tells for newsFor, at every game: the
// moves that follow come within moments, and would hide it at once.
type news struct {
	text  string
	until time.Time
}

// tell tells text from now on.
func (n *news) tell(a *App, text string) { n.text, n.until = text, a.Now().Add(newsFor) }

// now is the news the banner tells now, or "" once its time is over.
func (n *news) now(a *App) string {
	if n.text != "" && !a.Now().Before(n.until) {
		n.text = ""
	}
	return n.text
}

// clockWatch is what a LAN table's banner says of the table's clock, at
// every game: the seconds left on the person's move, and, for newsFor
// once their bot made a move for them, that their time ran out.
type clockWatch struct {
	outs int // the seat's ClockOuts, last seen
	out  news
}

// banner takes the seat's ClockOuts and the end of the person's time on
// the move asked now (zero if none) and returns what the banner says of
// the clock, or "".
func (c *clockWatch) banner(a *App, outs int, until time.Time) string {
	if outs > c.outs {
		c.out.tell(a, say(words.ClockOut()))
	}
	c.outs = outs
	left := ""
	if !until.IsZero() {
		left = clockText(a, until)
	}
	return joinSays(c.out.now(a), left)
}

// joinSays joins what a banner says, the empty parts left out.
func joinSays(says ...string) string {
	return strings.Join(slices.DeleteFunc(says, func(s string) bool { return s == "" }), " ")
}

// cutOffText tells the person that their device has heard none of the
// others since since (seat.Wait.CutOff).
func cutOffText(a *App, since time.Time) string {
	return say(words.CutOff(int(max(a.Now().Sub(since), 0) / time.Second)))
}

// waited is how long the table has waited for t.
func (g *LANGame) waited(t seat.Turn) time.Duration {
	if t.Since.IsZero() {
		return 0
	}
	return max(g.app.Now().Sub(t.Since), 0)
}

// waiting says whom the table waits for and since when.
func (g *LANGame) waiting(t seat.Turn) string {
	return tr("lan.game.waiting", "Waiting for {{.Name}} for {{.Secs}} s",
		map[string]any{"Name": g.playerName(t.Seat), "Secs": int(g.waited(t) / time.Second)})
}

// voteHelp explains the vote in plain words.
func (g *LANGame) voteHelp(t seat.Turn) string {
	args := map[string]any{"Name": g.playerName(t.Seat), "Votes": t.Votes, "Needed": t.Needed,
		"Patience": int(t.Patience / time.Second)}
	if len(g.seats) == 2 {
		return tr("lan.game.vote-two", "The device of {{.Name}} has not been heard from for more than {{.Patience}} s. With two players nobody can take over: if you vote, the game ends as abandoned.", args)
	}
	return tr("lan.game.vote-help", "The device of {{.Name}} has not been heard from for more than {{.Patience}} s. When every other player votes ({{.Votes}} of {{.Needed}} so far), the round is dealt again and a bot plays that seat.", args)
}

// cheat says plainly who cheated, at what, and where.
func (g *LANGame) cheat(v *seat.Violation) string {
	if v == nil {
		return tr("lan.game.halted", "The round stopped at a broken rule.")
	}
	if v.Check == table.CheckSoftware {
		return tr("lan.game.software", "The table stopped: the checking software failed, not a player. Update the app on every device, then check the saved game again.")
	}
	return tr("lan.game.cheat", "The round stopped: {{.Name}} cheated. The check that failed: {{.Check}} ({{.Step}}).",
		map[string]any{"Name": g.playerName(v.Seat), "Check": v.Check, "Step": checkStep(v.Check)})
}

// voided tells a voided round.
func (g *LANGame) voided(ev seat.RoundVoided) string {
	who := tr("lan.game.someone", "a seat")
	if ev.Fault != nil {
		who = g.playerName(ev.Fault.Seat)
		// A device that left, or one that stayed and withheld its reveal,
		// is told in a person's words.
		switch {
		case ev.Fault.Seat == g.you && ev.Fault.Check == table.CheckSilent:
			host := tr("lan.game.someone", "a seat")
			if ev.BotHost >= 0 {
				host = g.playerName(ev.BotHost)
			}
			return say(words.YourDeviceLeft(words.Plain(host)))
		case ev.Fault.Check == table.CheckSilent:
			return say(words.DeviceLeft(words.Plain(g.playerName(ev.Fault.Seat)))) + " " + say(words.DealtAgain())
		case ev.Fault.Check == table.CheckWithheld:
			return say(words.RevealWithheld(words.Plain(g.playerName(ev.Fault.Seat))))
		}
	}
	if ev.Fault != nil && ev.Fault.Check == table.CheckSilent && ev.Fault.Seat != g.you {
		// A device gone before its cards could be played on: say so, and
		// that the cards are dealt again at once.
		return say(words.Gone(words.Plain(who), words.Plain(g.playerName(ev.BotHost)), false, false))
	}
	return tr("lan.game.voided", "The round was dealt again without the points so far: {{.Name}} was at fault, and a bot plays that seat now.",
		map[string]any{"Name": who})
}

// checkStep names the step of the game a check belongs to.
func checkStep(check string) string {
	switch check {
	case "round audit", "withheld reveal":
		return tr("fair.step.audit", "the audit at the end of the round")
	case "renege", "follow suit", "card not held", "position", "choice opening":
		return tr("fair.step.plays", "playing a card")
	case "discard":
		return tr("fair.step.commitments", "discarding or passing")
	case "hosted key", "private opening", "false complaint":
		return tr("fair.step.deal", "dealing the cards")
	case "silent":
		return tr("fair.step.silent", "a seat went silent")
	}
	return tr("fair.step.rules", "following the rules")
}

// showFairPlay opens the fair-play panel over the table's log.
func (g *LANGame) showFairPlay() {
	g.app.Push(NewFairPlay(g.app, g.lan, g.audited))
}

// tapSeat is a seat.Seat that tells each event to the banner as the table
// screen reads it.
type tapSeat struct {
	seat.Seat
	tell func(seat.Event)
}

func (t *tapSeat) Next(ctx context.Context) (seat.Event, error) {
	ev, err := t.Seat.Next(ctx)
	if err == nil {
		t.tell(ev)
	}
	return ev, err
}

// bannerLayout sets the banner's words (its first object) beside its
// buttons (the others) where the words keep room for a line of their own,
// else above them: on a phone the buttons would leave the words a column
// a few letters wide. Below the words the buttons wrap into right-aligned
// rows where one row is wider than the screen (the three buttons on a
// phone), so the bar never asks for a wider window.
type bannerLayout struct {
	last float32 // the width of the last layout
}

// bannerWords is the least width the words keep beside the buttons.
const bannerWords = 240

// buttonRows splits the visible buttons into rows no wider than w (a
// button wider than w alone in its row), and returns them with each row's
// width and the height of a row.
func buttonRows(buttons []fyne.CanvasObject, w float32) (rows [][]fyne.CanvasObject, widths []float32, h float32) {
	gap := theme.Padding()
	for _, b := range buttons {
		if !b.Visible() {
			continue
		}
		s := b.MinSize()
		h = max(h, s.Height)
		if n := len(rows); n > 0 && widths[n-1]+gap+s.Width <= w {
			rows[n-1] = append(rows[n-1], b)
			widths[n-1] += gap + s.Width
			continue
		}
		rows = append(rows, []fyne.CanvasObject{b})
		widths = append(widths, s.Width)
	}
	return rows, widths, h
}

// rowsHeight is the height of n rows of buttons h high.
func rowsHeight(n int, h float32) float32 {
	if n == 0 {
		return 0
	}
	return float32(n)*h + float32(n-1)*theme.Padding()
}

// placeRow sets row's buttons side by side, the row ending at right, at
// y and h high.
func placeRow(row []fyne.CanvasObject, right, width, y, h float32) {
	x := right - width
	for _, b := range row {
		bw := b.MinSize().Width
		b.Move(fyne.NewPos(x, y))
		b.Resize(fyne.NewSize(bw, h))
		x += bw + theme.Padding()
	}
}

// oneRow is the width of the visible buttons in one row.
func oneRow(buttons []fyne.CanvasObject) float32 {
	_, widths, _ := buttonRows(buttons, float32(math.Inf(1)))
	if len(widths) == 0 {
		return 0
	}
	return widths[0]
}

func (l *bannerLayout) beside(objs []fyne.CanvasObject, w float32) bool {
	return w <= 0 || oneRow(objs[1:])+bannerWords <= w
}

func (l *bannerLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.last = size.Width
	words, buttons := objs[0], objs[1:]
	if l.beside(objs, size.Width) {
		rows, widths, _ := buttonRows(buttons, float32(math.Inf(1)))
		var bw float32
		if len(rows) > 0 {
			bw = widths[0]
			placeRow(rows[0], size.Width, bw, 0, size.Height)
		}
		words.Move(fyne.NewPos(0, 0))
		words.Resize(fyne.NewSize(size.Width-bw, size.Height))
		return
	}
	rows, widths, h := buttonRows(buttons, size.Width)
	wh := size.Height - rowsHeight(len(rows), h)
	words.Move(fyne.NewPos(0, 0))
	words.Resize(fyne.NewSize(size.Width, wh))
	for i, row := range rows {
		placeRow(row, size.Width, widths[i], wh+float32(i)*(h+theme.Padding()), h)
	}
}

func (l *bannerLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	words, buttons := objs[0].MinSize(), objs[1:]
	if l.beside(objs, l.last) {
		_, _, h := buttonRows(buttons, float32(math.Inf(1)))
		return fyne.NewSize(words.Width+oneRow(buttons), max(words.Height, h))
	}
	rows, _, h := buttonRows(buttons, l.last)
	var widest float32
	for _, b := range buttons {
		if b.Visible() {
			widest = max(widest, b.MinSize().Width)
		}
	}
	return fyne.NewSize(max(words.Width, widest), words.Height+rowsHeight(len(rows), h))
}
