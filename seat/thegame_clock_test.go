package seat

import (
	"context"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
)

// TestTheGameSeatClock: at a LAN table of The Game with a clock, the
// person's seat tells when their time for the move asked runs out
// (Silence.Until, by the peers' clock); once it has, their bot makes the
// move, the seat stays theirs, and the next move is asked with a clock of
// its own.
func TestTheGameSeatClock(t *testing.T) {
	const you, clock = 0, 30
	g, err := games.ByName(table.GameTheGame)
	if err != nil {
		t.Fatal(err)
	}
	gen := &table.Genesis{Game: table.GameTheGame, Clock: clock, Names: []string{"Anna", "Ben", "Cleo"}}
	lt := newLANTableOf(t, lanTableConfig{gen: gen, players: 3, you: you, newPlayer: g.NewPlayer, bot: "coop", heartbeat: true})
	s, err := NewTheGameSeat(lt.Peers[you], nil, lt.changed)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	until := func(what string, ok func() bool) { t.Helper(); waitSeat(ctx, t, s.Changed(), what, ok) }
	until("the person's move asked", func() bool { return s.YourTurn() && !s.Wait().Until.IsZero() })
	asked := lt.Clock.Now()
	if got := s.Wait().Until; !got.Equal(asked.Add(clock * time.Second)) {
		t.Fatalf("asked at %v, the time runs out at %v, the clock is %d s", asked, got, clock)
	}
	mine := func() int {
		n := 0
		for _, a := range s.Moves(0) {
			if a.Seat == you && a.Kind == thegame.ActPlay {
				n++
			}
		}
		return n
	}
	// The clock moves a second at a time, so that the devices, which
	// announce themselves on every tick, are heard all along: a person
	// who thinks is no silent seat.
	pass := func(secs int) {
		for range secs {
			lt.Clock.Add(time.Second)
			time.Sleep(30 * time.Millisecond)
		}
	}
	before := mine()
	pass(10)
	if mine() != before || !s.YourTurn() || s.Host(you) != you || s.Wait().ClockOuts != 0 {
		t.Fatalf("with 20 s of the person's time left: %d cards laid for them (%d before), their turn %v, host %d, %d moves out of time",
			mine(), before, s.YourTurn(), s.Host(you), s.Wait().ClockOuts)
	}
	pass(21)
	until("the bot's move for the person", func() bool { return mine() > before })
	// The seat tells it, so that the person is told why a card was laid.
	if n := s.Wait().ClockOuts; n != 1 {
		t.Fatalf("%d moves of the bot out of time told, want 1", n)
	}
	if h := s.Host(you); h != you {
		t.Fatalf("the seat is played by seat %d's device after the clock ran out", h)
	}
	// The next card is asked with a clock of its own, from when it was
	// asked: after the first move's time ran out.
	first := asked.Add(clock * time.Second)
	until("the next move asked", func() bool {
		u := s.Wait().Until
		return !s.YourTurn() || !u.Add(-clock*time.Second).Before(first) && !u.After(lt.Clock.Now().Add(clock*time.Second))
	})
}
