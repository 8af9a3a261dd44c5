// Package reach tells what a person can use on a Fyne canvas: every
// tappable control that is drawn, where it is, what it shows, whether it
// answers now, and, when a finger could not use it, why (hidden, outside the
// window, clipped by a scroll container, covered, too small).
//
// Scan reads a canvas into a Screen. Tests scan the software canvas with
// the renderers of fyne's test package; the app's hidden probe mode scans
// the real window (Rendered) and writes each changed Screen as a line of
// JSON (Probe), so that a driver outside the process can click what is
// drawn with the real pointer.
//
// A Policy decides a person's next step from a Screen alone: which control
// to tap, what to type, or that there is nothing to do yet. The same
// policies play in the widget tests and against the real binary. Njet plays
// a game of Njet! as a person would, from the prompt and the controls on
// screen; TheGame plays The Game from the numbers on the piles and the
// cards and the marks the table draws on them (Marker: a card that fits,
// the piles that take the picked card).
//
// The package imports no test code: the probe ships in the binary.
package reach
