package ui

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

var panelColour = color.NRGBA{R: 0x0d, G: 0x2b, B: 0x1a, A: 0xff}

// summaryView is the sheet of a scored round: tricks and loot per team,
// the points per trick, who counts double and why, each seat's round
// points and total. Its button deals the next round.
func (t *TableScreen) summaryView(r *seat.RoundResult) fyne.CanvasObject {
	bg := canvas.NewRectangle(panelColour)
	bg.CornerRadius = 10
	title := tr("table.round-over", "Round {{.N}} is over", map[string]any{"N": r.Round})
	parts := []fyne.CanvasObject{label(title, 22, true, gold)}
	teams := container.NewVBox()
	for k := range 2 {
		var names []words.Msg
		for _, s := range r.Teams[k] {
			names = append(names, words.Plain(t.name(s)))
		}
		pts := 0
		if len(r.Teams[k]) > 0 {
			pts = (r.Tricks[k] + r.Loot[k]) * r.Rules.Points
		}
		nums := container.New(layout.NewGridLayoutWithColumns(3))
		nums.Add(label(tr("table.col-tricks", "Tricks")+" "+strconv.Itoa(r.Tricks[k]), 17, true, white))
		nums.Add(label(tr("table.col-loot", "Loot")+" "+strconv.Itoa(r.Loot[k]), 17, true, white))
		nums.Add(label(tr("table.col-points", "Points")+" "+strconv.Itoa(pts), 17, true, gold))
		teams.Add(label(say(words.Join(names, " + ")), 15, true, white))
		teams.Add(nums)
	}
	parts = append(parts, teams)
	rule := words.Msg{ID: "score.rule", Text: "Each team scores (tricks + loot cards) x {{.Value}}, for every member.", Args: map[string]any{"Value": r.Rules.Points}}
	if r.Rules.Points < 0 {
		rule = words.Msg{ID: "score.rule.negative", Text: "Each team scores (tricks + loot cards) x {{.Value}}, for every member: with -2, tricks and loot cost points.", Args: map[string]any{"Value": r.Rules.Points}}
	}
	parts = append(parts, t.colText(say(rule), 15, false))
	if r.Bonus >= 0 {
		why := words.Msg{ID: "score.why.bonus", Text: "the x2 card"}
		if len(r.Teams[0]) == 1 || len(r.Teams[1]) == 1 {
			why = words.Msg{ID: "score.why.solo", Text: "the player alone"}
		}
		parts = append(parts, t.colText(say(words.Msg{ID: "score.doubling", Text: "x2: {{.Seat}}'s round score is doubled ({{.Why}}).",
			Args: map[string]any{"Seat": words.Plain(t.name(r.Bonus)), "Why": why}}), 15, false))
	}
	seats := container.New(layout.NewGridLayoutWithColumns(3))
	for _, h := range []string{"", say(words.Msg{ID: "score.round", Text: "round"}), say(words.Msg{ID: "score.total", Text: "total"})} {
		seats.Add(label(h, 14, false, white))
	}
	for s := range r.Points {
		seats.Add(label(t.name(s), 16, true, seatTint(s)))
		pts := strconv.Itoa(r.Points[s])
		if r.Points[s] > 0 {
			pts = "+" + pts
		}
		seats.Add(label(pts, 18, true, white))
		seats.Add(label(strconv.Itoa(r.Totals[s]), 18, true, gold))
	}
	parts = append(parts, seats)
	next := widget.NewButton(tr("table.next-round", "Next"), t.nextRound)
	next.Importance = widget.HighImportance
	return reach.Region(reach.RegionSummary, bg, container.NewPadded(sheet(parts, next)))
}

// sheet lays out a round summary or the game-over view: its parts scroll
// where the window is short, its button stays in view below them.
func sheet(parts []fyne.CanvasObject, button *widget.Button) fyne.CanvasObject {
	row := container.NewCenter(container.NewGridWrap(fyne.NewSize(220, 48), button))
	return container.NewBorder(nil, row, nil, nil, container.NewVScroll(container.NewVBox(parts...)))
}

// colText is wrapped light text as wide as the table.
func (t *TableScreen) colText(s string, size float32, bold bool) fyne.CanvasObject {
	p := newPhrase(&t.lay.width, size, bold, white)
	p.set(s)
	return p.object()
}

// seatTint is a seat's colour lightened for text on the dark panel.
func seatTint(s int) color.Color {
	c := seatColour(s)
	return color.NRGBA{R: uint8((int(c.R) + 2*255) / 3), G: uint8((int(c.G) + 2*255) / 3), B: uint8((int(c.B) + 2*255) / 3), A: 0xff}
}
