package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/words"
)

// actionBar says what is asked of the person in words, with the controls
// that answer it: the team choices, the picked cards of a discard or pass
// and their confirm button. It also tells whom the table waits for, why the
// last tap did nothing, and offers the last trick again.
func (t *TableScreen) actionBar() (fyne.CanvasObject, []tapper, []*cardView) {
	m := t.model
	var bar []tapper
	var picked []*cardView
	bg := canvas.NewRectangle(color.NRGBA{R: 0x0d, G: 0x2b, B: 0x1a, A: 0xff})
	bg.CornerRadius = 8
	var parts []fyne.CanvasObject
	ask := ""
	if p := m.prompt; p != nil {
		bg.StrokeColor, bg.StrokeWidth = gold, 3
		ask = t.promptText()
		switch p.Kind {
		case engine.ActTeam:
			grid := container.New(layout.NewGridLayoutWithColumns(1))
			for _, a := range m.teamChoices() {
				b := widget.NewButton(t.teamText(a), func() { t.send(a) })
				b.Importance = widget.HighImportance
				bar = append(bar, b)
				grid.Add(b)
			}
			help := t.teamHelp()
			parts = append(parts, t.wrapText(ask, t.askSize(), true), t.wrapText(help, 14, false), grid)
		case engine.ActDiscard, engine.ActPass:
			_, ok := m.chosenAction()
			b := widget.NewButton(t.confirmText(), t.confirm)
			b.Importance = widget.HighImportance
			if !ok {
				b.Disable()
			}
			bar = append(bar, b)
			row := container.NewHBox()
			for _, c := range m.chosen {
				c := c
				cv := t.views.card(t.views.picked, c, func() { t.unpick(c) }, cardState{usable: true})
				picked = append(picked, cv)
				row.Add(container.NewGridWrap(fyne.NewSize(52, 74), cv))
			}
			slots := t.model.needed() - len(m.chosen)
			for range max(slots, 0) {
				slot := canvas.NewRectangle(color.Transparent)
				slot.StrokeColor, slot.StrokeWidth, slot.CornerRadius = gold, 2, 6
				row.Add(container.NewGridWrap(fyne.NewSize(52, 74), slot))
			}
			parts = append(parts, t.wrapText(ask, t.askSize(), true), container.NewBorder(nil, nil, row, nil, container.NewCenter(b)))
		default:
			parts = append(parts, t.wrapText(ask, t.askSize(), true))
		}
	} else if m.summary == nil && m.over == nil {
		parts = append(parts, t.wrapText(t.waitText(), 16, false))
	}
	if t.status != "" {
		parts = append(parts, wrapCol(&t.lay.colW, t.status, 15, true, gold))
	}
	if m.last != nil && m.summary == nil && m.over == nil {
		txt := tr("table.show-last", "Show the last trick")
		if t.peek {
			txt = tr("table.hide-last", "Back to the table")
		}
		parts = append(parts, container.NewHBox(layout.NewSpacer(), widget.NewButton(txt, func() { t.peek = !t.peek; t.render() })))
	}
	return container.NewStack(bg, container.NewPadded(container.NewVBox(parts...))), bar, picked
}

// promptText says what the open question asks.
func (t *TableScreen) promptText() string {
	m := t.model
	p := m.prompt
	switch p.Kind {
	case engine.ActBlock:
		return say(words.Msg{ID: "prompt.block", Text: "Your turn: block one free field (a row's last free field cannot be blocked)."})
	case engine.ActTeam:
		return say(words.Msg{ID: "prompt.teams", Text: "Your turn: you are the start player, choose your team."})
	case engine.ActPass:
		to := (m.you + 1) % max(m.view.Players, 1)
		return say(words.Msg{ID: "prompt.pass", Text: "Your turn: pass 1 card to {{.To}}.", Args: map[string]any{"To": words.Plain(t.name(to))}})
	case engine.ActDiscard:
		switch m.view.Rules.Discard {
		case engine.Discard2:
			return say(words.Msg{ID: "prompt.discard.two", Text: "Your turn: discard 2 cards."})
		case engine.Discard1NoOnes:
			return say(words.Msg{ID: "prompt.discard.one-not-one", Text: "Your turn: discard 1 card, not a 1."})
		}
		return say(words.Msg{ID: "prompt.discard.one", Text: "Your turn: discard 1 card."})
	}
	if len(m.trick.Plays) == 0 || m.trickWon != nil {
		return say(words.Msg{ID: "prompt.lead", Text: "Your turn: lead a card."})
	}
	return say(words.Msg{ID: "prompt.play", Text: "Your turn: play a card."})
}

// waitText says whom the table waits for.
func (t *TableScreen) waitText() string {
	m := t.model
	if m.turn < 0 || m.turn == m.you {
		return tr("table.waiting", "…")
	}
	return tr("table.waiting-for", "{{.Seat}} is thinking…", map[string]any{"Seat": t.name(m.turn)})
}

// confirmText labels the confirm button of a discard or pass.
func (t *TableScreen) confirmText() string {
	if t.model.prompt.Kind == engine.ActPass {
		return tr("table.confirm-pass", "Pass this card")
	}
	return trn("table.confirm-discard", "Discard these cards", t.model.needed())
}

// teamHelp explains the team choice for the player count.
func (t *TableScreen) teamHelp() string {
	switch t.model.view.Players {
	case 3:
		return say(words.Msg{ID: "team.help.three", Text: "With 3 players it is always two against one: the player alone counts double."})
	case 4:
		return say(words.Msg{ID: "team.help.four", Text: "With 4 players you choose one partner; the other two play together."})
	}
	return say(words.Msg{ID: "team.help.five", Text: "With 5 players it is three against two. One partner makes a team of two, two partners a team of three. The x2 card doubles its holder's round score and always goes to a member of the team of two: keep it or give it."})
}

// teamText describes one team choice.
func (t *TableScreen) teamText(a engine.Action) string {
	m := t.model
	n := m.view.Players
	var partners, others []words.Msg
	for s := range n {
		switch {
		case s == a.Seat:
		case a.Partners&(1<<s) != 0:
			partners = append(partners, words.Plain(t.name(s)))
		default:
			others = append(others, words.Plain(t.name(s)))
		}
	}
	switch {
	case len(partners) == 0:
		return say(words.Msg{ID: "team.alone", Text: "play alone against {{.Others}}; you count double", Args: map[string]any{"Others": words.List(others)}})
	case n == 3:
		return say(words.Msg{ID: "team.partner.three", Text: "team with {{.Partner}}; {{.Solo}} plays alone and counts double",
			Args: map[string]any{"Partner": partners[0], "Solo": others[0]}})
	case n == 4:
		return say(words.Msg{ID: "team.partner.four", Text: "team with {{.Partner}} against {{.Others}}",
			Args: map[string]any{"Partner": partners[0], "Others": words.List(others)}})
	case len(partners) == 1 && a.Bonus == a.Seat:
		return say(words.Msg{ID: "team.two.keep", Text: "team of two with {{.Partner}}; you keep the x2 card", Args: map[string]any{"Partner": partners[0]}})
	case len(partners) == 1:
		return say(words.Msg{ID: "team.two.give", Text: "team of two with {{.Partner}}; {{.Partner}} gets the x2 card", Args: map[string]any{"Partner": partners[0]}})
	}
	return say(words.Msg{ID: "team.three", Text: "team of three with {{.Partners}}; {{.Bonus}} of the other two gets the x2 card",
		Args: map[string]any{"Partners": words.List(partners), "Bonus": words.Plain(t.name(a.Bonus))}})
}

// askSize is the size of the question's text: smaller on a phone.
func (t *TableScreen) askSize() float32 {
	if t.lay.portrait {
		return 16
	}
	return 18
}
