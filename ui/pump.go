package ui

import (
	"context"
	"errors"
	"io"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// pump reads the seat's events on its own goroutine and shows each through
// t.do (fyne.Do), then waits as long as the event needs to be seen: a bot's
// move the pace from the settings, a won trick twice that, so that it can
// be read before it is collected. A round summary waits for the person. The
// wait never runs on the UI goroutine, and one event is shown at a time, so
// the bots never play all at once.
func (t *TableScreen) pump(ctx context.Context) {
	defer close(t.done)
	for range maxPumpEvents {
		ev, err := t.seat.Next(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil || errors.Is(err, seat.ErrLeft) {
				return
			}
			t.do(func() {
				t.status = err.Error()
				t.render()
			})
			return
		}
		t.do(func() { t.show(ev) })
		if _, ok := ev.(seat.RoundOver); ok {
			select {
			case <-ctx.Done():
				return
			case <-t.cont:
			}
			continue
		}
		if d := t.delay(ev); d > 0 {
			timer := time.NewTimer(d)
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case <-timer.C:
			}
		}
	}
}

// maxPumpEvents bounds one game's events; the longest game makes a few
// thousand.
const maxPumpEvents = 1 << 20

// show applies one event on the UI goroutine.
func (t *TableScreen) show(ev seat.Event) {
	if _, ok := ev.(seat.Dealt); ok {
		t.peek = false
	}
	if m, ok := ev.(seat.Moved); ok && m.Action.Seat == t.model.you {
		t.status = ""
	}
	t.model.apply(ev)
	if _, ok := ev.(seat.YourTurn); ok {
		// The keyboard starts at the first card that answers.
		t.focus = slices.IndexFunc(t.model.unchosen(), func(h handCard) bool { return h.Legal })
	}
	t.render()
	switch ev.(type) {
	case seat.YourTurn, seat.RoundOver:
		if t.opt.Autoplay {
			t.autoplay()
		}
	}
}

// delay is how long an event stays on its own before the next is shown.
func (t *TableScreen) delay(ev seat.Event) time.Duration {
	switch ev := ev.(type) {
	case seat.Moved:
		if ev.Action.Seat == t.model.you {
			return t.pace / 3
		}
		return t.pace
	case seat.TrickWon:
		return 2 * t.pace
	case seat.Dealt, seat.RulesSet:
		return t.pace
	}
	return 0
}

// render rebuilds the table's parts from the model.
func (t *TableScreen) render() {
	m := t.model
	l := t.lay
	l.felt = feltRect()
	if m.view.Players == 0 {
		l.info, l.seats, l.board, l.trick, l.bar, l.hand, l.over = emptyObj(), emptyObj(), emptyObj(), emptyObj(), emptyObj(), newHandBox(nil, false), nil
		t.root.Objects = []fyne.CanvasObject{l.felt}
		t.root.Refresh()
		return
	}
	l.info = t.infoView()
	l.seats = t.seatsView()
	l.board, t.fields = t.boardView()
	l.trick = t.trickView()
	var bar fyne.CanvasObject
	bar, t.bar, t.picked = t.actionBar()
	l.bar = bar
	t.cards = nil
	var cards []fyne.CanvasObject
	i := 0
	for _, hc := range m.unchosen() {
		c := hc.Card
		cv := newCardView(c, func() { t.tapCard(c) })
		cv.usable = hc.Legal
		cv.dim = hc.Dim
		cv.trump, cv.super = hc.Trump, hc.Super
		cv.focused = i == t.focus
		t.cards = append(t.cards, cv)
		cards = append(cards, cv)
		i++
	}
	l.hand = newHandBox(cards, m.view.Phase < engine.PhaseDiscard)
	l.showBoard = !m.rulesSet && m.view.Phase <= 1 // the deal and the Njet phase
	l.over = nil
	switch {
	case m.over != nil && m.summary == nil:
		var b tapper
		l.over, b = t.gameOverView()
		t.bar, t.fields, t.cards, t.picked = []tapper{b}, nil, nil, nil
	case m.summary != nil:
		var b tapper
		l.over, b = t.summaryView(m.summary)
		t.bar, t.fields, t.cards, t.picked = []tapper{b}, nil, nil, nil
	}
	objs := []fyne.CanvasObject{l.felt, l.info, l.seats, l.board, l.trick, l.bar, l.hand}
	if l.over != nil {
		objs = append(objs, l.over)
	}
	t.root.Objects = objs
	t.root.Refresh()
}
