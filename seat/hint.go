package seat

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// ErrNoHint is wrapped by Hint and TheGameHint when there is nothing to
// hint: no question open, or not the seat's turn.
var ErrNoHint = errors.New("seat: no hint now")

// strongPlayer makes the registry's strong bot of a game.
func strongPlayer(name table.GameName, rng *rand.Rand) (table.Player, error) {
	g, err := games.ByName(name)
	if err != nil {
		return nil, err
	}
	return g.NewPlayer(g.Bots[games.Strong], rng)
}

// Hint returns the answer the strong bot of Njet! would give to the
// prompt p. The bot sees p's view alone, which is the seat's own: its
// hand, its discards and pass, and the public table, never another hand.
// The bot's randomness is seeded from the question and the seat, so the
// same question gets the same hint. The answer is one of p.Legal.
func Hint(p Prompt) (engine.Action, error) {
	if len(p.Legal) == 0 {
		return engine.Action{}, fmt.Errorf("%w: no legal answer", ErrNoHint)
	}
	pl, err := strongPlayer(table.GameNjet, rand.New(rand.NewPCG(p.Seq, uint64(p.View.Seat))))
	if err != nil {
		return engine.Action{}, err
	}
	player, ok := pl.(bot.Player)
	if !ok {
		return engine.Action{}, fmt.Errorf("seat: the strong bot %s does not play Njet!", pl.Name())
	}
	v := p.View
	a := player.Act(&v, p.Legal)
	for _, l := range p.Legal {
		if l == a {
			return a, nil
		}
	}
	return engine.Action{}, fmt.Errorf("%w: the bot chose no legal answer", ErrNoHint)
}

// TheGameHint returns the move the strong bot of The Game would make for
// the seat of v, whose own view it is: a card on a pile, or the end of
// the turn. It is an error when the seat is not on turn.
func TheGameHint(v thegame.View) (thegame.Action, error) {
	if v.Phase != thegame.PhasePlay || v.Turn != v.Seat {
		return thegame.Action{}, fmt.Errorf("%w: not the seat's turn", ErrNoHint)
	}
	pl, err := strongPlayer(table.GameTheGame, rand.New(rand.NewPCG(uint64(v.Turns), uint64(v.Seat))))
	if err != nil {
		return thegame.Action{}, err
	}
	player, ok := pl.(tgbot.Player)
	if !ok {
		return thegame.Action{}, fmt.Errorf("seat: the strong bot %s does not play The Game", pl.Name())
	}
	a := player.Act(&v)
	pos := v.Position()
	switch {
	case a.Kind == thegame.ActPlay && pos.CheckPlay(a.Card, a.Pile) == nil:
		return a, nil
	case a.Kind == thegame.ActEnd && pos.CheckEnd() == nil:
		return a, nil
	}
	return thegame.Action{}, fmt.Errorf("%w: the bot found no move", ErrNoHint)
}
