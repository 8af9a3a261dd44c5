package ui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
)

// waitFor runs the app's queued work until cond holds, as the person
// waits for what they asked for to show.
func (pa *personApp) waitFor(what string, cond func() bool) {
	pa.t.Helper()
	deadline := time.After(5 * time.Minute)
	for !cond() {
		select {
		case f := <-pa.queue:
			f()
		case <-deadline:
			pa.p.Fatalf("never saw %s", what)
		}
	}
	pa.p.Settle()
}

// wordsDrawn reports whether the words of text are all drawn on the
// screen (each as often as it comes in text). Their order is not
// checked: a screen's rows are read across its columns, and the words of
// a wrapped phrase may be read into a neighbouring row.
func wordsDrawn(screen, text string) bool {
	seen := strings.Fields(screen)
	for _, w := range strings.Fields(text) {
		i := slices.Index(seen, w)
		if i < 0 {
			return false
		}
		seen = slices.Delete(seen, i, i+1)
	}
	return true
}

// hintOnScreen taps Hint at the open question and checks what shows: the
// words of the move on screen, its cards lit in the hand, and the move
// legal and the one the strong bot chooses from the person's view. It
// returns the hint.
func (pa *personApp) hintOnScreen(ts *TableScreen) engine.Action {
	pa.t.Helper()
	p := *ts.model.prompt
	pa.p.Tap("the Hint button", reach.Button(tr("again.hint.button", "Hint")))
	pa.waitFor("the hint", func() bool { return ts.currentHint() != nil })
	h := ts.currentHint().a
	if !slices.Contains(p.Legal, h) {
		pa.p.Fatalf("the hint %+v is not a legal answer", h)
	}
	if want, err := seat.Hint(p); err != nil || want != h {
		pa.p.Fatalf("the hint %+v, the strong bot's move %+v (%v)", h, want, err)
	}
	if ts.model.prompt == nil || ts.model.prompt.Seq != p.Seq {
		pa.p.Fatalf("the hint played the move")
	}
	s := pa.p.Look()
	if !wordsDrawn(s.Read(""), ts.hintText()) || !strings.HasPrefix(ts.hintText(), "Hint: ") {
		pa.p.Fatalf("the hint %q is not on the screen", ts.hintText())
	}
	var lit []engine.Card
	for _, cv := range ts.cards {
		if cv.lit {
			lit = append(lit, cv.card)
		}
	}
	var want []engine.Card
	switch h.Kind {
	case engine.ActPlay, engine.ActPass:
		want = []engine.Card{h.Card}
	case engine.ActDiscard:
		for _, c := range h.Cards {
			if c != engine.NoCard {
				want = append(want, c)
			}
		}
	}
	slices.Sort(lit)
	slices.Sort(want)
	if !slices.Equal(lit, want) {
		pa.p.Fatalf("the hint %+v lights cards %v", h, lit)
	}
	for i, b := range ts.parts.bar.team {
		if on := h.Kind == engine.ActTeam && i < len(ts.parts.bar.teamAct) && ts.parts.bar.teamAct[i] == h; b.hinted != on {
			pa.p.Fatalf("the hint %+v: team choice %d framed %v", h, i, b.hinted)
		}
	}
	for key, f := range ts.views.fields {
		if on := h.Kind == engine.ActBlock && key == [2]int{int(h.Row), int(h.Field)}; f.fs.Hinted != on {
			pa.p.Fatalf("the hint %+v: field %v marked %v", h, key, f.fs.Hinted)
		}
	}
	if b := s.Find(reach.Button(tr("again.hint.button", "Hint"))); len(b) != 1 || b[0].Enabled {
		pa.p.Fatalf("the Hint button is not disabled once the hint shows: %+v", b)
	}
	return h
}

// TestPersonHintAndPlayAgain: a person asks for a hint at each kind of
// question of a short game of Njet! (a block, then the first card) and
// sees the strong bot's move lit, without it being played; at the end the
// person taps "Play again" and plays the first moves of a new game with
// the same edition, seats, names and bots and a fresh deal. On a desktop
// and a phone.
func TestPersonHintAndPlayAgain(t *testing.T) {
	for _, sz := range []struct {
		name string
		size fyne.Size
	}{{"desktop", fyne.NewSize(1024, 720)}, {"phone", fyne.NewSize(360, 740)}} {
		t.Run(sz.name, func(t *testing.T) {
			pa := newPersonApp(t, "en", sz.size)
			g := njetGame{edition: engine.Modern, players: 3, target: 1, seed: 25}
			ts := pa.start(g)
			l := pa.u.saves[njetID].live.(*seat.Local)
			// Block so that the person becomes the start player, to be
			// asked for the teams too.
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(25, 3)), Avoid: func(c reach.Control) bool {
				m := ts.model
				return c.Kind == "field" && c.Text == "start/"+m.view.Characters[m.you].String()
			}}
			hinted := map[engine.Kind]bool{}
			again := reach.Button(tr("again.play", "Play again"))
			for {
				pa.p.Settle()
				if len(pa.p.Look().Reachable(again)) > 0 {
					break
				}
				if p := ts.model.prompt; p != nil && !ts.sent && !hinted[p.Kind] && true {
					hinted[p.Kind] = true
					pa.hintOnScreen(ts)
					screenshot(t, "table-hint-"+p.Kind.String()+"-"+sz.name, pa.u.Window())
				}
				if !pa.p.Step(player) {
					t.Fatal("the person left before the game-over view")
				}
			}
			if !hinted[engine.ActBlock] || !hinted[engine.ActPlay] || !hinted[engine.ActTeam] {
				t.Fatalf("hints asked at %v", hinted)
			}
			checkReach(t, pa.p)
			screenshot(t, "table-again-"+sz.name, pa.u.Window())
			old := l.Config()
			pa.p.Tap("Play again", again)
			pa.p.Settle()
			ts2 := pa.table()
			if ts2 == ts {
				t.Fatal("Play again kept the old table")
			}
			l2 := pa.u.saves[njetID].live.(*seat.Local)
			cfg := l2.Config()
			if cfg.Seed == old.Seed {
				t.Fatal("the new game has the old seed")
			}
			cfg.Seed = old.Seed
			if !slices.Equal(cfg.Names, old.Names) || !slices.Equal(cfg.Bots, old.Bots) || cfg.Edition != old.Edition ||
				cfg.Players != old.Players || cfg.Target != old.Target || cfg.Short != old.Short || cfg.You != old.You {
				t.Fatalf("played again as %+v, was %+v", l2.Config(), old)
			}
			if !slices.Equal(ts2.opt.Names, ts.opt.Names) {
				t.Fatalf("names %q, were %q", ts2.opt.Names, ts.opt.Names)
			}
			fresh := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(22, 3))}
			for range 4 {
				pa.p.Settle()
				if !pa.p.Step(fresh) {
					t.Fatal("the new game ended at once")
				}
			}
			if fresh.Taps < 4 || l2.Over() {
				t.Fatalf("%d taps in the new game", fresh.Taps)
			}
			// The saves of the new game are written before the test's
			// directory goes.
			pa.p.Settle()
			pa.u.saving.Wait()
		})
	}
}
