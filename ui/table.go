package ui

import (
	"context"
	"errors"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
)

// TableOptions set up a table screen.
type TableOptions struct {
	// Names are the seats' names by seat; an empty name is replaced by the
	// seat's own name from the game or "You" / "Bot N".
	Names []string
	// OnChoice is called on the UI goroutine after each accepted choice
	// (the app saves the local game then).
	OnChoice func()
	// OnGameOver is called once when the person leaves the game-over view.
	OnGameOver func()
	// OnHome, when set, puts a Home button on the table that calls it
	// (a local game, which is saved; a LAN table has its own Leave).
	OnHome func()
	// OnAgain, when set, puts a "Play again" button on the game-over view
	// that calls it: a new game with the same seats and a fresh deal.
	OnAgain func()
	// Hints offers a Hint button on the person's turn (at a LAN table only
	// when the host allowed hints).
	Hints bool
}

// TableScreen is the game screen: the seats, the Njet board, the trick, the
// hand and the questions, fed by one seat.Seat, so that a local and a LAN
// game use the same widgets. It decides nothing about the game: every move
// it offers comes from the seat's prompt. Its widgets are made once, when
// the first event says how many seats and which edition; each event only
// changes what they show.
type TableScreen struct {
	tableFrame
	seat seat.Seat
	opt  TableOptions

	model *tableModel
	views *views      // the cards, fields and marks, kept from one event to the next
	parts *tableParts // nil until the first event with seats

	root   *fyne.Container
	lay    *tableLayout
	status string // why the last tap did nothing, or an error
	focus  int    // the keyboard's card in the hand, -1 for none
	peek   bool   // the last trick is shown again
	sent   bool   // a choice is on its way to the seat
	// forcing is set while the person's only possible card waits to be
	// played for them (forced); forcedSeq is its question.
	forcing   bool
	forcedSeq uint64
	// scrolledFor is the question the small shape last scrolled to.
	scrolledFor uint64
	// hint is the strong bot's answer to the open question, shown and
	// not played; hinting is set while it is being worked out.
	hint    *shownHint
	hinting bool

	// cards are the hand's cards a person can see, in order (the keys).
	cards []*cardView

	cont    chan struct{}     // the person read the round summary
	answers chan choiceAnswer // the seat's answers to choices, shown by the pump
	quit    chan struct{}     // closed when the pump's context ends
	done    chan struct{}     // the pump has ended
}

// tableParts are the table's widgets.
type tableParts struct {
	felt   *canvas.Rectangle
	info   *infoBar
	seats  *seatRow
	board  *boardPanel
	trick  *trickPanel
	bar    *actionBar
	hand   *handBox
	body   *fyne.Container // the parts under the info bar (tableLayout)
	scroll *container.Scroll
	over   fyne.CanvasObject // the round summary or the game-over view, when up
	// the round summary of round summaryOf and the game-over view, made
	// once each
	summary   fyne.CanvasObject
	summaryOf int
	gameOver  fyne.CanvasObject
}

// NewTableScreen returns the game screen for s. The app gives it the bot
// pace from the settings.
func NewTableScreen(a *App, s seat.Seat, opt TableOptions) *TableScreen {
	return newTableScreen(a, s, opt, appPace(a), a.do)
}

func newTableScreen(a *App, s seat.Seat, opt TableOptions, pace time.Duration, do func(func())) *TableScreen {
	t := &TableScreen{tableFrame: tableFrame{app: a, pace: pace, do: do}, seat: s, opt: opt, focus: -1,
		model: newTableModel(opt.Names), views: newViews(), cont: make(chan struct{}, 1), answers: make(chan choiceAnswer, 4),
		quit: make(chan struct{}), done: make(chan struct{})}
	t.lay = &tableLayout{t: t}
	t.root = container.NewStack(feltRect())
	return t
}

// build makes the table's widgets for the model's seats and edition.
func (t *TableScreen) build() {
	p := &tableParts{felt: canvas.NewRectangle(feltColour)}
	t.parts = p
	n := t.model.view.Players
	p.info = newInfoBar(t, t.opt.OnHome)
	p.seats = newSeatRow(n)
	p.board = newBoardPanel(t)
	p.trick = newTrickPanel(t, n)
	p.bar = newActionBar(t)
	p.hand = newHandBox()
	p.body = container.New(t.lay, p.seats.view, p.board.view, p.trick.view, p.bar.view, p.hand)
	p.scroll = container.NewVScroll(p.body)
	t.root.Layout = &screenLayout{t: t}
	t.root.Objects = []fyne.CanvasObject{p.felt, p.info.view, p.scroll}
}

// View is the screen's content.
func (t *TableScreen) View() fyne.CanvasObject { return t.root }

// Start starts reading the seat; the pump ends with ctx or Stop.
func (t *TableScreen) Start(ctx context.Context) {
	t.run(ctx, t.pump, func(ctx context.Context) {
		context.AfterFunc(ctx, func() { close(t.quit) })
	})
}

// Totals are the running totals per seat as the screen shows them.
func (t *TableScreen) Totals() []int { return t.model.totals() }

// Over reports whether the game-over view is up.
func (t *TableScreen) Over() bool { return t.model.over != nil }

// send gives a choice to the seat off the UI goroutine: a local seat runs
// the engine in Choose, a LAN seat posts to the log. The answer goes to the
// pump, which shows it in turn with the seat's events (answered).
func (t *TableScreen) send(a engine.Action) {
	if t.model.prompt == nil || t.sent {
		return
	}
	t.sent = true
	seq := t.model.prompt.Seq
	go func() {
		t.answer(choiceAnswer{seq: seq, err: t.seat.Choose(seq, a), sent: true})
	}()
}

// answer hands the seat's answer to the pump, or drops it once the screen
// has stopped.
func (t *TableScreen) answer(a choiceAnswer) {
	select {
	case t.answers <- a:
	case <-t.quit:
	}
}

// tryCard asks the seat about a card the person may not use now, so that
// the engine's reason can be told; the seat refuses it and nothing changes.
func (t *TableScreen) tryCard(c engine.Card) {
	p := t.model.prompt
	if p == nil {
		t.status = tr("table.wait", "Wait for your turn.")
		t.refresh()
		return
	}
	if p.Kind != engine.ActPlay {
		t.status = tr("table.not-this-card", "This card cannot be chosen now.")
		t.refresh()
		return
	}
	seq, you := p.Seq, t.model.you
	go func() {
		// A nil error means the prompt allowed it after all: the move goes
		// on as played.
		t.answer(choiceAnswer{seq: seq, err: t.seat.Choose(seq, engine.Action{Kind: engine.ActPlay, Seat: you, Card: c})})
	}()
}

// reason says in words why the seat refused a choice.
func (t *TableScreen) reason(err error) string {
	switch {
	case errors.Is(err, engine.ErrMustFollow):
		led := engine.NoColour
		if tr := t.model.trick; len(tr.Plays) > 0 && t.model.trickWon == nil {
			led = engine.SuitOf(tr.Plays[0].Card, t.model.view.Rules)
		}
		if led == t.model.view.Rules.Trump {
			return say(words.Msg{ID: "reason.must-follow.trump", Text: "trump was led and you hold a trump: play a trump (the supertrumps count as trumps)"})
		}
		return say(words.Msg{ID: "reason.must-follow", Text: "you must follow the led suit: play {{.Suit}}",
			Args: map[string]any{"Suit": words.Colour(led)}})
	case errors.Is(err, engine.ErrRenege):
		return say(words.Msg{ID: "reason.renege", Text: "that card is of a suit you showed earlier you do not hold"})
	case errors.Is(err, seat.ErrWithdrawn):
		return tr("table.withdrawn", "The table moved on before your answer.")
	case errors.Is(err, engine.ErrIllegalBlock):
		return say(words.Msg{ID: "reason.illegal-block", Text: "that field cannot be blocked"})
	case errors.Is(err, engine.ErrIllegalDiscard):
		return say(words.Msg{ID: "reason.illegal-discard", Text: "that discard is not allowed"})
	}
	return say(words.Msg{ID: "reason.unknown", Text: "that move was refused"})
}

// tapField blocks a field, or says why it cannot be blocked.
func (t *TableScreen) tapField(fs fieldState) {
	m := t.model
	if m.prompt == nil || m.prompt.Kind != engine.ActBlock {
		t.status = tr("table.board-not-now", "The board is not your move now.")
		t.refresh()
		return
	}
	if a, ok := m.blockAction(fs.Row, fs.Field); ok {
		t.send(a)
		return
	}
	e := m.view.Edition
	args := map[string]any{"Row": words.Row(e, fs.Row), "Field": wField(e, fs.Row, fs.Field)}
	if fs.By != -1 {
		t.status = say(words.Msg{ID: "reason.blocked", Text: "{{.Row}}: {{.Field}} is already blocked", Args: args})
	} else {
		t.status = say(words.Msg{ID: "reason.last-free", Text: "{{.Row}}: {{.Field}} is the last free field of its row, so it cannot be blocked", Args: args})
	}
	t.refresh()
}

// tapCard plays a card, or picks it for a discard or pass.
func (t *TableScreen) tapCard(c engine.Card) {
	m := t.model
	if !m.cardUsable(c) {
		t.tryCard(c)
		return
	}
	t.status = ""
	if a, ok := m.choose(c); ok {
		t.send(a)
		return
	}
	t.refresh()
}

// unpick puts a picked card back.
func (t *TableScreen) unpick(c engine.Card) {
	t.model.unchoose(c)
	t.refresh()
}

// confirm sends the picked cards.
func (t *TableScreen) confirm() {
	if a, ok := t.model.chosenAction(); ok {
		t.send(a)
	}
}

// nextRound closes the round summary.
func (t *TableScreen) nextRound() {
	if t.model.summary == nil {
		return
	}
	t.model.summary = nil
	t.refresh()
	select {
	case t.cont <- struct{}{}:
	default:
	}
}

// playAgain starts the same table again with a fresh deal.
func (t *TableScreen) playAgain() {
	if t.opt.OnAgain != nil {
		t.opt.OnAgain()
	}
}

// leaveOver closes the game-over view.
func (t *TableScreen) leaveOver() {
	if t.opt.OnGameOver != nil {
		t.opt.OnGameOver()
	}
}

// name is how the screen calls seat s.
func (t *TableScreen) name(s int) string {
	m := t.model
	own := ""
	if s >= 0 && s < len(m.seats) {
		own = m.seats[s].Name
	}
	return seatName(m.names, s, m.you, own)
}

// shortName fits a seat's name on a board field.
func (t *TableScreen) shortName(s int) string {
	n := []rune(t.name(s))
	if len(n) > 6 {
		n = append(n[:5], '.')
	}
	return string(n)
}

// wCharacter names a character; the words are the same in both editions.
func wCharacter(ch engine.Character) words.Msg {
	return words.Character(engine.Classic, ch)
}

// wField names a board field as the board shows it: words.Field, except
// that a field of the points row is its number alone.
func wField(e engine.Edition, r engine.Row, f engine.Field) words.Msg {
	switch {
	case r == engine.RowPoints:
		return words.Number(engine.PointsValue(f))
	case int(f) < e.Fields(r):
		return words.Field(e, r, f)
	}
	return words.Plain(e.FieldName(r, f))
}

// label makes a text of the given size and colour.
func label(s string, size float32, bold bool, col color.Color) *canvas.Text {
	t := canvas.NewText(s, col)
	t.TextSize = size
	t.TextStyle.Bold = bold
	return t
}

func feltRect() fyne.CanvasObject { return canvas.NewRectangle(feltColour) }

func emptyObj() fyne.CanvasObject { return canvas.NewRectangle(color.Transparent) }

// TypedKey plays the hand from the keyboard: the arrows move between the
// cards, Enter or Space taps the chosen one (or confirms a discard or
// pass when the picks are complete).
func (t *TableScreen) TypedKey(ev *fyne.KeyEvent) bool {
	n := len(t.cards)
	switch ev.Name {
	case fyne.KeyLeft:
		if n > 0 {
			t.focus = (max(t.focus, 0) + n - 1) % n
			t.refresh()
		}
		return true
	case fyne.KeyRight:
		if n > 0 {
			t.focus = (t.focus + 1) % n
			t.refresh()
		}
		return true
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		if _, ok := t.model.chosenAction(); ok {
			t.confirm()
			return true
		}
		if t.model.summary != nil {
			t.nextRound()
			return true
		}
		if t.focus >= 0 && t.focus < n {
			t.cards[t.focus].Tapped(&fyne.PointEvent{})
		}
		return true
	}
	return false
}

// TypedRune taps the card with that number: 1 is the first card of the
// hand, 0 the tenth.
func (t *TableScreen) TypedRune(r rune) bool {
	if r < '0' || r > '9' {
		return false
	}
	i := int(r - '1')
	if r == '0' {
		i = 9
	}
	if i < len(t.cards) {
		t.focus = i
		t.cards[i].Tapped(&fyne.PointEvent{})
	}
	return true
}

// refresh shows the model: each part changes what it shows in place.
func (t *TableScreen) refresh() {
	m := t.model
	if m.view.Players == 0 {
		return
	}
	if t.parts == nil {
		t.build()
	}
	p := t.parts
	p.info.update(t)
	p.seats.update(t)
	p.board.update(t)
	p.trick.update(t)
	p.bar.update(t)
	t.cards = t.cards[:0]
	var cards []fyne.CanvasObject
	picked := map[fyne.CanvasObject]bool{}
	for _, hc := range m.hand() {
		c := hc.Card
		cv := t.views.card(t.views.hand, c, func() { t.tapCard(c) },
			cardState{usable: hc.Legal, dim: hc.Dim, trump: hc.Trump, super: hc.Super, focused: !hc.Chosen && len(t.cards) == t.focus,
				lit: !hc.Chosen && t.hinted(c)})
		cards = append(cards, cv)
		if hc.Chosen {
			picked[cv] = true
		} else {
			t.cards = append(t.cards, cv)
		}
	}
	p.hand.set(cards, picked, t.lay.handShape())
	var over fyne.CanvasObject
	switch {
	case m.over != nil && m.summary == nil:
		if p.gameOver == nil {
			p.gameOver = t.gameOverView()
		}
		over = p.gameOver
	case m.summary != nil:
		if p.summary == nil || p.summaryOf != m.summary.Round {
			p.summary = t.summaryView(m.summary)
			p.summaryOf = m.summary.Round
		}
		over = p.summary
	}
	if over != p.over {
		p.over = over
		objs := []fyne.CanvasObject{p.felt, p.info.view, p.scroll}
		if over != nil {
			objs = append(objs, over)
		}
		t.root.Objects = objs
		t.root.Refresh()
	} else if sz := t.root.Size(); sz.Width > 0 && sz.Height > 0 {
		// The info bar's height follows its words; the rest follows it.
		t.root.Layout.Layout(t.root.Objects, sz)
	}
	p.body.Refresh()
	t.scrollToQuestion()
}

// scrollToQuestion brings a new question into view where the table
// scrolls (the small shape): the board for a block, else the action bar,
// with the hand under it.
func (t *TableScreen) scrollToQuestion() {
	p, q := t.parts, t.model.prompt
	if q == nil || q.Seq == t.scrolledFor || t.lay.shape != shapeSmall {
		return
	}
	t.scrolledFor = q.Seq
	target := p.bar.view
	if q.Kind == engine.ActBlock {
		target = p.board.view
	}
	// The parts' places follow from the stack, whether or not the scroll
	// container has laid them out yet.
	in := t.lay.inset()
	var at, y float32
	for _, part := range t.lay.stack(t.lay.view.Width - 2*in) {
		if part.o == target {
			at = y
		}
		y += part.h + in
	}
	// The scroll container keeps its offset within its content's size,
	// which it would set only at the next frame.
	p.body.Resize(fyne.NewSize(p.scroll.Size().Width, max(y, t.lay.view.Height)))
	p.scroll.ScrollToOffset(fyne.NewPos(0, min(max(at-in, 0), max(y-t.lay.view.Height, 0))))
}
