package bot

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/njetlan/njet/thegame"
)

// redealOthers returns g with the hidden cards dealt anew but seat's own
// hand kept: the other hands and the order of the draw pile change, what
// the seat may know does not.
func redealOthers(t *testing.T, g *thegame.Game, seat int, r *rand.Rand) *thegame.Game {
	t.Helper()
	pub := g.Public()
	own := g.Hand(seat)
	var free []thegame.Card
	for _, c := range thegame.Deck() {
		if !pub.Played.Has(c) && !slices.Contains(own, c) {
			free = append(free, c)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	hands := make([][]thegame.Card, len(pub.HandSizes))
	for s, k := range pub.HandSizes {
		if s == seat {
			hands[s] = own
			continue
		}
		hands[s], free = free[:k:k], free[k:]
	}
	h, err := thegame.Resume(g.Config(), pub, hands, free)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestBotsSeeOnlyTheirSeat plays games and, before every decision, deals
// the cards the deciding seat cannot see anew (the other hands, the order
// of the draw pile) several times: the bot's choice, made afresh, must not
// change.
func TestBotsSeeOnlyTheirSeat(t *testing.T) {
	for _, kind := range Kinds() {
		for _, extreme := range []bool{false, true} {
			for _, n := range []int{1, 2, 4} {
				t.Run(fmt.Sprintf("%s/extreme=%v/%dp", kind, extreme, n), func(t *testing.T) {
					hiddenChanged := 0
					g, err := thegame.NewGame(thegame.Config{Players: n, Extreme: extreme})
					if err != nil {
						t.Fatal(err)
					}
					deck := thegame.Deck()
					r := rand.New(rand.NewPCG(uint64(n), 21))
					r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
					players := make([]Player, n)
					for s := range players {
						players[s], _ = New(kind, true)
					}
					for step := 0; step < 400; step++ {
						if err := g.Feed(deck); err != nil {
							t.Fatal(err)
						}
						if g.Phase() == thegame.PhaseOver {
							break
						}
						s := g.Turn()
						v := g.View(s)
						fresh, _ := New(kind, true)
						act, talk := fresh.Act(&v), fresh.Talk(&v)
						for k := range 3 {
							h := redealOthers(t, g, s, r)
							if h.Phase() != thegame.PhasePlay {
								continue // the new hidden cards ended a turn that could not go on
							}
							for o := range n {
								if o != s && !slices.Equal(h.Hand(o), g.Hand(o)) {
									hiddenChanged++
									break
								}
							}
							w := h.View(s)
							if !reflect.DeepEqual(v, w) {
								t.Fatalf("step %d, redeal %d: the view of seat %d changed with the hidden cards", step, k, s)
							}
							other, _ := New(kind, true)
							if a := other.Act(&w); a != act {
								t.Fatalf("step %d, redeal %d: %s, %s with the cards dealt as they were", step, k, a, act)
							}
							if tk := other.Talk(&w); !reflect.DeepEqual(tk, talk) {
								t.Fatalf("step %d, redeal %d: signals %v, %v with the cards dealt as they were", step, k, tk, talk)
							}
						}
						if g.CanSignal() {
							for _, a := range players[s].Talk(&v) {
								if err := g.Apply(a); err != nil {
									t.Fatal(err)
								}
							}
						}
						v = g.View(s)
						if err := g.Apply(players[s].Act(&v)); err != nil {
							t.Fatal(err)
						}
					}
					if n > 1 && hiddenChanged == 0 {
						t.Fatal("no redeal changed another seat's hand: the test proves nothing")
					}
				})
			}
		}
	}
}
