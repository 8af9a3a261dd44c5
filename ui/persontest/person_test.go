package persontest_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/ui/persontest"
	"github.com/njetlan/njet/ui/reach"
)

// failure is a testing.TB whose Fatalf records the message and ends the
// goroutine, as a failed test's does.
type failure struct {
	testing.TB
	msg string
}

func (f *failure) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// attempt runs do with a person over c that reports to a failure, and
// returns what it failed with, or "".
func attempt(t *testing.T, c fyne.Canvas, do func(p *persontest.Person)) string {
	f := &failure{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		do(persontest.New(f, c, persontest.Options{Screen: func() string { return "Form" }, Shots: t.TempDir()}))
	}()
	<-done
	return f.msg
}

// TestPersonTapsWhatIsDrawn: a person taps a button by its words, through
// the canvas; a hidden one fails the test with the screen, what was
// wanted and why it is out of reach.
func TestPersonTapsWhatIsDrawn(t *testing.T) {
	test.NewTempApp(t)
	tapped := 0
	ok := widget.NewButton("Deal", func() { tapped++ })
	hidden := widget.NewButton("Hidden", func() { tapped += 10 })
	hidden.Hide()
	w := test.NewTempWindow(t, container.NewVBox(container.NewGridWrap(fyne.NewSize(120, 44), ok), container.NewGridWrap(fyne.NewSize(120, 44), hidden)))
	w.Resize(fyne.NewSize(300, 300))
	if msg := attempt(t, w.Canvas(), func(p *persontest.Person) { p.TapText("Deal") }); msg != "" || tapped != 1 {
		t.Fatalf("tapping Deal: %q, %d taps", msg, tapped)
	}
	msg := attempt(t, w.Canvas(), func(p *persontest.Person) { p.TapText("Hidden") })
	for _, want := range []string{`on screen "Form"`, `wants "Hidden"`, reach.Hidden, "screenshot:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure does not say %q:\n%s", want, msg)
		}
	}
	if tapped != 1 {
		t.Fatalf("a hidden button was tapped: %d", tapped)
	}
}

// TestPersonScrollsToWhatIsHidden: a control a scroll container shows
// only when scrolled is scrolled into view and tapped; typing reaches the
// entry tapped.
func TestPersonScrollsToWhatIsHidden(t *testing.T) {
	test.NewTempApp(t)
	tapped := false
	col := container.NewVBox()
	for range 20 {
		col.Add(widget.NewLabel("filler"))
	}
	entry := widget.NewEntry()
	col.Add(container.NewGridWrap(fyne.NewSize(200, 44), entry))
	col.Add(container.NewGridWrap(fyne.NewSize(120, 44), widget.NewButton("Far", func() { tapped = true })))
	w := test.NewTempWindow(t, container.NewVScroll(col))
	w.Resize(fyne.NewSize(300, 300))
	msg := attempt(t, w.Canvas(), func(p *persontest.Person) {
		p.Tap("the entry", reach.Kind("entry", ""))
		p.Type("Ada")
		p.TapText("Far")
	})
	if msg != "" || !tapped || entry.Text != "Ada" {
		t.Fatalf("failure %q, tapped %v, entry %q", msg, tapped, entry.Text)
	}
}
