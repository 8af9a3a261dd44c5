package ui

import (
	"context"
	"errors"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/ui/persontest"
)

// update rewrites the golden files in testdata/ (markup, app.en.json, the
// icon) from what the code produces now.
var update = flag.Bool("update", false, "rewrite golden files")

// shots writes PNG screenshots of the screens to docs/screenshots/.
var shots = flag.Bool("shots", false, "write screenshots to docs/screenshots/")

// The sizes every screen is checked at: landscape desktop and two portrait
// phones (logical units).
var sizes = []struct {
	name string
	size fyne.Size
}{
	{"desktop", fyne.NewSize(1280, 800)},
	{"phone", fyne.NewSize(360, 740)},
	{"phone390", fyne.NewSize(390, 844)},
}

// newTestApp is the app in Fyne's software test driver, speaking language
// code, with its own empty storage.
func newTestApp(t *testing.T, code string) *App {
	t.Helper()
	fa := test.NewTempApp(t)
	fa.Preferences().SetString(keyLanguage, code)
	u := New(fa, Env{Storage: t.TempDir(), Now: func() time.Time { return time.Unix(1e9, 0) }})
	t.Cleanup(func() {
		u.stopAll()
		setupLang("en")
	})
	return u
}

// assertMarkup checks the window against testdata/name; with -update it
// takes what was rendered as the new master.
func assertMarkup(t *testing.T, name string, w fyne.Window) {
	t.Helper()
	if test.AssertRendersToMarkup(t, name, w.Canvas()) || !*update {
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", "failed", name))
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join("testdata", name)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// screenshot writes the window to docs/screenshots/name.png with -shots.
func screenshot(t *testing.T, name string, w fyne.Window) {
	t.Helper()
	if !*shots {
		return
	}
	f, err := os.Create(filepath.Join("..", "docs", "screenshots", name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}

// fakeGame is a Saver with fixed bytes.
type fakeGame struct {
	data []byte
	err  error
}

func (g fakeGame) Save() ([]byte, error) { return g.data, g.err }

// TestScreensRender renders each of the app's own screens at desktop and
// phone sizes, in English, and checks the markup; the content must fit the
// width (nothing cut off) and every button must be big enough for a finger.
func TestScreensRender(t *testing.T) {
	screens := []struct {
		name string
		make func(u *App) Screen
	}{
		{"home", func(u *App) Screen { return NewHome(u) }},
		{"home-saved", func(u *App) Screen {
			u.SaveLocal(njetID, fakeGame{data: []byte("{}")})
			return NewHome(u)
		}},
		{"newgame", func(u *App) Screen { return NewNewGame(u) }},
		{"newgame-dark", func(u *App) Screen {
			u.applyTheme(ThemeDark)
			return NewNewGame(u)
		}},
		{"rules", func(u *App) Screen { return NewRules(u) }},
		{"settings", func(u *App) Screen { return NewSettings(u) }},
	}
	for _, sc := range screens {
		for _, sz := range tableSizes {
			t.Run(sc.name+"/"+sz.name, func(t *testing.T) {
				u := newTestApp(t, "en")
				u.Push(sc.make(u))
				w := u.Window()
				w.Resize(sz.size)
				p := persontest.New(t, w.Canvas(), persontest.Options{})
				p.Settle() // the frames a window draws before a person looks
				checkFits(t, w)
				checkReach(t, p)
				assertMarkup(t, filepath.Join(sz.name, sc.name+".xml"), w)
				screenshot(t, sc.name+"-"+sz.name, w)
			})
		}
	}
}

// TestScreensLanguages renders the screens in German and French at the
// narrowest phone size: longer words must fit too.
func TestScreensLanguages(t *testing.T) {
	for _, code := range []string{"de", "fr"} {
		for _, sc := range []string{"home", "newgame", "settings", "rules"} {
			t.Run(code+"/"+sc, func(t *testing.T) {
				u := newTestApp(t, code)
				var s Screen
				switch sc {
				case "home":
					s = NewHome(u)
				case "newgame":
					s = NewNewGame(u)
				case "settings":
					s = NewSettings(u)
				case "rules":
					s = NewRules(u)
				}
				u.Push(s)
				w := u.Window()
				w.Resize(fyne.NewSize(360, 740))
				p := persontest.New(t, w.Canvas(), persontest.Options{})
				p.Settle()
				checkFits(t, w)
				checkReach(t, p)
				assertMarkup(t, filepath.Join("phone-"+code, sc+".xml"), w)
				if sc == "home" || sc == "newgame" {
					screenshot(t, sc+"-phone-"+code, w)
				}
			})
		}
	}
}

// minTouch is the smallest height of a control a finger hits reliably.
const minTouch = 44

// checkFits fails when the content is wider than the window or a visible
// button or entry is too small to tap.
func checkFits(t *testing.T, w fyne.Window) {
	t.Helper()
	size := w.Canvas().Size()
	if min := w.Content().MinSize(); min.Width > size.Width {
		t.Errorf("content needs %.0f wide, the window is %.0f", min.Width, size.Width)
	}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *widget.Button:
			if c.Size().Height < minTouch {
				t.Errorf("button %q is %.0f high", c.Text, c.Size().Height)
			}
		case *widget.Entry, *widget.Select:
			if c.Size().Height < minTouch {
				t.Errorf("%T is %.0f high", c, c.Size().Height)
			}
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, k := range c.Objects {
				walk(k)
			}
		}
		if wd, ok := o.(fyne.Widget); ok {
			r := test.TempWidgetRenderer(t, wd)
			for _, k := range r.Objects() {
				walk(k)
			}
		}
	}
	walk(w.Content())
}

// screenLog is a Screen that records its lifetime.
type screenLog struct {
	name string
	log  *[]string
	ctx  context.Context
}

func (s *screenLog) View() fyne.CanvasObject { return widget.NewLabel(s.name) }
func (s *screenLog) Start(ctx context.Context) {
	s.ctx = ctx
	*s.log = append(*s.log, "start "+s.name)
}
func (s *screenLog) Stop() { *s.log = append(*s.log, "stop "+s.name) }

// TestRouter: Push starts a screen over the others, Back stops the top one
// and cancels its context, Reset stops all, and Escape or the Android back
// key go back.
func TestRouter(t *testing.T) {
	u := newTestApp(t, "en")
	var log []string
	a := &screenLog{name: "a", log: &log}
	b := &screenLog{name: "b", log: &log}
	c := &screenLog{name: "c", log: &log}
	u.Reset(a)
	u.Push(b)
	if u.Top() != b || u.Depth() != 2 {
		t.Fatalf("top %v depth %d after Push", u.Top(), u.Depth())
	}
	u.Back()
	if b.ctx.Err() == nil {
		t.Error("Back left the screen's context running")
	}
	if u.Top() != a {
		t.Fatalf("top after Back is %v", u.Top())
	}
	u.Back() // on the first screen: nothing
	if u.Depth() != 1 {
		t.Fatalf("Back on the first screen left depth %d", u.Depth())
	}
	u.Push(c)
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	u.Push(c)
	u.typedKey(&fyne.KeyEvent{Name: keyBack})
	if u.Top() != a {
		t.Fatalf("top after the back keys is %v", u.Top())
	}
	u.Push(b)
	u.Reset(c)
	want := []string{"start a", "start b", "stop b", "start c", "stop c", "start c", "stop c", "start b", "stop b", "stop a", "start c"}
	if len(log) != len(want) {
		t.Fatalf("lifetimes %v, want %v", log, want)
	}
	for i := range want {
		if log[i] != want[i] {
			t.Fatalf("lifetimes %v, want %v", log, want)
		}
	}
	if a.ctx.Err() == nil || b.ctx.Err() == nil {
		t.Error("Reset left contexts running")
	}
}

// keyScreen takes keys.
type keyScreen struct {
	screenLog
	keys []fyne.KeyName
}

func (k *keyScreen) TypedKey(ev *fyne.KeyEvent) bool {
	k.keys = append(k.keys, ev.Name)
	return ev.Name != fyne.KeyEscape
}

// TestKeysGoToTheTopScreen: keys reach the top screen first; Escape that
// it does not use goes back.
func TestKeysGoToTheTopScreen(t *testing.T) {
	u := newTestApp(t, "en")
	var log []string
	k := &keyScreen{screenLog: screenLog{name: "k", log: &log}}
	u.Push(k)
	for _, n := range []fyne.KeyName{fyne.KeyRight, fyne.KeyReturn, fyne.Key3, fyne.KeyEscape} {
		u.typedKey(&fyne.KeyEvent{Name: n})
	}
	if len(k.keys) != 4 {
		t.Fatalf("the screen saw %v", k.keys)
	}
	if u.Top() == Screen(k) {
		t.Fatal("Escape did not go back")
	}
}

// TestSaveAndResume: a saved game makes home offer Continue; clearing it
// takes the offer away; the lifecycle's stop saves the game being played;
// a save that cannot be read is reported and removed.
func TestSaveAndResume(t *testing.T) {
	u := newTestApp(t, "en")
	if u.HasSavedGame(njetID) || NewHome(u).Game(njetID).Continue.Visible() {
		t.Fatal("a fresh app offers to continue")
	}
	u.SaveLocal(njetID, fakeGame{data: []byte(`{"v":1}`)})
	if !u.HasSavedGame(njetID) || !NewHome(u).Game(njetID).Continue.Visible() {
		t.Fatal("a saved game is not offered")
	}
	u.saves[njetID].live = fakeGame{data: []byte(`{"v":2}`)}
	u.saveLive()
	got, err := loadFile(u.storage(), njetUI.save.file)
	if err != nil || string(got) != `{"v":2}` {
		t.Fatalf("saved on stop: %q, %v", got, err)
	}
	u.ClearLocal(njetID)
	if u.HasSavedGame(njetID) {
		t.Fatal("ClearLocal left the save")
	}

	u.SaveLocal(njetID, fakeGame{data: []byte("not a game")})
	if err := u.resumeLocal(njetUI); err == nil {
		t.Fatal("a broken save resumed")
	}
	if u.HasSavedGame(njetID) {
		t.Fatal("a broken save stays offered")
	}

	before := u.HasSavedGame(njetID)
	u.SaveLocal(njetID, fakeGame{err: errors.New("disk full")})
	if u.HasSavedGame(njetID) != before {
		t.Fatal("a failed save changed the saved game")
	}
}

// TestSaveFileErrors: reading and writing local.json fail with errors, not
// panics, for a directory that cannot hold it and for a file too large.
func TestSaveFileErrors(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := saveFile(filepath.Join(blocker, "sub"), njetUI.save.file, fakeGame{data: []byte("{}")}); err == nil {
		t.Error("saving under a file worked")
	}
	big := make([]byte, maxSave+1)
	if err := os.WriteFile(filepath.Join(dir, njetUI.save.file), big, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadFile(dir, njetUI.save.file); err == nil || errors.Is(err, errNoSave) {
		t.Errorf("an oversized save read back: %v", err)
	}
	if err := clearFile(filepath.Join(dir, "none"), njetUI.save.file); err != nil {
		t.Errorf("clearing no save: %v", err)
	}
}

// overGame is a Saver of a game that has ended.
type overGame struct{ fakeGame }

func (overGame) Over() bool { return true }

// TestOverGameNotSaved: saving a game that is over removes the save
// instead, whenever the save comes.
func TestOverGameNotSaved(t *testing.T) {
	u := newTestApp(t, "en")
	u.SaveLocal(njetID, fakeGame{data: []byte("{}")})
	if !u.HasSavedGame(njetID) {
		t.Fatal("no save")
	}
	u.SaveLocal(njetID, overGame{fakeGame{data: []byte("{}")}})
	if u.HasSavedGame(njetID) {
		t.Fatal("a finished game is saved")
	}
}
