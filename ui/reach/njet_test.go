package reach_test

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/ui/reach"
)

// table is a screen of the Njet table with the prompt ask and controls.
func table(ask string, cs ...reach.Control) *reach.Screen {
	s := &reach.Screen{Name: "TableScreen", Size: fyne.NewSize(800, 600), Controls: cs}
	if ask != "" {
		s.Texts = []reach.Text{{Text: ask, Region: reach.RegionPrompt, Rect: reach.Rect{X: 10, Y: 10, W: 200, H: 20}}}
	}
	return s
}

func card(name string, problems ...string) reach.Control {
	return reach.Control{Kind: "card", Text: name, Region: reach.RegionHand, Enabled: true, Problems: problems,
		Rect: reach.Rect{X: 10, Y: 500, W: 60, H: 85}}
}

// TestNjetPolicy: the player answers what the screen asks with what is
// reachable, in order of what a person sees first, and is stuck, naming
// why, when the question has no reachable answer (the hidden hand of
// round 2).
func TestNjetPolicy(t *testing.T) {
	words := reach.NjetWords{Next: "Next", Done: "Done", Confirm: []string{"Discard these cards"}}
	next := reach.Control{Kind: "button", Text: "Next", Region: reach.RegionSummary, Enabled: true, Rect: reach.Rect{W: 200, H: 48}}
	confirm := reach.Control{Kind: "button", Text: "Discard these cards", Region: "bar", Enabled: true, Rect: reach.Rect{W: 200, H: 48}}
	dimmed := card("red7")
	dimmed.Enabled = false
	cases := []struct {
		name   string
		screen *reach.Screen
		kind   reach.StepKind
		tap    string
		stuck  string
	}{
		{"waits while others play", table("", dimmed), reach.Wait, "", ""},
		{"plays a card", table("Your turn: play a card.", card("red7")), reach.Tap, "red7", ""},
		{"reads the summary", table("", next, card("red7")), reach.Tap, "Next", ""},
		{"confirms the picks", table("Your turn: discard 2 cards.", confirm), reach.Tap, "Discard these cards", ""},
		{"stuck on a hidden hand", table("Your turn: discard 2 cards.", card("red7", reach.Hidden)), 0, "", "hidden"},
		{"stuck on an empty hand", table("Your turn: block one free field."), 0, "", "no enabled control"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &reach.Njet{Words: words}
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
			if step.Kind != c.kind || step.Tap.Text != c.tap {
				t.Fatalf("step %+v, want kind %d tapping %q", step, c.kind, c.tap)
			}
		})
	}
}
