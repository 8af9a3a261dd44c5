package cli

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	ntable "github.com/njetlan/njet/table"
)

// Main runs the command line args (without the program name) on the
// process's streams and returns the exit code. Without a command it opens
// the app through open; nil in a build without the app.
func Main(args []string, open Window) int {
	c := newCLI(os.Stdin, os.Stdout, os.Stderr)
	c.window, c.open = true, open
	return c.run(args)
}

// Exit codes of Main and Run.
const (
	ExitOK    = 0 // the command did what it was asked
	ExitFail  = 1 // the command ran and failed
	ExitUsage = 2 // bad command line
)

// cli is the command line's environment: its streams, the source of fresh
// seeds and the clock, so that tests can replace them.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	freshSeed      func() (uint64, error)
	now            func() time.Time
	// window is set when no command opens the app; otherwise no command
	// prints the usage. open opens it (nil: a build without the app).
	window bool
	open   Window
}

func newCLI(stdin io.Reader, stdout, stderr io.Writer) *cli {
	return &cli{stdin: stdin, stdout: stdout, stderr: stderr, freshSeed: cryptoSeed, now: time.Now}
}

// Run runs the command line args (without the program name) with no input
// and no app, and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
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
	{"join", "find a table on the LAN (or by address or join code) and take a seat; or watch one\n           under way, and take a seat a bot plays (seated in the lobby or since its device left)",
		func(c *cli, args []string) int { return c.joinAs("join", args) }},
	{"watch", "watch a table under way from a device at it (njet join --watch), and take a seat a bot\n           plays with --take SEAT", func(c *cli, args []string) int { return c.joinAs("watch", args) }},
	{"tables", "list the tables advertised on the LAN", (*cli).tables},
}

// usage prints the commands to w: stdout when asked for (help, -h), stderr
// after a mistake.
func (c *cli) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: njet [--size WxH]       open the app (a window)\n       njet <command> [flags]\n\nCommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nplay, sim, selfplay and host play Njet! or, with --game thegame, The Game (--extreme for its\ncommand cards); join and watch play whatever game the table plays.\n")
	fmt.Fprintf(w, "\nThe app's flag:\n  --size WxH  the window's size in pixels, e.g. 360x740 for a phone held upright\n")
	fmt.Fprintf(w, "\nRun \"njet <command> -h\" for the flags of a command.\n")
}

func (c *cli) run(args []string) int {
	switch {
	case len(args) > 0 && asksHelp(args[:1]) || len(args) > 0 && args[0] == "help":
		c.usage(c.stdout)
		return ExitOK
	case c.window && (len(args) == 0 || strings.HasPrefix(args[0], "-")):
		return c.app(args) // no command: the app
	case len(args) == 0:
		c.usage(c.stderr)
		return ExitUsage
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "njet: unknown command %q\n\n", args[0])
	c.usage(c.stderr)
	return ExitUsage
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

// parse parses args, flags only, into fs and returns the exit code to
// stop with, or -1 to go on.
func parse(fs *flag.FlagSet, args []string) int {
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "njet %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return ExitUsage
	}
	return -1
}

// parseFlags parses args into fs, leaving the arguments after the flags
// to the caller, and returns the exit code to stop with, or -1 to go on.
// Help asked for goes to stdout, a usage error to stderr.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if u, ok := fs.Output().(*usageOut); ok {
		u.help = asksHelp(args)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	return -1
}

// usageError reports a bad flag value with the command's usage.
func usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "njet %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return ExitUsage
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

// fail tells why command cmd failed and returns ExitFail.
func (c *cli) fail(cmd, format string, args ...any) int {
	fmt.Fprintf(c.stderr, "njet %s: %s\n", cmd, fmt.Sprintf(format, args...))
	return ExitFail
}
