package ui

import "fyne.io/fyne/v2"

// tapped is the part of a drawn control that a finger reaches: a card of
// either game, a pile, a field of the board, a choice. Embedded beside
// widget.BaseWidget it makes the widget fyne.Tappable.
type tapped struct {
	onTap func()
}

// Tapped sends the tap on, also for a control that may not be used now,
// whose handler says why.
func (t *tapped) Tapped(*fyne.PointEvent) {
	if t.onTap != nil {
		t.onTap()
	}
}
