package ui

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// testTable is a table screen in the test driver whose UI work runs on the
// test goroutine: the pump and the choices queue functions that the test
// runs in order, as fyne.Do would on the app's goroutine.
type testTable struct {
	t     *testing.T
	app   *App
	scr   *TableScreen
	local *seat.Local
	queue chan func()
}

func newTestTable(t *testing.T, code string, cfg seat.LocalConfig, opt TableOptions, size fyne.Size) *testTable {
	t.Helper()
	u := newTestApp(t, code)
	// Name the seats as a game started from the new-game screen does.
	if len(cfg.Names) == 0 {
		cfg.Names = seatNames(u, cfg.Players)
	}
	if len(opt.Names) == 0 {
		opt.Names = cfg.Names
	}
	l, err := seat.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tt := &testTable{t: t, app: u, local: l, queue: make(chan func(), 256)}
	tt.scr = newTableScreen(u, l, opt, 0, func(f func()) { tt.queue <- f })
	u.Push(tt.scr)
	u.Window().Resize(size)
	return tt
}

// awaits reports whether the screen waits for the person.
func (tt *testTable) awaits() bool {
	m := tt.scr.model
	return (m.prompt != nil && !tt.scr.sent) || m.summary != nil || m.over != nil
}

// settle runs queued UI work until the screen waits for the person.
func (tt *testTable) settle() {
	tt.t.Helper()
	for range 100000 {
		if tt.awaits() && len(tt.queue) == 0 {
			return
		}
		select {
		case f := <-tt.queue:
			f()
		case <-time.After(10 * time.Second):
			tt.t.Fatal("the table does not move on")
		}
	}
	tt.t.Fatal("the table never waits for the person")
}

// finished reports whether the game-over view is up.
func (tt *testTable) finished() bool {
	m := tt.scr.model
	return m.over != nil && m.summary == nil
}

// play taps the first enabled control until the game is over, calling look
// at every point where the person is asked.
func (tt *testTable) play(look func()) { tt.playSteered(look, nil) }

// playSteered is play where steer may tap a control of its choice first
// (and then reports true).
func (tt *testTable) playSteered(look func(), steer func() bool) {
	tt.t.Helper()
	for range 5000 {
		tt.settle()
		if look != nil {
			look()
		}
		if tt.finished() {
			return
		}
		if steer != nil && steer() {
			continue
		}
		if !tt.scr.tapFirst() {
			tt.t.Fatalf("no enabled control; prompt %+v", tt.scr.model.prompt)
		}
	}
	tt.t.Fatal("the game does not end")
}

// checkTotals compares the screen's totals with the engine's and with a
// replay of the saved game.
func (tt *testTable) checkTotals() {
	tt.t.Helper()
	got, want := tt.scr.Totals(), tt.local.Totals()
	saved, err := tt.local.Save()
	if err != nil {
		tt.t.Fatal(err)
	}
	r, err := seat.ResumeLocal(saved)
	if err != nil {
		tt.t.Fatal(err)
	}
	if !slices.Equal(got, want) || !slices.Equal(r.Totals(), want) || !r.Over() {
		tt.t.Fatalf("the screen shows %v, the engine has %v, a replay %v", got, want, r.Totals())
	}
}

var round7 = seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}

// TestTableTapsWholeGame plays a Classic short game of 3 players through
// taps alone, the first enabled control each time, and checks the totals
// against the engine (R-SCORE, R-END).
func TestTableTapsWholeGame(t *testing.T) {
	tt := newTestTable(t, "en", round7, TableOptions{}, fyne.NewSize(1280, 800))
	tt.play(nil)
	tt.checkTotals()
	if len(tt.scr.model.results) != 3 {
		t.Fatalf("%d rounds shown", len(tt.scr.model.results))
	}
}

// texts lists every text drawn in o.
func texts(t *testing.T, o fyne.CanvasObject) []string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *canvas.Text:
			out = append(out, c.Text)
		case *fyne.Container:
			for _, k := range c.Objects {
				walk(k)
			}
		case fyne.Widget:
			for _, k := range test.TempWidgetRenderer(t, c).Objects() {
				walk(k)
			}
		}
	}
	walk(o)
	return out
}

// TestTableGerman plays the same game in German and checks at every
// question that no English text shows.
func TestTableGerman(t *testing.T) {
	english := regexp.MustCompile(`\b(Your|Trick|Round|Scores|board|takes|dealer|cards|Next|Start|thinking|Show|per|red|black|blue|green|Discard|Supertrump|Trump|You|alone|with|wins|Done|the)\b`)
	tt := newTestTable(t, "de", round7, TableOptions{}, fyne.NewSize(1280, 800))
	seen := map[string]bool{}
	tt.play(func() {
		for _, s := range texts(t, tt.app.Window().Content()) {
			if english.MatchString(s) && !seen[s] {
				seen[s] = true
				t.Errorf("English text %q in the German table", s)
			}
		}
	})
	tt.checkTotals()
}

// TestTableAutoplay: with Autoplay the screen answers every question and
// reads every summary itself, through its own tap handlers.
func TestTableAutoplay(t *testing.T) {
	over := false
	opt := TableOptions{Autoplay: true, OnGameOver: func() { over = true }}
	tt := newTestTable(t, "en", round7, opt, fyne.NewSize(1280, 800))
	for range 100000 {
		if tt.finished() {
			break
		}
		select {
		case f := <-tt.queue:
			f()
		case <-time.After(10 * time.Second):
			t.Fatalf("autoplay stalls: prompt %+v sent %v summary %v over %v status %q", tt.scr.model.prompt, tt.scr.sent, tt.scr.model.summary != nil, tt.scr.model.over != nil, tt.scr.status)
		}
	}
	tt.checkTotals()
	tt.scr.tapFirst()
	if !over {
		t.Fatal("the game-over button did not call OnGameOver")
	}
}

// TestTableRefusals: tapping a blocked or last free field, or a card that
// does not follow suit, says why and changes nothing (R-NJET, R-TRICK-2).
func TestTableRefusals(t *testing.T) {
	tt := newTestTable(t, "en", round7, TableOptions{}, fyne.NewSize(1280, 800))
	var field, card bool
	tt.play(func() {
		m := tt.scr.model
		if m.prompt == nil {
			return
		}
		switch m.prompt.Kind {
		case engine.ActBlock:
			for _, f := range tt.scr.fields {
				if f.Disabled() && !field {
					seq := m.prompt.Seq
					f.Tapped(&fyne.PointEvent{})
					if tt.scr.status == "" || m.prompt == nil || m.prompt.Seq != seq {
						t.Fatalf("tapping a field that cannot be blocked: status %q", tt.scr.status)
					}
					field = true
				}
			}
		case engine.ActPlay:
			for _, c := range tt.scr.cards {
				if c.Disabled() && !card {
					c.Tapped(&fyne.PointEvent{})
					f := <-tt.queue // the seat's refusal
					f()
					if !strings.Contains(tt.scr.status, "follow") && !strings.Contains(tt.scr.status, "trump") {
						t.Fatalf("refused card says %q", tt.scr.status)
					}
					card = true
					break
				}
			}
		}
	})
	if !field || !card {
		t.Fatalf("refusals tried: field %v, card %v", field, card)
	}
}

// TestTableKeyboard plays cards with digits and arrows plus Enter.
func TestTableKeyboard(t *testing.T) {
	tt := newTestTable(t, "en", round7, TableOptions{}, fyne.NewSize(1280, 800))
	played := 0
	for range 5000 {
		tt.settle()
		if tt.finished() || played >= 4 {
			break
		}
		m := tt.scr.model
		if m.prompt != nil && m.prompt.Kind == engine.ActPlay {
			i := slices.IndexFunc(tt.scr.cards, func(c *cardView) bool { return !c.Disabled() })
			before := m.view.Hand.Len()
			if played%2 == 0 {
				tt.scr.TypedRune(rune('1' + i))
			} else {
				if tt.scr.focus != i {
					t.Fatalf("the keyboard starts at card %d, the first legal is %d", tt.scr.focus, i)
				}
				tt.scr.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
				tt.scr.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
				tt.scr.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			}
			tt.settle()
			if m.view.Hand.Len() != before-1 {
				t.Fatalf("key play %d: hand %d → %d", played, before, m.view.Hand.Len())
			}
			played++
			continue
		}
		tt.scr.tapFirst()
	}
	if played < 4 {
		t.Fatalf("%d cards played by keys", played)
	}
}

// phaseOf names what the table shows now, for the screenshots.
func phaseOf(m *tableModel) string {
	switch {
	case m.over != nil && m.summary == nil:
		return "gameover"
	case m.summary != nil:
		return "summary"
	case m.prompt != nil && m.prompt.Kind == engine.ActBlock:
		return "njet"
	case m.prompt != nil && m.prompt.Kind == engine.ActTeam:
		return "team"
	case m.prompt != nil && m.prompt.Kind == engine.ActDiscard:
		return "discard"
	case m.prompt != nil && m.prompt.Kind == engine.ActPass:
		return "pass"
	case m.prompt != nil && m.trickWon != nil:
		return "trick"
	}
	return ""
}

// TestTableScreens renders the table in each phase (the Njet board, the
// team choice, a discard, a pass, trick play after a won trick, the round
// summary, game over) at desktop and phone sizes: the parts must fit the
// window and every control must be big enough for a finger. The markup of
// each is checked in testdata/; -shots writes docs/screenshots/table-*.png.
func TestTableScreens(t *testing.T) {
	games := []seat.LocalConfig{
		{Edition: engine.Modern, Players: 4, Seed: 3, Target: 12},
		{Edition: engine.Classic, Players: 3, Seed: 7, Short: true},
		{Edition: engine.Modern, Players: 4, Seed: 5, Target: 12},
		{Edition: engine.Modern, Players: 4, Seed: 8, Target: 12},
		{Edition: engine.Modern, Players: 5, Seed: 2, Target: 12},
		{Edition: engine.Modern, Players: 3, Seed: 4, Target: 12},
		{Edition: engine.Modern, Players: 4, Seed: 6, Target: 20},
		{Edition: engine.Modern, Players: 4, Seed: 9, Target: 20},
		{Edition: engine.Modern, Players: 5, Seed: 13, Target: 20},
		{Edition: engine.Modern, Players: 2, Seed: 11, Target: 20},
	}
	want := []string{"njet", "team", "discard", "pass", "trick", "summary", "gameover"}
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			done := map[string]bool{}
			for _, g := range games {
				if len(done) == len(want) {
					break
				}
				tt := newTestTable(t, "en", g, TableOptions{}, sz.size)
				steer := func() bool {
					// Block so that the person becomes the start player and
					// passing to the left stays open, to meet every phase.
					m := tt.scr.model
					if m.prompt == nil || m.prompt.Kind != engine.ActBlock {
						return false
					}
					mine := engine.Field(slices.Index(m.view.Edition.Characters(), m.view.Characters[m.you]))
					for _, f := range tt.scr.fields {
						fs := f.fs
						if f.Disabled() || fs.Row == engine.RowStart && fs.Field == mine ||
							fs.Row == engine.RowDiscard && fs.Field == engine.PassLeft {
							continue
						}
						f.Tapped(&fyne.PointEvent{})
						return true
					}
					return false
				}
				tt.playSteered(func() {
					m := tt.scr.model
					p := phaseOf(m)
					if p == "" || done[p] {
						return
					}
					if p == "discard" && m.needed() == 2 && len(m.chosen) == 0 {
						tt.scr.tapFirst() // show one card picked of two
					}
					if p == "pass" && len(m.chosen) == 0 {
						tt.scr.tapFirst() // show the pick before the confirm
					}
					done[p] = true
					w := tt.app.Window()
					checkTableFits(t, tt.scr, w)
					assertMarkup(t, filepath.Join(sz.name, "table-"+p+".xml"), w)
					screenshot(t, "table-"+p+"-"+sz.name, w)
				}, steer)
			}
			for _, p := range want {
				if !done[p] {
					t.Errorf("no %s phase met", p)
				}
			}
		})
	}
}

// minTarget is the smallest side of a card or field a finger must hit.
const minTarget = 38

// checkTableFits checks that every control of the table lies inside the
// window, is big enough to tap, and that no two overlap.
func checkTableFits(t *testing.T, s *TableScreen, w fyne.Window) {
	t.Helper()
	checkFits(t, w)
	size := w.Canvas().Size()
	d := fyne.CurrentApp().Driver()
	type box struct{ x0, y0, x1, y1 float32 }
	var boxes []box
	for _, c := range s.controls() {
		o := c.(fyne.CanvasObject)
		if !o.Visible() {
			continue
		}
		p := d.AbsolutePositionForObject(o)
		sz := o.Size()
		if p.X < 0 || p.Y < 0 || p.X+sz.Width > size.Width+0.5 || p.Y+sz.Height > size.Height+0.5 {
			t.Errorf("%T at %v size %v lies outside the window %v", o, p, sz, size)
		}
		if !c.Disabled() && (sz.Width < minTarget || sz.Height < minTarget) {
			t.Errorf("%T is %v: too small for a finger", o, sz)
		}
		b := box{p.X, p.Y, p.X + sz.Width, p.Y + sz.Height}
		for _, o := range boxes {
			if b.x0 < o.x1-1 && o.x0 < b.x1-1 && b.y0 < o.y1-1 && o.y0 < b.y1-1 {
				t.Errorf("controls overlap at %v and %v", b, o)
			}
		}
		boxes = append(boxes, b)
	}
}

// TestTableRoundOfTotal: the info bar always says which round of the total
// is played: of how many rounds, or towards which target score (R-END).
func TestTableRoundOfTotal(t *testing.T) {
	cases := []struct {
		name, code string
		cfg        seat.LocalConfig
		want       string
	}{
		{"R-END-classic-short", "en", seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}, "Round 1 of 3"},
		{"R-END-modern-whole", "en", seat.LocalConfig{Edition: engine.Modern, Players: 4, Seed: 3}, "Round 1 of 8"},
		{"R-END-modern-target", "en", seat.LocalConfig{Edition: engine.Modern, Players: 4, Seed: 3, Target: 50}, "Round 1 · to 50 points"},
		{"R-END-target-de", "de", seat.LocalConfig{Edition: engine.Modern, Players: 3, Seed: 3, Target: 20}, "Runde 1 · bis 20 Punkte"},
		{"R-END-short-fr", "fr", seat.LocalConfig{Edition: engine.Classic, Players: 4, Seed: 3, Short: true}, "Manche 1 sur 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := newTestTable(t, c.code, c.cfg, TableOptions{}, fyne.NewSize(360, 740))
			tt.settle()
			if got := texts(t, tt.scr.lay.info); !slices.Contains(got, c.want) {
				t.Fatalf("info bar says %q, want %q", got, c.want)
			}
		})
	}
}

// TestTableNames: the names the new-game screen gives the bots are the
// names the table uses everywhere: seats, the fields they block, the trick,
// the round summary and the game-over table; no "Bot N" shows.
func TestTableNames(t *testing.T) {
	tt := newTestTable(t, "en", round7, TableOptions{}, fyne.NewSize(1280, 800))
	bot := regexp.MustCompile(`\bBot \d`)
	seen := map[string]map[string]bool{}
	tt.play(func() {
		l := tt.scr.lay
		parts := map[string]fyne.CanvasObject{"seats": l.seats, "board": l.board, "trick": l.trick, "info": l.info}
		if l.over != nil {
			parts = map[string]fyne.CanvasObject{"sheet": l.over}
		}
		for part, o := range parts {
			for _, s := range texts(t, o) {
				if bot.MatchString(s) {
					t.Fatalf("%s shows %q", part, s)
				}
				for _, n := range []string{"Ada", "Boris"} {
					if strings.Contains(s, n) {
						if seen[part] == nil {
							seen[part] = map[string]bool{}
						}
						seen[part][n] = true
					}
				}
			}
		}
	})
	for _, part := range []string{"seats", "board", "trick", "info", "sheet"} {
		if !seen[part]["Ada"] || !seen[part]["Boris"] {
			t.Errorf("%s named %v, want Ada and Boris", part, seen[part])
		}
	}
}

// TestTableBoardLabelsFit: on a phone every field of the Njet board shows
// its whole text, broken in two lines where needed, at a readable size, in
// every language (R-NJET: the Modern discard row's longest fields).
func TestTableBoardLabelsFit(t *testing.T) {
	cfg := seat.LocalConfig{Edition: engine.Modern, Players: 4, Seed: 3, Target: 12}
	for _, code := range []string{"en", "de", "fr"} {
		for _, sz := range sizes[1:] {
			t.Run(code+"-"+sz.name, func(t *testing.T) {
				tt := newTestTable(t, code, cfg, TableOptions{}, sz.size)
				tt.settle()
				if p := tt.scr.model.prompt; p == nil || p.Kind != engine.ActBlock {
					t.Fatalf("first question %+v, want a block", p)
				}
				if len(tt.scr.fields) == 0 {
					t.Fatal("no board")
				}
				for _, f := range tt.scr.fields {
					r := test.TempWidgetRenderer(t, f).(*fieldRenderer)
					r.Layout(f.Size())
					var shown []string
					for _, l := range r.lines {
						if l.Hidden {
							continue
						}
						shown = append(shown, l.Text)
						if w := l.MinSize().Width; w > f.Size().Width-4 || l.TextSize < fieldTextMin {
							t.Errorf("%q: %.0f wide at size %.0f in a field %.0f wide", l.Text, w, l.TextSize, f.Size().Width)
						}
						if l.Position().Y+l.MinSize().Height > f.Size().Height+1 {
							t.Errorf("%q runs out of its field at the bottom", l.Text)
						}
					}
					if got := strings.Join(shown, " "); got != strings.Join(strings.Fields(f.text), " ") && !(f.mark != engine.NoColour && f.fs.By != -1) {
						t.Errorf("field shows %q of %q", got, f.text)
					}
				}
				if code != "en" && sz.name == "phone" {
					w := tt.app.Window()
					assertMarkup(t, filepath.Join("phone-"+code, "table-njet.xml"), w)
					screenshot(t, "table-njet-phone-"+code, w)
				}
			})
		}
	}
}
