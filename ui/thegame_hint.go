package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
)

// offerHints puts a Hint button in the table's bar: on the person's turn
// it shows the strong bot's move from the person's own view.
func (t *TheGameScreen) offerHints() {
	if t.Hint != nil {
		return
	}
	t.Hint = widget.NewButton(tr("again.hint.button", "Hint"), t.showHint)
	t.lay.barLay.weights = append(t.lay.barLay.weights, 3)
	if bar, ok := t.lay.bar.(*fyne.Container); ok {
		bar.Add(t.Hint)
	}
	t.render()
}

// showHint asks the strong bot for the person's move and shows it without
// playing it: the card is picked, so its piles are ringed, and the note
// says where it goes; or the note says to end the turn.
func (t *TheGameScreen) showHint() {
	if !t.myTurn() {
		t.tellWait()
		return
	}
	a, err := seat.TheGameHint(t.view)
	t.hinted = nil
	switch {
	case err != nil:
		t.status, t.bad = tr("again.hint.none", "No hint now."), true
	case a.Kind == thegame.ActPlay:
		t.picked, t.hinted = a.Card, &a
		t.status, t.bad = tr("again.hint.lay", "Hint: lay {{.Card}} on pile {{.Pile}}.", map[string]any{"Card": int(a.Card), "Pile": a.Pile + 1}), false
	default:
		t.status, t.bad = tr("again.hint.end", "Hint: end your turn."), false
	}
	t.render()
}
