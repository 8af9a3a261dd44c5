package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/sim"
)

func TestRunUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no command", nil, ExitUsage, "Commands:"},
		{"unknown command", []string{"dance"}, ExitUsage, `unknown command "dance"`},
		{"play bad edition", []string{"play", "--edition", "deluxe"}, ExitUsage, `bad --edition "deluxe"`},
		{"play classic 5", []string{"play", "--players", "5"}, ExitUsage, "the classic edition seats 3 to 4 players"},
		{"play modern 1", []string{"play", "--edition", "modern", "--players", "1"}, ExitUsage, "the modern edition seats 2 to 5 players"},
		{"play unknown bot", []string{"play", "--bot", "genius"}, ExitUsage, `bad --bot "genius"`},
		{"play unknown flag", []string{"play", "--colour", "red"}, ExitUsage, "flag provided but not defined"},
		{"play extra argument", []string{"play", "now"}, ExitUsage, `unexpected argument "now"`},
		{"sim bad edition", []string{"sim", "--edition", "deluxe"}, ExitUsage, `bad --edition "deluxe"`},
		{"sim modern 6", []string{"sim", "--edition", "modern", "--players", "6"}, ExitUsage, "seats 2 to 5"},
		{"sim unknown bot", []string{"sim", "--bots", "heuristic,genius"}, ExitUsage, `bad --bots entry "genius"`},
		{"sim no games", []string{"sim", "--games", "0"}, ExitUsage, "bad --games 0"},
		{"sim bad seed", []string{"sim", "--seed", "-1"}, ExitUsage, "invalid value"},
		{"sim short modern", []string{"sim", "--edition", "modern", "--short"}, ExitUsage, "the short game is a Classic variant"},
		{"play negative target", []string{"play", "--target", "-5"}, ExitUsage, "bad --target -5"},
		{"sim short and target", []string{"sim", "--short", "--target", "50"}, ExitUsage, "choose one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr.String())
			}
			if tc.code == ExitUsage && tc.args != nil && !strings.Contains(stderr.String(), "Usage: njet") {
				t.Errorf("no usage on stderr:\n%s", stderr.String())
			}
		})
	}
}

func TestSimRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	var stdout, stderr bytes.Buffer
	code := Run([]string{"sim", "--edition", "modern", "--players", "5", "--games", "3", "--seed", "4",
		"--bots", "random,heuristic", "--record", path}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	for _, want := range []string{"games 3, rounds 30", "random", "heuristic", "rounds/s"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout.String())
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sim.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 30 {
		t.Fatalf("%d records, want 30", len(recs))
	}
	if err := sim.CheckRecords(recs); err != nil {
		t.Fatal(err)
	}
}

func TestSimGameLength(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		rounds int // rounds per game, 0 when it depends on the scores
	}{
		{"classic short", []string{"--edition", "classic", "--players", "3", "--short"}, 3},
		{"classic full", []string{"--edition", "classic", "--players", "3"}, 6},
		{"modern target", []string{"--edition", "modern", "--players", "4", "--target", "60"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "games.jsonl")
			var stdout, stderr bytes.Buffer
			args := append([]string{"sim", "--games", "4", "--seed", "9", "--record", path}, tc.args...)
			if code := Run(args, &stdout, &stderr); code != ExitOK {
				t.Fatalf("exit code %d: %s", code, stderr.String())
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs, err := sim.ReadRecords(f)
			if err != nil {
				t.Fatal(err)
			}
			last := map[int]sim.Record{}
			for _, r := range recs {
				last[r.Game] = r
			}
			if len(last) != 4 {
				t.Fatalf("%d games recorded, want 4", len(last))
			}
			for g, r := range last {
				if tc.rounds > 0 && r.Round != tc.rounds {
					t.Errorf("game %d ended after round %d, want %d (R-END)", g, r.Round, tc.rounds)
				}
				if tc.rounds == 0 && slices.Max(r.Totals) < 60 {
					t.Errorf("game %d ended with totals %v, below the target 60", g, r.Totals)
				}
			}
		})
	}
}

func TestSimRecordUnwritable(t *testing.T) {
	var stdout, stderr bytes.Buffer
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "games.jsonl")
	if code := Run([]string{"sim", "--games", "1", "--record", path}, &stdout, &stderr); code != ExitFail {
		t.Fatalf("exit code %d, want %d", code, ExitFail)
	}
}

// TestSimSummaryUsesClock checks that the wall time comes from the clock the
// command line is given.
func TestSimSummaryUsesClock(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := newCLI(strings.NewReader(""), &stdout, &stderr)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	calls := 0
	c.now = func() time.Time { calls++; return base.Add(time.Duration(calls) * 2 * time.Second) }
	if code := c.run([]string{"sim", "--games", "2", "--seed", "3"}); code != ExitOK {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "wall time 2s, 8 rounds/s") {
		t.Fatalf("summary:\n%s", stdout.String())
	}
}

func TestPlayPrintsSeedAndEndsOnEOF(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := newCLI(strings.NewReader("1\n"), &stdout, &stderr)
	c.freshSeed = func() (uint64, error) { return 1234, nil }
	if code := c.run([]string{"play", "--edition", "modern", "--players", "3"}); code != ExitOK {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "Seed 1234 (replay this game with: njet play --edition modern --players 3 --bot heuristic --seed 1234)") {
		t.Errorf("no seed line:\n%s", out)
	}
	if !strings.Contains(out, "Input ended") {
		t.Errorf("no end-of-input message:\n%s", out)
	}
}

func TestPlayWholeGame(t *testing.T) {
	var stderr bytes.Buffer
	p, in := newPerson(nil, 3000)
	c := newCLI(in, p, &stderr)
	code := c.run([]string{"play", "--seed", "8", "--bot", "random"})
	p.close()
	if code != ExitOK {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	if out := p.transcript(); !strings.Contains(out, "=== Game over after 8 rounds ===") {
		t.Fatalf("no game over:\n%s", out)
	}
}

func TestSelfplayAndVerify(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Run([]string{"selfplay", "--edition", "modern", "--players", "3", "--rounds", "1", "--seed", "2", "--out", dir}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("selfplay exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "round 1 (dealer seat") || strings.Count(out, "log hash") != 3 {
		t.Fatalf("selfplay output:\n%s", out)
	}
	var hashes []string
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "log hash "); i >= 0 {
			hashes = append(hashes, strings.Fields(line[i+len("log hash "):])[0])
		}
	}
	if len(slices.Compact(slices.Clone(hashes))) != 1 {
		t.Errorf("peers disagree: %v", hashes)
	}
	path := filepath.Join(dir, "seat-1.njetlog")
	stdout.Reset()
	stderr.Reset()
	if code := Run([]string{"verify", path}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("verify exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 round verified") || !strings.Contains(stdout.String(), "verified\n") {
		t.Errorf("verify output:\n%s", stdout.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x80
	bad := filepath.Join(dir, "bad.njetlog")
	if err := os.WriteFile(bad, data, 0o600); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Run([]string{"verify", bad}, &stdout, &stderr); code != ExitFail || !strings.Contains(stderr.String(), "njet verify") {
		t.Errorf("verify of a changed log: exit %d, stderr %s", code, stderr.String())
	}
	for _, args := range [][]string{{"verify"}, {"selfplay", "--players", "3"}, {"selfplay", "--rounds", "-1", "--out", dir}} {
		if code := Run(args, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

func TestLANUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"host without name", []string{"host", "--bot", "random"}, "--name is required"},
		{"host bad bots", []string{"host", "--name", "x", "--bot", "random", "--bots", "4"}, "bad --bots 4"},
		{"host bad edition", []string{"host", "--name", "x", "--bot", "random", "--edition", "deluxe"}, `bad --edition "deluxe"`},
		{"host unknown bot", []string{"host", "--name", "x", "--bot", "genius"}, `bad --bot "genius"`},
		{"join two targets", []string{"join", "--bot", "random", "--addr", "1.2.3.4:5", "--code", "AAAA"}, "at most one of"},
		{"join bad addr", []string{"join", "--bot", "random", "--addr", "nowhere"}, "bad --addr"},
		{"join bad code", []string{"join", "--bot", "random", "--code", "!!"}, "bad --code"},
		{"tables bad wait", []string{"tables", "--wait", "0s"}, "bad --wait"},
		{"watch on the LAN", []string{"join", "--watch"}, "--watch needs --addr or --code"},
		{"the watch command on the LAN", []string{"watch"}, "--watch needs --addr or --code"},
		{"the watch command with a bot", []string{"watch", "--bot", "random", "--addr", "1.2.3.4:5"}, "--watch takes no seat"},
		{"watch with a bot", []string{"join", "--watch", "--bot", "random", "--addr", "1.2.3.4:5"}, "--watch takes no seat"},
		{"take without watch", []string{"join", "--take", "1", "--addr", "1.2.3.4:5"}, "--take needs --watch"},
		{"take a bad seat", []string{"join", "--watch", "--take", "-2", "--addr", "1.2.3.4:5"}, "bad --take -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(tc.args, &stdout, &stderr); code != ExitUsage {
				t.Errorf("exit code %d, want %d", code, ExitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr.String())
			}
		})
	}
}

func TestJoinUnreachableHost(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Run([]string{"join", "--bot", "random", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
		"--addr", "127.0.0.1:1", "--wait", "20s"}, &stdout, &stderr)
	if code != ExitFail {
		t.Errorf("exit code %d, want %d", code, ExitFail)
	}
	if !strings.Contains(stderr.String(), "cannot reach the host") {
		t.Errorf("stderr lacks the reason:\n%s", stderr.String())
	}
}

// syncBuffer is a command's output, read while the command runs; changed
// receives a value after each write.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{changed: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf.Write(p)
	b.mu.Unlock()
	select {
	case b.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits, bounded by ctx, until the output matches re and returns
// the first submatch.
func (b *syncBuffer) waitFor(ctx context.Context, re *regexp.Regexp) (string, error) {
	for {
		if m := re.FindStringSubmatch(b.String()); m != nil {
			return m[1], nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no %v in the output: %w", re, ctx.Err())
		case <-b.changed:
		}
	}
}

// person answers a seat's questions: at every "> " it types the next of
// its script, then the first number offered since its last answer ("1"
// when none is) once the script is used up, or ends its input after
// quitAfter answers (if positive).
type person struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	answers   *io.PipeWriter
	script    []string
	typed     int
	quitAfter int
	from      int // where the output since the last answer begins
	wg        sync.WaitGroup
}

// offered finds the number of a choice as the terminal shows it: "  3) ..."
// in a list, "3) ..." on the board.
var offered = regexp.MustCompile(`(?m)(?:^\s*|  )(\d+)\) `)

func newPerson(script []string, quitAfter int) (*person, *io.PipeReader) {
	pr, pw := io.Pipe()
	return &person{answers: pw, script: script, quitAfter: quitAfter}, pr
}

func (p *person) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	if !bytes.HasSuffix(b, []byte("> ")) {
		return len(b), nil
	}
	answer := "1"
	if m := offered.FindSubmatch(p.buf.Bytes()[p.from:]); m != nil {
		answer = string(m[1])
	}
	p.from = p.buf.Len()
	if p.typed < len(p.script) {
		answer = p.script[p.typed]
	}
	p.typed++
	if p.quitAfter > 0 && p.typed > p.quitAfter {
		answer = "quit"
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		fmt.Fprintf(p.answers, "%s\n", answer)
	}()
	return len(b), nil
}

func (p *person) transcript() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

// close ends the person's input and waits for its typing.
func (p *person) close() {
	p.answers.Close()
	p.wg.Wait()
}

// A person joins a host with bots by address and plays seat 1 in the
// terminal: the first answer is not a choice and is refused with a reason;
// the person leaves after a few answers, comes back with the same command
// (the store resumes the seat) and plays to the end. Both devices export
// the same log, which verifies.
func TestJoinAsHumanOnLoopback(t *testing.T) {
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hostDir, joinDir := t.TempDir(), t.TempDir()
	hostOut, hostErr := newSyncBuffer(), newSyncBuffer()
	hostCode := make(chan int, 1)
	go func() {
		c := newCLI(strings.NewReader(""), hostOut, hostErr)
		hostCode <- c.run([]string{"host", "--name", "T", "--players", "3", "--bots", "1", "--bot", "random",
			"--rounds", "1", "--data", hostDir, "--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "10s", "--wait", "1m"})
	}()
	addr, err := hostOut.waitFor(ctx, regexp.MustCompile(`address (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)`))
	if err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	join := func(p *person, in io.Reader, extra ...string) (int, string) {
		var stderr bytes.Buffer
		c := newCLI(in, p, &stderr)
		args := append([]string{"join", "--data", joinDir, "--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "10s",
			"--wait", "1m"}, extra...)
		code := c.run(args)
		p.close()
		return code, stderr.String()
	}
	first, in := newPerson([]string{"banana", "99"}, 4)
	code, stderr := join(first, in, "--addr", addr)
	out := first.transcript()
	if code != ExitOK {
		t.Fatalf("join: exit %d: %s\n%s", code, stderr, out)
	}
	// The terminal wraps to its width: sentences are looked for with the
	// lines joined.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"you play seat 1", "Your hand", "Your turn:", "> banana ",
		`"banana" is not a choice now: type a number from the list`, "99 is not a choice: pick a number from 1 to",
		"You leave the table. Your seat stays in this device's store"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the first transcript lacks %q:\n%s", want, out)
		}
	}
	again, in := newPerson(nil, 0)
	code, stderr = join(again, in)
	out = again.transcript()
	if code != ExitOK {
		t.Fatalf("join again: exit %d: %s\n%s", code, stderr, out)
	}
	for _, want := range []string{"resuming table", "you play seat 1", "Your choices:", "Seat 2 plays",
		"Round 1 over", "round  total", "=== Game over after 1 round ===", "the game is over"} {
		if !strings.Contains(out, want) {
			t.Errorf("the second transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "is not a choice") || strings.Contains(out, "Not accepted") {
		t.Errorf("a valid answer was refused:\n%s", out)
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
	if code := Run([]string{"verify", j[2]}, &vout, &verr); code != ExitOK || !strings.Contains(vout.String(), "1 round verified") {
		t.Fatalf("verify: exit %d: %s%s", code, vout.String(), verr.String())
	}
}

// A device watches a host's table of bots from the second round with njet
// join --watch: it is told the plays, the tricks and the scores, never a
// hand, posts nothing, and exports the host's very log.
func TestJoinWatchOnLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hostOut, hostErr := newSyncBuffer(), newSyncBuffer()
	hostCode := make(chan int, 1)
	go func() {
		c := newCLI(strings.NewReader(""), hostOut, hostErr)
		hostCode <- c.run([]string{"host", "--name", "W", "--edition", "modern", "--players", "3", "--bots", "2",
			"--bot", "random", "--rounds", "2", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
			"--linger", "10s", "--wait", "1m"})
	}()
	addr, err := hostOut.waitFor(ctx, regexp.MustCompile(`address (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)`))
	if err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	if _, err := hostOut.waitFor(ctx, regexp.MustCompile(`(round 1): points`)); err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	dir := t.TempDir()
	var out, stderr bytes.Buffer
	code := newCLI(strings.NewReader(""), &out, &stderr).run([]string{"join", "--watch", "--addr", addr,
		"--data", dir, "--listen", "/ip4/127.0.0.1/tcp/0", "--export", filepath.Join(dir, "w.njetlog")})
	if code != ExitOK {
		t.Fatalf("watch: exit %d: %s\n%s", code, stderr.String(), out.String())
	}
	for _, want := range []string{"watching table", "You are watching", "Round 2 over", "=== Game over after 2 rounds ==="} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the watcher was not told %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Your hand") {
		t.Errorf("the watcher was shown a hand:\n%s", out.String())
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
	h, w := logHash.FindStringSubmatch(hostOut.String()), logHash.FindStringSubmatch(out.String())
	if h == nil || w == nil || h[1] != w[1] {
		t.Fatalf("the watcher's log differs from the host's:\n%s\n%s", hostOut, out.String())
	}
	var vout, verr bytes.Buffer
	if code := Run([]string{"verify", w[2]}, &vout, &verr); code != ExitOK || !strings.Contains(vout.String(), "2 rounds verified") {
		t.Fatalf("verify: exit %d: %s%s", code, vout.String(), verr.String())
	}
}

// njet join --watch --take takes a bot the host seated from the lobby: a
// device watches a table of one person's device and two lobby bots from
// its first shuffle, asks for seat 1, plays it with a bot from the next
// round to the end, and its log is the host's, which njet verify accepts
// and which names the hand-over. The host's own seat cannot be taken: that
// is refused with a clear error and exit status 1.
func TestJoinWatchTakesALobbyBotSeat(t *testing.T) {
	var hout, herr bytes.Buffer
	if code := Run([]string{"help"}, &hout, &herr); code != ExitOK || !strings.Contains(hout.String(), "take a seat a bot plays (seated in the lobby or since its device left)") {
		t.Errorf("njet help does not say which seats a watcher may take: exit %d\n%s%s", code, hout.String(), herr.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	hostOut, hostErr := newSyncBuffer(), newSyncBuffer()
	hostCode := make(chan int, 1)
	// Nine rounds, the whole game of three: bots play one in a fraction
	// of a second, and the watcher, refused one seat first, must still
	// find a round to come.
	go func() {
		c := newCLI(strings.NewReader(""), hostOut, hostErr)
		hostCode <- c.run([]string{"host", "--name", "W", "--edition", "modern", "--players", "3", "--bots", "2",
			"--bot", "random", "--rounds", "9", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
			"--linger", "10s", "--wait", "1m"})
	}()
	addr, err := hostOut.waitFor(ctx, regexp.MustCompile(`address (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)`))
	if err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	if _, err := hostOut.waitFor(ctx, regexp.MustCompile(`(shuffling)`)); err != nil {
		t.Fatalf("%v\n%s%s", err, hostOut, hostErr)
	}
	var out, stderr bytes.Buffer
	code := newCLI(strings.NewReader(""), &out, &stderr).run([]string{"join", "--watch", "--addr", addr, "--take", "0",
		"--bot", "random", "--data", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0"})
	if code != ExitFail || !strings.Contains(stderr.String(), "that seat cannot be taken") {
		t.Errorf("take the host's seat: exit %d, want %d: %s\n%s", code, ExitFail, stderr.String(), out.String())
	}
	dir := t.TempDir()
	out.Reset()
	stderr.Reset()
	code = newCLI(strings.NewReader(""), &out, &stderr).run([]string{"join", "--watch", "--addr", addr, "--take", "1",
		"--bot", "random", "--data", dir, "--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "10s",
		"--export", filepath.Join(dir, "w.njetlog")})
	if code != ExitOK || !strings.Contains(out.String(), "the table gave you seat 1") {
		t.Fatalf("take lobby bot seat 1: exit %d: %s\n%s", code, stderr.String(), out.String())
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
	h, w := logHash.FindStringSubmatch(hostOut.String()), logHash.FindStringSubmatch(out.String())
	if h == nil || w == nil || h[1] != w[1] {
		t.Fatalf("the former watcher's log differs from the host's:\n%s\n%s", hostOut, out.String())
	}
	var vout, verr bytes.Buffer
	if code := Run([]string{"verify", w[2]}, &vout, &verr); code != ExitOK || !strings.Contains(vout.String(), "9 rounds verified") ||
		!strings.Contains(vout.String(), "seat 1 was handed from its bot to device") {
		t.Fatalf("verify: exit %d: %s%s", code, vout.String(), verr.String())
	}
}
