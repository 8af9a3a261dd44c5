// Package persontest is the test fixture of a person in front of the app:
// a Person looks at a canvas as package reach reads it and acts only
// through what is drawn. It finds a control by what it shows, checks that
// a finger can use it, scrolls it into view when a scroll container hides
// it, and taps its position through the canvas's own hit-testing
// (test.TapCanvas), never through a handler; it types through the canvas's
// focus. When what it wants is not there or out of reach, the test fails
// with the screen on top, what was wanted, why each candidate is out of
// reach, and a screenshot.
//
// Play runs a reach.Policy until its goal: the same policies drive the
// real binary under Xvfb.
package persontest
