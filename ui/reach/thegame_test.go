package reach_test

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/ui/reach"
)

var tgWords = reach.TheGameWords{End: "End turn", Done: "Done", Yes: "Lay it anyway", No: "Take it back"}

// tgTable is a screen of The Game's table: the piles as texts say them,
// then the other controls.
func tgTable(piles []string, cs ...reach.Control) *reach.Screen {
	s := &reach.Screen{Name: "TheGameScreen", Size: fyne.NewSize(800, 600)}
	for i, p := range piles {
		s.Controls = append(s.Controls, reach.Control{Kind: "pile", Text: p, Region: reach.RegionPiles, Enabled: true,
			Rect: reach.Rect{X: float32(i) * 160, Y: 100, W: 150, H: 150}})
	}
	s.Controls = append(s.Controls, cs...)
	return s
}

// tgCard is a card of the hand showing marks.
func tgCard(n string, marks ...string) reach.Control {
	return reach.Control{Kind: "card", Text: n, Region: reach.RegionHand, Enabled: true, Marks: marks,
		Rect: reach.Rect{X: 10, Y: 400, W: 60, H: 64}}
}

func tgButton(text string, enabled bool) reach.Control {
	return reach.Control{Kind: "button", Text: text, Enabled: enabled, Rect: reach.Rect{Y: 520, W: 200, H: 46}}
}

// target marks pile control c as one the picked card fits.
func target(s *reach.Screen, pile string) *reach.Screen {
	for i, c := range s.Controls {
		if c.Text == pile {
			s.Controls[i].Marks = []string{reach.MarkTarget}
		}
	}
	return s
}

// TestTheGamePolicy: the player lays the card the table marks as fitting
// that fits a pile most closely, the backwards trick first (G-B4), on the
// marked pile it fits most closely; it ends the turn once End turn answers
// and no card fits closely; to a warning it says no while another card
// fits and yes when none does; it is stuck, naming why, when a card that
// fits cannot be tapped.
func TestTheGamePolicy(t *testing.T) {
	start := []string{"1 up 30", "2 up 1", "3 down 100", "4 down 60"}
	fits := reach.MarkFits
	covered := tgCard("31", fits)
	covered.Problems = []string{reach.Covered + ": by button \"End turn\""}
	cases := []struct {
		name   string
		screen *reach.Screen
		tap    string // "" for a wait
		stuck  string
	}{
		{"waits out of turn", tgTable(start, tgCard("31"), tgButton("End turn", false)), "", ""},
		{"the closest card", tgTable(start, tgCard("45", fits), tgCard("32", fits), tgCard("90", fits), tgButton("End turn", false)), "32", ""},
		{"the trick first", tgTable(start, tgCard("31", fits), tgCard("20", fits), tgButton("End turn", false)), "20", ""},
		{"the closest pile", target(target(tgTable(start, tgCard("40", reach.MarkPicked)), "1 up 30"), "3 down 100"), "1 up 30", ""},
		{"ends when nothing fits closely", tgTable(start, tgCard("45", fits), tgButton("End turn", true)), "End turn", ""},
		{"plays on when a card fits closely", tgTable(start, tgCard("31", fits), tgButton("End turn", true)), "31", ""},
		{"the game-over view", tgTable(nil, tgButton("Done", true)), "Done", ""},
		{"stuck on a covered card", tgTable(start, covered, tgButton("End turn", false)), "", "covered"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &reach.TheGame{Words: tgWords}
			step, err := p.Next(c.screen)
			if c.stuck != "" {
				if !errors.Is(err, reach.ErrStuck) || !strings.Contains(err.Error(), c.stuck) {
					t.Fatalf("error %v, want one that says %q", err, c.stuck)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.tap == "" && step.Kind != reach.Wait || c.tap != "" && (step.Kind != reach.Tap || step.Tap.Text != c.tap) {
				t.Fatalf("step %+v, want a tap on %q", step, c.tap)
			}
		})
	}
}

// TestTheGamePolicyWarning: at a warning the player takes the card back
// while another card fits, then lays that one; when the warning comes
// for the last card that fits, it lays it anyway.
func TestTheGamePolicyWarning(t *testing.T) {
	start := []string{"1 up 30", "2 up 1", "3 down 100", "4 down 60"}
	fits := reach.MarkFits
	warning := func() *reach.Screen {
		s := tgTable(start, tgCard("31", reach.MarkPicked), tgCard("45", fits))
		s.Layers = 1
		for _, w := range []string{"Lay it anyway", "Take it back"} {
			b := tgButton(w, true)
			b.Layer = 1
			s.Controls = append(s.Controls, b)
		}
		return s
	}
	p := &reach.TheGame{Words: tgWords}
	steps := []struct {
		screen *reach.Screen
		tap    string
	}{
		{tgTable(start, tgCard("31", fits), tgCard("45", fits), tgButton("End turn", false)), "31"},
		{warning(), "Take it back"},
		{tgTable(start, tgCard("31", fits), tgCard("45", fits), tgButton("End turn", false)), "45"},
		{warning(), "Lay it anyway"},
	}
	for i, st := range steps {
		step, err := p.Next(st.screen)
		if err != nil || step.Kind != reach.Tap || step.Tap.Text != st.tap {
			t.Fatalf("step %d: %+v, %v; want a tap on %q", i, step, err, st.tap)
		}
	}
}
