package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/njetlan/njet/sim"
	tgsim "github.com/njetlan/njet/thegame/sim"
)

func (c *cli) sim(args []string) int {
	fs := c.flagSet("sim", "[--game njet|thegame] [--edition E | --extreme] --players N --games G --seed S [--bots KIND,...] [--record FILE]",
		"Play games between bots. Njet!: print the average score per bot kind, the kinds assigned to\n"+
			"the seats round-robin. The Game: print the mean number of cards left and the win rate, with\n"+
			"95% intervals; with several bot kinds, each plays the same deals, every seat the same kind,\n"+
			"and the difference to the first kind is printed with its 95% interval.")
	game := addGameFlags(fs, true)
	n := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the batch; the same seed plays the same games")
	bots := fs.String("bots", "", botUsage("comma list of bot kinds", "heuristic"))
	signals := fs.Bool("signals", true, "The Game: the bots give and read signals")
	record := fs.String("record", "", "write game records (JSON lines, docs/record.md, docs/thegame-record.md) to this file")
	g, code := game.parse(args)
	if code >= 0 {
		return code
	}
	if set(fs)["signals"] && !g.theGame() {
		return usageError(fs, "--signals is not a flag of %s", g.game.Title)
	}
	if *n < 1 {
		return usageError(fs, "bad --games %d: want at least 1", *n)
	}
	kinds, err := botKinds(g.game, "bots", *bots, true)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	// records is nil without --record: a nil *os.File would make a Writer
	// that is not.
	var file *os.File
	var records io.Writer
	if *record != "" {
		if file, err = os.Create(*record); err != nil {
			return c.fail("sim", "%v", err)
		}
		records = file
	}
	if g.theGame() {
		err = c.simTheGame(g, *n, *seed, kinds, *signals, records)
	} else {
		err = c.simNjet(sim.Config{Edition: g.edition, Players: g.players, Games: *n, Seed: *seed, Bots: kinds,
			Short: g.short, Target: g.target, Record: records})
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return c.fail("sim", "%v", err)
	}
	return ExitOK
}

// simNjet plays a batch of Njet! and prints its summary.
func (c *cli) simNjet(cfg sim.Config) error {
	start := c.now()
	sum, err := sim.Run(cfg)
	if err != nil {
		return err
	}
	writeSummary(c.stdout, cfg, sum, c.now().Sub(start))
	return nil
}

// simTheGame plays a batch of The Game for each bot kind and prints each
// kind's results, and its difference to the first kind on the same deals.
// The games' records go to records unless it is nil.
func (c *cli) simTheGame(g choice, games int, seed uint64, kinds []string, signals bool, records io.Writer) error {
	title, on := "The Game", map[bool]string{true: "on", false: "off"}[signals]
	if g.extreme {
		title = "The Game Extreme"
	}
	fmt.Fprintf(c.stdout, "%s, %s, %d games, seed %d, signals %s\n", title, count(g.players, "player"), games, seed, on)
	fmt.Fprintf(c.stdout, "%-12s %20s %23s %6s %9s\n", "bot", "mean cards left", "win rate (95% interval)", "lost", "games/s")
	var first []int
	for _, k := range kinds {
		cfg := tgsim.Config{Players: g.players, Extreme: g.extreme, Games: games, Seed: seed, Bot: k, Signals: signals, Record: records}
		start := c.now()
		sum, err := tgsim.Run(cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%-12s %11.2f ± %5.2f %6.1f%% (%4.1f-%4.1f%%) %6d %9.0f\n", k, sum.MeanLeft, sum.LeftCI,
			100*sum.WinRate, 100*sum.WinLow, 100*sum.WinHigh, sum.Lost, perSecond(games, c.now().Sub(start)))
		if first == nil {
			first = sum.Left
			continue
		}
		d, h, err := tgsim.DiffCI(sum.Left, first)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%-12s %11.2f ± %5.2f cards left against %s on the same deals\n", "", d, h, kinds[0])
	}
	return nil
}

// writeSummary prints a Summary as a small table.
func writeSummary(w io.Writer, cfg sim.Config, sum sim.Summary, wall time.Duration) {
	fmt.Fprintf(w, "%s, %d players, seed %d, seats: %s\n", cfg.Edition, cfg.Players, cfg.Seed, strings.Join(cfg.Bots, ","))
	fmt.Fprintf(w, "games %d, rounds %d, wall time %s, %.0f rounds/s\n", sum.Games, sum.Rounds, wall.Round(time.Millisecond),
		perSecond(sum.Rounds, wall))
	fmt.Fprintf(w, "%-10s %11s %10s %10s %9s\n", "bot", "seat-games", "avg/round", "avg/game", "win rate")
	for _, k := range sum.Kinds {
		fmt.Fprintf(w, "%-10s %11d %10.2f %10.1f %8.1f%%\n", k.Kind, k.SeatGames, k.PerRound(), k.PerGame(), 100*k.WinRate())
	}
}

// perSecond is n things done in wall time, per second; 0 when no time
// passed.
func perSecond(n int, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return float64(n) / wall.Seconds()
}
