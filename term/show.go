package term

import (
	"slices"
	"strconv"
	"strings"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
)

func (s *screen) showRoundStart() {
	v := s.view()
	s.out.f("\n=== %s ===\n", words.RoundStart(v.Round, v.Rounds, s.whoLong(v.Dealer)))
	s.showHand(v)
}

// showSituation shows what the person needs to decide: the board or the
// rules (once a round, or again on "help"), the teams, the trick, the
// prompt, the hand and the choices.
func (s *screen) showSituation(cs []choice, again bool) {
	v := s.view()
	s.out.f("\n")
	switch v.Phase {
	case engine.PhaseNjet:
		s.showBoard(v, cs)
	case engine.PhaseTeams:
		if again || !s.rulesShown {
			s.showRules(v.Rules)
		}
		s.out.say(words.TeamHelp(s.n))
	case engine.PhaseDiscard:
		if again || !s.rulesShown {
			s.showRules(v.Rules)
			s.showTeams(v)
		}
	case engine.PhaseTricks:
		if again {
			s.showRules(v.Rules)
		}
		s.showTeams(v)
		s.showTrick(v)
	}
	s.out.say(words.Prompt(v, s.seats()))
	s.showHand(v)
	if v.Phase != engine.PhaseNjet {
		s.showChoices(cs)
	}
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
	var groups []words.Msg
	for _, col := range s.e.Colours() {
		values := strings.Join(byColour[col], " ")
		if values == "" {
			values = "-"
		}
		groups = append(groups, words.HandGroup(col, rulesKnown && col == v.Rules.Trump, values))
	}
	s.out.say(words.Hand(v.Hand.Len(), groups))
	if supers {
		s.out.f("  %s\n", words.SuperNote())
	}
}

// showBoard shows the Njet board: a field that may be blocked by its
// choice number, which it keeps for the whole phase (boardChoices), a
// blocked one by x, and the last free field of a decided row by =
// (R-NJET-1).
func (s *screen) showBoard(v engine.View, cs []choice) {
	s.out.say(words.BoardTitle())
	for r := engine.Row(0); r < engine.NumRows; r++ {
		decided := v.Board.FreeCount(s.e, r) == 1
		var fields []string
		for f := engine.Field(0); int(f) < s.e.Fields(r); f++ {
			label := words.Field(s.e, r, f).String()
			if r == engine.RowStart {
				label = words.FieldHeld(s.e, f, s.holder(v, f)).String()
			}
			i := slices.IndexFunc(cs, func(c choice) bool { return c.action.Row == r && c.action.Field == f })
			switch {
			case v.Board.Blocked(r, f):
				fields = append(fields, "x "+label)
			case decided || i < 0 || cs[i].closed:
				fields = append(fields, "= "+label)
			default:
				fields = append(fields, strconv.Itoa(i+1)+") "+label)
			}
		}
		if decided {
			fields = append(fields, words.BoardDecided().String())
		}
		s.row(words.Row(s.e, r).String(), fields)
	}
}

// showFinalBoard shows the board once the Njet phase is over: each row's
// rule marked =, the blocked fields x.
func (s *screen) showFinalBoard(v engine.View) {
	s.out.say(words.BoardFinal())
	for r := engine.Row(0); r < engine.NumRows; r++ {
		var fields []string
		for f := engine.Field(0); int(f) < s.e.Fields(r); f++ {
			label := words.Field(s.e, r, f).String()
			if r == engine.RowStart {
				label = words.FieldHeld(s.e, f, s.holder(v, f)).String()
			}
			mark := "= "
			if v.Board.Blocked(r, f) {
				mark = "x "
			}
			fields = append(fields, mark+label)
		}
		s.row(words.Row(s.e, r).String(), fields)
	}
}

// rowLabelWidth is the width of the row names' column of the board.
const rowLabelWidth = 14

// row writes one row of the board: its name, then its fields packed into
// lines of the screen's width, each field whole.
func (s *screen) row(name string, fields []string) {
	width := s.out.width
	if width <= 0 {
		width = 1 << 20
	}
	line := "  " + padRight(name, rowLabelWidth)
	start := len(line)
	n := len(line)
	first := true
	for _, f := range fields {
		w := len([]rune(f))
		if !first && n+2+w > width {
			s.out.f("%s\n", line)
			line = strings.Repeat(" ", start) + f
			n = start + w
			continue
		}
		if !first {
			line += "  "
			n += 2
		}
		line += f
		n += w
		first = false
	}
	s.out.f("%s\n", line)
}

// holder names the seat holding the character of start-row field f.
func (s *screen) holder(v engine.View, f engine.Field) words.Msg {
	ch := s.e.Characters()[f]
	for seat, c := range v.Characters {
		if c == ch {
			return s.who(seat)
		}
	}
	return words.List(nil)
}

// showRulesHelp says how the game is played, in short: the rules of the
// edition and player count, the reading of the trump rule, the length of
// the game (a target in Classic named a house rule).
func (s *screen) showRulesHelp() {
	s.out.f("\n")
	for i, m := range words.RulesHelp(s.e, s.n, s.view().Rounds, s.target) {
		if i == 0 {
			s.out.say(m)
			continue
		}
		s.out.f("  %s\n", m)
	}
}

// showRules shows the rules of the round, once a round unless asked again.
func (s *screen) showRules(r engine.Rules) {
	s.rulesShown = true
	s.out.say(words.RulesLine(s.e, r, s.whoLong(r.StartSeat)))
}

// showTeams names both teams and the doubled seat, if any, once the
// person's seat has a team; a watcher (no seat) sees them as soon as the
// teams are known.
func (s *screen) showTeams(v engine.View) {
	if len(v.Team) == 0 || s.you >= 0 && v.Team[s.you] < 0 {
		return
	}
	s.out.say(words.Teams(v.Team, v.Rules.StartSeat, s.seats()), words.Doubling(v.Bonus, s.seats()))
}

func (s *screen) showTrick(v engine.View) {
	total := len(v.Tricks) + v.HandSizes[s.you]
	if len(v.Trick.Plays) > 0 {
		// HandSizes already count the card played into this trick.
		total = len(v.Tricks) + v.HandSizes[v.Trick.Plays[0].Seat] + 1
	}
	s.showRoundSoFar()
	s.out.say(words.TrickUnderWay(len(v.Tricks)+1, total, v.Trick.Plays, s.seats()))
}

// showRoundSoFar shows the tricks and loot of both teams this round.
func (s *screen) showRoundSoFar() {
	v := s.view()
	if len(v.Team) == 0 || v.Team[s.you] < 0 || v.Phase >= engine.PhaseRoundOver {
		return
	}
	mine := v.Team[s.you]
	s.out.say(words.SoFar(v.TricksWon[mine], v.Loot[mine], v.TricksWon[1-mine], v.Loot[1-mine]))
}

// showChoices lists the choices, one per line when there are few or they
// are long, packed into columns otherwise.
func (s *screen) showChoices(cs []choice) {
	s.out.say(words.Choices())
	width := s.out.width
	if width <= 0 {
		width = defaultWidth
	}
	long := 0
	for _, c := range cs {
		long = max(long, len([]rune(c.label)))
	}
	if len(cs) <= 6 || long > 30 {
		for i, c := range cs {
			s.out.f("  %2d) %s\n", i+1, c.label)
		}
		return
	}
	digits := len(strconv.Itoa(len(cs)))
	col := digits + 2 + long + 3
	perLine := max(1, (width-2)/col)
	line := "  "
	for i, c := range cs {
		num := strconv.Itoa(i + 1)
		line += padRight(strings.Repeat(" ", digits-len(num))+num+") "+c.label, col)
		if (i+1)%perLine == 0 || i == len(cs)-1 {
			s.out.f("%s\n", strings.TrimRight(line, " "))
			line = "  "
		}
	}
}

func padRight(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// showScore shows a round's result: the value, each team's tricks and
// loot, and per seat the round's points (x2 where doubled) and the total.
func (s *match) showScore(r seat.RoundResult) {
	s.out.f("\n%s\n", words.RoundOver(r.Round, r.Rules.Points))
	for t := 0; t < 2; t++ {
		var names []words.Msg
		for _, seat := range r.Teams[t] {
			names = append(names, s.who(seat))
		}
		s.out.f("  %s\n", words.TeamScore(names, r.Tricks[t], r.Loot[t]))
	}
	round, total := words.ScoreColumns()
	s.out.f("  %-24s %6s %6s\n", "", round, total)
	for seat := 0; seat < s.n; seat++ {
		points := strconv.Itoa(r.Points[seat])
		if seat == r.Bonus {
			points = words.Doubled().String() + " " + points
		}
		s.out.f("  %-24s %6s %6d\n", s.longName(seat), points, r.Totals[seat])
	}
	if r.Bonus >= 0 {
		s.out.say(words.DoublingRule(s.e, r.Bonus, s.seats()))
	}
}

// showStandings shows every seat's total after the rounds scored so far.
func (s *match) showStandings() {
	v := s.last
	rounds := v.Round - 1
	if v.Phase == engine.PhaseRoundOver || v.Phase == engine.PhaseGameOver {
		rounds = v.Round
	}
	s.out.say(words.Standings(rounds))
	for seat, t := range v.Totals {
		s.out.f("  %s\n", words.StandingLine(s.whoLong(seat), t))
	}
	if v.Phase > engine.PhaseNjet && v.Phase < engine.PhaseRoundOver {
		s.out.say(words.RulesLine(s.e, v.Rules, s.whoLong(v.Rules.StartSeat)))
	}
}

// showGameOver names the winners.
func (s *match) showGameOver(g seat.GameOver) {
	var names []words.Msg
	for _, w := range g.Winners {
		names = append(names, s.who(w))
	}
	best := 0
	if len(g.Winners) > 0 {
		best = g.Totals[g.Winners[0]]
	}
	s.out.f("\n=== %s ===\n", words.GameOver(s.last.Round))
	s.out.say(words.Winners(names, best))
}
