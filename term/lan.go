package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/words"
)

// ErrLeft is what PlayLAN returns when the person leaves the table (quit,
// or the end of the input) before the game is over. The device's store
// keeps the seat: the same command resumes it.
var ErrLeft = errors.New("term: left the table")

// LANSeat is what PlayLAN needs of the peer that plays the person's seat
// (a *table.Peer with PeerConfig.Human).
type LANSeat interface {
	View() table.PeerView
	Submit(move any) error
	VoteVoid() error
	DeclineVoid() error
}

// LANConfig sets up a person's seat at a table on the LAN.
type LANConfig struct {
	// Seat is the person's seat and Peer the peer that posts for it.
	Seat int
	Peer LANSeat
	// Changed receives a value whenever the table may have moved on (the
	// peer's events); PlayLAN also looks at the peer's view every second.
	Changed <-chan struct{}
	// Patience is the peer's patience with a silent seat: from then on
	// PlayLAN asks the person whether a bot may play that seat, and asks
	// again after as long if the answer was no (table.DefaultPatience if
	// 0).
	Patience time.Duration
	// Echo repeats each answer after reading it (input not typed at a
	// terminal).
	Echo bool
	// Rounds is the number of rounds the table plays when its genesis ends
	// the game early (0: the edition's).
	Rounds int
	// Width is the width text is wrapped to; 0 asks the terminal behind the
	// output, then $COLUMNS, else 80.
	Width int
	// Names are the players' names by seat (the genesis's); a seat without
	// one is called by its number.
	Names []string
	// Hints lets "hint" show the strong bot's answer to the open question,
	// when the host allowed hints at the table (Genesis.Hints).
	Hints bool
}

// Waits shorter than waitQuiet are not reported; longer ones are
// reported again every waitRepeat.
const (
	waitQuiet  = 5 * time.Second
	waitRepeat = 15 * time.Second
)

// PlayLAN lets a person play their seat at a table on the LAN, reading
// answers from in and writing to out, until the game is over (nil), the
// person leaves (ErrLeft), or ctx ends (its error). The peer runs
// elsewhere (p2p.Session.Run); PlayLAN only reads its view and hands it
// the person's choices.
//
// It shows the board, the hand, the trick and the choices when the seat
// must choose, the other seats' moves as the log brings them, whom the
// table waits for when that lasts, and each round's scores. An answer that
// is not a choice, and a choice the peer refuses, are explained and asked
// again; a question the game has moved past is withdrawn. When a device
// stays silent past the patience, the person is asked whether a bot may
// play its seat: "yes" votes for it (as does "void"), "no" keeps this
// device's vote back until it asks again. "void" votes to
// void the round of a silent seat, "help" shows the table again, "rules"
// how the game is played, "quit" leaves.
//
// Lines are read by a goroutine, so that the table moves on while nobody
// types; it ends at the end of the input, or at its next line once
// PlayLAN has returned.
func PlayLAN(ctx context.Context, cfg LANConfig, in io.Reader, out io.Writer) error {
	if cfg.Peer == nil {
		return fmt.Errorf("term: PlayLAN without a peer")
	}
	if cfg.Patience <= 0 {
		cfg.Patience = table.DefaultPatience
	}
	l := &lan{cfg: cfg, answered: map[question]bool{}}
	v := cfg.Peer.View()
	l.cur = v.Game
	e := v.Game.Edition
	if v.Game.Players == 0 {
		e = engine.Classic // not dealt yet; set again once the genesis is known
	}
	width := cfg.Width
	if width <= 0 {
		width = widthOf(out)
	}
	l.screen = &screen{e: e, n: v.Game.Players, you: cfg.Seat, others: "Seat", names: cfg.Names, view: l.view,
		out: &printer{w: out, width: width}}

	lines, stop := readLines(in)
	defer stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	l.out.f("You play seat %d. When it is your turn, answer with the number of a choice or type it as shown; "+
		"\"help\" shows the table, \"rules\" how the game is played, \"quit\" leaves. When a device stays silent you are asked "+
		"whether a bot may play its seat: answer \"yes\" or \"no\".\n", cfg.Seat)
	for {
		if l.update() {
			return l.out.err
		}
		if l.out.err != nil {
			return l.out.err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cfg.Changed:
		case <-tick.C:
		case line := <-lines:
			if errors.Is(line.err, io.EOF) {
				l.out.f("\nInput ended: you leave the table. Your seat stays in this device's store; run the same command again to resume.\n")
				return ErrLeft
			} else if line.err != nil {
				return fmt.Errorf("term: read: %w", line.err)
			}
			if l.cfg.Echo {
				l.out.f("%s\n", line.text)
			}
			if err := l.answer(normalise(line.text)); err != nil {
				return err
			}
		}
	}
}

// question names a prompt: its seq and the log's head when it was asked.
// A seq alone names no question once the log can follow another branch:
// the same seq is then asked again, after another head, and the move
// given for the first is not posted.
type question struct {
	seq  uint64
	head tablelog.Hash
}

// questionOf names pr; a nil pr is no question.
func questionOf(pr *table.Prompt) question {
	if pr == nil {
		return question{}
	}
	return question{pr.Seq, pr.Head}
}

// lan is a person's seat at a LAN table under way.
type lan struct {
	lanScreen
	cfg LANConfig
	cur engine.View // the seat's latest view

	prompt *table.Prompt // the question shown, not yet answered
	// clockTold is the last reminder of the table's clock given for the
	// prompt (seconds left; 0 none yet).
	clockTold int
	cs        []choice
	answered  map[question]bool // the questions the person answered

	// What has been told already, beside the lanScreen's.
	ready     bool          // the genesis is known: edition and players
	cutTold   time.Time     // the cut-off told about (seat.CutOff)
	waitSince time.Time     // the wait told about ...
	waitTold  time.Duration // ... and for how long
	askSince  time.Time     // the wait the person was asked about ...
	askAt     time.Duration // ... when it had lasted this long
	asking    bool          // the question stands
}

// view is the view the screen shows: the prompt's while one stands.
func (l *lan) view() engine.View {
	v := l.cur
	if l.prompt != nil {
		v = l.prompt.View
	}
	if l.cfg.Rounds > 0 {
		v.Rounds = l.cfg.Rounds
	}
	return v
}

// update shows what changed since the last look and reports whether the
// game is over.
func (l *lan) update() bool {
	v := l.cfg.Peer.View()
	if v.Game.Players > 0 && !l.ready {
		l.ready = true
		l.e, l.n = v.Game.Edition, v.Game.Players
		l.out.f("Njet! %s edition, %d players. You are seat %d (%s).\n", words.Edition(l.e), l.n, l.you,
			words.Character(l.e, v.Game.Characters[l.you]))
	}
	if v.BotHost >= 0 && !l.watching {
		l.watching = true
		l.out.f("\nA bot hosted by %s plays your seat; you are watching. It hands the seat back to this device "+
			"when the next deal starts. Type \"quit\" to leave.\n", l.seatName(v.BotHost))
	}
	if v.BotHost < 0 && l.watching {
		l.watching = false
		l.out.f("\nYour seat is yours again from this deal on.\n")
	}
	before := l.cur
	l.cur = v.Game
	if l.ready {
		l.narrate(before, v.Game, l.received)
	}
	l.showResults(v)
	for _, viol := range v.Voided[min(l.voided, len(v.Voided)):] {
		l.showVoided(viol, v)
	}
	l.voided = len(v.Voided)
	for _, r := range v.Recovered[min(l.recovered, len(v.Recovered)):] {
		name := words.Plain(l.seatName(r.Seat))
		if r.Seat == l.you {
			name = words.Msg{}
		}
		l.out.f("\n")
		l.out.say(words.Gone(name, words.Plain(l.seatName(r.Host)), true, r.Host == l.you))
	}
	l.recovered = len(v.Recovered)
	if v.Over {
		l.showGameOver(v)
		return true
	}
	l.showHalt(v)
	// The peer's clock: when the log last grew, and how long ago.
	now := v.Since.Add(v.Silent)
	if l.prompt != nil && questionOf(v.Prompt) != questionOf(l.prompt) {
		if u := l.prompt.Until; !u.IsZero() && !now.Before(u) {
			l.out.f("\n")
			l.out.say(words.ClockOut())
		} else {
			l.out.f("\nThe table moved on: that question no longer stands.\n")
		}
		l.prompt, l.cs = nil, nil
	}
	if pr := v.Prompt; pr != nil && l.prompt == nil && !l.answered[questionOf(pr)] {
		l.prompt, l.clockTold = pr, 0
		l.cs = l.choices(pr.Legal)
		l.showSituation(l.cs, false)
		if !pr.Until.IsZero() {
			l.clockTold = secondsLeft(pr.Until, now)
			l.out.say(words.ClockMove(l.clockTold))
		}
		l.out.f("> ")
		return false
	}
	if pr := l.prompt; pr != nil && !pr.Until.IsZero() {
		// The table's clock counts down: a reminder at 30 s and at 10 s.
		if left := secondsLeft(pr.Until, now); clockReminder(left, l.clockTold) {
			l.clockTold = left
			l.out.f("\n")
			l.out.say(words.ClockLeft(left))
			l.out.f("> ")
		}
	}
	if l.prompt == nil && v.Turn >= 0 && v.Turn != l.you {
		l.showWait(v)
	}
	return false
}

// received tells the card the seat received once the discards and passes
// are over (what only the seat sees), unless a bot plays it now.
func (l *lan) received(before, after engine.View) {
	if before.Phase == engine.PhaseDiscard && after.Phase > engine.PhaseDiscard && after.Received != engine.NoCard && !l.watching {
		l.out.say(words.Received(after.Received, l.who((l.you+l.n-1)%l.n)))
	}
}

// showWait tells whom the table waits for once that lasts, and offers
// the vote to void the round once the patience is over.
func (l *lan) showWait(v table.PeerView) {
	if cut := seat.CutOff(v); !cut.IsZero() {
		// This device hears none of the others: it is most likely the one
		// cut off, and a vote would reach nobody.
		if !cut.Equal(l.cutTold) {
			l.cutTold = cut
			l.out.say(words.CutOff(int(v.Unheard / time.Second)))
		}
		l.asking = false
		return
	}
	if v.Silent < waitQuiet {
		return
	}
	if v.Since != l.waitSince || v.Silent >= l.waitTold+waitRepeat {
		l.waitSince, l.waitTold = v.Since, v.Silent
		l.out.f("waiting for %s (%s) since %v\n", l.seatName(v.Turn), kindName(v.Kind), v.Silent.Round(time.Second))
	}
	if l.watching || !v.Voidable || v.Voted {
		l.asking = false
		return
	}
	// The question is about the device, not the person: it comes only
	// once the device has shown no sign of life for the patience (Away).
	if v.Since != l.askSince || !l.asking && v.Away >= l.askAt+l.cfg.Patience {
		l.askSince, l.askAt, l.asking = v.Since, v.Away, true
		l.out.f("%s has been silent for %v: let a bot play %s? (yes/no)\n",
			l.deviceName(v.Turn), v.Away.Round(time.Second), l.seatPhrase(v.Turn))
	}
}

// deviceName is how the question calls the device of seat: "Anna's
// device", "seat 2's device".
func (l *lan) deviceName(seat int) string { return l.seatName(seat) + "'s device" }

// seatPhrase is how the question calls seat itself: "Anna's seat",
// "seat 2".
func (l *lan) seatPhrase(seat int) string {
	if seat >= 0 && seat < len(l.cfg.Names) && l.cfg.Names[seat] != "" {
		return l.cfg.Names[seat] + "'s seat"
	}
	return l.seatName(seat)
}

// seatName is the seat's player name, "seat N", or "your seat".
func (l *lan) seatName(seat int) string {
	if seat == l.you && l.watching {
		return "the bot in your seat"
	}
	if seat == l.you {
		return "your seat"
	}
	if seat >= 0 && seat < len(l.cfg.Names) && l.cfg.Names[seat] != "" {
		return l.cfg.Names[seat]
	}
	return "seat " + strconv.Itoa(seat)
}

// kindName is how the text calls what a seat must post.
func kindName(k tablelog.Kind) string {
	switch k {
	case tablelog.KindPlay, tablelog.KindRecoveredPlay:
		return "play a card"
	case tablelog.KindRecovery:
		return "open a gone seat's cards for its bot"
	case tablelog.KindBlock:
		return "block a field"
	case tablelog.KindTeam:
		return "choose the teams"
	case tablelog.KindDiscardCommit:
		return "discard"
	case tablelog.KindPassCommit:
		return "pass a card"
	case tablelog.KindShuffle:
		return "shuffle"
	}
	return strings.ToLower(k.String())
}

// answer handles one typed line.
func (l *lan) answer(line string) error {
	switch line {
	case "quit", "exit", "q":
		l.out.f("You leave the table. Your seat stays in this device's store; run the same command again to resume.\n")
		return ErrLeft
	case "void":
		l.vote()
		return nil
	case "yes", "y", "no", "n":
		if l.asking && l.prompt == nil {
			l.asking = false
			if line[0] == 'y' {
				l.vote()
			} else {
				l.decline()
			}
			return nil
		}
	case "rules":
		if l.ready {
			l.showRulesHelp()
		}
		if l.prompt != nil {
			l.out.f("> ")
		}
		return nil
	case "help", "?":
		if l.prompt != nil {
			l.showSituation(l.cs, true)
			l.out.f("> ")
			return nil
		}
	case "hint":
		switch {
		case !l.cfg.Hints:
			l.out.say(words.HintsOff())
		case l.prompt == nil || l.watching:
			l.out.say(words.NoHint())
		default:
			p := l.prompt
			l.showHint(seat.Prompt{Seq: p.Seq, Kind: actionKind(p.Legal), View: p.View, Legal: p.Legal})
		}
		if l.prompt != nil {
			l.out.f("> ")
		}
		return nil
	}
	if l.watching {
		l.out.f("You are watching: a bot plays your seat now. Type \"quit\" to leave.\n")
		return nil
	}
	if l.prompt == nil {
		v := l.cfg.Peer.View()
		if l.ready {
			l.showSituation(nil, true)
		}
		l.out.f("It is not your turn: %s.\n", l.waiting(v))
		return nil
	}
	a, ok := l.pick(line, l.prompt.Legal, l.cs)
	if !ok {
		l.out.f("> ")
		return nil
	}
	if err := l.cfg.Peer.Submit(a); err != nil {
		if questionOf(l.cfg.Peer.View().Prompt) != questionOf(l.prompt) {
			l.out.f("Too late: the table moved on (%v).\n", err)
			l.prompt, l.cs = nil, nil
			return nil
		}
		l.out.f("Not accepted: %v\nPlease choose again.\n> ", err)
		return nil
	}
	l.answered[questionOf(l.prompt)] = true
	l.prompt, l.cs = nil, nil
	return nil
}

// actionKind is the kind of move a question asks for.
func actionKind(legal []engine.Action) engine.Kind {
	if len(legal) == 0 {
		return 0
	}
	return legal[0].Kind
}

// vote asks the peer to vote to void the round of the silent seat.
func (l *lan) vote() {
	v := l.cfg.Peer.View()
	if err := l.cfg.Peer.VoteVoid(); err != nil {
		l.out.f("No vote: %v\n", err)
		return
	}
	l.out.f("You voted to let a bot play %s because %s is silent. Once the devices still there have voted, "+
		"the lowest of them takes over every seat without a vote: nobody scores this round, it is dealt "+
		"again, and bots play those seats until their devices come back at the start of a deal. If %s "+
		"posts first, the game goes on.\n", l.seatPhrase(v.Turn), l.deviceName(v.Turn), l.seatName(v.Turn))
}

// decline tells the peer not to vote on its own for the silent seat now.
func (l *lan) decline() {
	v := l.cfg.Peer.View()
	if err := l.cfg.Peer.DeclineVoid(); err != nil {
		l.out.f("%v\n", err)
		return
	}
	l.out.f("The table keeps waiting for %s; you will be asked again in %v.\n", l.seatName(v.Turn),
		l.cfg.Patience.Round(time.Second))
}

// hostOf is the seat whose device plays seat now.
func hostOf(v table.PeerView, seat int) int {
	if seat >= 0 && seat < len(v.Hosts) {
		return v.Hosts[seat]
	}
	return seat
}

// waiting describes whom the table waits for.
func (l *lan) waiting(v table.PeerView) string {
	switch {
	case v.Over:
		return "the game is over"
	case v.Violation != nil:
		return "the round is halted: " + v.Violation.Error()
	case v.Turn < 0:
		return "waiting for the log"
	}
	return fmt.Sprintf("waiting for %s (%s) since %v", l.seatName(v.Turn), kindName(v.Kind), v.Silent.Round(time.Second))
}

func (l *lan) showVoided(viol *table.Violation, v table.PeerView) {
	if viol.Seat == l.you && viol.Check == table.CheckSilent && viol != v.Abandoned {
		host := "another seat"
		if h := v.BotHost; h >= 0 {
			host = l.seatName(h)
		}
		l.out.f("\n")
		l.out.say(words.YourDeviceLeft(words.Plain(host)))
		return
	}
	if l.out.sayVoided(viol, words.Plain(l.seatName(viol.Seat)), viol == v.Abandoned) {
		return
	}
	if viol == v.Abandoned {
		// At a table of two no seat is handed to the opponent.
		l.out.f("\nThe game ends without a winner: %v. At a table of two no bot takes over a seat.\n", viol)
		return
	}
	host := "another seat"
	if h := v.BotHost; h >= 0 && viol.Seat == l.you {
		host = l.seatName(h)
	}
	if viol.Seat == l.you {
		l.out.f("\nThe table voided the round because your seat was silent (%v); a bot hosted by %s plays it now.\n", viol, host)
		return
	}
	if viol.Check == table.CheckSilent {
		// A device gone: say in plain words why the cards are dealt again.
		l.out.f("\n")
		l.out.say(words.Gone(words.Plain(l.seatName(viol.Seat)), words.Plain(l.seatName(hostOf(v, viol.Seat))), false, false))
		return
	}
	l.out.f("\nThe table voided the round: %v. It is dealt again; a bot plays %s now.\n", viol, l.seatName(viol.Seat))
}

// sayVoided tells a round voided for the device of seat name in a
// person's words (voidedMsg), and that the cards are dealt again unless
// the game ended there; it reports false, saying nothing, for a void
// those words do not cover.
func (p *printer) sayVoided(viol *table.Violation, name words.Msg, abandoned bool) bool {
	m := voidedMsg(viol, name, abandoned)
	if m.ID == "" {
		return false
	}
	p.f("\n")
	p.say(m)
	if !abandoned {
		p.say(words.DealtAgain())
	}
	return true
}

// voidedMsg words a round voided for a seat's device in a person's words:
// the device left the table (at a table of two, abandoned: the game
// ends), or it stayed and withheld its reveal. Any other cheat gets the
// empty Msg: the violation itself says what happened.
func voidedMsg(viol *table.Violation, name words.Msg, abandoned bool) words.Msg {
	switch {
	case viol.Check == table.CheckSilent && abandoned:
		return words.DeviceLeftAtTwo(name)
	case viol.Check == table.CheckSilent:
		return words.DeviceLeft(name)
	case viol.Check == table.CheckWithheld:
		return words.RevealWithheld(name)
	}
	return words.Msg{}
}

// secondsLeft is the time from now to until in whole seconds, rounded up
// (0 once it has passed).
// clockReminder reports whether a reminder of the table's clock is due
// with left seconds of the person's time left, told those left when it
// last said: at 30 s and at 10 s, once each.
func clockReminder(left, told int) bool {
	return left <= 30 && told > 30 || left <= 10 && told > 10
}

func secondsLeft(until, now time.Time) int {
	d := until.Sub(now)
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
