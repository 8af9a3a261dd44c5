package term_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/term"
)

// TestLANShowsPlayerNames: a whole LAN game in which the other seats have
// names in other scripts, and one has none: every move, trick, score line
// and the game's end name them, and the seat without a name keeps its
// number.
func TestLANShowsPlayerNames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), lanTestTimeout)
	defer cancel()
	const you = 1
	lt := newLANTable(t)
	names := []string{"Анна", "Zoë", ""}
	in, typed := io.Pipe()
	out := &transcript{changed: make(chan struct{}, 1)}
	changed := make(chan struct{}, 1)
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		var prompts answerPrompts
		typeAnswers(rctx, out, typed, func(out string) []string { return prompts.next(out, false) })
	}()
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-rctx.Done():
				return
			case <-tick.C:
			}
			if err := lt.play(-1, 0, 0, 2); err != nil {
				t.Error(err)
				return
			}
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}()
	err := term.PlayLAN(ctx, term.LANConfig{Seat: you, Peer: lt.Peers[you], Changed: changed, Patience: lanPatience,
		Echo: true, Rounds: 1, Width: 80, Names: names}, in, out)
	stop()
	in.Close()
	wg.Wait()
	screen := out.String()
	if err != nil {
		t.Fatalf("PlayLAN: %v\n%s", err, screen)
	}
	flatOut := flat(screen)
	for _, want := range []string{"Анна blocks", "Анна plays", "Seat 2 plays", "Game over"} {
		if !strings.Contains(flatOut, want) {
			t.Errorf("no %q in the transcript:\n%s", want, screen)
		}
	}
	if strings.Contains(flatOut, "Seat 0") {
		t.Errorf("seat 0 is called by its number, not its name:\n%s", screen)
	}
	if strings.Contains(flatOut, "Zoë") {
		t.Errorf("the person's own name is used in place of \"You\":\n%s", screen)
	}
}
