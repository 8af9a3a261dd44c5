package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/ui/reach"
)

// handBox shows the person's hand: cards sorted by suit, in as few rows as
// keep every card big enough to read and tap. The cards picked for a
// discard or pass keep their places, empty, so that the rows stay as they
// are while the person picks.
type handBox struct {
	widget.BaseWidget
	cards []fyne.CanvasObject // every card in hand, picked ones hidden
	box   *fyne.Container
	lay   *handLayout
}

func newHandBox() *handBox {
	h := &handBox{lay: &handLayout{}}
	h.box = container.New(h.lay)
	h.ExtendBaseWidget(h)
	return h
}

// Region names the hand for a person's eyes (package reach).
func (h *handBox) Region() string { return reach.RegionHand }

func (h *handBox) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.box) }

func (h *handBox) MinSize() fyne.Size { return fyne.NewSize(0, 0) }

// set shows cards, in order; picked ones keep their place, hidden.
func (h *handBox) set(cards []fyne.CanvasObject, picked map[fyne.CanvasObject]bool, shape handShape) {
	same := len(h.cards) == len(cards) && h.lay.shape == shape
	for i := 0; same && i < len(cards); i++ {
		same = h.cards[i] == cards[i]
	}
	for _, c := range cards {
		show(c, !picked[c])
	}
	if same {
		return
	}
	h.cards = cards
	h.lay.shape = shape
	h.box.Objects = cards
	h.box.Refresh()
}

// handShape is how big the hand's cards may be: their widths between
// least and most, and how many rows at most.
type handShape struct {
	least, most, gap float32
	rows             int
}

// The hand's shapes: a desktop's, a phone's (smaller while no card
// answers, so that the board has room), a phone on its side's (one row).
var (
	handWide  = handShape{least: 58, most: 84, gap: 6, rows: 3}
	handTall  = handShape{least: reach.Fingertip, most: 72, gap: 4, rows: 3}
	handTallS = handShape{least: 34, most: 40, gap: 4, rows: 3}
	handLow   = handShape{least: reach.Fingertip + 2, most: 46, gap: 4, rows: 1}
)

const cardRatio = 1.42

// grid returns the columns, rows and card width for n cards at width w.
func (s handShape) grid(n int, w float32) (cols, rows int, cw float32) {
	if n == 0 {
		return 0, 0, 0
	}
	for rows = 1; rows <= s.rows; rows++ {
		cols = (n + rows - 1) / rows
		cw = min(s.most, (w-float32(cols-1)*s.gap)/float32(cols))
		if cw >= s.least {
			break
		}
	}
	rows = min(rows, s.rows)
	cols = (n + rows - 1) / rows
	return cols, rows, min(s.most, (w-float32(cols-1)*s.gap)/float32(cols))
}

// heightFor is the height the hand takes at width w.
func (h *handBox) heightFor(w float32, shape handShape) float32 {
	_, rows, cw := shape.grid(max(len(h.cards), 1), w)
	return float32(rows)*cw*cardRatio + float32(rows-1)*shape.gap
}

// handLayout places the cards in rows, centred.
type handLayout struct{ shape handShape }

func (l *handLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	s := l.shape
	if s.rows == 0 {
		s = handWide
	}
	cols, _, cw := s.grid(len(objs), size.Width)
	ch := cw * cardRatio
	for i, o := range objs {
		r, c := i/cols, i%cols
		inRow := min(cols, len(objs)-r*cols)
		x0 := (size.Width - (float32(inRow)*cw + float32(inRow-1)*s.gap)) / 2
		o.Move(fyne.NewPos(x0+float32(c)*(cw+s.gap), float32(r)*(ch+s.gap)))
		o.Resize(fyne.NewSize(cw, ch))
	}
}

func (l *handLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }
