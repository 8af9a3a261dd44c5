package seat

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/njetlan/njet/engine"
)

// maxEvents bounds a whole game's events in tests; Modern 5p's long game
// makes a few thousand.
const maxEvents = 20000

// playThrough reads s to the end, answering every question with choose
// (the first legal answer when nil), and checks the contract every Seat
// keeps:
//   - the first event is a Sync (a LAN seat may sync again later: the
//     counts below then start afresh from its State);
//   - an answered YourTurn is followed by the person's Moved before the next
//     question, unless it is Withdrawn;
//   - each round's TrickWon events count 1, 2, … and match the tricks of its
//     RoundOver (but for a round a later Sync cut into);
//   - each RoundOver's totals are the previous ones plus its points;
//   - GameOver comes once, with the last totals and their leaders, and Next
//     returns io.EOF after it.
func playThrough(t *testing.T, s Seat, you int, choose func(Prompt) engine.Action) GameOver {
	t.Helper()
	return playThroughCtx(t, context.Background(), s, you, choose)
}

// playThroughCtx is playThrough with ctx bounding every Next.
func playThroughCtx(t *testing.T, ctx context.Context, s Seat, you int, choose func(Prompt) engine.Action) GameOver {
	t.Helper()
	var (
		over     *GameOver
		answered = -1 // seat whose Moved must come next, or -1
		tricks   int
		cut      bool // a Sync came in this round: its tricks were not all told
		totals   []int
	)
	for i := range maxEvents {
		ev, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			if over == nil {
				t.Fatalf("io.EOF before GameOver")
			}
			return *over
		}
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if over != nil {
			t.Fatalf("event %T after GameOver", ev)
		}
		if _, ok := ev.(Sync); i == 0 && !ok {
			t.Fatalf("event %d is %T; a Sync comes first", i, ev)
		}
		switch ev := ev.(type) {
		case Sync:
			totals = ev.State.View.Totals
			if n := len(ev.State.Results); n > 0 {
				totals = ev.State.Results[n-1].Totals
			}
			tricks, answered, cut = len(ev.State.View.Tricks), -1, i > 0
		case Withdrawn:
			answered = -1
		case YourTurn:
			if answered >= 0 {
				t.Fatalf("question %d before the Moved of the last answer", ev.Prompt.Seq)
			}
			p := ev.Prompt
			a := p.Legal[0]
			if choose != nil {
				a = choose(p)
			}
			if err := s.Choose(p.Seq, a); err != nil {
				t.Fatalf("Choose(%d, %v): %v", p.Seq, a, err)
			}
			answered = you
		case Moved:
			if answered >= 0 && ev.Action.Seat == answered {
				answered = -1
			}
		case Dealt:
			tricks, cut = 0, false
		case TrickWon:
			tricks++
			if ev.N != tricks {
				t.Fatalf("trick %d told as number %d", tricks, ev.N)
			}
			if ev.Why.Seat != ev.Trick.Winner {
				t.Fatalf("trick %d: Why names seat %d, the trick %d", ev.N, ev.Why.Seat, ev.Trick.Winner)
			}
		case RoundOver:
			r := ev.Result
			if got := r.Tricks[0] + r.Tricks[1]; got != tricks && !cut {
				t.Fatalf("round %d: result counts %d tricks, %d were told", r.Round, got, tricks)
			}
			for seat := range r.Totals {
				if totals[seat]+r.Points[seat] != r.Totals[seat] {
					t.Fatalf("round %d seat %d: %d + %d != %d", r.Round, seat, totals[seat], r.Points[seat], r.Totals[seat])
				}
			}
			totals = r.Totals
		case GameOver:
			if !slices.Equal(ev.Totals, totals) {
				t.Fatalf("GameOver totals %v, last round's %v", ev.Totals, totals)
			}
			if !slices.Equal(ev.Winners, engine.Leaders(totals)) {
				t.Fatalf("winners %v of totals %v", ev.Winners, totals)
			}
			over = &ev
		}
	}
	t.Fatalf("no end after %d events", maxEvents)
	return GameOver{}
}

// TestLocalContract plays whole games of every edition and player count
// through a Local seat (R-END: short games, and a whole game for one
// count).
func TestLocalContract(t *testing.T) {
	cases := []struct {
		name string
		cfg  LocalConfig
	}{
		{"classic-3p-short", LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}},
		{"classic-4p-short-you-2", LocalConfig{Edition: engine.Classic, Players: 4, You: 2, Seed: 3, Short: true, Bots: []string{"random"}}},
		{"modern-2p-target", LocalConfig{Edition: engine.Modern, Players: 2, Seed: 1, Target: 10}},
		{"modern-3p-target", LocalConfig{Edition: engine.Modern, Players: 3, Seed: 2, Target: 8, Bots: []string{"random", "heuristic"}}},
		{"modern-4p-target", LocalConfig{Edition: engine.Modern, Players: 4, You: 3, Seed: 5, Target: 8}},
		{"modern-5p-target", LocalConfig{Edition: engine.Modern, Players: 5, You: 1, Seed: 9, Target: 8}},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			name string
			cfg  LocalConfig
		}{"R-END-classic-4p-whole", LocalConfig{Edition: engine.Classic, Players: 4, Seed: 11}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := NewLocal(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			over := playThrough(t, l, c.cfg.You, nil)
			if !slices.Equal(over.Totals, l.Totals()) {
				t.Fatalf("GameOver totals %v, engine's %v", over.Totals, l.Totals())
			}
			if !l.Over() {
				t.Fatal("the engine's game is not over")
			}
		})
	}
}

// TestLocalEvents checks what the person is told in one Modern 4p game:
// others' discards and passes come hidden, the person's own in full, and
// the rules, teams and received card come once per round.
func TestLocalEvents(t *testing.T) {
	for _, ed := range []engine.Edition{engine.Classic, engine.Modern} {
		t.Run(ed.String(), func(t *testing.T) {
			l, err := NewLocal(LocalConfig{Edition: ed, Players: 4, Seed: 21, Target: 1})
			if err != nil {
				t.Fatal(err)
			}
			var kinds = map[string]int{}
			var rounds int
			ctx := context.Background()
			for range maxEvents {
				ev, err := l.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch ev := ev.(type) {
				case YourTurn:
					if err := l.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
						t.Fatal(err)
					}
				case Moved:
					a := ev.Action
					secret := a.Kind == engine.ActDiscard || a.Kind == engine.ActPass
					if secret && a.Seat != 0 && (!a.Hidden || a.Card != engine.NoCard || a.Cards[0] != engine.NoCard) {
						t.Fatalf("seat %d's %s is shown: %+v", a.Seat, a.Kind, a)
					}
					if a.Seat == 0 && a.Hidden {
						t.Fatalf("the person's own %s comes hidden", a.Kind)
					}
				case RulesSet:
					kinds["rules"]++
				case TeamsSet:
					kinds["teams"]++
					if len(ev.Team) != 4 || slices.Contains(ev.Team, -1) {
						t.Fatalf("teams %v", ev.Team)
					}
				case PassReceived:
					kinds["pass"]++
					if ev.From != 3 || !ev.Card.Valid() {
						t.Fatalf("received %v from %d", ev.Card, ev.From)
					}
				case RoundOver:
					rounds++
					if ev.Result.Rules.Discard != engine.PassLeft && kinds["pass"] >= rounds {
						t.Fatalf("a card received in a round without passing")
					}
				}
			}
			if kinds["rules"] != rounds || kinds["teams"] != rounds {
				t.Fatalf("%d rounds told %d rules and %d teams", rounds, kinds["rules"], kinds["teams"])
			}
		})
	}
}

// nextQuestion reads events until a YourTurn.
func nextQuestion(t *testing.T, l *Local) Prompt {
	t.Helper()
	for range maxEvents {
		ev, err := l.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if y, ok := ev.(YourTurn); ok {
			return y.Prompt
		}
	}
	t.Fatal("no question")
	return Prompt{}
}

// TestLocalChooseErrors: answers that are stale, illegal or for another
// seat are refused with a reason and change nothing (R-NJET: the last free
// field of a row cannot be blocked).
func TestLocalChooseErrors(t *testing.T) {
	l, err := NewLocal(LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true})
	if err != nil {
		t.Fatal(err)
	}
	p := nextQuestion(t, l)
	if p.Kind != engine.ActBlock {
		t.Fatalf("first question is a %s", p.Kind)
	}
	free := p.View.Board.Free(engine.Classic, engine.RowTrump)
	blocked := engine.Action{Kind: engine.ActBlock, Seat: 0, Row: engine.RowTrump}
	for f := range engine.Field(4) {
		if !slices.Contains(free, f) {
			blocked.Field = f
		}
	}
	cases := []struct {
		name string
		seq  uint64
		a    engine.Action
		want []error
	}{
		{"stale question", p.Seq + 1, p.Legal[0], []error{ErrWithdrawn}},
		{"already blocked", p.Seq, blocked, []error{ErrIllegal}},
		{"wrong kind", p.Seq, engine.Action{Kind: engine.ActPlay, Seat: 0, Card: 3}, []error{ErrIllegal, engine.ErrWrongPhase}},
		{"another seat", p.Seq, engine.Action{Kind: engine.ActBlock, Seat: 1, Row: engine.RowPoints, Field: 0}, []error{ErrIllegal, engine.ErrNotYourTurn}},
		{"no such field", p.Seq, engine.Action{Kind: engine.ActBlock, Seat: 0, Row: engine.RowPoints, Field: 9}, []error{ErrIllegal, engine.ErrBadAction}},
	}
	if len(free) == 4 {
		cases = slices.Delete(cases, 1, 2)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := l.Choose(c.seq, c.a)
			for _, w := range c.want {
				if !errors.Is(err, w) {
					t.Fatalf("Choose: %v, want %v", err, w)
				}
			}
		})
	}
	if err := l.VoteVoid(); !errors.Is(err, ErrCannotVote) {
		t.Fatalf("VoteVoid: %v", err)
	}
	if err := l.Choose(p.Seq, p.Legal[0]); err != nil {
		t.Fatalf("the open question after refusals: %v", err)
	}
	if err := l.Choose(p.Seq, p.Legal[0]); !errors.Is(err, ErrWithdrawn) {
		t.Fatalf("answering twice: %v", err)
	}
}

// TestLocalWaitEnds: a Next waiting for the person returns when ctx ends or
// the seat leaves.
func TestLocalWaitEnds(t *testing.T) {
	l, err := NewLocal(LocalConfig{Edition: engine.Modern, Players: 2, Seed: 4, Target: 5})
	if err != nil {
		t.Fatal(err)
	}
	nextQuestion(t, l)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next with an ended ctx: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := l.Next(context.Background())
		done <- err
	}()
	if err := l.Leave(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrLeft) {
		t.Fatalf("Next after Leave: %v", err)
	}
	if err := l.Choose(0, engine.Action{}); !errors.Is(err, ErrLeft) {
		t.Fatalf("Choose after Leave: %v", err)
	}
	if _, err := l.Save(); err != nil {
		t.Fatalf("Save after Leave: %v", err)
	}
}

func TestNewLocalBadConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  LocalConfig
	}{
		{"no edition", LocalConfig{Players: 3}},
		{"R-SEAT classic 2p", LocalConfig{Edition: engine.Classic, Players: 2}},
		{"R-SEAT modern 6p", LocalConfig{Edition: engine.Modern, Players: 6}},
		{"you outside", LocalConfig{Edition: engine.Classic, Players: 3, You: 3}},
		{"too many names", LocalConfig{Edition: engine.Classic, Players: 3, Names: []string{"a", "b", "c", "d"}}},
		{"two bot kinds for three others", LocalConfig{Edition: engine.Classic, Players: 4, Bots: []string{"random", "random"}}},
		{"unknown bot", LocalConfig{Edition: engine.Classic, Players: 3, Bots: []string{"genius"}}},
		{"modern short", LocalConfig{Edition: engine.Modern, Players: 3, Short: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewLocal(c.cfg); !errors.Is(err, ErrBadConfig) {
				t.Fatalf("NewLocal: %v, want ErrBadConfig", err)
			}
		})
	}
}

// TestLocalSyncLength: the first event says how long the game is, in
// rounds or as the target score, so a front end can show the round of the
// total from the start (R-END).
func TestLocalSyncLength(t *testing.T) {
	cases := []struct {
		name           string
		cfg            LocalConfig
		rounds, target int
	}{
		{"R-END-classic-short", LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}, 3, 0},
		{"R-END-modern-whole", LocalConfig{Edition: engine.Modern, Players: 4, Seed: 1}, 8, 0},
		{"R-END-modern-target", LocalConfig{Edition: engine.Modern, Players: 4, Seed: 1, Target: 50}, 0, 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := NewLocal(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := l.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			s, ok := ev.(Sync)
			if !ok {
				t.Fatalf("first event %T, want Sync", ev)
			}
			if s.State.Rounds != c.rounds || s.State.Target != c.target {
				t.Fatalf("rounds %d target %d, want %d and %d", s.State.Rounds, s.State.Target, c.rounds, c.target)
			}
		})
	}
}
