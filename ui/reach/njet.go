package reach

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// NjetWords are the words on the Njet table's buttons that a person looks
// for, in the app's language.
type NjetWords struct {
	Next    string   // the round summary's button
	Done    string   // the game-over view's button
	Confirm []string // the buttons that confirm a discard or a pass
}

// The named parts of the Njet table (Region) that a person looks at.
const (
	RegionPrompt  = "prompt"  // the question to the person, when one is open
	RegionTeams   = "teams"   // the team choices of the start player
	RegionBoard   = "board"   // the Njet board and its fields
	RegionHand    = "hand"    // the person's cards
	RegionPicked  = "picked"  // the cards picked for a discard or pass
	RegionTrick   = "trick"   // the trick on the table
	RegionSummary = "summary" // the round summary
	RegionOver    = "gameover"
)

// Njet plays the Njet table as a person: it reads the question on screen
// and taps one of the controls that answer it, chosen at random among the
// reachable ones: a free field, a team, a card of the hand, the confirm
// of a discard, Next on a round summary, Done at the end.
type Njet struct {
	Words NjetWords
	Rand  *rand.Rand
	// Avoid, when set, keeps the player off controls it matches while
	// others answer too; Prefer, when set, takes the ones it matches
	// first (to steer a game towards a phase).
	Avoid, Prefer func(Control) bool

	// Rounds counts the round summaries read; player.Taps every tap.
	Rounds int
	player
}

// Next decides the next step on s.
func (n *Njet) Next(s *Screen) (Step, error) {
	if step, ok := n.leaveOver(s, n.Words.Done); ok {
		return step, nil
	}
	if c := s.Reachable(Button(n.Words.Next)); len(c) > 0 {
		n.Rounds++
		return n.tap(c[0], "the next round"), nil
	}
	for _, w := range n.Words.Confirm {
		if c := s.Reachable(Button(w)); len(c) > 0 {
			return n.tap(c[0], "to confirm the picked cards"), nil
		}
	}
	for _, want := range []struct {
		match func(Control) bool
		why   string
	}{
		{Kind("field", RegionBoard), "a field to block"},
		{Kind("button", RegionTeams), "a team"},
		{Kind("card", RegionHand), "a card of the hand"},
	} {
		if c := s.Reachable(want.match); len(c) > 0 {
			return n.tap(n.pick(c), want.why), nil
		}
	}
	ask := s.Read(RegionPrompt)
	if ask == "" {
		return Step{Kind: Wait, Want: "my turn"}, nil
	}
	if len(s.Find(func(c Control) bool { return c.Region == RegionPicked && !c.Has(Hidden) })) > 0 && len(s.Reachable(Kind("card", RegionHand))) == 0 {
		// Cards picked, none left to pick, no confirm to tap.
		return Step{}, fmt.Errorf("%w: asked %q with the picks made, but no reachable button confirms them%s", ErrStuck, ask, unreachable(s))
	}
	return Step{}, fmt.Errorf("%w: asked %q, but nothing reachable answers it%s", ErrStuck, ask, unreachable(s))
}

// pick chooses among cs, away from what Avoid matches when it can.
func (n *Njet) pick(cs []Control) Control {
	if n.Avoid != nil {
		if ok := slices.DeleteFunc(slices.Clone(cs), n.Avoid); len(ok) > 0 {
			cs = ok
		}
	}
	if n.Prefer != nil {
		if ok := slices.DeleteFunc(slices.Clone(cs), func(c Control) bool { return !n.Prefer(c) }); len(ok) > 0 {
			cs = ok
		}
	}
	if n.Rand == nil {
		return cs[0]
	}
	return cs[n.Rand.IntN(len(cs))]
}

// unreachable lists the enabled controls of the table's answering parts
// that a finger cannot use, and says so when there are none at all.
func unreachable(s *Screen) string {
	var lines []string
	for _, c := range s.Controls {
		switch c.Region {
		case RegionBoard, RegionTeams, RegionHand, RegionPicked, RegionPrompt:
		default:
			if c.Kind != "button" {
				continue
			}
		}
		if c.Enabled && !c.Reachable() {
			lines = append(lines, "  "+c.String())
		}
	}
	if len(lines) == 0 {
		return "; no enabled control is drawn in the hand, the board or the team choice"
	}
	return "; drawn but out of reach:\n" + strings.Join(lines, "\n")
}
