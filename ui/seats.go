package ui

import (
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/words"
)

// seatsView shows a badge per seat: name, character, dealer mark, team,
// cards in hand and tricks taken; the seat the table waits for is lit.
func (t *TableScreen) seatsView() fyne.CanvasObject {
	m := t.model
	n := m.view.Players
	grid := container.New(layout.NewGridLayoutWithColumns(max(n, 1)))
	tricks := m.seatTricks()
	for s := range n {
		grid.Add(t.seatBadge(s, tricks[s]))
	}
	return grid
}

func (t *TableScreen) seatBadge(s, tricks int) fyne.CanvasObject {
	m := t.model
	v := m.view
	bg := canvas.NewRectangle(feltDark)
	bg.CornerRadius = 8
	bg.StrokeWidth = 2
	bg.StrokeColor = seatColour(s)
	turn := m.turn == s && m.over == nil && m.summary == nil
	textCol := color.Color(white)
	if turn {
		bg.FillColor = gold
		bg.StrokeWidth = 4
		bg.StrokeColor = white
		textCol = ink
	}
	name := label(t.name(s), 15, true, textCol)
	chip := canvas.NewRectangle(seatColour(s))
	chip.CornerRadius = 5
	chip.SetMinSize(fyne.NewSize(10, 10))
	head := container.NewHBox(container.NewCenter(chip), name)
	var lines []fyne.CanvasObject
	lines = append(lines, head)
	ch := ""
	if s < len(v.Characters) {
		ch = say(wCharacter(v.Characters[s]))
	}
	if s == v.Dealer {
		dealer := tr("table.dealer", "dealer")
		if t.badgeFits(ch + " · " + dealer) {
			ch += " · " + dealer
		} else {
			lines = append(lines, label(ch, 12, false, textCol))
			ch = dealer // a narrow badge: the dealer mark on a line of its own
		}
	}
	lines = append(lines, label(ch, 12, false, textCol))
	if s < len(v.HandSizes) && (!t.lay.portrait || v.Phase >= engine.PhaseTeams) {
		lines = append(lines, label(trn("table.cards", "{{.Count}} cards", v.HandSizes[s]), 12, false, textCol))
	}
	if v.Phase >= engine.PhaseTricks || tricks > 0 {
		lines = append(lines, label(trn("table.tricks", "{{.Count}} tricks", tricks), 12, true, textCol))
	}
	if s < len(v.Team) && v.Team[s] >= 0 {
		team := tr("table.team-a", "team A")
		if v.Team[s] == 1 {
			team = tr("table.team-b", "team B")
		}
		if v.Bonus == s {
			team += " · x2"
		}
		lines = append(lines, label(team, 12, true, textCol))
	}
	if turn {
		lines = append(lines, label(tr("table.to-move", "to move"), 12, true, textCol))
	}
	return container.NewStack(bg, container.NewPadded(container.NewVBox(lines...)))
}

// badgeFits reports whether a line of small text fits a seat's badge at
// the width the table was last laid out at.
func (t *TableScreen) badgeFits(s string) bool {
	n := max(t.model.view.Players, 1)
	if t.lay.width == 0 {
		return true
	}
	// the grid's gaps between badges, then each badge's border and padding
	inner := (t.lay.width-2*pad-float32(n-1)*4)/float32(n) - 2*4 - 4
	return label(s, 12, false, white).MinSize().Width <= inner
}

// infoView is the bar that is always visible: the round of the total, the
// round's rules once decided (trump, supertrump, points per trick, discard)
// and the running scores.
func (t *TableScreen) infoView() fyne.CanvasObject {
	m := t.model
	v := m.view
	bg := canvas.NewRectangle(color.NRGBA{R: 0x10, G: 0x33, B: 0x20, A: 0xff})
	bg.CornerRadius = 8
	round := t.roundText()
	hb := container.NewHBox
	items := []fyne.CanvasObject{label(round, 16, true, white)}
	joined := map[fyne.CanvasObject]bool{}
	if m.rulesSet || v.Phase >= engine.PhaseTeams {
		r := v.Rules
		items = append(items,
			hb(label(say(words.Row(v.Edition, engine.RowTrump))+":", 15, false, white), t.suitChip(0, r.Trump), label(say(words.Colour(r.Trump)), 15, true, white)))
		if r.Super == engine.NoColour {
			items = append(items, hb(label(say(words.Row(v.Edition, engine.RowSuper))+":", 15, false, white),
				label(say(words.Msg{ID: "field.super.njet", Text: "none"}), 15, true, white)))
		} else {
			items = append(items, hb(label(say(words.Row(v.Edition, engine.RowSuper))+":", 15, false, white),
				t.suitChip(1, r.Super), label(say(words.Colour(r.Super))+" 1", 15, true, white)))
		}
		items = append(items,
			label(tr("table.per-trick", "{{.Value}} per trick", map[string]any{"Value": r.Points}), 15, true, gold),
			label(say(wField(v.Edition, engine.RowDiscard, r.Discard)), 15, false, white))
	} else {
		for i, w := range strings.Fields(tr("table.njet-phase", "Njet! Block fields to set the round's rules")) {
			word := label(w, 15, false, white)
			if i > 0 {
				joined[word] = true
			}
			items = append(items, word)
		}
	}
	items = append(items, label(tr("table.scores", "Scores:"), 15, false, white))
	for s, tot := range m.totals() {
		chip := canvas.NewRectangle(seatColour(s))
		chip.CornerRadius = 4
		chip.SetMinSize(fyne.NewSize(10, 10))
		items = append(items, hb(container.NewCenter(chip), label(t.shortName(s)+" "+strconv.Itoa(tot), 15, true, white)))
	}
	flow := container.New(&flowLayout{width: &t.lay.width, gap: 14, joined: joined, space: 4}, items...)
	return container.NewStack(bg, container.NewPadded(flow))
}

// roundText names the round of the total: "Round 3 of 8", or in a
// target-score game "Round 3 · to 50 points".
func (t *TableScreen) roundText() string {
	m := t.model
	n := m.view.Round
	switch {
	case m.rounds > 0:
		return tr("table.round", "Round {{.N}} of {{.Of}}", map[string]any{"N": n, "Of": m.rounds})
	case m.target > 0:
		return tr("table.round-target", "Round {{.N}} · to {{.Target}} points", map[string]any{"N": n, "Target": m.target})
	}
	return tr("table.round-open", "Round {{.N}}", map[string]any{"N": n})
}

// suitChip is a small mark of colour c in the info bar's place slot (0 the
// trump, 1 the supertrump).
func (t *TableScreen) suitChip(slot int, c engine.Colour) fyne.CanvasObject {
	if c == engine.NoColour {
		return label("–", 15, true, white)
	}
	bg := canvas.NewRectangle(cardFace)
	bg.CornerRadius = 4
	mark := t.views.chip(slot, c)
	box := container.NewGridWrap(fyne.NewSize(20, 20), container.NewStack(bg, container.NewPadded(mark)))
	return container.NewCenter(box)
}
