package term

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/words"
)

// WatchConfig sets up a watcher of a table on the LAN.
type WatchConfig struct {
	// View returns the table's public view now (lan.Watcher.View): the
	// engine's view from outside the table, whom it waits for, the
	// results and the voided rounds.
	View func() table.PeerView
	// Changed receives a value whenever the table may have moved on;
	// WatchLAN also looks at the view every second.
	Changed <-chan struct{}
	// Names are the players' names by seat (the genesis's).
	Names []string
	// Rounds is the number of rounds the table plays when its genesis ends
	// the game early (0: the edition's).
	Rounds int
	// Width is the width text is wrapped to (0: the terminal's, else 80).
	Width int
	// Echo repeats each typed line after reading it.
	Echo bool
	// Taking, when not "", names the seat the watcher asked the table
	// for (njet join --watch --take): the screen says it waits for that
	// seat instead of how to type, since the input is the seat's.
	Taking string
}

// WatchLAN shows a table on the LAN to a watcher, from out, until the game
// is over (nil), the watcher types "quit" (ErrLeft) or ctx ends (its
// error). It tells what the table shows every seat: each round's dealer,
// the blocks on the board and the rules they leave, the teams, the cards
// as they are played and who takes each trick, whom the table waits for
// when that lasts, the voided rounds and the scores. It never shows a
// hand, a discard or a pass: the view it reads holds none. "help" shows
// the table again. The end of the input only stops the typing.
func WatchLAN(ctx context.Context, cfg WatchConfig, in io.Reader, out io.Writer) error {
	if cfg.View == nil {
		return fmt.Errorf("term: WatchLAN without a view")
	}
	width := cfg.Width
	if width <= 0 {
		width = widthOf(out)
	}
	w := &watch{cfg: cfg}
	w.screen = &screen{e: engine.Classic, you: -1, watching: true, others: "Seat", names: cfg.Names,
		view: w.view, out: &printer{w: out, width: width}}

	lines, stop := readLines(in)
	defer stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	if cfg.Taking != "" {
		w.out.f("You are watching the table until %s is yours: you see what it shows every seat, never a hand.\n", cfg.Taking)
	} else {
		w.out.f("You are watching the table: you see what it shows every seat, never a hand. " +
			"\"help\" shows the table, \"quit\" leaves.\n")
	}
	for {
		if w.update() || w.out.err != nil {
			return w.out.err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cfg.Changed:
		case <-tick.C:
		case got := <-lines:
			if got.err != nil {
				lines = nil // the end of the input only stops the typing
				continue
			}
			line := got.text
			if cfg.Echo {
				w.out.f("%s\n", line)
			}
			switch normalise(line) {
			case "quit", "q", "exit":
				w.out.f("You stop watching.\n")
				return ErrLeft
			case "help", "h", "?":
				w.showTable()
			case "":
			default:
				w.out.f("You are watching: \"help\" shows the table, \"quit\" leaves.\n")
			}
		}
	}
}

// watch is a watcher's screen of a table under way.
type watch struct {
	lanScreen
	cfg WatchConfig
	cur engine.View

	// What has been told already, beside the lanScreen's.
	ready     bool
	waitSince time.Time
	waitTold  time.Duration
}

func (w *watch) view() engine.View {
	v := w.cur
	if w.cfg.Rounds > 0 {
		v.Rounds = w.cfg.Rounds
	}
	return v
}

// update shows what changed since the last look and reports whether the
// game is over.
func (w *watch) update() bool {
	v := w.cfg.View()
	if v.Game.Players > 0 && !w.ready {
		w.ready = true
		w.e, w.n = v.Game.Edition, v.Game.Players
		w.out.f("Njet! %s edition, %d players.\n", words.Edition(w.e), w.n)
	}
	before := w.cur
	w.cur = v.Game
	if w.ready {
		w.narrate(before, v.Game, w.discarding)
	}
	w.showResults(v)
	for _, viol := range v.Voided[min(w.voided, len(v.Voided)):] {
		if w.out.sayVoided(viol, words.Plain(w.name(viol.Seat)), viol == v.Abandoned) {
			continue
		}
		if viol == v.Abandoned {
			w.out.f("\nThe game ends without a winner: %v.\n", viol)
			continue
		}
		w.out.f("\nThe table voided the round: %v. It is dealt again; a bot plays %s now.\n", viol, w.name(viol.Seat))
	}
	w.voided = len(v.Voided)
	if v.Over {
		w.showGameOver(v)
		return true
	}
	w.showHalt(v)
	if v.Turn >= 0 && v.Silent >= waitQuiet && (v.Since != w.waitSince || v.Silent >= w.waitTold+waitRepeat) {
		w.waitSince, w.waitTold = v.Since, v.Silent
		w.out.f("waiting for %s (%s) since %v\n", w.name(v.Turn), kindName(v.Kind), v.Silent.Round(time.Second))
	}
	return false
}

// discarding tells that the seats discard, and that what they discard
// or pass stays hidden.
func (w *watch) discarding(before, after engine.View) {
	if before.Phase < engine.PhaseDiscard && after.Phase == engine.PhaseDiscard {
		w.out.f("The seats discard; what they discard or pass stays hidden until the round's end.\n")
	}
}

// showTable shows the table again: the board or the rules, the teams, the
// trick under way and the totals.
func (w *watch) showTable() {
	if !w.ready {
		w.out.f("The table has not started yet.\n")
		return
	}
	v := w.view()
	w.out.f("\n")
	switch {
	case v.Phase == engine.PhaseNjet:
		w.showFinalBoard(v)
	case v.Phase > engine.PhaseNjet && v.Phase < engine.PhaseRoundOver:
		w.showRules(v.Rules)
		w.showTeams(v)
		if v.Phase == engine.PhaseTricks && v.Turn >= 0 && v.Turn < len(v.HandSizes) {
			// HandSizes count the cards still held: the seat to play
			// holds one more than those who played into this trick.
			left := v.HandSizes[v.Turn]
			if len(v.Trick.Plays) > 0 {
				left = v.HandSizes[v.Trick.Plays[0].Seat] + 1
			}
			w.out.say(words.TrickUnderWay(len(v.Tricks)+1, len(v.Tricks)+left, v.Trick.Plays, w.seats()))
		}
	}
	_, total := words.ScoreColumns()
	w.out.f("  %-24s %6s\n", "", total)
	for seat := range v.Totals {
		w.out.f("  %-24s %6d\n", w.longName(seat), v.Totals[seat])
	}
}
