package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/words"
)

// TheGameLANSeat is what PlayTheGameLAN needs of a person's seat at a LAN
// table of The Game (a *seat.TheGameSeat).
type TheGameLANSeat interface {
	You() int
	Name(seat int) string
	View() thegame.View
	Act(a thegame.Action) error
	Warning(a thegame.Action) (thegame.Command, bool)
	Moves(from int) []thegame.Action
	Host(seat int) int
	YourTurn() bool
	Waiting() (int, bool)
	Wait() seat.Wait
	Changed() <-chan struct{}
	Halted() error
}

// PlayTheGameLAN lets a person play their seat at a LAN table of The
// Game, reading lines from in and writing to out, until the game is over
// (nil), the person leaves (ErrLeft: "quit", or the end of the input), or
// ctx ends (its error). It shows the table and asks for a move when the
// seat is on turn, with the prompts and commands of the local game
// (PlayTheGame), tells every seat's moves as the log brings them, and
// whom the table waits for when that lasts. A move the table refuses is
// explained, nothing is lost, and the person chooses again; a card that
// would lose the game is laid only after a "yes". echo repeats each line
// read (input not typed at a terminal).
func PlayTheGameLAN(ctx context.Context, s TheGameLANSeat, echo bool, in io.Reader, out io.Writer) error {
	if s == nil {
		return fmt.Errorf("term: PlayTheGameLAN without a seat")
	}
	l := &tgLAN{seat: s, you: s.You(), out: out, echo: echo, shown: -1, told: seat.Comparable[thegame.Action]()}
	lines, stop := readLines(in)
	defer stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	l.printf("You play seat %d at a table of The Game; the other seats are played by their devices. "+
		"Type \"help\" for the commands.\n", l.you)
	for {
		over, err := l.update()
		if err != nil || over || l.werr != nil {
			return errors.Join(err, l.werr)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.Changed():
		case <-tick.C:
		case line := <-lines:
			if errors.Is(line.err, io.EOF) {
				l.printf("\nInput ended: you leave the table. Your seat stays in this device's store; run the same command again to resume.\n")
				return ErrLeft
			} else if line.err != nil {
				return fmt.Errorf("term: read: %w", line.err)
			}
			if l.echo {
				l.printf("%s\n", strings.TrimSpace(line.text))
			}
			if l.answer(line.text) {
				l.printf("You leave the table. Your seat stays in this device's store; run the same command again to resume.\n")
				return ErrLeft
			}
		}
	}
}

// tgLAN is a person's seat at a LAN table of The Game under way.
type tgLAN struct {
	seat TheGameLANSeat
	you  int
	out  io.Writer
	werr error
	echo bool

	told     seat.Told[thegame.Action] // moves told
	hosts    seat.Hosts                // each seat's host as last told
	cutTold  time.Time                 // the cut-off told about (seat.CutOff)
	shown    int                       // the turn whose table was last shown
	prompted bool                      // the prompt stands
	confirm  *thegame.Action           // a losing card waiting for "yes"

	// clockUntil is the end of the person's time for the move last told
	// of (Wait.Until), clockTold the seconds left it last said; now is
	// the clock they are read on (time.Now when nil). clockOut is set once
	// it said that the time ran out, until the bot's move is told or the
	// next move is asked with a clock: the prompt waits meanwhile.
	clockUntil time.Time
	clockTold  int
	clockOut   bool
	now        func() time.Time

	waitSeat  int       // the seat the table waits for ...
	waitSince time.Time // ... since
	waitTold  bool      // and the wait was told
}

func (l *tgLAN) printf(format string, args ...any) {
	if l.werr == nil {
		_, l.werr = fmt.Fprintf(l.out, format, args...)
	}
}

// name names a seat: "You", the player's name, or its number.
func (l *tgLAN) name(s int) string {
	if s == l.you {
		return "You"
	}
	if n := l.seat.Name(s); n != "" {
		return n
	}
	return fmt.Sprintf("Seat %d", s)
}

// tellCutOff tells the person, once, that this device hears none of the
// others: it is most likely the one cut off.
func (l *tgLAN) tellCutOff(s seat.Wait) {
	if !s.CutOff.IsZero() && !s.CutOff.Equal(l.cutTold) {
		l.cutTold = s.CutOff
		l.printf("%s\n", words.CutOff(int(s.Unheard/time.Second)))
	}
}

// tellClock tells the person of the table's clock on their move (until,
// zero without one): how long they have when the move is asked, a
// reminder at 30 and at 10 s left, and that their bot moved for them once
// their time ran out. What it says stands on lines of its own, and the
// prompt comes again under it.
func (l *tgLAN) tellClock(until time.Time) {
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	if !until.Equal(l.clockUntil) {
		if !l.clockUntil.IsZero() && !now.Before(l.clockUntil) {
			l.sayAside(words.ClockOut())
			l.clockOut = true
		}
		l.clockUntil = until
		if !until.IsZero() {
			l.clockTold, l.clockOut = secondsLeft(until, now), false
			l.sayAside(words.ClockMove(l.clockTold))
		}
		return
	}
	if until.IsZero() {
		return
	}
	if left := secondsLeft(until, now); clockReminder(left, l.clockTold) {
		l.clockTold = left
		l.sayAside(words.ClockLeft(left))
	}
}

// sayAside says m on a line of its own, under the prompt if it stands,
// which then comes again.
func (l *tgLAN) sayAside(m words.Msg) {
	if l.prompted {
		l.printf("\n")
		l.prompted = false
	}
	l.printf("%s\n", m)
}

// update tells what happened since it last looked, and prompts when the
// seat is on turn. It reports whether the game is over.
func (l *tgLAN) update() (bool, error) {
	v := l.seat.View()
	fresh, switched := l.told.News(l.seat.Moves(0))
	if switched {
		l.printf("%s\n", words.TheGame("thegame.lan.back"))
	}
	if len(fresh) > 0 && l.prompted {
		// The moves go under the prompt, which comes again.
		l.printf("\n")
		l.prompted = false
	}
	for _, a := range fresh {
		l.tell(a, v.Extreme)
		l.clockOut = false
	}
	l.lookHosts(len(v.HandSizes))
	sil := l.seat.Wait()
	if v.Phase != thegame.PhaseOver {
		l.tellClock(sil.Until)
	}
	if err := l.seat.Halted(); err != nil {
		l.printf("The table stopped: %v\n", err)
		return true, err
	}
	if v.Phase == thegame.PhaseOver {
		r := v.Result
		l.printf("\nThe game is over. Cards left: %d.\n", r.CardsLeft)
		if r.Broken != thegame.CmdNone {
			l.printf("The command %q could not be kept.\n", r.Broken.String())
		}
		l.printf("%s\n", capitalise(r.Rating().Words()))
		return true, nil
	}
	if l.seat.YourTurn() {
		l.waitSince, l.waitTold = time.Time{}, false
		if l.shown != v.Turns {
			l.shown = v.Turns
			showTheGame(l.printf, v, l.name)
		}
		if !l.prompted && l.confirm == nil && !l.clockOut {
			l.prompted = true
			pos := v.Position()
			l.printf("Your turn (%d laid, at least %d): ", pos.Played, pos.Min())
		}
		return false, nil
	}
	l.prompted = false
	l.tellCutOff(sil)
	w, ok := l.seat.Waiting()
	switch {
	case !ok || w == l.you:
		// A wait that comes again starts afresh.
		l.waitSince, l.waitTold = time.Time{}, false
	case w != l.waitSeat || l.waitSince.IsZero():
		l.waitSeat, l.waitSince, l.waitTold = w, time.Now(), false
	case !l.waitTold && time.Since(l.waitSince) >= waitQuiet:
		l.waitTold = true
		l.printf("Waiting for %s's device…\n", l.name(w))
	}
	return false, nil
}

// tell prints a move of the game.
func (l *tgLAN) tell(a thegame.Action, extreme bool) {
	switch a.Kind {
	case thegame.ActPlay:
		verb := "lays"
		if a.Seat == l.you {
			verb = "lay"
		}
		l.printf("%s %s %s on %s.\n", l.name(a.Seat), verb, theGameCard(int(a.Card), extreme), pileName(a.Pile))
	case thegame.ActEnd:
		verb := "ends"
		if a.Seat == l.you {
			verb = "end"
		}
		l.printf("%s %s the turn.\n", l.name(a.Seat), verb)
	case thegame.ActSignal:
		switch {
		case a.Signal == thegame.SignalNone && a.Seat == l.you:
			l.printf("You take your signal off %s.\n", pileName(a.Pile))
		case a.Signal == thegame.SignalNone:
			l.printf("%s takes their signal off %s.\n", l.name(a.Seat), pileName(a.Pile))
		case a.Seat == l.you:
			l.printf("You signal on %s: %q.\n", pileName(a.Pile), signalWords[a.Signal])
		default:
			l.printf("%s signals on %s: %q.\n", l.name(a.Seat), pileName(a.Pile), signalWords[a.Signal])
		}
	}
}

// answer handles a line the person typed; it reports whether the person
// leaves.
func (l *tgLAN) answer(line string) bool {
	l.prompted = false
	if c := l.confirm; c != nil {
		l.confirm = nil
		if a := strings.ToLower(strings.TrimSpace(line)); a == "yes" || a == "y" {
			l.act(*c)
		} else {
			l.printf("The card stays in your hand.\n")
		}
		return false
	}
	in := parseTheGame(line, l.you)
	switch in.word {
	case "":
	case "quit":
		return true
	case "help":
		l.printf("%s", tgHelp)
	case "rules":
		l.printf("%s", tgRules)
	case "show":
		showTheGame(l.printf, l.seat.View(), l.name)
	case "hint":
		if h, ok := l.seat.(interface{ Hints() bool }); !ok || !h.Hints() {
			l.printf("%s\n", words.HintsOff())
		} else if !l.seat.YourTurn() {
			l.printf("%s\n", words.NoHint())
		} else {
			l.printf("%s\n", theGameHint(l.seat.View()))
		}
	case "bad":
		l.printf("%s\n", in.msg)
	default:
		if !l.seat.YourTurn() {
			if w, ok := l.seat.Waiting(); ok && w != l.you {
				l.printf("Not your turn: the table waits for %s. Nothing is lost: choose again when it is your turn.\n", l.name(w))
			} else {
				l.printf("Not now: the table is not waiting for your move.\n")
			}
			return false
		}
		a := in.action
		if a.Kind == thegame.ActPlay {
			if k, lose := l.seat.Warning(a); lose {
				l.confirm = &a
				l.printf("%s", theGameWarning(k))
				return false
			}
		}
		l.act(a)
	}
	return false
}

// act hands the table a move and says why when it is refused.
func (l *tgLAN) act(a thegame.Action) {
	err := l.seat.Act(a)
	switch {
	case err == nil:
	case errors.Is(err, table.ErrMovePending):
		l.printf("Your last move is still on its way to the table: wait a moment.\n")
	case a.Kind == thegame.ActEnd:
		l.printf("Not yet: %s.\n", reason(err))
	case a.Kind == thegame.ActSignal:
		l.printf("No signal: %s.\n", reason(err))
	default:
		l.printf("Not possible: %s. Nothing is lost: choose again.\n", reason(err))
	}
}

// lookHosts tells the seats that changed hands since the last look: the
// person's own, taken over while the device was away and given back, and
// another seat whose device left, now played by a bot.
func (l *tgLAN) lookHosts(n int) {
	if l.you < 0 || l.you >= n {
		return
	}
	now := make([]int, n)
	for s := range now {
		now[s] = l.seat.Host(s)
	}
	news, _ := l.hosts.News(l.you, now)
	for _, c := range news {
		switch {
		case c.Seat == l.you && c.Host != l.you:
			l.printf("%s\n", words.TheGame("thegame.lan.away", "Host", l.name(c.Host)))
		case c.Seat == l.you:
			l.printf("%s\n", words.TheGame("thegame.lan.yours"))
		case c.Host == l.you:
			l.printf("%s\n", words.TheGame("thegame.lan.gone.you", "Name", l.name(c.Seat)))
		default:
			l.printf("%s\n", words.TheGame("thegame.lan.gone", "Name", l.name(c.Seat), "Host", l.name(c.Host)))
		}
	}
}
