package table

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
)

// A human plays seat 1 through Submit: at every prompt it first submits a
// wrong action (for another seat, then one not legal), which is refused
// with a clear error and changes nothing, then a legal one. The game goes
// to its end like a game of bots.
func TestHumanSeatSubmits(t *testing.T) {
	const human = 1
	sp, err := newTestSelfplay(SelfplayConfig{Edition: engine.Modern, Players: 3, Rounds: 1, Seed: 51, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	sp.human = map[int]bool{human: true}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var (
		wg                 sync.WaitGroup
		prompts, refusals  int
		notYourTurn, other error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Events may be dropped for a slow reader; the ticker only makes
		// the human look at View again, it asserts nothing.
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		done := map[uint64]bool{}
		for {
			p := sp.Peer(human)
			var events <-chan Event
			if p != nil {
				events = p.Events()
			}
			select {
			case <-ctx.Done():
				return
			case <-events:
			case <-tick.C:
			}
			if p == nil {
				continue
			}
			if p.Game().Over() {
				return
			}
			pr := p.View().Prompt
			if pr == nil {
				if notYourTurn == nil && p.Game().Genesis() != nil {
					notYourTurn = p.Submit(engine.Action{Kind: engine.ActBlock, Seat: human})
				}
				continue
			}
			if done[pr.Seq] {
				continue
			}
			prompts++
			wrongSeat := pr.Legal[0]
			wrongSeat.Seat = (human + 1) % 3
			if err := p.Submit(wrongSeat); !errors.Is(err, engine.ErrNotYourTurn) {
				other = errors.Join(other, err)
			}
			illegal := pr.Legal[0]
			illegal.Field, illegal.Card = 200, engine.Card(250)
			if err := p.Submit(illegal); errors.Is(err, ErrIllegalAction) {
				refusals++
			} else {
				other = errors.Join(other, err)
			}
			if p.View().Prompt == nil {
				other = errors.Join(other, errors.New("a refused submission removed the prompt"))
			}
			if err := p.Submit(pr.Legal[len(pr.Legal)-1]); err != nil {
				other = errors.Join(other, err)
			}
			done[pr.Seq] = true
		}
	}()
	err = sp.Run(ctx)
	cancel()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	agree(t, sp.Outcomes(), 1)
	if other != nil {
		t.Errorf("unexpected answers: %v", other)
	}
	if prompts == 0 || refusals != prompts {
		t.Errorf("%d prompts, %d refusals", prompts, refusals)
	}
	if !errors.Is(notYourTurn, engine.ErrNotYourTurn) {
		t.Errorf("a submission out of turn: %v", notYourTurn)
	}
}
