package term_test

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/term"
)

// boardField is one field as the board shows it: its number while it may
// be blocked (0 otherwise) and its mark.
type boardField struct {
	number int
	mark   string // "n": a number, "x": blocked, "=": the row's last free field
}

var numbered = regexp.MustCompile(`^(\d+)\) (.+)$`)

// lastBoard parses the last Njet board in out (printed wide enough not to
// wrap): each field by "Row/label".
func lastBoard(out string) map[string]boardField {
	at := strings.LastIndex(out, "Njet board")
	if at < 0 {
		return nil
	}
	board := map[string]boardField{}
	for _, line := range strings.Split(out[at:], "\n")[1:] {
		if !strings.HasPrefix(line, "  ") || len(line) < 16 {
			break
		}
		row := strings.TrimSpace(line[2:16])
		for _, f := range strings.Split(line[16:], "  ") {
			switch m := numbered.FindStringSubmatch(f); {
			case m != nil:
				n, _ := strconv.Atoi(m[1])
				board[row+"/"+m[2]] = boardField{number: n, mark: "n"}
			case strings.HasPrefix(f, "x "), strings.HasPrefix(f, "= "):
				board[row+"/"+f[2:]] = boardField{mark: f[:1]}
			}
		}
	}
	return board
}

// njetPlayer answers the Njet phase: at its first turn it notes each
// field's number and blocks the last open field; at its second it checks
// that every field kept its number, and types the numbers of a field
// blocked since and of a row's last free field, which must be refused;
// then it leaves.
type njetPlayer struct {
	buf     bytes.Buffer
	answers *io.PipeWriter
	first   map[string]boardField
	typed   []string // numbers typed at the second turn, with the field each names
	errs    []string
	step    int
}

func (p *njetPlayer) Write(b []byte) (int, error) {
	p.buf.Write(b)
	if !bytes.HasSuffix(b, []byte("> ")) {
		return len(b), nil
	}
	answer := "quit"
	board := lastBoard(p.buf.String())
	switch {
	case p.step == 0:
		p.first = board
		best, last := "", 0
		for key, f := range board {
			if f.number > last {
				best, last = key, f.number
			}
		}
		p.typed = append(p.typed, best)
		answer = strconv.Itoa(last)
	case p.step == 1:
		var blocked, decided string
		for key, f := range board {
			before, ok := p.first[key]
			switch {
			case !ok:
				p.errs = append(p.errs, fmt.Sprintf("%s is on the second board only", key))
			case f.mark == "n" && f.number != before.number:
				p.errs = append(p.errs, fmt.Sprintf("%s was %d, is %d", key, before.number, f.number))
			case f.mark == "x" && before.mark == "n" && blocked == "":
				blocked = key
			case f.mark == "=" && before.mark == "n" && decided == "":
				decided = key
			}
		}
		var lines []string
		for _, key := range []string{blocked, decided} {
			if key != "" {
				p.typed = append(p.typed, key)
				lines = append(lines, strconv.Itoa(p.first[key].number))
			}
		}
		answer = strings.Join(append(lines, "quit"), "\n")
	}
	p.step++
	go fmt.Fprintf(p.answers, "%s\n", answer)
	return len(b), nil
}

// TestNjetFieldNumbersStayR_NJET_1: during the Njet phase each field keeps
// its number while others are blocked; the number of a blocked field, and
// of the last free field of a row (R-NJET-1), is refused with the reason.
func TestNjetFieldNumbersStayR_NJET_1(t *testing.T) {
	decidedSeen := false
	for _, tc := range []struct {
		e    engine.Edition
		n    int
		seed uint64
	}{{engine.Classic, 4, 7}, {engine.Classic, 3, 1}, {engine.Modern, 3, 2}, {engine.Modern, 5, 4}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			pr, pw := io.Pipe()
			p := &njetPlayer{answers: pw}
			if err := term.Play(term.Config{Edition: tc.e, Players: tc.n, Seed: tc.seed, Width: 200}, pr, p); err != nil {
				t.Fatal(err)
			}
			out := p.buf.String()
			for _, e := range p.errs {
				t.Error(e)
			}
			if p.step < 2 || len(p.typed) < 2 {
				t.Fatalf("the second board never came, or nothing on it was blocked since the first:\n%s", out)
			}
			rowField := func(key string) string {
				row, field, _ := strings.Cut(key, "/")
				if i := strings.Index(field, " ("); row == "Start player" && i > 0 {
					field = field[:i] // the holder is not part of the reason
				}
				return row + ": " + field
			}
			if want := "You block " + rowField(p.typed[0]) + "."; !strings.Contains(out, want) {
				t.Errorf("no %q:\n%s", want, out)
			}
			want := fmt.Sprintf("%d is not a choice now: %s is already blocked.", p.first[p.typed[1]].number, rowField(p.typed[1]))
			if !strings.Contains(out, want) {
				t.Errorf("no %q:\n%s", want, out)
			}
			if len(p.typed) > 2 {
				decidedSeen = true
				want := fmt.Sprintf("%d is not a choice now: %s is the last free field of its row, so it cannot be blocked.",
					p.first[p.typed[2]].number, rowField(p.typed[2]))
				if !strings.Contains(out, want) {
					t.Errorf("no %q:\n%s", want, out)
				}
			}
		})
	}
	if !decidedSeen {
		t.Error("no game offered a decided row's number to type")
	}
}
