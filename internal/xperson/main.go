// Command xperson plays the Njet app as a person does, with the real
// pointer and keyboard of an X display (xdotool), from what the app's probe
// mode says it draws (njet --probe FILE; package ui/reach): it sets a game
// up on the new-game screen, plays it to its end with the same policy as
// the widget tests, reads the totals off the game-over view and goes home.
// It prints "rounds N" and "totals a,b,..." (the seats' totals as shown) and
// exits 0; when what it needs is not on the screen it prints the screen,
// takes a screenshot and exits 1.
//
// With --game thegame it plays The Game instead: the players and Extreme
// chosen on its setup screen, a whole game with The Game's policy, the
// cards left read off the game-over view ("left N"), and home again.
//
// With --lan-host NAME it hosts a LAN table of Njet from the home screen
// instead (the host form filled in, the lobby's start once the seats are
// full),
// with --lan-join NAME it waits until home lists the table NAME and takes
// a seat at it; either way it plays until the game-over view and prints
// "rounds N" (the app, in its probe mode with --lan-log, writes the log
// and quits when the table's play ends). With --game thegame --lan-join
// NAME it takes a seat at a LAN table of The Game and prints what a local
// game of it prints.
//
// It is a test tool: scripts/e2e.sh runs it beside the app under Xvfb.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui"
	"github.com/njetlan/njet/ui/reach"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// game is the game to set up and how to play it.
type game struct {
	edition engine.Edition
	players int
	short   bool
	target  int
	seed    uint64
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("xperson", flag.ContinueOnError)
	fs.SetOutput(stderr)
	probeFile := fs.String("probe", "", "the app's probe file (njet --probe FILE)")
	saveFile := fs.String("save", "", "the save the app writes at the end (njet --probe-save FILE), for the seats' names")
	lanHost := fs.String("lan-host", "", "host a LAN table of this name (no bots) and play it")
	lanJoin := fs.String("lan-join", "", "take a seat at the LAN table of this name and play it")
	window := fs.String("window", "Njet", "the title of the app's window")
	code := fs.String("lang", "en", "the app's language: en, de or fr")
	edition := fs.String("edition", "classic", "classic or modern")
	players := fs.Int("players", 4, "players at the table")
	short := fs.Bool("short", false, "the Classic short game")
	target := fs.Int("target", 0, "play up to this target score")
	seed := fs.Uint64("seed", 7, "the game's seed, typed into the new-game screen")
	shots := fs.String("shots", "", "directory for screenshots of the game under way (NAME-PHASE.png)")
	name := fs.String("name", "game", "the name the screenshots start with")
	limit := fs.Duration("timeout", 10*time.Minute, "give up after this long")
	verbose := fs.Bool("verbose", false, "write each click, with the time, to stderr")
	which := fs.String("game", "njet", "the game to play: njet, or thegame (The Game; --players and --extreme)")
	extreme := fs.Bool("extreme", false, "The Game: the Extreme variant")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lan := *lanHost != "" || *lanJoin != ""
	tg := *which == "thegame"
	if *which != "njet" && !tg {
		fmt.Fprintf(stderr, "xperson: --game %q: njet or thegame\n", *which)
		return 2
	}
	if *probeFile == "" || *saveFile == "" && !lan && !tg || *lanHost != "" && *lanJoin != "" {
		fmt.Fprintln(stderr, "xperson: --probe is needed, and --save for a local game; --lan-host and --lan-join exclude each other")
		return 2
	}
	e, err := engine.ParseEdition(*edition)
	if err != nil {
		fmt.Fprintf(stderr, "xperson: %v\n", err)
		return 2
	}
	if tg && *lanHost != "" {
		fmt.Fprintln(stderr, "xperson: --game thegame hosts no LAN table; --lan-join takes a seat at one")
		return 2
	}
	if tg {
		return runTheGame(*probeFile, *window, *shots, *name, time.Now().Add(*limit), *verbose, *code, *players, *extreme, *lanJoin, stdout, stderr)
	}
	words := ui.WordsIn(*code)
	p, err := newPerson(*probeFile, *window, *shots, *name, time.Now().Add(*limit))
	if err != nil {
		fmt.Fprintf(stderr, "xperson: %v\n", err)
		return 1
	}
	if *verbose {
		p.log = stderr
	}
	g := game{edition: e, players: *players, short: *short, target: *target, seed: *seed}
	if lan {
		rounds, err := p.playLAN(*lanHost, *lanJoin, g, words)
		if err != nil {
			return p.failed(stderr, err)
		}
		fmt.Fprintf(stdout, "rounds %d\n", rounds)
		return 0
	}
	totals, rounds, err := p.play(g, words, *saveFile)
	if err != nil {
		return p.failed(stderr, err)
	}
	fmt.Fprintf(stdout, "rounds %d\n", rounds)
	parts := make([]string, len(totals))
	for i, t := range totals {
		parts[i] = strconv.Itoa(t)
	}
	fmt.Fprintf(stdout, "totals %s\n", strings.Join(parts, ","))
	return 0
}

// runTheGame plays a game of The Game at the window, set up on this device
// or, with join, at the LAN table of that name, and prints "laid N",
// "turns N" and "left N" (the cards left as the game-over view shows
// them).
func runTheGame(probeFile, win, shots, name string, deadline time.Time, verbose bool, code string, players int, extreme bool, join string, stdout, stderr io.Writer) int {
	if players < thegame.MinPlayers || players > thegame.MaxPlayers {
		fmt.Fprintf(stderr, "xperson: --players %d: The Game has %d to %d\n", players, thegame.MinPlayers, thegame.MaxPlayers)
		return 2
	}
	words := ui.TheGameWordsIn(code)
	p, err := newPerson(probeFile, win, shots, name, deadline)
	if err != nil {
		fmt.Fprintf(stderr, "xperson: %v\n", err)
		return 1
	}
	if verbose {
		p.log = stderr
	}
	play := func() (int, *reach.TheGame, error) { return p.playTheGame(players, extreme, words) }
	if join != "" {
		play = func() (int, *reach.TheGame, error) { return p.playTheGameLAN(join, words) }
	}
	left, pl, err := play()
	if err != nil {
		return p.failed(stderr, err)
	}
	fmt.Fprintf(stdout, "laid %d\nturns %d\nleft %d\n", pl.Laid, pl.Turns, left)
	return 0
}

// failed tells why the person could not go on, with the screen and a
// screenshot, and returns the exit code.
func (p *person) failed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "xperson: %v\n", err)
	if s := p.screen; s != nil {
		fmt.Fprintln(stderr, s.Describe())
	}
	if shot, err := p.shot("failed"); err == nil {
		fmt.Fprintf(stderr, "xperson: screenshot %s\n", shot)
	}
	return 1
}

// person is the one at the real window.
type person struct {
	probe    *probe
	screen   *reach.Screen // the last screen looked at
	win      string        // the window's title
	originX  int           // where the window's content starts on the display
	originY  int
	shots    string
	name     string
	deadline time.Time
	taken    map[string]bool // screenshots taken
	log      io.Writer       // hears each click, when set (--verbose)
}

func newPerson(probeFile, win, shots, name string, deadline time.Time) (*person, error) {
	pr, err := openProbe(probeFile, deadline)
	if err != nil {
		return nil, err
	}
	return &person{probe: pr, win: win, shots: shots, name: name, deadline: deadline, taken: map[string]bool{}}, nil
}

// settle waits until the screen has held still for a moment (a person
// does not tap what is still moving) and returns it.
func (p *person) settle() (*reach.Screen, error) {
	s, err := p.probe.still(200*time.Millisecond, p.deadline)
	if err != nil {
		return nil, err
	}
	p.screen = s
	return s, nil
}

// play sets g up, plays it through and goes home; it returns the totals
// the game-over view showed, by seat, and the rounds played.
func (p *person) play(g game, w ui.SetUpWords, saveFile string) ([]int, int, error) {
	if err := p.waitFor("the home screen", func(s *reach.Screen) bool { return s.Name == "Home" }); err != nil {
		return nil, 0, err
	}
	if err := p.locate(); err != nil {
		return nil, 0, err
	}
	p.snap("home")
	if err := p.tapText(w.NewGame); err != nil {
		return nil, 0, err
	}
	p.snap("newgame")
	if err := p.setUp(g, w); err != nil {
		return nil, 0, err
	}
	policy := &reach.Njet{Words: w.Table, Rand: rand.New(rand.NewPCG(g.seed, 1))}
	var totals []int
	for {
		s, err := p.settle()
		if err != nil {
			return nil, 0, err
		}
		if len(s.Reachable(reach.Button(w.Table.Done))) > 0 && totals == nil {
			p.snap("gameover")
			if totals, err = readTotals(s, saveFile, w.You); err != nil {
				return nil, 0, err
			}
		}
		step, err := policy.Next(s)
		if err != nil {
			return nil, 0, err
		}
		switch step.Kind {
		case reach.Done:
			if s.Name != "Home" {
				return nil, 0, fmt.Errorf("after the game the app shows %s, not home", s.Name)
			}
			if totals == nil {
				return nil, 0, errors.New("the game ended without a game-over view")
			}
			return totals, policy.Rounds, nil
		case reach.Wait:
			if err := p.probe.change(time.Minute, p.deadline); err != nil {
				return nil, 0, fmt.Errorf("waiting for %s: %w", step.Want, err)
			}
			continue
		}
		switch {
		case step.Want == "a field to block":
			p.snap("njet")
		case step.Want == "a card of the hand" && policy.Rounds == 1:
			p.snap("round2-hand")
		case step.Want == "the next round":
			p.snap("summary")
		}
		if err := p.tap(step.Want, step.Tap); err != nil {
			return nil, 0, err
		}
	}
}

// setUp chooses g on the new-game screen and deals.
func (p *person) setUp(g game, w ui.SetUpWords) error {
	if err := p.tapText(w.Edition[g.edition]); err != nil {
		return err
	}
	if err := p.tapText(strconv.Itoa(g.players)); err != nil {
		return err
	}
	switch {
	case g.short, g.target == 0:
		eg, err := engine.NewGame(engine.Config{Edition: g.edition, Players: g.players, Short: g.short})
		if err != nil {
			return err
		}
		opt := w.Whole(eg.Rounds())
		if g.short {
			opt = w.Short(eg.Rounds())
		}
		if err := p.tapText(opt); err != nil {
			return err
		}
	case g.target > 0:
		if err := p.tapText(w.Target); err != nil {
			return err
		}
		if err := p.fill("the target score", reach.Kind("entry", w.Length), strconv.Itoa(g.target)); err != nil {
			return err
		}
	}
	if err := p.tapFound("the seed", reach.Kind("entry", w.Seed)); err != nil {
		return err
	}
	if err := p.typeText(strconv.FormatUint(g.seed, 10)); err != nil {
		return err
	}
	return p.tapText(w.Deal)
}

// waitFor waits until the screen is as ok says.
func (p *person) waitFor(what string, ok func(*reach.Screen) bool) error {
	for time.Now().Before(p.deadline) {
		s, err := p.settle()
		if err != nil {
			return err
		}
		if ok(s) {
			return nil
		}
		if err := p.probe.change(time.Minute, p.deadline); err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
	}
	return fmt.Errorf("no %s in time", what)
}

// tapText taps the button or option labelled text.
func (p *person) tapText(text string) error {
	return p.tapFound(strconv.Quote(text), reach.Button(text))
}

// tapFound taps the first reachable control that matches.
func (p *person) tapFound(want string, match func(reach.Control) bool) error {
	s, err := p.settle()
	if err != nil {
		return err
	}
	for _, c := range s.Find(match) {
		if c.Reachable() {
			return p.tap(want, c)
		}
	}
	if cs := s.Find(match); len(cs) > 0 {
		return fmt.Errorf("wants %s: out of reach: %v", want, cs)
	}
	return fmt.Errorf("wants %s: nothing like it on %s", want, s.Name)
}

// tap scrolls c into view with the wheel if it must, clicks it, and waits
// for the screen to change, as a click on a control does (a radio option
// already chosen, or an entry, changes nothing a probe shows).
func (p *person) tap(want string, c reach.Control) error {
	c, err := p.inView(want, c)
	if err != nil {
		return err
	}
	if c.Kind == "radio" && c.On {
		return nil
	}
	before := p.probe.seen
	if p.log != nil {
		fmt.Fprintf(p.log, "%s click %s for %s\n", time.Now().Format("15:04:05.000"), c.String(), want)
	}
	if err := p.click(c.Tap); err != nil {
		return err
	}
	if c.Kind == "entry" {
		time.Sleep(300 * time.Millisecond) // the focus moves; nothing else shows
		return nil
	}
	if err := p.probe.changeSince(before, 15*time.Second, p.deadline); err != nil {
		return fmt.Errorf("clicked %s at %.0f,%.0f for %s: nothing changed: %w", c.String(), c.Tap.X, c.Tap.Y, want, err)
	}
	return nil
}

// inView turns the wheel over c's scroll container until c shows whole.
func (p *person) inView(want string, c reach.Control) (reach.Control, error) {
	for range 40 {
		if !c.OffView {
			return c, nil
		}
		down := c.Rect.Y+c.Rect.H > c.Scroll.Y+c.Scroll.H
		if p.log != nil {
			fmt.Fprintf(p.log, "%s wheel %v at %v for %s\n", time.Now().Format("15:04:05.000"), down, c.ScrollAt, c.String())
		}
		if err := p.wheel(c.ScrollAt, down); err != nil {
			return c, err
		}
		s, err := p.settle()
		if err != nil {
			return c, err
		}
		found := false
		for _, n := range s.Controls {
			if n.Kind == c.Kind && n.Text == c.Text && n.Region == c.Region {
				c, found = n, true
				break
			}
		}
		if !found {
			return c, fmt.Errorf("wants %s: it went away while scrolling to it", want)
		}
	}
	return c, fmt.Errorf("wants %s: the wheel does not bring it into view: %s", want, c.String())
}

// locate finds where the window's content starts on the display.
func (p *person) locate() error {
	out, err := exec.Command("xdotool", "search", "--sync", "--name", "^"+regexp.QuoteMeta(p.win)+"$", "getwindowgeometry", "--shell").Output()
	if err != nil {
		return fmt.Errorf("finding the window %q: %w", p.win, err)
	}
	for _, l := range strings.Fields(string(out)) {
		k, v, _ := strings.Cut(l, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "X":
			p.originX = n
		case "Y":
			p.originY = n
		}
	}
	return nil
}

// pixel is where pos of the canvas is on the display.
func (p *person) pixel(pos fyne.Position) (int, int) {
	sc := p.screen.Scale
	if sc <= 0 {
		sc = 1
	}
	return p.originX + int(pos.X*sc+0.5), p.originY + int(pos.Y*sc+0.5)
}

// point moves the pointer to pos. xdotool's --sync would wait for a
// motion that never comes when the pointer is there already; a short
// pause lets the window hear the move instead.
func (p *person) point(pos fyne.Position) error {
	x, y := p.pixel(pos)
	if err := xdo("mousemove", strconv.Itoa(x), strconv.Itoa(y)); err != nil {
		return err
	}
	time.Sleep(30 * time.Millisecond)
	return nil
}

func (p *person) click(pos fyne.Position) error {
	if err := p.point(pos); err != nil {
		return err
	}
	return xdo("click", "1")
}

// wheel turns the mouse wheel three notches at pos: down shows what is
// below.
func (p *person) wheel(pos fyne.Position, down bool) error {
	if err := p.point(pos); err != nil {
		return err
	}
	button := "4"
	if down {
		button = "5"
	}
	return xdo("click", "--repeat", "3", "--delay", "20", button)
}

func (p *person) typeText(s string) error {
	// xdotool type puts a letter that is not ASCII on a spare key for a
	// moment, which the window does not always take in time; a letter the
	// keyboard has on a key of its own (setxkbmap) is pressed as that key.
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return keysyms[r] != "" })
		if i < 0 {
			return xdo("type", "--delay", "50", s)
		}
		if i > 0 {
			if err := xdo("type", "--delay", "50", s[:i]); err != nil {
				return err
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if err := xdo("key", "--delay", "50", keysyms[r]); err != nil {
			return err
		}
		s = s[i+n:]
	}
	return nil
}

// keysyms name the keys of the letters a German keyboard has.
var keysyms = map[rune]string{'ä': "adiaeresis", 'ö': "odiaeresis", 'ü': "udiaeresis",
	'Ä': "Adiaeresis", 'Ö': "Odiaeresis", 'Ü': "Udiaeresis", 'ß': "ssharp"}

// fill types text into the entry match finds, what was there before
// cleared, and reads the entry back: a letter the keyboard lost is typed
// again, as a person who sees a typo corrects it, at most three times.
func (p *person) fill(want string, match func(reach.Control) bool, text string) error {
	shown := ""
	for range 3 {
		if err := p.tapFound(want, match); err != nil {
			return err
		}
		if err := xdo("key", "--clearmodifiers", "ctrl+a", "BackSpace"); err != nil {
			return err
		}
		if err := p.typeText(text); err != nil {
			return err
		}
		s, err := p.settle()
		if err != nil {
			return err
		}
		if cs := s.Find(match); len(cs) > 0 {
			if shown = cs[0].Text; shown == text {
				return nil
			}
		}
		fmt.Fprintf(os.Stderr, "%s: typed %q, the entry shows %q: again\n", want, text, shown)
	}
	return fmt.Errorf("%s: typed %q three times, the entry shows %q", want, text, shown)
}

func xdo(args ...string) error {
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// snap takes a screenshot of the window the first time a phase is met.
func (p *person) snap(phase string) {
	if p.shots == "" || p.taken[phase] {
		return
	}
	p.taken[phase] = true
	if _, err := p.shot(phase); err != nil {
		fmt.Fprintf(os.Stderr, "xperson: screenshot %s: %v\n", phase, err)
	}
}

// shot writes the window as it is to NAME-PHASE.png.
func (p *person) shot(phase string) (string, error) {
	dir := p.shots
	if dir == "" {
		dir = os.TempDir()
	}
	file := filepath.Join(dir, p.name+"-"+phase+".png")
	out, err := exec.Command("import", "-window", "root", file).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("import: %v: %s", err, out)
	}
	if s := p.screen; s != nil {
		sc := max(s.Scale, 1)
		crop := fmt.Sprintf("%dx%d+%d+%d", int(s.Size.Width*sc), int(s.Size.Height*sc), p.originX, p.originY)
		if out, err := exec.Command("convert", file, "-crop", crop, "+repage", file).CombinedOutput(); err != nil {
			return "", fmt.Errorf("convert: %v: %s", err, out)
		}
	}
	return file, nil
}

// gameOverRow is a row of the game-over table: place (or none, for a
// shared place), name, total.
var gameOverRow = regexp.MustCompile(`^(?:\d+ )?(.+) (-?\d+)$`)

// readTotals reads the totals off the game-over view, by seat: the rows
// whose name is a seat's, as the game's save names them (the person's
// seat, unnamed there, as the table calls the person: you).
func readTotals(s *reach.Screen, saveFile, you string) ([]int, error) {
	data, err := os.ReadFile(saveFile)
	if err != nil {
		return nil, fmt.Errorf("the game's save: %w", err)
	}
	var saved struct {
		Config struct {
			Names []string `json:"names"`
			You   int      `json:"you"`
		} `json:"config"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("the game's save: %w", err)
	}
	names := saved.Config.Names
	totals := make([]int, len(names))
	got := make([]bool, len(names))
	for _, l := range s.Lines(reach.RegionOver) {
		m := gameOverRow.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		seat := -1
		for i, name := range names {
			if name == "" && i == saved.Config.You {
				name = you
			}
			if name == m[1] {
				seat = i
			}
		}
		if seat >= 0 && !got[seat] {
			totals[seat], got[seat] = n, true
		}
	}
	for i, ok := range got {
		if !ok {
			return nil, fmt.Errorf("the game-over view shows no total for seat %d (%q): %q", i, names[i], s.Lines(reach.RegionOver))
		}
	}
	return totals, nil
}
