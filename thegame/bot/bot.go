package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/njetlan/njet/thegame"
)

// Player chooses the actions of one seat.
type Player interface {
	// Name returns the player's kind, e.g. "coop".
	Name() string
	// Act returns the next play or the end of the turn for the seat of v,
	// which is on turn in PhasePlay. It returns the zero Action when the
	// seat has nothing legal.
	Act(v *thegame.View) thegame.Action
	// Talk returns the signals the seat of v puts on the piles now (each a
	// thegame.ActSignal); it is asked between turns.
	Talk(v *thegame.View) []thegame.Action
}

// ErrUnknownKind is wrapped by New for a kind it does not know.
var ErrUnknownKind = errors.New("bot: unknown kind")

// Kinds lists the kinds New accepts.
func Kinds() []string { return []string{"greedy", "coop", "coop-silent", "expert", "expert-silent"} }

// New returns a player of the named kind. signals tells whether the player
// gives and reads signals; greedy never does, and coop-silent and
// expert-silent are coop and expert without signals whatever signals says
// (to measure what they add).
func New(kind string, signals bool) (Player, error) {
	switch strings.ToLower(strings.TrimSpace(kind)) {
	case "greedy":
		return Greedy{}, nil
	case "coop":
		return NewCoop(signals), nil
	case "coop-silent":
		return NewCoop(false), nil
	case "expert":
		return NewExpert(signals), nil
	case "expert-silent":
		return NewExpert(false), nil
	}
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownKind, kind, strings.Join(Kinds(), ", "))
}

// Greedy lays the card that moves a pile the least, a backwards trick
// whenever there is one, and ends the turn as soon as the minimum is down.
type Greedy struct{}

// Name returns "greedy".
func (Greedy) Name() string { return "greedy" }

// Talk gives no signals.
func (Greedy) Talk(*thegame.View) []thegame.Action { return nil }

// Act plays a trick if one fits, else the smallest step on any pile, until
// the turn may end; after that only tricks. In the Extreme game it never
// lays a card after which the turn could not be completed, if it has
// another choice.
func (Greedy) Act(v *thegame.View) thegame.Action {
	p := v.Position()
	canEnd := p.CanEnd()
	best, bestGap, bestSafe := thegame.Action{}, 1<<30, false
	for _, c := range v.Hand {
		for pile := range thegame.NumPiles {
			if !p.CanPlay(c, pile) {
				continue
			}
			gap := p.Piles[pile].Gap(c)
			if canEnd && gap > 0 {
				continue
			}
			q := p
			q.Play(c, pile)
			safe := q.Stopped || q.Feasible()
			if safe && !bestSafe || safe == bestSafe && gap < bestGap {
				best, bestGap, bestSafe = thegame.Action{Kind: thegame.ActPlay, Seat: v.Seat, Card: c, Pile: pile}, gap, safe
			}
		}
	}
	if best.Kind == 0 || canEnd && !bestSafe {
		if canEnd {
			return thegame.Action{Kind: thegame.ActEnd, Seat: v.Seat}
		}
	}
	return best
}
