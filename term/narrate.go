package term

import (
	"slices"
	"strings"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/words"
)

// lanScreen is what a seat's screen and a watcher's share at a table on
// the LAN: the screen, and what it has told of the table so far. The log
// brings the moves in batches, so each look tells only what is new since
// the last one.
type lanScreen struct {
	*screen

	dealt         bool // the current deal was told (its start, and the hand)
	round         int  // ... in this round
	blocks, plays int  // blocks and plays of the deal told
	results       int  // round results told
	voided        int  // voided rounds told
	recovered     int  // rounds kept after a device left, told
	violation     bool // the halt of the round was told
}

// narrate tells the public moves between two views of the table: the
// start of each deal, the blocks, the final board and the rules, the
// teams, the plays and the tricks taken. between, if not nil, tells what
// a screen adds once the teams are told and before the plays (a seat the
// card it received, a watcher that the seats discard).
func (s *lanScreen) narrate(before, after engine.View, between func(before, after engine.View)) {
	switch {
	case after.Phase <= engine.PhaseDeal:
		s.dealt = false
		return
	case after.Phase >= engine.PhaseRoundOver && !s.dealt:
		return
	}
	plays := slices.Clone(after.Trick.Plays)
	for i := len(after.Tricks) - 1; i >= 0; i-- {
		plays = append(slices.Clone(after.Tricks[i].Plays), plays...)
	}
	if !s.dealt || after.Round != s.round || len(after.Blocks) < s.blocks || len(plays) < s.plays {
		s.dealt, s.round = true, after.Round
		s.blocks, s.plays = 0, 0
		s.showRoundStart()
		before = engine.View{}
	}
	for _, b := range after.Blocks[min(s.blocks, len(after.Blocks)):] {
		s.out.say(words.Action(s.e, engine.Action{Kind: engine.ActBlock, Seat: b.Seat, Row: b.Row, Field: b.Field}, s.seats()))
	}
	s.blocks = len(after.Blocks)
	if before.Phase <= engine.PhaseNjet && after.Phase > engine.PhaseNjet {
		s.showFinalBoard(after)
		s.showRules(after.Rules)
	}
	if before.Phase <= engine.PhaseTeams && after.Phase > engine.PhaseTeams {
		s.showTeams(after)
	}
	if between != nil {
		between(before, after)
	}
	for i := s.plays; i < len(plays); i++ {
		p := plays[i]
		s.out.say(words.Action(s.e, engine.Action{Kind: engine.ActPlay, Seat: p.Seat, Card: p.Card}, s.seats()))
		if k := i / s.n; (i+1)%s.n == 0 && k < len(after.Tricks) {
			s.showTrickTaken(after.Tricks[k], k+1, after.Rules)
		}
	}
	s.plays = len(plays)
}

// showResults shows the scores of the rounds the table finished since the
// last look.
func (s *lanScreen) showResults(v table.PeerView) {
	for _, r := range v.Results[min(s.results, len(v.Results)):] {
		s.out.f("\n%s\n", words.RoundOver(r.Round, r.Rules.Points))
		round, total := words.ScoreColumns()
		s.out.f("  %-24s %6s %6s\n", "", round, total)
		for seat := range r.Points {
			s.out.f("  %-24s %6d %6d\n", s.longName(seat), r.Points[seat], r.Totals[seat])
		}
	}
	s.results = len(v.Results)
}

// showHalt tells, once, that the table halted the round.
func (s *lanScreen) showHalt(v table.PeerView) {
	if v.Violation != nil && !s.violation {
		s.violation = true
		s.out.f("The round is halted: %v\n", v.Violation)
	}
}

// showGameOver shows the end of the game: abandoned, or the winners and
// their points. A watcher has no seat (you < 0), so never wins itself.
func (s *lanScreen) showGameOver(v table.PeerView) {
	if v.Abandoned != nil {
		s.out.f("\n=== Game abandoned after %s: nobody wins ===\n", plural(len(v.Results), "round"))
		return
	}
	if len(v.Results) == 0 {
		s.out.f("\n=== Game over ===\n")
		return
	}
	totals := v.Results[len(v.Results)-1].Totals
	best := slices.Max(totals)
	var names []string
	for seat, t := range totals {
		if t == best {
			names = append(names, s.name(seat))
		}
	}
	s.out.f("\n=== %s ===\n", words.GameOver(len(v.Results)))
	switch {
	case len(names) > 1:
		s.out.f("Shared win with %d points: %s.\n", best, strings.Join(names, ", "))
	case s.you >= 0 && names[0] == "You":
		s.out.f("You win with %d points!\n", best)
	default:
		s.out.f("%s wins with %d points.\n", names[0], best)
	}
}
