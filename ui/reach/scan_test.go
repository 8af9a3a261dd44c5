package reach_test

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/ui/reach"
)

func renderer(w fyne.Widget) []fyne.CanvasObject { return test.WidgetRenderer(w).Objects() }

// scan puts content in a window of size and reads it.
func scan(t *testing.T, content fyne.CanvasObject, size fyne.Size) *reach.Screen {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, content)
	w.SetPadded(false)
	w.Resize(size)
	return reach.Scan(w.Canvas(), renderer)
}

// control finds the one control that shows text.
func control(t *testing.T, s *reach.Screen, text string) reach.Control {
	t.Helper()
	cs := s.Find(func(c reach.Control) bool { return c.Text == text })
	if len(cs) != 1 {
		t.Fatalf("%d controls show %q:\n%s", len(cs), text, s.Describe())
	}
	return cs[0]
}

// at places o at x, y with size w, h.
func at(o fyne.CanvasObject, x, y, w, h float32) fyne.CanvasObject {
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, h))
	return o
}

// TestScanProblems: each way a control can be out of a finger's reach is
// named, and a control in plain view has no problem.
func TestScanProblems(t *testing.T) {
	ok := widget.NewButton("ok", nil)
	hidden := widget.NewButton("hidden", nil)
	box := container.NewWithoutLayout(hidden)
	box.Hide()
	small := widget.NewButton("small", nil)
	outside := widget.NewButton("outside", nil)
	covered := widget.NewButton("covered", nil)
	coverer := widget.NewButton("coverer", nil)
	under := widget.NewButton("under", nil)
	panel := canvas.NewRectangle(color.NRGBA{R: 10, G: 40, B: 20, A: 0xff})
	off := widget.NewButton("off", nil)
	disabled := widget.NewButton("disabled", nil)
	disabled.Disable()
	col := container.NewVBox(at(widget.NewLabel("top"), 0, 0, 100, 40))
	for range 20 {
		col.Add(widget.NewLabel("filler"))
	}
	col.Add(container.NewGridWrap(fyne.NewSize(150, 44), off))
	scroll := container.NewVScroll(col)
	content := container.NewWithoutLayout(
		at(ok, 10, 10, 100, 44),
		at(box, 0, 0, 200, 200),
		at(small, 120, 10, 30, 20),
		at(outside, 380, 10, 100, 44),
		at(covered, 10, 60, 100, 44),
		at(coverer, 10, 60, 100, 44),
		at(under, 120, 60, 100, 44),
		at(panel, 110, 50, 150, 70),
		at(disabled, 10, 120, 100, 44),
		at(scroll, 10, 180, 200, 200),
	)
	hidden.Resize(fyne.NewSize(100, 44))
	s := scan(t, content, fyne.NewSize(400, 400))
	cases := []struct {
		text, problem string
		offView       bool
	}{
		{"ok", "", false},
		{"hidden", reach.Hidden, false},
		{"small", reach.Small, false},
		{"outside", reach.Outside, false},
		{"covered", reach.Covered, false},
		{"under", reach.Under, false},
		{"disabled", "", false},
		{"off", "", true},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			got := control(t, s, c.text)
			if c.problem == "" && len(got.Problems) > 0 || c.problem != "" && !got.Has(c.problem) {
				t.Fatalf("%s, want the problem %q", got, c.problem)
			}
			if got.OffView != c.offView {
				t.Fatalf("%s: off view %v", got, got.OffView)
			}
			if got.Reachable() != (c.problem == "" && c.text != "disabled") {
				t.Fatalf("%s: reachable %v", got, got.Reachable())
			}
		})
	}
	if off := control(t, s, "off"); off.Scroll == nil || !off.Scroll.Contains(off.ScrollAt) {
		t.Fatalf("the scrolled-away button has no place to scroll at: %+v", off)
	}
	if under := control(t, s, "under"); !strings.Contains(under.Problems[0], "Rectangle") {
		t.Fatalf("the problem does not name what is drawn over: %v", under.Problems)
	}
}

// TestScanPopUp: a dialog's buttons are reachable; what lies under it is
// covered by it.
func TestScanPopUp(t *testing.T) {
	test.NewTempApp(t)
	below := widget.NewButton("below", nil)
	w := test.NewTempWindow(t, container.NewCenter(below))
	w.Resize(fyne.NewSize(400, 400))
	widget.ShowModalPopUp(container.NewVBox(widget.NewLabel("Sure?"), container.NewGridWrap(fyne.NewSize(80, 44), widget.NewButton("Yes", nil))), w.Canvas())
	s := reach.Scan(w.Canvas(), renderer)
	if c := control(t, s, "below"); !c.Has(reach.Covered) {
		t.Fatalf("under a pop-up: %s", c)
	}
	if c := control(t, s, "Yes"); !c.Reachable() || c.Layer != 1 {
		t.Fatalf("in the pop-up: %s", c)
	}
	if !slices.Contains(s.Lines(""), "Sure?") {
		t.Fatalf("the pop-up's text is not read: %v", s.Lines(""))
	}
}

// TestScanRegionsAndRadio: controls carry the name of the region around
// them; a radio group's options are controls of their own, the chosen
// one on.
func TestScanRegionsAndRadio(t *testing.T) {
	radio := widget.NewRadioGroup([]string{"Classic", "Modern"}, nil)
	radio.Horizontal = true
	radio.SetSelected("Modern")
	s := scan(t, container.NewVBox(reach.Region("edition", radio), widget.NewButton("Go", nil)), fyne.NewSize(400, 300))
	m := control(t, s, "Modern")
	if m.Kind != "radio" || !m.On || m.Region != "edition" || !m.Enabled {
		t.Fatalf("the option: %s on %v", m, m.On)
	}
	if c := control(t, s, "Classic"); c.On {
		t.Fatal("an option not chosen reads as on")
	}
	if g := control(t, s, "Go"); g.Region != "" {
		t.Fatalf("a control outside the region is in %q", g.Region)
	}
}

// TestProbeWritesChanges: the probe writes a screen once, and again only
// when it changes; a line reads back as the screen.
func TestProbeWritesChanges(t *testing.T) {
	b := widget.NewButton("one", nil)
	s := scan(t, container.NewGridWrap(fyne.NewSize(120, 44), b), fyne.NewSize(200, 200))
	var out strings.Builder
	p := reach.NewProbe(&out)
	for range 2 {
		if err := p.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	s2 := *s
	s2.Name = "other"
	if err := p.Write(&s2); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines written: %q", len(lines), out.String())
	}
	back, err := reach.ReadScreen([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != "other" || len(back.Controls) != 1 || back.Controls[0].Text != "one" || !back.Controls[0].Reachable() {
		t.Fatalf("read back %+v", back)
	}
	if _, err := reach.ReadScreen([]byte("{nope")); err == nil {
		t.Fatal("a broken line reads as a screen")
	}
}
