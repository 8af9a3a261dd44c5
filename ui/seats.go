package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/ui/reach"
)

// seatRow shows a badge per seat: name, character, dealer mark, cards in
// hand, tricks taken, team; the seat the table waits for is lit. The
// badges are made once and changed in place.
type seatRow struct {
	view   *fyne.Container
	badges []*seatBadge
}

// seatBadge is one seat's badge.
type seatBadge struct {
	view  fyne.CanvasObject
	bg    *canvas.Rectangle
	name  *canvas.Text
	lines [6]*canvas.Text // character and dealer; the dealer where that is too long; cards; tricks; team; "to move"
}

func newSeatRow(n int) *seatRow {
	r := &seatRow{view: container.New(reach.Named("seats", &seatsLayout{n: max(n, 1)}))}
	for s := range n {
		b := &seatBadge{bg: canvas.NewRectangle(feltDark), name: label("", 15, true, white)}
		b.bg.CornerRadius = 8
		b.bg.StrokeWidth = 2
		b.bg.StrokeColor = seatColour(s)
		dot := canvas.NewRectangle(seatColour(s))
		dot.CornerRadius = 5
		dot.SetMinSize(fyne.NewSize(10, 10))
		box := container.NewVBox(container.NewHBox(container.NewCenter(dot), b.name))
		for i := range b.lines {
			b.lines[i] = label("", 12, i >= 3, white)
			box.Add(b.lines[i])
		}
		b.view = container.NewStack(b.bg, container.NewPadded(box))
		r.badges = append(r.badges, b)
		r.view.Add(b.view)
	}
	return r
}

// update shows the model's state on every badge.
func (r *seatRow) update(t *TableScreen) {
	tricks := t.model.seatTricks()
	for s, b := range r.badges {
		n := 0
		if s < len(tricks) {
			n = tricks[s]
		}
		b.update(t, s, n)
	}
}

// update shows seat s, which has taken tricks this round.
func (b *seatBadge) update(t *TableScreen, s, tricks int) {
	m := t.model
	v := m.view
	turn := m.turn == s && m.over == nil && m.summary == nil
	col := color.Color(white)
	fill, stroke, width := color.Color(feltDark), color.Color(seatColour(s)), float32(2)
	if turn {
		fill, stroke, width, col = gold, white, 4, ink
	}
	if b.bg.FillColor != fill || b.bg.StrokeColor != stroke || b.bg.StrokeWidth != width {
		b.bg.FillColor, b.bg.StrokeColor, b.bg.StrokeWidth = fill, stroke, width
		b.bg.Refresh()
	}
	compact := t.lay.compact()
	ch := ""
	if s < len(v.Characters) {
		ch = say(wCharacter(v.Characters[s]))
	}
	dealer := ""
	if s == v.Dealer {
		dealer = tr("table.dealer", "dealer")
		if both := ch + " · " + dealer; b.fits(both) {
			ch, dealer = both, ""
		}
	}
	cards, tk := "", ""
	if s < len(v.HandSizes) && (!t.lay.portrait() || v.Phase >= engine.PhaseTeams) {
		cards = trn("table.cards", "{{.Count}} cards", v.HandSizes[s])
	}
	if v.Phase >= engine.PhaseTricks || tricks > 0 {
		tk = trn("table.tricks", "{{.Count}} tricks", tricks)
	}
	team := ""
	if s < len(v.Team) && v.Team[s] >= 0 {
		team = tr("table.team-a", "team A")
		if v.Team[s] == 1 {
			team = tr("table.team-b", "team B")
		}
		if v.Bonus == s {
			team += " · x2"
		}
	}
	move := ""
	if turn && !compact {
		move = tr("table.to-move", "to move")
	}
	if v.Bonus == s && team != "" && !b.fits(team) {
		// A narrow badge: the x2 card on a line of its own.
		team = strings.TrimSuffix(team, " · x2")
		move = strings.TrimSpace(move + " x2")
	}
	texts := [6]string{ch, dealer, cards, tk, team, move}
	if compact {
		if v.Phase >= engine.PhaseTeams {
			texts[0] = "" // the character is on the board; cards and team say more now
		}
		// cards and tricks on one line where it fits, else the tricks
		if both := cards + " · " + tk; cards != "" && tk != "" && b.fits(both) {
			texts[2], texts[3] = both, ""
		} else if tk != "" {
			texts[2] = ""
		}
	}
	setText(b.name, t.name(s))
	if b.name.Color != col {
		b.name.Color = col
		b.name.Refresh()
	}
	for i, l := range b.lines {
		setText(l, texts[i])
		show(l, texts[i] != "")
		if l.Color != col {
			l.Color = col
			l.Refresh()
		}
	}
}

// fits reports whether a line of small text fits the badge as it was
// last laid out.
func (b *seatBadge) fits(s string) bool {
	w := b.view.Size().Width
	if w == 0 {
		return true
	}
	return fyne.MeasureText(s, 12, fyne.TextStyle{Bold: true}).Width <= w-2*4-4
}

// seatsLayout sets the badges side by side, in rows of as many as fit
// their words where one row would leave them too narrow (a small window),
// the rows as even as they can be.
type seatsLayout struct {
	n    int
	last float32 // the width of the last layout
}

// badgeLeast is the narrowest a badge may be: a name and a short line;
// longer lines of a narrow badge break in two (seatBadge.update).
const badgeLeast = 62

// cols is how many badges go in a row at width w.
func (l *seatsLayout) cols(_ []fyne.CanvasObject, w float32) int {
	least := float32(badgeLeast)
	fit := l.n
	if w > 0 {
		fit = max(1, min(l.n, int((w+4)/(least+4))))
	}
	rows := (l.n + fit - 1) / fit
	return (l.n + rows - 1) / rows
}

func (l *seatsLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.last = size.Width
	cols := l.cols(objs, size.Width)
	rows := (len(objs) + cols - 1) / cols
	w := (size.Width - float32(cols-1)*4) / float32(cols)
	h := (size.Height - float32(rows-1)*4) / float32(max(rows, 1))
	for i, o := range objs {
		r, c := i/cols, i%cols
		o.Move(fyne.NewPos(float32(c)*(w+4), float32(r)*(h+4)))
		o.Resize(fyne.NewSize(w, h))
	}
}

func (l *seatsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	cols := l.cols(objs, l.last)
	rows := (len(objs) + cols - 1) / cols
	return fyne.NewSize(m.Width, float32(rows)*m.Height+float32(rows-1)*4)
}
