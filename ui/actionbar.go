package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// actionBar says what is asked of the person in words, with the controls
// that answer it: the team choices, the picked cards of a discard or pass
// and their confirm button. It also tells whom the table waits for, why the
// last tap did nothing, and offers the last trick again. Its objects are
// made once; the team buttons and the picked cards' places are kept in
// pools that only grow.
type actionBar struct {
	view    *fyne.Container
	content *fyne.Container // what the bar shows, at its natural height
	padded  *fyne.Container // the content, padded
	scroll  *container.Scroll
	scrolls bool // the bar shows its content in scroll
	bg      *canvas.Rectangle
	prompt  *phrase
	help    *phrase
	teams   *fyne.Container
	team    []*choiceButton
	teamAct []engine.Action
	discard *fyne.Container // the picked cards and the confirm button
	picked  *fyne.Container
	slots   []*fyne.Container // each holds a picked card or an empty place
	confirm *widget.Button
	wait    *phrase
	status  *phrase
	lastRow *fyne.Container
	last    *widget.Button
	hint    *widget.Button // asks the strong bot's move, on the person's turn
	// hint stands in hintRow (beside the last trick's button) or, at a
	// discard or pass, in hintDiscard, beside the confirm button.
	hintRow, hintDiscard *fyne.Container
	hinted               *phrase             // the hint in words
	frames               []fyne.CanvasObject // the empty places of cards to pick
}

func newActionBar(t *TableScreen) *actionBar {
	b := &actionBar{
		prompt: newPhrase(&t.lay.colW, 18, true, white),
		help:   newPhrase(&t.lay.colW, 14, false, white),
		wait:   newPhrase(&t.lay.colW, 16, false, white),
		status: newPhrase(&t.lay.colW, 15, true, gold),
		hinted: newPhrase(&t.lay.colW, 15, true, gold),
	}
	b.bg = canvas.NewRectangle(panelColour)
	b.bg.CornerRadius = 8
	b.teams = container.New(reach.Named(reach.RegionTeams, layout.NewVBoxLayout()))
	b.picked = container.New(reach.Named(reach.RegionPicked, layout.NewHBoxLayout()))
	b.confirm = widget.NewButton("", t.confirm)
	b.confirm.Importance = widget.HighImportance
	b.hint = widget.NewButtonWithIcon(tr("again.hint.button", "Hint"), theme.HelpIcon(), t.askHint)
	b.hintRow, b.hintDiscard = container.NewStack(b.hint), container.NewStack()
	b.discard = container.New(&flowLayout{width: &t.lay.colW, gap: 12}, b.picked, container.NewCenter(b.confirm), b.hintDiscard)
	b.last = widget.NewButton("", func() { t.peek = !t.peek; t.refresh() })
	b.lastRow = container.NewHBox(layout.NewSpacer(), b.hintRow, b.last)
	b.content = container.NewVBox(reach.Region(reach.RegionPrompt, b.prompt.object()), b.help.object(), b.teams, b.discard,
		b.wait.object(), b.status.object(), b.hinted.object(), b.lastRow)
	b.padded = container.NewPadded(b.content)
	b.scroll = container.NewVScroll(b.padded)
	b.scrolls = true
	b.view = reach.Region("bar", b.bg, b.scroll)
	return b
}

// setScrolls has the bar scroll its parts where it is shorter than they
// are, or not: where the whole table scrolls (the small shape), a scroll
// container inside it would take the finger's drags and the wheel from
// the table's.
func (b *actionBar) setScrolls(on bool) {
	if on == b.scrolls {
		return
	}
	b.scrolls = on
	if on {
		b.scroll.Content = b.padded
		b.view.Objects = []fyne.CanvasObject{b.bg, b.scroll}
	} else {
		b.scroll.Content = emptyObj()
		b.view.Objects = []fyne.CanvasObject{b.bg, b.padded}
	}
	b.scroll.Refresh()
	b.view.Refresh()
}

// heightFor is the bar's natural height at width w: its parts one under
// the other, each as high as it is at that width. It is reckoned here,
// not asked of the parts, whose wrapped words know their height only for
// the width they were last laid out at.
func (b *actionBar) heightFor(w float32) float32 {
	pad := theme.Padding()
	inner := w - 2*pad // the bar's padding
	var hs []float32
	for _, o := range b.content.Objects {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		switch o {
		case b.prompt.object(), b.help.object(), b.wait.object(), b.status.object(), b.hinted.object():
			for _, ph := range []*phrase{b.prompt, b.help, b.wait, b.status, b.hinted} {
				if ph.object() == o {
					h = ph.heightFor(inner)
				}
			}
		case b.teams:
			h = 0
			n := 0
			for _, c := range b.team {
				if c.Visible() {
					h += c.heightFor(inner)
					n++
				}
			}
			h += float32(max(n-1, 0)) * pad
		}
		if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 1 && c.Objects[0] == b.prompt.object() {
			h = b.prompt.heightFor(inner)
		}
		hs = append(hs, h)
	}
	total := 2 * pad
	for i, h := range hs {
		total += h
		if i > 0 {
			total += pad
		}
	}
	return total
}

// update shows the question open in the model.
func (b *actionBar) update(t *TableScreen) {
	m := t.model
	p := m.prompt
	stroke := float32(0)
	if p != nil {
		stroke = 3
	}
	if b.bg.StrokeWidth != stroke {
		b.bg.StrokeColor, b.bg.StrokeWidth = gold, stroke
		b.bg.Refresh()
	}
	ask, help, wait := "", "", ""
	switch {
	case p != nil:
		ask = t.promptText()
	case m.summary == nil && m.over == nil:
		wait = t.waitText()
	}
	b.prompt.style(t.askSize(), true, white)
	b.prompt.set(ask)
	var teams []engine.Action
	if p != nil && p.Kind == engine.ActTeam {
		help = t.teamHelp()
		teams = m.teamChoices()
	}
	b.help.set(help)
	b.setTeams(t, teams)
	discard := p != nil && (p.Kind == engine.ActDiscard || p.Kind == engine.ActPass)
	b.setDiscard(t, discard)
	b.wait.set(wait)
	b.status.set(t.status)
	b.hinted.set(t.hintText())
	offer := p != nil && t.opt.Hints
	show(b.hint, offer)
	b.placeHint(discard)
	show(b.hintDiscard, offer)
	if offer && (t.hinting || t.currentHint() != nil) {
		b.hint.Disable()
	} else {
		b.hint.Enable()
	}
	lastOn := m.last != nil && m.summary == nil && m.over == nil
	show(b.last, lastOn)
	show(b.lastRow, lastOn || offer && !discard)
	txt := tr("table.show-last", "Show the last trick")
	if t.peek {
		txt = tr("table.hide-last", "Back to the table")
	}
	if b.last.Text != txt {
		b.last.SetText(txt)
	}
	b.content.Refresh()
}

// placeHint puts the hint button beside the confirm button of a discard
// or pass, so that the bar needs no row of its own for it (a phone held
// sideways has no room for one), and back in the row of the last trick's
// button otherwise.
func (b *actionBar) placeHint(discard bool) {
	to, from := b.hintRow, b.hintDiscard
	if discard {
		to, from = b.hintDiscard, b.hintRow
	}
	if len(to.Objects) > 0 {
		return
	}
	from.Objects = nil
	to.Objects = []fyne.CanvasObject{b.hint}
	from.Refresh()
	to.Refresh()
}

// setTeams shows a button per team choice.
func (b *actionBar) setTeams(t *TableScreen, choices []engine.Action) {
	for len(b.team) < len(choices) {
		i := len(b.team)
		btn := newChoiceButton(func() {
			if i < len(b.teamAct) {
				t.send(b.teamAct[i])
			}
		})
		b.team = append(b.team, btn)
		b.teams.Add(btn)
	}
	b.teamAct = choices
	h := t.currentHint()
	for i, btn := range b.team {
		show(btn, i < len(choices))
		if i < len(choices) {
			btn.setText(t.teamText(choices[i]))
		}
		btn.setHinted(h != nil && i < len(choices) && h.a == choices[i])
	}
	show(b.teams, len(choices) > 0)
}

// setDiscard shows the picked cards of a discard or pass, the places of
// the ones still to pick, and the confirm button.
func (b *actionBar) setDiscard(t *TableScreen, on bool) {
	show(b.discard, on)
	if !on {
		return
	}
	m := t.model
	need := max(m.needed(), len(m.chosen))
	for len(b.slots) < need {
		h := container.NewGridWrap(fyne.NewSize(52, 74), b.slotFrame(len(b.slots)))
		b.slots = append(b.slots, h)
		b.picked.Add(h)
	}
	for i, h := range b.slots {
		show(h, i < need)
		var o fyne.CanvasObject
		if i < len(m.chosen) {
			c := m.chosen[i]
			o = t.views.card(t.views.picked, c, func() { t.unpick(c) }, cardState{usable: true})
		} else {
			o = b.slotFrame(i)
		}
		if len(h.Objects) != 1 || h.Objects[0] != o {
			h.Objects = []fyne.CanvasObject{o}
			h.Refresh()
		}
	}
	if txt := t.confirmText(); b.confirm.Text != txt {
		b.confirm.SetText(txt)
	}
	if _, ok := m.chosenAction(); ok {
		b.confirm.Enable()
	} else {
		b.confirm.Disable()
	}
}

// slotFrame is the empty place of the i-th card to pick.
func (b *actionBar) slotFrame(i int) fyne.CanvasObject {
	for len(b.frames) <= i {
		f := canvas.NewRectangle(color.Transparent)
		f.StrokeColor, f.StrokeWidth, f.CornerRadius = gold, 2, 6
		b.frames = append(b.frames, f)
	}
	return b.frames[i]
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
	if t.lay.portrait() || t.lay.compact() {
		return 16
	}
	return 18
}
