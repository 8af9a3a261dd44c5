package ui

import (
	"cmp"
	"slices"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// tableModel is what the table screen shows, built only from a seat's
// events: no Fyne and no rules. Legality comes from the prompt's Legal list,
// scores and winners from the events; the model only remembers and selects.
type tableModel struct {
	you   int
	view  engine.View // the person's view after the last event
	seats []seat.SeatInfo
	names []string // by seat; empty entries are named by the screen

	prompt *seat.Prompt // the open question
	turn   int          // the seat the table waits for, or -1

	trick    engine.Trick // the trick on the table: under way, or just won
	trickN   int          // its number in the round, once a card is on it
	won      int          // the tricks won this round so far
	trickWon *seat.TrickWon
	last     *seat.TrickWon // the last complete trick of the round, to look at again

	chosen   []engine.Card // cards picked for a discard or pass, in the order picked
	received engine.Card   // the card passed to the person this round, or NoCard
	rulesSet bool          // the Njet phase of the round is over

	results []seat.RoundResult
	summary *seat.RoundResult // a scored round waiting to be read
	over    *seat.GameOver
	rounds  int // rounds in the game, 0 in the target-score variant
	target  int // the score that ends a target-score game, else 0
}

// newTableModel returns an empty model for the person at seat you.
func newTableModel(names []string) *tableModel {
	return &tableModel{turn: -1, names: slices.Clone(names), received: engine.NoCard,
		trick: engine.Trick{Leader: -1, Winner: -1}}
}

// apply takes one event into the model.
func (m *tableModel) apply(ev seat.Event) {
	switch ev := ev.(type) {
	case seat.Sync:
		st := ev.State
		m.you, m.view, m.seats, m.rounds, m.target = st.You, st.View, slices.Clone(st.Seats), st.Rounds, st.Target
		m.results = slices.Clone(st.Results)
		m.prompt, m.chosen, m.turn = st.Prompt, nil, -1
		if st.Turn != nil {
			m.turn = st.Turn.Seat
		}
		m.trick, m.trickWon, m.last = st.View.Trick, nil, nil
		m.won = len(st.View.Tricks)
		m.trickN = m.won + 1
		if n := len(st.View.Tricks); n > 0 {
			t := st.View.Tricks[n-1]
			m.last = &seat.TrickWon{N: n, Trick: t, Why: engine.TrickWin(t, st.View.Rules)}
		}
		m.received = st.View.Received
		m.rulesSet = st.View.Phase >= engine.PhaseTeams && st.View.Phase < engine.PhaseRoundOver
	case seat.Dealt:
		m.view, m.rounds = ev.View, ev.Rounds
		m.summary, m.trickWon, m.last, m.chosen = nil, nil, nil, nil
		m.trick = engine.Trick{Leader: -1, Winner: -1}
		m.trickN, m.won = 0, 0
		m.received, m.rulesSet = engine.NoCard, false
	case seat.Turn:
		m.turn = ev.Seat
	case seat.YourTurn:
		p := ev.Prompt
		m.prompt, m.view, m.chosen, m.turn = &p, p.View, nil, m.you
	case seat.Withdrawn:
		if m.prompt != nil && m.prompt.Seq == ev.Seq {
			m.prompt, m.chosen = nil, nil
		}
	case seat.Moved:
		m.view = ev.View
		if ev.Action.Seat == m.you {
			m.prompt, m.chosen = nil, nil
		}
		m.turn = -1
		if ev.Action.Kind == engine.ActPlay {
			if m.trickWon != nil {
				m.trick, m.trickWon = engine.Trick{Leader: ev.Action.Seat, Winner: -1}, nil
			}
			if len(m.trick.Plays) == 0 {
				m.trick.Leader = ev.Action.Seat
				m.trickN = m.won + 1
			}
			m.trick.Plays = append(m.trick.Plays, engine.Play{Seat: ev.Action.Seat, Card: ev.Action.Card})
		}
	case seat.RulesSet:
		m.view.Rules, m.rulesSet = ev.Rules, true
	case seat.TeamsSet:
		m.view.Team, m.view.Bonus = slices.Clone(ev.Team), ev.Bonus
	case seat.PassReceived:
		m.received = ev.Card
	case seat.TrickWon:
		w := ev
		m.trick, m.trickWon, m.last = ev.Trick, &w, &w
		m.trickN, m.won = ev.N, ev.N
	case seat.RoundOver:
		r := ev.Result
		m.view, m.summary, m.turn = ev.View, &r, -1
		m.results = append(m.results, r)
	case seat.GameOver:
		o := ev
		m.over, m.turn = &o, -1
	}
}

// handCard is one card of the person's hand as the hand row shows it.
type handCard struct {
	Card   engine.Card
	Legal  bool // may be tapped now (played, or picked for a discard or pass)
	Trump  bool // of the trump suit under the round's rules
	Super  bool // a supertrump
	Chosen bool
	// Dim is set when a card is asked for and this one may not be used:
	// while blocking, choosing a team or waiting the hand reads as dealt.
	Dim bool
}

// suitRank orders suits in the hand: the edition's board order, with the
// trump suit last once the rules are known, so trumps sit at the right end.
func (m *tableModel) suitRank(c engine.Card) int {
	cols := m.view.Edition.Colours()
	col := c.Colour()
	if m.rulesSet {
		col = engine.SuitOf(c, m.view.Rules)
		if col == m.view.Rules.Trump {
			return 10
		}
	}
	return slices.Index(cols[:], col)
}

// hand lists the person's cards sorted by suit and value, each marked legal
// when some legal answer of the open question uses it together with the
// cards already chosen.
func (m *tableModel) hand() []handCard {
	cards := m.view.Hand.Cards(m.view.Edition)
	slices.SortStableFunc(cards, func(a, b engine.Card) int {
		if c := cmp.Compare(m.suitRank(a), m.suitRank(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Value(), b.Value())
	})
	out := make([]handCard, 0, len(cards))
	for _, c := range cards {
		hc := handCard{Card: c, Chosen: slices.Contains(m.chosen, c)}
		hc.Trump, hc.Super = m.trumpMarks(c)
		hc.Legal = !hc.Chosen && m.cardUsable(c)
		hc.Dim = m.asksCard() && !hc.Legal
		out = append(out, hc)
	}
	return out
}

// trumpMarks reports whether card c is a trump and whether it is a
// supertrump under the round's rules, once they are known.
func (m *tableModel) trumpMarks(c engine.Card) (trump, super bool) {
	if !m.rulesSet {
		return false, false
	}
	r := m.view.Rules
	return engine.SuitOf(c, r) == r.Trump, r.Super != engine.NoColour && c.Colour() == r.Super && c.Value() == 1
}

// asksCard reports whether the open question is answered with cards: a
// play, a discard or a pass.
func (m *tableModel) asksCard() bool {
	if m.prompt == nil {
		return false
	}
	switch m.prompt.Kind {
	case engine.ActPlay, engine.ActDiscard, engine.ActPass:
		return true
	}
	return false
}

// unchosen is the hand without the cards picked for a discard or pass:
// the cards the hand row shows.
func (m *tableModel) unchosen() []handCard {
	return slices.DeleteFunc(m.hand(), func(h handCard) bool { return h.Chosen })
}

// cardUsable reports whether card c, with the cards chosen so far, is part
// of a legal answer.
func (m *tableModel) cardUsable(c engine.Card) bool {
	if m.prompt == nil {
		return false
	}
	for _, a := range m.prompt.Legal {
		switch a.Kind {
		case engine.ActPlay, engine.ActPass:
			if a.Card == c && len(m.chosen) == 0 {
				return true
			}
		case engine.ActDiscard:
			cards := discardCards(a)
			if slices.Contains(cards, c) && len(m.chosen) < len(cards) && subset(m.chosen, cards) {
				return true
			}
		}
	}
	return false
}

// discardCards lists the cards of a discard.
func discardCards(a engine.Action) []engine.Card {
	if a.Cards[1] == engine.NoCard {
		return []engine.Card{a.Cards[0]}
	}
	return []engine.Card{a.Cards[0], a.Cards[1]}
}

func subset(sub, set []engine.Card) bool {
	for _, c := range sub {
		if !slices.Contains(set, c) {
			return false
		}
	}
	return true
}

// choose picks card c for the discard or pass under way, or plays it: it
// returns the action to send when the card alone answers the question.
func (m *tableModel) choose(c engine.Card) (engine.Action, bool) {
	if m.prompt == nil || !m.cardUsable(c) {
		return engine.Action{}, false
	}
	if m.prompt.Kind == engine.ActPlay {
		for _, a := range m.prompt.Legal {
			if a.Card == c {
				return a, true
			}
		}
	}
	m.chosen = append(m.chosen, c)
	return engine.Action{}, false
}

// unchoose puts a chosen card back into the hand.
func (m *tableModel) unchoose(c engine.Card) {
	m.chosen = slices.DeleteFunc(m.chosen, func(x engine.Card) bool { return x == c })
}

// chosenAction is the legal discard or pass made of exactly the chosen
// cards, if there is one: the confirm button sends it.
func (m *tableModel) chosenAction() (engine.Action, bool) {
	if m.prompt == nil || len(m.chosen) == 0 {
		return engine.Action{}, false
	}
	for _, a := range m.prompt.Legal {
		switch a.Kind {
		case engine.ActPass:
			if len(m.chosen) == 1 && a.Card == m.chosen[0] {
				return a, true
			}
		case engine.ActDiscard:
			cards := discardCards(a)
			if len(cards) == len(m.chosen) && subset(m.chosen, cards) {
				return a, true
			}
		}
	}
	return engine.Action{}, false
}

// needed is how many cards the open discard or pass takes.
func (m *tableModel) needed() int {
	if m.prompt == nil || len(m.prompt.Legal) == 0 {
		return 0
	}
	switch a := m.prompt.Legal[0]; a.Kind {
	case engine.ActDiscard:
		return len(discardCards(a))
	case engine.ActPass:
		return 1
	}
	return 0
}

// fieldState is one field of the Njet board as shown.
type fieldState struct {
	Row   engine.Row
	Field engine.Field
	By    int  // the seat that blocked it, or -1 (-2: blocked from the start, no seat holds the character)
	Rule  bool // the row is decided and this is its free field
	// Blockable is set while the person must block and may block this
	// field; Last when it is free but the last free field of its row.
	Blockable bool
	Last      bool
	// Hinted marks the field the hint says to block.
	Hinted bool
}

// board lists the fields of each row.
func (m *tableModel) board() [engine.NumRows][]fieldState {
	var out [engine.NumRows][]fieldState
	v := m.view
	e := v.Edition
	if !e.Valid() {
		return out
	}
	blocking := m.prompt != nil && m.prompt.Kind == engine.ActBlock
	for r := engine.Row(0); r < engine.NumRows; r++ {
		free := v.Board.FreeCount(e, r)
		for f := engine.Field(0); int(f) < e.Fields(r); f++ {
			fs := fieldState{Row: r, Field: f, By: -1}
			if v.Board.Blocked(r, f) {
				fs.By = -2
				for _, b := range v.Blocks {
					if b.Row == r && b.Field == f {
						fs.By = b.Seat
					}
				}
			} else {
				fs.Rule = free == 1
				fs.Last = free == 1
			}
			if blocking {
				fs.Blockable = slices.ContainsFunc(m.prompt.Legal, func(a engine.Action) bool {
					return a.Kind == engine.ActBlock && a.Row == r && a.Field == f
				})
			}
			out[r] = append(out[r], fs)
		}
	}
	return out
}

// blockAction is the legal block of field f of row r, if there is one.
func (m *tableModel) blockAction(r engine.Row, f engine.Field) (engine.Action, bool) {
	if m.prompt == nil {
		return engine.Action{}, false
	}
	for _, a := range m.prompt.Legal {
		if a.Kind == engine.ActBlock && a.Row == r && a.Field == f {
			return a, true
		}
	}
	return engine.Action{}, false
}

// teamChoices lists the legal team choices of the open question.
func (m *tableModel) teamChoices() []engine.Action {
	if m.prompt == nil || m.prompt.Kind != engine.ActTeam {
		return nil
	}
	return slices.Clone(m.prompt.Legal)
}

// seatTricks counts the tricks each seat has taken this round.
func (m *tableModel) seatTricks() []int {
	out := make([]int, m.view.Players)
	for _, t := range m.view.Tricks {
		if t.Winner >= 0 && t.Winner < len(out) {
			out[t.Winner]++
		}
	}
	return out
}

// totals are the running totals per seat.
func (m *tableModel) totals() []int {
	if m.over != nil {
		return slices.Clone(m.over.Totals)
	}
	if n := len(m.results); n > 0 {
		return slices.Clone(m.results[n-1].Totals)
	}
	if len(m.view.Totals) > 0 {
		return slices.Clone(m.view.Totals)
	}
	return make([]int, m.view.Players)
}

// running is each seat's total after every round, starting from 0: the
// game-over chart's lines.
func (m *tableModel) running() [][]int {
	n := m.view.Players
	out := make([][]int, n)
	for s := range out {
		out[s] = []int{0}
		for _, r := range m.results {
			if s < len(r.Totals) {
				out[s] = append(out[s], r.Totals[s])
			}
		}
	}
	return out
}

// trickNumber is the number of the trick on the table, or of the next one
// while the table is empty. The view's count of tricks moves on with the
// play that completes a trick, before the trick is told won; the number
// here stays with the trick's cards until then.
func (m *tableModel) trickNumber() int {
	if len(m.trick.Plays) > 0 && m.trickN > 0 {
		return m.trickN
	}
	return m.won + 1
}
