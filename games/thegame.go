package games

import (
	"math/rand/v2"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// theGame is The Game (package thegame, bots of package thegame/bot): the
// base game and its Extreme with the command cards.
var theGame = &Game{
	Name:  table.GameTheGame,
	ID:    "thegame",
	Title: "The Game",
	Variants: []Variant{
		{ID: "base", Ad: "thegame", Title: "The Game", MinPlayers: thegame.MinPlayers, MaxPlayers: thegame.MaxPlayers},
		{ID: "extreme", Ad: "thegame-extreme", Title: "The Game Extreme", MinPlayers: thegame.MinPlayers, MaxPlayers: thegame.MaxPlayers},
	},
	// The expert plays the strong seats; saved tables that name coop keep
	// it.
	Bots:  map[Strength]string{Easy: "greedy", Normal: "coop", Strong: "expert"},
	Kinds: tgbot.Kinds(),
	NewPlayer: func(kind string, _ *rand.Rand) (table.Player, error) {
		return tgbot.New(kind, true)
	},
	genesis: func(g *table.Genesis, v Variant, _ Setup) error {
		if v.ID == "extreme" {
			g.Extreme, g.Commands = true, thegame.AssignmentVersion
		}
		return nil
	},
	variantOf: func(g *table.Genesis) string {
		if g.Extreme {
			return "extreme"
		}
		return "base"
	},
}
