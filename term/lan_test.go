package term_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/term"
)

// lanTestTimeout only stops a hung test; nothing is asserted about time.
const lanTestTimeout = time.Minute

// lanPatience is every peer's patience with a silent seat, on the test's clock.
const lanPatience = 5 * time.Second

// lanTable is a table of three peers over an in-memory network, one round
// long, on a test clock. Every seat's choices are a person's
// (PeerConfig.Human) and no peer votes on its own: PlayLAN plays one
// seat, the test the others (see play), so that every vote to void a
// round is one the test meant.
type lanTable struct {
	*memtable.Table

	answered map[int]question // per seat the last question play answered
	voted    map[int]bool     // seats play has voted for
	left     map[int]bool     // seats whose device play made leave
}

func newLANTable(t *testing.T) *lanTable {
	t.Helper()
	const players = 3
	gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:players], Rounds: 1}
	mt := memtable.New(t, memtable.Config{Genesis: gen, Players: players, Human: func(int) bool { return true },
		Bot: "random", NewPlayer: njetPlayers(t), Patience: lanPatience})
	return &lanTable{Table: mt, answered: map[int]question{}, voted: map[int]bool{}, left: map[int]bool{}}
}

// play is the test's turn at the seats in seats: each answers its
// question with its first legal choice, but the silent seat, which never
// answers. While every peer waits for the silent seat to post kind (any
// if 0), the clock moves on by a second; once the patience is over, each
// of the seats votes to void the round (VoteVoid, as a UI's button).
func (lt *lanTable) play(silent int, kind tablelog.Kind, seats ...int) error {
	if slices.Contains(seats, silent) && !lt.left[silent] && lt.Peers[silent].View().Prompt != nil && lt.waitingFor(silent, kind) {
		// The silent seat's device is gone from the moment the table
		// waits for its person: running on, it would see its seat taken
		// over and claim it back at the next deal, to be waited for
		// again.
		lt.left[silent] = true
		lt.Leave(silent)
	}
	for _, seat := range seats {
		if lt.left[seat] {
			continue
		}
		p := lt.Peers[seat]
		// A question is its seq and the head it was asked at: the log may
		// follow another branch, and the seq be asked again.
		if pr := p.View().Prompt; pr != nil && seat != silent && lt.answered[seat] != (question{pr.Seq, pr.Head}) {
			if err := p.Submit(pr.Legal[0]); err != nil {
				return fmt.Errorf("seat %d: %w", seat, err)
			}
			lt.answered[seat] = question{pr.Seq, pr.Head}
		}
	}
	if !lt.waitingFor(silent, kind) {
		return nil
	}
	lt.Clock.Add(time.Second)
	for _, seat := range seats {
		if p := lt.Peers[seat]; !lt.voted[seat] && p.View().Silent >= lanPatience {
			// The log may have moved on since waitingFor: then there is
			// no vote, and the next look tries again.
			lt.voted[seat] = p.VoteVoid() == nil
		}
	}
	return nil
}

// waitingFor reports whether every peer waits for seat, played by nobody
// but its own peer, to post kind (any kind if 0).
func (lt *lanTable) waitingFor(seat int, kind tablelog.Kind) bool {
	for _, p := range lt.Peers {
		v := p.View()
		if v.Turn != seat || kind != 0 && v.Kind != kind || p.Game().HostOf(seat) >= 0 {
			return false
		}
	}
	return true
}

// transcript is PlayLAN's output, read while it runs.
type transcript struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func (tr *transcript) Write(b []byte) (int, error) {
	tr.mu.Lock()
	tr.buf.Write(b)
	tr.mu.Unlock()
	select {
	case tr.changed <- struct{}{}:
	default:
	}
	return len(b), nil
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.buf.String()
}

// seatAtLAN runs PlayLAN for seat on the table and a typist who reads the
// transcript: whenever it has grown, typist is asked for the lines to type
// (given the whole transcript). Meanwhile drive plays the other seats
// (lanTable.play), and PlayLAN is told to look again, over and over. It
// returns the transcript and PlayLAN's error.
func seatAtLAN(t *testing.T, ctx context.Context, lt *lanTable, seat int, drive func() error,
	typist func(out string) []string) (string, error) {
	t.Helper()
	return seatAtLANHints(t, ctx, lt, seat, false, drive, typist)
}

// seatAtLANHints is seatAtLAN at a table whose host allowed hints, or not.
func seatAtLANHints(t *testing.T, ctx context.Context, lt *lanTable, seat int, hints bool, drive func() error,
	typist func(out string) []string) (string, error) {
	t.Helper()
	in, typed := io.Pipe()
	out := &transcript{changed: make(chan struct{}, 1)}
	changed := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		// The typist writes from its own goroutine: PlayLAN reads lines
		// from another, so it never waits on the typist.
		defer wg.Done()
		typeAnswers(ctx, out, typed, typist)
	}()
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if err := drive(); err != nil {
				t.Error(err)
				return
			}
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}()
	err := term.PlayLAN(ctx, term.LANConfig{Seat: seat, Peer: lt.Peers[seat], Changed: changed, Patience: lanPatience,
		Echo: true, Rounds: 1, Width: 80, Hints: hints}, in, out)
	cancel()
	in.Close()
	wg.Wait()
	return out.String(), err
}

// typeAnswers types into typed, each time the transcript out changes,
// the lines answer gives for it, until ctx ends or typed is closed by
// the reader; it closes typed when it stops.
func typeAnswers(ctx context.Context, out *transcript, typed *io.PipeWriter, answer func(out string) []string) {
	defer typed.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case <-out.changed:
		}
		for _, line := range answer(out.String()) {
			if _, err := fmt.Fprintf(typed, "%s\n", line); err != nil {
				return
			}
		}
	}
}

// question names a prompt: its seq and the log's head then.
type question struct {
	seq  uint64
	head tablelog.Hash
}

// answerPrompts is a typist's memory: how many "> " it has answered.
type answerPrompts struct{ answered int }

// next answers each question asked since the last call with the first
// number offered before it ("1" when none is), unless hold says to leave
// the latest unanswered.
func (a *answerPrompts) next(out string, hold bool) []string {
	asked := strings.Split(out, "\n> ")
	var lines []string
	for n := len(asked) - 1; a.answered < n; a.answered++ {
		if hold && a.answered == n-1 {
			break
		}
		answer := "1"
		if m := offered.FindStringSubmatch(asked[a.answered]); m != nil {
			answer = m[1]
		}
		lines = append(lines, answer)
	}
	return lines
}

// flat is text with its lines joined and its spaces collapsed, so that a
// sentence is found wherever the screen's width wrapped it.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// A person who stays silent when asked to play a card: the other seats
// vote, a bot takes the person's seat and plays on with its cards,
// recovered from the escrow (the round is kept), and PlayLAN withdraws
// the question that no longer stands. An answer typed afterwards is not taken
// for it: the table says it is not the person's turn, and the seat's
// envelope at that seq is the void, not a play.
func TestLANQuestionWithdrawnWhenTheTableMovesOn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
	defer cancel()
	const you = 1
	lt := newLANTable(t)
	person := lt.Peers[you]
	var (
		prompts   answerPrompts
		mu        sync.Mutex
		heldSeq   uint64
		lateTyped bool
	)
	out, err := seatAtLAN(t, ctx, lt, you,
		func() error { return lt.play(you, tablelog.KindPlay, 0, 2) },
		func(out string) []string {
			mu.Lock()
			defer mu.Unlock()
			if strings.Contains(flat(out), "that question no longer stands") {
				if lateTyped {
					return nil
				}
				lateTyped = true
				return []string{"1"}
			}
			pr := person.View().Prompt
			hold := pr != nil && pr.Kind == tablelog.KindPlay
			if hold && heldSeq == 0 {
				heldSeq = pr.Seq
			}
			return prompts.next(out, hold || heldSeq != 0)
		})
	if err != nil {
		t.Fatalf("PlayLAN: %v\n%s", err, out)
	}
	lt.Stop()
	screen := out
	out = flat(out)
	withdrawn := "The table moved on: that question no longer stands."
	if n := strings.Count(out, withdrawn); n != 1 {
		t.Errorf("the question was withdrawn %d times, want 1:\n%s", n, screen)
	}
	for _, want := range []string{
		"Your seat was silent, so the table let a bot on seat 0's device play it with your cards",
		"=== Game over after 1 round ===",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the transcript:\n%s", want, screen)
		}
	}
	// The answer typed after the withdrawal is echoed and refused (the
	// bot's first plays in the seat may be told before it).
	late := "1 You are watching: a bot plays your seat now."
	if w, l := strings.Index(out, withdrawn), strings.Index(out, late); w < 0 || l < w {
		t.Errorf("no %q after the withdrawal in the transcript:\n%s", late, screen)
	}
	// The seat is a bot's now: the late answer is refused as such, and the
	// person watches the bot without an empty hand shown.
	if at, late := strings.Index(out, withdrawn), strings.LastIndex(out, "You are watching: a bot plays your seat now."); late < at {
		t.Errorf("the late answer was not refused:\n%s", screen)
	}
	watch := strings.Index(out, "plays your seat; you are watching. It hands the seat back to this device")
	if watch < 0 {
		t.Errorf("no notice that the person watches:\n%s", screen)
	} else if after := out[watch:]; strings.Contains(after, "Your hand (0)") || strings.Contains(after, "You play ") ||
		!strings.Contains(after, "The bot in your seat plays ") {
		t.Errorf("after the void the bot's moves must not read as the person's:\n%s", after)
	}
	for _, bad := range []string{"Too late", "Not accepted", "No vote"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in the transcript:\n%s", bad, screen)
		}
	}
	v := person.View()
	// Silent during the tricks: the round goes on with the seat's cards
	// recovered from its escrow.
	if !v.Over || len(v.Voided) != 0 || len(v.Recovered) != 1 || v.Recovered[0].Seat != you || v.BotHost != 0 {
		t.Fatalf("over %v, voided %v, recovered %v, bot host %d", v.Over, v.Voided, v.Recovered, v.BotHost)
	}
	if heldSeq == 0 {
		t.Fatal("the person was never asked to play")
	}
	for _, line := range strings.Split(screen, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns on an 80-column screen: %q", n, line)
		}
	}
	env, ok := person.Log().Get(heldSeq)
	if !ok || env.Kind != tablelog.KindVoidSilent || env.Author != 0 {
		t.Fatalf("seq %d holds %v, want seat 0's void", heldSeq, env)
	}
}

// A seat stays silent (a person's peer that never answers); once the
// patience is over PlayLAN asks the person whether a bot may play that
// seat, the person answers "yes", and with the other seat's vote the table
// voids the silent seat's round, deals it again with a bot in that seat,
// and plays the game to its end.
func TestLANVoidVotesOutASilentSeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
	defer cancel()
	const you, silent = 1, 2
	// Seat 2's peer is a person's who never answers.
	lt := newLANTable(t)
	var (
		prompts answerPrompts
		mu      sync.Mutex
		voted   bool
	)
	out, err := seatAtLAN(t, ctx, lt, you,
		func() error { return lt.play(silent, 0, 0, silent) },
		func(out string) []string {
			mu.Lock()
			defer mu.Unlock()
			lines := prompts.next(out, false)
			if !voted && strings.Contains(flat(out), `let a bot play seat 2? (yes/no)`) {
				voted = true
				lines = append(lines, "yes")
			}
			return lines
		})
	if err != nil {
		t.Fatalf("PlayLAN: %v\n%s", err, out)
	}
	lt.Stop()
	screen := out
	out = flat(out)
	hint := "seat 2's device has been silent for 5s: let a bot play seat 2? (yes/no)"
	vote := "yes You voted to let a bot play seat 2 because seat 2's device is silent."
	voided := "seat 2's device has left the table; a bot plays that seat now."
	hi, vi, di := strings.Index(out, hint), strings.Index(out, vote), strings.Index(out, voided)
	if hi < 0 || vi < hi || di < vi {
		t.Errorf("want the hint, the vote and the void in this order (at %d, %d, %d):\n%s", hi, vi, di, screen)
	}
	if strings.Contains(out, "check at seq") {
		t.Errorf("the transcript speaks of checks and seqs:\n%s", screen)
	}
	for _, want := range []string{"The round is dealt again, without the points so far.", "Round 1 over", "=== Game over after 1 round ==="} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the transcript:\n%s", want, screen)
		}
	}
	if strings.Contains(out, "No vote") || strings.Contains(out, "Not accepted") {
		t.Errorf("a vote or an answer was refused:\n%s", screen)
	}
	for seat, p := range lt.Peers[:silent] {
		v := p.View()
		if !v.Over || len(v.Voided) != 1 || v.Voided[0].Seat != silent || v.Voided[0].Check != table.CheckSilent ||
			len(v.Results) != 1 || v.Results[0].Deal != 2 || p.Game().HostOf(silent) != 0 {
			t.Errorf("seat %d: over %v, voided %v, results %+v, seat %d hosted by %d", seat, v.Over, v.Voided,
				v.Results, silent, p.Game().HostOf(silent))
		}
	}
}

// The person first answers "no": the table keeps waiting, this device
// casts no vote, and the question comes again once another patience has
// passed; the second answer, "yes", lets the bot take the seat over.
func TestLANQuestionAnsweredNoThenYes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
	defer cancel()
	const you, silent = 1, 2
	lt := newLANTable(t)
	var (
		prompts answerPrompts
		mu      sync.Mutex
		asked   int
	)
	question := `let a bot play seat 2? (yes/no)`
	out, err := seatAtLAN(t, ctx, lt, you,
		func() error { return lt.play(silent, 0, 0, silent) },
		func(out string) []string {
			mu.Lock()
			defer mu.Unlock()
			lines := prompts.next(out, false)
			switch n := strings.Count(flat(out), question); {
			case n == 1 && asked == 0:
				asked = 1
				lines = append(lines, "no")
			case n == 2 && asked == 1:
				asked = 2
				lines = append(lines, "yes")
			}
			return lines
		})
	if err != nil {
		t.Fatalf("PlayLAN: %v\n%s", err, out)
	}
	lt.Stop()
	screen := out
	out = flat(out)
	first, declined := strings.Index(out, question), strings.Index(out, "no The table keeps waiting for seat 2; you will be asked again in 5s.")
	second := strings.LastIndex(out, question)
	vote := strings.Index(out, "yes You voted to let a bot play seat 2")
	if first < 0 || declined < first || second < declined || vote < second {
		t.Errorf("want the question, the no, the question again and the yes in this order (%d, %d, %d, %d):\n%s",
			first, declined, second, vote, screen)
	}
	if !strings.Contains(out, "=== Game over after 1 round ===") {
		t.Errorf("the game did not end:\n%s", screen)
	}
}

// njetPlayers is the players' factory of Njet from the registry of games.
func njetPlayers(t testing.TB) table.NewPlayer { return memtable.Players(t, table.GameNjet) }
