package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
)

// trickView shows the trick in the middle: each card under the name of the
// seat that played it, in the order played; once won, the winner's card is
// lit and a line says who took it and why. With peek set it shows the last
// complete trick again.
func (t *TableScreen) trickView() fyne.CanvasObject {
	m := t.model
	bg := canvas.NewRectangle(feltDark)
	bg.CornerRadius = 10
	tr0 := m.trick
	won := m.trickWon
	if t.peek && m.last != nil {
		tr0, won = m.last.Trick, m.last
	}
	var head string
	switch {
	case t.peek && won != nil:
		head = tr("table.last-trick", "Last trick ({{.N}})", map[string]any{"N": won.N})
	case m.view.Phase == engine.PhaseTricks || won != nil:
		n := len(m.view.Tricks) + 1
		if won != nil {
			n = won.N
		}
		head = tr("table.trick", "Trick {{.N}}", map[string]any{"N": n})
	case m.view.Phase == engine.PhaseDiscard:
		head = tr("table.discarding", "Discarding")
	default:
		head = ""
	}
	plays := container.New(layout.NewGridLayoutWithColumns(max(m.view.Players, 1)))
	for _, p := range tr0.Plays {
		var st cardState
		st.trump, st.super = m.trumpMarks(p.Card)
		st.usable = won != nil && p.Seat == won.Trick.Winner // lit: the winning card
		cv := t.views.card(t.views.trick, p.Card, nil, st)
		name := label(t.name(p.Seat), 13, true, white)
		name.Alignment = fyne.TextAlignCenter
		box := container.NewBorder(name, nil, nil, nil, container.NewCenter(container.NewGridWrap(fyne.NewSize(60, 85), cv)))
		plays.Add(box)
	}
	parts := []fyne.CanvasObject{label(head, 16, true, white), plays}
	if won != nil {
		parts = append(parts, t.wonLine(won))
	}
	if m.received != engine.NoCard && m.view.Phase == engine.PhaseTricks && len(m.view.Tricks) == 0 && len(tr0.Plays) == 0 {
		from := (m.you + m.view.Players - 1) % max(m.view.Players, 1)
		parts = append(parts, t.wrapText(say(words.Msg{ID: "action.received.you", Text: "You received {{.Card}} from {{.From}}.",
			Args: map[string]any{"Card": words.Card(m.received), "From": words.Plain(t.name(from))}}), 15, true))
	}
	return container.NewStack(bg, container.NewPadded(container.NewVBox(parts...)))
}

// wonLine says who took the trick, with which card and why (R-WIN).
func (t *TableScreen) wonLine(w *seat.TrickWon) fyne.CanvasObject {
	args := map[string]any{"Seat": words.Plain(t.name(w.Trick.Winner)), "N": w.N, "Card": words.Card(w.Why.Card), "Why": words.WinReason(w.Why)}
	id, en := "trick.won", "{{.Seat}} takes trick {{.N}} with {{.Card}} ({{.Why}})."
	you := w.Trick.Winner == t.model.you
	if you {
		id, en = "trick.won.you", "You take trick {{.N}} with {{.Card}} ({{.Why}})."
	}
	if len(w.Trick.Loot) > 0 {
		var loot []words.Msg
		for _, c := range w.Trick.Loot {
			loot = append(loot, words.Card(c))
		}
		args["Loot"] = words.List(loot)
		id, en = "trick.won.loot", "{{.Seat}} takes trick {{.N}} with {{.Card}} ({{.Why}}) and the loot {{.Loot}}."
		if you {
			id, en = "trick.won.loot.you", "You take trick {{.N}} with {{.Card}} ({{.Why}}) and the loot {{.Loot}}."
		}
	}
	return t.wrapText(say(words.Msg{ID: id, Text: en, Args: args}), 16, true)
}

// wrapText is text in the table's light colour, wrapped at word breaks.
func (t *TableScreen) wrapText(s string, size float32, bold bool) fyne.CanvasObject {
	return wrapCol(&t.lay.colW, s, size, bold, white)
}

func wrapCol(width *float32, s string, size float32, bold bool, col color.Color) fyne.CanvasObject {
	var objs []fyne.CanvasObject
	for _, w := range strings.Fields(s) {
		objs = append(objs, label(w, size, bold, col))
	}
	return container.New(&flowLayout{width: width, gap: size * 0.3}, objs...)
}
