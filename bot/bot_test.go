package bot_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

func TestNew(t *testing.T) {
	for _, kind := range bot.Kinds() {
		p, err := bot.New(kind, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("New(%q): %v", kind, err)
		}
		if p.Name() != kind {
			t.Errorf("New(%q).Name() = %q", kind, p.Name())
		}
	}
	if _, err := bot.New("genius", nil); !errors.Is(err, bot.ErrUnknownKind) {
		t.Fatalf("New(genius): got %v, want ErrUnknownKind", err)
	}
}

// checked wraps a player and records any action it returns that is not in
// the legal list it was given.
type checked struct {
	bot.Player
	t     *testing.T
	calls int
}

func (c *checked) Act(v *engine.View, legal []engine.Action) engine.Action {
	c.calls++
	a := c.Player.Act(v, legal)
	for _, l := range legal {
		if l == a {
			return a
		}
	}
	c.t.Fatalf("%s returned %+v, not one of %d legal actions in phase %s", c.Name(), a, len(legal), v.Phase)
	return a
}

// playGame drives one game with the given players, dealing from rng, and
// returns the final totals.
func playGame(t *testing.T, e engine.Edition, n int, players []bot.Player, rng *rand.Rand) []int {
	t.Helper()
	g, err := engine.NewGame(engine.Config{Edition: e, Players: n, FirstDealer: rng.IntN(n)})
	if err != nil {
		t.Fatal(err)
	}
	var legal []engine.Action
	for steps := 0; g.Phase() != engine.PhaseGameOver; steps++ {
		if steps > 100000 {
			t.Fatal("the game does not end")
		}
		if p := g.Phase(); p == engine.PhaseDeal || p == engine.PhaseRoundOver {
			deck := e.Deck(n)
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			if err := g.DealDeck(deck); err != nil {
				t.Fatal(err)
			}
			continue
		}
		s := g.Waiting()[0]
		legal = g.AppendLegal(legal[:0], s)
		v := g.View(s)
		if err := g.Apply(players[s].Act(&v, legal)); err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
	}
	return g.Totals()
}

// TestBotsPlayOnlyLegalActions plays games at every table with every kind
// of bot and checks each action against the engine's legal list.
func TestBotsPlayOnlyLegalActions(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}} {
		for _, kind := range bot.Kinds() {
			t.Run(fmt.Sprintf("%s%d/%s", tc.e, tc.n, kind), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(tc.n), 42))
				players := make([]bot.Player, tc.n)
				spec := kind
				if kind == "search" {
					spec = "search:16" // a small budget: legality does not depend on it
				}
				for s := range players {
					p, err := bot.New(spec, rand.New(rand.NewPCG(rng.Uint64(), uint64(s))))
					if err != nil {
						t.Fatal(err)
					}
					players[s] = &checked{Player: p, t: t}
				}
				for range 2 {
					playGame(t, tc.e, tc.n, players, rng)
				}
			})
		}
	}
}

// TestHeuristicDeterministic checks that a seed fixes the heuristic's play.
func TestHeuristicDeterministic(t *testing.T) {
	game := func() []int {
		players := make([]bot.Player, 4)
		for s := range players {
			players[s] = bot.NewHeuristic(rand.New(rand.NewPCG(7, uint64(s))))
		}
		return playGame(t, engine.Modern, 4, players, rand.New(rand.NewPCG(1, 1)))
	}
	a, b := game(), game()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("one seed, two results: %v and %v", a, b)
	}
}

// TestHeuristicBeatsRandom seats two heuristic and two random players (in
// alternating seats, so a start player's partner may be of either kind)
// and compares their average score per round over a few hundred rounds.
func TestHeuristicBeatsRandom(t *testing.T) {
	for _, tc := range []struct {
		e      engine.Edition
		n      int
		games  int
		margin float64 // points per round the heuristic must be ahead by
	}{
		{engine.Classic, 4, 40, 1.5},
		{engine.Modern, 4, 40, 1.5},
		{engine.Modern, 3, 30, 1.5},
		{engine.Modern, 5, 30, 1.0},
	} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2024, uint64(tc.n)))
			var sum [2]float64 // 0: heuristic, 1: random
			var seats [2]int
			rounds := 0
			for game := range tc.games {
				players := make([]bot.Player, tc.n)
				kind := make([]int, tc.n)
				for s := range players {
					kind[s] = (s + game) % 2
					src := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
					if kind[s] == 0 {
						players[s] = bot.NewHeuristic(src)
					} else {
						players[s] = bot.NewRandom(src)
					}
				}
				totals := playGame(t, tc.e, tc.n, players, rng)
				for s, x := range totals {
					sum[kind[s]] += float64(x)
					seats[kind[s]]++
				}
				rounds += roundsOf(tc.e, tc.n)
			}
			perRound := func(k int) float64 { return sum[k] / float64(seats[k]) * float64(tc.games) / float64(rounds) }
			h, r := perRound(0), perRound(1)
			t.Logf("%d rounds: heuristic %.2f, random %.2f points per seat and round", rounds, h, r)
			if h < r+tc.margin {
				t.Fatalf("heuristic %.2f is not ahead of random %.2f by %.1f", h, r, tc.margin)
			}
		})
	}
}

func roundsOf(e engine.Edition, n int) int {
	g, err := engine.NewGame(engine.Config{Edition: e, Players: n})
	if err != nil {
		return 1
	}
	return g.Rounds()
}
