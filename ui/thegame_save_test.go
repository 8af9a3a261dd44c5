package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// restartApp is the app started again on u's storage, as after the process
// was killed: nothing of u but its files.
func restartApp(t *testing.T, u *App) *App {
	t.Helper()
	fa := test.NewTempApp(t)
	fa.Preferences().SetString(keyLanguage, "en")
	u2 := New(fa, Env{Storage: u.storage(), Now: func() time.Time { return time.Unix(1e9, 0) }})
	t.Cleanup(func() {
		u2.stopAll()
		setupLang("en")
	})
	return u2
}

// playTurns plays the person's seat for n turns (or until the game ends)
// by taps, the table saving as the app has it do.
func (tt *tgTest) playTurns(person tgbot.Player, n int) {
	tt.t.Helper()
	for turns := 0; turns < n; {
		tt.settle()
		if tt.scr.over {
			return
		}
		v := tt.src.View()
		a := person.Act(&v)
		tt.do(a)
		if a.Kind == thegame.ActEnd {
			turns++
		}
	}
}

// sameGame fails unless got and want are the same game: the same save
// (its configuration, every move and the bots' last signals, from which
// the engine's state follows) and the same view of the person.
func sameGame(t *testing.T, got, want *seat.TheGameLocal) {
	t.Helper()
	gs, err := got.Save()
	if err != nil {
		t.Fatal(err)
	}
	ws, err := want.Save()
	if err != nil {
		t.Fatal(err)
	}
	if string(gs) != string(ws) {
		t.Fatalf("the games differ:\n got %s\nwant %s", gs, ws)
	}
	if gv, wv := got.View(), want.View(); !reflect.DeepEqual(gv, wv) {
		t.Fatalf("the person's view differs:\n got %+v\nwant %+v", gv, wv)
	}
}

// TestTheGameResumeAfterRestart: a game of The Game saved as it goes and
// on leaving the foreground, then the app killed and started again, is
// offered on home by its players and variant, and Continue sits the person
// at the same position: the engine's state equal, the moves told before in
// the replay, the game going on to its end.
func TestTheGameResumeAfterRestart(t *testing.T) {
	cases := []struct {
		cfg   seat.TheGameLocalConfig
		turns int
		label string
	}{
		{seat.TheGameLocalConfig{Players: 1, Bot: "coop", Seed: 11}, 3, "Continue: alone, base game"},
		{seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 12}, 4, "Continue: 2 players, base game"},
		{seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 13}, 5, "Continue: 3 players, Extreme"},
		{seat.TheGameLocalConfig{Players: 5, Extreme: true, Bot: "greedy", Seed: 14}, 2, "Continue: 5 players, Extreme"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dp/extreme=%v", c.cfg.Players, c.cfg.Extreme), func(t *testing.T) {
			tt := newTGTest(t, "en", c.cfg, fyne.NewSize(360, 740))
			u := tt.app
			u.keepTheGame(tt.scr, tt.src)
			u.SaveLocal(theGameID, tt.src)
			tt.playTurns(tgbot.NewCoop(false), c.turns)
			tt.settle()
			if tt.scr.over {
				t.Fatal("the game ended before the save")
			}
			u.saveLive() // the app leaves the foreground
			u.saving.Wait()

			u2 := restartApp(t, u)
			h := NewHome(u2)
			u2.Reset(h)
			if !h.Game(theGameID).Continue.Visible() || h.Game(theGameID).Continue.Text != c.label {
				t.Fatalf("home offers %q (shown %v), want %q", h.Game(theGameID).Continue.Text, h.Game(theGameID).Continue.Visible(), c.label)
			}
			v := tt.src.View()
			left := v.DrawPile
			for _, n := range v.HandSizes {
				left += n
			}
			if want := fmt.Sprintf("The saved game: %d cards still to play", left); h.Game(theGameID).Saved.Text != want {
				t.Errorf("home says %q, want %q", h.Game(theGameID).Saved.Text, want)
			}
			test.Tap(h.Game(theGameID).Continue)
			scr, ok := u2.Top().(*TheGameScreen)
			if !ok {
				t.Fatalf("Continue shows %T", u2.Top())
			}
			got, ok := scr.src.(*seat.TheGameLocal)
			if !ok {
				t.Fatalf("the table plays %T", scr.src)
			}
			sameGame(t, got, tt.src)
			if !slices.Equal(scr.plays, tt.scr.plays) || scr.last != tt.scr.last {
				t.Errorf("the replay holds %d cards ending on pile %d, before the restart %d on pile %d", len(scr.plays), scr.last, len(tt.scr.plays), tt.scr.last)
			}
			if !scr.myTurn() {
				t.Error("the resumed table does not wait for the person")
			}
			u2.stopAll()

			// The same game played on to its end from the save and without
			// the restart comes to the same result.
			again, err := seat.ResumeTheGameLocal(mustRead(t, filepath.Join(u.storage(), theGameUI.save.file)))
			if err != nil {
				t.Fatal(err)
			}
			tt.play(tgbot.NewCoop(false), nil)
			tt2 := &tgTest{t: t, app: u2, src: again, queue: make(chan func(), 4096)}
			tt2.scr = newTheGameScreen(u2, again, seatNames(u2, c.cfg.Players), 0, func(f func()) { tt2.queue <- f })
			u2.Push(tt2.scr)
			tt2.play(tgbot.NewCoop(false), nil)
			if r1, r2 := tt.src.Result(), again.Result(); r1 != r2 {
				t.Fatalf("played on: %+v without the restart, %+v after it", r1, r2)
			}
			u.saving.Wait()
			if u.HasSavedGame(theGameID) {
				t.Error("the save outlives the game's end")
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// validTheGameSave is the save of a 3-player Extreme game after its first
// turn.
func validTheGameSave(t *testing.T) map[string]any {
	t.Helper()
	l, err := seat.NewTheGameLocal(seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	v := l.View()
	for range 2 {
		a, ok := legalPlay(v)
		if !ok {
			t.Fatal("no play in the first hand")
		}
		if err := l.Act(a); err != nil {
			t.Fatal(err)
		}
		v = l.View()
	}
	if err := l.Act(thegame.Action{Kind: thegame.ActEnd}); err != nil {
		t.Fatal(err)
	}
	data, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seat.ResumeTheGameLocal(data); err != nil {
		t.Fatalf("the valid save does not resume: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTheGameDamagedSave: a save of The Game that cannot be read or that
// breaks a rule is still offered on home, and Continue then says that it
// cannot be continued, sets it aside (kept beside, no longer offered) and
// shows home; Njet's saved game is left alone. Nothing panics.
func TestTheGameDamagedSave(t *testing.T) {
	edit := func(f func(m map[string]any)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			m := validTheGameSave(t)
			f(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	raw := func(s string) func(t *testing.T) []byte { return func(*testing.T) []byte { return []byte(s) } }
	moves := func(m map[string]any) []any { return m["moves"].([]any) }
	cases := []struct {
		name string
		data func(t *testing.T) []byte
		why  string
	}{
		{"not JSON", raw("{{{ not a game"), "invalid character"},
		{"empty", raw(""), "no saved game"},
		{"cut short", func(t *testing.T) []byte {
			data, err := json.Marshal(validTheGameSave(t))
			if err != nil {
				t.Fatal(err)
			}
			return data[:len(data)/2]
		}, "unexpected EOF"},
		{"binary", raw("\x00\xff\x13\x37"), "invalid character"},
		{"two saves", func(t *testing.T) []byte {
			data, err := json.Marshal(validTheGameSave(t))
			if err != nil {
				t.Fatal(err)
			}
			return append(append(data, '\n'), data...)
		}, "more than one save"},
		{"unknown key", edit(func(m map[string]any) { m["cheat"] = true }), "unknown field"},
		{"format", edit(func(m map[string]any) { m["format"] = 2 }), "format 2"},
		{"variant", edit(func(m map[string]any) { m["variant"] = "deluxe" }), `variant "deluxe"`},
		{"assignment", edit(func(m map[string]any) { m["assignment"] = 9 }), "command assignment 9"},
		{"players", edit(func(m map[string]any) { m["players"] = 7 }), "7 players"},
		{"bot", edit(func(m map[string]any) { m["bot"] = "genius" }), "unknown kind"},
		{"card not held", edit(func(m map[string]any) {
			moves(m)[0].(map[string]any)["card"] = 1
		}), "move 1"},
		{"unknown move", edit(func(m map[string]any) {
			moves(m)[1].(map[string]any)["act"] = "peek"
		}), `unknown move "peek"`},
		{"out of turn", edit(func(m map[string]any) {
			moves(m)[0].(map[string]any)["seat"] = 2
		}), "move 1"},
		{"too many moves", edit(func(m map[string]any) {
			m["moves"] = make([]any, 4097) // the most a save holds is 4096
		}), "at most"},
		{"signals ahead", edit(func(m map[string]any) { m["talked"] = 999 }), "signals of turn 999"},
		{"wrong type", edit(func(m map[string]any) { m["seed"] = "seven" }), "cannot unmarshal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := newTestApp(t, "en")
			njet := seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 9, Short: true, Names: []string{"You", "Ada", "Boris"}}
			if err := startNjet(u, njet); err != nil {
				t.Fatal(err)
			}
			stopTables(t, u)
			u.saving.Wait()
			njetSave := mustRead(t, filepath.Join(u.storage(), njetUI.save.file))
			data := c.data(t)
			if err := os.WriteFile(filepath.Join(u.storage(), theGameUI.save.file), data, 0o600); err != nil {
				t.Fatal(err)
			}
			h := NewHome(u)
			u.Reset(h)
			if !h.Game(theGameID).Continue.Visible() {
				t.Fatal("home hides the damaged save: the person would not learn what became of it")
			}
			err := u.resumeLocal(theGameUI)
			if err == nil {
				t.Fatal("a damaged save was continued")
			}
			if msg := err.Error(); !strings.Contains(msg, "The saved game of The Game cannot be continued and has been set aside") || !strings.Contains(msg, c.why) {
				t.Fatalf("the message %q lacks the words or %q", msg, c.why)
			}
			if c.name != "empty" && !errors.Is(err, seat.ErrBadSave) {
				t.Errorf("%v does not wrap seat.ErrBadSave", err)
			}
			if u.HasSavedGame(theGameID) {
				t.Error("the damaged save is still in place")
			}
			if aside := mustRead(t, filepath.Join(u.storage(), theGameUI.save.aside)); string(aside) != string(data) {
				t.Error("the damaged save was not kept aside as it was")
			}
			if _, ok := u.Top().(*Home); !ok {
				t.Fatalf("after the refusal the app shows %T", u.Top())
			}
			if h := u.Top().(*Home); h.Game(theGameID).Continue.Visible() {
				t.Error("home still offers the damaged save")
			}
			if got := mustRead(t, filepath.Join(u.storage(), njetUI.save.file)); string(got) != string(njetSave) {
				t.Error("Njet's saved game changed")
			}

			// Through home's button the message comes up in a dialog.
			if err := os.WriteFile(filepath.Join(u.storage(), theGameUI.save.file), data, 0o600); err != nil {
				t.Fatal(err)
			}
			h = NewHome(u)
			u.Reset(h)
			test.Tap(h.Game(theGameID).Continue)
			if u.Window().Canvas().Overlays().Top() == nil {
				t.Error("the refusal shows no message")
			}
		})
	}
}

// TestNjetSaveBesideTheGame: Njet's saved game and one of The Game are kept
// side by side; after a restart both are offered, Njet's resumes as before
// and ending The Game's leaves Njet's in place.
func TestNjetSaveBesideTheGame(t *testing.T) {
	u := newTestApp(t, "en")
	njet := seat.LocalConfig{Edition: engine.Modern, Players: 3, Seed: 21, Names: []string{"You", "Ada", "Boris"}}
	if err := startNjet(u, njet); err != nil {
		t.Fatal(err)
	}
	stopTables(t, u)
	if err := u.startTheGame(seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 3}); err != nil {
		t.Fatal(err)
	}
	u.stopAll()
	u.saveLive()
	u.saving.Wait()
	njetSave := mustRead(t, filepath.Join(u.storage(), njetUI.save.file))

	u2 := restartApp(t, u)
	h := NewHome(u2)
	u2.Reset(h)
	if !h.Game(njetID).Continue.Visible() || !h.Game(theGameID).Continue.Visible() {
		t.Fatalf("home offers Njet %v, The Game %v: want both", h.Game(njetID).Continue.Visible(), h.Game(theGameID).Continue.Visible())
	}
	test.Tap(h.Game(njetID).Continue)
	if _, ok := u2.Top().(*TableScreen); !ok {
		t.Fatalf("Njet's Continue shows %T", u2.Top())
	}
	stopTables(t, u2)
	l, ok := u2.saves[njetID].live.(*seat.Local)
	if !ok {
		t.Fatalf("the live Njet game is %T", u2.saves[njetID].live)
	}
	if got := l.Config(); got.Edition != njet.Edition || got.Players != njet.Players || got.Seed != njet.Seed {
		t.Fatalf("Njet resumed %+v, saved %+v", got, njet)
	}
	got, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	// The bots may have moved on between Continue and the stop, when the
	// first game stopped on a bot's turn: the resumed game is the saved one
	// and, at most, a few moves further.
	continues(t, njetSave, got)
	if !u2.HasSavedGame(theGameID) {
		t.Fatal("continuing Njet removed The Game's save")
	}
	u2.ClearLocal(theGameID)
	if !u2.HasSavedGame(njetID) {
		t.Fatal("ending The Game removed Njet's save")
	}
}

// TestTheGameLeaveAsks: Back (the button, Escape or the system's back) at a
// game under way asks first; "keep playing" changes nothing, "leave" ends
// the game: its save is removed and home no longer offers it.
func TestTheGameLeaveAsks(t *testing.T) {
	u := newTestApp(t, "en")
	if err := u.startTheGame(seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 8}); err != nil {
		t.Fatal(err)
	}
	scr, ok := u.Top().(*TheGameScreen)
	if !ok {
		t.Fatalf("the setup shows %T", u.Top())
	}
	for _, key := range []fyne.KeyName{fyne.KeyEscape, keyBack} {
		u.typedKey(&fyne.KeyEvent{Name: key})
		if scr.leaveDlg == nil {
			t.Fatalf("%s does not ask", key)
		}
		scr.answerLeave(false)
		if u.Top() != scr || !u.HasSavedGame(theGameID) {
			t.Fatalf("keeping on after %s left the table or the save", key)
		}
	}
	scr.leave()
	scr.leave() // a second tap while asking opens no second question
	if scr.leaveDlg == nil {
		t.Fatal("Back does not ask")
	}
	scr.answerLeave(true)
	h, ok := u.Top().(*Home)
	if !ok || u.Depth() != 1 {
		t.Fatalf("leaving shows %T with %d screens", u.Top(), u.Depth())
	}
	if u.HasSavedGame(theGameID) || h.Game(theGameID).Continue.Visible() {
		t.Fatal("the left game is still saved or offered")
	}

	// A table that keeps no game (a LAN table's, say) is left at once, to
	// the screen below it, and its keys go to the app.
	tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 1}, fyne.NewSize(360, 740))
	depth := tt.app.Depth()
	if tt.scr.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) {
		t.Fatal("a table that keeps no game took Escape")
	}
	tt.scr.leave()
	if tt.scr.leaveDlg != nil || tt.app.Depth() != depth-1 {
		t.Fatalf("leaving asked (%v) or left %d screens of %d", tt.scr.leaveDlg != nil, tt.app.Depth(), depth)
	}
}

// TestTheGameSmokePlaysThrough: the smoke mode's table plays the person's
// seat by its own taps to the game-over view, which shows the engine's
// cards left, and writes no save.
func TestTheGameSmokePlaysThrough(t *testing.T) {
	for _, cfg := range []seat.TheGameLocalConfig{
		{Players: 3, Extreme: true, Bot: "coop", Seed: 7},
		{Players: 1, Bot: "greedy", Seed: 2},
	} {
		t.Run(fmt.Sprintf("%dp/extreme=%v", cfg.Players, cfg.Extreme), func(t *testing.T) {
			tt := newTGTest(t, "en", cfg, fyne.NewSize(1280, 800))
			person, err := tgbot.New("coop", true)
			if err != nil {
				t.Fatal(err)
			}
			tt.scr.auto = person
			var failed error
			tt.scr.onFail = func(err error) { failed = err }
			tt.scr.autoNext()
			deadline := time.After(20 * time.Second)
			for !tt.scr.over && failed == nil {
				select {
				case f := <-tt.queue:
					f()
				case <-deadline:
					t.Fatal("the smoke game does not end")
				}
			}
			if failed != nil {
				t.Fatal(failed)
			}
			r := tt.src.Result()
			if want := fmt.Sprintf("Cards left: %d", r.CardsLeft); tt.scr.gameOver.Left.Text != want {
				t.Fatalf("the view says %q, want %q", tt.scr.gameOver.Left.Text, want)
			}
			if tt.app.HasSavedGame(theGameID) {
				t.Fatal("the smoke game was saved")
			}
		})
	}
}

// continues checks that the saved game after is the saved game before, or
// the same game further on: the same configuration, its decks and moves
// extended and not changed.
func continues(t *testing.T, before, after []byte) {
	t.Helper()
	type saved struct {
		Config  json.RawMessage   `json:"config"`
		Decks   []json.RawMessage `json:"decks"`
		Actions []json.RawMessage `json:"actions"`
	}
	var b, a saved
	if err := json.Unmarshal(before, &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &a); err != nil {
		t.Fatal(err)
	}
	prefix := func(x, y []json.RawMessage) bool {
		return len(x) <= len(y) && slices.EqualFunc(x, y[:len(x)], func(p, q json.RawMessage) bool { return bytes.Equal(p, q) })
	}
	if string(a.Config) != string(b.Config) || !prefix(b.Decks, a.Decks) || !prefix(b.Actions, a.Actions) {
		t.Fatalf("the resumed Njet game is another game: %d decks and %d moves saved, %d and %d after resuming",
			len(b.Decks), len(b.Actions), len(a.Decks), len(a.Actions))
	}
}
