package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
)

// TheGameRules is the screen with the rules of The Game in our words.
type TheGameRules struct {
	staticScreen
}

// tgRuleParts are the sections of the rules, by id under thegame.rules.
var tgRuleParts = []string{"aim", "piles", "turn", "trick", "end", "score", "signals", "extreme", "one-turn", "lasting"}

// NewTheGameRules makes the rules screen of The Game.
func NewTheGameRules(a *App) *TheGameRules {
	box := container.NewVBox()
	for _, p := range tgRuleParts {
		h := widget.NewLabelWithStyle(tgw("thegame.rules."+p+".heading"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		h.Wrapping = fyne.TextWrapWord
		t := widget.NewLabel(tgw("thegame.rules." + p))
		t.Wrapping = fyne.TextWrapWord
		box.Add(h)
		box.Add(t)
		if p == "lasting" || p == "one-turn" {
			for _, k := range thegame.Commands() {
				if k.Lasting() != (p == "lasting") {
					continue
				}
				l := widget.NewLabel("• " + tgCommandShort(k) + ": " + tgCommandRule(k) + " " + tgCommandCards(k))
				l.Wrapping = fyne.TextWrapWord
				box.Add(l)
			}
		}
	}
	box.Add(layoutSpacer(16))
	return &TheGameRules{staticScreen{view: a.page(tgw("thegame.rules.title"), column(box))}}
}
