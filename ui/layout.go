package ui

import (
	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/ui/reach"
)

// tableShape is how the table is laid out in a window of a size.
type tableShape uint8

const (
	// shapeWide is a landscape window with room: the board on the left;
	// the seats, the trick and the action bar on the right; the hand
	// across the bottom.
	shapeWide tableShape = iota
	// shapeTall is a phone held upright: the seats, then the board while
	// the Njet phase lasts and the trick after it, the action bar and the
	// hand in up to three rows.
	shapeTall
	// shapeLow is a phone on its side: the board or the trick on the
	// left, the seats and the action bar on the right, the hand in one
	// row across the bottom; the rows' names sit beside the board's
	// fields.
	shapeLow
	// shapeSmall is a small window: the seats, the board or the trick,
	// the action bar and the hand one below the other at their own
	// heights, scrolling under the info bar.
	shapeSmall
)

// shapeFor is the shape of a window of size.
func shapeFor(size fyne.Size) tableShape {
	switch {
	case size.Width > size.Height && size.Height >= 560:
		return shapeWide
	case size.Width > size.Height:
		return shapeLow
	case size.Height >= 560 && size.Width >= 340:
		return shapeTall
	}
	return shapeSmall
}

const pad = 8

// place puts o at x, y with size w, h.
func place(o fyne.CanvasObject, x, y, w, h float32) {
	if o == nil {
		return
	}
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(max(w, 0), max(h, 0)))
}

// screenLayout places the table screen's layers: the felt, the info bar
// across the top, the table under it (in a scroll container, which
// scrolls only in the small shape) and, over the table, the round summary
// or the game-over view when one is up.
type screenLayout struct {
	t *TableScreen
}

func (l *screenLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	t := l.t
	lay := t.lay
	shape := shapeFor(size)
	if shape == shapeTall && !lay.tallFits(size) || shape == shapeLow && !lay.lowFits(size) {
		// Short of room (a banner above the table): the table scrolls
		// rather than squeeze the board's fields.
		shape = shapeSmall
	}
	if shape != lay.shape {
		lay.shape = shape
		// What the parts show depends on the shape (text sizes, the
		// badges' lines, the Home button's label): show it again once
		// this layout is done.
		t.do(t.refresh)
	}
	lay.width = size.Width
	p := t.parts
	place(p.felt, 0, 0, size.Width, size.Height)
	inset := float32(pad)
	if lay.compact() {
		inset = 4
	}
	infoH := p.info.heightFor(size.Width - 2*inset)
	place(p.info.view, inset, inset, size.Width-2*inset, infoH)
	top := inset + infoH + inset
	lay.view = fyne.NewSize(size.Width, size.Height-top)
	place(p.scroll, 0, top, size.Width, size.Height-top)
	if p.over != nil {
		place(p.over, inset, top, size.Width-2*inset, size.Height-top-inset)
	}
}

// MinSize is the narrowest phone's width and what the info bar needs: the
// table itself scrolls when the window is smaller than it.
func (l *screenLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(300, l.t.parts.info.view.MinSize().Height+100)
}

// tableLayout places the table's parts under the info bar for the
// window's shape; the same widgets serve every shape. While a round
// summary or the game-over view is up, the parts are hidden under it.
type tableLayout struct {
	t     *TableScreen
	shape tableShape
	width float32   // of the whole screen
	view  fyne.Size // what the scroll container shows of the table
	colW  float32   // of the trick and action bar
}

// portrait reports whether the window is upright.
func (l *tableLayout) portrait() bool { return l.shape == shapeTall || l.shape == shapeSmall }

// compact reports whether the window is a phone's or small: smaller text
// and cards, fewer lines on the badges.
func (l *tableLayout) compact() bool { return l.shape != shapeWide }

// tallFits reports whether the parts of the tall shape fit a table of
// size (the info bar's included) without squeezing the board's fields: the
// info bar, the seats, the board (the trick, once the Njet phase is over),
// a question of two lines and the hand.
func (l *tableLayout) tallFits(size fyne.Size) bool {
	p := l.t.parts
	w := size.Width - 2*pad
	mid := p.board.view.MinSize().Height
	if !l.showBoard() {
		mid = p.trick.view.MinSize().Height
	}
	hand := p.hand.heightFor(w, handTallS)
	need := p.info.heightFor(w) + p.seats.view.MinSize().Height + mid + tallBar + hand + 6*pad
	return need <= size.Height
}

// lowFits reports whether the parts of the low shape fit a table of size
// without squeezing the board's fields: the info bar, the board with its
// rows' names beside its fields (the trick, once the Njet phase is over),
// and the hand in one row.
func (l *tableLayout) lowFits(size fyne.Size) bool {
	p := l.t.parts
	w := size.Width - 8
	mid := float32(5*(reach.Fingertip+2) + 4*4)
	if !l.showBoard() {
		mid = max(p.trick.view.MinSize().Height, lowBar)
	}
	need := p.info.heightFor(w) + mid + p.hand.heightFor(w, handLow) + 4*4
	return need <= size.Height
}

// lowBar is the least height of the seats and the bar beside the trick
// in the low shape: a seat's badge and a question with a row of picks.
const lowBar = 170

// tallBar is the height a question of two lines takes in the bar.
const tallBar = 80

// inset is the space at the window's edges and between the parts.
func (l *tableLayout) inset() float32 {
	if l.compact() {
		return 4
	}
	return pad
}

// handShape is the hand's shape now.
func (l *tableLayout) handShape() handShape {
	m := l.t.model
	switch l.shape {
	case shapeTall:
		if !m.asksCard() && m.view.Phase < 2 { // the deal and the Njet phase: the board needs the room
			return handTallS
		}
		return handTall
	case shapeSmall:
		return handTall
	case shapeLow:
		return handLow
	}
	return handWide
}

// showBoard reports whether the board, rather than the trick, is shown
// where only one of them fits: until the Njet phase is over.
func (l *tableLayout) showBoard() bool {
	m := l.t.model
	return !m.rulesSet && m.view.Phase <= 1
}

func (l *tableLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	p := l.t.parts
	covered := p.over != nil
	for _, o := range []fyne.CanvasObject{p.seats.view, p.bar.view, p.hand} {
		show(o, !covered)
	}
	one := l.shape != shapeWide // one of the board and the trick
	// A phone on its side gives an empty trick's room to the question (a
	// team to choose, a discard).
	wideBar := l.shape == shapeLow && !l.showBoard() && l.trickEmpty()
	show(p.board.view, !covered && (!one || l.showBoard()))
	show(p.trick.view, !covered && (!one || !l.showBoard()) && !wideBar)
	if covered {
		return
	}
	in := l.inset()
	w := size.Width - 2*in
	shape := l.handShape()
	p.hand.lay.shape = shape
	p.bar.setScrolls(l.shape != shapeSmall)
	switch l.shape {
	case shapeWide:
		handH := p.hand.heightFor(w, shape)
		handY := size.Height - in - handH
		place(p.hand, in, handY, w, handH)
		boardW := min(max(size.Width*0.36, 360), 480)
		place(p.board.view, in, 0, boardW, handY-in)
		rx := in + boardW + in
		rw := size.Width - rx - in
		seatsH := l.seatsAtop(rx, rw)
		barH := min(p.bar.heightFor(rw), (handY-seatsH)*0.6)
		barY := handY - in - barH
		place(p.bar.view, rx, barY, rw, barH)
		ty := seatsH + in
		place(p.trick.view, rx, ty, rw, barY-in-ty)
	case shapeTall:
		seatsH := l.seatsAtop(in, w)
		handH := p.hand.heightFor(w, shape)
		handY := size.Height - in - handH
		place(p.hand, in, handY, w, handH)
		// The board keeps the room its fields need; past what is left,
		// and past half the room, the bar scrolls.
		room := handY - in - seatsH - in
		barH := min(p.bar.heightFor(w), room*0.5)
		if l.showBoard() {
			barH = min(p.bar.heightFor(w), max(room-in-p.board.view.MinSize().Height, 60))
		}
		barY := handY - in - barH
		place(p.bar.view, in, barY, w, barH)
		y := seatsH + in
		place(p.board.view, in, y, w, barY-in-y)
		place(p.trick.view, in, y, w, barY-in-y)
	case shapeLow:
		p.board.lay.beside = true
		handH := p.hand.heightFor(w, shape)
		handY := size.Height - in - handH
		place(p.hand, in, handY, w, handH)
		if wideBar {
			seatsH := l.seatsAtop(in, w)
			place(p.bar.view, in, seatsH+in, w, handY-in-seatsH-in)
			break
		}
		lw := min(max(size.Width*0.5, 320), 520)
		place(p.board.view, in, 0, lw, handY-in)
		place(p.trick.view, in, 0, lw, handY-in)
		rx := in + lw + in
		rw := size.Width - rx - in
		seatsH := l.seatsAtop(rx, rw)
		place(p.bar.view, rx, seatsH+in, rw, handY-in-seatsH-in)
	case shapeSmall:
		l.colW = w
		y := float32(0)
		for _, part := range l.stack(w) {
			place(part.o, in, y, w, part.h)
			y += part.h + in
		}
	}
	if l.shape != shapeLow {
		p.board.lay.beside = false
	}
}

// seatsAtop places the seats at the top of the column at x, w wide, that
// holds the action bar (and the trick), and makes w the width that the
// column's phrases wrap to. It returns the seats' height.
func (l *tableLayout) seatsAtop(x, w float32) float32 {
	l.colW = w
	seats := l.t.parts.seats.view
	h := seats.MinSize().Height
	place(seats, x, 0, w, h)
	return h
}

// trickEmpty reports whether the trick shows no card, not even the last
// one won.
func (l *tableLayout) trickEmpty() bool {
	m := l.t.model
	return len(m.trick.Plays) == 0 && !(l.t.peek && m.last != nil)
}

// part is one part of the small shape's stack and its height.
type part struct {
	o fyne.CanvasObject
	h float32
}

// stack lists the small shape's parts at width w, top to bottom.
func (l *tableLayout) stack(w float32) []part {
	p := l.t.parts
	mid := part{p.trick.view, p.trick.view.MinSize().Height}
	if l.showBoard() {
		mid = part{p.board.view, p.board.view.MinSize().Height}
	}
	return []part{
		{p.seats.view, p.seats.view.MinSize().Height},
		mid,
		{p.bar.view, p.bar.heightFor(w)},
		{p.hand, p.hand.heightFor(w, l.handShape())},
	}
}

// MinSize is nothing, so that the table fills what the scroll container
// shows, except in the small shape, where the table is as high as its
// parts one below the other.
func (l *tableLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if l.shape != shapeSmall || l.t.parts.over != nil {
		return fyne.NewSize(0, 0)
	}
	w := l.view.Width - 2*l.inset()
	h := float32(0)
	for _, part := range l.stack(w) {
		h += part.h + l.inset()
	}
	return fyne.NewSize(0, h)
}
