package term_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/term"
)

// responder answers each prompt the game writes (a line ending in one of
// the prompts' endings) with what answer says for the output so far.
type responder struct {
	buf     bytes.Buffer
	from    int
	ends    []string
	answer  func(out, since string) string
	answers *io.PipeWriter
	left    int
}

func (r *responder) Write(p []byte) (int, error) {
	r.buf.Write(p)
	s := r.buf.String()
	for _, end := range r.ends {
		if strings.HasSuffix(s, end) {
			since := s[r.from:]
			r.from = len(s)
			r.left--
			if r.left < 0 {
				go r.answers.Close()
				break
			}
			go fmt.Fprintf(r.answers, "%s\n", r.answer(s, since))
			break
		}
	}
	return len(p), nil
}

var choiceOne = regexp.MustCompile(`(?m)(?:^\s*|  )(\d+)\) `)

// TestPlayAgainAndHint: at the first question the person types "hint"
// and reads the strong bot's move, then answers; after the game the
// person says yes to "Play again", plays a second game with the same
// seats from a fresh seed, and says no after it.
func TestPlayAgainAndHint(t *testing.T) {
	pr, pw := io.Pipe()
	hinted, agains := false, 0
	r := &responder{ends: []string{"> "}, answers: pw, left: 3000}
	r.answer = func(out, since string) string {
		switch {
		case strings.Contains(since, "Play again with the same seats"):
			agains++
			if agains == 1 {
				return "yes"
			}
			return "no"
		case !hinted && choiceOne.MatchString(since):
			hinted = true
			return "hint"
		}
		if m := choiceOne.FindStringSubmatch(since); m != nil {
			return m[1]
		}
		return "1"
	}
	if err := term.Play(term.Config{Edition: engine.Modern, Players: 3, Seed: 8, Target: 1, Width: -1}, pr, r); err != nil {
		t.Fatalf("Play: %v\n%s", err, tail(r.buf.String()))
	}
	out := r.buf.String()
	if !regexp.MustCompile(`Hint: You (block|play|discard|pass|form) `).MatchString(out) {
		t.Fatalf("no hint shown:\n%s", tail(out))
	}
	if n := strings.Count(out, "=== Game over"); n != 2 || agains != 2 {
		t.Fatalf("%d games played, asked %d times to play again:\n%s", n, agains, tail(out))
	}
	if !strings.Contains(out, "A new game with the same seats") {
		t.Fatalf("the new game is not told:\n%s", tail(out))
	}
	first, second, _ := strings.Cut(out, "A new game with the same seats")
	deal := regexp.MustCompile(`Your hand[^\n]*\n[^\n]*`)
	if a, b := deal.FindString(first), deal.FindString(second); a == "" || a == b {
		t.Fatalf("the second game deals the same hand:\n%s\n%s", a, b)
	}
}

// TestTheGamePlayAgainAndHint: a person plays a solo game of The Game by
// asking for a hint at every step and doing what it says, plays again,
// and the second game deals another hand.
func TestTheGamePlayAgainAndHint(t *testing.T) {
	pr, pw := io.Pipe()
	hintRE := regexp.MustCompile(`Hint: (lay (\d+) on pile (\d)|end your turn)\n`)
	hints, agains := 0, 0
	r := &responder{ends: []string{"> ", "): ", "(yes/no) "}, answers: pw, left: 5000}
	r.answer = func(out, since string) string {
		switch {
		case strings.Contains(since, "Play again with the same seats"):
			agains++
			if agains == 1 {
				return "yes"
			}
			return "no"
		case strings.HasSuffix(since, "(yes/no) "):
			return "yes"
		}
		// A turn's prompt: the hint first, then what it said.
		if m := hintRE.FindStringSubmatch(since); m != nil {
			if m[2] == "" {
				return "end"
			}
			return m[2] + " " + m[3]
		}
		hints++
		return "hint"
	}
	if err := term.PlayTheGame(term.TheGameConfig{Players: 1, Seed: 3}, pr, r); err != nil {
		t.Fatalf("PlayTheGame: %v\n%s", err, tail(r.buf.String()))
	}
	out := r.buf.String()
	if n := strings.Count(out, "The game is over."); n != 2 || agains != 2 {
		t.Fatalf("%d games played, asked %d times:\n%s", n, agains, tail(out))
	}
	if hints < 40 || strings.Contains(out, "Not possible") || strings.Contains(out, "Not yet") {
		t.Fatalf("%d hints; a hinted move was refused:\n%s", hints, tail(out))
	}
}

// TestLANHint: at a LAN table "hint" shows the strong bot's move only when
// the host allowed hints; otherwise it says so, and nothing is lost: the
// question stands and the game goes on to its end.
func TestLANHint(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		t.Run(fmt.Sprint("allowed=", allowed), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
			defer cancel()
			const you = 1
			lt := newLANTable(t)
			var (
				prompts answerPrompts
				mu      sync.Mutex
				typed   bool
			)
			out, err := seatAtLANHints(t, ctx, lt, you, allowed,
				func() error { return lt.play(-1, 0, 0, 2) },
				func(out string) []string {
					mu.Lock()
					defer mu.Unlock()
					if !typed && strings.Contains(out, "Your choices:") {
						typed = true
						return []string{"hint"}
					}
					if typed && !strings.Contains(out, "hint\n") {
						return nil
					}
					return prompts.next(out, false)
				})
			if err != nil {
				t.Fatalf("PlayLAN: %v\n%s", err, out)
			}
			lt.Stop()
			screen := out
			out = flat(out)
			off := strings.Contains(out, "The host did not allow hints at this table.")
			shown := regexp.MustCompile(`Hint: You (block|play|discard|pass|form) `).MatchString(out)
			if off == allowed || shown != allowed {
				t.Errorf("hints allowed %v: refused %v, shown %v:\n%s", allowed, off, shown, screen)
			}
			if !strings.Contains(out, "=== Game over after 1 round ===") {
				t.Errorf("the game did not end:\n%s", screen)
			}
		})
	}
}
