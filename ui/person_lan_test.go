package ui

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/ui/reach"
)

// TestPersonPlaysLANTableWithAClock: a person plays a whole game at a LAN
// table with a clock, whose devices are real peers over an in-memory
// network (the app's own seat among them), at desktop and phone size.
// What they see is read from the screen: while their move is asked the
// banner counts it down; they let the time run out once, their bot moves
// for them and the banner says so; the seat stays theirs, and they play
// the rest of the game by taps.
func TestPersonPlaysLANTableWithAClock(t *testing.T) {
	const you, clock = 0, 30
	names := []string{"Anna", "Ben", "Cleo"}
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Rounds: 1, Short: true,
				Clock: clock, Names: names}
			// The devices announce themselves on every tick, as on a LAN,
			// so that the person who thinks is waited for, and no bot
			// takes a seat over on its own.
			pa, lt, fs := personAtNjetLAN(t, sz.size, memtable.Config{Genesis: gen, Bot: "random", Heartbeat: true, Patience: time.Minute, Seed: 4})
			pa.u.Push(NewLANGame(pa.u, &gameTable{names: names, seat: fs}))
			sees := func(text string) func() bool { return func() bool { return pa.p.Look().Shows(text) } }

			pa.waitFor("the first question's clock", sees("30 s left for your move."))
			checkFits(t, pa.u.Window())
			screenshot(t, "lan-person-clock-"+sz.name, pa.u.Window())
			lt.Clock.Add(10 * time.Second)
			pa.waitFor("the clock running", sees("20 s left for your move."))
			// The person lets the time run out: their bot moves, and the
			// banner tells them why a move was made for them.
			lt.Clock.Add(21 * time.Second)
			pa.waitFor("the time ran out", sees("Your time ran out"))
			checkFits(t, pa.u.Window())
			screenshot(t, "lan-person-clock-out-"+sz.name, pa.u.Window())
			if h := lt.Peers[you].Game().HostOf(you); h >= 0 {
				t.Fatalf("the seat went to seat %d's bot when the person's time ran out", h)
			}
			lt.Clock.Add(newsFor)
			pa.waitFor("the news gone", func() bool { return !pa.p.Look().Shows("Your time ran out") })

			// The rest of the game, by taps, within the clock.
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(4, 1))}
			pa.playLooking(player, func(s *reach.Screen) { checkScreen(pa.t, s) })
			if !lt.Peers[you].Game().Over() {
				t.Fatal("the game is not over")
			}
			if n := lt.Peers[you].View().ClockOuts; n != 1 {
				t.Fatalf("the bot moved %d times for the person, who let their time run out once", n)
			}
		})
	}
}

// TestPersonVotesForABot: at a LAN table of real peers, another player's
// device is switched off in the middle of a round. The person plays on
// until the table waits for that seat; once its device has been silent
// longer than the patience the banner offers the vote, the person taps it,
// the table takes the seat over (a bot plays it, the round is dealt again)
// and the banner says so. The person plays the game to its end by taps.
func TestPersonVotesForABot(t *testing.T) {
	const you, gone = 0, 2
	names := []string{"Anna", "Ben", "Cleo"}
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Rounds: 1, Short: true,
				Names: names}
			// Ben's peer votes on its own once Cleo's device has been away
			// for 20 s; the person may vote after the patience, 5 s.
			pa, lt, fs := personAtNjetLAN(t, sz.size, memtable.Config{Genesis: gen, Bot: "random", Heartbeat: true, Patience: 5 * time.Second, VoidAfter: 20 * time.Second, Seed: 5})
			lg := NewLANGame(pa.u, &gameTable{names: names, seat: fs})
			pa.u.Push(lg)
			// While the table waits for another device the app is settled
			// too, not only at the person's question.
			pa.until = func() bool { return lg.turn != nil && lg.turn.Kind != 0 && lg.turn.Seat != you }
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(5, 1))}

			pa.voteOnALeaver(lt, gone, player, "The device of Cleo", "Cleo's device has left the table", "lan-person-", sz.name)
			if h := lt.Peers[you].Game().HostOf(gone); h < 0 {
				t.Fatal("the banner tells a takeover the log does not hold")
			}

			pa.until = nil
			pa.playLooking(player, func(s *reach.Screen) { checkScreen(pa.t, s) })
			g := lt.Peers[you].Game()
			if !g.Over() || len(g.Voided()) != 1 || g.HostOf(you) >= 0 {
				t.Fatalf("over %v, voided %v, the person's seat hosted by %d", g.Over(), g.Voided(), g.HostOf(you))
			}
		})
	}
}

// peerTGTable is a LAN table of The Game whose play gives the person the
// seat of a real peer.
type peerTGTable struct {
	logTable
	src *seat.TheGameSeat
}

func (p *peerTGTable) Names() []string              { return []string{"Anna", "Ben", "Cleo"} }
func (p *peerTGTable) Game() (game, variant string) { return theGameID, "base" }

func (p *peerTGTable) PlayTheGame(ctx context.Context, person func(context.Context, TheGameSource) error, news func(GameNews)) error {
	news(GameNews{Kind: NewsPlaying})
	return person(ctx, p.src)
}

// TestPersonPlaysTheGameLANTableWithAClock: as at Njet!, a person plays a
// whole game of The Game at a LAN table with a clock, of real peers, at
// desktop and phone size: the banner counts their move down, they let the
// time run out once and see that their bot laid a card for them, and they
// play the rest by taps.
func TestPersonPlaysTheGameLANTableWithAClock(t *testing.T) {
	const you, clock = 0, 30
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Game: table.GameTheGame, Clock: clock, Names: []string{"Anna", "Ben", "Cleo"}}
			pa, lt, src := personAtTheGameLAN(t, sz.size, memtable.Config{Genesis: gen, Bot: "coop", Heartbeat: true, Patience: time.Minute, Seed: 3})
			sees := func(text string) func() bool { return func() bool { return pa.p.Look().Shows(text) } }

			pa.waitFor("the first move's clock", sees("30 s left for your move."))
			lt.Clock.Add(31 * time.Second)
			pa.waitFor("the time ran out", sees("Your time ran out"))
			checkFits(t, pa.u.Window())
			screenshot(t, "thegame-lan-person-clock-out-"+sz.name, pa.u.Window())
			if h := src.Host(you); h != you {
				t.Fatalf("the seat went to seat %d's bot when the person's time ran out", h)
			}
			lt.Clock.Add(newsFor)
			pa.waitFor("the news gone", func() bool { return !pa.p.Look().Shows("Your time ran out") })

			player := &reach.TheGame{Words: TheGameWords()}
			pa.playOn(player, src.Over)
			if !src.Over() || player.Laid < 2 {
				t.Fatalf("over %v, the person laid %d cards", src.Over(), player.Laid)
			}
			if n := lt.Peers[you].View().ClockOuts; n != 1 {
				t.Fatalf("the bot moved %d times for the person, who let their time run out once", n)
			}
		})
	}
}

// TestPersonVotesForABotAtTheGame: as at Njet!, at a LAN table of The Game
// of real peers another player's device is switched off; the person plays
// on until the table waits for that seat, taps the vote once the banner
// offers it, reads that a bot plays the seat now and plays the game to its
// end by taps.
func TestPersonVotesForABotAtTheGame(t *testing.T) {
	const you, gone = 0, 2
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Game: table.GameTheGame, Names: []string{"Anna", "Ben", "Cleo"}}
			// Ben's peer votes on its own once Cleo's device has been away
			// for 20 s; the person may vote after the patience, 5 s.
			pa, lt, src := personAtTheGameLAN(t, sz.size, memtable.Config{Genesis: gen, Bot: "coop", Heartbeat: true, Patience: 5 * time.Second, VoidAfter: 20 * time.Second, Seed: 8})
			// While the table waits for another device the app is settled
			// too, not only at the person's turn.
			pa.until = func() bool { s, waiting := src.Waiting(); return waiting && s != you }
			player := &reach.TheGame{Words: TheGameWords()}
			pa.voteOnALeaver(lt, gone, player, "Cleo's device has not been heard from", "Cleo left the table", "thegame-lan-person-", sz.name)
			if h := src.Host(gone); h == gone {
				t.Fatal("the banner tells a takeover the log does not hold")
			}

			pa.until = nil
			pa.playOn(player, src.Over)
			if !src.Over() || src.Host(you) != you {
				t.Fatalf("over %v, the person's seat hosted by %d", src.Over(), src.Host(you))
			}
		})
	}
}

// voteOnALeaver switches the device of seat gone off once the person is
// asked, and plays on by player whenever the person is asked; while the
// table waits, time passes, a second a look. Once the banner offers the
// vote it checks that the vote names the seat (named), taps it and waits
// until the banner tells the takeover (taken); shot and size name the
// screenshots.
func (pa *personApp) voteOnALeaver(lt *memtable.Table, gone int, player reach.Policy, named, taken, shot, size string) {
	pa.t.Helper()
	sees := func(text string) bool { return pa.p.Look().Shows(text) }
	pa.waitFor("the person's turn", func() bool { return sees("Your turn") })
	lt.Leave(gone)
	// passUntil lets time pass until what shows.
	passUntil := func(what string, answer bool) {
		for look := 0; !sees(what); look++ {
			if look == 600 {
				pa.p.Fatalf("%q never showed", what)
			}
			if answer && pa.p.Sees("Your turn") {
				pa.p.Step(player)
				continue
			}
			lt.Clock.Add(time.Second)
			pa.waitFor("a second more", func() bool { return true })
			time.Sleep(20 * time.Millisecond)
		}
	}
	passUntil("Vote for a bot", true)
	if !sees(named) {
		pa.p.Fatalf("the vote does not say %q", named)
	}
	checkFits(pa.t, pa.u.Window())
	screenshot(pa.t, shot+"vote-"+size, pa.u.Window())
	pa.p.TapText("Vote for a bot")
	passUntil(taken, false)
	screenshot(pa.t, shot+"voted-"+size, pa.u.Window())
}

// playOn plays by player, checking each screen, until over holds.
func (pa *personApp) playOn(player reach.Policy, over func() bool) {
	pa.t.Helper()
	for steps := 0; !over(); steps++ {
		if steps == 2000 {
			pa.p.Fatalf("the game did not end")
		}
		pa.p.Settle()
		checkScreen(pa.t, onTop(pa.p.Look()))
		if !pa.p.Step(player) {
			return
		}
	}
}

// personAtLAN is a person at seat 0 of a LAN table of three real peers
// (cfg, whose Players and Human it sets), on the app at size, whose
// clock is the table's.
func personAtLAN(t *testing.T, size fyne.Size, cfg memtable.Config) (*personApp, *memtable.Table) {
	t.Helper()
	cfg.Players, cfg.Human = 3, func(s int) bool { return s == 0 }
	cfg.NewPlayer = memtable.Players(t, cfg.Genesis.Game)
	lt := memtable.New(t, cfg)
	pa := newPersonAppWith(t, "en", size, func(e *Env) {
		e.LAN = newFakeLAN()
		e.Now = lt.Clock.Now
	})
	return pa, lt
}

// personAtNjetLAN is personAtLAN at Njet!, with the seat the app's table
// screen reads (it is pushed by the caller).
func personAtNjetLAN(t *testing.T, size fyne.Size, cfg memtable.Config) (*personApp, *memtable.Table, *frozenSeat) {
	t.Helper()
	pa, lt := personAtLAN(t, size, cfg)
	st, err := seat.NewPeerSeat(lt.Peers[0], 0, seat.PeerSeatConfig{Changed: lt.Changed(0), Rounds: cfg.Genesis.Rounds})
	if err != nil {
		t.Fatal(err)
	}
	return pa, lt, &frozenSeat{Seat: st, stop: func(seat.Event) bool { return false }, stopped: make(chan struct{})}
}

// personAtTheGameLAN is personAtLAN at The Game, with the app's LAN
// screen of the table pushed.
func personAtTheGameLAN(t *testing.T, size fyne.Size, cfg memtable.Config) (*personApp, *memtable.Table, *seat.TheGameSeat) {
	t.Helper()
	pa, lt := personAtLAN(t, size, cfg)
	src, err := seat.NewTheGameSeat(lt.Peers[0], nil, lt.Changed(0))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := NewLANTable(pa.u, &peerTGTable{src: src}).(*LANTheGame)
	if !ok {
		t.Fatal("a table of The Game opened another screen")
	}
	pa.u.Push(g)
	return pa, lt, src
}
