package games

import (
	"fmt"
	"math/rand/v2"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
)

// njet is Njet! (package engine, bots of package bot).
var njet = &Game{
	Name:  table.GameNjet,
	ID:    "njet",
	Title: "Njet!",
	Variants: []Variant{
		edition(engine.Classic, "Classic"),
		edition(engine.Modern, "Modern"),
	},
	Bots:  map[Strength]string{Easy: "random", Normal: "heuristic", Strong: "search"},
	Kinds: bot.Kinds(),
	NewPlayer: func(kind string, rng *rand.Rand) (table.Player, error) {
		return bot.New(kind, rng)
	},
	genesis: func(g *table.Genesis, v Variant, s Setup) error {
		e, err := engine.ParseEdition(v.ID)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrUnknown, err)
		}
		n := len(s.Keys)
		g.Edition, g.Characters = e, e.Characters()[:n]
		g.FirstDealer = s.Rand.IntN(n)
		g.Short, g.Target, g.Rounds = s.Short, s.Target, s.Rounds
		return nil
	},
	variantOf: func(g *table.Genesis) string { return g.Edition.String() },
}

// edition is the variant of a Njet edition: its name is its id and its
// word on a LAN advert.
func edition(e engine.Edition, title string) Variant {
	return Variant{ID: e.String(), Ad: e.String(), Title: title, MinPlayers: e.MinPlayers(), MaxPlayers: e.MaxPlayers()}
}

// Edition returns the Njet edition of a variant id of Njet.
func Edition(variant string) (engine.Edition, error) {
	v, err := njet.Variant(variant)
	if err != nil {
		return 0, err
	}
	return engine.ParseEdition(v.ID)
}
