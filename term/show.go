package term

import (
	"strconv"
	"strings"

	"github.com/njetlan/njet/engine"
)

// lineWidth is the width that lists of choices are wrapped to.
const lineWidth = 78

func (s *screen) showRoundStart() {
	v := s.view()
	round := "Round " + strconv.Itoa(v.Round)
	if v.Rounds > 0 {
		round += " of " + strconv.Itoa(v.Rounds)
	}
	s.out.f("\n=== %s: %s deals ===\n", round, s.longName(v.Dealer))
	s.showHand(v)
}

// showSituation shows what the person needs to decide.
func (s *screen) showSituation() {
	v := s.view()
	s.out.f("\n")
	switch v.Phase {
	case engine.PhaseNjet:
		s.showBoard(v)
		s.out.f("--- Your turn: block one free field (a row's last free field cannot be blocked) ---\n")
	case engine.PhaseTeams:
		s.showRules(v.Rules)
		s.out.f("--- Your turn: you are the start player, choose the teams ---\n")
	case engine.PhaseDiscard:
		s.showRules(v.Rules)
		s.showTeams(v)
		if v.Rules.Discard == engine.PassLeft {
			s.out.f("--- Your turn: pass one card to %s ---\n", s.name((s.you+1)%s.n))
		} else {
			s.out.f("--- Your turn: %s ---\n", s.e.FieldName(engine.RowDiscard, v.Rules.Discard))
		}
	case engine.PhaseTricks:
		s.out.f("Trump %s, supertrump %s, %s per trick and loot. ", v.Rules.Trump, superName(v.Rules), plural(v.Rules.Points, "point"))
		s.showTeams(v)
		s.showTrick(v)
		s.out.f("--- Your turn: play a card ---\n")
	}
	s.showHand(v)
}

func superName(r engine.Rules) string {
	if r.Super == engine.NoColour {
		return "none"
	}
	return r.Super.String() + " 1s"
}

// showHand lists the person's hand by colour, low to high, marking the
// trump colour and the supertrumps once the rules are known.
func (s *screen) showHand(v engine.View) {
	if s.watching {
		return // the hand is the bot host's secret now
	}
	rulesKnown := v.Phase > engine.PhaseNjet && v.Phase < engine.PhaseRoundOver
	byColour := map[engine.Colour][]string{}
	supers := false
	for _, c := range v.Hand.Cards(s.e) {
		name := strconv.Itoa(c.Value())
		if rulesKnown && v.Rules.Super != engine.NoColour && c.Value() == 1 && c.Colour() == v.Rules.Super {
			name += "*"
			supers = true
		}
		byColour[c.Colour()] = append(byColour[c.Colour()], name)
	}
	var groups []string
	for _, col := range s.e.Colours() {
		label := col.String()
		if rulesKnown && col == v.Rules.Trump {
			label += " (trump)"
		}
		values := strings.Join(byColour[col], " ")
		if values == "" {
			values = "-"
		}
		groups = append(groups, label+": "+values)
	}
	s.out.f("Your hand (%d): %s\n", v.Hand.Len(), strings.Join(groups, " | "))
	if supers {
		s.out.f("  (* supertrump)\n")
	}
}

// showBoard shows each row's fields in board order, the blocked ones in
// brackets with who blocked them.
func (s *screen) showBoard(v engine.View) {
	by := map[[2]int]string{}
	for _, b := range v.Blocks {
		by[[2]int{int(b.Row), int(b.Field)}] = s.name(b.Seat)
	}
	s.out.f("Njet board ([field: who blocked it]; the other fields are free):\n")
	for r := engine.Row(0); r < engine.NumRows; r++ {
		var fields []string
		for f := engine.Field(0); int(f) < s.e.Fields(r); f++ {
			name := s.e.FieldName(r, f)
			if r == engine.RowStart {
				name += "(" + s.holder(v, f) + ")"
			}
			if v.Board.Blocked(r, f) {
				who, ok := by[[2]int{int(r), int(f)}]
				if !ok {
					who = "nobody's"
				}
				name = "[" + name + ": " + who + "]"
			}
			fields = append(fields, name)
		}
		s.out.f("  %-8s %s\n", r, strings.Join(fields, "  "))
	}
}

// holder names the seat holding the character of start-row field f.
func (s *screen) holder(v engine.View, f engine.Field) string {
	ch := s.e.Characters()[f]
	for seat, c := range v.Characters {
		if c == ch {
			return s.name(seat)
		}
	}
	return "nobody"
}

func (s *screen) showRules(r engine.Rules) {
	s.out.f("Rules of this round: start player %s; %s; trump %s; supertrump %s; %s per trick and loot.\n",
		s.longName(r.StartSeat), s.e.FieldName(engine.RowDiscard, r.Discard), r.Trump, superName(r), plural(r.Points, "point"))
}

func (s *screen) teamNames(v engine.View, team int) string {
	var names []string
	for seat, t := range v.Team {
		if t == team {
			names = append(names, s.name(seat))
		}
	}
	return strings.Join(names, " + ")
}

func (s *screen) showTeams(v engine.View) {
	if len(v.Team) == 0 || v.Team[s.you] < 0 {
		return
	}
	s.out.f("Teams: %s (start team) vs %s", s.teamNames(v, 0), s.teamNames(v, 1))
	switch {
	case v.Bonus == s.you:
		s.out.f("; your score counts double")
	case v.Bonus >= 0:
		s.out.f("; %s's score counts double", s.name(v.Bonus))
	}
	s.out.f(".\n")
}

func (s *screen) showTrick(v engine.View) {
	total := len(v.Tricks) + v.HandSizes[s.you]
	if len(v.Trick.Plays) > 0 {
		// HandSizes already count the card played into this trick.
		total = len(v.Tricks) + v.HandSizes[v.Trick.Plays[0].Seat] + 1
	}
	mine := v.Team[s.you]
	s.out.f("Tricks so far: your team %d, the others %d.\n", v.TricksWon[mine], v.TricksWon[1-mine])
	if len(v.Trick.Plays) == 0 {
		s.out.f("Trick %d of %d: you lead.\n", len(v.Tricks)+1, total)
		return
	}
	var plays []string
	for _, p := range v.Trick.Plays {
		plays = append(plays, s.name(p.Seat)+" "+p.Card.String())
	}
	s.out.f("Trick %d of %d: %s\n", len(v.Tricks)+1, total, strings.Join(plays, ", "))
}

// showChoices lists the choices, one per line when there are few, packed
// into columns otherwise.
func (s *screen) showChoices(cs []choice) {
	s.out.f("Your choices:\n")
	if len(cs) <= 12 {
		for i, c := range cs {
			if c.hint != "" {
				s.out.f("  %2d) %-24s %s\n", i+1, c.label, c.hint)
			} else {
				s.out.f("  %2d) %s\n", i+1, c.label)
			}
		}
		return
	}
	digits := len(strconv.Itoa(len(cs)))
	width := 0
	for _, c := range cs {
		width = max(width, digits+2+len(c.label))
	}
	width += 3
	perLine := max(1, (lineWidth-2)/width)
	line := "  "
	for i, c := range cs {
		num := strconv.Itoa(i + 1)
		line += padRight(strings.Repeat(" ", digits-len(num))+num+") "+c.label, width)
		if (i+1)%perLine == 0 || i == len(cs)-1 {
			s.out.f("%s\n", strings.TrimRight(line, " "))
			line = "  "
		}
	}
}

func padRight(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}

func (s *match) showScore(h engine.RoundHistory) {
	v := s.view()
	sc := h.Score
	s.out.f("\nRound %d over: %s.\n", h.Round, plural(h.Rules.Points, "point")+" per trick and loot")
	for t := 0; t < 2; t++ {
		var names []string
		for _, seat := range h.Teams[t] {
			names = append(names, s.name(seat))
		}
		s.out.f("  %-28s %s, %d loot\n", strings.Join(names, " + ")+":", plural(sc.Tricks[t], "trick"), sc.Loot[t])
	}
	s.out.f("  %-16s %6s %6s\n", "", "round", "total")
	for seat := 0; seat < s.n; seat++ {
		mark := ""
		if seat == h.Bonus {
			mark = " (x2)"
		}
		s.out.f("  %-16s %6d %6d%s\n", s.longName(seat), sc.Points[seat], v.Totals[seat], mark)
	}
}

func (s *match) showGameOver() {
	winners := s.g.Winners()
	totals := s.g.Totals()
	var names []string
	for _, w := range winners {
		names = append(names, s.name(w))
	}
	best := 0
	if len(winners) > 0 {
		best = totals[winners[0]]
	}
	s.out.f("\n=== Game over after %s ===\n", plural(s.g.Round(), "round"))
	if len(winners) == 1 {
		if winners[0] == s.you {
			s.out.f("You win with %d points!\n", best)
		} else {
			s.out.f("%s wins with %d points.\n", names[0], best)
		}
	} else {
		s.out.f("Shared win with %d points: %s.\n", best, strings.Join(names, ", "))
	}
}
