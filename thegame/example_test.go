package thegame_test

import (
	"fmt"

	"github.com/njetlan/njet/thegame"
)

// A solo game dealt from the deck in ascending order: the hand is 2 to 9.
func Example() {
	g, err := thegame.NewGame(thegame.Config{Players: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	deck := thegame.Deck()
	if err := g.Feed(deck); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hand:", g.Hand(0))
	for _, a := range []thegame.Action{
		{Kind: thegame.ActPlay, Seat: 0, Card: 2, Pile: 0},
		{Kind: thegame.ActPlay, Seat: 0, Card: 9, Pile: 2},
		{Kind: thegame.ActEnd, Seat: 0},
	} {
		if err := g.Apply(a); err != nil {
			fmt.Println(err)
		}
	}
	if err := g.Feed(deck); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hand:", g.Hand(0))
	fmt.Println("piles:", g.Piles()[0].Top, g.Piles()[2].Top, "draw pile:", g.DrawPile())
	// Output:
	// hand: [2 3 4 5 6 7 8 9]
	// hand: [3 4 5 6 7 8 10 11]
	// piles: 2 9 draw pile: 88
}
