package ui

import (
	"fyne.io/fyne/v2/canvas"

	"github.com/njetlan/njet/engine"
)

// views keeps the table's cards, fields and marks from one event to the
// next: each card of the hand, of the trick and of a discard's picks, each
// field of the board, and the marks of the info bar are made once and
// then only changed in place. A drawn object gets a texture of its own,
// so making new ones on every event would keep the renderer busy and its
// caches growing until they expire; kept, each is drawn once and again
// only when it changes.
type views struct {
	hand, trick, picked map[engine.Card]*cardView
	fields              map[[2]int]*fieldView
	chips               map[[2]int]*canvas.Raster
}

func newViews() *views {
	return &views{
		hand: map[engine.Card]*cardView{}, trick: map[engine.Card]*cardView{}, picked: map[engine.Card]*cardView{},
		fields: map[[2]int]*fieldView{}, chips: map[[2]int]*canvas.Raster{},
	}
}

// card returns the kept view of c from pool, made with onTap the first
// time, set to the given state and refreshed only when that changed.
func (v *views) card(pool map[engine.Card]*cardView, c engine.Card, onTap func(), st cardState) *cardView {
	cv, ok := pool[c]
	if !ok {
		cv = newCardView(c, onTap)
		cv.setState(st)
		pool[c] = cv
		return cv
	}
	if cv.state() != st {
		cv.setState(st)
		cv.Refresh()
	}
	return cv
}

// chip returns the kept mark of colour c for the info bar's place slot
// (the trump and the supertrump may share a colour, but not a mark).
func (v *views) chip(slot int, c engine.Colour) *canvas.Raster {
	key := [2]int{slot, int(c)}
	r, ok := v.chips[key]
	if !ok {
		r = suitMark(c, suitColour(c))
		v.chips[key] = r
	}
	return r
}

// field returns the kept view of a board field, set to what it shows now.
func (v *views) field(e engine.Edition, fs fieldState, text, by string, mark engine.Colour, onTap func(fieldState)) *fieldView {
	key := [2]int{int(fs.Row), int(fs.Field)}
	f, ok := v.fields[key]
	if !ok || f.mark != mark {
		f = newFieldView(e, fs, text, by, mark, nil)
		f.onTap = func() { onTap(f.fs) }
		v.fields[key] = f
		return f
	}
	if f.fs != fs || f.text != text || f.by != by {
		f.fs, f.text, f.by = fs, text, by
		f.Refresh()
	}
	return f
}
