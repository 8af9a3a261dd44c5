package main

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

// processStart is as close to the start of the process as Go code gets;
// the app's first-frame figure counts from here.
var processStart = time.Now()

// openWindow opens the app's window; main_gui.go sets it. Built with the
// nogui tag it stays nil, and njet without a command prints the usage.
var openWindow func(c *cli, o appOptions) int

// appOptions are the app mode's flags. None is shown in the usage: they
// serve tests and measurements.
type appOptions struct {
	width, height float32 // window size; 0 leaves the app's own
	smoke         bool
	game          seat.LocalConfig
	smokeSave     string
	firstFrame    bool
	pace          time.Duration // the smoke game's bot pace; 0: fast
	// The LAN smoke mode: host a table of game's edition, players and
	// variant named lanHost, or join the table named lanJoin, as player,
	// and write the table's log to lanLog at the end.
	lanHost, lanJoin, lanLog, player string
	// smokeTG plays theGame, a smoke game of The Game.
	smokeTG bool
	theGame theGameSmoke
}

// theGameSmoke is a smoke game of The Game: the person in seat 0 played
// by the table screen's taps, bots of kind bot in the other seats.
type theGameSmoke struct {
	players int
	extreme bool
	bot     string
	seed    uint64
}

// app runs njet without a command: the app's window, or one of its hidden
// test modes.
//
//	--smoke              start a local game that plays itself through the
//	                     table screen's controls; print "totals a,b,..." and
//	                     exit 0 at game over
//	--seed S, --edition E, --players N, --short, --target T, --bots K
//	                     the smoke game (seed 7, Classic, 4 players)
//	--size WxH           the window's size
//	--pace D             the smoke game's bot pace (default: fast)
//	--smoke-save FILE    write the smoke game's save at game over
//	--smoke-check FILE --totals a,b,...
//	                     replay a saved smoke game from its seed and bots,
//	                     with the person's recorded choices, and check the
//	                     engine's totals against the ones printed (no window)
//	--first-frame        print the time from process start to the first
//	                     painted frame, then quit (with --smoke: go on)
//	--smoke-lan-host NAME
//	                     host a LAN table named NAME (--edition, --players,
//	                     --short, --target; no bots) by the home screen's
//	                     taps, start it once the seats are full and play the
//	                     person's seat by the table screen's controls
//	--smoke-lan-join NAME
//	                     wait until the home screen lists the table NAME,
//	                     tap it and play likewise
//	--smoke-lan-log FILE write the LAN table's log there at the end; print
//	                     "lan over TABLE" and exit 0 when the game is over
//	--smoke-thegame      start a local game of The Game (--players 1 to 5,
//	                     default 3; --extreme; --bots greedy or coop,
//	                     default coop; --seed) whose person's seat is
//	                     played by the table screen's taps; print
//	                     "thegame over: N cards left, RATING" and exit 0
//	                     at game over
//	--player NAME        the person's name (the settings' name)
//	                     In the LAN smoke mode the app prints "trace WHAT
//	                     UNIXNS" lines: listed NAME, tap NAME, lobby-seats,
//	                     round-start N, cards N (ui.Env.Trace).
func (c *cli) app(args []string) int {
	fs := c.flagSet("", "[--smoke] [--size WxH]", "Open the Njet app.")
	smoke := fs.Bool("smoke", false, "play a local game by the table screen's own controls and exit at game over")
	game := addGameFlags(fs)
	seed := fs.Uint64("seed", 7, "seed of the smoke game")
	bots := fs.String("bots", "heuristic", "comma list of bot kinds for the other seats of the smoke game")
	size := fs.String("size", "", "window size, e.g. 360x740")
	save := fs.String("smoke-save", "", "write the smoke game's save to this file at game over")
	check := fs.String("smoke-check", "", "replay this saved smoke game and compare its totals with --totals")
	totals := fs.String("totals", "", "the totals a smoke game printed, comma-separated")
	first := fs.Bool("first-frame", false, "print the time to the first painted frame")
	pace := fs.Duration("pace", 0, "the smoke game's bot pace (default: fast)")
	lanHost := fs.String("smoke-lan-host", "", "host a LAN table of this name and play it by the app's own controls")
	lanJoin := fs.String("smoke-lan-join", "", "join the LAN table of this name once listed and play it by the app's own controls")
	lanLog := fs.String("smoke-lan-log", "", "write the LAN table's log to this file at the end")
	player := fs.String("player", "", "the person's name")
	smokeTG := fs.Bool("smoke-thegame", false, "play a local game of The Game by the table screen's own controls and exit at game over")
	extreme := fs.Bool("extreme", false, "the smoke game of The Game is Extreme")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *smokeTG || *extreme {
		return c.theGameSmokeFlags(fs, *smokeTG, *extreme, *seed, *bots, game.players, *size, *pace)
	}
	switch {
	case *lanHost != "" && *lanJoin != "":
		return usageError(fs, "--smoke-lan-host and --smoke-lan-join exclude each other")
	case (*lanHost != "" || *lanJoin != "") && *smoke:
		return usageError(fs, "--smoke plays a local game; --smoke-lan-host and --smoke-lan-join a LAN one")
	case *lanLog != "" && *lanHost == "" && *lanJoin == "":
		return usageError(fs, "--smoke-lan-log needs --smoke-lan-host or --smoke-lan-join")
	}
	if *check != "" {
		return c.smokeCheck(*check, *totals)
	}
	e, err := game.check()
	if err != nil {
		return usageError(fs, "%v", err)
	}
	kinds, err := botKinds(*bots)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *pace < 0 || *pace > time.Minute {
		return usageError(fs, "bad --pace %v: want 0 to 1m", *pace)
	}
	o := appOptions{smoke: *smoke, smokeSave: *save, firstFrame: *first, pace: *pace,
		lanHost: *lanHost, lanJoin: *lanJoin, lanLog: *lanLog, player: *player,
		game: seat.LocalConfig{Edition: e, Players: game.players, Seed: *seed, Bots: kinds,
			Short: game.short, Target: game.target}}
	if *size != "" {
		if o.width, o.height, err = parseSize(*size); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if openWindow == nil {
		fmt.Fprintf(c.stderr, "njet: this njet was built without the app (nogui); give a command\n\n")
		c.usage()
		return exitUsage
	}
	return openWindow(c, o)
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
		return exitUsage
	}
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: %v\n", err)
		return exitFail
	}
	got, err := replayTotals(data)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet: replaying %s: %v\n", file, err)
		return exitFail
	}
	if !slices.Equal(got, want) {
		fmt.Fprintf(c.stderr, "njet: the app showed totals %v, the engine's replay %v\n", want, got)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "totals %v agree with the engine\n", got)
	return exitOK
}

// parseTotals reads "a,b,c" (or "totals a,b,c" as the smoke mode prints).
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
	for _, name := range []string{"smoke", "edition", "short", "target", "smoke-save", "smoke-check", "totals",
		"smoke-lan-host", "smoke-lan-join", "smoke-lan-log", "first-frame"} {
		if set[name] {
			return usageError(fs, "--%s does not go with --smoke-thegame", name)
		}
	}
	o := appOptions{pace: pace, smokeTG: true, theGame: theGameSmoke{players: 3, extreme: extreme, bot: "coop", seed: seed}}
	if set["players"] {
		if players < 1 || players > 5 {
			return usageError(fs, "bad --players %d: The Game seats 1 to 5 players", players)
		}
		o.theGame.players = players
	}
	if set["bots"] {
		if bots != "greedy" && bots != "coop" {
			return usageError(fs, "bad --bots %q: The Game's bots are greedy or coop", bots)
		}
		o.theGame.bot = bots
	}
	if pace < 0 || pace > time.Minute {
		return usageError(fs, "bad --pace %v: want 0 to 1m", pace)
	}
	if size != "" {
		var err error
		if o.width, o.height, err = parseSize(size); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if openWindow == nil {
		fmt.Fprintf(c.stderr, "njet: this njet was built without the app (nogui); give a command\n\n")
		c.usage()
		return exitUsage
	}
	return openWindow(c, o)
}
