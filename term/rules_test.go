package term_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/term"
)

// TestRulesCommandR_TRICK_2: "rules" says how the game is played, with
// the reading of the trump rule (trumping allowed, never required), and a
// Classic game to a target names it a house rule, at the welcome and in
// the rules; a Modern one does not.
func TestRulesCommandR_TRICK_2(t *testing.T) {
	for _, tc := range []struct {
		e      engine.Edition
		n      int
		target int
		house  bool
		length string
	}{
		{engine.Classic, 4, 0, false, "The game lasts 8 rounds."},
		{engine.Classic, 3, 120, true, "House rule: the game ends after the round in which someone reaches 120 points"},
		{engine.Modern, 5, 0, false, "The game lasts 10 rounds."},
		{engine.Modern, 2, 120, false, "The game ends after the round in which someone reaches 120 points."},
	} {
		t.Run(fmt.Sprintf("%s%d/target%d", tc.e, tc.n, tc.target), func(t *testing.T) {
			out := play(t, term.Config{Edition: tc.e, Players: tc.n, Seed: 4, Target: tc.target, Width: 80}, "rules\nquit\n")
			rules := out[strings.LastIndex(out, "How Njet!"):]
			flat := strings.Join(strings.Fields(rules), " ")
			for _, want := range []string{
				fmt.Sprintf("How Njet! (%s) is played with %d players:", map[engine.Edition]string{engine.Classic: "Classic", engine.Modern: "Modern"}[tc.e], tc.n),
				"If you cannot follow suit, you may play any card: you may trump, but you never have to.",
				"This game follows the German reading.",
				tc.length,
			} {
				if !strings.Contains(flat, want) {
					t.Errorf("no %q in the rules:\n%s", want, rules)
				}
			}
			if got := strings.Count(out, "House rule:"); tc.house && got != 2 || !tc.house && got != 0 {
				t.Errorf("%d house-rule notes, want them at the welcome and in the rules: %v\n%s", got, tc.house, out)
			}
			if !strings.Contains(strings.Join(strings.Fields(out), " "), `"rules" how the game is played`) {
				t.Errorf("the welcome does not offer \"rules\":\n%s", out)
			}
			for _, line := range strings.Split(out, "\n") {
				if len([]rune(line)) > 80 {
					t.Errorf("a line of %d columns: %q", len([]rune(line)), line)
				}
			}
		})
	}
}

// TestQuitBeforeAnyScore: leaving in the first round shows the standings
// without counting "0 rounds".
func TestQuitBeforeAnyScore(t *testing.T) {
	out := play(t, term.Config{Edition: engine.Classic, Players: 4, Seed: 5}, "score\nquit\n")
	if n := strings.Count(out, "Standings (no round scored yet):"); n != 2 {
		t.Errorf("%d standings before any score, want 2 (score, quit):\n%s", n, out)
	}
	if strings.Contains(out, "0 rounds") {
		t.Errorf("\"0 rounds\" on screen:\n%s", out)
	}
}
