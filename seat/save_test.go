package seat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/njetlan/njet/engine"
)

// moves reads l to the end answering with the first legal move and returns
// every Moved action and the final totals.
func moves(t *testing.T, l *Local) ([]engine.Action, []int) {
	t.Helper()
	var out []engine.Action
	for range maxEvents {
		ev, err := l.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out, l.Totals()
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
			out = append(out, ev.Action)
		}
	}
	t.Fatal("no end")
	return nil, nil
}

// TestSaveResume saves games at several questions and checks that the
// resumed game starts with a Sync of the same state, asks the same question
// and then plays on exactly as the original.
func TestSaveResume(t *testing.T) {
	cases := []struct {
		name  string
		cfg   LocalConfig
		after int // questions answered before the save
	}{
		{"classic-3p-first-question", LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}, 0},
		{"classic-3p-mid-tricks", LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true}, 12},
		{"classic-4p-round-2", LocalConfig{Edition: engine.Classic, Players: 4, Seed: 8, Short: true, You: 1}, 25},
		{"modern-4p-pass", LocalConfig{Edition: engine.Modern, Players: 4, Seed: 21, Target: 6, Bots: []string{"random", "heuristic", "random"}}, 9},
		{"modern-5p", LocalConfig{Edition: engine.Modern, Players: 5, Seed: 2, Target: 12, Names: []string{"Ann", "Bo"}}, 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := NewLocal(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var p Prompt
			for i := 0; ; i++ {
				p = nextQuestion(t, l)
				if i == c.after {
					break
				}
				if err := l.Choose(p.Seq, p.Legal[0]); err != nil {
					t.Fatal(err)
				}
			}
			saved, err := l.Save()
			if err != nil {
				t.Fatal(err)
			}
			r, err := ResumeLocal(saved)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := r.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			sync, ok := ev.(Sync)
			if !ok {
				t.Fatalf("first event after resume: %T", ev)
			}
			if got, want := sync.State.View, p.View; got.Round != want.Round || got.Phase != want.Phase ||
				got.Hand != want.Hand || !slices.Equal(got.Totals, want.Totals) || len(got.Blocks) != len(want.Blocks) {
				t.Fatalf("resumed view %+v, want %+v", got, want)
			}
			if n := sync.State.Seats[0].Name; len(c.cfg.Names) > 0 && n != c.cfg.Names[0] {
				t.Fatalf("seat 0 named %q", n)
			}
			q := nextQuestion(t, r)
			if q.Seq != p.Seq || !slices.Equal(q.Legal, p.Legal) {
				t.Fatalf("resumed question %d %v, want %d %v", q.Seq, q.Legal, p.Seq, p.Legal)
			}
			for _, s := range []*Local{l, r} {
				if err := s.Choose(p.Seq, p.Legal[0]); err != nil {
					t.Fatal(err)
				}
			}
			m1, tot1 := moves(t, l)
			m2, tot2 := moves(t, r)
			if !slices.Equal(m1, m2) || !slices.Equal(tot1, tot2) {
				t.Fatalf("the resumed game went another way: totals %v, original %v", tot2, tot1)
			}
		})
	}
}

// TestResumeBadSave: input that is not a saved game, or whose moves the
// engine refuses, is an error wrapping ErrBadSave, never a panic.
func TestResumeBadSave(t *testing.T) {
	l, err := NewLocal(LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		p := nextQuestion(t, l)
		if err := l.Choose(p.Seq, p.Legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	good, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(*savedGame)) []byte {
		var sg savedGame
		if err := json.Unmarshal(good, &sg); err != nil {
			t.Fatal(err)
		}
		f(&sg)
		b, err := json.Marshal(sg)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"not json", []byte("njet")},
		{"too large", bytes.Repeat([]byte{' '}, maxSave+1)},
		{"version", edit(func(s *savedGame) { s.Version = 2 })},
		{"bad config", edit(func(s *savedGame) { s.Config.Players = 9 })},
		{"deal generator", edit(func(s *savedGame) { s.Deals = []byte("x") })},
		{"bot generators", edit(func(s *savedGame) { s.Bots = s.Bots[:1] })},
		{"a deck repeats a card", edit(func(s *savedGame) { s.Decks[0][1] = s.Decks[0][0] })},
		{"an illegal move", edit(func(s *savedGame) { s.Actions[0].Field = 7 })},
		{"a move out of turn", edit(func(s *savedGame) { s.Actions[0].Seat = (s.Actions[0].Seat + 1) % 3 })},
		{"a deck too many", edit(func(s *savedGame) { s.Decks = append(s.Decks, s.Decks[0]) })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ResumeLocal(c.in); !errors.Is(err, ErrBadSave) {
				t.Fatalf("ResumeLocal: %v, want ErrBadSave", err)
			}
		})
	}
	if _, err := ResumeLocal(good); err != nil {
		t.Fatalf("the untouched save: %v", err)
	}
}

// FuzzResumeLocal: no input makes ResumeLocal panic, and whatever it
// accepts saves again to something it accepts.
func FuzzResumeLocal(f *testing.F) {
	l, err := NewLocal(LocalConfig{Edition: engine.Modern, Players: 3, Seed: 1, Target: 3})
	if err != nil {
		f.Fatal(err)
	}
	good, err := l.Save()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := ResumeLocal(in)
		if err != nil {
			return
		}
		again, err := r.Save()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ResumeLocal(again); err != nil {
			t.Fatalf("a resumed game's save is refused: %v", err)
		}
	})
}
