package persontest

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/ui/reach"
)

// Options tell a Person about the app in front of it.
type Options struct {
	// Screen names the screen on top, for messages; nil leaves it out.
	Screen func() string
	// Settle runs the app's pending work until the app waits for the
	// person, and returns an error when it does not come to rest. nil
	// means the app has no work of its own.
	Settle func() error
	// Shots is the directory a failure's screenshot goes to; empty means
	// testdata/failed.
	Shots string
}

// Person is someone using the app through what its canvas draws.
type Person struct {
	t   testing.TB
	c   fyne.Canvas
	opt Options
	// Steps lists what the person did, last ones last, for messages.
	Steps []string
	mins  map[fyne.CanvasObject]fyne.Size // the visible objects' least sizes at the last frame
}

// New puts a person in front of canvas c.
func New(t testing.TB, c fyne.Canvas, opt Options) *Person {
	return &Person{t: t, c: c, opt: opt}
}

// Canvas is the canvas the person looks at.
func (p *Person) Canvas() fyne.Canvas { return p.c }

// Settle lets the app finish what it does before the person looks again:
// its own work, and the frames a window draws meanwhile, whose layouts may
// give it more work.
func (p *Person) Settle() {
	p.t.Helper()
	for range maxFrames {
		if p.opt.Settle != nil {
			if err := p.opt.Settle(); err != nil {
				p.Fatalf("the app does not come to rest: %v", err)
			}
		}
		if !p.frame() {
			return
		}
	}
}

// maxFrames bounds the frames a Settle draws before the app holds still.
const maxFrames = 5

// Look reads the screen as the next frame draws it.
func (p *Person) Look() *reach.Screen {
	p.frame()
	s := reach.Scan(p.c, func(w fyne.Widget) []fyne.CanvasObject { return test.WidgetRenderer(w).Objects() })
	if p.opt.Screen != nil {
		s.Name = p.opt.Screen()
	}
	return s
}

// look reads the screen and fails the test when its content needs more
// room than the window has: a real window would grow past the screen.
func (p *Person) look() *reach.Screen {
	p.t.Helper()
	s := p.Look()
	if m, sz := p.c.Content().MinSize(), p.c.Size(); m.Width > sz.Width+0.5 || m.Height > sz.Height+0.5 {
		p.fail(s, "cannot see the whole screen: it needs at least %.0fx%.0f, the window is %.0fx%.0f", m.Width, m.Height, sz.Width, sz.Height)
	}
	return s
}

// Find settles, then returns the first control that matches and that a
// finger can use, scrolled into view; it fails the test naming want when
// there is none.
func (p *Person) Find(want string, match func(reach.Control) bool) reach.Control {
	p.t.Helper()
	p.Settle()
	s := p.look()
	for _, c := range s.Find(match) {
		if c.Reachable() {
			return p.inView(want, c)
		}
	}
	p.fail(s, "wants %s: %s", want, why(s, match))
	return reach.Control{}
}

// why says why nothing on s that matches can be used.
func why(s *reach.Screen, match func(reach.Control) bool) string {
	cs := s.Find(match)
	if len(cs) == 0 {
		return "nothing like it is drawn"
	}
	var b strings.Builder
	b.WriteString("what is drawn is out of reach:")
	for _, c := range cs {
		b.WriteString("\n  " + c.String())
	}
	return b.String()
}

// Tap finds what want names by match and taps it.
func (p *Person) Tap(want string, match func(reach.Control) bool) {
	p.t.Helper()
	p.TapControl(want, p.Find(want, match))
}

// TapText taps the button, check or radio option labelled text.
func (p *Person) TapText(text string) {
	p.t.Helper()
	p.Tap(fmt.Sprintf("%q", text), reach.Button(text))
}

// Sees reports whether the screen shows text (after settling).
func (p *Person) Sees(text string) bool {
	p.t.Helper()
	p.Settle()
	return p.Look().Shows(text)
}

// TapControl taps c, scrolled into view first if it must be, at the
// middle of what is shown of it, through the canvas's hit-testing.
func (p *Person) TapControl(want string, c reach.Control) {
	p.t.Helper()
	c = p.inView(want, c)
	p.Steps = append(p.Steps, fmt.Sprintf("tap %s (%s) at %.0f,%.0f", c.String(), want, c.Tap.X, c.Tap.Y))
	p.click(c)
}

// click presses and lets go of the primary button at c.Tap as a desktop
// window passes a click on: the press and the release to an object that
// takes them (an entry takes the focus so), then the tap, through the
// canvas's hit-testing.
func (p *Person) click(c reach.Control) {
	if m, ok := c.Object().(desktop.Mouseable); ok {
		at := fyne.NewPos(c.Tap.X-c.Rect.X, c.Tap.Y-c.Rect.Y)
		ev := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at, AbsolutePosition: c.Tap}, Button: desktop.MouseButtonPrimary}
		m.MouseDown(ev)
		m.MouseUp(ev)
	}
	test.TapCanvas(p.c, c.Tap)
}

// maxScrolls bounds the scrolls that bring one control into view.
const maxScrolls = 20

// inView scrolls c's scroll container until c is shown whole, and
// returns c as it is then; it fails the test when that cannot be done.
func (p *Person) inView(want string, c reach.Control) reach.Control {
	p.t.Helper()
	for range maxScrolls {
		if !c.OffView {
			if !c.Reachable() {
				s := p.Look()
				p.fail(s, "wants %s: %s", want, c.String())
			}
			return c
		}
		v := c.Scroll
		dy := float32(0)
		switch {
		case c.Rect.Y < v.Y:
			dy = v.Y - c.Rect.Y + 4 // content moves down
		case c.Rect.Y+c.Rect.H > v.Y+v.H:
			dy = -(c.Rect.Y + c.Rect.H - (v.Y + v.H) + 4)
		}
		dx := float32(0)
		switch {
		case c.Rect.X < v.X:
			dx = v.X - c.Rect.X + 4
		case c.Rect.X+c.Rect.W > v.X+v.W:
			dx = -(c.Rect.X + c.Rect.W - (v.X + v.W) + 4)
		}
		p.Steps = append(p.Steps, fmt.Sprintf("scroll %.0f,%.0f at %s for %s", dx, dy, v.String(), want))
		test.Scroll(p.c, c.ScrollAt, dx, dy)
		s := p.Look()
		obj := c.Object()
		found := false
		for _, n := range s.Controls {
			if n.Object() == obj {
				c, found = n, true
				break
			}
		}
		if !found {
			p.fail(s, "wants %s: it went away while scrolling to it", want)
		}
	}
	p.fail(p.Look(), "wants %s: scrolling does not bring it into view: %s", want, c.String())
	return c
}

// Type types text as the window passes typed characters on: to what has
// the focus (tap an entry first), else to the canvas's handler.
func (p *Person) Type(text string) {
	p.t.Helper()
	p.Steps = append(p.Steps, fmt.Sprintf("type %q", text))
	for _, r := range text {
		if f := p.c.Focused(); f != nil {
			f.TypedRune(r)
		} else if h := p.c.OnTypedRune(); h != nil {
			h(r)
		}
	}
}

// Key presses a key: the focused object takes it, else the canvas's key
// handler, as the window passes it on.
func (p *Person) Key(name fyne.KeyName) {
	p.t.Helper()
	p.Steps = append(p.Steps, "key "+string(name))
	ev := &fyne.KeyEvent{Name: name}
	if f := p.c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if h := p.c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// maxWaits is how many times in a row Play lets a policy wait for a
// screen that does not change before it fails.
const maxWaits = 200

// Play runs policy until it is done and returns the number of steps; the
// test fails when the policy is stuck, or after limit steps.
func (p *Person) Play(policy reach.Policy, limit int) int {
	p.t.Helper()
	for i := range limit {
		if !p.Step(policy) {
			return i
		}
	}
	p.fail(p.Look(), "%d steps and the policy has not reached its goal", limit)
	return limit
}

// Step lets the app settle, looks, and takes policy's next step; it
// reports false once the policy is done. A policy that waits is given
// the time the app needs, within bounds; the test fails when it is stuck.
func (p *Person) Step(policy reach.Policy) bool {
	p.t.Helper()
	for range maxWaits {
		p.Settle()
		s := p.look()
		step, err := policy.Next(s)
		if err != nil {
			p.fail(s, "%v", err)
		}
		switch step.Kind {
		case reach.Done:
			return false
		case reach.Tap:
			p.TapControl(step.Want, step.Tap)
			return true
		}
		time.Sleep(time.Millisecond)
	}
	s := p.Look()
	step, _ := policy.Next(s)
	p.fail(s, "waits for %s, and nothing changes", step.Want)
	return false
}

// Fatalf fails the test with the screen as it is.
func (p *Person) Fatalf(format string, args ...any) {
	p.t.Helper()
	p.fail(p.Look(), format, args...)
}

// fail ends the test: the screen on top, what was wanted, the last steps
// taken, and a screenshot.
func (p *Person) fail(s *reach.Screen, format string, args ...any) {
	p.t.Helper()
	msg := fmt.Sprintf(format, args...)
	shot, err := p.shot()
	if err != nil {
		shot = "no screenshot: " + err.Error()
	}
	steps := p.Steps
	if len(steps) > 8 {
		steps = steps[len(steps)-8:]
	}
	p.t.Fatalf("on screen %q the person %s\nlast steps:\n  %s\n%s\nscreenshot: %s", s.Name, msg, strings.Join(steps, "\n  "), s.Describe(), shot)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// shot writes the canvas to a PNG named after the test.
func (p *Person) shot() (string, error) {
	dir := p.opt.Shots
	if dir == "" {
		dir = filepath.Join("testdata", "failed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	img, err := capture(p.c)
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, "person-"+unsafeName.ReplaceAllString(p.t.Name(), "_")+".png")
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return "", err
	}
	return name, f.Close()
}

// capture draws the canvas; fyne's software painter has been seen to
// panic on a zero-sized stroked rectangle, which must not hide the
// failure being reported.
func capture(c fyne.Canvas) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the painter failed: %v", r)
		}
	}()
	img = c.Capture()
	if img == nil {
		return nil, errors.New("the canvas captured nothing")
	}
	return img, nil
}

// frame lays the canvas out as a window does before it draws a frame
// (fyne's canvas.EnsureMinSize): each visible container or widget one of
// whose visible parts has a least size other than at the last frame, or
// is new to view, is laid out again at its own size. Fyne's test canvas
// lays out only when it is resized; this keeps the places a person sees
// in the tests those a window would draw, stale ones included.
func (p *Person) frame() (changed bool) {
	seen := map[fyne.CanvasObject]fyne.Size{}
	var walk func(o fyne.CanvasObject) bool
	walk = func(o fyne.CanvasObject) bool {
		if o == nil || !o.Visible() {
			return false
		}
		var kids []fyne.CanvasObject
		var relayout func()
		switch x := o.(type) {
		case *fyne.Container:
			kids = x.Objects
			relayout = func() {
				if x.Layout != nil {
					x.Layout.Layout(x.Objects, x.Size())
				}
			}
		case fyne.Widget:
			r := test.WidgetRenderer(x)
			kids = r.Objects()
			relayout = func() { r.Layout(x.Size()) }
		}
		grown := false
		for _, k := range kids {
			if walk(k) {
				grown = true
			}
		}
		if grown && relayout != nil {
			relayout()
			changed = true
		}
		m := o.MinSize()
		old, ok := p.mins[o]
		seen[o] = m
		return !ok || old != m
	}
	roots := append([]fyne.CanvasObject{p.c.Content()}, p.c.Overlays().List()...)
	for _, r := range roots {
		if walk(r) && r != nil {
			changed = true
			// a root whose least size changed is laid out at its size
			switch x := r.(type) {
			case *fyne.Container:
				if x.Layout != nil {
					x.Layout.Layout(x.Objects, x.Size())
				}
			case fyne.Widget:
				test.WidgetRenderer(x).Layout(x.Size())
			}
		}
	}
	p.mins = seen
	return changed
}
