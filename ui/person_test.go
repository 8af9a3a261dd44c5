package ui

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/ui/persontest"
)

// personApp is the app in Fyne's test driver with a person in front of
// its window. Work the app does in its own goroutines reaches the widgets
// through Env.Do, which queues it here; settle runs it on the test's
// goroutine, as fyne.Do runs it on the app's.
type personApp struct {
	t     *testing.T
	u     *App
	queue chan func()
	p     *persontest.Person
	// until, when set, also ends a settle: the test looks at a moment
	// the person would not wait for.
	until func() bool
}

// newPersonApp opens the app speaking language code in a window of size,
// with the bots at full speed.
func newPersonApp(t *testing.T, code string, size fyne.Size) *personApp {
	t.Helper()
	return newPersonAppWith(t, code, size, nil)
}

// newPersonAppWith is newPersonApp with env changed by with first.
func newPersonAppWith(t *testing.T, code string, size fyne.Size, with func(*Env)) *personApp {
	t.Helper()
	fa := test.NewTempApp(t)
	fa.Preferences().SetString(keyLanguage, code)
	pa := &personApp{t: t, queue: make(chan func(), 4096)}
	env := Env{Storage: t.TempDir(), Now: func() time.Time { return time.Unix(1e9, 0) },
		Pace: time.Nanosecond, Do: func(f func()) { pa.queue <- f }}
	if with != nil {
		with(&env)
	}
	pa.u = New(fa, env)
	t.Cleanup(func() {
		stopTables(t, pa.u)
		setupLang("en")
	})
	pa.u.Window().Resize(size)
	pa.p = persontest.New(t, pa.u.Window().Canvas(), persontest.Options{Screen: pa.screen, Settle: pa.settle})
	return pa
}

// screen names the screen on top by its type.
func (pa *personApp) screen() string {
	top := pa.u.Top()
	if top == nil {
		return "none"
	}
	return reflect.Indirect(reflect.ValueOf(top)).Type().Name()
}

// idle reports whether the screen on top waits for the person.
func (pa *personApp) idle() bool {
	switch top := pa.u.Top().(type) {
	case *TableScreen:
		return top.waitsForPerson()
	case *LANGame:
		return top.table == nil || top.table.waitsForPerson()
	case *LANTheGame:
		return top.Screen == nil || top.Screen.waitsForPerson()
	case *TheGameScreen:
		return top.waitsForPerson()
	}
	return true
}

// waitsForPerson reports whether the table has shown everything up to a
// question, a round summary or the end.
func (t *TableScreen) waitsForPerson() bool {
	m := t.model
	return (m.prompt != nil && !t.sent && !t.forcing) || m.summary != nil || m.over != nil
}

// settle runs the queued UI work until the app waits for the person.
func (pa *personApp) settle() error {
	quiet := 0
	for range 1 << 20 {
		select {
		case f := <-pa.queue:
			f()
			continue
		default:
		}
		if pa.idle() || pa.until != nil && pa.until() {
			return nil
		}
		// The app's goroutines may come to wait for the person without
		// handing the UI any work (The Game's source): look again now
		// and then.
		select {
		case f := <-pa.queue:
			f()
			quiet = 0
		case <-time.After(5 * time.Millisecond):
			if quiet++; quiet > 2000 {
				return errors.New("nothing happened for 10 s")
			}
		}
	}
	return errors.New("the app never waits for the person")
}
