package lan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// ErrLeft is what a Person returns (or wraps) when the person leaves the
// table before the game is over. The store keeps the seat: Resume finds
// it again.
var ErrLeft = errors.New("lan: left the table")

// Person lets a person play the device's own seat, at a table of any
// game, in whatever front end, until the game is over (nil), the person
// leaves (ErrLeft), or ctx ends (its error). ctx also ends when the
// session stops first. The seat's peer runs in Play; a Person only reads
// its view and submits the person's choices (term.PlayLAN and
// term.PlayTheGameLAN do this in a terminal), through the game's seat:
// PersonSeat.NjetSeat at Njet, PersonSeat.TheGameSeat at The Game.
type Person func(ctx context.Context, seat PersonSeat) error

// PersonSeat is what a Person needs of the seat it plays.
type PersonSeat struct {
	// Game is the game the table plays.
	Game table.GameName
	Seat int
	// Peer posts for the seat (a person's: table.PeerConfig.Human).
	Peer *table.Peer
	// Changed receives a value whenever the table may have moved on.
	Changed <-chan struct{}
	// Rounds is the number of rounds the table plays when its genesis ends
	// the game early (0: the edition's).
	Rounds int
	// Names are the players' names by seat as the genesis fixes them (""
	// for a seat without one; nil when the genesis names nobody).
	Names []string
	// Seats says who plays each seat as the table's setup has it: the
	// devices' people, and the bots the host's device (seat 0) runs.
	Seats []seat.SeatInfo
	// Hints tells that the host allowed hints at the table.
	Hints bool
}

// NjetSeat returns the person's seat at a table of Njet as a seat.Seat,
// for a front end that reads events rather than the peer's view. It runs
// no goroutines: the session's peer moves the table on, and the Seat tells
// what it did.
func (ps PersonSeat) NjetSeat() (*seat.PeerSeat, error) {
	return seat.NewPeerSeat(ps.Peer, ps.Seat, seat.PeerSeatConfig{Changed: ps.Changed, Rounds: ps.Rounds, Seats: ps.Seats})
}

// TheGameSeat returns the person's seat at a table of The Game, which
// tells the seat's view and the moves of every seat in order, and takes
// the person's moves.
func (ps PersonSeat) TheGameSeat() (*seat.TheGameSeat, error) {
	return seat.NewTheGameSeat(ps.Peer, ps.Names, ps.Changed)
}

// How a table answers a device gone, so that it goes on within a minute
// of a loss: every device announces itself (p2p.DefaultHeartbeat), so a
// person who thinks on a device that is there is waited for however long;
// from table.DefaultPatience (30 s) without a sign of life, the seats bots
// play vote at once that bots take the gone device's seats over, and a person is asked (term.PlayLAN, or the app through
// seat.Seat.VoteVoid); a person who does not answer votes on their own
// after PersonVoidAfter. The lowest voter takes over at once when every
// other seat has voted, or VoteGrace after its own vote with the votes it
// has: at most 45 s after the last move, then the round is dealt again.
const (
	PersonVoidAfter = 40 * time.Second
	VoteGrace       = 15 * time.Second
)

// PlayConfig sets up Play.
type PlayConfig struct {
	// Linger bounds how long a finished device keeps serving the log to
	// members still catching up (p2p.SessionConfig.Linger).
	Linger time.Duration
	// Person plays the device's own seat when a person plays it
	// (Table.Bot is ""). Without one, a bot of the game's normal strength
	// plays a person's seat at The Game; at Njet it is an error.
	Person Person
}

// Event is what Play reports while the table plays: Playing first, then,
// when a bot plays the device's own seat, Shuffling, RoundOver, Violation
// and SecretsLost as the table moves on, and CatchingUp once a person's
// game is over.
type Event interface{ event() }

// Playing: the session runs, the device's own seat is Seat, and a bot of
// kind Bot plays it (a person when Bot is "").
type Playing struct {
	Table tablelog.TableID
	Seat  int
	Bot   string
}

// Shuffling: a new deal is being shuffled.
type Shuffling struct{}

// Tricks: the play of a deal began (its first card was played): Njet's
// tricks, or the cards of The Game.
type Tricks struct{ Game table.GameName }

// SeatGone: the device of Seat left and the table took the seat over.
// Kept tells that the round went on, the seat's cards recovered from the
// escrow for its bot on the device of seat Host (this device when You);
// otherwise the round was dealt again at once (at The Game, the cards not
// yet played). Name and HostName are the seats' player names ("" when
// they have none).
type SeatGone struct {
	Game           table.GameName
	Seat, Host     int
	Kept, You      bool
	Name, HostName string
}

// RoundOver: a round ended and was audited.
type RoundOver struct{ Result table.RoundResult }

// Violation: Err halted the round.
type Violation struct{ Err error }

// CatchingUp: the person's game is over; the device waits for the other
// devices to catch up.
type CatchingUp struct{}

// Rejoined: the device was cut off from the table and is back. The
// table went on without it, and the device now follows the table's log,
// which replaces what the device played alone meanwhile: the takeovers
// and rounds told since then that the table's log does not hold. What
// the table's log holds from there is told again.
type Rejoined struct{}

// SecretsLost: the device's store was damaged and lost its secrets for the
// round in progress; its seat stays silent until the table voids the round,
// and plays again in the next deal. Told once per round.
type SecretsLost struct{}

// SeatTakenOver: the table voided a round for a seat (Fault) and a bot
// plays it now: its device left (table.CheckSilent; at a table of two,
// Abandoned: the game ends), or it withheld its reveal or cheated. Name is
// the seat's player name ("" when it has none). Told once per void.
type SeatTakenOver struct {
	Fault     *table.Violation
	Name      string
	Abandoned bool
}

func (SeatTakenOver) event() {}

func (Playing) event()     {}
func (Shuffling) event()   {}
func (Tricks) event()      {}
func (SeatGone) event()    {}
func (RoundOver) event()   {}
func (Violation) event()   {}
func (CatchingUp) event()  {}
func (SecretsLost) event() {}
func (Rejoined) event()    {}

// Outcome is how Play ended for the device's own seat.
type Outcome struct {
	// Left: the person left before the end; the store keeps the seat.
	Left bool
	// Over: the game is over.
	Over bool
	// Envelopes and Head are the log's length and the hash of its last
	// envelope.
	Envelopes uint64
	Head      tablelog.Hash
	// Waiting says, when the game is not over, whom the table waits for.
	Waiting string
	// CloseErr is the error of leaving the table after the play, if any;
	// the rest of the outcome stands.
	CloseErr error
	// TheGame is the audited result at a table of The Game, once over.
	TheGame *table.TheGameResult
}

// Play runs the device's seats at t until the game is over and the other
// devices caught up (or Linger passed), the person leaves, or ctx ends. A
// bot plays the device's own seat, or cfg.Person lets a person play it.
// onEvent, when not nil, hears the table's progress from Play's goroutine.
// The error is why the play stopped early, if it did; the log is then
// still in the store.
func (d *Device) Play(ctx context.Context, t *Table, cfg PlayConfig, onEvent func(Event)) (Outcome, error) {
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	own := t.seats[0]
	seats := t.seats
	gen, gerr := t.setup.Check()
	theGame := gerr == nil && gen.Game == table.GameTheGame
	if theGame && own.Human && cfg.Person == nil {
		// No front end for The Game: a bot plays the person's seat.
		own.Human = false
		seats = append([]p2p.LocalSeat{own}, t.seats[1:]...)
	}
	if own.Human && cfg.Person == nil && !theGame {
		return Outcome{}, fmt.Errorf("lan: Play: a person's seat and no Person")
	}
	s, err := d.node.NewSession(p2p.SessionConfig{Setup: t.setup, Store: d.store, Seats: seats, Linger: cfg.Linger,
		Patience: table.DefaultPatience, VoidAfter: table.DefaultPatience, PersonVoidAfter: PersonVoidAfter,
		Grace: VoteGrace})
	if err != nil {
		return Outcome{}, err
	}
	p := s.Peer(own.Seat)
	bot := p.Bot()
	if p.Human() {
		bot = ""
	}
	onEvent(Playing{Table: t.ID(), Seat: own.Seat, Bot: bot})
	var left bool
	switch {
	case own.Human:
		ps := PersonSeat{Game: table.GameNjet, Seat: own.Seat, Peer: p}
		if gen, err := t.setup.Check(); err == nil {
			ps.Game, ps.Rounds, ps.Hints = gen.Game, gen.Rounds, gen.Hints
			if gen.Names != nil || theGame {
				ps.Names = t.Names()
			}
			ps.Seats = seatsOf(gen, t.setup, t.seats)
		}
		left, err = playPerson(ctx, s, own.Seat, func(ctx context.Context, changed <-chan struct{}) error {
			ps.Changed = changed
			return cfg.Person(ctx, ps)
		}, onEvent)
	default:
		err = runBot(ctx, s, own.Seat, t.Names(), onEvent)
	}
	out := Outcome{Left: left, Over: p.Game().Over()}
	if r, ok := p.Game().TheGame().Result(); ok {
		out.TheGame = &r
	}
	if v := p.Game().Violation(); v != nil && p.Game().Stopped() && err == nil {
		err = v
	}
	out.CloseErr = s.Close()
	out.Envelopes, out.Head = p.Log().Head()
	if !out.Over {
		out.Waiting = p.View().Waiting()
	}
	return out, err
}

// nameOf returns seat's player name, or "" when it has none.
func nameOf(names []string, seat int) string {
	if seat < 0 || seat >= len(names) {
		return ""
	}
	return names[seat]
}

// runBot runs the session with a bot in the device's own seat, reporting
// the table's progress. Peer events may be dropped when they come faster
// than they are read, so every event reports all the rounds not reported
// yet, and so does the end of the session.
func runBot(ctx context.Context, s *p2p.Session, own int, names []string, onEvent func(Event)) error {
	shuffling, lost, tricks := -1, -1, -1
	voids := seat.Told[*table.Violation]{Same: func(a, b *table.Violation) bool {
		return a.Seq == b.Seq && a.Seat == b.Seat && a.Check == b.Check
	}}
	kept := seat.Comparable[table.Recovery]()
	results := seat.Told[table.RoundResult]{Same: func(a, b table.RoundResult) bool {
		return a.Round == b.Round && a.Deal == b.Deal && slices.Equal(a.Points, b.Points)
	}}
	var game table.GameName
	report := func() {
		g := s.Peer(own).Game()
		if gen := g.Genesis(); gen != nil {
			game = gen.Game
		}
		newVoids, switched := voids.News(g.Voided())
		newKept, switchedKept := kept.News(g.Recovered())
		newResults, switchedResults := results.News(g.Njet().Results())
		if switched || switchedKept || switchedResults {
			onEvent(Rejoined{})
		}
		for _, v := range newVoids {
			// A device gone before its seat's cards could be played on:
			// the round is dealt again, and the words say why. Any
			// other fault (a withheld reveal, a cheat, the end of a game
			// of two) is told as the seat taken over.
			if host := g.PeerOf(v.Seat); v.Check == table.CheckSilent && v != g.Abandoned() {
				onEvent(SeatGone{Game: game, Seat: v.Seat, Host: host, You: host == own, Name: nameOf(names, v.Seat), HostName: nameOf(names, host)})
			} else {
				e := SeatTakenOver{Fault: v, Abandoned: v == g.Abandoned()}
				if v.Seat < len(names) {
					e.Name = names[v.Seat]
				}
				onEvent(e)
			}
		}
		for _, r := range newKept {
			onEvent(SeatGone{Game: game, Seat: r.Seat, Host: r.Host, Kept: true, You: r.Host == own, Name: nameOf(names, r.Seat),
				HostName: nameOf(names, r.Host)})
		}
		for _, r := range newResults {
			onEvent(RoundOver{Result: r})
		}
	}
	err := s.Run(ctx, func(seat int, e table.Event) {
		if seat != own {
			return
		}
		if e.Kind == tablelog.KindShuffle && shuffling != e.Round {
			shuffling = e.Round
			onEvent(Shuffling{})
		}
		if (e.Kind == tablelog.KindPlay || e.Kind == tablelog.KindRecoveredPlay) && tricks != e.Round {
			tricks = e.Round
			onEvent(Tricks{Game: game})
		}
		report()
		if s.Peer(own).View().SecretsLost && lost != e.Round {
			lost = e.Round
			onEvent(SecretsLost{})
		}
		if e.Violation != nil {
			onEvent(Violation{Err: e.Violation})
		}
	})
	report()
	return err
}

// overGrace is how long a person whose game is over may take to see the
// end after the session stopped.
const overGrace = 5 * time.Second

// playPerson runs the session while person plays the device's own seat
// own, whatever the game: person reads the seat and hands it the person's
// moves, and hears on changed whenever the table may have moved on. It
// reports whether the person left before the end (the session is then
// stopped; the store keeps the seat). Once the game is over it waits for
// the session, which lingers for the others.
func playPerson(ctx context.Context, s *p2p.Session, own int, person func(ctx context.Context, changed <-chan struct{}) error, onEvent func(Event)) (left bool, err error) {
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	pctx, endPerson := context.WithCancel(ctx)
	defer endPerson()
	changed := make(chan struct{}, 1)
	tell := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	// The peer says whenever it looked at the log again.
	go func() {
		for {
			select {
			case <-sctx.Done():
				return
			case <-s.Peer(own).Changed():
				tell()
			}
		}
	}()
	ran := make(chan error, 1)
	go func() {
		ran <- s.Run(sctx, nil)
		if s.Peer(own).Game().Over() {
			// The others caught up before the person saw the end: a last
			// look, and a moment to tell it (the peer's view stays).
			tell()
			t := time.NewTimer(overGrace)
			select {
			case <-pctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
		endPerson() // the person has nothing more to see
	}()
	perr := person(pctx, changed)
	switch {
	case perr == nil:
		onEvent(CatchingUp{})
		return false, <-ran
	case errors.Is(perr, ErrLeft):
		stop()
		if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
			return true, err
		}
		return true, nil
	case pctx.Err() != nil && ctx.Err() == nil:
		// The session stopped first; its error says why.
		return false, <-ran
	}
	stop()
	if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
		return false, errors.Join(perr, err)
	}
	return false, perr
}

// seatsOf says who plays each seat of a table: a seat whose key is a
// member device's is a person's (or that device's bot), any other one a
// bot of the host's device, of the kind local says when this device is
// the host.
func seatsOf(gen *table.Genesis, setup *p2p.Setup, local []p2p.LocalSeat) []seat.SeatInfo {
	out := make([]seat.SeatInfo, gen.Players())
	normal := ""
	if g, err := games.ByName(gen.Game); err == nil {
		normal = g.Bots[games.Normal]
	}
	for s := range out {
		si := seat.SeatInfo{Name: gen.Name(s), Who: seat.Bot, Bot: normal, Host: 0}
		for _, ls := range local {
			if ls.Seat == s && !ls.Human && ls.Bot != "" {
				si.Bot = ls.Bot
			}
		}
		for _, d := range setup.Devices {
			if d.ID == gen.Keys[s] {
				si = seat.SeatInfo{Name: gen.Name(s), Who: seat.Person, Host: -1}
			}
		}
		out[s] = si
	}
	return out
}
