package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// handBox shows the person's hand: cards sorted by suit, in as few rows as
// keep every card big enough to read and tap.
type handBox struct {
	widget.BaseWidget
	small bool // no card answers now: a phone shows the hand smaller
	cards []fyne.CanvasObject
	box   *fyne.Container
	lay   *handLayout
}

func newHandBox(cards []fyne.CanvasObject, small bool) *handBox {
	h := &handBox{cards: cards, small: small, lay: &handLayout{small: small}}
	h.box = container.New(h.lay, cards...)
	h.ExtendBaseWidget(h)
	return h
}

func (h *handBox) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.box) }

func (h *handBox) MinSize() fyne.Size { return fyne.NewSize(300, h.heightFor(360, true)) }

const (
	cardGap   = 6
	cardRatio = 1.42
)

// grid returns the columns, rows and card width for n cards at width w.
func handGrid(n int, w float32, portrait, small bool) (cols, rows int, cw float32) {
	if n == 0 {
		return 0, 0, 0
	}
	most, least := float32(84), float32(58)
	if portrait {
		most, least = 72, 50
	}
	if portrait && small {
		most, least = 40, 34
	}
	for rows = 1; rows <= 3; rows++ {
		cols = (n + rows - 1) / rows
		cw = min(most, (w-float32(cols-1)*cardGap)/float32(cols))
		if cw >= least {
			break
		}
	}
	rows = min(rows, 3)
	cols = (n + rows - 1) / rows
	return cols, rows, min(most, (w-float32(cols-1)*cardGap)/float32(cols))
}

func (h *handBox) heightFor(w float32, portrait bool) float32 {
	_, rows, cw := handGrid(max(len(h.cards), 1), w, portrait, h.small)
	return float32(rows)*cw*cardRatio + float32(rows-1)*cardGap
}

// handLayout places the cards in rows, centred.
type handLayout struct{ small bool }

func (l *handLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	portrait := size.Width < 700
	cols, _, cw := handGrid(len(objs), size.Width, portrait, l.small)
	ch := cw * cardRatio
	for i, o := range objs {
		r, c := i/cols, i%cols
		inRow := min(cols, len(objs)-r*cols)
		x0 := (size.Width - (float32(inRow)*cw + float32(inRow-1)*cardGap)) / 2
		o.Move(fyne.NewPos(x0+float32(c)*(cw+cardGap), float32(r)*(ch+cardGap)))
		o.Resize(fyne.NewSize(cw, ch))
	}
}

func (l *handLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(300, 70) }
