// Command njet plays Njet! on a LAN, in a terminal, or between bots.
//
// Usage:
//
//	njet                  opens the app (a window; see appmode.go)
//	njet <command> [flags]
//
// Each command is a function with its own flag.FlagSet, listed in commands;
// adding a command means writing one such function and one line there.
package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"github.com/njetlan/njet/games"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/lan"
	"github.com/njetlan/njet/sim"
	ntable "github.com/njetlan/njet/table"
	"github.com/njetlan/njet/term"
	"github.com/njetlan/njet/words"
)

func main() {
	c := newCLI(os.Stdin, os.Stdout, os.Stderr)
	c.window = true
	os.Exit(c.run(os.Args[1:]))
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and failed
	exitUsage = 2 // bad command line
)

// cli is the command line's environment: its streams, the source of fresh
// seeds and the clock, so that tests can replace them.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	freshSeed      func() (uint64, error)
	now            func() time.Time
	// window is set when no command opens the app; otherwise no command
	// prints the usage.
	window bool
}

func newCLI(stdin io.Reader, stdout, stderr io.Writer) *cli {
	return &cli{stdin: stdin, stdout: stdout, stderr: stderr, freshSeed: cryptoSeed, now: time.Now}
}

// run runs the command line args (without the program name) with no input
// and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	return newCLI(strings.NewReader(""), stdout, stderr).run(args)
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) int
}

// commands lists the subcommands in the order the usage shows them.
var commands = []command{
	{"play", "play in the terminal against bots", (*cli).play},
	{"sim", "play many games between bots and sum up the scores", (*cli).sim},
	{"duel", "play two bot kinds against each other in duplicate and compare their scores", (*cli).duel},
	{"selfplay", "play a replicated table of bot peers in one process and export their logs", (*cli).selfplay},
	{"verify", "re-check an exported table log offline", (*cli).verify},
	{"host", "create a table on the LAN, advertise it and play, bots in the empty seats", (*cli).host},
	{"join", "find a table on the LAN (or by address or join code) and take a seat; or watch one\n           under way, and take a seat a bot plays (seated in the lobby or since its device left)", (*cli).join},
	{"tables", "list the tables advertised on the LAN", (*cli).tables},
}

// usage prints the commands to w: stdout when asked for (help, -h), stderr
// after a mistake.
func (c *cli) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: njet [--size WxH]       open the app (a window)\n       njet <command> [flags]\n\nCommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nThe app's flag:\n  --size WxH  the window's size in pixels, e.g. 360x740 for a phone held upright\n")
	fmt.Fprintf(w, "\nRun \"njet <command> -h\" for the flags of a command.\n")
}

func (c *cli) run(args []string) int {
	switch {
	case len(args) > 0 && asksHelp(args[:1]) || len(args) > 0 && args[0] == "help":
		c.usage(c.stdout)
		return exitOK
	case c.window && (len(args) == 0 || strings.HasPrefix(args[0], "-")):
		return c.app(args) // no command: the app
	case len(args) == 0:
		c.usage(c.stderr)
		return exitUsage
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "njet: unknown command %q\n\n", args[0])
	c.usage(c.stderr)
	return exitUsage
}

// asksHelp reports whether args ask for help (before a "--").
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}

// usageOut is a flag set's output: the usage goes to stdout when the
// command line asked for it, everything else to stderr.
type usageOut struct {
	stdout, stderr io.Writer
	help           bool
}

func (u *usageOut) Write(p []byte) (int, error) {
	if u.help {
		return u.stdout.Write(p)
	}
	return u.stderr.Write(p)
}

// flagSet returns a FlagSet for a subcommand that reports errors to stderr.
func (c *cli) flagSet(name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(&usageOut{stdout: c.stdout, stderr: c.stderr})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: njet %s %s\n\n%s\n\nFlags:\n", name, args, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args into fs and returns the exit code to stop with, or -1
// to go on.
func parse(fs *flag.FlagSet, args []string) int {
	if u, ok := fs.Output().(*usageOut); ok {
		u.help = asksHelp(args)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "njet %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	return -1
}

// usageError reports a bad flag value with the command's usage.
func usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "njet %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitUsage
}

// gameFlags are the flags that choose a game: the edition, the number of
// players and the length of the game (R-END).
type gameFlags struct {
	edition string
	players int
	short   bool
	target  int
}

// addGameFlags adds the game flags to fs.
func addGameFlags(fs *flag.FlagSet) *gameFlags {
	g := new(gameFlags)
	fs.StringVar(&g.edition, "edition", "classic", "edition: classic or modern")
	fs.IntVar(&g.players, "players", 4, "number of players (classic 3-4, modern 2-5)")
	fs.BoolVar(&g.short, "short", false, "play the Classic short game (4 rounds with 4 players, 3 with 3)")
	fs.IntVar(&g.target, "target", 0, "play until a player's total reaches this score (0: the edition's number of rounds);\n"+
		"a variant of the Modern rules, a house rule in a Classic game")
	return g
}

// args spells the game flags out again, as a command line would give them.
func (g *gameFlags) args(e engine.Edition) string {
	s := fmt.Sprintf("--edition %s --players %d", e, g.players)
	if g.short {
		s += " --short"
	}
	if g.target > 0 {
		s += fmt.Sprintf(" --target %d", g.target)
	}
	return s
}

// check validates the game flags together and returns the edition.
func (g *gameFlags) check() (engine.Edition, error) {
	e, err := engine.ParseEdition(g.edition)
	if err != nil {
		return 0, fmt.Errorf("bad --edition %q: want classic or modern", g.edition)
	}
	switch {
	case g.players < e.MinPlayers() || g.players > e.MaxPlayers():
		return 0, fmt.Errorf("bad --players %d: the %s edition seats %d to %d players", g.players, e, e.MinPlayers(), e.MaxPlayers())
	case g.short && e != engine.Classic:
		return 0, fmt.Errorf("bad --short: the short game is a Classic variant")
	case g.target < 0:
		return 0, fmt.Errorf("bad --target %d: want a positive score, or 0 for none", g.target)
	case g.short && g.target > 0:
		return 0, fmt.Errorf("bad --short with --target: choose one")
	}
	return e, nil
}

// botKinds checks a comma-separated list of bot kinds.
func botKinds(list string) ([]string, error) {
	var kinds []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if _, err := bot.New(k, nil); err != nil {
			return nil, fmt.Errorf("bad --bots entry %q: want one of %s", k, strings.Join(bot.Kinds(), ", "))
		}
		kinds = append(kinds, strings.ToLower(k))
	}
	return kinds, nil
}

// isTerminal reports whether r is a character device such as a terminal,
// which shows what is typed without the program's help.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// cryptoSeed draws a fresh seed for a game nobody asked to replay.
func cryptoSeed() (uint64, error) {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

func (c *cli) play(args []string) int {
	if chosenGame(args) == "thegame" {
		return c.playTheGame(args)
	}
	fs := c.flagSet("play", "[--game njet|thegame] [--edition classic|modern] [--players N] [--seed S] [--bot heuristic|random]",
		"Play one game in the terminal against bots: you sit in seat 0.")
	gameName := fs.String("game", "njet", gameFlagUsage)
	game := addGameFlags(fs)
	seed := fs.Uint64("seed", 0, "seed of the game, to replay one (default: a fresh random seed)")
	kind := fs.String("bot", "heuristic", "kind of the other players: "+strings.Join(bot.Kinds(), " or "))
	if code := parse(fs, args); code >= 0 {
		return code
	}
	e, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *gameName != "njet" {
		return usageError(fs, "bad --game %q: want njet or thegame", *gameName)
	}
	if _, err := botKinds(*kind); err != nil || strings.Contains(*kind, ",") {
		return usageError(fs, "bad --bot %q: want one of %s", *kind, strings.Join(bot.Kinds(), ", "))
	}
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })
	if !seeded {
		if *seed, err = c.freshSeed(); err != nil {
			fmt.Fprintf(c.stderr, "njet play: no random seed: %v\n", err)
			return exitFail
		}
	}
	fmt.Fprintf(c.stdout, "Seed %d (replay this game with: njet play %s --bot %s --seed %d)\n",
		*seed, game.args(e), strings.ToLower(*kind), *seed)
	cfg := term.Config{Edition: e, Players: game.players, Seed: *seed, Bot: strings.ToLower(*kind),
		Echo: !isTerminal(c.stdin), Short: game.short, Target: game.target}
	if err := term.Play(cfg, c.stdin, c.stdout); err != nil {
		fmt.Fprintf(c.stderr, "njet play: %v\n", err)
		return exitFail
	}
	return exitOK
}

func (c *cli) sim(args []string) int {
	if chosenGame(args) == "thegame" {
		return c.simTheGame(args)
	}
	fs := c.flagSet("sim", "[--game njet|thegame] --edition E --players N --games G --seed S [--bots random,heuristic,...] [--record FILE]",
		"Play games between bots and print the average score per bot kind.")
	gameName := fs.String("game", "njet", gameFlagUsage)
	game := addGameFlags(fs)
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the batch; the same seed plays the same games")
	bots := fs.String("bots", "heuristic", "comma list of bot kinds, assigned to seats round-robin")
	record := fs.String("record", "", "write game records (JSON lines, docs/record.md) to this file")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	e, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *gameName != "njet" {
		return usageError(fs, "bad --game %q: want njet or thegame", *gameName)
	}
	if *games < 1 {
		return usageError(fs, "bad --games %d: want at least 1", *games)
	}
	kinds, err := botKinds(*bots)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	cfg := sim.Config{Edition: e, Players: game.players, Games: *games, Seed: *seed, Bots: kinds,
		Short: game.short, Target: game.target}
	var file *os.File
	if *record != "" {
		if file, err = os.Create(*record); err != nil {
			fmt.Fprintf(c.stderr, "njet sim: %v\n", err)
			return exitFail
		}
		cfg.Record = file
	}
	start := c.now()
	sum, err := sim.Run(cfg)
	wall := c.now().Sub(start)
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "njet sim: %v\n", err)
		return exitFail
	}
	writeSummary(c.stdout, cfg, sum, wall)
	return exitOK
}

// writeSummary prints a Summary as a small table.
func writeSummary(w io.Writer, cfg sim.Config, sum sim.Summary, wall time.Duration) {
	rate := 0.0
	if wall > 0 {
		rate = float64(sum.Rounds) / wall.Seconds()
	}
	fmt.Fprintf(w, "%s, %d players, seed %d, seats: %s\n", cfg.Edition, cfg.Players, cfg.Seed, strings.Join(cfg.Bots, ","))
	fmt.Fprintf(w, "games %d, rounds %d, wall time %s, %.0f rounds/s\n", sum.Games, sum.Rounds, wall.Round(time.Millisecond), rate)
	fmt.Fprintf(w, "%-10s %11s %10s %10s %9s\n", "bot", "seat-games", "avg/round", "avg/game", "win rate")
	for _, k := range sum.Kinds {
		fmt.Fprintf(w, "%-10s %11d %10.2f %10.1f %8.1f%%\n", k.Kind, k.SeatGames, k.PerRound(), k.PerGame(), 100*k.WinRate())
	}
}

func (c *cli) selfplay(args []string) int {
	fs := c.flagSet("selfplay", "--edition E --players N [--rounds R] [--seed S] [--bot K] --out DIR",
		"Play a table of bot peers, each with its own store, over an in-memory network, and write\n"+
			"each peer's exported log to DIR/seat-N.njetlog. Prints each round's scores and each\n"+
			"peer's final log hash; all peers must agree.")
	game := addGameFlags(fs)
	rounds := fs.Int("rounds", 0, "end the game after this many rounds (0: the whole game)")
	seed := fs.Uint64("seed", 1, "seed of the keys, deals and bots")
	kind := fs.String("bot", "random", "kind of the bots: "+strings.Join(bot.Kinds(), " or "))
	out := fs.String("out", "", "directory for the stores and the exported logs")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	e, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *rounds < 0 || *rounds > 255 {
		return usageError(fs, "bad --rounds %d: want 0 to 255", *rounds)
	}
	if _, err := botKinds(*kind); err != nil || strings.Contains(*kind, ",") {
		return usageError(fs, "bad --bot %q: want one of %s", *kind, strings.Join(bot.Kinds(), ", "))
	}
	if *out == "" {
		return usageError(fs, "--out is required")
	}
	njet, err := games.ByName(ntable.GameNjet)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet selfplay: %v\n", err)
		return exitFail
	}
	sp, err := ntable.NewSelfplay(ntable.SelfplayConfig{Edition: e, Players: game.players, Rounds: *rounds, Seed: *seed,
		Short: game.short, Target: game.target, Dir: filepath.Join(*out, "stores"), Bot: strings.ToLower(*kind),
		NewPlayer: njet.NewPlayer})
	if err == nil {
		err = sp.Run(context.Background())
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "njet selfplay: %v\n", err)
		return exitFail
	}
	outcomes := sp.Outcomes()
	for _, r := range outcomes[0].Results {
		fmt.Fprintf(c.stdout, "round %d (dealer seat %d): points %v, totals %v\n", r.Round, r.Dealer, r.Points, r.Totals)
	}
	code := exitOK
	for _, o := range outcomes {
		path := filepath.Join(*out, fmt.Sprintf("seat-%d.njetlog", o.Seat))
		head, err := sp.Export(o.Seat, path)
		if err != nil {
			fmt.Fprintf(c.stderr, "njet selfplay: export seat %d: %v\n", o.Seat, err)
			return exitFail
		}
		fmt.Fprintf(c.stdout, "seat %d: %d envelopes, log hash %v, %s\n", o.Seat, o.Next, head, path)
		if o.Violation != nil {
			fmt.Fprintf(c.stderr, "njet selfplay: seat %d halted: %v\n", o.Seat, o.Violation)
			code = exitFail
		}
		if head != outcomes[0].Head {
			fmt.Fprintf(c.stderr, "njet selfplay: seat %d ends with another log than seat 0\n", o.Seat)
			code = exitFail
		}
	}
	return code
}

func (c *cli) verify(args []string) int {
	fs := c.flagSet("verify", "FILE",
		"Re-check an exported table log offline: signatures, chain, every proof, every rule\n"+
			"(reneges and discards included) and every score. Prints each round's result and\n"+
			"exits non-zero with the first failure.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageError(fs, "want one FILE")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(c.stderr, "njet verify: %v\n", err)
		return exitFail
	}
	defer f.Close()
	last := time.Now()
	v, err := ntable.VerifyReader(f, func(envelopes, bytes int64) {
		if now := time.Now(); now.Sub(last) >= 2*time.Second {
			last = now
			fmt.Fprintf(c.stderr, "njet verify: %d envelopes checked, %d MB read\n", envelopes, bytes>>20)
		}
	})
	if v != nil {
		for _, viol := range v.Voided {
			fmt.Fprintf(c.stdout, "a round was voided: %v\n", viol)
		}
		for _, r := range v.Results {
			fmt.Fprintf(c.stdout, "round %d (dealer seat %d): points %v, totals %v: verified\n", r.Round, r.Dealer, r.Points, r.Totals)
		}
		for _, h := range v.HandedBack {
			fmt.Fprintf(c.stdout, "seat %d was handed from its bot to device %v at seq %d\n", h.Seat, h.Key, h.Seq)
		}
		if tg := v.TheGame; tg != nil {
			variant := "base game"
			if tg.Config.Extreme {
				variant = "Extreme"
			}
			fmt.Fprintf(c.stdout, "The Game (%s), %s, %s: %s left, %s: verified\n",
				variant, count(tg.Config.Players, "player"), count(tg.Turns, "turn"), count(tg.Result.CardsLeft, "card"), tg.Result.Rating().Words())
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "njet verify: %s: %v\n", fs.Arg(0), err)
		return exitFail
	}
	state := "the game is not over"
	if v.Over {
		state = "the game is over"
	}
	if v.Unverified != nil {
		state += fmt.Sprintf(", its result not verified (%v)", v.Unverified)
	}
	if v.TheGame != nil || v.Genesis != nil && v.Genesis.Game == ntable.GameTheGame {
		fmt.Fprintf(c.stdout, "%s: table %v of The Game, %s, %s\n", fs.Arg(0), shownID(v), count(v.Envelopes, "envelope"), state)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "%s: table %v, %s, %s verified, %s\n", fs.Arg(0), shownID(v), count(v.Envelopes, "envelope"), count(len(v.Results), "round"), state)
	return exitOK
}

// lanFlags are the flags that host and join share.
type lanFlags struct {
	data   *string
	bot    *string
	export *string
	listen *string
	linger *time.Duration
	player *string
}

func addLANFlags(fs *flag.FlagSet) *lanFlags {
	return &lanFlags{
		data: fs.String("data", defaultDataDir(), "data directory of this device: identity key and game store"),
		bot: fs.String("bot", "", "let a bot of this kind ("+strings.Join(bot.Kinds(), " or ")+") play this device's seat;\n"+
			"without it you play the seat yourself, in the terminal"),
		export: fs.String("export", "", "write the table's log here when the game ends (default DATA/<table id>.njetlog)"),
		listen: fs.String("listen", "", "comma list of multiaddrs to listen on (default: every interface, TCP and QUIC)"),
		linger: fs.Duration("linger", 30*time.Second, "how long a finished device keeps serving the log to members still catching up"),
		player: fs.String("player", "", "your player name, shown to the table in place of your seat (at most 24 characters)"),
	}
}

// defaultDataDir is njet's directory in the user's config directory.
func defaultDataDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ".njet"
	}
	return filepath.Join(dir, "njet")
}

// check validates the shared flags.
func (f *lanFlags) check(fs *flag.FlagSet) int {
	if _, err := botKinds(*f.bot); *f.bot != "" && (err != nil || strings.Contains(*f.bot, ",")) && !isTheGameBot(*f.bot) {
		return usageError(fs, "bad --bot %q: want one of %s", *f.bot, strings.Join(bot.Kinds(), ", "))
	}
	if *f.data == "" {
		return usageError(fs, "--data must not be empty")
	}
	if *f.linger <= 0 {
		return usageError(fs, "bad --linger %v: want a positive duration", *f.linger)
	}
	player, err := ntable.CheckName(*f.player)
	if err != nil {
		return usageError(fs, "bad --player: %v", err)
	}
	*f.player = player
	return -1
}

// openDevice opens the device in --data, listening on --listen, and prints
// its id.
func (c *cli) openDevice(name string, f *lanFlags) (*lan.Device, error) {
	var listen []string
	if *f.listen != "" {
		listen = strings.Split(*f.listen, ",")
	}
	d, err := lan.OpenDevice(*f.data, listen)
	if err != nil {
		return nil, err
	}
	if dmg := d.Damage(); dmg != nil {
		fmt.Fprintf(c.stderr, "njet %s: %s\n", name, dmg)
	}
	fmt.Fprintf(c.stdout, "njet %s: device %v\n", name, d.ID())
	return d, nil
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer signal.Stop(sig) // a second Ctrl-C ends the process at once
		select {
		case <-sig:
			cancel(errStopped)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

// errStopped is why a LAN command ends on Ctrl-C or SIGTERM.
var errStopped = errors.New("stopped; the device keeps the table in its store, and the same command goes on with it")

// why is what a person reads for err from a flow under ctx: why ctx ended
// (stopped by a signal, a wait that ran out) rather than a bare "context
// canceled".
func why(ctx context.Context, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		if c := context.Cause(ctx); c != nil && c != ctx.Err() {
			return c
		}
	}
	return err
}

func (c *cli) host(args []string) int {
	if chosenGame(args) == "thegame" {
		return c.hostTheGame(args)
	}
	fs := c.flagSet("host", "[--game njet|thegame] --name N [--edition E] [--players P] [--bots K] [--bot KIND] [--player NAME] [--rounds R] [--clock D] [--data DIR]",
		"Create a table, advertise it on the LAN (mDNS) and print its join code and address, wait\n"+
			"for players to join, fill --bots seats with bots hosted here, and play to the end.\n"+
			"You play seat 0 in the terminal; with --bot KIND a bot plays it instead.\n"+
			"A device with an unfinished table in its store resumes it instead (as a person or a bot,\n"+
			"as --bot says this time).")
	name := fs.String("name", "", "name of the table, as others see it")
	gameName := fs.String("game", "njet", "the game: njet, or thegame (The Game; see njet host --game thegame -h)")
	game := addGameFlags(fs)
	bots := fs.Int("bots", 0, "seats this device fills with bots (the rest wait for players)")
	rounds := fs.Int("rounds", 0, "end the game after this many rounds (0: the whole game)")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for players")
	clock := fs.Duration("clock", 0, "the table's clock: how long a person has for each move before their bot\nmakes it for them (0: no clock, people take the time they like)")
	lf := addLANFlags(fs)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *gameName != "njet" {
		return usageError(fs, "bad --game %q: want njet or thegame", *gameName)
	}
	e, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	players := &game.players
	switch {
	case strings.TrimSpace(*name) == "":
		return usageError(fs, "--name is required")
	case *bots < 0 || *bots > *players-1:
		return usageError(fs, "bad --bots %d: want 0 to %d", *bots, *players-1)
	case *rounds < 0 || *rounds > 255:
		return usageError(fs, "bad --rounds %d: want 0 to 255", *rounds)
	case *wait <= 0:
		return usageError(fs, "bad --wait %v", *wait)
	case *clock < 0 || *clock > ntable.MaxClock*time.Second || *clock%time.Second != 0 || *clock > 0 && *clock < 5*time.Second:
		return usageError(fs, "bad --clock %v: want whole seconds from 5s to %v, or 0", *clock, ntable.MaxClock*time.Second)
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
	t, err := d.Host(ctx, lan.HostConfig{Name: *name, Variant: e.String(), Players: *players, Bots: *bots,
		Short: game.short, Target: game.target, Rounds: *rounds, Clock: int(*clock / time.Second), Wait: *wait, Bot: *lf.bot,
		Player: *lf.player}, c.progress("host"))
	if err != nil {
		fmt.Fprintf(c.stderr, "njet host: %v\n", why(ctx, err))
		return exitFail
	}
	defer t.Close()
	return c.playTable(ctx, "host", d, t, lf)
}

// progress prints how hosting or joining a table goes: for a host, its
// join codes and addresses, a code per LAN address, and every IPv4 TCP
// address (loopback ones too, for players on this machine: njet join
// --addr).
func (c *cli) progress(name string) func(lan.Progress) {
	return func(p lan.Progress) {
		switch p := p.(type) {
		case lan.NotAdvertised:
			fmt.Fprintf(c.stderr, "njet %s: not advertised on the LAN (join by code or address): %v\n", name, p.Err)
		case lan.Hosting:
			fmt.Fprintf(c.stdout, "table %q (%v), %s, %s, %s\n", p.Name, p.ID, gameOf(p.Game, p.Variant), count(p.Players, "player"), count(p.Bots, "bot"))
			for _, a := range p.Addrs {
				if a.Code != "" {
					fmt.Fprintf(c.stdout, "join code %s (njet join --code %s)\n", a.Code, a.Code)
				}
				fmt.Fprintf(c.stdout, "address %v\n", a.Addr)
			}
		case lan.Waiting:
			fmt.Fprintf(c.stdout, "waiting for players %d/%d…%s\n", p.Seated, p.Wanted, seatedNames(p))
		case lan.Contacting:
			fmt.Fprintf(c.stdout, "contacting %v…\n", p.Addr)
		case lan.Looking:
			fmt.Fprintf(c.stdout, "looking for tables…\n")
		case lan.Found:
			fmt.Fprintf(c.stdout, "found table %q (%v) at %v\n", p.Ad.Name, p.Ad.ID, p.Ad.Peer)
		}
	}
}

// seatedNames lists the named players and the bots of a lobby, after a
// colon, or says nothing when it has neither.
func seatedNames(w lan.Waiting) string {
	var parts []string
	for _, n := range w.Players {
		if n != "" {
			parts = append(parts, n)
		}
	}
	if len(w.Bots) > 0 {
		parts = append(parts, count(len(w.Bots), "bot"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, ", ")
}

// resume plays an unfinished table from the store, if there is one; it
// returns -1 when there is none.
func (c *cli) resume(ctx context.Context, name string, d *lan.Device, lf *lanFlags) int {
	// The flags say who plays the device's own seat this time.
	t, err := d.Resume(*lf.bot)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet %s: %v\n", name, err)
		return exitFail
	}
	if t == nil {
		return -1
	}
	fmt.Fprintf(c.stdout, "resuming table %v from the store\n", t.Lobby())
	defer t.Close()
	return c.playTable(ctx, name, d, t, lf)
}

// playTable plays the device's seats to the end of the game, the person's
// in the terminal, and exports the log.
func (c *cli) playTable(ctx context.Context, name string, d *lan.Device, t *lan.Table, lf *lanFlags) int {
	out, err := d.Play(ctx, t, lan.PlayConfig{Linger: *lf.linger, Person: c.playPerson,
		TheGamePerson: c.playTheGamePerson}, c.showPlay)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet %s: %v\n", name, why(ctx, err))
		return exitFail
	}
	if out.CloseErr != nil {
		fmt.Fprintf(c.stderr, "njet %s: %v\n", name, out.CloseErr)
	}
	if out.Left {
		return exitOK
	}
	path := *lf.export
	if path == "" {
		path = d.LogPath(t.Lobby())
	}
	if err := d.Export(t.ID(), path); err != nil {
		fmt.Fprintf(c.stderr, "njet %s: export: %v\n", name, err)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "%d envelopes, log hash %v, exported to %s\n", out.Envelopes, out.Head, path)
	if !out.Over {
		fmt.Fprintf(c.stderr, "njet %s: the game did not end: %s\n", name, out.Waiting)
		return exitFail
	}
	if err := d.MarkOver(t.ID()); err != nil {
		fmt.Fprintf(c.stderr, "njet %s: %v\n", name, err)
		return exitFail
	}
	if out.TheGame != nil {
		c.theGameOver(out.TheGame)
	}
	fmt.Fprintf(c.stdout, "the game is over\n")
	return exitOK
}

// showPlay prints the table's progress.
func (c *cli) showPlay(e lan.Event) {
	switch e := e.(type) {
	case lan.Playing:
		if e.Bot == "" {
			fmt.Fprintf(c.stdout, "you play seat %d\n", e.Seat)
		} else {
			fmt.Fprintf(c.stdout, "a %s bot plays seat %d\n", e.Bot, e.Seat)
		}
	case lan.Shuffling:
		fmt.Fprintf(c.stdout, "shuffling…\n")
	case lan.RoundOver:
		fmt.Fprintf(c.stdout, "round %d: points %v, totals %v\n", e.Result.Round, e.Result.Points, e.Result.Totals)
	case lan.Violation:
		fmt.Fprintf(c.stdout, "violation: %v\n", e.Err)
	case lan.SeatTakenOver:
		fmt.Fprintf(c.stdout, "%s\n", takenOverWords(e))
	case lan.CatchingUp:
		fmt.Fprintf(c.stdout, "waiting for the other devices to catch up…\n")
	case lan.SecretsLost:
		fmt.Fprintf(c.stdout, "this device lost its secrets for this round (its store was damaged): its seat stays silent until the table voids the round\n")
	}
}

// takenOverWords says in a person's words why a bot plays a seat now.
func takenOverWords(e lan.SeatTakenOver) words.Msg {
	name := words.Plain(e.Name)
	if e.Name == "" {
		name = words.Plain(fmt.Sprintf("seat %d", e.Fault.Seat))
	}
	switch {
	case e.Fault.Check == ntable.CheckSilent && e.Abandoned:
		return words.DeviceLeftAtTwo(name)
	case e.Fault.Check == ntable.CheckSilent:
		return words.DeviceLeft(name)
	case e.Fault.Check == ntable.CheckWithheld:
		return words.RevealWithheld(name)
	}
	return words.Plain(fmt.Sprintf("a round was voided and a bot plays seat %d now: %v", e.Fault.Seat, e.Fault))
}

// playPerson lets the person play their seat in the terminal.
func (c *cli) playPerson(ctx context.Context, s lan.PersonSeat) error {
	err := term.PlayLAN(ctx, term.LANConfig{Seat: s.Seat, Peer: s.Peer, Changed: s.Changed, Echo: !isTerminal(c.stdin),
		Rounds: s.Rounds, Names: s.Names}, c.stdin, c.stdout)
	if errors.Is(err, term.ErrLeft) {
		return lan.ErrLeft
	}
	return err
}

func (c *cli) join(args []string) int {
	fs := c.flagSet("join", "[--table ID | --addr A | --code C] [--bot KIND] [--player NAME] [--data DIR] [--watch [--take SEAT]]",
		"Take a seat at a table: the first one found on the LAN with a free seat (or the one whose\n"+
			"id starts with --table), or the host at --addr (host:port or a multiaddr) or --code (the\n"+
			"host's join code), which need no multicast. You play the seat in the terminal; with\n"+
			"--bot KIND a bot plays it instead. A device with an unfinished table in its store\n"+
			"resumes it instead (as a person or a bot, as --bot says this time).\n"+
			"With --watch you watch a table under way without a seat, from the device at --addr or\n"+
			"--code: the board, the rules, the teams, the tricks and the scores, never a hand; you\n"+
			"post nothing, and --export writes the log you saw.\n"+
			"With --watch --take SEAT you also ask the table for SEAT, which a bot plays: a bot the\n"+
			"host seated in the lobby (--bots), or one the table seated when a device left. A\n"+
			"person's seat, or a device's own seat played by its --bot, cannot be taken. The seat is\n"+
			"yours from the start of the next round, when the table agrees, and you play it in the\n"+
			"terminal (or a bot of --bot KIND does) to the end. Until then you watch, without typing\n"+
			"(Ctrl-C stops).")
	tableID := fs.String("table", "", "id (or a prefix of it) of the table to join")
	addr := fs.String("addr", "", "address of the host: host:port or a multiaddr")
	code := fs.String("code", "", "join code printed by the host")
	wait := fs.Duration("wait", 2*time.Minute, "how long to look for the table and get a seat; once seated, join waits\nfor the host to start the game (with --watch: how long to look for the table)")
	watch := fs.Bool("watch", false, "watch a table under way without a seat (needs --addr or --code of a device at it)")
	take := fs.Int("take", -1, "with --watch: take this seat, which a bot plays (seated in the lobby or since its device left), at the next round")
	lf := addLANFlags(fs)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *watch && *addr == "" && *code == "" {
		return usageError(fs, "--watch needs --addr or --code: a table under way is not listed on the LAN")
	}
	if *take >= 0 && !*watch {
		return usageError(fs, "--take needs --watch: you watch the table until the seat is yours")
	}
	if *take < -1 {
		return usageError(fs, "bad --take %d: want a seat number", *take)
	}
	if *watch && *take < 0 && *lf.bot != "" {
		return usageError(fs, "--watch takes no seat, so no --bot plays one (give --take SEAT)")
	}
	given := 0
	for _, v := range []string{*tableID, *addr, *code} {
		if v != "" {
			given++
		}
	}
	if given > 1 {
		return usageError(fs, "give at most one of --table, --addr and --code")
	}
	if *wait <= 0 {
		return usageError(fs, "bad --wait %v", *wait)
	}
	target := lan.LANTarget(*tableID)
	var err error
	switch {
	case *addr != "":
		if target, err = lan.AddrTarget(*addr); err != nil {
			return usageError(fs, "bad --addr: %v", err)
		}
	case *code != "":
		if target, err = lan.CodeTarget(*code); err != nil {
			return usageError(fs, "bad --code: %v", err)
		}
	}
	if code := lf.check(fs); code >= 0 {
		return code
	}
	ctx, stop := signalContext()
	defer stop()
	d, err := c.openDevice("join", lf)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet join: %v\n", err)
		return exitFail
	}
	defer d.Close()
	if *watch {
		return c.watch(ctx, d, target, *wait, *take, lf)
	}
	if code := c.resume(ctx, "join", d, lf); code >= 0 {
		return code
	}
	t, err := d.JoinAs(ctx, target, lan.JoinConfig{Bot: *lf.bot, Player: *lf.player, Find: *wait}, c.progress("join"))
	if err != nil {
		fmt.Fprintf(c.stderr, "njet join: %v\n", why(ctx, err))
		return exitFail
	}
	defer t.Close()
	return c.playTable(ctx, "join", d, t, lf)
}

// watch follows the table at target as a watcher until its game is over
// or the person quits, and exports the log it saw when --export asks. With
// a seat to take (take >= 0) it claims that seat meanwhile, and once the
// table hands it over it plays the seat to the end like any joiner.
func (c *cli) watch(ctx context.Context, d *lan.Device, target lan.JoinTarget, wait time.Duration, take int, lf *lanFlags) int {
	wctx, cancel := context.WithTimeout(ctx, wait)
	w, err := d.Watch(wctx, target, c.progress("join"))
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("no table to watch answered within %v", wait)
		}
		fmt.Fprintf(c.stderr, "njet join: %v\n", why(ctx, err))
		return exitFail
	}
	gen := w.Genesis()
	fmt.Fprintf(c.stdout, "watching table %v: %s, %s\n", w.Lobby(), gen.Edition, count(gen.Players(), "player"))
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- w.Run(rctx) }()
	in := c.stdin
	var taken chan takeResult
	if take >= 0 {
		// The terminal's input is the seat's once it is taken: the watch
		// screen reads none meanwhile.
		in = strings.NewReader("")
		fmt.Fprintf(c.stdout, "asking the table for seat %d; it is yours from the start of the next round if the table agrees\n", take)
		taken = make(chan takeResult, 1)
		go func() {
			t, err := w.TakeSeat(rctx, take, *lf.bot)
			taken <- takeResult{t, err}
			stop() // the watch screen ends: the seat is played, or the claim failed
		}()
	}
	cfg := term.WatchConfig{View: w.View, Changed: w.Changed(), Names: w.Names(), Rounds: gen.Rounds,
		Echo: !isTerminal(c.stdin)}
	if take >= 0 {
		cfg.Taking = fmt.Sprintf("seat %d", take)
	}
	err = term.WatchLAN(rctx, cfg, in, c.stdout)
	stop()
	if rerr := <-ran; err == nil && rerr != nil && !errors.Is(rerr, context.Canceled) {
		err = rerr
	}
	if taken != nil {
		res := <-taken
		switch {
		case res.err == nil:
			fmt.Fprintf(c.stdout, "the table gave you seat %d\n", take)
			defer res.table.Close()
			return c.playTable(ctx, "join", d, res.table, lf)
		case ctx.Err() != nil:
			return exitFail
		case errors.Is(res.err, context.Canceled) && err == nil:
			// The game ended first: the watch screen told it.
			fmt.Fprintf(c.stderr, "njet join: %v: seat %d was not handed over before the end\n", lan.ErrGameOver, take)
			return exitFail
		case !errors.Is(res.err, context.Canceled):
			fmt.Fprintf(c.stderr, "njet join: %v\n", res.err)
			return exitFail
		}
	}
	if *lf.export != "" {
		if xerr := w.Export(*lf.export); xerr != nil {
			fmt.Fprintf(c.stderr, "njet join: export: %v\n", xerr)
			return exitFail
		}
		next, head := w.Log().Head()
		fmt.Fprintf(c.stdout, "%d envelopes, log hash %v, exported to %s\n", next, head, *lf.export)
	}
	switch {
	case errors.Is(err, term.ErrLeft):
		return exitOK
	case err != nil:
		fmt.Fprintf(c.stderr, "njet join: %v\n", why(ctx, err))
		return exitFail
	}
	return exitOK
}

// takeResult is what Watcher.TakeSeat returned.
type takeResult struct {
	table *lan.Table
	err   error
}

func (c *cli) tables(args []string) int {
	fs := c.flagSet("tables", "[--wait D]",
		"List the tables advertised on the LAN (mDNS) as they appear and vanish, for --wait.")
	wait := fs.Duration("wait", 5*time.Second, "how long to look")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *wait <= 0 {
		return usageError(fs, "bad --wait %v", *wait)
	}
	ctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	fmt.Fprintf(c.stdout, "looking for tables…\n")
	start := c.now()
	var last []lan.TableAd
	err := lan.WatchTables(ctx, func(l lan.TableList) {
		last = l.Tables
		for _, ad := range l.Appeared {
			fmt.Fprintf(c.stdout, "+ %s after %.3fs\n", describeAd(ad), c.now().Sub(start).Seconds())
		}
		for _, id := range l.Vanished {
			fmt.Fprintf(c.stdout, "- table %v vanished\n", id)
		}
	})
	if err != nil {
		fmt.Fprintf(c.stderr, "njet tables: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "%s\n", count(len(last), "table"))
	for _, ad := range last {
		fmt.Fprintf(c.stdout, "%s\n", describeAd(ad))
	}
	return exitOK
}

func describeAd(ad lan.TableAd) string {
	host := ""
	if ad.Host != "" {
		host = fmt.Sprintf(" %q", ad.Host)
	}
	return fmt.Sprintf("table %q id %v, %s, %d players, %d free, host%s %v", ad.Name, ad.ID, gameOf(ad.Game, ad.Variant),
		ad.Players, ad.Free, host, ad.Peer)
}

// count says n things in English: "1 table", "2 tables", "0 tables".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// shownID is the id people know a verified table by: the one it was
// advertised under (its genesis Nonce; njet tables and the host show it),
// or the genesis hash when the log has no genesis to tell it.
func shownID(v *ntable.Verification) string {
	if v.Genesis == nil {
		return v.Table.String()
	}
	return fmt.Sprintf("%x", v.Genesis.Nonce[:])
}
