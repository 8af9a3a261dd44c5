package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
)

// TheGameRules is the screen with the rules of The Game in our words.
type TheGameRules struct {
	view fyne.CanvasObject
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
	return &TheGameRules{view: a.page(tgw("thegame.rules.title"), column(box))}
}

// View is the screen's content.
func (r *TheGameRules) View() fyne.CanvasObject { return r.view }

// Start does nothing.
func (r *TheGameRules) Start(context.Context) {}

// Stop does nothing.
func (r *TheGameRules) Stop() {}
