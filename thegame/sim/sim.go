package sim

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/thegame/bot"
)

// ErrStuck is returned when a game does not progress.
var ErrStuck = errors.New("sim: the game does not progress")

// maxSteps bounds the actions of one game: 98 plays, as many ends and
// draws, and signals between turns stay far below it.
const maxSteps = 20000

// Shuffle returns the 98 cards in an order drawn from rng: deck[i] is the
// i-th card drawn, the deal included.
func Shuffle(rng *rand.Rand) []thegame.Card {
	d := thegame.Deck()
	rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// Play plays g to its end with players[s] in seat s, drawing from deck.
// With signals the players are asked for signals between turns. Every
// action applied is passed to onAction when it is not nil (draws
// excluded: they follow from the deck).
func Play(g *thegame.Game, players []bot.Player, deck []thegame.Card, signals bool, onAction func(thegame.Action)) error {
	n := g.Config().Players
	if len(players) != n {
		return fmt.Errorf("sim: %d players for %d seats", len(players), n)
	}
	apply := func(a thegame.Action) error {
		if err := g.Apply(a); err != nil {
			return fmt.Errorf("sim: turn %d, %s (%s): %w", g.Turns(), a, players[a.Seat].Name(), err)
		}
		if onAction != nil {
			onAction(a)
		}
		return nil
	}
	talked := -1
	for range maxSteps {
		if err := g.Feed(deck); err != nil {
			return err
		}
		if g.Phase() == thegame.PhaseOver {
			return nil
		}
		if signals && talked != g.Turns() {
			talked = g.Turns()
			for s := range n {
				if !g.CanSignal() {
					break
				}
				v := g.View(s)
				for _, a := range players[s].Talk(&v) {
					if err := apply(a); err != nil {
						return err
					}
				}
			}
		}
		s := g.Turn()
		v := g.View(s)
		a := players[s].Act(&v)
		if a.Kind == 0 {
			return fmt.Errorf("%w: seat %d (%s) has no action", ErrStuck, s, players[s].Name())
		}
		if err := apply(a); err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: more than %d actions", ErrStuck, maxSteps)
}

// Config describes a batch of games.
type Config struct {
	Players int
	Extreme bool
	Games   int
	Seed    uint64
	Bot     string // a kind of bot.Kinds, in every seat
	Signals bool   // the bots give and read signals
	Record  io.Writer
}

// Summary sums up a batch.
type Summary struct {
	Games    int
	Left     []int // cards left per game, in order
	Wins     int
	Lost     int // games lost by a command that could not be kept
	MeanLeft float64
	LeftCI   float64 // half-width of the 95% interval of MeanLeft
	WinRate  float64
	WinLow   float64 // the 95% Wilson interval of WinRate: never below 0 or above 1,
	WinHigh  float64 // and wider than zero even when no game or every game is won
}

// Deck returns the deck order of game i (from 0) of a batch with seed: the
// same for every bot, so that batches compare on the same deals.
func Deck(seed uint64, i int) []thegame.Card {
	return Shuffle(rand.New(rand.NewPCG(seed, uint64(i))))
}

// Run plays the batch.
func Run(cfg Config) (Summary, error) {
	if cfg.Games < 1 {
		return Summary{}, fmt.Errorf("sim: %d games, want at least 1", cfg.Games)
	}
	if _, err := bot.New(cfg.Bot, cfg.Signals); err != nil {
		return Summary{}, err
	}
	var sum Summary
	for i := range cfg.Games {
		g, err := thegame.NewGame(thegame.Config{Players: cfg.Players, Extreme: cfg.Extreme})
		if err != nil {
			return Summary{}, err
		}
		players := make([]bot.Player, cfg.Players)
		for s := range players {
			if players[s], err = bot.New(cfg.Bot, cfg.Signals); err != nil {
				return Summary{}, err
			}
		}
		signals := cfg.Signals && !strings.HasSuffix(players[0].Name(), "-silent")
		deck := Deck(cfg.Seed, i)
		var rec *Record
		var onAction func(thegame.Action)
		if cfg.Record != nil {
			rec = newRecord(i+1, g.Config(), players[0].Name(), signals, deck)
			onAction = rec.add
		}
		if err := Play(g, players, deck, signals, onAction); err != nil {
			return Summary{}, fmt.Errorf("game %d: %w", i+1, err)
		}
		r := g.Result()
		if rec != nil {
			rec.finish(r)
			if err := rec.write(cfg.Record); err != nil {
				return Summary{}, err
			}
		}
		sum.Left = append(sum.Left, r.CardsLeft)
		if r.Won {
			sum.Wins++
		}
		if r.Broken != thegame.CmdNone {
			sum.Lost++
		}
	}
	sum.Games = cfg.Games
	sum.MeanLeft, sum.LeftCI = MeanCI(sum.Left)
	sum.WinRate = float64(sum.Wins) / float64(sum.Games)
	sum.WinLow, sum.WinHigh = Wilson(sum.Wins, sum.Games)
	return sum, nil
}

// Wilson returns the 95% Wilson score interval of a share of k successes
// in n trials. Unlike the normal approximation it stays inside 0 to 1 and
// does not shrink to nothing at 0 or n successes: no win in 1,000 games
// still allows a rate up to about 0.4%.
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	const z = 1.96
	p, nn := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	lo, hi = max(0, mid-half), min(1, mid+half)
	if k == 0 {
		lo = 0 // exactly, not a rounding error above it
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// MeanCI returns the mean of xs and the half-width of its 95% interval
// (normal approximation, sample standard deviation).
func MeanCI(xs []int) (mean, half float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += float64(x)
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		d := float64(x) - mean
		ss += d * d
	}
	return mean, 1.96 * math.Sqrt(ss/(n-1)/n)
}

// DiffCI returns the mean of a[i]-b[i] and the half-width of its 95%
// interval: the paired difference of two batches played on the same deals.
func DiffCI(a, b []int) (mean, half float64, err error) {
	if len(a) != len(b) {
		return 0, 0, fmt.Errorf("sim: %d and %d games to compare", len(a), len(b))
	}
	d := make([]int, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	mean, half = MeanCI(d)
	return mean, half, nil
}
