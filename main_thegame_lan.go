package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/lan"
	ntable "github.com/njetlan/njet/table"
	"github.com/njetlan/njet/term"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// hostTheGame is njet host --game thegame: a LAN table of The Game, the
// host's seat played by its person in the terminal (or by a bot of --bot).
func (c *cli) hostTheGame(args []string) int {
	fs := c.flagSet("host", "--game thegame --name N [--extreme] [--players P] [--bots K] [--bot greedy|coop|expert] [--player NAME] [--data DIR]",
		"Create a table of The Game, advertise it on the LAN (mDNS) and print its join code and\n"+
			"address, wait for players to join (njet join), fill --bots seats with bots hosted here,\n"+
			"and play to the end. You play your seat in the terminal (njet join plays The Game the\n"+
			"same way); with --bot KIND a bot plays it instead (a joining device's Njet bot plays\n"+
			"The Game as coop). The log is exported at the end, and njet verify checks it.")
	name := fs.String("name", "", "name of the table, as others see it")
	game := addTheGameFlags(fs)
	bots := fs.Int("bots", 0, "seats this device fills with bots (the rest wait for players)")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for players")
	lf := addLANFlags(fs)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if err := game.check(); err != nil {
		return usageError(fs, "%v", err)
	}
	switch {
	case strings.TrimSpace(*name) == "":
		return usageError(fs, "--name is required")
	case *bots < 0 || *bots > game.players-1:
		return usageError(fs, "bad --bots %d: want 0 to %d", *bots, game.players-1)
	case *wait <= 0:
		return usageError(fs, "bad --wait %v", *wait)
	case *lf.bot != "" && !isTheGameBot(*lf.bot):
		return usageError(fs, "bad --bot %q: want one of %s", *lf.bot, strings.Join(tgbot.Kinds(), ", "))
	}
	if code := lf.check(fs); code >= 0 {
		return code
	}
	ctx, stop := signalContext()
	defer stop()
	d, err := c.openDevice("host", lf)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet host: %v\n", err)
		return exitFail
	}
	defer d.Close()
	if code := c.resume(ctx, "host", d, lf); code >= 0 {
		return code
	}
	t, err := d.Host(ctx, lan.HostConfig{Name: *name, Game: ntable.GameTheGame, Variant: theGameVariant(game.extreme), Players: game.players,
		Bots: *bots, Wait: *wait, Bot: *lf.bot, Player: *lf.player}, c.progress("host"))
	if err != nil {
		fmt.Fprintf(c.stderr, "njet host: %v\n", err)
		return exitFail
	}
	defer t.Close()
	return c.playTable(ctx, "host", d, t, lf)
}

// isTheGameBot reports whether kind names a bot of The Game.
func isTheGameBot(kind string) bool {
	_, err := tgbot.New(kind, true)
	return err == nil && !strings.Contains(kind, ",")
}

// gameOf names the game of a hosted or advertised table: Njet's edition
// as the command line spells it, or the variant's title.
func gameOf(g ntable.GameName, variant string) string {
	game, err := games.ByName(g)
	if err != nil {
		return variant
	}
	v, err := game.Variant(variant)
	switch {
	case err != nil:
		return variant
	case g == ntable.GameNjet:
		return v.ID
	}
	return v.Title
}

// theGameVariant is the variant of The Game: Extreme or the base game.
func theGameVariant(extreme bool) string {
	if extreme {
		return "extreme"
	}
	return "base"
}

// playTheGamePerson lets the person play their seat of The Game in the
// terminal.
func (c *cli) playTheGamePerson(ctx context.Context, s *lan.TheGameSeat) error {
	err := term.PlayTheGameLAN(ctx, s, !isTerminal(c.stdin), c.stdin, c.stdout)
	if errors.Is(err, term.ErrLeft) {
		return lan.ErrLeft
	}
	return err
}

// theGameOver prints the verified result of a LAN table of The Game.
func (c *cli) theGameOver(r *ntable.TheGameResult) {
	fmt.Fprintf(c.stdout, "%s, %s, %s: %s left, %s\n", gameOf(ntable.GameTheGame, theGameVariant(r.Config.Extreme)),
		count(r.Config.Players, "player"), count(r.Turns, "turn"), count(r.Result.CardsLeft, "card"), r.Result.Rating().Words())
}
