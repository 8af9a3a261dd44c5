package ui

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
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
				t.refresh()
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
			t.refresh()
		}
		return
	}
	t.sent = false
	if a.err != nil {
		t.status = t.reason(a.err)
		t.refresh()
		return
	}
	t.status = ""
	if p := t.model.prompt; p != nil && p.Seq == a.seq {
		t.model.prompt, t.model.chosen = nil, nil // answered; the move itself comes from the seat
		t.refresh()
	}
	if t.opt.OnChoice != nil {
		t.opt.OnChoice()
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
	if p := t.model.prompt; t.forcing && (p == nil || p.Seq != t.forcedSeq) {
		t.forcing = false // the question it was for is gone
	}
	if _, ok := ev.(seat.YourTurn); ok {
		// The keyboard starts at the first card that answers.
		t.focus = slices.IndexFunc(t.model.unchosen(), func(h handCard) bool { return h.Legal })
		t.force()
	}
	t.refresh()
}

// force plays the person's card for them when it is the only one they may
// play and the round is at its end: their last card, or the one legal
// card of their last two. The bar says so for a moment first.
func (t *TableScreen) force() {
	m := t.model
	p := m.prompt
	if p == nil || p.Kind != engine.ActPlay || len(p.Legal) != 1 || m.view.Hand.Len() > 2 {
		return
	}
	a := p.Legal[0]
	args := map[string]any{"Card": words.Card(a.Card)}
	if m.view.Hand.Len() == 1 {
		t.status = say(words.Msg{ID: "prompt.forced.last", Text: "Your last card plays itself: {{.Card}}.", Args: args})
	} else {
		t.status = say(words.Msg{ID: "prompt.forced.only", Text: "Only {{.Card}} can be played: it plays itself.", Args: args})
	}
	t.forcing, t.forcedSeq = true, p.Seq
	go func() {
		timer := time.NewTimer(2 * t.pace)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-t.quit:
			return
		}
		t.do(func() {
			if t.forcing && t.model.prompt != nil && t.model.prompt.Seq == t.forcedSeq {
				t.forcing = false
				t.send(a)
			}
		})
	}()
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
