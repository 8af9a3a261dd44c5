package thegame

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// playRandom plays g to the end with uniformly chosen legal actions and
// signals, checking the invariants after every step.
func playRandom(t *testing.T, g *Game, deck []Card, r *rand.Rand) {
	t.Helper()
	for step := 0; step < 10000; step++ {
		if err := g.Feed(deck); err != nil {
			t.Fatal(err)
		}
		if g.Phase() == PhaseOver {
			return
		}
		if err := checkInvariants(g); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if g.CanSignal() && r.IntN(8) == 0 {
			must(t, g, Action{Kind: ActSignal, Seat: r.IntN(g.cfg.Players), Pile: r.IntN(NumPiles), Signal: Signal(r.IntN(int(numSignals)))})
			continue
		}
		legal := g.Legal(g.Turn())
		if len(legal) == 0 {
			t.Fatalf("step %d: seat %d on turn with nothing legal", step, g.Turn())
		}
		must(t, g, legal[r.IntN(len(legal))])
	}
	t.Fatal("the game did not end")
}

func TestWholeGamesEveryPlayerCount(t *testing.T) {
	for _, v := range variants {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%dp", v.name, n), func(t *testing.T) {
				for seed := range uint64(20) {
					deck := shuffled(seed)
					g := dealt(t, Config{Players: n, Extreme: v.extreme}, deck)
					playRandom(t, g, deck, rand.New(rand.NewPCG(seed, 1)))
					r := g.Result()
					if err := checkInvariants(g); err != nil {
						t.Fatal(err)
					}
					if r.CardsLeft != 98-g.played.Len() {
						t.Fatalf("seed %d: %d cards left, %d played", seed, r.CardsLeft, g.played.Len())
					}
					if !v.extreme && r.Broken != CmdNone {
						t.Fatalf("a base game broke %s", r.Broken)
					}
				}
			})
		}
	}
}

// TestG_B7_AscendingDeckIsWon deals the deck in ascending order: every
// player can lay the whole hand on pile 0, so every game is won.
func TestG_B7_AscendingDeckIsWon(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			deck := Deck()
			g := dealt(t, Config{Players: n}, deck)
			for step := 0; g.Phase() != PhaseOver && step < 1000; step++ {
				s := g.Turn()
				if h := g.Hand(s); len(h) > 0 && g.pos.CheckPlay(h[0], 0) == nil {
					must(t, g, play(s, h[0], 0))
				} else {
					must(t, g, end(s))
				}
				if err := g.Feed(deck); err != nil {
					t.Fatal(err)
				}
			}
			if r := g.Result(); !r.Won || r.CardsLeft != 0 || r.Rating() != RatingWon {
				t.Fatalf("result %+v", r)
			}
		})
	}
}
