package term_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/term"
)

// chooser answers every prompt with the first number offered since the
// last answer ("1" when none is offered: a pause, a prompt asked again), as
// a person who always takes the first choice would.
type chooser struct {
	buf     bytes.Buffer
	answers *io.PipeWriter
	from    int
	left    int
}

var offered = regexp.MustCompile(`(?m)(?:^\s*|  )(\d+)\) `)

func (w *chooser) Write(p []byte) (int, error) {
	w.buf.Write(p)
	s := w.buf.String()
	if !strings.HasSuffix(s, "> ") {
		return len(p), nil
	}
	answer := "1"
	if m := offered.FindStringSubmatch(s[w.from:]); m != nil {
		answer = m[1]
	}
	w.from = len(s)
	w.left--
	if w.left < 0 {
		go w.answers.Close()
		return len(p), nil
	}
	go fmt.Fprintf(w.answers, "%s\n", answer)
	return len(p), nil
}

// playFirst plays a game taking the first choice at every prompt.
func playFirst(t *testing.T, cfg term.Config) string {
	t.Helper()
	pr, pw := io.Pipe()
	w := &chooser{answers: pw, left: 3000}
	if err := term.Play(cfg, pr, w); err != nil {
		t.Fatalf("Play: %v\n%s", err, tail(w.buf.String()))
	}
	return w.buf.String()
}

func play(t *testing.T, cfg term.Config, input string) string {
	t.Helper()
	var out bytes.Buffer
	if err := term.Play(cfg, strings.NewReader(input), &out); err != nil {
		t.Fatalf("Play: %v\n%s", err, tail(out.String()))
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// TestWholeGameAnsweringOne plays whole games answering "1" to everything.
func TestWholeGameAnsweringOne(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 4}, {engine.Classic, 3}, {engine.Modern, 2}, {engine.Modern, 5}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			out := playFirst(t, term.Config{Edition: tc.e, Players: tc.n, Seed: 5})
			for _, want := range []string{"=== Round 1", "Your hand", "Your choices:", "Ada plays", "takes trick", "round  total", "=== Game over"} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the transcript:\n%s", want, tail(out))
				}
			}
			if !regexp.MustCompile(`(?m)^(You win|(Ada|Boris|Clara|Dmitri) wins|Shared win) with -?\d+ points`).MatchString(out) {
				t.Errorf("no winner line:\n%s", tail(out))
			}
			if strings.Contains(out, "Input ended") {
				t.Errorf("the game ran out of input:\n%s", tail(out))
			}
		})
	}
}

func TestSameSeedSameGame(t *testing.T) {
	cfg := term.Config{Edition: engine.Modern, Players: 4, Seed: 9, Bot: "random"}
	a := playFirst(t, cfg)
	b := playFirst(t, cfg)
	if a != b {
		t.Fatal("one seed, two different games")
	}
}

// TestBadInputReprompts gives answers that are not choices, each of which
// must be refused with a reason and asked again without losing the game.
func TestBadInputReprompts(t *testing.T) {
	cfg := term.Config{Edition: engine.Classic, Players: 4, Seed: 5, Echo: true}
	bad := []struct{ input, reason string }{
		{"banana", `"banana" is not a choice now: type a number from the list`},
		{"0", "0 is not a choice: pick a number from 1 to"},
		{"999", "999 is not a choice"},
		{"", "Please choose"},
		{"block trump purple", `the Trump row has no field "purple"`},
		{"block middle red", `there is no row "middle"`},
		{"red7", "this is not the time to play a card"},
		{"partner 2", "only the start player chooses the teams, after the Njet phase"},
		{strings.Repeat("x", 10000), "is not a choice now"},
	}
	var input strings.Builder
	for _, b := range bad {
		input.WriteString(b.input + "\n")
	}
	input.WriteString(strings.Repeat("1\n", 3000))
	out := play(t, cfg, input.String())
	flat := strings.Join(strings.Fields(out), " ")
	for _, b := range bad {
		if !strings.Contains(flat, b.reason) {
			t.Errorf("input %.20q: no %q in the transcript", b.input, b.reason)
		}
	}
	first := strings.Index(out, "Njet board")
	if n := strings.Count(out[first:strings.Index(out, "You block")], "\n> "); n != len(bad)+1 {
		t.Errorf("%d prompts for the first decision, want %d", n, len(bad)+1)
	}
	if !strings.Contains(out, "You block Start player: Bear.") {
		t.Errorf("the game did not go on after bad input:\n%s", tail(out))
	}
}

func TestHelpListsChoicesAgain(t *testing.T) {
	out := play(t, term.Config{Edition: engine.Classic, Players: 4, Seed: 5}, "help\nquit\n")
	if n := strings.Count(out, "Njet board"); n != 2 {
		t.Fatalf("%d lists of choices, want 2:\n%s", n, out)
	}
	if !strings.Contains(out, "You leave the game in round 1.") {
		t.Fatalf("quit not confirmed:\n%s", out)
	}
}

func TestEOFEndsCleanly(t *testing.T) {
	for _, input := range []string{"", "1\n1\n", "1\n2"} {
		out := play(t, term.Config{Edition: engine.Modern, Players: 3, Seed: 5}, input)
		if !strings.HasSuffix(out, "Input ended: leaving the game in round 1.\n") {
			t.Errorf("input %q: the transcript ends:\n%s", input, tail(out))
		}
	}
}

func TestBadConfig(t *testing.T) {
	err := term.Play(term.Config{Edition: engine.Classic, Players: 5}, strings.NewReader(""), io.Discard)
	if !errors.Is(err, seat.ErrBadConfig) {
		t.Fatalf("got %v, want seat.ErrBadConfig", err)
	}
	err = term.Play(term.Config{Edition: engine.Classic, Players: 4, Bot: "genius"}, strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "genius") {
		t.Fatalf("got %v, want an error naming the bot kind", err)
	}
}

type failingWriter struct{ left int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.left <= 0 {
		return 0, errors.New("disk full")
	}
	w.left--
	return len(p), nil
}

func TestWriteErrorStops(t *testing.T) {
	err := term.Play(term.Config{Edition: engine.Classic, Players: 4}, strings.NewReader(strings.Repeat("1\n", 3000)), &failingWriter{left: 50})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v, want the write error", err)
	}
}

// typist answers every prompt by typing the label of the last choice shown,
// as a person would type "block points 4" or "red7" instead of a number.
type typist struct {
	buf     bytes.Buffer
	answers *io.PipeWriter
	typed   int
}

var choiceLine = regexp.MustCompile(`(?:^\s*|  )\d+\) (\S+(?: \S+)*?)(?:\s{2,}|$)`)

func (w *typist) Write(p []byte) (int, error) {
	w.buf.Write(p)
	s := w.buf.String()
	if !strings.HasSuffix(s, "> ") {
		return len(p), nil
	}
	list := s[max(strings.LastIndex(s, "Your choices:"), strings.LastIndex(s, "Njet board"), 0):]
	var last string
	for _, line := range strings.Split(list, "\n") {
		for _, m := range choiceLine.FindAllStringSubmatch(line, -1) {
			last = m[1]
		}
	}
	w.typed++
	go fmt.Fprintf(w.answers, "%s\n", last)
	return len(p), nil
}

// TestTypedAnswers plays a whole game typing choices instead of numbers.
func TestTypedAnswers(t *testing.T) {
	pr, pw := io.Pipe()
	w := &typist{answers: pw}
	err := term.Play(term.Config{Edition: engine.Modern, Players: 4, Seed: 2, Echo: true}, pr, w)
	if err != nil {
		t.Fatal(err)
	}
	out := w.buf.String()
	if strings.Contains(out, "is not a choice") || !strings.Contains(out, "=== Game over") {
		t.Fatalf("typed answers were refused or the game did not end:\n%s", tail(out))
	}
	if w.typed < 100 {
		t.Fatalf("only %d answers typed", w.typed)
	}
}
