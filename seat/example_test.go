package seat_test

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// A front end reads events and answers questions until the game ends.
func Example() {
	l, err := seat.NewLocal(seat.LocalConfig{Edition: engine.Classic, Players: 3, Seed: 7, Short: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	var s seat.Seat = l
	rounds := 0
	for {
		ev, err := s.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev := ev.(type) {
		case seat.YourTurn:
			if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
				fmt.Println(err)
				return
			}
		case seat.RoundOver:
			rounds++
		case seat.GameOver:
			fmt.Println("rounds:", rounds, "totals:", ev.Totals, "winners:", ev.Winners)
		}
	}
	// Output: rounds: 3 totals: [23 80 23] winners: [1]
}
