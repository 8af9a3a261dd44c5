package ui

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	"github.com/njetlan/njet/words"
)

// tgTest is a table of The Game in the test driver whose UI work runs on
// the test goroutine: the pump queues functions that the test runs in
// order, as fyne.Do would on the app's goroutine.
type tgTest struct {
	t     *testing.T
	app   *App
	scr   *TheGameScreen
	src   *seat.TheGameLocal
	queue chan func()
}

func newTGTest(t *testing.T, code string, cfg seat.TheGameLocalConfig, size fyne.Size) *tgTest {
	t.Helper()
	u := newTestApp(t, code)
	src, err := seat.NewTheGameLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tt := &tgTest{t: t, app: u, src: src, queue: make(chan func(), 4096)}
	tt.scr = newTheGameScreen(u, src, seatNames(u, cfg.Players), 0, func(f func()) { tt.queue <- f })
	u.Push(tt.scr)
	u.Window().Resize(size)
	return tt
}

// settle runs queued UI work until the screen waits for the person or the
// game-over view is up.
func (tt *tgTest) settle() {
	tt.t.Helper()
	deadline := time.After(20 * time.Second)
	for range 100000 {
		if tt.scr.over || tt.scr.myTurn() && len(tt.queue) == 0 && tt.src.Idle() {
			return
		}
		select {
		case f := <-tt.queue:
			f()
		case <-time.After(time.Millisecond):
		case <-deadline:
			tt.t.Fatal("the table does not come back to the person")
		}
	}
	tt.t.Fatal("the table never waits for the person")
}

// card is the hand's widget for c.
func (tt *tgTest) card(c thegame.Card) *tgCardView {
	tt.t.Helper()
	for _, cv := range tt.scr.cards {
		if cv.card == c {
			return cv
		}
	}
	tt.t.Fatalf("no card %d in the hand %v", c, tt.scr.view.Hand)
	return nil
}

// do carries out a through taps: a card then a pile, or End. A warning
// that comes up is answered yes.
func (tt *tgTest) do(a thegame.Action) {
	tt.t.Helper()
	switch a.Kind {
	case thegame.ActPlay:
		test.Tap(tt.card(a.Card))
		test.Tap(tt.scr.piles[a.Pile])
		if tt.scr.warning != nil {
			tt.scr.answerWarning(true)
		}
	case thegame.ActEnd:
		if tt.scr.End.Disabled() {
			tt.t.Fatalf("End is disabled, the engine allows it")
		}
		test.Tap(tt.scr.End)
	default:
		tt.t.Fatalf("the person does not %v", a)
	}
	if tt.scr.bad {
		tt.t.Fatalf("%v refused: %s", a, tt.scr.status)
	}
}

// play lets person choose the person's moves, tapped in, until the game is
// over; look sees every point where the person is asked.
func (tt *tgTest) play(person tgbot.Player, look func()) {
	tt.t.Helper()
	for range 2000 {
		tt.settle()
		if look != nil {
			look()
		}
		if tt.scr.over {
			return
		}
		v := tt.src.View()
		tt.do(person.Act(&v))
	}
	tt.t.Fatal("the game does not end")
}

// legalPlay finds a play of the person's hand the engine allows and that
// does not lose, with a second card to follow it.
func legalPlay(v thegame.View) (thegame.Action, bool) {
	pos := v.Position()
	for _, c := range v.Hand {
		for p := range thegame.NumPiles {
			if !pos.CanPlay(c, p) {
				continue
			}
			q := pos
			q.Play(c, p)
			if q.Stopped || q.Feasible() {
				return thegame.Action{Kind: thegame.ActPlay, Seat: v.Seat, Card: c, Pile: p}, true
			}
		}
	}
	return thegame.Action{}, false
}

// TestTheGameTapPlays: a card tapped then a pile it fits lays it there
// (G-B4): the hand loses it, the pile shows it, nothing else is told.
func TestTheGameTapPlays(t *testing.T) {
	for _, extreme := range []bool{false, true} {
		t.Run(fmt.Sprintf("extreme=%v", extreme), func(t *testing.T) {
			tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 3, Extreme: extreme, Bot: "coop", Seed: 11}, fyne.NewSize(1280, 800))
			tt.settle()
			before := tt.src.View()
			a, ok := legalPlay(before)
			if !ok {
				t.Fatal("no legal play in the first hand")
			}
			test.Tap(tt.card(a.Card))
			if tt.scr.picked != a.Card || !tt.scr.piles[a.Pile].target {
				t.Fatalf("picked %d, pile %d marked %v", tt.scr.picked, a.Pile, tt.scr.piles[a.Pile].target)
			}
			test.Tap(tt.scr.piles[a.Pile])
			after := tt.src.View()
			if slices.Contains(after.Hand, a.Card) || after.Piles[a.Pile].Top != int(a.Card) || after.PlayedThisTurn != 1 {
				t.Fatalf("after %v: hand %v, piles %+v", a, after.Hand, after.Piles)
			}
			if tt.scr.bad || tt.scr.picked != 0 {
				t.Fatalf("status %q, picked %d", tt.scr.status, tt.scr.picked)
			}
			if got := tt.scr.piles[a.Pile].num.Text; got != strconv.Itoa(int(a.Card)) {
				t.Fatalf("the pile shows %q", got)
			}
		})
	}
}

// TestTheGameIllegalTap: a card on a pile it does not fit is refused with
// the reason in words and nothing changes (G-B4); a pile tapped with no
// card picked, or a card tapped out of turn, is explained too.
func TestTheGameIllegalTap(t *testing.T) {
	tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 5}, fyne.NewSize(360, 740))
	tt.settle()
	test.Tap(tt.scr.piles[0])
	if !tt.scr.bad || !strings.Contains(tt.scr.note.Text(), "Choose a card") {
		t.Fatalf("a pile without a card says %q", tt.scr.note.Text())
	}
	// Lay a card on a rising pile, then try a lower one that is no trick.
	before := tt.src.View()
	hand := before.Hand
	var hi, lo thegame.Card
	for _, c := range hand {
		for _, d := range hand {
			if d < c && int(c)-int(d) != 10 {
				hi, lo = c, d
			}
		}
	}
	if hi == 0 {
		t.Fatalf("no two cards to test with in %v", hand)
	}
	test.Tap(tt.card(hi))
	test.Tap(tt.scr.piles[0])
	if tt.scr.bad {
		t.Fatalf("%d on pile 1 refused: %s", hi, tt.scr.status)
	}
	mid := tt.src.View()
	test.Tap(tt.card(lo))
	test.Tap(tt.scr.piles[0])
	after := tt.src.View()
	want := fmt.Sprintf("%d does not fit pile 1: it goes up from %d", lo, hi)
	if !tt.scr.bad || !strings.Contains(tt.scr.note.Text(), want) {
		t.Fatalf("the refusal reads %q, want %q", tt.scr.note.Text(), want)
	}
	if !slices.Equal(mid.Hand, after.Hand) || mid.Piles != after.Piles || mid.PlayedThisTurn != after.PlayedThisTurn {
		t.Fatalf("a refused tap changed the game: %+v to %+v", mid, after)
	}
	if tt.scr.picked != lo {
		t.Fatalf("the refused card is no longer picked (%d)", tt.scr.picked)
	}
}

// fakeTGSource is a TheGameSource over a game that never moves on by
// itself, as a LAN table waiting for another device would be.
type fakeTGSource struct{ g *thegame.Game }

func (f *fakeTGSource) You() int           { return 0 }
func (f *fakeTGSource) View() thegame.View { return f.g.View(0) }
func (f *fakeTGSource) Warning(a thegame.Action) (thegame.Command, bool) {
	return f.g.Warning(a)
}
func (f *fakeTGSource) Act(a thegame.Action) error { return f.g.Apply(a) }
func (f *fakeTGSource) Next(ctx context.Context) (thegame.Action, error) {
	<-ctx.Done()
	return thegame.Action{}, ctx.Err()
}

// TestTheGameOutOfTurn: while another seat is on turn, a tap on a card or
// a pile says whose turn it is, End is offered not, and nothing changes.
func TestTheGameOutOfTurn(t *testing.T) {
	g, err := thegame.NewGame(thegame.Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Feed(thegame.Deck()); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a := g.Legal(0)[0]
		if err := g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if g.Turn() != 0 || g.Phase() != thegame.PhasePlay {
		t.Fatalf("seat %d in %v", g.Turn(), g.Phase())
	}
	if err := g.Apply(thegame.Action{Kind: thegame.ActEnd}); err != nil {
		t.Fatal(err)
	}
	if err := g.Feed(thegame.Deck()); err != nil {
		t.Fatal(err)
	}
	u := newTestApp(t, "en")
	scr := newTheGameScreen(u, &fakeTGSource{g: g}, nil, 0, func(f func()) { f() })
	u.Push(scr)
	before := g.View(0)
	for _, tap := range []fyne.Tappable{scr.piles[2], scr.cards[0], scr.End} {
		scr.status = ""
		test.Tap(tap)
		if tap != fyne.Tappable(scr.End) && !strings.Contains(scr.note.Text(), "Wait: it is Bot 1's turn") {
			t.Fatalf("a tap on %T out of turn says %q", tap, scr.note.Text())
		}
	}
	if after := g.View(0); !slices.Equal(before.Hand, after.Hand) || before.Piles != after.Piles || after.Turn != 1 {
		t.Fatal("a tap out of turn changed the game")
	}
	if !scr.End.Disabled() {
		t.Fatal("End is offered out of turn")
	}
}

// TestTheGameEndTurn: "End turn" is offered only once the minimum is down
// (G-B3): two cards while the draw pile lasts; the engine refuses an early
// end with the reason the screen words.
func TestTheGameEndTurn(t *testing.T) {
	tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 4, Bot: "coop", Seed: 3}, fyne.NewSize(1280, 800))
	tt.settle()
	turns := tt.src.View().Turns
	for played := range 3 {
		v := tt.src.View()
		if got, want := tt.scr.End.Disabled(), played < 2; got != want {
			t.Fatalf("after %d cards End disabled=%v", played, got)
		}
		if played < 2 {
			err := tt.src.Act(thegame.Action{Kind: thegame.ActEnd})
			if !errors.Is(err, thegame.ErrTooFew) {
				t.Fatalf("an end after %d cards: %v", played, err)
			}
			if r := tt.scr.reason(err, thegame.Action{Kind: thegame.ActEnd}); !strings.Contains(r, "Play at least") {
				t.Fatalf("the reason reads %q", r)
			}
			test.Tap(tt.scr.End) // disabled: nothing happens
			if tt.src.View().Turn != 0 {
				t.Fatal("a tap on the disabled End ended the turn")
			}
			a, ok := legalPlay(v)
			if !ok {
				t.Fatalf("no play after %d cards", played)
			}
			tt.do(a)
			continue
		}
		tt.do(thegame.Action{Kind: thegame.ActEnd})
	}
	if tt.src.View().Turns == turns {
		t.Fatal("the turn did not pass on")
	}
}

// findWarning plays Extreme games with the person's moves from a greedy
// bot until the person could make a play that the engine's Warning says
// loses (G-X2, G-B6); it returns the table there and that play.
func findWarning(t *testing.T, size fyne.Size, code string) (*tgTest, thegame.Action, thegame.Command) {
	t.Helper()
	for seed := range uint64(60) {
		tt := newTGTest(t, code, seat.TheGameLocalConfig{Players: 2, Extreme: true, Bot: "coop", Seed: seed}, size)
		var found thegame.Action
		var cmd thegame.Command
		person := tgbot.Greedy{}
		for range 2000 {
			tt.settle()
			if tt.scr.over {
				break
			}
			v := tt.src.View()
			pos := v.Position()
			for _, c := range v.Hand {
				for p := range thegame.NumPiles {
					a := thegame.Action{Kind: thegame.ActPlay, Card: c, Pile: p}
					if k, lose := tt.src.Warning(a); lose && pos.CanPlay(c, p) {
						found, cmd = a, k
					}
				}
			}
			if found.Kind != 0 {
				return tt, found, cmd
			}
			tt.do(person.Act(&v))
		}
		tt.scr.Stop()
	}
	t.Fatal("no game offered a losing play")
	return nil, thegame.Action{}, thegame.CmdNone
}

// TestTheGameWarning: before a play that loses the game the screen asks
// (G-X2); "take it back" keeps everything as it was, "lay it anyway" plays
// it and the game ends lost or with the turn unfinished.
func TestTheGameWarning(t *testing.T) {
	tt, a, k := findWarning(t, fyne.NewSize(1280, 800), "en")
	before := tt.src.View()
	test.Tap(tt.card(a.Card))
	test.Tap(tt.scr.piles[a.Pile])
	if tt.scr.warning == nil || tt.scr.warnPlay == nil || *tt.scr.warnPlay != a {
		t.Fatalf("no warning before %v", a)
	}
	if k != thegame.CmdNone && !strings.Contains(tt.scr.status, tgCommandShort(k)) {
		t.Fatalf("the warning does not name %v: %q", k, tt.scr.status)
	}
	if after := tt.src.View(); !slices.Equal(before.Hand, after.Hand) || before.Piles != after.Piles {
		t.Fatal("the warning let the card go")
	}
	tt.scr.answerWarning(false)
	if after := tt.src.View(); !slices.Equal(before.Hand, after.Hand) || before.Piles != after.Piles {
		t.Fatal("taking the card back changed the game")
	}
	test.Tap(tt.card(a.Card))
	test.Tap(tt.scr.piles[a.Pile])
	tt.scr.answerWarning(true)
	tt.settle()
	if !tt.scr.over {
		t.Fatal("the losing play did not end the game")
	}
	r := tt.src.Result()
	if r.Broken != k || r.Won {
		t.Fatalf("result %+v, the warning named %v", r, k)
	}
}

// TestTheGameWholeGames plays a game for every player count in both
// variants through taps to its end (G-B6) and checks the game-over view
// against the engine: the cards left (G-B7), the rating (G-B8), and a
// replay whose last step shows the final piles.
func TestTheGameWholeGames(t *testing.T) {
	for players := thegame.MinPlayers; players <= thegame.MaxPlayers; players++ {
		for _, extreme := range []bool{false, true} {
			t.Run(fmt.Sprintf("G-B6/%dp/extreme=%v", players, extreme), func(t *testing.T) {
				bot := "coop"
				if players%2 == 0 {
					bot = "greedy"
				}
				tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: players, Extreme: extreme, Bot: bot, Seed: uint64(players)}, fyne.NewSize(360, 740))
				tt.play(tgbot.NewCoop(false), nil)
				r := tt.src.Result()
				o := tt.scr.gameOver
				if o == nil {
					t.Fatal("no game-over view")
				}
				if want := fmt.Sprintf("Cards left: %d", r.CardsLeft); o.Left.Text != want {
					t.Errorf("the view says %q, want %q", o.Left.Text, want)
				}
				if want := say(words.Rating(r.Rating())); o.Rating.Text != want {
					t.Errorf("the rating reads %q, want %q", o.Rating.Text, want)
				}
				if got, want := len(tt.scr.plays), thegame.DeckSize-r.CardsLeft; got != want {
					t.Errorf("the replay has %d cards, %d were played", got, want)
				}
				final := tt.src.View().Piles
				for mode, sel := range o.Mode.Options {
					o.Mode.SetSelected(sel)
					test.Tap(o.Last)
					for i, p := range o.piles {
						if p.pile.Top != final[i].Top {
							t.Errorf("mode %d: the replay's pile %d ends on %d, the game's on %d", mode, i+1, p.pile.Top, final[i].Top)
						}
					}
					test.Tap(o.First)
					if o.step != 0 || o.piles[0].pile.Top != 1 || o.piles[3].pile.Top != 100 {
						t.Errorf("mode %d: the first step shows %d and %d", mode, o.piles[0].pile.Top, o.piles[3].pile.Top)
					}
					if len(o.order) > 0 {
						test.Tap(o.Next)
						first := tt.scr.plays[o.order[0]]
						if o.piles[first.Pile].pile.Top != int(first.Card) {
							t.Errorf("mode %d: one step on shows %d on pile %d", mode, o.piles[first.Pile].pile.Top, first.Pile+1)
						}
					}
				}
			})
		}
	}
}

// TestTheGameLanguages: the table and the game-over view in German and
// French speak those languages, with no English left, at a phone's size
// and at the short ones; there the setup and the rules fit the width too,
// with their longer words.
func TestTheGameLanguages(t *testing.T) {
	cases := []struct{ code, end, pile, left string }{
		{"de", "Zug beenden", "Stapel 1: auf", "Übrige Karten"},
		{"fr", "Finir le tour", "Pile 1 : monte", "Cartes restantes"},
	}
	for _, c := range cases {
		for _, sz := range tgSizes[1:] {
			t.Run(c.code+"/"+sz.name, func(t *testing.T) {
				tt := newTGTest(t, c.code, seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 2}, sz.size)
				tt.settle()
				if tt.scr.End.Text != c.end || tt.scr.piles[0].dir.Text != c.pile {
					t.Fatalf("End says %q, pile 1 %q", tt.scr.End.Text, tt.scr.piles[0].dir.Text)
				}
				for _, en := range []string{"Draw pile", "Your turn", "Cards in hand"} {
					if strings.Contains(tt.scr.turn.Text()+tt.scr.seats.Text(), en) {
						t.Errorf("English %q left in %q", en, tt.scr.turn.Text())
					}
				}
				checkTGSize(t, tt, sz.short)
				screenshot(t, "thegame-table-"+sz.name+"-"+c.code, tt.app.Window())
				tt.play(tgbot.Greedy{}, nil)
				if !strings.Contains(tt.scr.gameOver.Left.Text, c.left) {
					t.Fatalf("game over says %q", tt.scr.gameOver.Left.Text)
				}
				checkFits(t, tt.app.Window())
				screenshot(t, "thegame-gameover-"+sz.name+"-"+c.code, tt.app.Window())
				if !sz.short {
					return
				}
				tt.app.Push(NewTheGameSetup(tt.app))
				checkFits(t, tt.app.Window())
				tt.app.Push(NewTheGameRules(tt.app))
				checkFits(t, tt.app.Window())
			})
		}
	}
}

// tgSizes are the window sizes The Game's screens are checked at and a
// person plays at: the app's desktop window, a phone held upright, a phone on its side and the mobile
// simulation's small window. The table is too tall for the last two
// (short) and must scroll there.
var tgSizes = []struct {
	name  string
	size  fyne.Size
	short bool
}{
	{"desktop", fyne.NewSize(1024, 720), false},
	{"phone", fyne.NewSize(360, 740), false},
	{"landscape-short", fyne.NewSize(740, 360), true},
	{"short", fyne.NewSize(300, 400), true},
}

// TestTheGameScreens renders home with both games, the setup, a game in
// progress with Extreme commands in force and a signal, the warning and
// the game-over view at desktop and phone sizes and at the short ones:
// the parts must fit the window or be reached by scrolling, the cards and
// piles must be big enough for a finger and must not overlap.
// -shots writes docs/screenshots/thegame-*.png.
func TestTheGameScreens(t *testing.T) {
	for _, sz := range tgSizes {
		t.Run(sz.name, func(t *testing.T) {
			u := newTestApp(t, "en")
			w := u.Window()
			w.Resize(sz.size)
			home := NewHome(u)
			u.Reset(home)
			if home.Game(theGameID).New == nil || home.Game(njetID).New == nil {
				t.Fatal("home does not offer both games")
			}
			checkFits(t, w)
			screenshot(t, "thegame-home-"+sz.name, w)
			test.Tap(home.Game(theGameID).New)
			setup, ok := u.Top().(*TheGameSetup)
			if !ok {
				t.Fatalf("the button opened %T", u.Top())
			}
			setup.Players.SetSelected("1")
			if setup.botsField.Visible() {
				t.Fatal("the bots are offered to a player alone")
			}
			if cfg, err := setup.Config(); err != nil || cfg.Players != 1 {
				t.Fatalf("one player gives %+v, %v", cfg, err)
			}
			easy, _ := tgChoiceParts(tgw("thegame.bot.easy"))
			strong, _ := tgChoiceParts(tgw("thegame.bot.strong"))
			setup.Bots.SetSelected(easy)
			if cfg, _ := setup.Config(); cfg.Bot != "greedy" {
				t.Fatalf("easy bots are %q", cfg.Bot)
			}
			setup.Bots.SetSelected(strong)
			setup.Extreme.SetChecked(true)
			setup.Players.SetSelected("4")
			if !setup.botsField.Visible() {
				t.Fatal("no bots offered to 4 players")
			}
			checkFits(t, w)
			screenshot(t, "thegame-setup-"+sz.name, w)
			cfg, err := setup.Config()
			if err != nil || cfg.Players != 4 || !cfg.Extreme || cfg.Bot != "expert" {
				t.Fatalf("the setup gives %+v, %v", cfg, err)
			}

			// A game in progress: two lasting commands in force, a signal.
			var shot bool
			for seed := range uint64(40) {
				tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 4, Extreme: true, Bot: "coop", Seed: seed}, sz.size)
				person := tgbot.NewCoop(true)
				for range 400 {
					tt.settle()
					if tt.scr.over {
						break
					}
					v := tt.src.View()
					lasting := 0
					for _, k := range v.InForce {
						if k.Lasting() {
							lasting++
						}
					}
					if lasting >= 2 && hasSignal(v) && v.PlayedThisTurn == 0 {
						if a, ok := legalPlay(v); ok {
							test.Tap(tt.card(a.Card)) // a card picked, its piles marked
						}
						checkTGSize(t, tt, sz.short)
						screenshot(t, "thegame-table-"+sz.name, tt.app.Window())
						shot = true
						break
					}
					tt.do(person.Act(&v))
				}
				tt.scr.Stop()
				if shot {
					break
				}
			}
			if !shot {
				t.Fatal("no game showed two commands and a signal")
			}

			tt, a, _ := findWarning(t, sz.size, "en")
			test.Tap(tt.card(a.Card))
			test.Tap(tt.scr.piles[a.Pile])
			if tt.scr.warning == nil {
				t.Fatal("no warning")
			}
			checkTGSize(t, tt, sz.short)
			checkAskFits(t, tt.app.Window(), tt.scr.warning)
			screenshot(t, "thegame-warning-"+sz.name, tt.app.Window())
			tt.scr.answerWarning(false)
			tt.scr.Stop()

			// Game over after a whole game, the replay a few cards back.
			tt = newTGTest(t, "en", seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: 4}, sz.size)
			tt.play(tgbot.NewCoop(true), nil)
			for range 5 {
				test.Tap(tt.scr.gameOver.Prev)
			}
			checkFits(t, tt.app.Window())
			screenshot(t, "thegame-gameover-"+sz.name, tt.app.Window())
		})
	}
}

// TestTheGameTableShort renders the table at 300x400 (the mobile
// simulation's window), where it scrolls, and 740x360 (a phone on its
// side): every pile and card can be scrolled to, End turn stays in the
// window whatever the scroll, and a whole turn is played there, two cards
// then End turn, after which the hand is drawn up again.
func TestTheGameTableShort(t *testing.T) {
	for _, sz := range tgSizes {
		if !sz.short {
			continue
		}
		t.Run(sz.name, func(t *testing.T) {
			tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 3}, sz.size)
			tt.settle()
			if !tt.scr.lay.column {
				t.Fatal("a short window gets the desktop's layout")
			}
			checkTGReach(t, tt)
			if sc := tt.scr.scroll; sz.size.Width < 400 && sc.Content.Size().Height <= sc.Size().Height {
				t.Errorf("the table is %v in a view of %v: nothing to scroll", sc.Content.Size(), sc.Size())
			}
			full := len(tt.src.View().Hand)
			for range 2 {
				a, ok := legalPlay(tt.src.View())
				if !ok {
					t.Fatal("no card to lay")
				}
				tt.do(a)
			}
			sc := tt.scr.scroll
			sc.ScrollToOffset(fyne.NewPos(0, sc.Content.Size().Height))
			checkTGReach(t, tt)
			if tt.scr.End.Disabled() {
				t.Fatal("End turn is greyed out after two cards")
			}
			test.Tap(tt.scr.End)
			if n := len(tt.src.View().Hand); tt.scr.bad || n != full {
				t.Fatalf("after End turn the hand holds %d cards, not %d again: %s", n, full, tt.scr.status)
			}
		})
	}
}

// TestTheGameSignalAsk: the question that puts a signal on a pile fits
// every size, its answers inside the window even on the short ones, and
// its yes gives the signal chosen, pile 1 and "leave it to me" first
// (G-S1).
func TestTheGameSignalAsk(t *testing.T) {
	for _, code := range []string{"en", "de", "fr"} {
		for _, sz := range tgSizes {
			t.Run(code+"/"+sz.name, func(t *testing.T) {
				testSignalAsk(t, code, sz.name, sz.size)
			})
		}
	}
}

func testSignalAsk(t *testing.T, code, name string, size fyne.Size) {
	tt := newTGTest(t, code, seat.TheGameLocalConfig{Players: 3, Bot: "coop", Seed: 9}, size)
	tt.settle()
	test.Tap(tt.scr.Signal)
	q := tt.scr.signalDlg
	if q == nil {
		t.Fatal("no signal dialog")
	}
	checkAskFits(t, tt.app.Window(), q)
	checkFits(t, tt.app.Window())
	if code == "en" {
		screenshot(t, "thegame-signal-"+name, tt.app.Window())
	}
	test.Tap(q.Yes)
	if tt.scr.signalDlg != nil {
		t.Fatal("the dialog is still open")
	}
	if got := tt.src.View().Signals[0][0]; got != thegame.SignalMine {
		t.Fatalf("pile 1 holds %v", got)
	}
}

// checkAskFits checks that a question's answers lie inside the window,
// whole, big enough for a finger, and apart.
func checkAskFits(t *testing.T, w fyne.Window, q *tgAsk) {
	t.Helper()
	size := w.Canvas().Size()
	d := fyne.CurrentApp().Driver()
	var boxes [][4]float32
	for _, b := range []*widget.Button{q.Yes, q.No} {
		p, sz := d.AbsolutePositionForObject(b), b.Size()
		if p.X < 0 || p.Y < 0 || p.X+sz.Width > size.Width+0.5 || p.Y+sz.Height > size.Height+0.5 {
			t.Errorf("%q at %v size %v lies outside the window %v", b.Text, p, sz, size)
		}
		if sz.Width < b.MinSize().Width-0.5 || sz.Height < minTouch {
			t.Errorf("%q is %v, it needs %v", b.Text, sz, b.MinSize())
		}
		boxes = append(boxes, [4]float32{p.X, p.Y, p.X + sz.Width, p.Y + sz.Height})
	}
	a, b := boxes[0], boxes[1]
	if a[0] < b[2]-1 && b[0] < a[2]-1 && a[1] < b[3]-1 && b[1] < a[3]-1 {
		t.Errorf("the answers overlap at %v and %v", a, b)
	}
}

func hasSignal(v thegame.View) bool {
	for _, s := range v.Signals {
		for _, k := range s {
			if k != thegame.SignalNone {
				return true
			}
		}
	}
	return false
}

// checkTGSize checks the table with checkTGReach on a short window, else
// with checkTGFits.
func checkTGSize(t *testing.T, tt *tgTest, short bool) {
	t.Helper()
	if short {
		checkTGReach(t, tt)
		return
	}
	checkTGFits(t, tt)
}

// checkTGReach checks a table on a short window: it lies in a scroll, no
// wider than the window; End turn and the other buttons
// lie inside the window whatever the scroll, big enough for a finger; and
// every pile and card, scrolled to, lies inside the window clear of the
// buttons, big enough for a finger.
func checkTGReach(t *testing.T, tt *tgTest) {
	t.Helper()
	w := tt.app.Window()
	checkFits(t, w)
	size := w.Canvas().Size()
	d := fyne.CurrentApp().Driver()
	sc := tt.scr.scroll
	if sc == nil || sc.Content == nil {
		t.Fatal("the table is not in a scroll")
	}
	view, content := sc.Size(), sc.Content.Size()
	if content.Width > view.Width+0.5 {
		t.Errorf("the table is %.0f wide in a view %.0f wide", content.Width, view.Width)
	}
	type box struct{ x0, y0, x1, y1 float32 }
	inside := func(what string, o fyne.CanvasObject) box {
		t.Helper()
		p, sz := d.AbsolutePositionForObject(o), o.Size()
		if p.X < 0 || p.Y < 0 || p.X+sz.Width > size.Width+0.5 || p.Y+sz.Height > size.Height+0.5 {
			t.Errorf("%s at %v size %v lies outside the window %v", what, p, sz, size)
		}
		if sz.Width < minTarget || sz.Height < minTarget {
			t.Errorf("%s is %v: too small for a finger", what, sz)
		}
		return box{p.X, p.Y, p.X + sz.Width, p.Y + sz.Height}
	}
	top := d.AbsolutePositionForObject(sc).Y
	var buttons []box
	for _, off := range []float32{0, content.Height} {
		sc.ScrollToOffset(fyne.NewPos(0, off))
		for _, b := range []*widget.Button{tt.scr.End, tt.scr.Signal, tt.scr.Rules} {
			buttons = append(buttons, inside(b.Text, b))
		}
	}
	reach := func(what string, o fyne.CanvasObject) {
		t.Helper()
		y := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(sc.Content).Y
		sc.ScrollToOffset(fyne.NewPos(0, y-tgPad))
		b := inside(what, o)
		if b.y0 < top-0.5 {
			t.Errorf("%s scrolled to lies at %v, above the table's top %.0f", what, b, top)
		}
		for _, o := range buttons {
			if b.x0 < o.x1-1 && o.x0 < b.x1-1 && b.y0 < o.y1-1 && o.y0 < b.y1-1 {
				t.Errorf("%s scrolled to at %v lies under a button at %v", what, b, o)
			}
		}
	}
	for i, p := range tt.scr.piles {
		reach(fmt.Sprintf("pile %d", i+1), p)
	}
	for _, c := range tt.scr.cards {
		reach(fmt.Sprintf("card %d", c.card), c)
	}
	sc.ScrollToOffset(fyne.NewPos(0, 0))
}

// checkTGFits checks that the table's play fits the window and that every card,
// pile and button lies inside it, is big enough to tap, and overlaps no
// other.
func checkTGFits(t *testing.T, tt *tgTest) {
	t.Helper()
	w := tt.app.Window()
	checkFits(t, w)
	size := w.Canvas().Size()
	d := fyne.CurrentApp().Driver()
	// The play needs no scroll: the piles, the hand and the note under
	// it lie in the view; the words of the seats, the commands and the
	// moves may follow below it.
	if sc := tt.scr.scroll; sc.Offset.Y == 0 {
		for _, o := range []fyne.CanvasObject{tt.scr.note, tt.scr.hand} {
			if y := o.Position().Y + o.Size().Height; y > sc.Size().Height+0.5 {
				t.Errorf("the table's %T ends at %.0f in a view %.0f high: the play scrolls", o, y, sc.Size().Height)
			}
		}
	}
	type box struct{ x0, y0, x1, y1 float32 }
	var boxes []box
	var objs []fyne.CanvasObject
	for _, c := range tt.scr.cards {
		objs = append(objs, c)
	}
	for _, p := range tt.scr.piles {
		objs = append(objs, p)
	}
	objs = append(objs, tt.scr.End, tt.scr.Signal, tt.scr.Rules)
	for _, o := range objs {
		p := d.AbsolutePositionForObject(o)
		sz := o.Size()
		if p.X < 0 || p.Y < 0 || p.X+sz.Width > size.Width+0.5 || p.Y+sz.Height > size.Height+0.5 {
			t.Errorf("%T at %v size %v lies outside the window %v", o, p, sz, size)
		}
		if sz.Width < minTarget || sz.Height < minTarget {
			t.Errorf("%T is %v: too small for a finger", o, sz)
		}
		b := box{p.X, p.Y, p.X + sz.Width, p.Y + sz.Height}
		for _, o := range boxes {
			if b.x0 < o.x1-1 && o.x0 < b.x1-1 && b.y0 < o.y1-1 && o.y0 < b.y1-1 {
				t.Errorf("controls overlap at %v and %v", b, o)
			}
		}
		boxes = append(boxes, b)
	}
}

// TestTheGameWordsKnown: every phrase id The Game's screens use is in the
// words catalogue, so that no screen shows an empty text.
func TestTheGameWordsKnown(t *testing.T) {
	files, err := filepath.Glob("thegame_*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(nd ast.Node) bool {
			lit, ok := nd.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			id, _ := strconv.Unquote(lit.Value)
			if !strings.HasPrefix(id, "thegame.") || strings.Count(id, ".") < 1 || strings.ContainsAny(id, " {") {
				return true
			}
			if id == "thegame.rules." || strings.HasSuffix(id, ".") {
				return true // a prefix completed from tgRuleParts
			}
			if strings.HasPrefix(id, "thegame.players") || strings.HasPrefix(id, "thegame.bot") && !strings.HasPrefix(id, "thegame.bot.") || id == "thegame.extreme" {
				return true // preference keys
			}
			n++
			if words.TheGame(id).Text == "" {
				t.Errorf("%s: %q is not in the words catalogue", name, id)
			}
			return true
		})
	}
	for _, p := range tgRuleParts {
		for _, id := range []string{"thegame.rules." + p, "thegame.rules." + p + ".heading"} {
			n++
			if words.TheGame(id).Text == "" {
				t.Errorf("%q is not in the words catalogue", id)
			}
		}
	}
	if n < 60 {
		t.Fatalf("only %d ids found", n)
	}
}

// TestTheGameSignals: the person puts a signal on a pile and every seat
// sees it there (G-S1); while a no-talking card lies on top, the Signal
// button is greyed out, a tap on it says why, the engine refuses a signal
// and the signals on the piles are drawn greyed out (G-S2, G-X6).
func TestTheGameSignals(t *testing.T) {
	t.Run("G-S1", func(t *testing.T) {
		tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 3, Bot: "coop", Seed: 9}, fyne.NewSize(1280, 800))
		tt.settle()
		if tt.scr.Signal.Disabled() {
			t.Fatal("Signal is greyed out without a no-talking card")
		}
		test.Tap(tt.scr.Signal)
		if tt.scr.signalDlg == nil {
			t.Fatal("no signal dialog")
		}
		tt.scr.signalDlg.Hide()
		tt.scr.giveSignal(2, thegame.SignalMine)
		if got := tt.src.View().Signals[0][2]; got != thegame.SignalMine {
			t.Fatalf("pile 3 holds %v", got)
		}
		mine := func() bool {
			return slices.ContainsFunc(tt.scr.piles[2].signals, func(s string) bool {
				return strings.Contains(s, "You") && strings.HasSuffix(s, "leave it to me")
			})
		}
		if !mine() {
			t.Fatalf("pile 3 shows %q", tt.scr.piles[2].signals)
		}
		tt.scr.giveSignal(2, thegame.SignalNone)
		if mine() || tt.src.View().Signals[0][2] != thegame.SignalNone {
			t.Fatalf("a cleared signal still shows: %q", tt.scr.piles[2].signals)
		}
	})
	t.Run("G-S2", func(t *testing.T) {
		for seed := range uint64(40) {
			tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 3, Extreme: true, Bot: "coop", Seed: seed}, fyne.NewSize(360, 740))
			person := tgbot.NewCoop(false)
			for range 300 {
				tt.settle()
				if tt.scr.over {
					break
				}
				v := tt.src.View()
				if !v.Muted {
					tt.do(person.Act(&v))
					continue
				}
				if !tt.scr.Signal.Disabled() {
					t.Fatal("Signal is offered under no talking")
				}
				tt.scr.openSignal()
				if tt.scr.signalDlg != nil || !strings.Contains(tt.scr.note.Text(), "No talking") {
					t.Fatalf("a signal under no talking says %q", tt.scr.note.Text())
				}
				err := tt.src.Act(thegame.Action{Kind: thegame.ActSignal, Pile: 1, Signal: thegame.SignalGood})
				if !errors.Is(err, thegame.ErrNoTalking) {
					t.Fatalf("the engine took a signal under no talking: %v", err)
				}
				for _, p := range tt.scr.piles {
					if !p.muted {
						t.Fatal("a pile's signals are not greyed out")
					}
				}
				return
			}
			tt.scr.Stop()
		}
		t.Fatal("no game met a no-talking card on the person's turn")
	})
}

// TestTheGameRules: the rules are one tap away from the setup and from the
// table, in our words, with every command and its cards (G-X1).
func TestTheGameRules(t *testing.T) {
	for _, sz := range tgSizes {
		t.Run(sz.name, func(t *testing.T) {
			tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 1}, sz.size)
			tt.settle()
			test.Tap(tt.scr.Rules)
			r, ok := tt.app.Top().(*TheGameRules)
			if !ok {
				t.Fatalf("Rules opened %T", tt.app.Top())
			}
			checkFits(t, tt.app.Window())
			screenshot(t, "thegame-rules-"+sz.name, tt.app.Window())
			var all []string
			var walk func(o fyne.CanvasObject)
			walk = func(o fyne.CanvasObject) {
				switch c := o.(type) {
				case *widget.Label:
					all = append(all, c.Text)
				case *fyne.Container:
					for _, k := range c.Objects {
						walk(k)
					}
				case *container.Scroll:
					walk(c.Content)
				}
			}
			walk(r.view)
			text := strings.Join(all, "\n")
			for _, want := range []string{"backwards trick", "Skull: cover it", "(cards 6, 31, 55, 80)", "fewer than 10 left"} {
				if !strings.Contains(text, want) {
					t.Errorf("the rules do not say %q", want)
				}
			}
			tt.app.Back()
			if tt.app.Top() != tt.scr {
				t.Fatal("Back does not return to the table")
			}
		})
	}
}

// TestTheGameCommandReasons: a move refused for a command is explained by
// naming that command (G-X3 to G-X8), for each refusal the engine makes.
func TestTheGameCommandReasons(t *testing.T) {
	start := func() thegame.Position {
		return thegame.Position{Extreme: true, DrawPile: 50,
			Piles: [thegame.NumPiles]thegame.Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}}
	}
	cases := []struct {
		name  string
		setup func(p *thegame.Position)
		card  thegame.Card // 0: the end of the turn
		pile  int
		want  string
	}{
		{"G-X7/no-trick", func(p *thegame.Position) { p.Piles[0] = thegame.Pile{Up: true, Top: 50, Cmd: thegame.CmdNoTrick} }, 40, 0, "“No trick” is in force"},
		{"G-X8/one-pile", func(p *thegame.Position) {
			p.Piles[1].Cmd = thegame.CmdOnePile
			p.Played, p.OnPiles = 1, 1
		}, 60, 1, "“One pile” is in force"},
		{"G-X5/three-count", func(p *thegame.Position) { p.Three, p.Played = true, 3 }, 70, 0, "has its 3 cards"},
		{"G-X5/three-stop", func(p *thegame.Position) { p.Three, p.Played = true, 1 }, 27, 0, "a stop may only be the third"},
		{"G-X3/stop-skull", func(p *thegame.Position) { p.Piles[2] = thegame.Pile{Top: 31, Cmd: thegame.CmdSkull} }, 27, 0, "skull must be covered"},
		{"G-X3/stopped", func(p *thegame.Position) { p.Stopped = true }, 70, 0, "A stop has ended your turn"},
		{"G-X4/end-skull", func(p *thegame.Position) {
			p.Piles[2] = thegame.Pile{Top: 31, Cmd: thegame.CmdSkull}
			p.Played = 2
		}, 0, 0, "skull must be covered"},
		{"G-X5/end-three", func(p *thegame.Position) { p.Three, p.Played = true, 2 }, 0, 0, "needs exactly 3 cards"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := start()
			c.setup(&p)
			var err error
			if c.card == 0 {
				err = p.CheckEnd()
			} else {
				p.Hand = p.Hand.Add(c.card)
				err = p.CheckPlay(c.card, c.pile)
			}
			if !errors.Is(err, thegame.ErrCommand) {
				t.Fatalf("the engine says %v", err)
			}
			if got := tgCommandReason(err, p); !strings.Contains(got, c.want) {
				t.Fatalf("the reason reads %q, want %q", got, c.want)
			}
		})
	}
}

// TestTheGameDrag: a card dragged onto a pile it fits is laid there, as
// tap, tap would (G-B4); let go beside the piles it stays in the hand,
// picked, with a word on what to do.
func TestTheGameDrag(t *testing.T) {
	for _, sz := range sizes[:2] {
		t.Run(sz.name, func(t *testing.T) {
			tt := newTGTest(t, "en", seat.TheGameLocalConfig{Players: 2, Bot: "greedy", Seed: 21}, sz.size)
			tt.settle()
			v := tt.src.View()
			a, ok := legalPlay(v)
			if !ok {
				t.Fatal("no legal play")
			}
			d := fyne.CurrentApp().Driver()
			c := d.AbsolutePositionForObject(tt.card(a.Card)).Add(fyne.NewPos(10, 10))
			// Let go on the felt below the turn line, beside every pile.
			test.Drag(tt.app.Window().Canvas(), c, -c.X+2, 0)
			if tt.scr.picked != a.Card || len(tt.src.View().Hand) != len(v.Hand) || !strings.Contains(tt.scr.note.Text(), "on a pile") {
				t.Fatalf("a drop beside the piles: picked %d, note %q", tt.scr.picked, tt.scr.note.Text())
			}
			p := tt.scr.piles[a.Pile]
			to := d.AbsolutePositionForObject(p).Add(fyne.NewPos(p.Size().Width/2, p.Size().Height/2))
			test.Drag(tt.app.Window().Canvas(), c, to.X-c.X, to.Y-c.Y)
			after := tt.src.View()
			if slices.Contains(after.Hand, a.Card) || after.Piles[a.Pile].Top != int(a.Card) {
				t.Fatalf("the drag did not lay %d on pile %d: %+v", a.Card, a.Pile+1, after.Piles)
			}
		})
	}
}

// TestTheGameLocalConfig: a local game refuses a bad number of players
// (G-B1) or an unknown bot with a clear error; the person's actions must be
// seat 0's and never a draw.
func TestTheGameLocalConfig(t *testing.T) {
	cases := []struct {
		cfg  seat.TheGameLocalConfig
		want error
	}{
		{seat.TheGameLocalConfig{Players: 0, Bot: "coop"}, thegame.ErrBadConfig},
		{seat.TheGameLocalConfig{Players: 6, Bot: "coop"}, thegame.ErrBadConfig},
		{seat.TheGameLocalConfig{Players: 3, Bot: "clever"}, tgbot.ErrUnknownKind},
		{seat.TheGameLocalConfig{Players: 1, Bot: ""}, tgbot.ErrUnknownKind},
		{seat.TheGameLocalConfig{Players: 1, Bot: "greedy"}, nil},
		{seat.TheGameLocalConfig{Players: 5, Extreme: true, Bot: "coop"}, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("G-B1/%d-%s", c.cfg.Players, c.cfg.Bot), func(t *testing.T) {
			l, err := seat.NewTheGameLocal(c.cfg)
			if !errors.Is(err, c.want) || (err == nil) != (l != nil) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if l == nil {
				return
			}
			if v := l.View(); len(v.Hand) != thegame.HandSize(c.cfg.Players) || v.Turn != 0 || v.Phase != thegame.PhasePlay {
				t.Fatalf("the deal: hand %v, seat %d on turn in %v", v.Hand, v.Turn, v.Phase)
			}
			if err := l.Act(thegame.Action{Kind: thegame.ActDraw, Card: 50}); !errors.Is(err, thegame.ErrBadAction) {
				t.Fatalf("a draw by the person: %v", err)
			}
			if c.cfg.Players > 1 {
				if err := l.Act(thegame.Action{Kind: thegame.ActEnd, Seat: 1}); !errors.Is(err, thegame.ErrNotYourTurn) {
					t.Fatalf("an action for a bot: %v", err)
				}
			}
			if err := l.Act(thegame.Action{Kind: thegame.ActPlay, Card: 50, Pile: 7}); err == nil {
				t.Fatal("a play on pile 8 was taken")
			}
		})
	}
}

// TestTheGameBlockedNamesCommand: a card that fits a pile by its number
// but is kept from it by a command in force is refused at the tap with
// the command's name (G-X7, G-X8), the one name the card, the pile and
// the rules give it; a card that fits nowhere by number says only that.
func TestTheGameBlockedNamesCommand(t *testing.T) {
	piles := [thegame.NumPiles]thegame.Pile{{Up: true, Top: 50}, {Up: true, Top: 60}, {Top: 30}, {Top: 20}}
	cases := []struct {
		name  string
		setup func(v *thegame.View)
		card  thegame.Card
		want  string
	}{
		{"G-X7/no-trick", func(v *thegame.View) { v.Piles[0].Cmd = thegame.CmdNoTrick }, 40, tgCommandShort(thegame.CmdNoTrick)},
		{"G-X8/one-pile", func(v *thegame.View) {
			v.Piles[3].Cmd = thegame.CmdOnePile
			v.PlayedThisTurn, v.OnPiles = 1, 1<<3
		}, 55, tgCommandShort(thegame.CmdOnePile)},
		{"G-B4/by-number", func(*thegame.View) {}, 45, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := thegame.View{Players: 2, Extreme: true, Phase: thegame.PhasePlay, DrawPile: 40, Piles: piles, Hand: []thegame.Card{c.card}}
			c.setup(&v)
			s := &TheGameScreen{view: v}
			got := s.blocked(c.card)
			head := tgw("thegame.fits-nowhere", "Card", int(c.card))
			if c.want == "" {
				if got != head {
					t.Fatalf("%d is refused with %q, want %q", c.card, got, head)
				}
				return
			}
			if !strings.Contains(got, strconv.Itoa(int(c.card))) || !strings.Contains(got, c.want) {
				t.Fatalf("%d is refused with %q, which does not name %q", c.card, got, c.want)
			}
		})
	}
}

// scriptTGSource is a fakeTGSource whose Next tells the steps of a script,
// each a move or an error, and then waits.
type scriptTGSource struct {
	fakeTGSource
	steps chan tgStep
}

type tgStep struct {
	a   thegame.Action
	err error
}

func (f *scriptTGSource) Next(ctx context.Context) (thegame.Action, error) {
	select {
	case s := <-f.steps:
		return s.a, s.err
	case <-ctx.Done():
		return thegame.Action{}, ctx.Err()
	}
}

// TestTheGameRewound: when a LAN table's log no longer holds moves the
// screen told (the device was cut off and follows the table's log now),
// the list of moves and the cards laid keep only the moves that stand, and
// the table's moves follow them.
func TestTheGameRewound(t *testing.T) {
	g, err := thegame.NewGame(thegame.Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Feed(thegame.Deck()); err != nil {
		t.Fatal(err)
	}
	a := thegame.Action{Kind: thegame.ActPlay, Seat: 1, Card: 17, Pile: 0}
	b := thegame.Action{Kind: thegame.ActPlay, Seat: 1, Card: 23, Pile: 1}
	d := thegame.Action{Kind: thegame.ActPlay, Seat: 1, Card: 45, Pile: 2}
	src := &scriptTGSource{fakeTGSource: fakeTGSource{g: g}, steps: make(chan tgStep, 8)}
	for _, s := range []tgStep{{a: a}, {a: b}, {a: thegame.Action{Kind: thegame.ActEnd, Seat: 1}},
		{err: &seat.Rewound{Kept: []thegame.Action{a}}}, {a: d}} {
		src.steps <- s
	}
	u := newTestApp(t, "en")
	queue := make(chan func(), 64)
	scr := newTheGameScreen(u, src, nil, 0, func(f func()) { queue <- f })
	u.Push(scr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	scr.Start(ctx)
	deadline := time.After(10 * time.Second)
	for len(scr.plays) < 2 || scr.plays[len(scr.plays)-1] != d {
		select {
		case f := <-queue:
			f()
		case <-deadline:
			t.Fatalf("the screen told %v", scr.plays)
		}
	}
	if !slices.Equal(scr.plays, []thegame.Action{a, d}) || scr.last != 2 {
		t.Fatalf("cards laid %v (last on pile %d), want %v and %v", scr.plays, scr.last+1, a, d)
	}
	log := scr.log.Text()
	if !strings.Contains(log, "17") || !strings.Contains(log, "45") || strings.Contains(log, "23") || strings.Contains(log, "end") {
		t.Fatalf("the list of moves reads %q, want 17 and 45 only", log)
	}
}

// TestTheGameLANRewoundTold: a LAN table's source tells the table screen
// of moves taken back, and the LAN screen that the device is back with
// the table.
func TestTheGameLANRewoundTold(t *testing.T) {
	g, err := thegame.NewGame(thegame.Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	inner := &scriptTGSource{fakeTGSource: fakeTGSource{g: g}, steps: make(chan tgStep, 1)}
	inner.steps <- tgStep{err: &seat.Rewound{}}
	told := 0
	src := &tgLANSource{TheGameSource: inner, over: make(chan struct{}), rewound: func() { told++ }}
	var rw *seat.Rewound
	if _, err := src.Next(context.Background()); !errors.As(err, &rw) || told != 1 {
		t.Fatalf("Next: %v, told %d times", err, told)
	}
}
