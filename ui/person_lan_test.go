package ui

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	tgbot "github.com/njetlan/njet/thegame/bot"
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

// TestPersonGetsTheSeatBack: at a LAN table of Njet! of real peers (Anna
// the person, Ben another person, Cleo's device a bot) Anna's device is
// switched off at her turn. Ben and Cleo's device vote, a bot plays her
// seat (the round is dealt again), and the table plays on while Ben
// thinks. Her device is switched on again and the app opened on the
// table: it says that a bot plays her seat and that the device asks for it
// back at the next deal; at the next round's deal the seat is hers again
// and the app says so, and she plays the last round by taps, at desktop
// and phone size.
func TestPersonGetsTheSeatBack(t *testing.T) {
	const you, ben = 0, 1
	names := []string{"Anna", "Ben", "Cleo"}
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Rounds: 2, Short: true,
				Names: names}
			lt := memtable.New(t, memtable.Config{Genesis: gen, Players: 3, Human: func(s int) bool { return s != 2 },
				Bot: "random", NewPlayer: memtable.Players(t, gen.Game), Heartbeat: true,
				Patience: 5 * time.Second, VoidAfter: 20 * time.Second, Seed: 6})
			pa := newLANPersonApp(t, sz.size, lt)
			pa.u.Push(NewLANGame(pa.u, &gameTable{names: names, seat: njetAtLAN(pa, lt, you, gen.Rounds)}))
			var benThinks atomic.Bool
			playsNjetFor(t, lt, ben, gen.Rounds, &benThinks)

			other := pa.switchedOff(lt, you, ben)
			// Ben thinks: the round is dealt again, and the table waits
			// for him.
			benThinks.Store(true)
			waitUntil(t, "the table plays on without the person's device", other.YourTurn)

			// The device comes back, and the person opens the app again.
			lt.Return(you)
			back := newLANPersonApp(t, sz.size, lt)
			back.u.Push(NewLANGame(back.u, &gameTable{names: names, seat: njetAtLAN(back, lt, you, gen.Rounds)}))
			// The banner's words, wherever its lines wrap.
			sees := func(text string) func() bool { return func() bool { return wordsDrawn(back.p.Look().Read(""), text) } }
			// The app is settled while the table waits for Ben, as the
			// person looks at it then.
			back.until = other.YourTurn
			back.waitFor("that a bot plays the seat", sees("Your device was away too long: a bot plays your seat"))
			checkFits(t, back.u.Window())
			screenshot(t, "lan-person-away-"+sz.name, back.u.Window())
			if lt.Peers[you].Game().PeerOf(you) == you {
				t.Fatal("the seat was given back before the next deal")
			}
			benThinks.Store(false)
			back.until = nil
			// The person reads the round's result and goes on to the next
			// round, whose deal gives the seat back.
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(6, 1))}
			back.until = sees("Your seat is yours again:")
			for steps := 0; !sees("Your seat is yours again:")(); steps++ {
				if steps == 50 {
					back.p.Fatalf("the seat was not given back at the next deal")
				}
				back.p.Settle()
				if !back.p.Step(player) {
					back.p.Fatalf("the game ended before the seat was given back")
				}
			}
			back.until = nil
			back.p.Settle()
			checkFits(t, back.u.Window())
			screenshot(t, "lan-person-back-"+sz.name, back.u.Window())
			if h := lt.Peers[you].Game().PeerOf(you); h != you {
				t.Fatalf("the banner says the seat is the person's, played by seat %d", h)
			}

			back.playLooking(player, func(s *reach.Screen) { checkScreen(back.t, s) })
			g := lt.Peers[you].Game()
			if !g.Over() || g.PeerOf(you) != you {
				t.Fatalf("over %v, the person's seat played by seat %d", g.Over(), g.PeerOf(you))
			}
		})
	}
}

// switchedOff switches the person's device (seat you) off at their turn;
// time passes, a second at a time, and the person at seat voter votes
// once the vote is offered, until the table gives the person's seat to a
// bot. It returns the voter's peer.
func (pa *personApp) switchedOff(lt *memtable.Table, you, voter int) *table.Peer {
	pa.t.Helper()
	pa.waitFor("the person's turn", func() bool { return pa.p.Look().Shows("Your turn") })
	lt.Leave(you)
	other := lt.Peers[voter]
	for s := 0; other.Game().PeerOf(you) == you; s++ {
		if s == 600 {
			pa.t.Fatal("the table never took the seat of the device switched off")
		}
		_ = other.VoteVoid() // the other person taps the vote once it is offered
		lt.Clock.Add(time.Second)
		time.Sleep(20 * time.Millisecond)
	}
	return other
}

// waitUntil waits, a few milliseconds at a time, until cond holds: what
// the peers of a table do on their own, without the test's clock.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for s := 0; !cond(); s++ {
		if s == 3000 {
			t.Fatalf("never saw %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// playsNjetFor plays the person's seat s at Njet! on its peer at lt by
// the first legal move, but while thinks holds, until the test ends.
func playsNjetFor(t *testing.T, lt *memtable.Table, s, rounds int, thinks *atomic.Bool) {
	st, err := seat.NewPeerSeat(lt.Peers[s], s, seat.PeerSeatConfig{Changed: lt.Changed(s), Rounds: rounds})
	if err != nil {
		t.Fatal(err)
	}
	inBackground(t, func(ctx context.Context) {
		for ctx.Err() == nil {
			ev, err := st.Next(ctx)
			if err != nil {
				return
			}
			q, ok := ev.(seat.YourTurn)
			if !ok {
				continue
			}
			for thinks.Load() && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
			_ = st.Choose(q.Prompt.Seq, q.Prompt.Legal[0]) // a question withdrawn is asked again
		}
	})
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

// TestPersonGetsTheSeatBackAtTheGame: at a LAN table of The Game of real
// peers (Anna the person, Ben another person, Cleo's device a bot) Anna's
// device is switched off at her turn. Ben and Cleo's device vote, a bot
// plays her seat, and the table plays on while Ben thinks. Her device is
// switched on again and the app opened on the table: it says that a bot
// plays her seat and that the device asks for it back; once Ben has
// played, her seat is given back at its turn and the app says so, and she
// plays the game to its end by taps, at desktop and phone size.
func TestPersonGetsTheSeatBackAtTheGame(t *testing.T) {
	const you, ben = 0, 1
	for _, sz := range lanSizes {
		t.Run(sz.name, func(t *testing.T) {
			gen := &table.Genesis{Game: table.GameTheGame, Names: []string{"Anna", "Ben", "Cleo"}}
			lt := memtable.New(t, memtable.Config{Genesis: gen, Players: 3, Human: func(s int) bool { return s != 2 },
				Bot: "coop", NewPlayer: memtable.Players(t, table.GameTheGame), Heartbeat: true,
				Patience: 5 * time.Second, VoidAfter: 20 * time.Second, Seed: 5})
			pa := newLANPersonApp(t, sz.size, lt)
			theGameAtLAN(pa, lt.Peers[you], lt.Changed(you))
			var benThinks atomic.Bool
			playsFor(t, lt.Peers[ben], &benThinks)

			other := pa.switchedOff(lt, you, ben)
			// Ben thinks: the bot plays Anna's turn, and the table waits
			// for Ben.
			benThinks.Store(true)
			played := len(other.Game().TheGame().Moves(0))
			waitUntil(t, "the bot plays the person's turn", func() bool {
				return len(other.Game().TheGame().Moves(0)) > played && other.View().Turn == ben
			})

			// The device comes back, and the person opens the app again.
			back := newLANPersonApp(t, sz.size, lt)
			src := theGameAtLAN(back, lt.Return(you), lt.Changed(you))
			// The banner's words, wherever its lines wrap.
			sees := func(text string) func() bool { return func() bool { return wordsDrawn(back.p.Look().Read(""), text) } }
			// The app is settled while the table waits for another seat,
			// as the person looks at it then.
			back.until = func() bool { s, waiting := src.Waiting(); return waiting && s != you }
			back.waitFor("that a bot plays the seat", sees("Your device was away too long"))
			checkFits(t, back.u.Window())
			screenshot(t, "thegame-lan-person-away-"+sz.name, back.u.Window())
			if src.Host(you) == you {
				t.Fatal("the seat was given back before its turn")
			}
			benThinks.Store(false)
			back.waitFor("the seat given back", sees("Your seat is yours again:"))
			checkFits(t, back.u.Window())
			screenshot(t, "thegame-lan-person-back-"+sz.name, back.u.Window())
			if src.Host(you) != you {
				t.Fatalf("the banner says the seat is the person's, played by seat %d", src.Host(you))
			}

			back.until = nil
			player := &reach.TheGame{Words: TheGameWords()}
			back.playOn(player, src.Over)
			if !src.Over() || src.Host(you) != you || player.Laid == 0 {
				t.Fatalf("over %v, the person's seat hosted by %d, %d cards laid by the person after it came back",
					src.Over(), src.Host(you), player.Laid)
			}
		})
	}
}

// playsFor plays a person's seat at The Game on its peer p by the coop
// bot's moves, but while thinks holds, until the test ends.
func playsFor(t *testing.T, p *table.Peer, thinks *atomic.Bool) {
	inBackground(t, func(ctx context.Context) {
		coop := tgbot.NewCoop(true)
		for ctx.Err() == nil {
			if !thinks.Load() && p.YourTurn() {
				v := p.Game().TheGame().View(p.Seat())
				_ = p.Submit(coop.Act(&v)) // a refused move is asked again
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// inBackground runs f in a goroutine until the test ends: its context is
// cancelled then, and the test waits for f to return.
func inBackground(t *testing.T, f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		f(ctx)
	}()
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
	return newLANPersonApp(t, size, lt), lt
}

// newLANPersonApp is the app of a person at lt, at size, whose clock is
// the table's.
func newLANPersonApp(t *testing.T, size fyne.Size, lt *memtable.Table) *personApp {
	t.Helper()
	return newPersonAppWith(t, "en", size, func(e *Env) {
		e.LAN = newFakeLAN()
		e.Now = lt.Clock.Now
	})
}

// personAtNjetLAN is personAtLAN at Njet!, with the seat the app's table
// screen reads (it is pushed by the caller).
func personAtNjetLAN(t *testing.T, size fyne.Size, cfg memtable.Config) (*personApp, *memtable.Table, *frozenSeat) {
	t.Helper()
	pa, lt := personAtLAN(t, size, cfg)
	return pa, lt, njetAtLAN(pa, lt, 0, cfg.Genesis.Rounds)
}

// njetAtLAN is the seat the app's Njet! table screen on pa reads for seat
// s at lt, of a game of rounds rounds.
func njetAtLAN(pa *personApp, lt *memtable.Table, s, rounds int) *frozenSeat {
	pa.t.Helper()
	st, err := seat.NewPeerSeat(lt.Peers[s], s, seat.PeerSeatConfig{Changed: lt.Changed(s), Rounds: rounds})
	if err != nil {
		pa.t.Fatal(err)
	}
	return &frozenSeat{Seat: st, stop: func(seat.Event) bool { return false }, stopped: make(chan struct{})}
}

// personAtTheGameLAN is personAtLAN at The Game, with the app's LAN
// screen of the table pushed.
func personAtTheGameLAN(t *testing.T, size fyne.Size, cfg memtable.Config) (*personApp, *memtable.Table, *seat.TheGameSeat) {
	t.Helper()
	pa, lt := personAtLAN(t, size, cfg)
	return pa, lt, theGameAtLAN(pa, lt.Peers[0], lt.Changed(0))
}

// theGameAtLAN opens the app's LAN screen of The Game on pa for the seat
// p plays, which has news on changed.
func theGameAtLAN(pa *personApp, p *table.Peer, changed <-chan struct{}) *seat.TheGameSeat {
	pa.t.Helper()
	src, err := seat.NewTheGameSeat(p, nil, changed)
	if err != nil {
		pa.t.Fatal(err)
	}
	g, ok := NewLANTable(pa.u, &peerTGTable{src: src}).(*LANTheGame)
	if !ok {
		pa.t.Fatal("a table of The Game opened another screen")
	}
	pa.u.Push(g)
	return src
}
