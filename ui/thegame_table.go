package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// TheGameScreen is the table of The Game: the four piles, the person's
// hand, whose turn it is, the commands in force and the signals, then the
// game-over view with a replay. It is fed by a TheGameSource, so a local
// game and a LAN table can use the same screen; every rule comes from the
// engine through the source and the view.
type TheGameScreen struct {
	tableFrame
	src   TheGameSource
	names []string // by seat; empty names become "You" and "Bot N"

	view      thegame.View
	picked    thegame.Card // the card chosen to lay, 0 for none
	status    string       // why the last tap did nothing, or a hint
	bad       bool         // status tells of a refusal
	told      []tgTurnLog  // the last turns in words, newest last
	plays     []thegame.Action
	last      int // the pile the last card went on, -1 before the first
	slotsTurn int // the turn (View.Turns) the hand's places are of
	over      bool

	root     *fyne.Container
	table    fyne.CanvasObject
	scroll   *container.Scroll // the table but its buttons
	lay      *tgLayout
	turn     *tgText
	seats    *tgText
	force    *fyne.Container
	log      *tgText
	note     *tgText
	piles    [thegame.NumPiles]*tgPileView
	hand     *fyne.Container
	grid     *tgGrid
	pgrid    *tgGrid
	cards    []*tgCardView // the hand's cards as shown
	pool     []*tgCardView
	slots    []thegame.Card      // the hand's places in this turn, 0 where a card was laid
	gaps     []*canvas.Rectangle // what stands in the places left empty
	End      *widget.Button      // ends the turn once the minimum is down
	Signal   *widget.Button      // puts a signal on a pile
	Rules    *widget.Button
	Hint     *widget.Button  // shows the strong bot's move; nil without hints
	hinted   *thegame.Action // the hint shown, while its card stays picked
	gameOver *tgOver

	warning   *tgAsk          // the open warning before a losing play
	warnPlay  *thegame.Action // the play it asks about
	signalDlg *tgAsk

	// onMove hears every move told and every action of the person taken
	// (the app saves the game then); onOver hears the game-over view come
	// up and onLeave the person leave a game under way. Each may be nil.
	onMove, onOver, onLeave func()
	onFail                  func(error) // hears that the game cannot go on
	// onAgain, when set, offers "Play again" on the game-over view.
	onAgain  func()
	leaveDlg *tgAsk // the open question before leaving
	// auto, when set, plays the person's seat by the screen's own taps
	// (the smoke mode); autoDue says a step of it is queued.
	auto              tgbot.Player
	autoDue, autoBusy bool              // a step is queued; one runs
	banner            fyne.CanvasObject // a LAN table's news, or nil
	boxes             []*fyne.Container // what holds the banner
}

// withBanner puts the banner, if any, above content.
func (t *TheGameScreen) withBanner(content fyne.CanvasObject) fyne.CanvasObject {
	if t.banner == nil {
		return content
	}
	box := container.NewBorder(t.banner, nil, nil, nil, content)
	t.boxes = append(t.boxes, box)
	return box
}

// bannerChanged lays the screen out again after the banner came, went or
// changed its text.
func (t *TheGameScreen) bannerChanged() {
	for _, b := range t.boxes {
		b.Refresh()
	}
}

// NewTheGameScreen returns the table for src with the seats named names;
// the app gives it the bot pace from the settings.
func NewTheGameScreen(a *App, src TheGameSource, names []string) *TheGameScreen {
	return newTheGameScreen(a, src, names, appPace(a), a.do)
}

func newTheGameScreen(a *App, src TheGameSource, names []string, pace time.Duration, do func(func())) *TheGameScreen {
	return newTheGameScreenBanner(a, src, names, pace, do, nil)
}

// newTheGameScreenBanner is newTheGameScreen with banner, when not nil,
// above the table and the game-over view, under the page's title (a LAN
// table's news).
func newTheGameScreenBanner(a *App, src TheGameSource, names []string, pace time.Duration, do func(func()), banner fyne.CanvasObject) *TheGameScreen {
	t := &TheGameScreen{tableFrame: tableFrame{app: a, pace: pace, do: do}, src: src, names: names, last: -1, banner: banner}
	t.view = src.View()
	if h, ok := src.(interface{ History() []thegame.Action }); ok {
		// A resumed game: the moves before it are in the replay and the
		// latest in the list of moves, as if told.
		t.retell(h.History())
	}
	t.build()
	t.view = src.View()
	t.render()
	return t
}

// build makes the widgets once; render fills them in.
func (t *TheGameScreen) build() {
	t.turn = newTgText(17, true, white)
	t.seats = newTgText(14, false, white)
	t.force = container.NewVBox()
	t.log = newTgText(14, false, white)
	t.note = newTgText(15, true, gold)
	for i := range t.piles {
		t.piles[i] = newTgPileView(i, func() { t.tapPile(i) })
	}
	t.pgrid = &tgGrid{cols: 4, gap: 8}
	pileBox := container.New(reach.Named(reach.RegionPiles, t.pgrid))
	for _, p := range t.piles {
		pileBox.Add(p)
	}
	t.grid = &tgGrid{cols: 8, gap: 6}
	t.hand = container.New(reach.Named(reach.RegionHand, t.grid))
	// Words without icons: a phone's width holds the three in any language.
	t.End = widget.NewButton(tgw("thegame.end-turn"), t.endTurn)
	t.End.Importance = widget.HighImportance
	t.Signal = widget.NewButton(tgw("thegame.signal"), t.openSignal)
	t.Rules = widget.NewButton(tgw("thegame.rules"), t.openRules)
	barLay := &tgBar{weights: []float32{4, 3, 3}, gap: theme.Padding()}
	bar := container.New(barLay, t.End, t.Signal, t.Rules)
	side := container.NewVBox(t.seats, t.force, t.log)
	t.lay = &tgLayout{s: t, bar: bar, barLay: barLay}
	// The table scrolls when the window is too short for it (a phone on
	// its side, a small window); the buttons stay in the window, at its
	// bottom over a strip of felt or at its right, so End turn is always
	// in reach.
	t.scroll = container.NewVScroll(container.New(t.lay, t.turn, pileBox, side, t.note, t.hand))
	t.table = container.NewStack(canvas.NewRectangle(feltColour),
		container.New(&tgFrame{lay: t.lay}, t.scroll, canvas.NewRectangle(feltColour),
			container.NewThemeOverride(bar, tgFeltTheme{})))
	t.root = container.NewStack(t.table)
	if t.app != nil {
		t.root = container.NewStack(t.app.pageBack(tgw("thegame.title"), t.withBanner(t.table), t.leave))
	}
}

// View is the screen's content.
func (t *TheGameScreen) View() fyne.CanvasObject { return t.root }

// Start begins reading the game's moves; it ends with ctx or Stop.
func (t *TheGameScreen) Start(ctx context.Context) {
	t.run(ctx, t.pump, func(context.Context) {
		if t.auto != nil {
			t.do(t.autoNext)
		}
	})
}

// Over reports whether the game-over view is up.
func (t *TheGameScreen) Over() bool { return t.over }

// pump tells the moves one by one, pausing after the other seats' moves so
// that a person can follow them.
func (t *TheGameScreen) pump(ctx context.Context) {
	you := t.src.You()
	for range 100 * thegame.DeckSize * thegame.MaxPlayers {
		a, err := t.src.Next(ctx)
		var rw *seat.Rewound
		var dealt *seat.ViewChanged
		switch {
		case errors.As(err, &rw):
			t.do(func() { t.rewound(rw.Kept) })
			continue
		case errors.As(err, &dealt):
			// The cards were dealt or drawn, and no move follows yet: the
			// person sees their hand now, not at the next seat's move.
			t.do(t.refresh)
			continue
		case errors.Is(err, io.EOF):
			t.do(t.showOver)
			return
		case err != nil:
			if ctx.Err() == nil {
				t.do(func() { t.fail(err) })
			}
			return
		}
		t.do(func() { t.moved(a) })
		if a.Seat == you || t.pace <= 0 {
			continue
		}
		wait := t.pace
		if a.Kind == thegame.ActSignal {
			wait /= 2
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
	}
}

// moved shows a move of the game.
func (t *TheGameScreen) moved(a thegame.Action) {
	if a.Kind == thegame.ActPlay {
		t.plays = append(t.plays, a)
		t.last = a.Pile
	}
	t.tell(a)
	if t.onMove != nil {
		t.onMove()
	}
	t.refresh()
}

// retell takes moves as told, one after the other: the cards laid for
// the replay, the last turns in the list of moves.
func (t *TheGameScreen) retell(moves []thegame.Action) {
	for _, m := range moves {
		if m.Kind == thegame.ActPlay {
			t.plays = append(t.plays, m)
			t.last = m.Pile
		}
		t.tell(m)
	}
}

// rewound forgets the moves told that the table's log no longer holds
// (this device was cut off, and the table went on without it): kept are
// those that stand, and the table's moves follow.
func (t *TheGameScreen) rewound(kept []thegame.Action) {
	t.plays, t.told, t.last = nil, nil, -1
	t.retell(kept)
	t.refresh()
}

// fail shows that the game cannot go on.
func (t *TheGameScreen) fail(err error) {
	t.status, t.bad = err.Error(), true
	t.auto = nil
	if t.app != nil {
		t.app.ShowError(err)
	}
	t.render()
	if t.onFail != nil {
		t.onFail(err)
	}
}

// autoNext queues a step of the person's seat when it plays itself and
// the person is on turn.
func (t *TheGameScreen) autoNext() {
	if t.auto == nil || t.autoDue || t.autoBusy || !t.myTurn() {
		return
	}
	t.autoDue = true
	t.do(t.autoStep)
}

// autoStep lets the seat's player choose and carries the choice out by the
// screen's own taps: a card then a pile (yes to a warning), or End turn.
func (t *TheGameScreen) autoStep() {
	t.autoDue = false
	if t.auto == nil || t.autoBusy {
		return
	}
	t.view = t.src.View()
	if !t.myTurn() {
		return
	}
	t.autoBusy = true
	v := t.view
	a := t.auto.Act(&v)
	switch a.Kind {
	case thegame.ActPlay:
		t.picked = 0
		t.tapCard(a.Card)
		t.tapPile(a.Pile)
		if t.warnPlay != nil {
			t.answerWarning(true)
		}
	case thegame.ActEnd:
		t.endTurn()
	default:
		t.autoBusy = false
		t.fail(errors.New("ui: the seat that plays itself found no move"))
		return
	}
	t.autoBusy = false
	if t.bad {
		t.fail(fmt.Errorf("ui: the screen refused %v: %s", a, t.status))
		return
	}
	t.autoNext()
}

// refresh reads the view again and shows it.
func (t *TheGameScreen) refresh() {
	t.view = t.src.View()
	if t.picked != 0 && !t.holds(t.picked) {
		t.picked = 0
	}
	t.render()
	t.autoNext()
}

// myTurn reports whether the person may play now.
func (t *TheGameScreen) myTurn() bool {
	return !t.over && t.view.Phase == thegame.PhasePlay && t.view.Turn == t.view.Seat && !t.away()
}

// away reports whether a bot on another device plays the person's seat: a
// LAN table took it over while this device was away.
func (t *TheGameScreen) away() bool {
	h, ok := t.src.(TheGameHoster)
	return ok && h.Host(t.view.Seat) != t.view.Seat
}

func (t *TheGameScreen) holds(c thegame.Card) bool {
	for _, h := range t.view.Hand {
		if h == c {
			return true
		}
	}
	return false
}

// name is how the screen calls seat s.
func (t *TheGameScreen) name(s int) string { return seatName(t.names, s, t.view.Seat, "") }

// tapCard picks a card of the hand, or puts the picked one back.
func (t *TheGameScreen) tapCard(c thegame.Card) {
	if !t.myTurn() {
		t.tellWait()
		return
	}
	t.status, t.bad = "", false
	if t.picked == c {
		t.picked = 0
		t.render()
		return
	}
	t.picked = c
	if why := t.blocked(c); why != "" {
		// Say why at once; a tap on a pile then gives that pile's reason.
		t.status, t.bad = why, true
	}
	t.render()
}

// blocked says why c goes on no pile now, naming the command that keeps
// it from a pile its number fits; "" when it goes on one.
func (t *TheGameScreen) blocked(c thegame.Card) string {
	pos := t.view.Position()
	var cmd error
	for p := range thegame.NumPiles {
		err := pos.CheckPlay(c, p)
		if err == nil {
			return ""
		}
		if errors.Is(err, thegame.ErrCommand) && cmd == nil {
			cmd = err
		}
	}
	if cmd != nil {
		return tgw("thegame.fits-nowhere.command", "Card", int(c), "Reason", tgCommandReason(cmd, pos))
	}
	return tgw("thegame.fits-nowhere", "Card", int(c))
}

// dropCard lays c on the pile it was dragged to, as a tap on the card and
// one on the pile would; let go elsewhere, it stays picked.
func (t *TheGameScreen) dropCard(c thegame.Card, at fyne.Position) {
	if t.picked != c {
		t.tapCard(c)
	}
	if t.picked != c {
		return // refused: the screen has said why
	}
	d := fyne.CurrentApp().Driver()
	for i, p := range t.piles {
		o, sz := d.AbsolutePositionForObject(p), p.Size()
		if at.X >= o.X && at.Y >= o.Y && at.X < o.X+sz.Width && at.Y < o.Y+sz.Height {
			t.tapPile(i)
			return
		}
	}
	t.status, t.bad = tgw("thegame.drop-on-pile"), false
	t.render()
}

// tapPile lays the picked card on pile i, or says why it cannot go there.
func (t *TheGameScreen) tapPile(i int) {
	switch {
	case t.over:
		return
	case !t.myTurn():
		t.tellWait()
		return
	case t.picked == 0:
		t.status, t.bad = tgw("thegame.pick-first"), true
		t.render()
		return
	}
	a := thegame.Action{Kind: thegame.ActPlay, Seat: t.view.Seat, Card: t.picked, Pile: i}
	pos := t.view.Position()
	if err := pos.CheckPlay(a.Card, a.Pile); err != nil {
		t.status, t.bad = t.reason(err, a), true
		t.render()
		return
	}
	if k, lose := t.src.Warning(a); lose {
		t.warn(a, k)
		return
	}
	t.act(a)
}

// act sends the person's action to the source and shows the outcome.
func (t *TheGameScreen) act(a thegame.Action) {
	if err := t.src.Act(a); err != nil {
		t.status, t.bad = t.reason(err, a), true
		t.render()
		return
	}
	t.status, t.bad = "", false
	if a.Kind == thegame.ActPlay {
		t.picked = 0
	}
	if t.onMove != nil {
		t.onMove()
	}
	t.refresh()
}

// endTurn ends the person's turn.
func (t *TheGameScreen) endTurn() {
	if !t.myTurn() {
		t.tellWait()
		return
	}
	t.act(thegame.Action{Kind: thegame.ActEnd, Seat: t.view.Seat})
}

// tellWait says that it is not the person's turn.
func (t *TheGameScreen) tellWait() {
	if t.over {
		return
	}
	t.status, t.bad = tgw("thegame.wait", "Seat", t.name(t.view.Turn)), true
	if t.away() {
		t.status = tgw("thegame.turn.away")
	}
	t.render()
}

// warn asks before a play after which the game is lost.
func (t *TheGameScreen) warn(a thegame.Action, k thegame.Command) {
	why := tgw("thegame.warn.minimum")
	if k != thegame.CmdNone {
		why = tgw("thegame.warn.command", "Command", tgCommandShort(k))
	}
	t.warnPlay = &a
	t.status, t.bad = why, true
	t.render()
	if t.app == nil {
		return
	}
	text := widget.NewLabel(why)
	text.Wrapping = fyne.TextWrapWord
	t.warning = newTgAsk(t.app.Window(), tgw("thegame.warn.title", "Card", int(a.Card), "Pile", a.Pile+1),
		tgw("thegame.warn.yes"), tgw("thegame.warn.no"), text, t.answerWarning)
	t.warning.Show()
}

// answerWarning plays the card the warning asked about (yes) or keeps it
// in the hand (no).
func (t *TheGameScreen) answerWarning(yes bool) {
	a, d := t.warnPlay, t.warning
	t.warnPlay, t.warning = nil, nil
	if d != nil {
		d.Hide() // its callback comes back here and finds nothing to answer
	}
	if a == nil {
		return
	}
	if !yes {
		t.picked = 0
		t.status, t.bad = tgw("thegame.warn.kept"), false
		t.render()
		return
	}
	t.act(*a)
}

// openSignal asks which signal to put on which pile.
func (t *TheGameScreen) openSignal() {
	if !t.canSignal() {
		t.status, t.bad = tgw("thegame.signal.muted"), true
		t.render()
		return
	}
	if t.app == nil {
		return
	}
	var piles []string
	for i := range thegame.NumPiles {
		piles = append(piles, tgw("thegame.signal.pile", "N", i+1))
	}
	// The piles side by side where the dialog holds them, else in a list
	// to open: one under the other they would make the dialog higher
	// than a short window.
	radio := widget.NewRadioGroup(piles, nil)
	radio.Required = true
	radio.Horizontal = true
	radio.SetSelected(piles[0])
	var pileBox fyne.CanvasObject = radio
	picked := func() string { return radio.Selected }
	if radio.MinSize().Width > tgAskWidth(t.app.Window())-4*theme.Padding() {
		list := widget.NewSelect(piles, nil)
		list.SetSelected(piles[0])
		pileBox, picked = list, func() string { return list.Selected }
	}
	kinds := []thegame.Signal{thegame.SignalMine, thegame.SignalGood, thegame.SignalNone}
	var opts []string
	for _, k := range kinds {
		opts = append(opts, tgSignalText(k))
	}
	kind := newTgChoice(opts)
	kind.SetSelected(opts[0])
	form := container.NewVBox(pileBox, kind)
	t.signalDlg = newTgAsk(t.app.Window(), tgw("thegame.signal.title"), tgw("thegame.signal.give"),
		tgw("thegame.signal.cancel"), form, func(ok bool) {
			t.signalDlg = nil
			if !ok {
				return
			}
			p := max(0, indexOf(piles, picked()))
			k := kinds[max(0, indexOf(opts, kind.Selected))]
			t.giveSignal(p, k)
		})
	t.signalDlg.Show()
}

// giveSignal puts the person's signal k on pile p (SignalNone clears it).
func (t *TheGameScreen) giveSignal(p int, k thegame.Signal) {
	t.act(thegame.Action{Kind: thegame.ActSignal, Seat: t.view.Seat, Pile: p, Signal: k})
}

// canSignal reports whether signals may be given now.
func (t *TheGameScreen) canSignal() bool {
	return !t.over && t.view.Phase != thegame.PhaseDeal && !t.view.Muted
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// openRules shows the rules of The Game.
func (t *TheGameScreen) openRules() {
	if t.app != nil {
		t.app.Push(NewTheGameRules(t.app))
	}
}

// reason says in words why the engine refused a, from its error.
func (t *TheGameScreen) reason(err error, a thegame.Action) string {
	pos := t.view.Position()
	switch {
	case errors.Is(err, thegame.ErrIllegalPlay) && a.Pile >= 0 && a.Pile < thegame.NumPiles:
		pl := pos.Piles[a.Pile]
		args := []any{"Card", int(a.Card), "Pile", a.Pile + 1, "Top", pl.Top}
		if pl.Up {
			return tgw("thegame.reason.up", args...)
		}
		return tgw("thegame.reason.down", args...)
	case errors.Is(err, thegame.ErrTooFew):
		return tgn("thegame.reason.too-few", pos.Min()-pos.Played)
	case errors.Is(err, thegame.ErrNoTalking):
		return tgw("thegame.signal.muted")
	case errors.Is(err, thegame.ErrNotYourTurn), errors.Is(err, thegame.ErrWrongPhase):
		return tgw("thegame.wait", "Seat", t.name(t.view.Turn))
	case errors.Is(err, thegame.ErrCommand):
		return tgCommandReason(err, pos)
	case errors.Is(err, thegame.ErrGameOver):
		return tgw("thegame.reason.over")
	}
	return say(words.TheGame("thegame.reason.other", "Error", err.Error()))
}

// tgCommandReason names the command a refused play or end would break.
func tgCommandReason(err error, pos thegame.Position) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "skull"):
		return tgw("thegame.reason.skull")
	case strings.Contains(s, "3!") && strings.Contains(s, "stop"):
		return tgw("thegame.reason.three-stop")
	case strings.Contains(s, "3!") && pos.Played < 3:
		return tgw("thegame.reason.three-more")
	case strings.Contains(s, "3!"):
		return tgw("thegame.reason.three")
	case strings.Contains(s, "backwards"):
		return tgw("thegame.reason.no-trick")
	case strings.Contains(s, "one pile"):
		return tgw("thegame.reason.one-pile")
	case strings.Contains(s, "stop has ended"):
		return tgw("thegame.reason.stopped")
	}
	return tgw("thegame.reason.command")
}

// tgSlots are the places of hand in the person's turn: the places of
// the turn so far (last), with 0 where a card has been laid, while every
// card of hand still has its place there; else, and out of the turn
// (same is false), the hand as it is.
func tgSlots(last, hand []thegame.Card, same bool) []thegame.Card {
	keep := same && len(last) >= len(hand)
	for _, c := range hand {
		keep = keep && slices.Contains(last, c)
	}
	if !keep {
		return slices.Clone(hand)
	}
	out := slices.Clone(last)
	for i, c := range out {
		if !slices.Contains(hand, c) {
			out[i] = 0
		}
	}
	return out
}

// tgTurnLog is one seat's turn in the list of moves: its cards, its
// signals and its end, in order.
type tgTurnLog struct {
	seat  int
	moves []string
	ended bool
}

// tgLogTurns is how many turns the list of moves keeps.
const tgLogTurns = 5

// tell adds move a to the list of moves, a card laid or a turn ended: to
// the line of the turn under way, or to a new one when another seat plays
// or a turn has ended.
func (t *TheGameScreen) tell(a thegame.Action) {
	var part string
	switch a.Kind {
	case thegame.ActPlay:
		part = tgw("thegame.log.play", "Card", tgCardWords(a.Card, t.view.Extreme), "Pile", a.Pile+1)
	case thegame.ActEnd:
		part = tgw("thegame.log.end")
	default:
		// The signals stand on their piles; the list tells the cards.
		return
	}
	if n := len(t.told); n == 0 || t.told[n-1].seat != a.Seat || t.told[n-1].ended {
		t.told = append(t.told, tgTurnLog{seat: a.Seat})
	}
	last := &t.told[len(t.told)-1]
	last.moves = append(last.moves, part)
	// A stop ends its turn without an end told.
	last.ended = a.Kind == thegame.ActEnd || t.view.Extreme && thegame.CommandOf(a.Card) == thegame.CmdStop
	if len(t.told) > tgLogTurns {
		t.told = slices.Delete(t.told, 0, len(t.told)-tgLogTurns)
	}
}

// logText is the list of moves: a line for each of the last turns, as
// many as there are seats (at least two), each whole.
func (t *TheGameScreen) logText() string {
	n := min(max(len(t.view.HandSizes), 2), tgLogTurns)
	var lines []string
	for _, l := range t.told[max(0, len(t.told)-n):] {
		lines = append(lines, tgw("thegame.log.turn", "Seat", t.name(l.seat), "Moves", strings.Join(l.moves, ", ")))
	}
	return strings.Join(lines, "\n")
}

// moveWords tells a move in a line, or "" for one not worth telling.
func (t *TheGameScreen) moveWords(a thegame.Action) string {
	you := a.Seat == t.view.Seat
	who := t.name(a.Seat)
	switch a.Kind {
	case thegame.ActPlay:
		card := tgCardWords(a.Card, t.view.Extreme)
		if you {
			return tgw("thegame.move.play.you", "Card", card, "Pile", a.Pile+1)
		}
		return tgw("thegame.move.play", "Seat", who, "Card", card, "Pile", a.Pile+1)
	case thegame.ActEnd:
		if you {
			return tgw("thegame.move.end.you")
		}
		return tgw("thegame.move.end", "Seat", who)
	case thegame.ActSignal:
		if a.Signal == thegame.SignalNone {
			return ""
		}
		return tgw("thegame.move.signal", "Seat", who, "Pile", a.Pile+1, "Signal", tgSignalText(a.Signal))
	}
	return ""
}

// tgCardWords is a card's number with its command in the Extreme game.
func tgCardWords(c thegame.Card, extreme bool) string {
	if k := thegame.CommandOf(c); extreme && k != thegame.CmdNone {
		return tgw("thegame.card.command", "Card", int(c), "Command", tgCommandShort(k))
	}
	return c.String()
}

// render shows the view, the hand and the controls.
func (t *TheGameScreen) render() {
	if t.over {
		return
	}
	v := t.view
	mine := t.myTurn()
	pos := v.Position()

	// Whose turn and the draw pile.
	turn := tgw("thegame.turn.other", "Seat", t.name(v.Turn))
	switch {
	case mine:
		turn = tgw("thegame.turn.you", "Seat", t.name(v.Turn))
	case v.Turn == v.Seat && t.away():
		turn = tgw("thegame.turn.away")
	case v.Phase == thegame.PhaseDeal:
		turn = tgw("thegame.turn.dealing")
	case v.Turn == v.Seat && v.Phase == thegame.PhaseDraw:
		turn = tgw("thegame.turn.drawing")
	}
	t.turn.SetText(turn + "  ·  " + tgn("thegame.draw-pile", v.DrawPile))

	var hs []string
	for s, n := range v.HandSizes {
		hs = append(hs, tgw("thegame.seat.cards", "Seat", t.name(s), "N", n))
	}
	t.seats.SetText(tgw("thegame.hands", "Hands", strings.Join(hs, ", ")))

	// The commands in force, each with the piles it lies on.
	t.force.Objects = nil
	for _, k := range v.InForce {
		var on []string
		for i, p := range v.Piles {
			if p.Cmd == k {
				on = append(on, tgw("thegame.signal.pile", "N", i+1))
			}
		}
		line := tgw("thegame.force.turn", "Command", tgCommandShort(k), "Rule", tgCommandRule(k))
		if len(on) > 0 {
			line = tgw("thegame.force.line", "Piles", strings.Join(on, ", "), "Command", tgCommandShort(k), "Rule", tgCommandRule(k))
		}
		txt := newTgText(14, true, gold)
		txt.SetText(line)
		t.force.Add(txt)
	}
	t.force.Refresh()
	t.log.SetText(t.logText())

	// The piles.
	held := map[thegame.Card]bool{}
	for _, c := range v.Hand {
		held[c] = true
	}
	for i, pv := range t.piles {
		pv.pile = v.Piles[i]
		tc := tgTrickCard(v.Piles[i])
		pv.held = tc != 0 && held[tc] && pos.CanPlay(tc, i) && mine
		pv.target = mine && t.picked != 0 && pos.CanPlay(t.picked, i)
		if h := t.hinted; h != nil && h.Card == t.picked {
			pv.target = pv.target && i == h.Pile
		}
		pv.muted = v.Muted
		pv.extreme = v.Extreme
		pv.fresh = i == t.last
		pv.signals = nil
		for _, k := range []thegame.Signal{thegame.SignalMine, thegame.SignalGood} {
			var who []string
			for s := range v.Signals {
				if v.Signals[s][i] == k {
					who = append(who, t.name(s))
				}
			}
			if len(who) > 0 {
				pv.signals = append(pv.signals, tgw("thegame.pile.signal", "Seats", strings.Join(who, ", "), "Signal", tgSignalShort(k)))
			}
		}
		pv.Refresh()
	}

	// The hand: sorted by the engine; the cards that fit somewhere edged.
	// In the person's turn each card keeps its place, the places of the
	// cards laid left empty, so that a second tap finds the card that was
	// there at the first.
	t.slots = tgSlots(t.slots, v.Hand, mine && t.slotsTurn == v.Turns)
	t.slotsTurn = v.Turns
	t.hand.Objects = nil
	t.cards = t.cards[:0]
	for i, c := range t.slots {
		if c == 0 {
			for len(t.gaps) <= i {
				t.gaps = append(t.gaps, canvas.NewRectangle(color.Transparent))
			}
			t.gaps[i].SetMinSize(tgCardSize(!t.lay.column))
			t.hand.Add(t.gaps[i])
			continue
		}
		for len(t.pool) <= len(t.cards) {
			t.pool = append(t.pool, newTgCardView(nil))
		}
		cv := t.pool[len(t.cards)]
		t.cards = append(t.cards, cv)
		cv.card = c
		cv.onTap = func() { t.tapCard(c) }
		cv.onDrop = func(at fyne.Position) { t.dropCard(c, at) }
		cv.cmd = thegame.CmdNone
		if v.Extreme {
			cv.cmd = thegame.CommandOf(c)
		}
		cv.fits, cv.trick = false, false
		for p := range thegame.NumPiles {
			if pos.CanPlay(c, p) {
				cv.fits = true
				_, trick := v.Piles[p].Fits(c)
				cv.trick = cv.trick || trick
			}
		}
		cv.picked = c == t.picked
		cv.waiting = !mine
		cv.big = !t.lay.column
		t.hand.Add(cv)
		cv.Refresh()
	}
	t.hand.Refresh()

	// The buttons and the note.
	if mine && pos.CheckEnd() == nil {
		t.End.Enable()
	} else {
		t.End.Disable()
	}
	if t.canSignal() {
		t.Signal.Enable()
	} else {
		t.Signal.Disable()
	}
	if t.Hint != nil {
		setEnabled(t.Hint, mine)
	}
	note, col := t.status, gold
	if note == "" {
		note, col = t.hint(pos), white
	} else if !t.bad {
		col = white
	}
	t.note.col = col
	t.note.SetText(note)
	t.lay.refreshSizes()
	t.table.Refresh()
}

// hint says what the person may do now.
func (t *TheGameScreen) hint(pos thegame.Position) string {
	if !t.myTurn() {
		return ""
	}
	switch {
	case pos.Stopped:
		return tgw("thegame.hint.stopped")
	case pos.Three && pos.Played < 3:
		return tgn("thegame.hint.three", 3-pos.Played)
	case pos.SkullOpen():
		return tgw("thegame.reason.skull")
	case pos.Played < pos.Min():
		if t.picked != 0 {
			return tgw("thegame.hint.pile", "Card", int(t.picked))
		}
		return tgn("thegame.hint.more", pos.Min()-pos.Played)
	case t.picked != 0:
		return tgw("thegame.hint.pile", "Card", int(t.picked))
	}
	return tgw("thegame.hint.may-end")
}

// showOver replaces the table with the game-over view.
func (t *TheGameScreen) showOver() {
	if t.over {
		return
	}
	t.view = t.src.View()
	t.over = true
	if d := t.warning; d != nil {
		t.warning, t.warnPlay = nil, nil
		d.Hide()
	}
	t.gameOver = newTgOver(t)
	t.root.Objects = []fyne.CanvasObject{t.gameOver.view}
	if t.app != nil {
		t.root.Objects = []fyne.CanvasObject{t.app.pageBack(tgw("thegame.over.title"), t.withBanner(t.gameOver.view), t.gameOver.done)}
	}
	t.root.Refresh()
	if t.onOver != nil {
		t.onOver()
	}
}

// leave asks whether the person wants to leave the game under way, which
// ends it; on the game-over view it goes home at once. A table that keeps
// no game (no onLeave) is simply left.
func (t *TheGameScreen) leave() {
	switch {
	case t.over:
		t.gameOver.done()
		return
	case t.app == nil || t.leaveDlg != nil:
		return
	case t.onLeave == nil:
		t.app.Back()
		return
	}
	text := widget.NewLabel(tgw("thegame.leave.text"))
	text.Wrapping = fyne.TextWrapWord
	t.leaveDlg = newTgAsk(t.app.Window(), tgw("thegame.leave.title"), tgw("thegame.leave.yes"), tgw("thegame.leave.no"),
		text, t.answerLeave)
	t.leaveDlg.Show()
}

// answerLeave ends the game and goes home (yes) or stays at the table.
func (t *TheGameScreen) answerLeave(yes bool) {
	d := t.leaveDlg
	t.leaveDlg = nil
	if d != nil {
		d.Hide() // its callback comes back here and finds nothing to answer
	}
	if d == nil || !yes || t.over {
		return
	}
	t.Stop()
	if t.onLeave != nil {
		t.onLeave()
	}
	t.app.Reset(NewHome(t.app))
}

// TypedKey takes Escape and the system's back as a wish to leave a kept
// game or the game-over view; otherwise the app goes back as usual.
func (t *TheGameScreen) TypedKey(ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape && ev.Name != keyBack || t.onLeave == nil && !t.over {
		return false
	}
	if t.leaveDlg != nil {
		t.answerLeave(false)
		return true
	}
	t.leave()
	return true
}

// tgLayout places the table but its buttons, inside the scroll. On a
// desktop (a window wider than high and at least tgWideHeight high) the
// piles stand in a row, large, with the note and the hand below them and
// the seats, commands and moves in a column at the right. Otherwise the
// pieces are small and go one under the other: the turn, the piles (two by
// two, or in a row where the width holds four), the hand right under them
// (in rows of four, or of eight where the width holds them), the note,
// then the seats, commands and moves, which the table scrolls to when the
// window is too short for them. The piles take the height to spare, as
// much through the person's turn as at its start: the hand does not move
// while the person lays cards. The buttons stand upright at the right of
// a window wider than high but short (a phone on its side), where height
// is scarce; else tgFrame places them at the bottom, under the scroll.
type tgLayout struct {
	s        *TheGameScreen
	bar      fyne.CanvasObject // the buttons, placed by tgFrame
	barLay   *tgBar
	view     fyne.Size // the scroll's size, from tgFrame
	portrait bool      // the window is higher than wide
	column   bool      // small pieces one under the other
	aside    bool      // the buttons stand at the right
	sized    bool
	// keptTurn is the person's turn (View.Turns) whose piles' height,
	// kept, the column keeps at the view keptView.
	keptTurn int
	keptView fyne.Size
	kept     float32
}

const (
	tgPad        = 8
	tgSideW      = 330 // the side column on a desktop
	tgAsideW     = 150 // the upright buttons
	tgWideHeight = 480 // below this a landscape window gets the column
	tgPileRowH   = 110 // the least height of a row of piles in the column
	tgCardH      = 56  // a row of the hand in the column
	tgBigCardH   = 112 // a row of the hand on a desktop
)

// shape decides the layout for a table of size and, when it changed,
// sizes the piles and cards for it and renders them again. It returns the
// size of the scroll.
func (l *tgLayout) shape(size fyne.Size) fyne.Size {
	if size.Width <= 0 || size.Height <= 0 {
		return size
	}
	portrait := size.Height > size.Width
	column := portrait || size.Height < tgWideHeight
	aside := column && !portrait
	view := size
	if aside {
		view.Width -= tgAsideW + tgPad
	} else {
		// The scroll ends above the strip of the buttons: what it
		// scrolls into view is not under them.
		view.Height -= l.bar.MinSize().Height + 2*tgPad
	}
	pcols, hcols := l.cols(column, view.Width)
	changed := !l.sized || portrait != l.portrait || column != l.column || aside != l.aside ||
		pcols != l.s.pgrid.cols || hcols != l.s.grid.cols
	l.view = view
	l.portrait, l.column, l.aside, l.sized = portrait, column, aside, true
	l.barLay.upright = aside
	if changed {
		l.refreshSizes()
		l.s.render()
	}
	return view
}

// cols is the number of piles and of cards in a row for a table width.
func (l *tgLayout) cols(column bool, width float32) (piles, cards int) {
	piles, cards = 4, 8
	if column {
		w := width - 2*tgPad
		if w < 4*128+3*l.s.pgrid.gap {
			piles = 2
		}
		if w < 8*60+7*l.s.grid.gap {
			cards = 4
		}
	}
	return piles, cards
}

// refreshSizes sets the card sizes and columns for the shape last laid out.
func (l *tgLayout) refreshSizes() {
	s := l.s
	s.pgrid.cols, s.grid.cols = l.cols(l.column, l.view.Width)
	for _, p := range s.piles {
		if p.big != !l.column {
			p.big = !l.column
			p.Refresh()
		}
	}
	for _, c := range s.pool {
		if c.big != !l.column {
			c.big = !l.column
			c.Refresh()
		}
	}
}

// tgPlan is the height of each part of the table at one width; natural is
// the height the whole needs with the piles at their least.
type tgPlan struct {
	turn, piles, side, note, hand float32
	left                          float32 // the width of the piles, note and hand
	natural                       float32
	// extra is the height the piles get beyond their least in the
	// column: what the window has to spare, kept through the person's
	// turn.
	extra float32
}

// plan measures the parts for a table width wide.
func (l *tgLayout) plan(objs []fyne.CanvasObject, width float32) tgPlan {
	turn, side, note := objs[0], objs[2], objs[3]
	measure := func(o fyne.CanvasObject, w float32) float32 {
		o.Resize(fyne.NewSize(w, o.Size().Height))
		return o.MinSize().Height
	}
	w := width - 2*tgPad
	p := tgPlan{left: w}
	cardH := float32(tgCardH)
	if !l.column {
		p.left = w - tgSideW - tgPad
		cardH = tgBigCardH
	}
	p.turn = measure(turn, w)
	p.note = measure(note, p.left)
	rows := (len(l.s.slots) + l.s.grid.cols - 1) / l.s.grid.cols
	p.hand = float32(max(rows, 1))*cardH + float32(max(rows-1, 0))*l.s.grid.gap
	top := tgPad + p.turn + tgPad
	if !l.column {
		// The piles at least 200 high; the column at the right as high
		// as its words.
		p.piles = 200
		p.side = measure(side, tgSideW)
		p.natural = max(top+p.piles+p.note+p.hand+4*tgPad, top+p.side+tgPad)
		return p
	}
	// A row of piles as high as the fullest pile needs.
	pcols := max(l.s.pgrid.cols, 1)
	pileRows := (thegame.NumPiles + pcols - 1) / pcols
	cellW := (w - float32(pcols-1)*l.s.pgrid.gap) / float32(pcols)
	rowH := float32(tgPileRowH)
	for _, pv := range l.s.piles {
		rowH = max(rowH, pv.needHeight(cellW))
	}
	p.piles = float32(pileRows)*rowH + float32(pileRows-1)*l.s.pgrid.gap
	p.side = measure(side, w)
	p.natural = top + p.piles + p.side + p.note + p.hand + 4*tgPad
	// The piles take what the window has to spare; in the person's turn
	// as much room as at its start, so that the hand under them stays
	// where it is while the words below it grow or shrink and a pile's
	// signals go.
	p.extra = max(l.view.Height-p.natural, 0)
	if l.s.myTurn() {
		if l.keptTurn == l.s.view.Turns && l.keptView == l.view {
			p.extra = max(l.kept-p.piles, 0)
		} else {
			l.keptTurn, l.keptView, l.kept = l.s.view.Turns, l.view, p.piles+p.extra
		}
	}
	return p
}

// MinSize is the width of the narrowest phone and the height the table
// needs at the width of the view, so that the scroll around it scrolls
// just as far as it must.
func (l *tgLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if l.view.Width <= 0 {
		return fyne.NewSize(280, 200)
	}
	p := l.plan(objs, l.view.Width)
	return fyne.NewSize(280, p.natural+p.extra)
}

func (l *tgLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if !l.sized {
		l.shape(size)
	}
	turn, piles, side, note, hand := objs[0], objs[1], objs[2], objs[3], objs[4]
	p := l.plan(objs, size.Width)
	w := size.Width - 2*tgPad
	y := float32(tgPad)
	place := func(o fyne.CanvasObject, width, h float32) {
		o.Move(fyne.NewPos(tgPad, y))
		o.Resize(fyne.NewSize(width, h))
		y += h + tgPad
	}
	place(turn, w, p.turn)
	top := y
	if !l.column {
		// The piles at most 420 high; the note and the hand sit on the
		// buttons at the bottom.
		room := size.Height - top - p.note - p.hand - 4*tgPad
		pilesH := min(max(room, p.piles), 420)
		place(piles, p.left, pilesH)
		y += max(room-pilesH, 0)
		side.Move(fyne.NewPos(2*tgPad+p.left, top))
		side.Resize(fyne.NewSize(tgSideW, size.Height-top-tgPad))
		place(note, p.left, p.note)
		place(hand, p.left, p.hand)
		return
	}
	// The hand right under the piles, where it stays through the turn;
	// the note and the words of the side column follow it.
	place(piles, w, p.piles+p.extra)
	place(hand, w, p.hand)
	place(note, w, p.note)
	place(side, w, p.side)
}

// tgFrame places the scrolling table and the buttons: the buttons along
// the bottom, on a strip of felt under the scroll, which ends above it
// (under the piles and hand on a desktop, across the width in the
// column), or upright at the right of a phone on its side.
type tgFrame struct{ lay *tgLayout }

func (f *tgFrame) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(280, 200)
}

func (f *tgFrame) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	scroll, strip, bar := objs[0], objs[1], objs[2]
	view := f.lay.shape(size)
	scroll.Move(fyne.NewPos(0, 0))
	scroll.Resize(view)
	if f.lay.aside {
		strip.Hide()
		x := view.Width
		bar.Move(fyne.NewPos(x, tgPad))
		bar.Resize(fyne.NewSize(size.Width-x-tgPad, size.Height-2*tgPad))
		return
	}
	strip.Show()
	w := size.Width - 2*tgPad
	if !f.lay.column {
		w -= tgSideW + tgPad
	}
	barH := bar.MinSize().Height
	y := size.Height - tgPad - barH
	bar.Move(fyne.NewPos(tgPad, y))
	bar.Resize(fyne.NewSize(w, barH))
	strip.Move(fyne.NewPos(0, y-tgPad))
	strip.Resize(fyne.NewSize(w+2*tgPad, size.Height-y+tgPad))
}

// tgText is text that wraps to its width, in a colour of its own (the
// table's felt needs light text whatever the theme).
type tgText struct {
	widget.BaseWidget
	text  string
	size  float32
	bold  bool
	col   color.Color
	lines *fyne.Container
	width float32
}

func newTgText(size float32, bold bool, col color.Color) *tgText {
	t := &tgText{size: size, bold: bold, col: col}
	t.ExtendBaseWidget(t)
	return t
}

// SetText changes the text.
func (t *tgText) SetText(s string) {
	t.text = s
	t.Refresh()
}

// Text is the text shown.
func (t *tgText) Text() string { return t.text }

// wrap breaks the text into lines no wider than width.
func (t *tgText) wrap(width float32) []string {
	style := fyne.TextStyle{Bold: t.bold}
	var out []string
	for _, para := range strings.Split(t.text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			try := w
			if line != "" {
				try = line + " " + w
			}
			if line != "" && width > 0 && fyne.MeasureText(try, t.size, style).Width > width {
				out = append(out, line)
				line = w
				continue
			}
			line = try
		}
		if line != "" || para == "" {
			out = append(out, line)
		}
	}
	if t.text == "" {
		return nil
	}
	return out
}

func (t *tgText) lineHeight() float32 {
	return fyne.MeasureText("Ag", t.size, fyne.TextStyle{Bold: t.bold}).Height
}

func (t *tgText) MinSize() fyne.Size {
	n := len(t.wrap(t.Size().Width))
	return fyne.NewSize(40, float32(n)*t.lineHeight())
}

func (t *tgText) CreateRenderer() fyne.WidgetRenderer {
	t.lines = container.NewWithoutLayout()
	r := &tgTextRender{t: t}
	r.Refresh()
	return r
}

type tgTextRender struct{ t *tgText }

func (r *tgTextRender) Layout(size fyne.Size) {
	t := r.t
	lines := t.wrap(size.Width)
	if len(lines) != len(t.lines.Objects) || size.Width != t.width {
		t.width = size.Width
		r.fill(lines)
	}
	h := t.lineHeight()
	for i, o := range t.lines.Objects {
		o.Move(fyne.NewPos(0, float32(i)*h))
		o.Resize(fyne.NewSize(size.Width, h))
	}
	t.lines.Resize(size)
}

func (r *tgTextRender) fill(lines []string) {
	t := r.t
	t.lines.Objects = nil
	for _, l := range lines {
		c := canvas.NewText(l, t.col)
		c.TextSize = t.size
		c.TextStyle.Bold = t.bold
		t.lines.Add(c)
	}
}

func (r *tgTextRender) MinSize() fyne.Size { return r.t.MinSize() }

func (r *tgTextRender) Refresh() {
	r.fill(r.t.wrap(r.t.Size().Width))
	r.Layout(r.t.Size())
	r.t.lines.Refresh()
}

func (r *tgTextRender) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.lines} }

func (r *tgTextRender) Destroy() {}

// tgAsk is a question in a dialog with two answers. Its buttons stand side
// by side where the dialog is wide enough for both and one above the other
// where not (the narrowest phones, and German or French words), so that
// neither is cut at the window's edge.
type tgAsk struct {
	dialog.Dialog
	Yes, No *widget.Button
}

// tgAskWidth is the width of a question's dialog in window w: at most
// 420, with a margin of 8 at each side of a narrower window.
func tgAskWidth(w fyne.Window) float32 {
	return min(420, w.Canvas().Size().Width-16)
}

// newTgAsk makes the question title about content; answer hears true for
// yes and false for no, once, after the dialog is hidden.
func newTgAsk(w fyne.Window, title, yes, no string, content fyne.CanvasObject, answer func(bool)) *tgAsk {
	q := &tgAsk{}
	reply := func(ok bool) {
		q.Hide()
		answer(ok)
	}
	q.Yes = widget.NewButtonWithIcon(yes, theme.ConfirmIcon(), func() { reply(true) })
	q.Yes.Importance = widget.HighImportance
	q.No = widget.NewButtonWithIcon(no, theme.CancelIcon(), func() { reply(false) })
	width := tgAskWidth(w)
	// Side by side, each at least as wide as its words, within the
	// dialog's own padding and the gap between them; else the same
	// without icons; else one above the other.
	fits := func() bool {
		return q.No.MinSize().Width+q.Yes.MinSize().Width <= width-12*theme.Padding()
	}
	buttons := container.New(&tgBar{weights: []float32{1, 1}, gap: theme.Padding()}, q.No, q.Yes)
	if !fits() {
		q.Yes.SetIcon(nil)
		q.No.SetIcon(nil)
	}
	if !fits() {
		buttons = container.NewGridWithColumns(1, q.Yes, q.No)
	}
	q.Dialog = dialog.NewCustomWithoutButtons(title, container.NewVBox(content, layoutSpacer(4), buttons), w)
	q.Resize(fyne.NewSize(width, 10))
	return q
}
