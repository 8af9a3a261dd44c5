package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/lan"
	ntable "github.com/njetlan/njet/table"
	"github.com/njetlan/njet/term"
	tgbot "github.com/njetlan/njet/thegame/bot"
	"github.com/njetlan/njet/words"
)

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
	if *f.bot != "" && !anyBot(*f.bot) {
		return usageError(fs, "bad --bot %q: want one of %s", *f.bot, strings.Join(append(bot.Kinds(), tgbot.Kinds()...), ", "))
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
	fs := c.flagSet("host", "[--game njet|thegame] --name N [--edition E | --extreme] [--players P] [--bots K] [--bot KIND] [--player NAME] [--rounds R] [--clock D] [--hints] [--data DIR]",
		"Create a table, advertise it on the LAN (mDNS) and print its join code and address, wait\n"+
			"for players to join (njet join), fill --bots seats with bots hosted here, and play to the\n"+
			"end. You play seat 0 in the terminal; with --bot KIND a bot plays it instead (a joining\n"+
			"device's bot of the other game plays as the bot of the same strength). The log is exported\n"+
			"at the end, and njet verify checks it.\n"+
			"A device with an unfinished table in its store resumes it instead (as a person or a bot,\n"+
			"as --bot says this time).")
	name := fs.String("name", "", "name of the table, as others see it")
	game := addGameFlags(fs, true)
	bots := fs.Int("bots", 0, "seats this device fills with bots (the rest wait for players)")
	rounds := fs.Int("rounds", 0, "Njet: end the game after this many rounds (0: the whole game)")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for players")
	clock := fs.Duration("clock", 0, "the table's clock: how long a person has for each move before their bot\nmakes it for them (0: no clock, people take the time they like)")
	hints := fs.Bool("hints", false, "allow hints: each person may type \"hint\" for a strong bot's move")
	lf := addLANFlags(fs)
	g, code := game.parse(args)
	if code >= 0 {
		return code
	}
	switch {
	case strings.TrimSpace(*name) == "":
		return usageError(fs, "--name is required")
	case *bots < 0 || *bots > g.players-1:
		return usageError(fs, "bad --bots %d: want 0 to %d", *bots, g.players-1)
	case *rounds < 0 || *rounds > 255:
		return usageError(fs, "bad --rounds %d: want 0 to 255", *rounds)
	case *rounds > 0 && g.theGame():
		return usageError(fs, "--rounds is not a flag of %s", g.game.Title)
	case *wait <= 0:
		return usageError(fs, "bad --wait %v", *wait)
	case *clock < 0 || *clock > ntable.MaxClock*time.Second || *clock%time.Second != 0 || *clock > 0 && *clock < 5*time.Second:
		return usageError(fs, "bad --clock %v: want whole seconds from 5s to %v, or 0", *clock, ntable.MaxClock*time.Second)
	}
	if *lf.bot != "" {
		if _, err := botKinds(g.game, "bot", *lf.bot, false); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if code := lf.check(fs); code >= 0 {
		return code
	}
	ctx, stop := signalContext()
	defer stop()
	d, err := c.openDevice("host", lf)
	if err != nil {
		return c.fail("host", "%v", err)
	}
	defer d.Close()
	if code := c.resume(ctx, "host", d, lf); code >= 0 {
		return code
	}
	t, err := d.Host(ctx, lan.HostConfig{Name: *name, Game: g.game.Name, Variant: g.variant(), Players: g.players, Bots: *bots,
		Short: g.short, Target: g.target, Rounds: *rounds, Clock: int(*clock / time.Second), Wait: *wait, Bot: *lf.bot, Player: *lf.player, Hints: *hints},
		c.progress("host"))
	if err != nil {
		return c.fail("host", "%v", why(ctx, err))
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
			fmt.Fprintf(c.stdout, "table %q (%v), %s, %s, %s%s\n", p.Name, p.ID, gameOf(p.Game, p.Variant), count(p.Players, "player"),
				count(p.Bots, "bot"), perMove(p.Clock))
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
			fmt.Fprintf(c.stdout, "found table %q (%v)%s at %v\n", p.Ad.Name, p.Ad.ID, perMove(p.Ad.Clock), p.Ad.Peer)
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
		return c.fail(name, "%v", err)
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
	out, err := d.Play(ctx, t, lan.PlayConfig{Linger: *lf.linger, Person: c.playPerson}, c.showPlay)
	if err != nil {
		return c.fail(name, "%v", why(ctx, err))
	}
	if out.CloseErr != nil {
		fmt.Fprintf(c.stderr, "njet %s: %v\n", name, out.CloseErr)
	}
	if out.Left {
		return ExitOK
	}
	path := *lf.export
	if path == "" {
		path = d.LogPath(t.Lobby())
	}
	if err := d.Export(t.ID(), path); err != nil {
		return c.fail(name, "export: %v", err)
	}
	fmt.Fprintf(c.stdout, "%d envelopes, log hash %v, exported to %s\n", out.Envelopes, out.Head, path)
	if !out.Over {
		return c.fail(name, "the game did not end: %s", out.Waiting)
	}
	if err := d.MarkOver(t.ID()); err != nil {
		return c.fail(name, "%v", err)
	}
	if out.TheGame != nil {
		c.theGameOver(out.TheGame)
	}
	fmt.Fprintf(c.stdout, "the game is over\n")
	return ExitOK
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
	case lan.Tricks:
		if e.Game == ntable.GameTheGame {
			fmt.Fprintf(c.stdout, "playing…\n")
		} else {
			fmt.Fprintf(c.stdout, "tricks…\n")
		}
	case lan.SeatTakenOver:
		fmt.Fprintf(c.stdout, "%s\n", takenOverWords(e))
	case lan.SeatGone:
		seat := func(s int, name string) words.Msg {
			if name != "" {
				return words.Plain(name)
			}
			return words.Plain(fmt.Sprintf("seat %d", s))
		}
		if e.Game == ntable.GameTheGame {
			fmt.Fprintf(c.stdout, "%s\n", words.TheGameGone(seat(e.Seat, e.Name), seat(e.Host, e.HostName), e.You))
		} else {
			fmt.Fprintf(c.stdout, "%s\n", words.Gone(seat(e.Seat, e.Name), seat(e.Host, e.HostName), e.Kept, e.You))
		}
	case lan.RoundOver:
		fmt.Fprintf(c.stdout, "round %d: points %v, totals %v\n", e.Result.Round, e.Result.Points, e.Result.Totals)
	case lan.Violation:
		fmt.Fprintf(c.stdout, "violation: %v\n", e.Err)
	case lan.CatchingUp:
		fmt.Fprintf(c.stdout, "waiting for the other devices to catch up…\n")
	case lan.Rejoined:
		fmt.Fprintf(c.stdout, "back with the table: it went on while this device was cut off, and what this device played alone meanwhile does not count\n")
	case lan.SecretsLost:
		fmt.Fprintf(c.stdout, "this device lost its secrets for this round (its store was damaged): its seat stays silent until the table voids the round\n")
	}
}

// playPerson lets the person play their seat in the terminal, at a table
// of any game.
func (c *cli) playPerson(ctx context.Context, s lan.PersonSeat) error {
	var err error
	if s.Game == ntable.GameTheGame {
		ts, serr := s.TheGameSeat()
		if serr != nil {
			return serr
		}
		err = term.PlayTheGameLAN(ctx, ts, !isTerminal(c.stdin), c.stdin, c.stdout)
	} else {
		err = term.PlayLAN(ctx, term.LANConfig{Seat: s.Seat, Peer: s.Peer, Changed: s.Changed, Echo: !isTerminal(c.stdin),
			Rounds: s.Rounds, Names: s.Names, Hints: s.Hints}, c.stdin, c.stdout)
	}
	if errors.Is(err, term.ErrLeft) {
		return lan.ErrLeft
	}
	return err
}

// joinAs is njet join, and njet watch: the same with --watch set.
func (c *cli) joinAs(name string, args []string) int {
	synopsis := "[--table ID | --addr A | --code C] [--bot KIND] [--player NAME] [--data DIR] [--watch [--take SEAT]]"
	if name == "watch" {
		synopsis = "--addr A | --code C [--take SEAT [--bot KIND]] [--player NAME] [--data DIR] [--export FILE]"
	}
	fs := c.flagSet(name, synopsis,
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
	watch := fs.Bool("watch", name == "watch", "watch a table under way without a seat (needs --addr or --code of a device at it)")
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
	d, err := c.openDevice(name, lf)
	if err != nil {
		return c.fail(name, "%v", err)
	}
	defer d.Close()
	if *watch {
		return c.watch(ctx, name, d, target, *wait, *take, lf)
	}
	if code := c.resume(ctx, "join", d, lf); code >= 0 {
		return code
	}
	t, err := d.JoinAs(ctx, target, lan.JoinConfig{Bot: *lf.bot, Player: *lf.player, Find: *wait}, c.progress("join"))
	if err != nil {
		return c.fail("join", "%v", why(ctx, err))
	}
	defer t.Close()
	return c.playTable(ctx, "join", d, t, lf)
}

// watch follows the table at target as a watcher until its game is over
// or the person quits, and exports the log it saw when --export asks. With
// a seat to take (take >= 0) it claims that seat meanwhile, and once the
// table hands it over it plays the seat to the end like any joiner.
func (c *cli) watch(ctx context.Context, name string, d *lan.Device, target lan.JoinTarget, wait time.Duration, take int, lf *lanFlags) int {
	wctx, cancel := context.WithTimeout(ctx, wait)
	w, err := d.Watch(wctx, target, c.progress(name))
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("no table to watch answered within %v", wait)
		}
		return c.fail(name, "%v", why(ctx, err))
	}
	gen := w.Genesis()
	what := gen.Edition.String()
	if g, v, err := games.Of(gen); err == nil {
		what = gameOf(g.Name, v.ID)
	}
	fmt.Fprintf(c.stdout, "watching table %v: %s, %s\n", w.Lobby(), what, count(gen.Players(), "player"))
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
			return c.playTable(ctx, name, d, res.table, lf)
		case ctx.Err() != nil:
			return ExitFail
		case errors.Is(res.err, context.Canceled) && err == nil:
			// The game ended first: the watch screen told it.
			return c.fail(name, "%v: seat %d was not handed over before the end", lan.ErrGameOver, take)
		case !errors.Is(res.err, context.Canceled):
			return c.fail(name, "%v", res.err)
		}
	}
	if *lf.export != "" {
		if xerr := w.Export(*lf.export); xerr != nil {
			return c.fail(name, "export: %v", xerr)
		}
		next, head := w.Log().Head()
		fmt.Fprintf(c.stdout, "%d envelopes, log hash %v, exported to %s\n", next, head, *lf.export)
	}
	switch {
	case errors.Is(err, term.ErrLeft):
		return ExitOK
	case err != nil:
		return c.fail(name, "%v", why(ctx, err))
	}
	return ExitOK
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
		return c.fail("tables", "%v", err)
	}
	fmt.Fprintf(c.stdout, "%s\n", count(len(last), "table"))
	for _, ad := range last {
		fmt.Fprintf(c.stdout, "%s\n", describeAd(ad))
	}
	return ExitOK
}

func describeAd(ad lan.TableAd) string {
	host := ""
	if ad.Host != "" {
		host = fmt.Sprintf(" %q", ad.Host)
	}
	return fmt.Sprintf("table %q id %v, %s, %d players, %d free%s, host%s %v", ad.Name, ad.ID, gameOf(ad.Game, ad.Variant),
		ad.Players, ad.Free, perMove(ad.Clock), host, ad.Peer)
}

// perMove tells a table's clock of secs seconds per move after a comma,
// or "" when the table has none.
func perMove(secs int) string {
	if secs <= 0 {
		return ""
	}
	return fmt.Sprintf(", %v per move", time.Duration(secs)*time.Second)
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
