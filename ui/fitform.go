package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fitForm lays a form out side by side, each label left of its field,
// where that fits the width, and one under the other, each label above its
// field, where it does not: on a phone held upright, in a language whose
// labels are long. A form side by side that is wider than the screen
// would cut its fields off at the right edge.
type fitForm struct{ form *widget.Form }

// newFitForm makes a form of items that fits its width.
func newFitForm(items ...*widget.FormItem) *fyne.Container {
	f := widget.NewForm(items...)
	return container.New(&fitForm{form: f}, f)
}

// widths are the least widths of the form side by side and one under the
// other, as widget.Form measures them: a label's bold text with the inner
// padding on each side (on its right only when above its field), the
// widest field, the padding between the columns.
func (l *fitForm) widths() (side, under float32) {
	inner := theme.InnerPadding()
	var label, field float32
	for _, it := range l.form.Items {
		label = max(label, fyne.MeasureText(it.Text, theme.TextSize(), fyne.TextStyle{Bold: true}).Width)
		field = max(field, it.Widget.MinSize().Width)
	}
	return label + 2*inner + theme.Padding() + field, max(label+inner, field)
}

// MinSize is as narrow as the form one under the other, so that a narrow
// screen gets the form in its width, and as high as the form is now.
func (l *fitForm) MinSize([]fyne.CanvasObject) fyne.Size {
	_, under := l.widths()
	return fyne.NewSize(under, l.form.MinSize().Height)
}

// Layout turns the form to the orientation that fits size.
func (l *fitForm) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	side, _ := l.widths()
	o := widget.Horizontal
	if side > size.Width {
		o = widget.Vertical
	}
	if o != l.form.Orientation {
		l.form.Orientation = o
		l.form.Refresh()
	}
	l.form.Move(fyne.NewPos(0, 0))
	l.form.Resize(size)
}
