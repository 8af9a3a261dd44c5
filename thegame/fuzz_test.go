package thegame

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzApply drives a game from bytes: mostly legal actions, some raw ones
// with arbitrary fields. Apply must never panic, must accept what Legal
// lists, must leave the game unchanged when it rejects, and the invariants
// must hold after every accepted action.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x83, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9, 9, 200, 13, 0, 0})
	f.Add([]byte{0x44, 0xff, 0xfe, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		cfg := Config{Players: 1 + int(data[0]%5), Extreme: data[0]&0x80 != 0}
		g, err := NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		deck := shuffled(uint64(data[1]))
		data = data[2:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		for len(data) > 0 && g.Phase() != PhaseOver {
			op := next()
			var a Action
			switch {
			case g.Phase() == PhaseDeal || g.Phase() == PhaseDraw:
				if op%16 != 0 {
					if err := g.Feed(deck); err != nil {
						t.Fatal(err)
					}
					continue
				}
				a = Action{Kind: ActDraw, Seat: int(next() % 6), Card: Card(next())}
			case op%4 != 0:
				legal := g.Legal(g.Turn())
				if len(legal) == 0 {
					t.Fatalf("seat %d on turn with nothing legal", g.Turn())
				}
				a = legal[int(next())%len(legal)]
				if err := g.Apply(a); err != nil {
					t.Fatalf("Legal listed %s, Apply said %v", a, err)
				}
				if err := checkInvariants(g); err != nil {
					t.Fatal(err)
				}
				continue
			default:
				a = Action{Kind: Kind(next() % 6), Seat: int(next()%7) - 1, Card: Card(next()), Pile: int(next()%6) - 1, Signal: Signal(next() % 4)}
			}
			before := *g
			if err := g.Apply(a); err != nil {
				if !reflect.DeepEqual(before, *g) {
					t.Fatalf("rejected %+v changed the game", a)
				}
				var known bool
				for _, s := range []error{ErrBadCard, ErrBadAction, ErrGameOver, ErrWrongPhase, ErrNotYourTurn, ErrDrawn, ErrNotInHand, ErrIllegalPlay, ErrCommand, ErrTooFew, ErrNoTalking} {
					known = known || errors.Is(err, s)
				}
				if !known {
					t.Fatalf("%+v: error %v wraps no sentinel", a, err)
				}
				continue
			}
			if a.Kind == ActDraw {
				// Keep the deck in the order drawn, so Feed goes on from here.
				for j := g.Drawn() - 1; j < len(deck); j++ {
					if deck[j] == a.Card {
						deck[j], deck[g.Drawn()-1] = deck[g.Drawn()-1], deck[j]
					}
				}
			}
			if err := checkInvariants(g); err != nil {
				t.Fatal(err)
			}
		}
	})
}
