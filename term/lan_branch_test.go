package term_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/term"
)

// branchSeat is a person's LAN seat whose log follows another branch
// once the person has answered: the seq asked is asked again, after
// another head, and the first answer is never posted. The second answer
// ends the game.
type branchSeat struct {
	mu        sync.Mutex
	view      table.PeerView
	submitted []engine.Action
	changed   chan struct{}
}

func (b *branchSeat) View() table.PeerView {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.view
}

func (b *branchSeat) Submit(move any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := move.(engine.Action)
	if !ok || b.view.Prompt == nil {
		return fmt.Errorf("unexpected move %v", move)
	}
	b.submitted = append(b.submitted, a)
	if len(b.submitted) == 1 {
		again := *b.view.Prompt
		again.Head = tablelog.Hash{2}
		b.view.Prompt = &again
	} else {
		b.view.Prompt, b.view.Over = nil, true
	}
	select {
	case b.changed <- struct{}{}:
	default:
	}
	return nil
}

func (b *branchSeat) VoteVoid() error    { return nil }
func (b *branchSeat) DeclineVoid() error { return nil }

// TestLANQuestionAskedAgainAfterABranch: the person answers a question;
// the log then follows another branch, on which the same seq is asked
// again. The person is asked again and the second answer is submitted:
// a question is its seq and the head it was asked at, not the seq alone.
func TestLANQuestionAskedAgainAfterABranch(t *testing.T) {
	const you = 1
	g, err := engine.NewGame(engine.Config{Edition: engine.Classic, Players: 3, FirstDealer: 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.DealDeck(engine.Classic.Deck(3)); err != nil {
		t.Fatal(err)
	}
	if w := g.Waiting(); len(w) != 1 || w[0] != you {
		t.Fatalf("seat %v to block first", w)
	}
	v := g.View(you)
	seat := &branchSeat{changed: make(chan struct{}, 1), view: table.PeerView{Game: v, Turn: you, Kind: tablelog.KindBlock,
		BotHost: -1, Prompt: &table.Prompt{Seq: 25, Head: tablelog.Hash{1}, Seat: you, Kind: tablelog.KindBlock, View: v, Legal: g.Legal(you)}}}

	ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
	defer cancel()
	in, typed := io.Pipe()
	out := &transcript{changed: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var prompts answerPrompts
		typeAnswers(ctx, out, typed, func(out string) []string { return prompts.next(out, false) })
	}()
	err = term.PlayLAN(ctx, term.LANConfig{Seat: you, Peer: seat, Changed: seat.changed, Echo: true, Rounds: 1, Width: 80}, in, out)
	cancel()
	in.Close()
	<-done
	if err != nil {
		t.Fatalf("PlayLAN: %v\n%s", err, out.String())
	}
	seat.mu.Lock()
	defer seat.mu.Unlock()
	if len(seat.submitted) != 2 {
		t.Fatalf("%d answers submitted, want the first and one to the question asked again:\n%s", len(seat.submitted), out.String())
	}
	if n := strings.Count(out.String(), "Your turn: block a free field"); n != 2 {
		t.Errorf("the question was shown %d times, want 2:\n%s", n, out.String())
	}
}
