package lan

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/njetlan/njet/seat"
)

// TestPersonPlaysThroughASeat: a front end plays the person's seat of a
// hosted table through PersonSeat.NjetSeat, to the end; the seat names the
// host's player as the genesis does and the host's bots as bots.
func TestPersonPlaysThroughASeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tbl, err := d.Host(ctx, HostConfig{Name: "Küche & Co", Variant: "classic", Players: 3, Bots: 2, Rounds: 1,
		Wait: 10 * time.Second, Player: " Анна "}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if names := tbl.Names(); len(names) != 3 || names[0] != "Анна" || names[1] != "" {
		t.Fatalf("the genesis names %q", names)
	}
	var (
		first seat.State
		over  *seat.GameOver
	)
	person := func(ctx context.Context, ps PersonSeat) error {
		s, err := ps.NjetSeat()
		if err != nil {
			return err
		}
		for i := range 20000 {
			ev, err := s.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			switch ev := ev.(type) {
			case seat.Sync:
				if i == 0 {
					first = ev.State
				}
			case seat.YourTurn:
				if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
					return err
				}
			case seat.GameOver:
				over = &ev
			}
		}
		return errors.New("no end")
	}
	out, err := d.Play(ctx, tbl, PlayConfig{Linger: time.Second, Person: person}, nil)
	if err != nil || !out.Over || out.Left {
		t.Fatalf("play: %+v, %v", out, err)
	}
	if over == nil || len(over.Totals) != 3 {
		t.Fatalf("game over: %+v", over)
	}
	want := []seat.SeatInfo{
		{Name: "Анна", Who: seat.You, Host: -1},
		{Who: seat.Bot, Bot: "heuristic", Host: 0},
		{Who: seat.Bot, Bot: "heuristic", Host: 0},
	}
	for s, w := range want {
		got := first.Seats[s]
		got.Character = 0
		if got != w {
			t.Errorf("seat %d: %+v, want %+v", s, got, w)
		}
	}
}
