package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// choiceButton is a button whose words wrap at its width, for the long
// answers of the team choice, which a phone could not show on one line.
type choiceButton struct {
	widget.BaseWidget
	words *phrase
	text  string
	tapped
	width float32 // the width it was last laid out at
	// hinted frames the choice the hint names.
	hinted bool
}

func newChoiceButton(onTap func()) *choiceButton {
	b := &choiceButton{tapped: tapped{onTap}}
	b.words = newPhrase(&b.width, 15, true, ink)
	b.ExtendBaseWidget(b)
	return b
}

// setText shows s on the button.
func (b *choiceButton) setText(s string) {
	if s == b.text {
		return
	}
	b.text = s
	b.words.set(s)
	b.Refresh()
}

// setHinted frames the button, or not, as the hint's choice.
func (b *choiceButton) setHinted(on bool) {
	if on != b.hinted {
		b.hinted = on
		b.Refresh()
	}
}

// heightFor is the button's height at width w.
func (b *choiceButton) heightFor(w float32) float32 {
	pad := 2 * theme.Padding()
	return max(44, b.words.heightFor(w-pad)+pad)
}

// Disabled reports false: a choice on screen can always be made.
func (b *choiceButton) Disabled() bool { return false }

// Shows is the button and its words, for a person's eyes (package reach).
func (b *choiceButton) Shows() (kind, what string) { return "button", b.text }

func (b *choiceButton) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(gold)
	bg.CornerRadius = theme.InputRadiusSize()
	return &choiceRenderer{b: b, bg: bg, box: container.NewPadded(b.words.object())}
}

type choiceRenderer struct {
	b   *choiceButton
	bg  *canvas.Rectangle
	box *fyne.Container
}

func (r *choiceRenderer) Layout(size fyne.Size) {
	r.b.width = size.Width
	r.bg.Resize(size)
	in := r.box.MinSize()
	r.box.Move(fyne.NewPos(0, (size.Height-in.Height)/2))
	r.box.Resize(fyne.NewSize(size.Width, in.Height))
}

func (r *choiceRenderer) MinSize() fyne.Size {
	return fyne.NewSize(120, max(44, r.box.MinSize().Height))
}

func (r *choiceRenderer) Refresh() {
	r.bg.FillColor = color.Color(gold)
	r.bg.StrokeColor, r.bg.StrokeWidth = nil, 0
	if r.b.hinted {
		r.bg.StrokeColor, r.bg.StrokeWidth = white, 4
	}
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *choiceRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.box} }

func (r *choiceRenderer) Destroy() {}
