package ui

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// answer picks the model's answer to the open question the way a person
// tapping the first enabled control would: the first blockable field, the
// first team, or the first usable cards and then the confirm.
func answer(t *testing.T, m *tableModel) engine.Action {
	t.Helper()
	switch m.prompt.Kind {
	case engine.ActBlock:
		for _, row := range m.board() {
			for _, f := range row {
				if f.Blockable {
					a, ok := m.blockAction(f.Row, f.Field)
					if !ok {
						t.Fatalf("blockable field %v %v has no action", f.Row, f.Field)
					}
					return a
				}
			}
		}
	case engine.ActTeam:
		return m.teamChoices()[0]
	}
	for range 3 {
		if a, ok := m.chosenAction(); ok {
			return a
		}
		i := slices.IndexFunc(m.hand(), func(h handCard) bool { return h.Legal })
		if i < 0 {
			t.Fatalf("no usable card for a %s; chosen %v", m.prompt.Kind, m.chosen)
		}
		if a, ok := m.choose(m.hand()[i].Card); ok {
			return a
		}
	}
	t.Fatalf("no answer to a %s", m.prompt.Kind)
	return engine.Action{}
}

// TestModelWholeGame feeds every event of whole local games into the model
// and checks what it shows against the events: the hand is the view's,
// sorted by suit (R-TRICK-1: trumps together, last) and marked legal exactly
// as the prompt allows, dimmed only where a card is asked for and this one
// may not be used (never while blocking, choosing a team or waiting); blocked fields name their blocker; totals follow the
// rounds.
func TestModelWholeGame(t *testing.T) {
	cases := []seat.LocalConfig{
		{Edition: engine.Classic, Players: 3, Seed: 7, Short: true},
		{Edition: engine.Classic, Players: 4, Seed: 3, Short: true, You: 1},
		{Edition: engine.Modern, Players: 4, Seed: 21, Target: 5},
		{Edition: engine.Modern, Players: 5, Seed: 9, Target: 5, You: 4},
		{Edition: engine.Modern, Players: 2, Seed: 5, Target: 6},
	}
	for _, cfg := range cases {
		t.Run(cfg.Edition.String()+"-"+string(rune('0'+cfg.Players))+"p", func(t *testing.T) {
			l, err := seat.NewLocal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			m := newTableModel(nil)
			kinds := map[engine.Kind]bool{}
			for range 20000 {
				ev, err := l.Next(context.Background())
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				m.apply(ev)
				if m.you != cfg.You {
					t.Fatalf("model seat %d", m.you)
				}
				h := m.hand()
				if len(h) != m.view.Hand.Len() {
					t.Fatalf("hand shows %d of %d cards", len(h), m.view.Hand.Len())
				}
				asks := m.prompt != nil && m.prompt.Kind != engine.ActBlock && m.prompt.Kind != engine.ActTeam
				for _, hc := range h {
					if hc.Dim != (asks && !hc.Legal) {
						t.Fatalf("%v dimmed %v while the question is %v (legal %v)", hc.Card, hc.Dim, m.prompt, hc.Legal)
					}
				}
				for i := 1; i < len(h); i++ {
					a, b := h[i-1], h[i]
					if a.Trump && !b.Trump {
						t.Fatalf("R-TRICK-1: trump %v before %v", a.Card, b.Card)
					}
				}
				for _, row := range m.board() {
					for _, f := range row {
						if f.By >= 0 && !slices.Contains(m.view.Blocks, engine.Block{Seat: f.By, Row: f.Row, Field: f.Field}) {
							t.Fatalf("field %v %v shown blocked by %d", f.Row, f.Field, f.By)
						}
					}
				}
				y, ok := ev.(seat.YourTurn)
				if !ok {
					continue
				}
				kinds[y.Prompt.Kind] = true
				if y.Prompt.Kind == engine.ActPlay {
					for _, hc := range m.hand() {
						legal := slices.ContainsFunc(y.Prompt.Legal, func(a engine.Action) bool { return a.Card == hc.Card })
						if hc.Legal != legal {
							t.Fatalf("R-TRICK-2: %v shown legal=%v, engine says %v", hc.Card, hc.Legal, legal)
						}
					}
				}
				if err := l.Choose(y.Prompt.Seq, answer(t, m)); err != nil {
					t.Fatalf("Choose: %v", err)
				}
			}
			if m.over == nil {
				t.Fatal("no game over")
			}
			if !slices.Equal(m.totals(), l.Totals()) {
				t.Fatalf("model totals %v, engine %v", m.totals(), l.Totals())
			}
			run := m.running()
			for s := range run {
				if len(run[s]) != len(m.results)+1 || run[s][len(run[s])-1] != l.Totals()[s] {
					t.Fatalf("running totals of seat %d: %v", s, run[s])
				}
			}
			if !kinds[engine.ActBlock] || !kinds[engine.ActPlay] {
				t.Fatalf("questions seen: %v", kinds)
			}
		})
	}
}

// TestModelDiscardTwo: under "discard 2" the person picks cards one at a
// time, the confirm appears only with two, and a picked card goes back.
func TestModelDiscardTwo(t *testing.T) {
	e := engine.Classic
	cards := engine.HandOf(engine.CardOf(e, 0), engine.CardOf(e, 5), engine.CardOf(e, 12))
	var legal []engine.Action
	cs := cards.Cards(e)
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			legal = append(legal, engine.Action{Kind: engine.ActDiscard, Cards: [2]engine.Card{cs[i], cs[j]}, Card: engine.NoCard})
		}
	}
	m := newTableModel(nil)
	v := engine.View{Edition: e, Players: 3, Hand: cards, Phase: engine.PhaseDiscard,
		Rules: engine.Rules{Discard: engine.Discard2, Trump: engine.Red, Super: engine.NoColour, Points: 1}}
	m.apply(seat.Sync{State: seat.State{View: v}})
	m.apply(seat.RulesSet{Rules: v.Rules})
	m.apply(seat.YourTurn{Prompt: seat.Prompt{Seq: 4, Kind: engine.ActDiscard, View: v, Legal: legal}})
	if m.needed() != 2 {
		t.Fatalf("needed %d", m.needed())
	}
	if _, ok := m.choose(cs[1]); ok {
		t.Fatal("one card answered a discard of two")
	}
	if _, ok := m.chosenAction(); ok {
		t.Fatal("confirm with one card of two")
	}
	for _, h := range m.hand() {
		if h.Card == cs[1] && (!h.Chosen || h.Legal) {
			t.Fatalf("the picked card: %+v", h)
		}
	}
	m.choose(cs[2])
	a, ok := m.chosenAction()
	if !ok || a != legal[2] {
		t.Fatalf("confirm %v %v, want %v", a, ok, legal[2])
	}
	for _, h := range m.hand() {
		if h.Legal {
			t.Fatalf("%v usable with two picked", h.Card)
		}
	}
	m.unchoose(cs[1])
	if _, ok := m.chosenAction(); ok || len(m.chosen) != 1 {
		t.Fatalf("after putting one back: chosen %v", m.chosen)
	}
}
