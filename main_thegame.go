package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/njetlan/njet/term"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	tgsim "github.com/njetlan/njet/thegame/sim"
)

// gameFlagUsage documents --game on play and sim.
const gameFlagUsage = "the game: njet, or thegame (The Game; see its own -h: njet play --game thegame -h)"

// chosenGame returns the value of --game in args ("njet" when absent), so
// that play and sim can hand The Game to its own flags before parsing.
func chosenGame(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "game" {
			continue
		}
		if hasVal {
			return val
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return "njet"
}

// theGameFlags are the flags that choose a game of The Game.
type theGameFlags struct {
	game    string
	players int
	extreme bool
}

func addTheGameFlags(fs *flag.FlagSet) *theGameFlags {
	f := new(theGameFlags)
	fs.StringVar(&f.game, "game", "thegame", "the game: thegame (The Game), or njet for the flags of Njet!")
	fs.IntVar(&f.players, "players", 2, "number of players, 1 to 5")
	fs.BoolVar(&f.extreme, "extreme", false, "play with the Extreme command cards")
	return f
}

func (f *theGameFlags) check() error {
	switch {
	case f.game != "thegame":
		return fmt.Errorf("bad --game %q: want njet or thegame", f.game)
	case f.players < thegame.MinPlayers || f.players > thegame.MaxPlayers:
		return fmt.Errorf("bad --players %d: The Game seats %d to %d players", f.players, thegame.MinPlayers, thegame.MaxPlayers)
	}
	return nil
}

func (f *theGameFlags) variant() string {
	if f.extreme {
		return "The Game Extreme"
	}
	return "The Game"
}

// simTheGame is njet sim --game thegame.
func (c *cli) simTheGame(args []string) int {
	fs := c.flagSet("sim", "--game thegame [--extreme] --players N --games G --seed S --bots greedy|coop|expert[,...] [--signals=false] [--record FILE]",
		"Play games of The Game between bots and print the mean number of cards left and the win\n"+
			"rate, with 95% intervals. With several bot kinds, each plays the same deals and the\n"+
			"difference to the first kind is printed with its 95% interval.")
	tf := addTheGameFlags(fs)
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the batch; the same seed deals the same games")
	bots := fs.String("bots", "coop", "comma list of bot kinds ("+strings.Join(tgbot.Kinds(), ", ")+"), every seat the same kind, one batch each")
	signals := fs.Bool("signals", true, "the bots give and read signals")
	record := fs.String("record", "", "write game records (JSON lines, docs/thegame-record.md) to this file")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if err := tf.check(); err != nil {
		return usageError(fs, "%v", err)
	}
	if *games < 1 {
		return usageError(fs, "bad --games %d: want at least 1", *games)
	}
	var kinds []string
	for _, k := range strings.Split(*bots, ",") {
		k = strings.ToLower(strings.TrimSpace(k))
		if _, err := tgbot.New(k, true); err != nil {
			return usageError(fs, "bad --bots entry %q: want one of %s", k, strings.Join(tgbot.Kinds(), ", "))
		}
		kinds = append(kinds, k)
	}
	var file *os.File
	if *record != "" {
		var err error
		if file, err = os.Create(*record); err != nil {
			fmt.Fprintf(c.stderr, "njet sim: %v\n", err)
			return exitFail
		}
	}
	on := map[bool]string{true: "on", false: "off"}[*signals]
	fmt.Fprintf(c.stdout, "%s, %d player(s), %d games, seed %d, signals %s\n", tf.variant(), tf.players, *games, *seed, on)
	fmt.Fprintf(c.stdout, "%-12s %20s %23s %6s %9s\n", "bot", "mean cards left", "win rate (95% interval)", "lost", "games/s")
	var first []int
	var firstKind string
	var failed error
	for _, k := range kinds {
		cfg := tgsim.Config{Players: tf.players, Extreme: tf.extreme, Games: *games, Seed: *seed, Bot: k, Signals: *signals}
		if file != nil {
			cfg.Record = file
		}
		start := c.now()
		sum, err := tgsim.Run(cfg)
		if err != nil {
			failed = err
			break
		}
		rate := 0.0
		if wall := c.now().Sub(start); wall > 0 {
			rate = float64(*games) / wall.Seconds()
		}
		fmt.Fprintf(c.stdout, "%-12s %11.2f ± %5.2f %6.1f%% (%4.1f-%4.1f%%) %6d %9.0f\n", k, sum.MeanLeft, sum.LeftCI,
			100*sum.WinRate, 100*sum.WinLow, 100*sum.WinHigh, sum.Lost, rate)
		if first == nil {
			first, firstKind = sum.Left, k
			continue
		}
		d, h, err := tgsim.DiffCI(sum.Left, first)
		if err != nil {
			failed = err
			break
		}
		fmt.Fprintf(c.stdout, "%-12s %11.2f ± %5.2f cards left against %s on the same deals\n", "", d, h, firstKind)
	}
	if file != nil {
		if err := file.Close(); failed == nil {
			failed = err
		}
	}
	if failed != nil {
		fmt.Fprintf(c.stderr, "njet sim: %v\n", failed)
		return exitFail
	}
	return exitOK
}

// playTheGame is njet play --game thegame.
func (c *cli) playTheGame(args []string) int {
	fs := c.flagSet("play", "--game thegame [--extreme] [--players N] [--seed S] [--bot coop|expert|greedy]",
		"Play one game of The Game in the terminal with bots: you sit in seat 0.")
	tf := addTheGameFlags(fs)
	seed := fs.Uint64("seed", 0, "seed of the game, to replay one (default: a fresh random seed)")
	kind := fs.String("bot", "coop", "kind of the other players: "+strings.Join(tgbot.Kinds(), " or "))
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if err := tf.check(); err != nil {
		return usageError(fs, "%v", err)
	}
	if _, err := tgbot.New(*kind, true); err != nil {
		return usageError(fs, "bad --bot %q: want one of %s", *kind, strings.Join(tgbot.Kinds(), ", "))
	}
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })
	if !seeded {
		var err error
		if *seed, err = c.freshSeed(); err != nil {
			fmt.Fprintf(c.stderr, "njet play: no random seed: %v\n", err)
			return exitFail
		}
	}
	ext := ""
	if tf.extreme {
		ext = " --extreme"
	}
	fmt.Fprintf(c.stdout, "Seed %d (replay this game with: njet play --game thegame%s --players %d --bot %s --seed %d)\n",
		*seed, ext, tf.players, strings.ToLower(*kind), *seed)
	cfg := term.TheGameConfig{Players: tf.players, Extreme: tf.extreme, Seed: *seed, Bot: strings.ToLower(*kind), Echo: !isTerminal(c.stdin)}
	if err := term.PlayTheGame(cfg, c.stdin, c.stdout); err != nil {
		fmt.Fprintf(c.stderr, "njet play: %v\n", err)
		return exitFail
	}
	return exitOK
}
