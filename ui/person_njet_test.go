package ui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
)

// njetGame is a game a person sets up on the new-game screen.
type njetGame struct {
	edition engine.Edition
	players int
	short   bool // the Classic short game
	target  int  // else up to a target score (0: the whole game)
	seed    uint64
}

func (g njetGame) String() string {
	s := fmt.Sprintf("%s-%dp", g.edition, g.players)
	switch {
	case g.short:
		s += "-short"
	case g.target > 0:
		s += fmt.Sprintf("-to%d", g.target)
	}
	return s
}

// setUp sets g up on the new-game screen from home, by taps and typing,
// and deals.
func (pa *personApp) setUp(g njetGame) {
	pa.t.Helper()
	p := pa.p
	w := setUpWords()
	p.TapText(w.NewGame)
	p.TapText(w.Edition[g.edition])
	p.TapText(strconv.Itoa(g.players))
	switch {
	case g.short:
		p.TapText(w.Short(pa.rounds(g)))
	case g.target == 0:
		p.TapText(w.Whole(pa.rounds(g)))
	case g.target > 0:
		p.TapText(w.Target)
		p.Tap("the target score", reach.Kind("entry", w.Length))
		for range 4 {
			p.Key(fyne.KeyBackspace)
		}
		p.Type(strconv.Itoa(g.target))
	}
	p.Tap("the seed", reach.Kind("entry", w.Seed))
	p.Type(strconv.FormatUint(g.seed, 10))
	p.TapText(w.Deal)
}

// rounds is the number of rounds of g's whole or short game.
func (pa *personApp) rounds(g njetGame) int {
	e, err := engine.NewGame(engine.Config{Edition: g.edition, Players: g.players, Short: g.short})
	if err != nil {
		pa.t.Fatal(err)
	}
	return e.Rounds()
}

// playNjet sets g up and plays it to its end through the screen, then
// checks what the person saw against the engine.
func (pa *personApp) playNjet(g njetGame) *reach.Njet {
	pa.t.Helper()
	pa.setUp(g)
	ts, ok := pa.u.Top().(*TableScreen)
	if !ok {
		pa.p.Fatalf("dealt, but the table is not on top")
	}
	l := pa.u.saves[njetID].live.(*seat.Local)
	if cfg := l.Config(); cfg.Edition != g.edition || cfg.Players != g.players || cfg.Short != g.short || cfg.Target != g.target || cfg.Seed != g.seed {
		pa.t.Fatalf("the new-game screen dealt %+v for %v", cfg, g)
	}
	player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(g.seed, 1))}
	pa.playLooking(player, func(s *reach.Screen) { checkScreen(pa.t, s) })
	if !l.Over() {
		pa.t.Fatalf("the person left the game before its end")
	}
	if got, want := ts.Totals(), l.Totals(); !slices.Equal(got, want) {
		pa.t.Fatalf("the screen showed totals %v, the engine has %v", got, want)
	}
	if n := len(ts.model.results); player.Rounds != n || n < 2 {
		pa.t.Fatalf("the person read %d round summaries of %d rounds", player.Rounds, n)
	}
	if pa.screen() != "Home" {
		pa.p.Fatalf("after Done the app shows %s, not home", pa.screen())
	}
	return player
}

// TestPersonPlaysNjet: a person plays whole games of Njet! through the
// screen alone, both editions and every player count, at every size the
// app supports: every round of each game, from the new-game screen to the
// home screen after the game-over view (R-END); the Classic short game
// and the target score once each, upright on a phone.
func TestPersonPlaysNjet(t *testing.T) {
	whole := []njetGame{
		{edition: engine.Classic, players: 3, seed: 11},
		{edition: engine.Classic, players: 4, seed: 12},
		{edition: engine.Modern, players: 2, seed: 13},
		{edition: engine.Modern, players: 3, seed: 14},
		{edition: engine.Modern, players: 4, seed: 15},
		{edition: engine.Modern, players: 5, seed: 16},
	}
	type run struct {
		size string
		at   fyne.Size
		game njetGame
	}
	var runs []run
	for _, sz := range personSizes {
		for _, g := range whole {
			runs = append(runs, run{sz.name, sz.size, g})
		}
	}
	phone := personSizes[1]
	runs = append(runs,
		run{phone.name, phone.size, njetGame{edition: engine.Classic, players: 3, short: true, seed: 1}},
		run{phone.name, phone.size, njetGame{edition: engine.Classic, players: 4, target: 60, seed: 2}},
		run{phone.name, phone.size, njetGame{edition: engine.Modern, players: 5, target: 60, seed: 6}},
	)
	for _, r := range runs {
		t.Run(r.size+"/"+r.game.String(), func(t *testing.T) {
			start := time.Now()
			pa := newPersonApp(t, "en", r.at)
			pl := pa.playNjet(r.game)
			t.Logf("%d rounds, %d taps in %v", pl.Rounds, pl.Taps, time.Since(start).Round(time.Millisecond))
		})
	}
}

// personSizes are the window sizes a person plays at: a desktop, a phone
// upright and on its side, and a small window.
var personSizes = []struct {
	name string
	size fyne.Size
}{
	{"desktop", fyne.NewSize(1280, 800)},
	{"phone", fyne.NewSize(360, 740)},
	{"landscape-short", fyne.NewSize(740, 360)},
	{"short", fyne.NewSize(300, 400)},
}

// TestPersonPlaysLANTable: a person plays a whole game at a LAN table,
// whose banner takes room above the table, at every size, through the
// screen alone.
func TestPersonPlaysLANTable(t *testing.T) {
	names := []string{"Anna", "Ben", "李雷"}
	for _, sz := range personSizes {
		t.Run(sz.name, func(t *testing.T) {
			pa := newPersonAppWith(t, "en", sz.size, func(e *Env) { e.LAN = newFakeLAN() })
			l, err := seat.NewLocal(seat.LocalConfig{Edition: engine.Classic, Players: 3, Names: names, Seed: 11, Short: true})
			if err != nil {
				t.Fatal(err)
			}
			fs := &frozenSeat{Seat: l, stop: func(seat.Event) bool { return false }, stopped: make(chan struct{})}
			pa.u.Push(NewLANGame(pa.u, &gameTable{names: names, seat: fs}))
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(11, 3))}
			pa.playLooking(player, func(s *reach.Screen) { checkScreen(pa.t, s) })
			if !l.Over() || player.Rounds != 3 {
				t.Fatalf("over %v after %d rounds read", l.Over(), player.Rounds)
			}
		})
	}
}
