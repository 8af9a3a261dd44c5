package ui

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
)

// tgOver is the game-over view of The Game: won or lost, the cards left,
// the rating in our words, and a replay of the piles that steps through
// the played cards move by move or pile by pile.
type tgOver struct {
	s    *TheGameScreen
	view fyne.CanvasObject

	// Headline, Left and Rating are the verdict, for tests.
	Headline, Left, Rating *widget.Label
	// The replay's controls.
	First, Prev, Next, Last *widget.Button
	Mode                    *widget.RadioGroup
	Step                    *widget.Label
	Chain                   *widget.Label
	Done                    *widget.Button
	Again                   *widget.Button // nil unless the game can be played again

	piles  [thegame.NumPiles]*tgPileView
	order  []int // indexes into s.plays in the order the replay steps
	step   int   // cards shown: order[:step]
	byPile bool
}

func newTgOver(s *TheGameScreen) *tgOver {
	o := &tgOver{s: s}
	r := s.view.Result
	head := tgw("thegame.over.lost")
	switch r.Rating() {
	case thegame.RatingWon:
		head = tgw("thegame.over.won")
	case thegame.RatingExcellent:
		head = tgw("thegame.over.excellent")
	case thegame.RatingLost:
		head = tgw("thegame.over.broken", "Command", tgCommandShort(r.Broken))
	}
	o.Headline = widget.NewLabelWithStyle(head, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	o.Headline.SizeName = theme.SizeNameSubHeadingText
	o.Headline.Wrapping = fyne.TextWrapWord
	o.Left = widget.NewLabelWithStyle(tgn("thegame.over.left", r.CardsLeft), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	o.Rating = widget.NewLabelWithStyle(tgRatingText(r.Rating()), fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	o.Rating.Wrapping = fyne.TextWrapWord

	for i := range o.piles {
		o.piles[i] = newTgPileView(i, nil)
		o.piles[i].mini = true
	}
	grid := &tgGrid{cols: 4, gap: 6}
	if s.lay.portrait {
		grid.cols = 2
	}
	pileBox := container.New(grid)
	for _, p := range o.piles {
		pileBox.Add(p)
	}
	o.First = widget.NewButtonWithIcon("", theme.MediaSkipPreviousIcon(), func() { o.show(0) })
	o.Prev = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { o.show(o.step - 1) })
	o.Next = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { o.show(o.step + 1) })
	o.Last = widget.NewButtonWithIcon("", theme.MediaSkipNextIcon(), func() { o.show(len(o.order)) })
	byMove, byPile := tgw("thegame.replay.by-move"), tgw("thegame.replay.by-pile")
	o.Mode = widget.NewRadioGroup([]string{byMove, byPile}, func(sel string) {
		o.setOrder(sel == byPile)
	})
	// Side by side on a desktop; one under the other on a phone held
	// upright, where the two choices side by side are wider than the
	// narrowest screens.
	o.Mode.Horizontal = !s.lay.portrait
	o.Mode.Required = true
	o.Step = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{})
	o.Step.Wrapping = fyne.TextWrapWord
	o.Chain = widget.NewLabel("")
	o.Chain.Wrapping = fyne.TextWrapWord
	o.Done = widget.NewButtonWithIcon(tgw("thegame.over.done"), theme.HomeIcon(), o.done)
	o.Done.Importance = widget.HighImportance

	end := fyne.CanvasObject(o.Done)
	if s.onAgain != nil {
		o.Again = playAgainButton(o.Done, theme.MediaReplayIcon(), s.onAgain)
		end = container.NewGridWithColumns(2, o.Done, o.Again)
		// One above the other where the window is too narrow for both
		// side by side (German and French on a phone).
		if s.app != nil {
			room := min(s.app.Window().Canvas().Size().Width-4*theme.Padding(), 720)
			// A grid's columns are as wide as its widest button.
			if 2*max(o.Done.MinSize().Width, o.Again.MinSize().Width)+theme.Padding() > room {
				end = container.NewGridWithColumns(1, o.Again, o.Done)
			}
		}
	}

	heading := widget.NewLabelWithStyle(tgw("thegame.replay"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	felt := container.NewStack(canvas.NewRectangle(feltColour), container.NewPadded(pileBox))
	body := container.NewVBox(
		o.Headline, o.Left, o.Rating,
		widget.NewSeparator(),
		heading, o.Mode, felt, o.Step,
		container.NewGridWithColumns(4, o.First, o.Prev, o.Next, o.Last),
		o.Chain,
		layoutSpacer(8), end, layoutSpacer(16),
	)
	// The replay's piles take a wider column than a form's.
	o.view = container.NewVScroll(container.New(columnLayout{widest: 720}, body))
	o.Mode.SetSelected(byMove)
	return o
}

// setOrder steps through the plays in the order they came, or pile by
// pile (pile 1's cards first, each pile in its order).
func (o *tgOver) setOrder(byPile bool) {
	o.byPile = byPile
	o.order = o.order[:0]
	for i := range o.s.plays {
		o.order = append(o.order, i)
	}
	if byPile {
		slices.SortStableFunc(o.order, func(a, b int) int { return o.s.plays[a].Pile - o.s.plays[b].Pile })
	}
	o.show(len(o.order))
}

// show puts the replay at step k: the first k cards of the order laid.
func (o *tgOver) show(k int) {
	k = max(0, min(k, len(o.order)))
	o.step = k
	v := o.s.view
	piles := [thegame.NumPiles]thegame.Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}
	for _, i := range o.order[:k] {
		a := o.s.plays[i]
		piles[a.Pile].Top = int(a.Card)
		piles[a.Pile].Cmd = thegame.CmdNone
		if v.Extreme {
			piles[a.Pile].Cmd = thegame.CommandOf(a.Card)
		}
	}
	cur := -1 // the pile the step's card went on, ringed
	if k > 0 {
		cur = o.s.plays[o.order[k-1]].Pile
	}
	for i, p := range o.piles {
		p.pile = piles[i]
		p.big = false
		p.target = false
		p.fresh = i == cur
		p.Refresh()
	}
	if k == 0 {
		o.Step.SetText(tgn("thegame.replay.start", len(o.order)))
		o.Chain.SetText("")
	} else {
		a := o.s.plays[o.order[k-1]]
		o.Step.SetText(tgw("thegame.replay.step", "N", k, "Of", len(o.order), "Move", o.s.moveWords(a)))
		// The story of the pile the last card went on, so far.
		var chain []string
		for _, i := range o.order[:k] {
			if p := o.s.plays[i]; p.Pile == a.Pile {
				chain = append(chain, strconv.Itoa(int(p.Card)))
			}
		}
		start := "1"
		if !piles[a.Pile].Up {
			start = "100"
		}
		o.Chain.SetText(tgw("thegame.replay.chain", "N", a.Pile+1, "Cards", start+" – "+strings.Join(chain, " – ")))
	}
	setEnabled(o.First, k > 0)
	setEnabled(o.Prev, k > 0)
	setEnabled(o.Next, k < len(o.order))
	setEnabled(o.Last, k < len(o.order))
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// done leaves the game for the home screen.
func (o *tgOver) done() {
	if a := o.s.app; a != nil {
		a.Reset(NewHome(a))
	}
}
