package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// fieldView is one field of the Njet board. A free field the person may
// block has a gold edge; a blocked one is filled with its blocker's colour
// and name; the free field of a decided row, the round's rule, is filled
// in yellow without the gold edge, since it can no longer be tapped.
// Tapping any field while the person blocks either blocks it or says why
// it cannot be blocked.
type fieldView struct {
	widget.BaseWidget
	fs      fieldState
	edition engine.Edition
	text    string
	by      string // the blocker's short name
	mark    engine.Colour
	tapped
}

func newFieldView(e engine.Edition, fs fieldState, text, by string, mark engine.Colour, onTap func()) *fieldView {
	f := &fieldView{edition: e, fs: fs, text: text, by: by, mark: mark, tapped: tapped{onTap}}
	f.ExtendBaseWidget(f)
	return f
}

// Shows names the field by its row and field, as a game record does
// ("trump/red"), for a person's eyes in tests and the probe.
func (f *fieldView) Shows() (kind, what string) {
	return "field", f.fs.Row.String() + "/" + f.edition.FieldName(f.fs.Row, f.fs.Field)
}

// Disabled reports whether the field cannot be blocked now.
func (f *fieldView) Disabled() bool { return !f.fs.Blockable }

func (f *fieldView) MinSize() fyne.Size { return fyne.NewSize(52, reach.Fingertip+2) }

func (f *fieldView) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(white)
	bg.CornerRadius = 6
	var lines [2]*canvas.Text
	for i := range lines {
		lines[i] = canvas.NewText("", ink)
		lines[i].Alignment = fyne.TextAlignCenter
	}
	by := canvas.NewText(f.by, white)
	by.Alignment = fyne.TextAlignCenter
	by.TextStyle.Bold = true
	by.TextSize = 12
	r := &fieldRenderer{f: f, bg: bg, lines: lines, by: by}
	if f.mark != engine.NoColour {
		r.mark = suitMark(f.mark, suitColour(f.mark))
	}
	r.style()
	return r
}

type fieldRenderer struct {
	f     *fieldView
	bg    *canvas.Rectangle
	lines [2]*canvas.Text // the field's text, on one line or broken in two
	by    *canvas.Text
	mark  *canvas.Raster
}

func (r *fieldRenderer) style() {
	fs := r.f.fs
	r.bg.FillColor = color.NRGBA{R: 0xf1, G: 0xf5, B: 0xf0, A: 0xff}
	r.bg.StrokeColor = color.NRGBA{R: 0xb0, G: 0xbe, B: 0xc5, A: 0xff}
	r.bg.StrokeWidth = 1
	col, bold := color.Color(ink), false
	r.by.Hidden = true
	r.by.Text = r.f.by
	switch {
	case fs.By != -1:
		c := seatColour(fs.By)
		c.A = 0xd0
		r.bg.FillColor = c
		col = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xc8}
		r.by.Hidden = false
	case fs.Rule:
		// The round's rule: filled, not framed in gold, which marks what
		// may be tapped.
		r.bg.FillColor = ruleFill
		r.bg.StrokeColor, r.bg.StrokeWidth = ruleEdge, 2
		bold = true
	case fs.Blockable && fs.Hinted:
		// The hint's field: filled in gold as well as framed.
		r.bg.FillColor = color.NRGBA{R: 0xff, G: 0xd5, B: 0x4f, A: 0xff}
		r.bg.StrokeColor, r.bg.StrokeWidth = gold, 5
		bold = true
	case fs.Blockable:
		r.bg.FillColor = white
		r.bg.StrokeColor, r.bg.StrokeWidth = gold, 3
	}
	for _, l := range r.lines {
		l.Color, l.TextStyle.Bold = col, bold
	}
}

// Field text sizes: the largest is tried first; a text that does not fit
// on one line at fieldTextFit is broken in two at the space that keeps the
// longer line shortest, and shrunk further only if it must.
const (
	fieldTextMax = 13
	fieldTextFit = 11
	fieldTextMin = 9
)

// fitLines sets the field's text on one or two lines that fit width w.
func (r *fieldRenderer) fitLines(w float32) {
	text := r.f.text
	one, two := r.lines[0], r.lines[1]
	fits := func(size float32, a, b string) bool {
		one.Text, two.Text = a, b
		one.TextSize, two.TextSize = size, size
		return one.MinSize().Width <= w && (b == "" || two.MinSize().Width <= w)
	}
	for size := float32(fieldTextMax); size >= fieldTextFit; size-- {
		if fits(size, text, "") {
			two.Hidden = true
			return
		}
	}
	words := strings.Fields(text)
	if len(words) > 1 {
		for size := float32(fieldTextMax); size >= fieldTextMin; size-- {
			best, bestW := -1, float32(0)
			for i := 1; i < len(words); i++ {
				fits(size, strings.Join(words[:i], " "), strings.Join(words[i:], " "))
				lw := max(one.MinSize().Width, two.MinSize().Width)
				if best < 0 || lw < bestW {
					best, bestW = i, lw
				}
			}
			if bestW <= w || size == fieldTextMin {
				fits(size, strings.Join(words[:best], " "), strings.Join(words[best:], " "))
				two.Hidden = false
				return
			}
		}
	}
	size := float32(fieldTextFit)
	for size > fieldTextMin && !fits(size, text, "") {
		size--
	}
	fits(size, text, "")
	two.Hidden = true
}

func (r *fieldRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	h := size.Height
	top := float32(3)
	if r.mark != nil {
		m := min(h*0.4, size.Width*0.4)
		if r.f.fs.By != -1 {
			m = min(h*0.5, size.Width*0.4)
		}
		r.mark.Move(fyne.NewPos((size.Width-m)/2, top))
		r.mark.Resize(fyne.NewSize(m, m))
		top += m
	}
	r.fitLines(size.Width - 6)
	hidden := r.mark != nil && r.f.fs.By != -1 // the mark names a blocked colour
	lineH := r.lines[0].MinSize().Height
	n := float32(1)
	if !r.lines[1].Hidden {
		n = 2
		lineH *= 0.9 // two lines sit closer than a text's own leading
	}
	bottom := h
	if !r.by.Hidden {
		bottom = h - r.by.MinSize().Height
	}
	y := max(top, (top+bottom-n*lineH)/2)
	for i, l := range r.lines {
		l.Hidden = hidden || i == 1 && n == 1
		l.Move(fyne.NewPos(0, y+float32(i)*lineH))
		l.Resize(fyne.NewSize(size.Width, l.MinSize().Height))
	}
	bs := r.by.MinSize()
	r.by.Move(fyne.NewPos(0, h-bs.Height-1))
	r.by.Resize(fyne.NewSize(size.Width, bs.Height))
}

func (r *fieldRenderer) MinSize() fyne.Size { return r.f.MinSize() }

func (r *fieldRenderer) Refresh() {
	r.style()
	r.Layout(r.f.Size())
	canvas.Refresh(r.f)
}

func (r *fieldRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.bg, r.lines[0], r.lines[1], r.by}
	if r.mark != nil {
		objs = append(objs, r.mark)
	}
	return objs
}

func (r *fieldRenderer) Destroy() {}

// ruleFill and ruleEdge draw the free field of a decided row.
var (
	ruleFill = color.NRGBA{R: 0xff, G: 0xe9, B: 0x9e, A: 0xff}
	ruleEdge = color.NRGBA{R: 0x5d, G: 0x40, B: 0x37, A: 0xff}
)

// boardPanel is the Njet board: five rows, each its name and its fields.
// It is made once for the game's edition; each event changes its fields
// in place.
type boardPanel struct {
	view   *fyne.Container
	lay    *boardLayout
	title  *canvas.Text
	fields []*fieldView // in reading order
}

func newBoardPanel(t *TableScreen) *boardPanel {
	m := t.model
	e := m.view.Edition
	b := &boardPanel{lay: &boardLayout{}}
	b.view = container.New(reach.Named(reach.RegionBoard, b.lay))
	b.title = canvas.NewText(tr("table.board", "Njet board"), white)
	b.title.TextStyle.Bold = true
	b.title.TextSize = 16
	b.view.Add(b.title)
	for r, row := range m.board() {
		name := canvas.NewText(say(words.Row(e, engine.Row(r))), white)
		name.TextSize = 13
		name.TextStyle.Bold = true
		cells := container.New(layout.NewGridLayoutWithColumns(max(len(row), 4)))
		for _, fs := range row {
			fv := b.field(t, fs)
			b.fields = append(b.fields, fv)
			cells.Add(fv)
		}
		b.view.Add(name)
		b.view.Add(cells)
	}
	return b
}

// field is the kept view of fs, set to what it shows now.
func (b *boardPanel) field(t *TableScreen, fs fieldState) *fieldView {
	e := t.model.view.Edition
	mark := engine.NoColour
	if fs.Row == engine.RowTrump || fs.Row == engine.RowSuper && fs.Field != engine.SuperNjet {
		mark = e.Colours()[fs.Field]
	}
	by := ""
	if fs.By >= 0 {
		by = t.shortName(fs.By)
	}
	return t.views.field(e, fs, t.fieldText(fs), by, mark, t.tapField)
}

// update shows the board of the model.
func (b *boardPanel) update(t *TableScreen) {
	h := t.currentHint()
	for _, row := range t.model.board() {
		for _, fs := range row {
			fs.Hinted = h != nil && h.a.Kind == engine.ActBlock && h.a.Row == fs.Row && h.a.Field == fs.Field
			b.field(t, fs)
		}
	}
}

// fieldText is what a field says: a character (with the seat holding it),
// a discard rule, a colour, "none" or a points value.
func (t *TableScreen) fieldText(fs fieldState) string {
	return say(wField(t.model.view.Edition, fs.Row, fs.Field))
}

// boardLayout stacks the board's title, then each row's name above its
// fields, sharing the height it gets among the rows so that the board fits
// the space the table gives it; fields are at most 60 high. Beside sets
// each row's name left of its fields (a phone on its side), where the
// height is short.
type boardLayout struct {
	beside bool
}

const (
	rowNameH = 18
	// besideW is the width of the rows' names beside the fields.
	besideW = 84
)

func (l *boardLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) == 0 {
		return
	}
	title := objs[0].(*canvas.Text)
	titleH := title.MinSize().Height
	if size.Height < 330 || l.beside {
		titleH = 0 // the rows' names say enough
	}
	title.Move(fyne.NewPos(0, 0))
	title.Resize(fyne.NewSize(size.Width, titleH))
	show(title, titleH > 0)
	rows := (len(objs) - 1) / 2
	if l.beside {
		fieldH := min(60, (size.Height-float32(rows-1)*4)/float32(max(rows, 1)))
		y := float32(0)
		for i := 1; i+1 < len(objs); i += 2 {
			objs[i].Move(fyne.NewPos(0, y+(fieldH-rowNameH)/2))
			objs[i].Resize(fyne.NewSize(besideW-4, rowNameH))
			objs[i+1].Move(fyne.NewPos(besideW, y))
			objs[i+1].Resize(fyne.NewSize(size.Width-besideW, fieldH))
			y += fieldH + 4
		}
		return
	}
	nameH := float32(rowNameH)
	if titleH == 0 {
		nameH = 15
	}
	fieldH := min(60, (size.Height-titleH-float32(rows)*(nameH+4))/float32(max(rows, 1)))
	y := titleH
	for i := 1; i+1 < len(objs); i += 2 {
		objs[i].Move(fyne.NewPos(0, y))
		objs[i].Resize(fyne.NewSize(size.Width, nameH))
		y += nameH
		objs[i+1].Move(fyne.NewPos(0, y))
		objs[i+1].Resize(fyne.NewSize(size.Width, fieldH))
		y += fieldH + 4
	}
}

// MinSize is the board with fields a finger can hit.
func (l *boardLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if l.beside {
		return fyne.NewSize(besideW+4*52, 5*(reach.Fingertip+2)+4*4)
	}
	return fyne.NewSize(300, 5*(15+4+reach.Fingertip+2))
}
