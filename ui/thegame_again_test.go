package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui/reach"
)

// pileControl matches pile i as drawn: it shows its number first
// ("2 up 37").
func pileControl(i int) func(reach.Control) bool {
	name := fmt.Sprintf("%d ", i+1)
	return func(c reach.Control) bool { return c.Kind == "pile" && strings.HasPrefix(c.Text, name) }
}

// hintStep taps Hint on the person's turn of The Game, checks that the
// hint shown is the strong bot's move from the person's view and is not
// played, then plays it as the hint says: the ringed pile, or End turn.
// shown, when not nil, sees the hint on the screen before it is played.
func (pa *personApp) hintStep(scr *TheGameScreen, shown func()) thegame.Action {
	pa.t.Helper()
	v := scr.view
	pa.p.Tap("the Hint button", reach.Button(tr("again.hint.button", "Hint")))
	want, err := seat.TheGameHint(v)
	if err != nil {
		pa.p.Fatalf("no hint on the person's turn: %v", err)
	}
	if scr.src.View().Turns != v.Turns || len(scr.src.View().Hand) != len(v.Hand) {
		pa.p.Fatalf("the hint played the move")
	}
	if !wordsDrawn(pa.p.Look().Read(""), scr.status) || !strings.HasPrefix(scr.status, "Hint: ") {
		pa.p.Fatalf("the hint %q is not on the screen", scr.status)
	}
	if shown != nil {
		shown()
	}
	switch want.Kind {
	case thegame.ActPlay:
		if scr.picked != want.Card || scr.hinted == nil || *scr.hinted != want {
			pa.p.Fatalf("the hint picks %d (%+v), the strong bot plays %+v", scr.picked, scr.hinted, want)
		}
		for i, p := range scr.piles {
			if p.target != (i == want.Pile) {
				pa.p.Fatalf("the hint %+v rings pile %d: %v", want, i+1, p.target)
			}
		}
		pa.p.Tap("the pile of the hint", pileControl(want.Pile))
		if scr.warning != nil {
			pa.p.TapText(tgw("thegame.warn.yes"))
		}
	case thegame.ActEnd:
		pa.p.Tap("End turn", reach.Button(tgw("thegame.end-turn")))
	}
	return want
}

// TestPersonTheGameHintAndPlayAgain: a person plays a whole solo game of
// The Game Extreme by tapping Hint and doing what it shows, then taps
// "Play again" and plays the first moves of a new game with the same
// seats and variant and a fresh deck. On a desktop and a phone.
func TestPersonTheGameHintAndPlayAgain(t *testing.T) {
	for _, sz := range []struct {
		name string
		size fyne.Size
	}{{"desktop", fyne.NewSize(1024, 720)}, {"phone", fyne.NewSize(360, 740)}} {
		t.Run(sz.name, func(t *testing.T) {
			pa := newPersonApp(t, "en", sz.size)
			cfg := seat.TheGameLocalConfig{Players: 2, Extreme: true, Bot: "coop", Seed: 5}
			if err := pa.u.startTheGame(cfg); err != nil {
				t.Fatal(err)
			}
			scr := pa.u.Top().(*TheGameScreen)
			ready := func() bool { return scr.over || scr.myTurn() && len(pa.queue) == 0 }
			shot := false
			for range 1000 {
				pa.waitFor("the person's turn", ready)
				if scr.over {
					break
				}
				pa.hintStep(scr, func() {
					if !shot && scr.hinted != nil {
						shot = true
						screenshot(t, "thegame-hint-"+sz.name, pa.u.Window())
					}
				})
			}
			if !scr.over {
				t.Fatal("the game did not end")
			}
			again := reach.Button(tr("again.play", "Play again"))
			pa.p.Settle()
			checkReach(t, pa.p)
			screenshot(t, "thegame-again-"+sz.name, pa.u.Window())
			pa.p.Tap("Play again", again)
			next, ok := pa.u.Top().(*TheGameScreen)
			if !ok || next == scr {
				t.Fatal("Play again shows no new table")
			}
			l := next.src.(*seat.TheGameLocal)
			got := l.Config()
			if got.Seed == cfg.Seed {
				t.Fatal("the new game has the old seed")
			}
			if got.Seed = cfg.Seed; got != cfg {
				t.Fatalf("played again as %+v, was %+v", l.Config(), cfg)
			}
			for range 3 {
				pa.waitFor("the person's turn", func() bool { return next.over || next.myTurn() && len(pa.queue) == 0 })
				pa.hintStep(next, nil)
			}
			if len(next.plays) == 0 {
				t.Fatal("no card laid in the new game")
			}
			pa.u.saving.Wait() // the new game's saves are written
		})
	}
}
