package ui

import (
	"fyne.io/fyne/v2"
)

// tableLayout places the table's parts. It is portrait when the height is
// larger than the width (a phone held upright), else landscape; the same
// widgets serve both.
//
// Landscape: the info bar across the top; the board on the left; the seats,
// the trick and the action bar on the right; the hand across the bottom.
// Portrait: the info bar, the seats, then the board while the Njet phase
// lasts and the trick after it, the action bar and the hand in up to three
// rows. A round summary or the game-over view covers everything but the
// info bar.
type tableLayout struct {
	felt, info, seats, board, trick, bar, hand, over fyne.CanvasObject
	showBoard                                        bool    // portrait: the board instead of the trick
	portrait                                         bool    // the last layout was portrait
	width                                            float32 // of the whole table
	colW                                             float32 // of the trick and action bar
}

const pad = 8

func (l *tableLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	l.portrait = size.Height > size.Width
	l.width = size.Width
	place := func(o fyne.CanvasObject, x, y, w, h float32) {
		if o == nil {
			return
		}
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(max(w, 0), max(h, 0)))
	}
	place(l.felt, 0, 0, size.Width, size.Height)
	infoH := l.info.MinSize().Height
	place(l.info, pad, pad, size.Width-2*pad, infoH)
	top := pad + infoH + pad
	w := size.Width - 2*pad
	if l.portrait {
		seatsH := l.seats.MinSize().Height
		place(l.seats, pad, top, w, seatsH)
		y := top + seatsH + pad
		handH := handHeight(l.hand, w, true)
		barH := l.bar.MinSize().Height
		handY := size.Height - pad - handH
		barY := handY - pad - barH
		place(l.hand, pad, handY, w, handH)
		place(l.bar, pad, barY, w, barH)
		l.colW = w
		midH := barY - pad - y
		if l.showBoard {
			place(l.board, pad, y, w, midH)
			l.board.Show()
			l.trick.Hide()
		} else {
			place(l.trick, pad, y, w, midH)
			l.trick.Show()
			l.board.Hide()
		}
		l.cover(pad, top, w, size.Height-top-pad)
		return
	}
	l.board.Show()
	l.trick.Show()
	boardW := min(max(size.Width*0.36, 360), 480)
	handH := handHeight(l.hand, w, false)
	handY := size.Height - pad - handH
	place(l.hand, pad, handY, w, handH)
	place(l.board, pad, top, boardW, handY-pad-top)
	rx := pad + boardW + pad
	rw := size.Width - rx - pad
	l.colW = rw
	seatsH := l.seats.MinSize().Height
	place(l.seats, rx, top, rw, seatsH)
	barH := l.bar.MinSize().Height
	barY := handY - pad - barH
	place(l.bar, rx, barY, rw, barH)
	ty := top + seatsH + pad
	place(l.trick, rx, ty, rw, barY-pad-ty)
	l.cover(pad, top, w, size.Height-top-pad)
}

// cover places the round summary or game-over view, if one is up, over
// everything but the info bar, and hides what lies under it, so that no
// edge of a seat or card shows past its corners.
func (l *tableLayout) cover(x, y, w, h float32) {
	if l.over == nil {
		return
	}
	l.over.Move(fyne.NewPos(x, y))
	l.over.Resize(fyne.NewSize(max(w, 0), max(h, 0)))
	for _, o := range []fyne.CanvasObject{l.seats, l.board, l.trick, l.bar, l.hand} {
		if o != nil {
			o.Hide()
		}
	}
}

func (l *tableLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(340, 600) }

// handHeight is the height the hand takes at width w.
func handHeight(hand fyne.CanvasObject, w float32, portrait bool) float32 {
	if h, ok := hand.(*handBox); ok {
		return h.heightFor(w, portrait)
	}
	return hand.MinSize().Height
}

// flowLayout places objects left to right and wraps them into rows at the
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
