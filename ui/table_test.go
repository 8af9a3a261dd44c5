package ui

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/persontest"
	"github.com/njetlan/njet/ui/reach"
)

// table is the table screen on top.
func (pa *personApp) table() *TableScreen {
	pa.t.Helper()
	ts, ok := pa.u.Top().(*TableScreen)
	if !ok {
		pa.p.Fatalf("the table is not on top")
	}
	return ts
}

// start sets g up from home and waits for the first question.
func (pa *personApp) start(g njetGame) *TableScreen {
	pa.t.Helper()
	pa.setUp(g)
	pa.p.Settle()
	return pa.table()
}

var classic3 = njetGame{edition: engine.Classic, players: 3, short: true, seed: 7}

// playLooking plays with player until it is done, handing each screen the
// person sees to look, before each step.
func (pa *personApp) playLooking(player *reach.Njet, look func(s *reach.Screen)) {
	pa.t.Helper()
	for {
		pa.p.Settle()
		look(pa.p.Look())
		if !pa.p.Step(player) {
			return
		}
	}
}

// TestTableGerman: a person plays a whole game in German and in French;
// at every step no English word shows anywhere on the screen.
func TestTableGerman(t *testing.T) {
	english := map[string]*regexp.Regexp{
		"de": regexp.MustCompile(`\b(Your|Trick|Round|Scores|board|takes|dealer|cards|Next|Start player|thinking|Show|per|red|black|blue|green|Discard|Supertrump|Trump|You|alone|with|wins|Done|the|Home|loot)\b`),
		// "Scores" and "Score" are French too.
		"fr": regexp.MustCompile(`\b(Your|Trick|Round|board|takes|dealer|cards|Next|Start|thinking|Show|per|red|black|blue|green|Discard|Supertrump|Trump|You|alone|with|wins|Done|the|Home|loot)\b`),
	}
	for _, code := range []string{"de", "fr"} {
		t.Run(code, func(t *testing.T) {
			pa := newPersonApp(t, code, fyne.NewSize(360, 740))
			pa.setUp(njetGame{edition: engine.Modern, players: 4, target: 60, seed: 3})
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(3, 1))}
			seen := map[string]bool{}
			pa.playLooking(player, func(s *reach.Screen) {
				for _, l := range s.Lines("") {
					if english[code].MatchString(l) && !seen[l] {
						seen[l] = true
						t.Errorf("English in %s: %q", code, l)
					}
				}
			})
			if player.Rounds < 2 {
				t.Fatalf("%d rounds played", player.Rounds)
			}
		})
	}
}

// TestTableRefusals: tapping a field that cannot be blocked, or a card
// that does not follow suit, says why on screen and changes nothing
// (R-NJET-1, R-TRICK-2).
func TestTableRefusals(t *testing.T) {
	pa := newPersonApp(t, "en", fyne.NewSize(1280, 800))
	ts := pa.start(classic3)
	player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(1, 2))}
	var field, card bool
	for !(field && card) {
		pa.p.Settle()
		s := pa.p.Look()
		if len(s.Reachable(reach.Kind("field", reach.RegionBoard))) > 0 && !field {
			blocked := s.Find(func(c reach.Control) bool { return c.Kind == "field" && !c.Enabled && len(c.Problems) == 0 })
			if len(blocked) > 0 {
				seq := ts.model.prompt.Seq
				test.TapCanvas(pa.p.Canvas(), blocked[0].Tap)
				pa.p.Settle()
				if l := pa.p.Look(); !l.Shows("cannot be blocked") && !l.Shows("already blocked") {
					pa.p.Fatalf("tapping %s says nothing", blocked[0])
				}
				if ts.model.prompt == nil || ts.model.prompt.Seq != seq {
					t.Fatal("a refused block changed the question")
				}
				field = true
			}
		}
		if p := ts.model.prompt; p != nil && p.Kind == engine.ActPlay && !card {
			dim := s.Find(func(c reach.Control) bool { return c.Kind == "card" && c.Region == reach.RegionHand && !c.Enabled })
			if len(dim) > 0 {
				test.TapCanvas(pa.p.Canvas(), dim[0].Tap)
				pa.p.Settle()
				if l := pa.p.Look(); !l.Shows("follow") && !l.Shows("trump") {
					pa.p.Fatalf("tapping %s does not say why", dim[0])
				}
				card = true
			}
		}
		if !pa.p.Step(player) {
			break
		}
	}
	if !field || !card {
		t.Fatalf("refusals met: field %v, card %v", field, card)
	}
}

// TestTableKeyboard: cards are played with the digits and with the arrows
// and Enter, through the window's keys.
func TestTableKeyboard(t *testing.T) {
	pa := newPersonApp(t, "en", fyne.NewSize(1280, 800))
	ts := pa.start(classic3)
	player := &reach.Njet{Words: NjetWords()}
	played := 0
	for played < 4 && pa.p.Step(player) {
		pa.p.Settle()
		m := ts.model
		if m.prompt == nil || m.prompt.Kind != engine.ActPlay || len(m.view.Hand.Cards(m.view.Edition)) < 3 {
			continue
		}
		i := slices.IndexFunc(ts.cards, func(c *cardView) bool { return !c.Disabled() })
		before := m.view.Hand.Len()
		if played%2 == 0 {
			pa.p.Type(string(rune('1' + i)))
		} else {
			if ts.focus != i {
				t.Fatalf("the keyboard starts at card %d, the first legal is %d", ts.focus, i)
			}
			pa.p.Key(fyne.KeyRight)
			pa.p.Key(fyne.KeyLeft)
			pa.p.Key(fyne.KeyReturn)
		}
		pa.p.Settle()
		if m.view.Hand.Len() != before-1 {
			t.Fatalf("key play %d: hand %d → %d", played, before, m.view.Hand.Len())
		}
		played++
	}
	if played < 4 {
		t.Fatalf("%d cards played by keys", played)
	}
}

// phaseOf names what the table shows now, for the screenshots.
func phaseOf(m *tableModel) string {
	switch {
	case m.over != nil && m.summary == nil:
		return "gameover"
	case m.summary != nil:
		return "summary"
	case m.prompt != nil && m.prompt.Kind == engine.ActBlock:
		return "njet"
	case m.prompt != nil && m.prompt.Kind == engine.ActTeam:
		return "team"
	case m.prompt != nil && m.prompt.Kind == engine.ActDiscard:
		return "discard"
	case m.prompt != nil && m.prompt.Kind == engine.ActPass:
		return "pass"
	case m.prompt != nil && m.trickWon != nil:
		return "trick"
	}
	return ""
}

// tableSizes are the sizes the table's screenshots and markup are made
// at: every size the app supports.
var tableSizes = append(slices.Clone(sizes), personSizes[2:]...)

// TestTableScreens: a person plays until the table has shown each phase
// (the Njet board, the team choice, a discard with one card picked, a pass
// picked, a won trick, the round summary, game over) at every size; each
// time every enabled control is within a finger's reach (a scroll away at
// most) and no two overlap. The markup of each is checked in testdata/;
// -shots writes docs/screenshots/table-*.png.
func TestTableScreens(t *testing.T) {
	var games []njetGame
	for seed := range uint64(30) {
		games = append(games, njetGame{edition: engine.Modern, players: 2 + int(seed%4), seed: seed + 3, target: 12})
	}
	want := []string{"njet", "team", "discard", "pass", "trick", "summary", "gameover"}
	for _, sz := range tableSizes {
		t.Run(sz.name, func(t *testing.T) {
			done := map[string]bool{}
			for _, g := range games {
				if len(done) == len(want) {
					break
				}
				pa := newPersonApp(t, "en", sz.size)
				ts := pa.start(g)
				// Block so that the person becomes the start player and
				// passing to the left stays open, to meet every phase.
				player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(g.seed, 9)), Avoid: func(c reach.Control) bool {
					m := ts.model
					mine := "start/" + m.view.Characters[m.you].String()
					return c.Kind == "field" && (c.Text == mine || c.Text == "discard/pass-left")
				}, Prefer: func(c reach.Control) bool {
					return c.Kind == "field" && strings.HasPrefix(c.Text, "discard/") // leave passing the last discard field
				}}
				for {
					pa.p.Settle()
					m := ts.model
					if p := phaseOf(m); p != "" && !done[p] {
						if p == "discard" && m.needed() == 2 && len(m.chosen) == 0 || p == "pass" && len(m.chosen) == 0 {
							// show one card picked before the confirm
							pa.p.Tap("a card to pick", reach.Kind("card", reach.RegionHand))
							pa.p.Settle()
						}
						done[p] = true
						w := pa.u.Window()
						checkReach(t, pa.p)
						assertMarkup(t, filepath.Join(sz.name, "table-"+p+".xml"), w)
						screenshot(t, "table-"+p+"-"+sz.name, w)
					}
					if !pa.p.Step(player) {
						break
					}
				}
			}
			for _, p := range want {
				if !done[p] {
					t.Errorf("no %s phase met", p)
				}
			}
		})
	}
}

// checkReach fails when an enabled control of the screen is out of a
// finger's reach (a scroll away is within it), or two of them overlap, or
// a card is not seen whole, or a text runs past the window's sides.
func checkReach(t *testing.T, p *persontest.Person) {
	t.Helper()
	checkScreen(t, p.Look())
}

// checkScreen is checkReach on a screen looked at.
func checkScreen(t *testing.T, s *reach.Screen) {
	t.Helper()
	var shown []reach.Control
	for _, c := range s.Controls {
		if c.Kind == "card" && !c.Enabled && !c.Has(reach.Hidden) {
			// A card that cannot be tapped must still be seen whole: the
			// cards of a trick, of a hand while others play.
			for _, p := range []string{reach.Clipped, reach.Covered, reach.Under, reach.Outside, reach.ZeroSize} {
				if c.Has(p) {
					t.Errorf("%s at %.0fx%.0f: %s", s.Name, s.Size.Width, s.Size.Height, c)
				}
			}
		}
		if !c.Enabled || c.Has(reach.Hidden) {
			continue
		}
		if len(c.Problems) > 0 {
			t.Errorf("%s at %.0fx%.0f: %s", s.Name, s.Size.Width, s.Size.Height, c)
		}
		if c.OffView {
			continue
		}
		for _, o := range shown {
			if r := c.Rect.Intersect(o.Rect); r.W > 1 && r.H > 1 {
				t.Errorf("%s and %s overlap", c, o)
			}
		}
		shown = append(shown, c)
	}
	for _, tx := range s.Texts {
		if tx.Rect.X < -0.5 || tx.Rect.X+tx.Rect.W > s.Size.Width+0.5 {
			t.Errorf("%s at %.0fx%.0f: %q in %s runs past the window's side: %s", s.Name, s.Size.Width, s.Size.Height, tx.Text, tx.Region, tx.Rect)
		}
	}
}

// TestTableRoundOfTotal: the info bar always says which round of the total
// is played: of how many rounds, or towards which target score (R-END).
func TestTableRoundOfTotal(t *testing.T) {
	cases := []struct {
		name, code string
		game       njetGame
		want       string
	}{
		{"R-END-classic-short", "en", njetGame{edition: engine.Classic, players: 3, seed: 7, short: true}, "Round 1 of 3"},
		{"R-END-modern-whole", "en", njetGame{edition: engine.Modern, players: 4, seed: 3}, "Round 1 of 8"},
		{"R-END-modern-target", "en", njetGame{edition: engine.Modern, players: 4, seed: 3, target: 50}, "Round 1 · to 50 points"},
		{"R-END-target-de", "de", njetGame{edition: engine.Modern, players: 3, seed: 3, target: 20}, "Runde 1 · bis 20 Punkte"},
		{"R-END-short-fr", "fr", njetGame{edition: engine.Classic, players: 4, seed: 3, short: true}, "Manche 1 sur 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pa := newPersonApp(t, c.code, fyne.NewSize(360, 740))
			pa.start(c.game)
			if !pa.p.Sees(c.want) {
				pa.p.Fatalf("the info bar does not say %q", c.want)
			}
		})
	}
}

// TestTableNames: the names the new-game screen gives the bots are the
// names the table uses everywhere: seats, the fields they block, the trick,
// the round summary and the game-over table; no "Bot N" shows.
func TestTableNames(t *testing.T) {
	pa := newPersonApp(t, "en", fyne.NewSize(1280, 800))
	pa.start(classic3)
	bot := regexp.MustCompile(`\bBot \d`)
	seen := map[string]map[string]bool{}
	player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(7, 7))}
	pa.playLooking(player, func(s *reach.Screen) {
		for _, tx := range s.Texts {
			if bot.MatchString(tx.Text) {
				t.Fatalf("%s shows %q", tx.Region, tx.Text)
			}
			for _, n := range []string{"Ada", "Boris"} {
				if strings.Contains(tx.Text, n) {
					if seen[tx.Region] == nil {
						seen[tx.Region] = map[string]bool{}
					}
					seen[tx.Region][n] = true
				}
			}
		}
	})
	for _, part := range []string{"seats", reach.RegionBoard, reach.RegionTrick, "info", reach.RegionSummary, reach.RegionOver} {
		if !seen[part]["Ada"] || !seen[part]["Boris"] {
			t.Errorf("%s named %v, want Ada and Boris", part, seen[part])
		}
	}
}

// TestTableBoardLabelsFit: on a phone every field of the Njet board shows
// its whole text, broken in two lines where needed, at a readable size, in
// every language (R-NJET: the Modern discard row's longest fields).
func TestTableBoardLabelsFit(t *testing.T) {
	g := njetGame{edition: engine.Modern, players: 4, seed: 3, target: 12}
	for _, code := range []string{"en", "de", "fr"} {
		for _, sz := range tableSizes[1:] {
			t.Run(code+"-"+sz.name, func(t *testing.T) {
				pa := newPersonApp(t, code, sz.size)
				ts := pa.start(g)
				if p := ts.model.prompt; p == nil || p.Kind != engine.ActBlock {
					t.Fatalf("first question %+v, want a block", p)
				}
				pa.p.Look()
				for _, f := range ts.parts.board.fields {
					r := test.WidgetRenderer(f).(*fieldRenderer)
					r.Layout(f.Size())
					var shown []string
					for _, l := range r.lines {
						if l.Hidden {
							continue
						}
						shown = append(shown, l.Text)
						if w := l.MinSize().Width; w > f.Size().Width-4 || l.TextSize < fieldTextMin {
							t.Errorf("%q: %.0f wide at size %.0f in a field %.0f wide", l.Text, w, l.TextSize, f.Size().Width)
						}
						if l.Position().Y+l.MinSize().Height > f.Size().Height+1 {
							t.Errorf("%q runs out of its field at the bottom", l.Text)
						}
					}
					if got := strings.Join(shown, " "); got != strings.Join(strings.Fields(f.text), " ") && !(f.mark != engine.NoColour && f.fs.By != -1) {
						t.Errorf("field shows %q of %q", got, f.text)
					}
				}
				if code != "en" && sz.name == "phone" {
					w := pa.u.Window()
					assertMarkup(t, filepath.Join("phone-"+code, "table-njet.xml"), w)
					screenshot(t, "table-njet-phone-"+code, w)
				}
			})
		}
	}
}

// minTarget is the smallest side of a card or field a finger must hit.
const minTarget = reach.Fingertip

// TestTableForcedLastCard: the person's last card, the only one they may
// play, plays itself after a moment in which the bar says so; the person
// taps nothing for it.
func TestTableForcedLastCard(t *testing.T) {
	pa := newPersonAppWith(t, "en", fyne.NewSize(360, 740), func(e *Env) { e.Pace = 20 * time.Millisecond })
	ts := pa.start(classic3)
	pa.until = func() bool { return ts.forcing }
	player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(5, 5))}
	for !ts.forcing {
		if !pa.p.Step(player) {
			t.Fatal("the game ended without a forced card")
		}
	}
	m := ts.model
	if m.view.Hand.Len() > 2 || len(m.prompt.Legal) != 1 {
		t.Fatalf("forced with %d cards in hand, %d legal", m.view.Hand.Len(), len(m.prompt.Legal))
	}
	s := pa.p.Look()
	if !s.Shows("plays itself") {
		pa.p.Fatalf("the bar does not say that the card plays itself")
	}
	before, taps := m.view.Hand.Len(), player.Taps
	pa.until = nil
	pa.p.Settle()
	if m.view.Hand.Len() != before-1 || player.Taps != taps {
		t.Fatalf("hand %d → %d, %d taps", before, m.view.Hand.Len(), player.Taps-taps)
	}
}

// TestTableTrickHold: a won trick stays on the table twice a bot's pace
// before the next event, the round summary included.
func TestTableTrickHold(t *testing.T) {
	ts := newTableScreen(nil, nil, TableOptions{}, 600*time.Millisecond, func(f func()) { f() })
	if d := ts.delay(seat.TrickWon{}, 0); d != 1200*time.Millisecond {
		t.Fatalf("a won trick holds %v", d)
	}
}

// TestTableYouFollowsTheLanguage: the person's seat, unnamed in the
// settings, is "You" in the language of the moment: a game saved in
// English and continued after a switch to German says "Du"; so does a
// save that holds the English word.
func TestTableYouFollowsTheLanguage(t *testing.T) {
	pa := newPersonApp(t, "en", fyne.NewSize(1280, 800))
	pa.start(classic3)
	p := pa.p
	p.Tap("the way home", func(c reach.Control) bool { return c.Kind == "button" && strings.Contains(c.Icon, "home") })
	p.TapText(tr("home.settings", "Settings"))
	p.Tap("the language", reach.Kind("select", tr("settings.lang", "Language")))
	p.TapText("Deutsch")
	p.TapText(tr("app.back", "Back"))
	p.TapText(tr("home.continue", "Continue the game"))
	if !p.Sees("Du") || p.Sees("You") {
		p.Fatalf("the table does not call the person Du")
	}
	names := namesOf(seat.LocalConfig{Players: 3, Names: []string{"You", "Ada", "Boris"}})
	if names[0] != "" {
		t.Fatalf("a saved %q stays", names[0])
	}
}

// TestHomeShowsEverything: at 1024x720 the home screen shows every entry
// without scrolling: continue, a new game, The Game, the LAN's, the
// rules and the settings.
func TestHomeShowsEverything(t *testing.T) {
	pa := newPersonAppWith(t, "en", fyne.NewSize(1024, 720), func(e *Env) { e.LAN = newFakeLAN() })
	pa.u.SaveLocal(njetID, fakeGame{data: []byte("{}")})
	pa.u.Reset(NewHome(pa.u))
	s := pa.p.Look()
	for _, want := range []string{tr("home.continue", "Continue the game"), tr("home.new", "New game against bots"), tgw("thegame.home.play"),
		tr("lan.host", "Host a table"), tr("lan.join-code", "Join with a code"), tr("checklog.title", "Check a log"),
		tr("home.rules", "Rules"), tr("home.settings", "Settings")} {
		cs := s.Find(reach.Button(want))
		if len(cs) != 1 || !cs[0].Reachable() || cs[0].OffView {
			t.Errorf("%q: %v", want, cs)
		}
	}
	checkReach(t, pa.p)
	screenshot(t, "home-lan-1024x720", pa.u.Window())
}
