package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// phrase is text that wraps at word breaks, one drawn text per word. It
// is kept from one event to the next: setting other words changes the
// texts it has, and adds texts only when it never had that many words, so
// that the renderer draws each word again only when it changes.
type phrase struct {
	box   *fyne.Container
	words []*canvas.Text
	text  string
	size  float32
	bold  bool
	col   color.Color
}

// newPhrase is an empty phrase that wraps at the width width points to
// until it is laid out (see flowLayout).
func newPhrase(width *float32, size float32, bold bool, col color.Color) *phrase {
	p := &phrase{size: size, bold: bold, col: col}
	p.box = container.New(&flowLayout{width: width, gap: size * 0.3})
	p.box.Hide()
	return p
}

// set shows s; nothing changes when s is what the phrase shows.
func (p *phrase) set(s string) {
	if s == p.text {
		return
	}
	p.text = s
	ws := strings.Fields(s)
	for len(p.words) < len(ws) {
		t := label("", p.size, p.bold, p.col)
		p.words = append(p.words, t)
		p.box.Objects = append(p.box.Objects, t)
	}
	for i, t := range p.words {
		if i >= len(ws) {
			if t.Visible() {
				t.Hide()
			}
			continue
		}
		if t.Text != ws[i] || !t.Visible() {
			t.Text = ws[i]
			t.Show()
			t.Refresh()
		}
	}
	// An empty phrase is hidden, so that a box of parts leaves no gap
	// for it.
	show(p.box, len(ws) > 0)
	p.box.Refresh()
}

// style sets the size, weight and colour of the words.
func (p *phrase) style(size float32, bold bool, col color.Color) {
	if size == p.size && bold == p.bold && col == p.col {
		return
	}
	p.size, p.bold, p.col = size, bold, col
	p.box.Layout.(*flowLayout).gap = size * 0.3
	for _, t := range p.words {
		t.TextSize, t.TextStyle.Bold, t.Color = size, bold, col
		t.Refresh()
	}
	p.box.Refresh()
}

// heightFor is the phrase's height wrapped at width w, or 0 when it is
// empty.
func (p *phrase) heightFor(w float32) float32 {
	if !p.box.Visible() {
		return 0
	}
	return p.box.Layout.(*flowLayout).rows(p.box.Objects, w, false).Height
}

// object is what the phrase draws.
func (p *phrase) object() fyne.CanvasObject { return p.box }

// flowLayout places the visible objects left to right and wraps them into
// rows at the width it was last laid out at, or, before that, at the
// width the table was last laid out at (less padding).
type flowLayout struct {
	width *float32
	gap   float32
	last  float32 // the width of the last layout
	// joined objects are words of a phrase: they follow the object before
	// them at space instead of gap, so a long phrase wraps like text.
	joined map[fyne.CanvasObject]bool
	space  float32
}

func (l *flowLayout) avail() float32 {
	if l.last > 0 {
		return l.last
	}
	if l.width == nil || *l.width == 0 {
		return 1000
	}
	return *l.width - 4*pad
}

func (l *flowLayout) rows(objs []fyne.CanvasObject, w float32, place bool) fyne.Size {
	var x, y, rowH, maxW float32
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		s := o.MinSize()
		if x > 0 && l.joined[o] {
			x += l.space - l.gap
		}
		if x > 0 && x+s.Width > w {
			x, y = 0, y+rowH+4
			rowH = 0
		}
		if place {
			o.Move(fyne.NewPos(x, y))
			o.Resize(s)
		}
		x += s.Width + l.gap
		rowH = max(rowH, s.Height)
		maxW = max(maxW, x)
	}
	return fyne.NewSize(min(maxW, w), y+rowH)
}

func (l *flowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.last = size.Width
	l.rows(objs, size.Width, true)
}

func (l *flowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := l.rows(objs, l.avail(), false)
	return fyne.NewSize(min(s.Width, 200), s.Height)
}
