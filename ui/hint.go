package ui

import (
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
)

// shownHint is the strong bot's answer to question seq, shown to the
// person and never played for them.
type shownHint struct {
	seq uint64
	a   engine.Action
}

// askHint works out, off the UI goroutine, what the strong bot would
// answer to the open question from the person's own view (the prompt's),
// and shows it: its cards lit in the hand and the move in words.
func (t *TableScreen) askHint() {
	p := t.model.prompt
	if p == nil || !t.opt.Hints || t.hinting || t.currentHint() != nil {
		return
	}
	t.hinting = true
	t.refresh()
	q := *p
	go func() {
		a, err := seat.Hint(q)
		t.do(func() {
			t.hinting = false
			if err != nil {
				t.status = tr("again.hint.none", "No hint now.")
			} else if p := t.model.prompt; p != nil && p.Seq == q.Seq {
				t.hint = &shownHint{seq: q.Seq, a: a}
			}
			t.refresh()
		})
	}()
}

// currentHint is the hint for the open question, or nil.
func (t *TableScreen) currentHint() *shownHint {
	if p := t.model.prompt; t.hint != nil && p != nil && p.Seq == t.hint.seq {
		return t.hint
	}
	return nil
}

// hinted reports whether the hint names card c of the hand.
func (t *TableScreen) hinted(c engine.Card) bool {
	h := t.currentHint()
	if h == nil {
		return false
	}
	switch h.a.Kind {
	case engine.ActPlay, engine.ActPass:
		return h.a.Card == c
	case engine.ActDiscard:
		return h.a.Cards[0] == c || h.a.Cards[1] == c
	}
	return false
}

// hintText says the hint in words, or what the Hint button is doing.
func (t *TableScreen) hintText() string {
	if t.hinting {
		return tr("again.hint.thinking", "Looking for a good move…")
	}
	h := t.currentHint()
	if h == nil {
		return ""
	}
	m := t.model
	var move string
	if h.a.Kind == engine.ActTeam {
		move = t.teamText(h.a)
	} else {
		seats := words.Seats{Players: m.view.Players, Name: func(s int) words.Msg {
			if s == m.you {
				return words.You()
			}
			return words.Plain(t.name(s))
		}}
		move = say(words.Action(m.view.Edition, h.a, seats))
	}
	return tr("again.hint", "Hint: {{.Move}}", map[string]any{"Move": move})
}
