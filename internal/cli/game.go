package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	ntable "github.com/njetlan/njet/table"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// gameFlags are the flags that choose a game: --game, the number of
// players, and each game's own: Njet's edition and length (R-END), The
// Game's Extreme command cards.
type gameFlags struct {
	fs      *flag.FlagSet
	game    string
	edition string
	players int
	short   bool
	target  int
	extreme bool
}

// njetOnly and theGameOnly are the flags of one game alone.
var (
	njetOnly    = []string{"edition", "short", "target"}
	theGameOnly = []string{"extreme"}
)

// addGameFlags adds the game flags to fs; pick adds --game, without which
// the game is Njet.
func addGameFlags(fs *flag.FlagSet, pick bool) *gameFlags {
	g := &gameFlags{fs: fs, game: "njet"}
	if pick {
		fs.StringVar(&g.game, "game", "njet", "the game: njet (Njet!) or thegame (The Game)")
	}
	fs.StringVar(&g.edition, "edition", "classic", "Njet's edition: classic or modern")
	fs.IntVar(&g.players, "players", 0, "number of players: Njet classic 3-4, modern 2-5 (default 4);\nThe Game 1-5 (default 2)")
	fs.BoolVar(&g.short, "short", false, "play the Classic short game of Njet (4 rounds with 4 players, 3 with 3)")
	fs.IntVar(&g.target, "target", 0, "play Njet until a player's total reaches this score (0: the edition's number of rounds);\n"+
		"a variant of the Modern rules, a house rule in a Classic game")
	fs.BoolVar(&g.extreme, "extreme", false, "play The Game with the Extreme command cards")
	return g
}

// choice is the game the flags chose, checked.
type choice struct {
	game    *games.Game
	edition engine.Edition // Njet's
	players int
	short   bool // Njet's
	target  int  // Njet's
	extreme bool // The Game's
}

// theGame reports whether the choice is The Game.
func (c choice) theGame() bool { return c.game.Name == ntable.GameTheGame }

// variant is the variant's id in the registry of games.
func (c choice) variant() string {
	switch {
	case !c.theGame():
		return c.edition.String()
	case c.extreme:
		return "extreme"
	}
	return "base"
}

// args spells the choice out again, as a command line would give it.
func (c choice) args() string {
	if c.theGame() {
		s := "--game thegame"
		if c.extreme {
			s += " --extreme"
		}
		return s + fmt.Sprintf(" --players %d", c.players)
	}
	s := fmt.Sprintf("--edition %s --players %d", c.edition, c.players)
	if c.short {
		s += " --short"
	}
	if c.target > 0 {
		s += fmt.Sprintf(" --target %d", c.target)
	}
	return s
}

// set reports which flags of fs the command line gave.
func set(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// parse parses args into the flag set and checks the game flags: it
// returns the game chosen, and the exit code to stop with or -1 to go on.
func (g *gameFlags) parse(args []string) (choice, int) {
	if code := parse(g.fs, args); code >= 0 {
		return choice{}, code
	}
	c, err := g.check()
	if err != nil {
		return choice{}, usageError(g.fs, "%v", err)
	}
	return c, -1
}

// check validates the game flags together.
func (g *gameFlags) check() (choice, error) {
	game, err := games.ByID(g.game)
	if err != nil {
		return choice{}, fmt.Errorf("bad --game %q: want njet or thegame", g.game)
	}
	c := choice{game: game, players: g.players, short: g.short, target: g.target, extreme: g.extreme}
	given := set(g.fs)
	other := njetOnly
	if !c.theGame() {
		other = theGameOnly
	}
	for _, name := range other {
		if given[name] {
			return choice{}, fmt.Errorf("--%s is not a flag of %s", name, game.Title)
		}
	}
	if c.theGame() {
		if !given["players"] {
			c.players = 2
		}
		v, err := game.Variant(c.variant())
		if err != nil {
			return choice{}, err
		}
		if v.CheckPlayers(c.players) != nil {
			return choice{}, fmt.Errorf("bad --players %d: The Game seats %d to %d players", c.players, v.MinPlayers, v.MaxPlayers)
		}
		return c, nil
	}
	if !given["players"] {
		c.players = 4
	}
	e, err := checkEdition(g.edition, c.players)
	if err != nil {
		return choice{}, err
	}
	c.edition = e
	switch {
	case g.short && e != engine.Classic:
		return choice{}, fmt.Errorf("bad --short: the short game is a Classic variant")
	case g.target < 0:
		return choice{}, fmt.Errorf("bad --target %d: want a positive score, or 0 for none", g.target)
	case g.short && g.target > 0:
		return choice{}, fmt.Errorf("bad --short with --target: choose one")
	}
	return c, nil
}

// checkEdition checks Njet's edition and that it seats players.
func checkEdition(edition string, players int) (engine.Edition, error) {
	e, err := engine.ParseEdition(edition)
	if err != nil {
		return 0, fmt.Errorf("bad --edition %q: want classic or modern", edition)
	}
	if players < e.MinPlayers() || players > e.MaxPlayers() {
		return 0, fmt.Errorf("bad --players %d: the %s edition seats %d to %d players", players, e, e.MinPlayers(), e.MaxPlayers())
	}
	return e, nil
}

// botKinds checks a comma-separated list of bot kinds of game g ("": the
// game's normal bot) and returns them in lower case.
func botKinds(g *games.Game, flag, list string, many bool) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return []string{g.Bots[games.Normal]}, nil
	}
	var kinds []string
	for _, k := range strings.Split(list, ",") {
		k = strings.ToLower(strings.TrimSpace(k))
		if err := g.CheckBot(k); err != nil {
			if many {
				return nil, fmt.Errorf("bad --%s entry %q: want one of %s", flag, k, strings.Join(g.Kinds, ", "))
			}
			return nil, fmt.Errorf("bad --%s %q: want one of %s", flag, list, strings.Join(g.Kinds, ", "))
		}
		kinds = append(kinds, k)
	}
	if !many && len(kinds) > 1 {
		return nil, fmt.Errorf("bad --%s %q: want one of %s", flag, list, strings.Join(g.Kinds, ", "))
	}
	return kinds, nil
}

// botUsage documents a flag of bot kinds: what they are, and each game's
// kinds and default.
func botUsage(what, njetDefault string) string {
	return fmt.Sprintf("%s: Njet's %s (default %s);\nThe Game's %s (default coop)", what,
		strings.Join(bot.Kinds(), ", "), njetDefault, strings.Join(tgbot.Kinds(), ", "))
}

// anyBot reports whether kind names a bot of some game: a device that
// joins does not know the table's game before it sits down.
func anyBot(kind string) bool {
	for _, g := range games.All() {
		if !strings.Contains(kind, ",") && g.CheckBot(kind) == nil {
			return true
		}
	}
	return false
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

// theGameOver prints the verified result of a LAN table of The Game.
func (c *cli) theGameOver(r *ntable.TheGameResult) {
	variant := "base"
	if r.Config.Extreme {
		variant = "extreme"
	}
	fmt.Fprintf(c.stdout, "%s, %s, %s: %s left, %s\n", gameOf(ntable.GameTheGame, variant),
		count(r.Config.Players, "player"), count(r.Turns, "turn"), count(r.Result.CardsLeft, "card"), r.Result.Rating().Words())
}
