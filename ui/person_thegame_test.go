package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui/reach"
)

// tgGame is a game of The Game a person sets up on its setup screen.
type tgGame struct {
	players int
	extreme bool
	seed    uint64
}

func (g tgGame) String() string {
	v := "base"
	if g.extreme {
		v = "extreme"
	}
	return fmt.Sprintf("%s-%dp", v, g.players)
}

// waitsForPerson reports whether the table has told every move up to the
// person's turn, or shows the game-over view.
func (t *TheGameScreen) waitsForPerson() bool {
	if t.over {
		return true
	}
	l, ok := t.src.(*seat.TheGameLocal)
	return t.myTurn() && (!ok || l.Idle())
}

// setUpTheGame goes from home to a table of g by taps alone.
func (pa *personApp) setUpTheGame(g tgGame) *TheGameScreen {
	pa.t.Helper()
	p := pa.p
	w := theGameSetUpWords()
	pa.u.tgSeed = func() uint64 { return g.seed }
	p.TapText(w.Play)
	p.TapText(strconv.Itoa(g.players))
	if c := p.Find("the Extreme check", reach.Button(w.Extreme)); c.On != g.extreme {
		p.TapControl("the Extreme check", c)
	}
	p.TapText(w.Deal)
	scr, ok := pa.u.Top().(*TheGameScreen)
	if !ok {
		p.Fatalf("dealt, but the table of The Game is not on top")
	}
	if cfg := scr.src.(*seat.TheGameLocal).Config(); cfg.Players != g.players || cfg.Extreme != g.extreme || cfg.Seed != g.seed {
		pa.t.Fatalf("the setup dealt %+v for %v", cfg, g)
	}
	return scr
}

// playTheGame sets g up, plays it to its end through the screen and goes
// home, checking each screen with look; it returns the player.
func (pa *personApp) playTheGame(g tgGame, look func(s *reach.Screen)) *reach.TheGame {
	pa.t.Helper()
	scr := pa.setUpTheGame(g)
	l := scr.src.(*seat.TheGameLocal)
	player := &reach.TheGame{Words: TheGameWords()}
	var before map[string]reach.Rect // the hand's places before a pile was tapped
	turn := -1                       // the turn they are of
	for {
		pa.p.Settle()
		s := pa.p.Look()
		checkScreen(pa.t, onTop(s))
		if scr == pa.u.Top() {
			if scr.view.Turns != turn {
				before = nil
			}
			checkTheGameTable(pa.t, scr, s, before)
		}
		// Where the hand's cards are on the table, scrolled or not.
		places, placesTurn := map[string]reach.Rect{}, scr.view.Turns
		for _, c := range s.Find(reach.Kind("card", reach.RegionHand)) {
			c.Rect.Y += scr.scroll.Offset.Y
			places[c.Text] = c.Rect
		}
		if look != nil {
			look(s)
		}
		before = nil
		if !pa.p.Step(player) {
			break
		}
		if last := pa.p.Steps[len(pa.p.Steps)-1]; strings.Contains(last, "pile") && scr == pa.u.Top() && scr.myTurn() {
			before, turn = places, placesTurn
		}
	}
	if v := l.View(); v.Phase != thegame.PhaseOver {
		pa.t.Fatalf("the person left the game before its end: %+v", v)
	}
	if pa.screen() != "Home" {
		pa.p.Fatalf("after Done the app shows %s, not home", pa.screen())
	}
	if player.Laid < 2 || player.Turns < 1 {
		pa.t.Fatalf("the person laid %d cards in %d turns", player.Laid, player.Turns)
	}
	return player
}

// checkTheGameTable checks what the table shows against the game: the
// hand keeps its places on the table while the person lays cards (before
// holds them as they were before the last card, scrolled to the top), every pile shows the card its
// backwards trick takes, and the list of moves holds every card the
// others laid since the person's last turn.
func checkTheGameTable(t *testing.T, scr *TheGameScreen, s *reach.Screen, before map[string]reach.Rect) {
	t.Helper()
	for _, c := range s.Find(reach.Kind("card", reach.RegionHand)) {
		c.Rect.Y += scr.scroll.Offset.Y
		if r, ok := before[c.Text]; ok && r != c.Rect {
			t.Errorf("card %s moved from %s to %s while the person laid a card", c.Text, r, c.Rect)
		}
	}
	if scr.over {
		return
	}
	for _, pc := range s.Find(reach.Kind("pile", reach.RegionPiles)) {
		f := strings.Fields(pc.Text)
		top, _ := strconv.Atoi(f[2])
		trick := tgTrickCard(thegame.Pile{Up: f[1] == "up", Top: top})
		if trick == 0 || pc.OffView {
			continue
		}
		shown := false
		for _, tx := range s.Texts {
			if tx.Region == reach.RegionPiles && tx.Rect.Within(pc.Rect) && strings.Contains(tx.Text, strconv.Itoa(int(trick))) {
				shown = true
			}
		}
		if !shown {
			t.Errorf("pile %s does not show its trick card %d at %.0fx%.0f", pc.Text, trick, s.Size.Width, s.Size.Height)
		}
	}
	if !scr.myTurn() {
		return
	}
	l := scr.src.(*seat.TheGameLocal)
	moves := l.History()
	log := scr.log.Text()
	i := len(moves) - 1
	for i >= 0 && moves[i].Seat == scr.view.Seat && moves[i].Kind != thegame.ActEnd {
		i-- // the person's turn under way
	}
	for ; i >= 0 && moves[i].Seat != scr.view.Seat; i-- {
		if a := moves[i]; a.Kind == thegame.ActPlay {
			want := tgw("thegame.log.play", "Card", tgCardWords(a.Card, scr.view.Extreme), "Pile", a.Pile+1)
			if !strings.Contains(log, want) {
				t.Errorf("the list of moves drops %s's %q:\n%s", scr.name(a.Seat), want, log)
				return
			}
		}
	}
}

// onTop is s with only the controls of its top layer: what a pop-up
// covers is not for the person now.
func onTop(s *reach.Screen) *reach.Screen {
	top := *s
	top.Controls = s.Find(func(c reach.Control) bool { return c.Layer == s.Layers })
	return &top
}

// TestPersonPlaysTheGame: a person plays whole games of The Game through
// the screen alone, from home by the setup's choices to the game-over
// view and home again (G-B6), the bots in the other seats: every player
// count and both variants, at every size the app supports.
func TestPersonPlaysTheGame(t *testing.T) {
	games := map[string][]tgGame{
		"desktop":         {{1, false, 21}, {3, true, 22}, {5, true, 23}},
		"phone":           {{2, true, 24}, {4, false, 25}, {5, false, 26}},
		"landscape-short": {{3, false, 27}, {1, true, 28}},
		"short":           {{2, false, 29}, {4, true, 30}},
	}
	for _, sz := range tgSizes {
		for _, g := range games[sz.name] {
			t.Run(sz.name+"/"+g.String(), func(t *testing.T) {
				start := time.Now()
				pa := newPersonApp(t, "en", sz.size)
				pl := pa.playTheGame(g, nil)
				t.Logf("%d cards laid, %d turns, %d taps in %v", pl.Laid, pl.Turns, pl.Taps, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// TestPersonPlaysTheGameTranslated: a person plays a whole game of The
// Game Extreme in German and in French on a phone; no English shows.
func TestPersonPlaysTheGameTranslated(t *testing.T) {
	english := map[string]*regexp.Regexp{
		"de": regexp.MustCompile(`\b(Your|playing|Draw|Cards|pile|End|Rules|laid|trick|Done|Skull|No talking|One pile|fits|Lay|left|on)\b`),
		// "pile" and "Signal" are French too.
		"fr": regexp.MustCompile(`\b(Your|playing|Draw|Cards|End|Rules|laid|trick|Done|Skull|No talking|One pile|fits|Lay|left|on)\b`),
	}
	for i, code := range []string{"de", "fr"} {
		t.Run(code, func(t *testing.T) {
			pa := newPersonApp(t, code, fyne.NewSize(360, 740))
			seen := map[string]bool{}
			pa.playTheGame(tgGame{players: 3, extreme: true, seed: uint64(40 + i)}, func(s *reach.Screen) {
				for _, l := range s.Lines("") {
					if english[code].MatchString(l) && !seen[l] {
						seen[l] = true
						t.Errorf("English in %s: %q", code, l)
					}
				}
			})
		})
	}
}

// TestPersonLeavesTheGame: at the table of The Game a person opens the
// rules and comes back to the same table, then goes Back, says yes to
// leaving, and is home; at the app's window of 1024x720 home shows The
// Game, the rules and the settings without a scroll, with a saved game of
// The Game to continue and without.
func TestPersonLeavesTheGame(t *testing.T) {
	pa := newPersonApp(t, "en", fyne.NewSize(1024, 720))
	p := pa.p
	scr := pa.setUpTheGame(tgGame{players: 3, extreme: true, seed: 5})
	player := &reach.TheGame{Words: TheGameWords()}
	for range 3 {
		p.Step(player)
	}
	p.TapText(tgw("thegame.rules"))
	if pa.screen() != "TheGameRules" {
		p.Fatalf("Rules at the table opened %s", pa.screen())
	}
	p.TapText(tr("app.back", "Back"))
	if pa.u.Top() != scr {
		p.Fatalf("back from the rules, the table is not the one left")
	}
	p.TapText(tr("app.back", "Back"))
	p.TapText(tgw("thegame.leave.yes"))
	if pa.screen() != "Home" {
		p.Fatalf("after leaving the game the app shows %s, not home", pa.screen())
	}
	homeShows := func(extra ...string) {
		t.Helper()
		p.Settle()
		s := p.Look()
		for _, want := range append([]string{tgw("thegame.home.play"), tr("home.rules", "Rules"), tr("home.settings", "Settings")}, extra...) {
			cs := s.Reachable(reach.Button(want))
			if len(cs) != 1 || cs[0].OffView {
				p.Fatalf("home does not show %q without a scroll: %v", want, s.Find(reach.Button(want)))
			}
		}
	}
	homeShows()
	l, err := seat.NewTheGameLocal(seat.TheGameLocalConfig{Players: 2, Extreme: true, Bot: "coop", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	pa.u.SaveLocal(theGameID, l)
	pa.u.Reset(NewHome(pa.u))
	homeShows(tgn("thegame.home.continue", 2, "Variant", tgw("thegame.home.extreme")))
}
