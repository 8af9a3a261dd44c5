package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/sim"
)

// duel plays a duplicate match between two bot kinds (docs/bots.md).
func (c *cli) duel(args []string) int {
	fs := c.flagSet("duel", "--edition E --players N --deals D --seed S --a KIND --b KIND [--budget DURATION]",
		"Play every deal several times with the two bot kinds rotated through the seats, so that the\n"+
			"luck of the deal cancels, and print their points per seat per round with the difference and\n"+
			"its 95% confidence interval. Progress goes to stderr; the last line to stdout.")
	edition := fs.String("edition", "classic", "edition: classic or modern")
	players := fs.Int("players", 4, "number of players (classic 3-4, modern 2-5)")
	deals := fs.Int("deals", 100, "number of deals; each is played once per seating")
	seed := fs.Uint64("seed", 1, "seed of the match; the same seed plays the same deals")
	a := fs.String("a", "search", "bot kind A: "+strings.Join(bot.Kinds(), ", ")+",\n"+
		"or search:LEVEL with a level ("+strings.Join(bot.SearchLevels(), ", ")+" playouts) or a number of playouts")
	b := fs.String("b", "heuristic", "bot kind B")
	budget := fs.Duration("budget", 0, "cap on the time of one search decision, e.g. 200ms (0: the playout budget only;\n"+
		"a cap makes the results depend on the machine)")
	workers := fs.Int("workers", 0, "deals played at once (0: one per core); the result does not depend on it")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	e, err := checkEdition(*edition, *players)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if *deals < 1 {
		return usageError(fs, "bad --deals %d: want at least 1", *deals)
	}
	for _, k := range []struct{ flag, kind string }{{"a", *a}, {"b", *b}} {
		if _, err := bot.New(k.kind, nil); err != nil {
			return usageError(fs, "bad --%s %q: want one of %s, or search:LEVEL", k.flag, k.kind, strings.Join(bot.Kinds(), ", "))
		}
	}
	if *budget < 0 {
		return usageError(fs, "bad --budget %s: want a positive duration, or 0 for none", *budget)
	}
	if *workers < 0 {
		return usageError(fs, "bad --workers %d: want 0 or more", *workers)
	}
	ctx, stop := signalContext()
	defer stop()
	start := c.now()
	last := start
	cfg := sim.DuelConfig{
		Edition: e, Players: *players, Deals: *deals, Seed: *seed,
		A: strings.ToLower(strings.TrimSpace(*a)), B: strings.ToLower(strings.TrimSpace(*b)),
		TimeLimit: *budget, Workers: *workers,
		Progress: func(r sim.DuelResult) {
			if now := c.now(); r.Deals == *deals || now.Sub(last) >= 2*time.Second {
				last = now
				fmt.Fprintf(c.stderr, "deal %d/%d, %s: %.3f vs %.3f, difference %.3f ± %.3f\n",
					r.Deals, *deals, now.Sub(start).Round(time.Second), r.PerSeatA, r.PerSeatB, r.Diff, r.Half)
			}
		},
	}
	res, err := sim.Duel(ctx, cfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "njet duel: %v\n", err)
		if errors.Is(err, ctx.Err()) && res.Deals > 0 {
			fmt.Fprintf(c.stderr, "njet duel: stopped after %d deals: %s\n", res.Deals, res.Line())
		}
		return ExitFail
	}
	fmt.Fprintln(c.stdout, res.Line())
	return ExitOK
}
