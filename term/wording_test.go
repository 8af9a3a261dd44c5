package term_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/term"
)

// TestNoInternalNamesOnScreen scans everything the terminal prints over
// whole seeded games, both editions and several player counts, for rule
// ids and code names.
func TestNoInternalNamesOnScreen(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}} {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("%s%d/seed%d", tc.e, tc.n, seed), func(t *testing.T) {
				out := playFirst(t, term.Config{Edition: tc.e, Players: tc.n, Seed: seed, Echo: true})
				if !strings.Contains(out, "Game over") {
					t.Fatalf("the game did not end:\n%s", tail(out))
				}
				for _, bad := range []string{"R-", "discard1", "discard2", "pass-left", "-no-ones", "super njet", "bonus 0"} {
					if i := strings.Index(out, bad); i >= 0 {
						t.Errorf("%q on screen: ...%s...", bad, out[max(0, i-200):min(len(out), i+100)])
					}
				}
			})
		}
	}
}

// screen80x24 answers like chooser and, at each pause after a round,
// keeps the last 24 lines of the output: what an 80x24 terminal shows.
type screen80x24 struct {
	chooser
	atPause []string
}

func (w *screen80x24) Write(p []byte) (int, error) {
	s := w.chooser.buf.String() + string(p)
	if strings.HasSuffix(s, "> ") && strings.Contains(s[w.from:], "Press Enter for round") {
		lines := strings.Split(s, "\n")
		w.atPause = append(w.atPause, strings.Join(lines[max(0, len(lines)-24):], "\n"))
	}
	return w.chooser.Write(p)
}

// TestRoundResultOnScreenAt80x24: at the pause after a round, the round's
// result and the totals are within the last 24 lines of an 80-column
// screen, and no line is wider than 80.
func TestRoundResultOnScreenAt80x24(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 4}, {engine.Modern, 5}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			pr, pw := io.Pipe()
			w := &screen80x24{chooser: chooser{answers: pw, left: 3000}}
			if err := term.Play(term.Config{Edition: tc.e, Players: tc.n, Seed: 3, Width: 80}, pr, w); err != nil {
				t.Fatal(err)
			}
			if len(w.atPause) == 0 {
				t.Fatalf("no pause after a round:\n%s", tail(w.buf.String()))
			}
			for k, screen := range w.atPause {
				for _, want := range []string{fmt.Sprintf("Round %d over:", k+1), "round  total", "Press Enter for round"} {
					if !strings.Contains(screen, want) {
						t.Errorf("pause %d: no %q on the 80x24 screen:\n%s", k+1, want, screen)
					}
				}
			}
			for _, line := range strings.Split(w.buf.String(), "\n") {
				if len([]rune(line)) > 80 {
					t.Errorf("a line of %d columns: %q", len([]rune(line)), line)
				}
			}
		})
	}
}
