package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/njetlan/njet/engine"
)

// Player chooses actions for one seat.
type Player interface {
	// Name returns the player's kind, e.g. "heuristic".
	Name() string
	// Act returns one element of legal, the actions the engine allows the
	// seat of v right now. legal must not be empty; Act returns the zero
	// Action if it is.
	Act(v *engine.View, legal []engine.Action) engine.Action
}

// ErrUnknownKind is wrapped by New for a kind name it does not know.
var ErrUnknownKind = errors.New("bot: unknown kind")

// Kinds lists the kind names New accepts.
func Kinds() []string { return []string{"random", "heuristic", "search"} }

// New returns a player of the named kind ("random", "heuristic" or
// "search") that draws its randomness from rng. "search:LEVEL" picks the
// search budget by a level name of SearchLevels or as a number of playouts.
func New(kind string, rng *rand.Rand) (Player, error) {
	k := strings.ToLower(strings.TrimSpace(kind))
	switch k {
	case "random":
		return NewRandom(rng), nil
	case "heuristic":
		return NewHeuristic(rng), nil
	}
	if spec, ok := strings.CutPrefix(k, "search"); ok && (spec == "" || spec[0] == ':') {
		n, err := parseSearch(strings.TrimPrefix(spec, ":"))
		if err != nil {
			return nil, err
		}
		return NewSearch(rng, n), nil
	}
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownKind, kind, strings.Join(Kinds(), ", "))
}

// Random picks a legal action uniformly at random.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a Random player drawing from rng.
func NewRandom(rng *rand.Rand) *Random { return &Random{rng: rng} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Act returns a uniformly chosen element of legal.
func (p *Random) Act(_ *engine.View, legal []engine.Action) engine.Action {
	if len(legal) == 0 {
		return engine.Action{}
	}
	return legal[p.rng.IntN(len(legal))]
}
