package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// trickPanel shows the trick in the middle: each card under the name of
// the seat that played it, in the order played. Once the trick is won its
// head says who took it, the winning card is lit and a line says with
// which card and why, with the loot; it stays so until the next card is
// played. With peek set it shows the last complete trick again. Its
// objects are made once.
type trickPanel struct {
	view     *fyne.Container
	head     *phrase
	slots    *fyne.Container
	names    []*canvas.Text
	holders  []*fyne.Container // each holds a played card, or nothing
	won      *phrase
	received *phrase
	cardSize fyne.Size
}

func newTrickPanel(t *TableScreen, players int) *trickPanel {
	p := &trickPanel{
		head:     newPhrase(&t.lay.colW, 16, true, white),
		won:      newPhrase(&t.lay.colW, 15, true, white),
		received: newPhrase(&t.lay.colW, 15, true, white),
		cardSize: fyne.NewSize(60, 85),
	}
	p.slots = container.New(layout.NewGridLayoutWithColumns(max(players, 1)))
	for range max(players, 1) {
		name := label("", 13, true, white)
		name.Alignment = fyne.TextAlignCenter
		h := container.NewGridWrap(p.cardSize)
		p.names, p.holders = append(p.names, name), append(p.holders, h)
		p.slots.Add(container.NewBorder(name, nil, nil, nil, container.NewCenter(h)))
	}
	bg := canvas.NewRectangle(feltDark)
	bg.CornerRadius = 10
	p.view = reach.Region(reach.RegionTrick, bg, container.NewPadded(container.NewVBox(p.head.object(), p.slots, p.won.object(), p.received.object())))
	return p
}

// update shows the model's trick.
func (p *trickPanel) update(t *TableScreen) {
	m := t.model
	size := fyne.NewSize(60, 85)
	if t.lay.shape == shapeLow || t.lay.shape == shapeSmall {
		size = fyne.NewSize(46, 65) // short of height
	}
	if size != p.cardSize {
		p.cardSize = size
		for _, h := range p.holders {
			h.Layout = layout.NewGridWrapLayout(size)
			h.Refresh()
		}
	}
	tr0, won := m.trick, m.trickWon
	if t.peek && m.last != nil {
		tr0, won = m.last.Trick, m.last
	}
	head, headCol := "", color.Color(white)
	switch {
	case won != nil:
		head, headCol = t.wonHead(won), gold
		if t.peek {
			head = tr("table.last-trick", "Last trick ({{.N}})", map[string]any{"N": won.N}) + ": " + head
		}
	case m.view.Phase == engine.PhaseTricks:
		head = tr("table.trick", "Trick {{.N}}", map[string]any{"N": m.trickNumber()})
	case m.view.Phase == engine.PhaseDiscard:
		head = tr("table.discarding", "Discarding")
	}
	p.head.style(16, true, headCol)
	p.head.set(head)
	for i := range p.holders {
		name, card := "", fyne.CanvasObject(nil)
		if i < len(tr0.Plays) {
			pl := tr0.Plays[i]
			var st cardState
			st.trump, st.super = m.trumpMarks(pl.Card)
			st.lit = won != nil && pl.Seat == won.Trick.Winner
			card = t.views.card(t.views.trick, pl.Card, nil, st)
			name = t.name(pl.Seat)
		}
		setText(p.names[i], name)
		h := p.holders[i]
		switch {
		case card == nil && len(h.Objects) > 0:
			h.Objects = nil
			h.Refresh()
		case card != nil && (len(h.Objects) != 1 || h.Objects[0] != card):
			h.Objects = []fyne.CanvasObject{card}
			h.Refresh()
		}
	}
	show(p.slots, len(tr0.Plays) > 0) // an empty trick takes no room
	why := ""
	if won != nil {
		why = t.wonLine(won)
	}
	p.won.set(why)
	got := ""
	if m.received != engine.NoCard && m.view.Phase == engine.PhaseTricks && len(m.view.Tricks) == 0 && len(tr0.Plays) == 0 {
		from := (m.you + m.view.Players - 1) % max(m.view.Players, 1)
		got = say(words.Msg{ID: "action.received.you", Text: "You received {{.Card}} from {{.From}}.",
			Args: map[string]any{"Card": words.Card(m.received), "From": words.Plain(t.name(from))}})
	}
	p.received.set(got)
}

// wonHead says who took the trick, in the panel's head.
func (t *TableScreen) wonHead(w *seat.TrickWon) string {
	if w.Trick.Winner == t.model.you {
		return say(words.Msg{ID: "trick.head.you", Text: "You take trick {{.N}}", Args: map[string]any{"N": w.N}})
	}
	return say(words.Msg{ID: "trick.head", Text: "{{.Seat}} takes trick {{.N}}", Args: map[string]any{"Seat": words.Plain(t.name(w.Trick.Winner)), "N": w.N}})
}

// wonLine says with which card the trick was taken and why (R-WIN), and
// the loot; the head says who took it.
func (t *TableScreen) wonLine(w *seat.TrickWon) string {
	args := map[string]any{"Card": words.Card(w.Why.Card), "Why": words.WinReason(w.Why)}
	if len(w.Trick.Loot) == 0 {
		return say(words.Msg{ID: "trick.why", Text: "with {{.Card}} ({{.Why}}).", Args: args})
	}
	var loot []words.Msg
	for _, c := range w.Trick.Loot {
		loot = append(loot, words.Card(c))
	}
	args["Loot"] = words.List(loot)
	return say(words.Msg{ID: "trick.why.loot", Text: "with {{.Card}} ({{.Why}}); loot: {{.Loot}}.", Args: args})
}
