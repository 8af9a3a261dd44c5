package seat

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// playTheGame plays l to its end with person choosing the person's moves,
// reading the moves with Next on one goroutine and acting on another, as
// a screen does. It returns every move told.
func playTheGame(t *testing.T, l *TheGameLocal, person tgbot.Player) []thegame.Action {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type told struct {
		a   thegame.Action
		err error
	}
	moves := make(chan told)
	go func() {
		for {
			a, err := l.Next(ctx)
			moves <- told{a, err}
			if err != nil {
				return
			}
		}
	}()
	var out []thegame.Action
	for range 100 * thegame.DeckSize {
		select {
		case m := <-moves:
			if errors.Is(m.err, io.EOF) {
				return out
			}
			if m.err != nil {
				t.Fatal(m.err)
			}
			out = append(out, m.a)
		case <-time.After(20 * time.Millisecond):
			v := l.View()
			if !l.Idle() || v.Phase != thegame.PhasePlay || v.Turn != 0 {
				continue
			}
			if err := l.Act(person.Act(&v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("the game does not end")
	return nil
}

// TestTheGameLocalPlaysThrough: a local game of The Game runs its bots and
// tells every move in order, the person's own included, until io.EOF; the
// moves told are the game's history and its result is the engine's.
func TestTheGameLocalPlaysThrough(t *testing.T) {
	for _, cfg := range []TheGameLocalConfig{
		{Players: 1, Bot: "greedy", Seed: 3},
		{Players: 3, Extreme: true, Bot: "coop", Seed: 7},
		{Players: 5, Bot: "expert", Seed: 2},
	} {
		l, err := NewTheGameLocal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		moves := playTheGame(t, l, tgbot.NewCoop(false))
		if !l.Over() {
			t.Fatalf("%+v: the game told its end before it was over", cfg)
		}
		h := l.History()
		if len(h) != len(moves) {
			t.Fatalf("%+v: %d moves told, %d in the history", cfg, len(moves), len(h))
		}
		for i := range h {
			if h[i] != moves[i] {
				t.Fatalf("%+v: move %d told %v, the history holds %v", cfg, i, moves[i], h[i])
			}
		}
		if r := l.Result(); r.CardsLeft < 0 || r.CardsLeft > thegame.DeckSize {
			t.Fatalf("%+v: result %+v", cfg, r)
		}
	}
}

// TestTheGameLocalRefuses: the person acts only for seat 0 and never
// draws, a bad configuration wraps ErrBadConfig, and a refused action
// changes nothing.
func TestTheGameLocalRefuses(t *testing.T) {
	for _, cfg := range []TheGameLocalConfig{
		{Players: 6, Bot: "coop"},
		{Players: 0, Bot: "coop"},
		{Players: 2, Bot: "genius"},
		{Players: 1, Bot: "genius"},
	} {
		if _, err := NewTheGameLocal(cfg); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: %v, want ErrBadConfig", cfg, err)
		}
	}
	l, err := NewTheGameLocal(TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	before, err := l.Save()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []thegame.Action{
		{Kind: thegame.ActEnd, Seat: 1},
		{Kind: thegame.ActDraw, Seat: 0},
		{Kind: thegame.ActEnd, Seat: 0}, // nothing laid yet
		{Kind: thegame.ActPlay, Seat: 0, Card: 1, Pile: 0},
	} {
		if err := l.Act(a); err == nil {
			t.Errorf("%v accepted", a)
		}
	}
	if after, err := l.Save(); err != nil || string(after) != string(before) {
		t.Fatalf("refused actions changed the game (%v)", err)
	}
	if _, ok, err := l.TryNext(); ok || err != nil || !l.Idle() {
		t.Fatalf("the game does not wait for the person at the start: ok %v, err %v", ok, err)
	}
}
