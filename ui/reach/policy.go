package reach

import "errors"

// Step is what a person does next.
type Step struct {
	// Tap is the control to tap, when Kind is Tap.
	Tap  Control
	Kind StepKind
	// Want says what the person is after, for messages.
	Want string
}

// StepKind is the kind of a Step.
type StepKind uint8

// The kinds of step.
const (
	Wait StepKind = iota // nothing to do until the screen changes
	Tap                  // tap Step.Tap
	Done                 // the policy has reached its goal
)

// Policy decides a person's steps from what the screen shows.
type Policy interface {
	// Next is the step to take on s. An error means the person is stuck:
	// asked something that nothing reachable on s answers.
	Next(s *Screen) (Step, error)
}

// ErrStuck is wrapped by a Policy's error when what a person needs is not
// on the screen.
var ErrStuck = errors.New("reach: the person cannot go on")

// player is what every game's player keeps: its taps, and whether it has
// tapped Done on the game-over view.
type player struct {
	// Taps counts every tap.
	Taps int
	over bool
}

// tap taps c for why.
func (p *player) tap(c Control, why string) Step {
	p.Taps++
	return Step{Kind: Tap, Tap: c, Want: why}
}

// leaveOver is the step at the game-over view, whose button is done: tap
// it where it can be reached, then wait until the view is gone, which
// ends the play. It reports false while there is no game-over view.
func (p *player) leaveOver(s *Screen, done string) (Step, bool) {
	if p.over {
		if len(s.Find(Button(done))) == 0 {
			return Step{Kind: Done, Want: "the game is over"}, true
		}
		return Step{Kind: Wait, Want: "to leave the game-over view"}, true
	}
	if c := s.Reachable(Button(done)); len(c) > 0 {
		p.over = true
		return p.tap(c[0], "to leave the game-over view"), true
	}
	return Step{}, false
}
