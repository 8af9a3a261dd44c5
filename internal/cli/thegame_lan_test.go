package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/internal/selfplay"
	ntable "github.com/njetlan/njet/table"
)

// TestVerifyTheGame: njet verify checks a log of The Game and prints its
// result; a changed byte fails it.
func TestVerifyTheGame(t *testing.T) {
	s := theGameSelfplay(t, selfplay.Config{Players: 2, Extreme: true, Seed: 5, Dir: t.TempDir()})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.njetlog")
	if _, err := s.Export(0, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"verify", path}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, w := range []string{"The Game (Extreme), 2 players", "cards left", "verified", "of The Game", "the game is over"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("no %q in:\n%s", w, stdout.String())
		}
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Run([]string{"verify", path}, &stdout, &stderr); code == ExitOK || !strings.Contains(stderr.String(), "njet verify") {
		t.Fatalf("a changed log: exit %d, %s", code, stderr.String())
	}
}

// TestHostTheGameFlags: njet host --game thegame refuses bad flags with a
// usage error before it opens anything.
func TestHostTheGameFlags(t *testing.T) {
	for _, args := range [][]string{
		{"host", "--game", "thegame"},
		{"host", "--game", "thegame", "--name", "G", "--players", "6"},
		{"host", "--game", "thegame", "--name", "G", "--bots", "3", "--players", "3"},
		{"host", "--game", "thegame", "--name", "G", "--bot", "heuristic"},
		{"host", "--game", "chess", "--name", "G"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Run(args, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%q: exit %d, want a usage error: %s", args, code, stderr.String())
		}
	}
}

// theGamePlayer types a person's answers at The Game in the terminal: at
// each prompt it first asks to "show" the table, then lays the card of
// its hand that moves a pile the least (a backwards trick first), or ends
// the turn once the minimum is down; it says "yes" to a warning. Its
// first answers are the script's.
type theGamePlayer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	answers *io.PipeWriter
	script  []string
	showed  bool
	typed   int
	wg      sync.WaitGroup
}

// maxTheGameAnswers bounds the answers a theGamePlayer types before it
// quits: a game of three takes well under a thousand.
const maxTheGameAnswers = 3000

var (
	tgPrompt = regexp.MustCompile(`Your turn \((\d+) laid, at least (\d+)\): $`)
	tgPile   = regexp.MustCompile(`(?m)^  (\d) (up  |down) top (\d+)`)
	tgHand   = regexp.MustCompile(`(?m)^Your hand: (.*?)   \(`)
)

func (p *theGamePlayer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	text := p.buf.String()
	var answer string
	switch m := tgPrompt.FindStringSubmatch(text); {
	case strings.HasSuffix(text, "(yes/no) "):
		answer = "yes"
	case m == nil:
		return len(b), nil
	case len(p.script) > 0:
		answer, p.script = p.script[0], p.script[1:]
	case !p.showed:
		answer, p.showed = "show", true
	default:
		p.showed = false
		answer = p.choose(text, m[1] >= m[2])
	}
	if p.typed++; p.typed > maxTheGameAnswers {
		answer = "quit"
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		fmt.Fprintf(p.answers, "%s\n", answer)
	}()
	return len(b), nil
}

// choose picks a move from the last table shown.
func (p *theGamePlayer) choose(text string, canEnd bool) string {
	piles := tgPile.FindAllStringSubmatch(text, -1)
	hands := tgHand.FindAllStringSubmatch(text, -1)
	if len(piles) < 4 || len(hands) == 0 {
		return "show"
	}
	piles = piles[len(piles)-4:]
	best, bestGap := "end", 1000
	for _, f := range strings.Fields(hands[len(hands)-1][1]) {
		c, err := strconv.Atoi(strings.TrimRight(f, "*"))
		if err != nil {
			continue
		}
		for _, pl := range piles {
			top, _ := strconv.Atoi(pl[3])
			gap := c - top
			if pl[2] == "down" {
				gap = top - c
			}
			switch {
			case gap == -10: // the backwards trick
				gap = -1
			case gap <= 0:
				continue
			}
			if gap >= bestGap || canEnd && gap > 0 {
				continue
			}
			best, bestGap = fmt.Sprintf("%d %s", c, pl[1]), gap
		}
	}
	return best
}

func (p *theGamePlayer) transcript() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

// TestJoinTheGameInTheTerminal: njet host --game thegame hosts a table of
// three with bots at two seats, and a person joins with njet join and
// plays the second seat in the terminal to the end, learning the game from
// the table. Lines that are no move are explained and asked again. Both devices export the same log, which
// njet verify accepts.
func TestJoinTheGameInTheTerminal(t *testing.T) {
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	hostOut, hostErr := newSyncBuffer(), newSyncBuffer()
	hostCode := make(chan int, 1)
	go func() {
		c := newCLI(strings.NewReader(""), hostOut, hostErr)
		hostCode <- c.run([]string{"host", "--game", "thegame", "--name", "G", "--players", "3", "--bots", "1",
			"--bot", "coop", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "10s", "--wait", "1m"})
	}()
	addr, err := hostOut.waitFor(ctx, regexp.MustCompile(`address (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)`))
	if err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	pr, pw := io.Pipe()
	// No card is 1, and a signal needs a pile from 1 to 4.
	p := &theGamePlayer{answers: pw, script: []string{"banana", "1 1", "clear 9"}}
	var stderr bytes.Buffer
	c := newCLI(pr, p, &stderr)
	code := c.run([]string{"join", "--addr", addr, "--player", "Bea", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
		"--linger", "10s", "--wait", "1m"})
	pw.Close()
	p.wg.Wait()
	out := p.transcript()
	if code != ExitOK || p.typed > maxTheGameAnswers {
		t.Fatalf("join: exit %d: %s\n%s", code, stderr.String(), out[max(0, len(out)-4000):])
	}
	for _, want := range []string{"You play seat 1 at a table of The Game", "Your hand:", "Your turn (0 laid, at least 2): ",
		`Type a card and a pile, e.g. "37 2"`, "There is no card 1", `Say which pile, 1 to 4`, "You lay ", "You end the turn.",
		" lays ", "The game is over. Cards left:", "The Game, 3 players", "the game is over"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	select {
	case code := <-hostCode:
		if code != ExitOK {
			t.Fatalf("host: exit %d: %s\n%s", code, hostErr, hostOut)
		}
	case <-ctx.Done():
		t.Fatalf("the host did not end: %s", hostOut)
	}
	logHash := regexp.MustCompile(`log hash (\w+), exported to (\S+)`)
	h := logHash.FindStringSubmatch(hostOut.String())
	j := logHash.FindStringSubmatch(out)
	if h == nil || j == nil || h[1] != j[1] {
		t.Fatalf("host and joiner logs differ:\n%s\n%s", hostOut, out)
	}
	var vout, verr bytes.Buffer
	if code := Run([]string{"verify", j[2]}, &vout, &verr); code != ExitOK || !strings.Contains(vout.String(), "of The Game") {
		t.Fatalf("verify: exit %d: %s%s", code, vout.String(), verr.String())
	}
}

// theGameSelfplay is a selfplay of The Game of coop bots set up by cfg.
func theGameSelfplay(t *testing.T, cfg selfplay.Config) *selfplay.Table {
	t.Helper()
	g, err := games.ByName(ntable.GameTheGame)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Game, cfg.Bot, cfg.NewPlayer = ntable.GameTheGame, "coop", g.NewPlayer
	s, err := selfplay.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
