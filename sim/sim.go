package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// ErrStuck is returned when a game does not progress: a seat is awaited but
// has no legal action, or a game runs far longer than any real one.
var ErrStuck = errors.New("sim: the game does not progress")

// maxSteps bounds the actions of one game; the longest real game (Modern 5p,
// ten rounds) needs well under 1000.
const maxSteps = 100000

// Deal shuffles the deck in play for g's edition and player count with rng
// and deals it to the seats (engine DealDeck). g must be in PhaseDeal or
// PhaseRoundOver.
func Deal(g *engine.Game, rng *rand.Rand) error {
	cfg := g.Config()
	deck := cfg.Edition.Deck(cfg.Players)
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	if err := g.DealDeck(deck); err != nil {
		return fmt.Errorf("sim: deal round %d: %w", g.Round(), err)
	}
	return nil
}

// Play drives g to PhaseGameOver: it deals every round with rng and asks
// players[s] for every action of seat s. After each round is scored it calls
// onRound (if not nil) with the round's history; an error from onRound stops
// the game and is returned.
func Play(g *engine.Game, players []bot.Player, rng *rand.Rand, onRound func(engine.RoundHistory) error) error {
	if len(players) != g.Config().Players {
		return fmt.Errorf("sim: %d players for %d seats", len(players), g.Config().Players)
	}
	var legal []engine.Action
	for step := 0; step < maxSteps; step++ {
		before := g.Phase()
		switch before {
		case engine.PhaseGameOver:
			return nil
		case engine.PhaseDeal, engine.PhaseRoundOver:
			if err := Deal(g, rng); err != nil {
				return err
			}
			continue
		}
		waiting := g.Waiting()
		if len(waiting) == 0 {
			return fmt.Errorf("%w: nobody to act in phase %s", ErrStuck, before)
		}
		s := waiting[0]
		legal = g.AppendLegal(legal[:0], s)
		if len(legal) == 0 {
			return fmt.Errorf("%w: seat %d has no legal action in phase %s", ErrStuck, s, before)
		}
		v := g.View(s)
		a := players[s].Act(&v, legal)
		if err := g.Apply(a); err != nil {
			return fmt.Errorf("sim: round %d, seat %d (%s): %w", g.Round(), s, players[s].Name(), err)
		}
		if after := g.Phase(); after == engine.PhaseRoundOver || after == engine.PhaseGameOver {
			if onRound != nil {
				if err := onRound(g.History()); err != nil {
					return err
				}
			}
		}
	}
	return fmt.Errorf("%w: more than %d actions", ErrStuck, maxSteps)
}

// Config describes a batch of simulated games.
type Config struct {
	Edition engine.Edition
	Players int
	Games   int
	// Seed makes the batch reproducible: game g (1-based) uses the random
	// source rand.NewPCG(Seed, g) for its first dealer, its deals and its
	// bots' seeds, so any game can be replayed on its own.
	Seed uint64
	// Bots are bot kinds (bot.New), assigned to seats round-robin: seat s
	// gets Bots[s%len(Bots)]. Empty means "heuristic" in every seat.
	Bots []string
	// Record, when not nil, receives one JSON record per round (docs/record.md).
	Record io.Writer
	// Short plays the Classic short game; Target, when positive, plays until
	// a seat reaches that total (engine.Config).
	Short  bool
	Target int
}

// KindScore sums up the results of the seats played by one bot kind.
type KindScore struct {
	Kind       string
	SeatGames  int     // seats of this kind, summed over games
	SeatRounds int     // seats of this kind, summed over rounds
	Points     int     // points credited to those seats
	Wins       float64 // games won; a shared win counts 1/winners
}

// PerRound is the average score of one seat of this kind in one round.
func (k KindScore) PerRound() float64 {
	if k.SeatRounds == 0 {
		return 0
	}
	return float64(k.Points) / float64(k.SeatRounds)
}

// PerGame is the average final total of one seat of this kind.
func (k KindScore) PerGame() float64 {
	if k.SeatGames == 0 {
		return 0
	}
	return float64(k.Points) / float64(k.SeatGames)
}

// WinRate is the share of this kind's seats that won their game.
func (k KindScore) WinRate() float64 {
	if k.SeatGames == 0 {
		return 0
	}
	return k.Wins / float64(k.SeatGames)
}

// Summary is the outcome of Run.
type Summary struct {
	Games  int
	Rounds int
	// Kinds holds one entry per distinct bot kind, in the order the kinds
	// first appear in Config.Bots.
	Kinds []KindScore
}

// seatKinds expands cfg.Bots to one kind per seat.
func (cfg Config) seatKinds() []string {
	bots := cfg.Bots
	if len(bots) == 0 {
		bots = []string{"heuristic"}
	}
	kinds := make([]string, cfg.Players)
	for s := range kinds {
		kinds[s] = bots[s%len(bots)]
	}
	return kinds
}

// Run plays cfg.Games games and sums up the scores by bot kind.
func Run(cfg Config) (Summary, error) {
	var sum Summary
	if cfg.Games < 0 {
		return sum, fmt.Errorf("sim: %d games", cfg.Games)
	}
	kinds := cfg.seatKinds()
	index := map[string]int{}
	for _, k := range kinds {
		if _, ok := index[k]; !ok {
			if _, err := bot.New(k, rand.New(rand.NewPCG(0, 0))); err != nil {
				return sum, fmt.Errorf("sim: %w", err)
			}
			index[k] = len(sum.Kinds)
			sum.Kinds = append(sum.Kinds, KindScore{Kind: k})
		}
	}
	var enc *json.Encoder
	if cfg.Record != nil {
		enc = json.NewEncoder(cfg.Record)
		enc.SetEscapeHTML(false)
	}
	for game := 1; game <= cfg.Games; game++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(game)))
		g, err := engine.NewGame(engine.Config{
			Edition:     cfg.Edition,
			Players:     cfg.Players,
			FirstDealer: rng.IntN(max(cfg.Players, 1)),
			Short:       cfg.Short,
			Target:      cfg.Target,
		})
		if err != nil {
			return sum, fmt.Errorf("sim: %w", err)
		}
		players := make([]bot.Player, cfg.Players)
		for s, k := range kinds {
			players[s], err = bot.New(k, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
			if err != nil {
				return sum, fmt.Errorf("sim: %w", err)
			}
		}
		onRound := func(h engine.RoundHistory) error {
			sum.Rounds++
			for s, k := range kinds {
				ks := &sum.Kinds[index[k]]
				ks.SeatRounds++
				if s < len(h.Score.Points) {
					ks.Points += h.Score.Points[s]
				}
			}
			if enc == nil {
				return nil
			}
			rec, err := NewRecord(game, g.Config(), h)
			if err != nil {
				return err
			}
			if err := enc.Encode(rec); err != nil {
				return fmt.Errorf("sim: write record: %w", err)
			}
			return nil
		}
		if err := Play(g, players, rng, onRound); err != nil {
			return sum, fmt.Errorf("game %d: %w", game, err)
		}
		sum.Games++
		winners := g.Winners()
		for s, k := range kinds {
			ks := &sum.Kinds[index[k]]
			ks.SeatGames++
			for _, w := range winners {
				if w == s {
					ks.Wins += 1 / float64(len(winners))
				}
			}
		}
	}
	return sum, nil
}
