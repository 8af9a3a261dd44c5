package engine_test

import (
	"fmt"

	"github.com/njetlan/njet/engine"
)

// A round of Classic Njet! for four players, each seat taking its first
// legal action: the deal, the Njet phase, the teams, the discards and the
// tricks, then the score.
func Example() {
	g, err := engine.NewGame(engine.Config{Edition: engine.Classic, Players: 4, FirstDealer: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	// A real table shuffles verifiably; the deck in index order will do here.
	if err := g.DealDeck(engine.Classic.Deck(4)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("first to block: seat", g.Turn())
	for g.Phase() != engine.PhaseRoundOver {
		seat := g.Turn()
		if seat < 0 {
			seat = g.Waiting()[0]
		}
		if err := g.Apply(g.Legal(seat)[0]); err != nil {
			fmt.Println(err)
			return
		}
	}
	h := g.History()
	r := h.Rules
	fmt.Printf("start %s (seat %d), %s, trump %s, supertrump %s, points %d\n",
		r.Start, r.StartSeat, engine.Classic.FieldName(engine.RowDiscard, r.Discard), r.Trump, r.Super, r.Points)
	fmt.Println("teams", h.Teams, "tricks", h.Score.Tricks, "loot", h.Score.Loot)
	fmt.Println("totals", g.Totals())
	// Output:
	// first to block: seat 0
	// start dove (seat 3), discard2, trump green, supertrump none, points 4
	// teams [[0 3] [1 2]] tricks [8 0] loot [0 0]
	// totals [32 0 0 32]
}
