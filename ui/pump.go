package ui

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// pump is the one goroutine that feeds the screen: it shows the seat's
// events and the answers to the person's choices, each through t.do
// (fyne.Do), one at a time and in order, so that no two changes of the
// model or the widgets ever run at once, whichever driver runs t.do. After
// an event it waits as long as the event needs to be seen: a bot's move the
// pace from the settings, a won trick twice that, so that it can be read
// before it is collected. A round summary waits for the person. Answers to
// choices are shown during these waits too. The waits never run on the UI
// goroutine, so the app never freezes and the bots never play all at once.
func (t *TableScreen) pump(ctx context.Context) {
	var readers sync.WaitGroup
	defer func() {
		readers.Wait()
		close(t.done)
	}()
	events := make(chan seatEvent) // unbuffered: the next event is read once this one is shown
	readers.Add(1)
	go func() {
		defer readers.Done()
		t.read(ctx, events)
	}()
	// hold shows answers until ctx ends (false) or wake fires (true).
	hold := func(wake <-chan struct{}, timer <-chan time.Time) bool {
		for range maxPumpEvents {
			select {
			case <-ctx.Done():
				return false
			case a := <-t.answers:
				t.do(func() { t.answered(a) })
			case <-wake:
				return true
			case <-timer:
				return true
			}
		}
		return false
	}
	you := -1 // the person's seat, the pump's own copy: the model is the UI goroutine's
	for range maxPumpEvents {
		var se seatEvent
		select {
		case <-ctx.Done():
			return
		case a := <-t.answers:
			t.do(func() { t.answered(a) })
			continue
		case se = <-events:
		}
		if se.err != nil {
			err := se.err
			if errors.Is(err, io.EOF) || ctx.Err() != nil || errors.Is(err, seat.ErrLeft) {
				// The game has ended: answers still come, until the screen stops.
				hold(nil, nil)
				return
			}
			t.do(func() {
				t.status = err.Error()
				t.render()
			})
			hold(nil, nil)
			return
		}
		ev := se.ev
		if s, ok := ev.(seat.Sync); ok {
			you = s.State.You
		}
		t.do(func() { t.show(ev) })
		if _, ok := ev.(seat.RoundOver); ok {
			if !hold(t.cont, nil) {
				return
			}
			continue
		}
		if d := t.delay(ev, you); d > 0 {
			timer := time.NewTimer(d)
			ok := hold(nil, timer.C)
			timer.Stop()
			if !ok {
				return
			}
		}
	}
}

// seatEvent is one result of seat.Next.
type seatEvent struct {
	ev  seat.Event
	err error
}

// read passes the seat's events to the pump until an error or ctx ends.
func (t *TableScreen) read(ctx context.Context, out chan<- seatEvent) {
	for range maxPumpEvents {
		ev, err := t.seat.Next(ctx)
		select {
		case out <- seatEvent{ev: ev, err: err}:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// choiceAnswer is what the seat said to a choice of the person.
type choiceAnswer struct {
	seq  uint64
	err  error
	sent bool // a choice through send, not a card tried for its reason
}

// answered shows the seat's answer to a choice, on the UI goroutine.
func (t *TableScreen) answered(a choiceAnswer) {
	if !a.sent {
		if a.err != nil {
			t.status = t.reason(a.err)
			t.render()
		}
		return
	}
	t.sent = false
	if a.err != nil {
		t.status = t.reason(a.err)
		t.render()
		t.autoplay()
		return
	}
	t.status = ""
	if p := t.model.prompt; p != nil && p.Seq == a.seq {
		t.model.prompt, t.model.chosen = nil, nil // answered; the move itself comes from the seat
		t.render()
	}
	if t.opt.OnChoice != nil {
		t.opt.OnChoice()
	}
	// A question shown while this answer was on its way is answered now.
	t.autoplay()
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
		t.autoplay()
	}
}

// delay is how long an event stays on its own before the next is shown;
// you is the person's seat.
func (t *TableScreen) delay(ev seat.Event, you int) time.Duration {
	switch ev := ev.(type) {
	case seat.Moved:
		if ev.Action.Seat == you {
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
		l.info, l.seats, l.board, l.trick, l.bar, l.hand, l.over = emptyObj(), emptyObj(), emptyObj(), emptyObj(), emptyObj(), t.views.handRow(nil, false), nil
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
		cv := t.views.card(t.views.hand, c, func() { t.tapCard(c) },
			cardState{usable: hc.Legal, dim: hc.Dim, trump: hc.Trump, super: hc.Super, focused: i == t.focus})
		t.cards = append(t.cards, cv)
		cards = append(cards, cv)
		i++
	}
	l.hand = t.views.handRow(cards, m.view.Phase < engine.PhaseDiscard)
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
