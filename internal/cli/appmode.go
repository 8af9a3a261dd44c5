package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
)

// Window opens the app's window with o and returns the exit code when it
// closes. The root package gives one (main_gui.go); a build without the
// app (nogui) gives none, and njet without a command prints the usage.
type Window func(env Env, o AppOptions) int

// Env is what the window needs of the command line: its streams and clock.
type Env struct {
	Stdout, Stderr io.Writer
	Now            func() time.Time
}

// AppOptions are the app mode's flags. None is shown in the usage: they
// serve tests and measurements.
type AppOptions struct {
	Width, Height float32 // window size; 0 leaves the app's own
	Game          seat.LocalConfig
	FirstFrame    bool
	Pace          time.Duration // the bots' pace in a test mode; 0: fast
	// LANLog, with Probe, puts the app on the LAN and writes the log of
	// the LAN table played to it at the end; Player is the person's name.
	LANLog, Player string
	// SmokeTheGame plays TheGame, a smoke game of The Game.
	SmokeTheGame bool
	TheGame      TheGameSmoke
	// Probe is where the app writes what its window shows (package
	// ui/reach), "-" for stdout; ProbeSave where it writes the save of a
	// local game of Njet! that ends.
	Probe, ProbeSave string
	// Blank opens only a window with one label for this long, the
	// baseline of the app's memory figures.
	Blank time.Duration
}

// TheGameSmoke is a smoke game of The Game: the person in seat 0 played
// by the table screen's taps, bots of kind Bot in the other seats.
type TheGameSmoke struct {
	Players int
	Extreme bool
	Bot     string
	Seed    uint64
}

// app runs njet without a command: the app's window, or one of its hidden
// test modes.
//
//	--seed S             The Game's smoke game's seed
//	--size WxH           the window's size
//	--pace D             the bots' pace in a test mode (default: fast)
//	--smoke-check FILE --totals a,b,...
//	                     replay a saved game from its seed and bots, with
//	                     the person's recorded choices, and check the
//	                     engine's totals against the ones shown (no window)
//	--first-frame        print the time from process start to the first
//	                     painted frame, then quit
//	--smoke-thegame      start a local game of The Game (--players 1 to 5,
//	                     default 3; --extreme; --bots greedy or coop,
//	                     default coop; --seed) whose person's seat is
//	                     played by the table screen's taps; print
//	                     "thegame over: N cards left, RATING" and exit 0
//	                     at game over
//	--probe FILE         write what the window shows, each time it
//	                     changes, as lines of JSON to FILE ("-": stdout),
//	                     for a driver that plays with the real pointer;
//	                     off the network, bots at the smoke pace
//	--probe-save FILE    with --probe: write the save of each local game
//	                     that ends to FILE (for --smoke-check)
//	--lan-log FILE       with --probe: on the LAN after all; once the play
//	                     of a LAN table ends, write its log to FILE, print
//	                     "lan over TABLE" and quit (exit 0 when the game
//	                     was over); "trace WHAT UNIXNS" lines tell when
//	                     things happen on the way: listed NAME, tap NAME,
//	                     lobby-seats, round-start N, cards N (ui.Env.Trace)
//	--blank D            open a window holding one label, nothing of the
//	                     app, for D, then quit: the baseline of the
//	                     memory figures (scripts/bench-app.sh)
//	--player NAME        the person's name (the settings' name)
func (c *cli) app(args []string) int {
	fs := c.flagSet("", "[--size WxH]", "Open the Njet app.")
	game := addGameFlags(fs, false)
	seed := fs.Uint64("seed", 7, "seed of a test mode's game")
	bots := fs.String("bots", "heuristic", "The Game's smoke mode: the bots' kind")
	size := fs.String("size", "", "window size, e.g. 360x740")
	check := fs.String("smoke-check", "", "replay this saved game and compare its totals with --totals")
	totals := fs.String("totals", "", "the totals the game showed, comma-separated")
	first := fs.Bool("first-frame", false, "print the time to the first painted frame")
	pace := fs.Duration("pace", 0, "the bots' pace in a test mode (default: fast)")
	lanLog := fs.String("lan-log", "", "with --probe: play on the LAN and write the table's log to this file at the end")
	player := fs.String("player", "", "the person's name")
	smokeTG := fs.Bool("smoke-thegame", false, "play a local game of The Game by the table screen's own controls and exit at game over")
	probe := fs.String("probe", "", "write what the window shows as lines of JSON to this file (-: stdout)")
	probeSave := fs.String("probe-save", "", "with --probe: write the save of a local game that ends to this file")
	blank := fs.Duration("blank", 0, "open a window with one label for this long, then quit")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *smokeTG || game.extreme {
		return c.theGameSmokeFlags(fs, *smokeTG, game.extreme, *seed, *bots, game.players, *size, *pace)
	}
	switch {
	case *lanLog != "" && *probe == "":
		return usageError(fs, "--lan-log needs --probe")
	case *probeSave != "" && *probe == "":
		return usageError(fs, "--probe-save needs --probe")
	}
	if *check != "" {
		return c.smokeCheck(*check, *totals)
	}
	g, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	kinds, err := botKinds(g.game, "bots", *bots, true)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *pace < 0 || *pace > time.Minute {
		return usageError(fs, "bad --pace %v: want 0 to 1m", *pace)
	}
	if *blank < 0 || *blank > time.Hour {
		return usageError(fs, "bad --blank %v: want 0 to 1h", *blank)
	}
	o := AppOptions{Blank: *blank, FirstFrame: *first, Pace: *pace,
		LANLog: *lanLog, Player: *player, Probe: *probe, ProbeSave: *probeSave,
		Game: seat.LocalConfig{Edition: g.edition, Players: g.players, Seed: *seed, Bots: kinds,
			Short: g.short, Target: g.target}}
	return c.openApp(fs, o, *size)
}

// openApp opens the app with o in a window of size ("": the app's own).
func (c *cli) openApp(fs *flag.FlagSet, o AppOptions, size string) int {
	if size != "" {
		var err error
		if o.Width, o.Height, err = parseSize(size); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if c.open == nil {
		fmt.Fprintf(c.stderr, "njet: this njet was built without the app (nogui); give a command\n\n")
		c.usage(c.stderr)
		return ExitUsage
	}
	return c.open(Env{Stdout: c.stdout, Stderr: c.stderr, Now: c.now}, o)
}

// parseSize reads a window size such as 360x740.
func parseSize(s string) (w, h float32, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	wi, werr := strconv.Atoi(ws)
	hi, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil || wi < 200 || hi < 200 || wi > 10000 || hi > 10000 {
		return 0, 0, fmt.Errorf("bad --size %q: want WIDTHxHEIGHT, each 200 to 10000", s)
	}
	return float32(wi), float32(hi), nil
}

// smokeCheck replays a saved smoke game and compares the totals.
func (c *cli) smokeCheck(file, printed string) int {
	want, err := parseTotals(printed)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: --totals: %v\n", err)
		return ExitUsage
	}
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: %v\n", err)
		return ExitFail
	}
	got, err := replayTotals(data)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: replaying %s: %v\n", file, err)
		return ExitFail
	}
	if !slices.Equal(got, want) {
		fmt.Fprintf(c.stderr, "njet: the app showed totals %v, the engine's replay %v\n", want, got)
		return ExitFail
	}
	fmt.Fprintf(c.stdout, "totals %v agree with the engine\n", got)
	return ExitOK
}

// parseTotals reads "a,b,c" (or "totals a,b,c" as xperson prints).
func parseTotals(s string) ([]int, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "totals"))
	if s == "" {
		return nil, errors.New("no totals")
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("bad total %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// maxReplayEvents bounds a replay; a whole Modern 5-player game makes a
// few thousand events.
const maxReplayEvents = 100000

// replayTotals plays a saved game again from its configuration alone: the
// same seed deals the same cards and drives the same bots, and the person's
// seat makes the choices the save records. It returns the engine's totals.
func replayTotals(saved []byte) ([]int, error) {
	var sg struct {
		Config  seat.LocalConfig `json:"config"`
		Actions []engine.Action  `json:"actions"`
	}
	if err := json.Unmarshal(saved, &sg); err != nil {
		return nil, fmt.Errorf("not a saved game: %w", err)
	}
	var mine []engine.Action
	for _, a := range sg.Actions {
		if a.Seat == sg.Config.You {
			mine = append(mine, a)
		}
	}
	l, err := seat.NewLocal(sg.Config)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	for range maxReplayEvents {
		ev, err := l.Next(ctx)
		if errors.Is(err, io.EOF) {
			if len(mine) > 0 {
				return nil, fmt.Errorf("the game ended with %d recorded choices left", len(mine))
			}
			return l.Totals(), nil
		}
		if err != nil {
			return nil, err
		}
		y, ok := ev.(seat.YourTurn)
		if !ok {
			continue
		}
		if len(mine) == 0 {
			return nil, errors.New("the replay asks more than the save recorded")
		}
		if err := l.Choose(y.Prompt.Seq, mine[0]); err != nil {
			return nil, fmt.Errorf("recorded choice %+v: %w", mine[0], err)
		}
		mine = mine[1:]
	}
	return nil, fmt.Errorf("no end after %d events", maxReplayEvents)
}

// theGameSmokeFlags checks the flags of the smoke game of The Game and
// opens the app with it. --players and --bots take The Game's meaning there;
// the flags of Njet's games and the other test modes are refused.
func (c *cli) theGameSmokeFlags(fs *flag.FlagSet, smoke, extreme bool, seed uint64, bots string, players int, size string, pace time.Duration) int {
	if !smoke {
		return usageError(fs, "--extreme needs --smoke-thegame")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"edition", "short", "target", "smoke-check", "totals", "probe", "probe-save", "blank",
		"lan-log", "first-frame"} {
		if set[name] {
			return usageError(fs, "--%s does not go with --smoke-thegame", name)
		}
	}
	o := AppOptions{Pace: pace, SmokeTheGame: true, TheGame: TheGameSmoke{Players: 3, Extreme: extreme, Bot: "coop", Seed: seed}}
	if set["players"] {
		if players < 1 || players > 5 {
			return usageError(fs, "bad --players %d: The Game seats 1 to 5 players", players)
		}
		o.TheGame.Players = players
	}
	if set["bots"] {
		if bots != "greedy" && bots != "coop" && bots != "expert" {
			return usageError(fs, "bad --bots %q: The Game's bots are greedy, coop or expert", bots)
		}
		o.TheGame.Bot = bots
	}
	if pace < 0 || pace > time.Minute {
		return usageError(fs, "bad --pace %v: want 0 to 1m", pace)
	}
	return c.openApp(fs, o, size)
}
