package reach

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
)

// Fingertip is the smallest side, in logical units, of a control a
// finger hits reliably.
const Fingertip = 38

// Rect is a rectangle in the canvas's logical units, from its top left.
type Rect struct {
	X, Y, W, H float32
}

// Centre is the middle of r.
func (r Rect) Centre() fyne.Position { return fyne.NewPos(r.X+r.W/2, r.Y+r.H/2) }

// Empty reports whether r covers nothing.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Contains reports whether p lies in r.
func (r Rect) Contains(p fyne.Position) bool {
	return p.X >= r.X && p.Y >= r.Y && p.X < r.X+r.W && p.Y < r.Y+r.H
}

// Intersect is the part of r inside o.
func (r Rect) Intersect(o Rect) Rect {
	x0, y0 := max(r.X, o.X), max(r.Y, o.Y)
	x1, y1 := min(r.X+r.W, o.X+o.W), min(r.Y+r.H, o.Y+o.H)
	return Rect{x0, y0, max(x1-x0, 0), max(y1-y0, 0)}
}

// Within reports whether r lies inside o, give or take half a unit.
func (r Rect) Within(o Rect) bool {
	const slack = 0.5
	return r.X >= o.X-slack && r.Y >= o.Y-slack && r.X+r.W <= o.X+o.W+slack && r.Y+r.H <= o.Y+o.H+slack
}

// String says where r is, for messages.
func (r Rect) String() string { return fmt.Sprintf("%.0fx%.0f at (%.0f,%.0f)", r.W, r.H, r.X, r.Y) }

// The problems that keep a finger from a control. Each of a Control's
// Problems starts with one of these words.
const (
	Hidden   = "hidden"    // it or a parent is hidden
	ZeroSize = "zero-size" // it has no area
	Outside  = "outside"   // it reaches past the window
	Clipped  = "clipped"   // a scroll container shows only part of it, or none
	Covered  = "covered"   // a tap at its middle reaches something else
	Under    = "under"     // an opaque shape is drawn over its middle
	Small    = "small"     // a side is smaller than a Fingertip
)

// Control is one tappable thing drawn on the canvas.
type Control struct {
	// Kind is what sort of control it is: button, check, radio, entry,
	// select, menu (an item of an open menu), link, or what the control
	// says of itself (card, field), or tappable.
	Kind string `json:"kind"`
	// Text is what it shows: a button's label, an entry's text, a card's
	// colour and value ("red-7"), a field's row and field.
	Text string `json:"text"`
	// Icon names the icon a button shows, when it shows one.
	Icon string `json:"icon,omitempty"`
	// Region is the innermost named part of the screen it lies in (the
	// hand, the board, ...), or "".
	Region string `json:"region,omitempty"`
	// Rect is where it is drawn; Tap is where a finger would touch it: the
	// middle of its visible part.
	Rect Rect          `json:"rect"`
	Tap  fyne.Position `json:"tap"`
	// Enabled is false for a disabled control.
	Enabled bool `json:"enabled"`
	// On is set for a checked check or a selected radio option.
	On bool `json:"on,omitempty"`
	// Marks are the states a control shows beside its text, when it says
	// them (Marker): a card edged as one that fits, a pile ringed as a
	// place for the picked card.
	Marks []string `json:"marks,omitempty"`
	// Layer is 0 for the window's content, 1 and up for the pop-ups
	// over it (dialogs, menus).
	Layer int `json:"layer,omitempty"`
	// Problems say why a finger cannot use it; none when it can.
	Problems []string `json:"problems,omitempty"`
	// OffView is set for a control that lies in a scroll container but
	// outside the part it shows: a person scrolls before tapping it.
	OffView bool `json:"offview,omitempty"`
	// Scroll is the visible area of the innermost scroll container around
	// it, when there is one: a person scrolls there to bring it into view.
	Scroll *Rect `json:"scroll,omitempty"`
	// ScrollAt is where the wheel scrolls that container.
	ScrollAt fyne.Position `json:"scrollat"`

	obj fyne.CanvasObject
}

// Marked reports whether c shows mark m.
func (c Control) Marked(m string) bool { return slices.Contains(c.Marks, m) }

// Reachable reports whether a finger can use c: it is enabled and has no
// problem. It may still be OffView, a scroll away.
func (c Control) Reachable() bool { return len(c.Problems) == 0 && c.Enabled }

// Object is the drawn object, when c comes from a Scan in this process.
func (c Control) Object() fyne.CanvasObject { return c.obj }

// Has reports whether one of c's problems is p.
func (c Control) Has(p string) bool {
	return slices.ContainsFunc(c.Problems, func(q string) bool { return q == p || strings.HasPrefix(q, p+":") })
}

// String says what c is, where, and what keeps a finger from it.
func (c Control) String() string {
	s := fmt.Sprintf("%s %q", c.Kind, c.Text)
	if len(c.Marks) > 0 {
		s += " (" + strings.Join(c.Marks, ", ") + ")"
	}
	if c.Region != "" {
		s += " in " + c.Region
	}
	s += " " + c.Rect.String()
	if !c.Enabled {
		s += " (disabled)"
	}
	if c.OffView {
		s += " (scrolled out of view)"
	}
	if len(c.Problems) > 0 {
		s += " [" + strings.Join(c.Problems, "; ") + "]"
	}
	return s
}

// Text is one drawn text a person can read (a canvas.Text that is
// visible and inside the window).
type Text struct {
	Text   string `json:"text"`
	Region string `json:"region,omitempty"`
	Rect   Rect   `json:"rect"`
	Layer  int    `json:"layer,omitempty"`
}

// Screen is what a canvas shows a person at one moment.
type Screen struct {
	// Name is the screen on top, as the app calls it (set by the caller).
	Name string `json:"screen,omitempty"`
	// Size is the canvas's size; Scale its pixels per unit.
	Size  fyne.Size `json:"size"`
	Scale float32   `json:"scale,omitempty"`
	// Layers counts the pop-ups over the content.
	Layers   int       `json:"layers,omitempty"`
	Controls []Control `json:"controls"`
	Texts    []Text    `json:"texts"`
}

// Find lists the controls that match, in drawing order.
func (s *Screen) Find(match func(Control) bool) []Control {
	var out []Control
	for _, c := range s.Controls {
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

// Reachable lists the controls a finger can use that match.
func (s *Screen) Reachable(match func(Control) bool) []Control {
	return s.Find(func(c Control) bool { return c.Reachable() && match(c) })
}

// Button matches a button, check, radio option or menu item labelled
// text.
func Button(text string) func(Control) bool {
	return func(c Control) bool {
		switch c.Kind {
		case "button", "check", "radio", "link", "menu":
			return c.Text == text
		}
		return false
	}
}

// Kind matches the controls of a kind, in region when it is not "".
func Kind(kind, region string) func(Control) bool {
	return func(c Control) bool { return c.Kind == kind && (region == "" || c.Region == region) }
}

// Lines are the texts of region ("" for all) read as a person reads: the
// texts on one row joined by spaces, rows from the top.
func (s *Screen) Lines(region string) []string {
	var ts []Text
	for _, t := range s.Texts {
		if (region == "" || t.Region == region) && t.Layer == s.Layers {
			ts = append(ts, t)
		}
	}
	slices.SortStableFunc(ts, func(a, b Text) int {
		if a.Rect.Y+a.Rect.H/2 < b.Rect.Y || b.Rect.Y+b.Rect.H/2 < a.Rect.Y {
			return cmp.Compare(a.Rect.Y, b.Rect.Y)
		}
		return cmp.Compare(a.Rect.X, b.Rect.X)
	})
	var out []string
	var line []string
	var last Rect
	for i, t := range ts {
		if i > 0 && (t.Rect.Y >= last.Y+last.H/2 || t.Rect.X < last.X) {
			out = append(out, strings.Join(line, " "))
			line = nil
		}
		line = append(line, t.Text)
		last = t.Rect
	}
	if len(line) > 0 {
		out = append(out, strings.Join(line, " "))
	}
	return out
}

// Read is the text of region as one string: Lines joined by spaces.
func (s *Screen) Read(region string) string { return strings.Join(s.Lines(region), " ") }

// Shows reports whether a line of text on top contains text.
func (s *Screen) Shows(text string) bool {
	return slices.ContainsFunc(s.Lines(""), func(l string) bool { return strings.Contains(l, text) })
}

// Describe lists the screen for a person reading a test's failure: its
// name, its controls and its texts.
func (s *Screen) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "screen %q, %.0fx%.0f", s.Name, s.Size.Width, s.Size.Height)
	if s.Layers > 0 {
		fmt.Fprintf(&b, ", %d pop-up(s) over it", s.Layers)
	}
	b.WriteString("\ncontrols:\n")
	for _, c := range s.Controls {
		b.WriteString("  " + c.String() + "\n")
	}
	b.WriteString("text:\n")
	for _, l := range s.Lines("") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}
