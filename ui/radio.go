package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// flexRadio holds a radio group that shows its options side by side where
// they fit the width it gets, and one under the other where they do not
// (a small window), so that the form never needs more width than the
// window has.
type flexRadio struct {
	r *widget.RadioGroup
}

// newFlexRadio holds r in a container laid out by a flexRadio.
func newFlexRadio(r *widget.RadioGroup) *fyne.Container {
	r.Horizontal = true
	return container.New(&flexRadio{r: r}, r)
}

// sizes are r's least sizes side by side and one under the other.
func (f *flexRadio) sizes() (across, down fyne.Size) {
	was := f.r.Horizontal
	f.r.Horizontal = true
	across = f.r.MinSize()
	f.r.Horizontal = false
	down = f.r.MinSize()
	f.r.Horizontal = was
	return across, down
}

func (f *flexRadio) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	across, _ := f.sizes()
	if h := across.Width <= size.Width; h != f.r.Horizontal {
		f.r.Horizontal = h
		f.r.Refresh()
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize is as narrow as the options one under the other, and as high as
// they are now.
func (f *flexRadio) MinSize([]fyne.CanvasObject) fyne.Size {
	across, down := f.sizes()
	if f.r.Horizontal {
		return fyne.NewSize(down.Width, across.Height)
	}
	return down
}
