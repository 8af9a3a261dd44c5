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
