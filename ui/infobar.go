package ui

import (
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// infoBar is the bar that is always visible: the way home, the round of
// the total, the round's rules once decided (trump, supertrump, points per
// trick, discard) and the running scores. Its objects are made once; each
// event only changes their words and shows or hides them.
type infoBar struct {
	view    *fyne.Container
	flow    *fyne.Container
	home    *widget.Button // nil without a way home (a LAN table has its own)
	homeBox *fyne.Container
	round   *canvas.Text
	// the round's rules
	trump, super                   *fyne.Container
	trumpLabel, trumpName          *canvas.Text
	superLabel, superName          *canvas.Text
	trumpChip, superChip           *chip
	superNone                      *canvas.Text
	perTrick, discard, scoresLabel *canvas.Text
	njet                           []*canvas.Text // the Njet phase's words
	njetText                       string
	scores                         []*canvas.Text // by seat
	chips                          []*canvas.Rectangle
	scoreBox                       []fyne.CanvasObject
}

func newInfoBar(t *TableScreen, onHome func()) *infoBar {
	b := &infoBar{round: label("", 16, true, white)}
	var items []fyne.CanvasObject
	if onHome != nil {
		b.home = widget.NewButtonWithIcon(tr("table.home", "Home"), theme.HomeIcon(), onHome)
		b.homeBox = container.New(&homeButtonLayout{}, b.home)
		items = append(items, b.homeBox)
	}
	items = append(items, b.round)
	b.trumpLabel, b.trumpName = label("", 15, false, white), label("", 15, true, white)
	b.superLabel, b.superName = label("", 15, false, white), label("", 15, true, white)
	b.trumpChip, b.superChip = newChip(), newChip()
	b.superNone = label("", 15, true, white)
	b.trump = container.NewHBox(b.trumpLabel, b.trumpChip.view, b.trumpName)
	b.super = container.NewHBox(b.superLabel, b.superChip.view, b.superName, b.superNone)
	b.perTrick, b.discard = label("", 15, true, gold), label("", 15, false, white)
	b.scoresLabel = label("", 15, false, white)
	items = append(items, b.trump, b.super, b.perTrick, b.discard, b.scoresLabel)
	b.flow = container.New(&flowLayout{width: &t.lay.width, gap: 14, joined: map[fyne.CanvasObject]bool{}, space: 4}, items...)
	bg := canvas.NewRectangle(color.NRGBA{R: 0x10, G: 0x33, B: 0x20, A: 0xff})
	bg.CornerRadius = 8
	b.view = reach.Region("info", bg, container.NewPadded(b.flow))
	return b
}

// chip is a colour's mark on a card-coloured square.
type chip struct {
	view fyne.CanvasObject
	pad  *fyne.Container
}

func newChip() *chip {
	bg := canvas.NewRectangle(cardFace)
	bg.CornerRadius = 4
	c := &chip{pad: container.NewPadded(emptyObj())}
	c.view = container.NewCenter(container.NewGridWrap(fyne.NewSize(20, 20), container.NewStack(bg, c.pad)))
	return c
}

// set shows mark.
func (c *chip) set(mark fyne.CanvasObject) {
	if len(c.pad.Objects) == 1 && c.pad.Objects[0] == mark {
		return
	}
	c.pad.Objects = []fyne.CanvasObject{mark}
	c.pad.Refresh()
}

// setText changes a text when it differs, and reports whether it did.
func setText(t *canvas.Text, s string) bool {
	if t.Text == s {
		return false
	}
	t.Text = s
	t.Refresh()
	return true
}

// show shows or hides o, when it is not so already.
func show(o fyne.CanvasObject, on bool) {
	switch {
	case on && !o.Visible():
		o.Show()
	case !on && o.Visible():
		o.Hide()
	}
}

// heightFor is the bar's height at width w: its items wrapped at that
// width, whatever width they were last laid out at.
func (b *infoBar) heightFor(w float32) float32 {
	in := 2 * theme.Padding()
	lay := b.flow.Layout.(*flowLayout)
	return lay.rows(b.flow.Objects, w-in, false).Height + in
}

// update shows the model's state.
func (b *infoBar) update(t *TableScreen) {
	m := t.model
	v := m.view
	size := float32(15)
	if t.lay.compact() {
		size = 13
	}
	changed := false
	if b.home != nil {
		// Upright or small, the house alone says it.
		txt := tr("table.home", "Home")
		if t.lay.portrait() || t.lay.compact() {
			txt = ""
		}
		if b.home.Text != txt {
			b.home.SetText(txt)
			changed = true
		}
	}
	changed = setText(b.round, t.roundText()) || changed
	for _, x := range []*canvas.Text{b.trumpLabel, b.trumpName, b.superLabel, b.superName, b.superNone, b.perTrick, b.discard, b.scoresLabel} {
		if x.TextSize != size {
			x.TextSize = size
			x.Refresh()
			changed = true
		}
	}
	rules := m.rulesSet || v.Phase >= engine.PhaseTeams
	show(b.trump, rules)
	show(b.super, rules)
	show(b.perTrick, rules)
	show(b.discard, rules)
	if rules {
		r := v.Rules
		changed = setText(b.trumpLabel, say(words.Row(v.Edition, engine.RowTrump))+":") || changed
		changed = setText(b.trumpName, say(words.Colour(r.Trump))) || changed
		b.trumpChip.set(t.views.chip(0, r.Trump))
		changed = setText(b.superLabel, say(words.Row(v.Edition, engine.RowSuper))+":") || changed
		none := r.Super == engine.NoColour
		show(b.superChip.view, !none)
		show(b.superName, !none)
		show(b.superNone, none)
		if none {
			changed = setText(b.superNone, say(words.Msg{ID: "field.super.njet", Text: "none"})) || changed
		} else {
			b.superChip.set(t.views.chip(1, r.Super))
			changed = setText(b.superName, say(words.Colour(r.Super))+" 1") || changed
		}
		changed = setText(b.perTrick, tr("table.per-trick", "{{.Value}} per trick", map[string]any{"Value": r.Points})) || changed
		changed = setText(b.discard, say(wField(v.Edition, engine.RowDiscard, r.Discard))) || changed
	}
	njet := ""
	if !rules && !t.lay.compact() { // short of room, the prompt says it
		njet = tr("table.njet-phase", "Njet! Block fields to set the round's rules")
	}
	if njet != b.njetText {
		b.njetText = njet
		b.setNjet(strings.Fields(njet), size)
		changed = true
	}
	changed = setText(b.scoresLabel, tr("table.scores", "Scores:")) || changed
	show(b.scoresLabel, !t.lay.compact()) // the seats' colours say whose score
	changed = b.setScores(t, size) || changed
	if changed {
		b.flow.Refresh()
	}
}

// setNjet shows the Njet phase's words after the round, joined as text.
func (b *infoBar) setNjet(ws []string, size float32) {
	lay := b.flow.Layout.(*flowLayout)
	for len(b.njet) < len(ws) {
		w := label("", size, false, white)
		if len(b.njet) > 0 {
			lay.joined[w] = true
		}
		b.njet = append(b.njet, w)
		// after the round and the rules, before the scores
		at := len(b.flow.Objects) - 1 - len(b.scoreBox)
		b.flow.Objects = append(b.flow.Objects[:at], append([]fyne.CanvasObject{w}, b.flow.Objects[at:]...)...)
	}
	for i, w := range b.njet {
		show(w, i < len(ws))
		if i < len(ws) {
			w.TextSize = size
			setText(w, ws[i])
		}
	}
}

// setScores shows each seat's running total.
func (b *infoBar) setScores(t *TableScreen, size float32) bool {
	changed := false
	totals := t.model.totals()
	for len(b.scores) < len(totals) {
		s := len(b.scores)
		chip := canvas.NewRectangle(seatColour(s))
		chip.CornerRadius = 4
		chip.SetMinSize(fyne.NewSize(10, 10))
		txt := label("", size, true, white)
		box := container.NewHBox(container.NewCenter(chip), txt)
		b.scores, b.chips, b.scoreBox = append(b.scores, txt), append(b.chips, chip), append(b.scoreBox, box)
		b.flow.Objects = append(b.flow.Objects, box)
		changed = true
	}
	for s, tot := range totals {
		x := b.scores[s]
		if x.TextSize != size {
			x.TextSize = size
			x.Refresh()
			changed = true
		}
		changed = setText(x, t.shortName(s)+" "+strconv.Itoa(tot)) || changed
	}
	return changed
}

// roundText names the round of the total: "Round 3 of 8", or in a
// target-score game "Round 3 · to 50 points".
func (t *TableScreen) roundText() string {
	m := t.model
	n := m.view.Round
	switch {
	case m.rounds > 0:
		return tr("table.round", "Round {{.N}} of {{.Of}}", map[string]any{"N": n, "Of": m.rounds})
	case m.target > 0:
		return tr("table.round-target", "Round {{.N}} · to {{.Target}} points", map[string]any{"N": n, "Target": m.target})
	}
	return tr("table.round-open", "Round {{.N}}", map[string]any{"N": n})
}

// homeButtonLayout gives the Home button a fingertip's height, no more, so that
// the info bar stays one line of text high; with its word it is as wide
// as it needs.
type homeButtonLayout struct{}

func (homeButtonLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (homeButtonLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := float32(reach.Fingertip + 2)
	for _, o := range objs {
		w = max(w, o.MinSize().Width)
	}
	return fyne.NewSize(w, reach.Fingertip+2)
}
