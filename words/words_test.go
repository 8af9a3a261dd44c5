package words

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/njetlan/njet/engine"
)

var languages = []string{"en", "de", "fr"}

// TestEveryIDInEveryLanguage: the three files hold the same ids, each with
// the same placeholders in every form, plural phrases with "one" and
// "other" forms in every language.
func TestEveryIDInEveryLanguage(t *testing.T) {
	files := map[string]map[string]phrase{}
	for _, l := range languages {
		files[l] = readFile(t, "game."+l+".json")
	}
	for id, e := range catalogue {
		want := placeholders(e.other)
		for _, l := range languages {
			p, ok := files[l][id]
			if !ok {
				t.Errorf("%s: no %q", l, id)
				continue
			}
			if (e.one != "") != (p["one"] != "") {
				t.Errorf("%s: %q: plural forms %v, English has one=%q", l, id, p, e.one)
			}
			for form, text := range p {
				if form != "one" && form != "other" {
					t.Errorf("%s: %q: unknown plural form %q", l, id, form)
				}
				got := placeholders(text)
				if form == "one" {
					// A "one" form may spell out the count.
					got = slices.DeleteFunc(append(got, "Count"), func(s string) bool { return s == "" })
					slices.Sort(got)
					got = slices.Compact(got)
					w := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(want), "Count"))))
					if !slices.Equal(got, w) {
						t.Errorf("%s: %q one: placeholders %v, want %v", l, id, placeholders(text), want)
					}
					continue
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q: placeholders %v, want %v", l, id, got, want)
				}
				if _, err := template.New(id).Parse(text); err != nil {
					t.Errorf("%s: %q: %v", l, id, err)
				}
			}
		}
	}
	for _, l := range languages {
		for id := range files[l] {
			if _, ok := catalogue[id]; !ok {
				t.Errorf("%s: %q is not in the catalogue", l, id)
			}
		}
	}
}

// forbidden are internal names that a player must never read.
var forbidden = []string{"R-", "discard1", "discard2", "pass-left", "-no-ones", "njet:", "{{", "<no value>", "%!", "?"}

// walk visits m and every message nested in its arguments.
func walk(m Msg, visit func(Msg)) {
	visit(m)
	for _, v := range m.Args {
		if n, ok := v.(Msg); ok {
			walk(n, visit)
		}
	}
}

// files caches the translation files the tests read.
var files = map[string]map[string]phrase{}

// translator renders a message in language l from the embedded files.
func translator(t *testing.T, l string) Translator {
	file, ok := files[l]
	if !ok {
		file = readFile(t, "game."+l+".json")
		files[l] = file
	}
	return func(id, en string, data map[string]any, count int, plural bool) string {
		p, ok := file[id]
		if !ok {
			t.Errorf("%s: no %q", l, id)
			return en
		}
		text := p["other"]
		if plural && p["one"] != "" && (count == 1 || l == "fr" && count == 0) {
			text = p["one"]
		}
		tm, err := template.New(id).Option("missingkey=error").Parse(text)
		if err != nil {
			t.Errorf("%s: %q: %v", l, id, err)
			return en
		}
		var b strings.Builder
		if err := tm.Execute(&b, data); err != nil {
			t.Errorf("%s: %q: %v", l, id, err)
		}
		return b.String()
	}
}

// checkSaid renders m in every language and checks the words: known ids
// only, nothing internal, nothing empty.
func checkSaid(t *testing.T, m Msg) {
	t.Helper()
	walk(m, func(n Msg) {
		if _, ok := catalogue[n.ID]; !ok {
			t.Errorf("message id %q is not in the catalogue", n.ID)
		}
	})
	for _, l := range languages {
		text := m.Say(translator(t, l))
		if l == "en" && text != m.String() {
			t.Errorf("en file and String differ: %q vs %q", text, m.String())
		}
		if strings.TrimSpace(text) == "" {
			t.Errorf("%s: %s says nothing", l, m.ID)
		}
		for _, bad := range forbidden {
			if strings.Contains(text, bad) {
				t.Errorf("%s: %q holds %q", l, text, bad)
			}
		}
	}
}

func seatsOf(n int) Seats {
	return Seats{Players: n, Name: func(s int) Msg {
		if s == 0 {
			return You()
		}
		return Bot(s)
	}}
}

// TestActionWords words every action kind in both editions.
func TestActionWords(t *testing.T) {
	for _, ed := range []engine.Edition{engine.Classic, engine.Modern} {
		seats := seatsOf(ed.MaxPlayers())
		red7, _ := engine.ParseCard(ed, "red7", 0)
		green1, _ := engine.ParseCard(ed, "green1", 0)
		for _, seat := range []int{0, 1, seats.Players - 1} {
			acts := []engine.Action{
				{Kind: engine.ActDeal, Seat: seat, Hidden: true},
				{Kind: engine.ActDeal, Seat: seat, Hand: engine.HandOf(red7, green1)},
				{Kind: engine.ActTeam, Seat: seat, Partners: 1 << ((seat + 1) % seats.Players)},
				{Kind: engine.ActDiscard, Seat: seat, Cards: [2]engine.Card{red7, engine.NoCard}},
				{Kind: engine.ActDiscard, Seat: seat, Cards: [2]engine.Card{red7, green1}},
				{Kind: engine.ActDiscard, Seat: seat, Hidden: true, Cards: [2]engine.Card{engine.NoCard, engine.NoCard}},
				{Kind: engine.ActPass, Seat: seat, Card: red7},
				{Kind: engine.ActPass, Seat: seat, Hidden: true, Card: engine.NoCard},
				{Kind: engine.ActPlay, Seat: seat, Card: green1},
			}
			for r := engine.Row(0); r < engine.NumRows; r++ {
				for f := engine.Field(0); int(f) < ed.Fields(r); f++ {
					acts = append(acts, engine.Action{Kind: engine.ActBlock, Seat: seat, Row: r, Field: f})
				}
			}
			for _, a := range acts {
				t.Run(fmt.Sprintf("%s/seat%d/%s", ed, seat, a.Kind), func(t *testing.T) {
					m := Action(ed, a, seats)
					checkSaid(t, m)
					s := m.String()
					if seat == 0 && !strings.HasPrefix(s, "You ") {
						t.Errorf("%q: the person's move is not in the second person", s)
					}
					if seat != 0 && !strings.HasPrefix(s, "Bot ") {
						t.Errorf("%q does not name the bot first", s)
					}
					if (a.Kind == engine.ActDiscard || a.Kind == engine.ActPass) && seat != 0 && strings.Contains(s, "red 7") {
						t.Errorf("%q names another seat's hidden card", s)
					}
				})
			}
		}
	}
}

// TestFieldWords words every field of the board in both editions (R-BOARD).
func TestFieldWords(t *testing.T) {
	for _, ed := range []engine.Edition{engine.Classic, engine.Modern} {
		for r := engine.Row(0); r < engine.NumRows; r++ {
			seen := map[string]bool{}
			for f := engine.Field(0); int(f) < ed.Fields(r); f++ {
				t.Run(fmt.Sprintf("R-BOARD/%s/%s/%s", ed, r, ed.FieldName(r, f)), func(t *testing.T) {
					checkSaid(t, Field(ed, r, f))
					checkSaid(t, Row(ed, r))
					checkSaid(t, Blocked(ed, r, f))
					checkSaid(t, LastFree(ed, r, f))
					if seen[Field(ed, r, f).String()] {
						t.Errorf("two fields of row %s read %q", r, Field(ed, r, f))
					}
					seen[Field(ed, r, f).String()] = true
				})
			}
		}
	}
	want := map[engine.DiscardRule]string{
		engine.Discard1NoOnes: "everyone discards 1 card, not a 1",
		engine.PassLeft:       "everyone passes 1 card to the left",
		engine.DiscardNjet:    "nobody discards",
	}
	for d, w := range want {
		if got := DiscardRule(engine.Modern, d).String(); got != w {
			t.Errorf("DiscardRule(%d) = %q, want %q", d, got, w)
		}
	}
}

// TestRulesOfRoundWords words every rule a round can have (R-NJET-2).
func TestRulesOfRoundWords(t *testing.T) {
	for _, ed := range []engine.Edition{engine.Classic, engine.Modern} {
		cols := ed.Colours()
		supers := append(cols[:], engine.NoColour)
		for d := engine.Field(0); int(d) < ed.Fields(engine.RowDiscard); d++ {
			for _, super := range supers {
				for p := engine.Field(0); int(p) < ed.Fields(engine.RowPoints); p++ {
					r := engine.Rules{Start: engine.Wolf, StartSeat: 1, Discard: d, Trump: ed.Colours()[p%4], Super: super, Points: engine.PointsValue(p)}
					t.Run(fmt.Sprintf("R-NJET-2/%s/%s/%s/%d", ed, ed.FieldName(engine.RowDiscard, d), super, r.Points), func(t *testing.T) {
						rules := RulesOfRound(ed, r, WithCharacter(Bot(1), ed, engine.Wolf))
						if len(rules) != engine.NumRows {
							t.Fatalf("%d phrases for %d rows", len(rules), engine.NumRows)
						}
						for _, m := range rules {
							checkSaid(t, m)
						}
						line := RulesLine(ed, r, Bot(1))
						checkSaid(t, line)
						if super == engine.NoColour && !strings.Contains(line.String(), "no supertrump") {
							t.Errorf("%q does not say there is no supertrump", line)
						}
						checkSaid(t, ScoreRule(r.Points))
						checkSaid(t, Prompt(engine.View{Phase: engine.PhaseDiscard, Rules: r, Seat: 0}, seatsOf(4)))
					})
				}
			}
		}
	}
	if got := Points(-2).String(); got != "-2 points per trick and loot card" {
		t.Errorf("Points(-2) = %q", got)
	}
	if got := Points(1).String(); got != "1 point per trick and loot card" {
		t.Errorf("Points(1) = %q", got)
	}
}

// TestTrickWonWords words each reason a card takes a trick (R-WIN).
func TestTrickWonWords(t *testing.T) {
	blue1, _ := engine.ParseCard(engine.Modern, "blue1", 0)
	red7, _ := engine.ParseCard(engine.Modern, "red7", 0)
	for _, tc := range []struct {
		name string
		win  engine.Win
		loot []engine.Card
		want string
	}{
		{"R-WIN-1", engine.Win{Seat: 2, Card: blue1, Why: engine.WinSuper}, nil, "Bot 2 takes trick 2 with blue 1 (supertrump)."},
		{"R-WIN-1/last", engine.Win{Seat: 2, Card: blue1, Why: engine.WinSuper, Tie: true}, nil, "Bot 2 takes trick 2 with blue 1 (the last supertrump played)."},
		{"R-WIN-2", engine.Win{Seat: 2, Card: red7, Why: engine.WinTrump}, []engine.Card{blue1}, "Bot 2 takes trick 2 with red 7 (the highest trump) and the loot blue 1."},
		{"R-WIN-3", engine.Win{Seat: 2, Card: red7, Why: engine.WinLed}, nil, "Bot 2 takes trick 2 with red 7 (the highest card of the led suit)."},
		{"R-WIN-4", engine.Win{Seat: 2, Card: blue1, Why: engine.WinLed, Tie: true}, nil, "Bot 2 takes trick 2 with blue 1 (the later of two equal cards)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := TrickWon(Bot(2), 2, tc.win, tc.loot)
			checkSaid(t, m)
			if m.String() != tc.want {
				t.Errorf("got %q, want %q", m, tc.want)
			}
			checkSaid(t, TrickWon(You(), 2, tc.win, tc.loot))
		})
	}
}

// TestTeamChoiceWords words every legal team choice for 3, 4 and 5
// players (R-TEAM): with 5 players each choice says the team's size and
// who gets the x2 card.
func TestTeamChoiceWords(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		g, err := engine.NewGame(engine.Config{Edition: engine.Modern, Players: n})
		if err != nil {
			t.Fatal(err)
		}
		seats := seatsOf(n)
		// Every choice the engine may list: the start player in seat 0.
		for _, a := range teamActions(n) {
			t.Run(fmt.Sprintf("R-TEAM/%dp/%b/%d", n, a.Partners, a.Bonus), func(t *testing.T) {
				m := TeamChoice(a, seats)
				checkSaid(t, m)
				s := m.String()
				if n == 5 && !strings.Contains(s, "x2 card") {
					t.Errorf("%q does not say who gets the x2 card", s)
				}
				if n == 5 && !strings.Contains(s, "team of two") && !strings.Contains(s, "team of three") {
					t.Errorf("%q does not say the team's size", s)
				}
				if strings.Contains(s, "bonus") {
					t.Errorf("%q speaks of a bonus number", s)
				}
			})
		}
		checkSaid(t, TeamHelp(n))
		_ = g
	}
	if TeamChoice(engine.Action{Kind: engine.ActTeam, Seat: 0, Partners: 2, Bonus: 0}, seatsOf(5)).String() !=
		"team of two with Bot 1; you keep the x2 card" {
		t.Error("keeping the x2 card is not said")
	}
}

// teamActions lists the team choices of the start player in seat 0, as
// engine.Game.Legal would (R-TEAM).
func teamActions(n int) []engine.Action {
	var out []engine.Action
	for p := uint8(0); p < 1<<n; p += 2 {
		k := 0
		for x := p; x != 0; x &= x - 1 {
			k++
		}
		switch {
		case n == 3 && k <= 1, n == 4 && k == 1:
			out = append(out, engine.Action{Kind: engine.ActTeam, Partners: p, Bonus: -1})
		case n == 5 && (k == 1 || k == 2):
			two := p | 1
			if k == 2 {
				two = uint8(1<<n-1) &^ two
			}
			for s := 0; s < n; s++ {
				if two&(1<<s) != 0 {
					out = append(out, engine.Action{Kind: engine.ActTeam, Partners: p, Bonus: s})
				}
			}
		}
	}
	return out
}

// TestReasonWords words every engine sentinel and the precise reasons.
func TestReasonWords(t *testing.T) {
	for _, err := range []error{engine.ErrBadConfig, engine.ErrBadCard, engine.ErrBadAction, engine.ErrGameOver,
		engine.ErrWrongPhase, engine.ErrNotYourTurn, engine.ErrAlreadyActed, engine.ErrIllegalBlock,
		engine.ErrIllegalTeam, engine.ErrIllegalCard, engine.ErrMustFollow, engine.ErrRenege,
		engine.ErrIllegalDiscard, engine.ErrAudit, fmt.Errorf("wrapped: %w", &engine.SeatError{Seat: 1, Err: engine.ErrRenege})} {
		t.Run(err.Error(), func(t *testing.T) { checkSaid(t, Reason(err)) })
	}
	red9, _ := engine.ParseCard(engine.Classic, "red9", 0)
	for _, m := range []Msg{NotHeld(red9), NoOnes(), DiscardCount(1), DiscardCount(2), SameCard(), PassNotDiscard(),
		DiscardNotPass(), NotNow(engine.ActPlay, engine.PhaseDiscard), NotNow(engine.ActDiscard, engine.PhaseNjet),
		NotNow(engine.ActPass, engine.PhaseTricks), NotNow(engine.ActBlock, engine.PhaseTricks), NotNow(engine.ActTeam, engine.PhaseNjet),
		BlockForm(), NoRow("middle"), NoField(engine.Modern, engine.RowDiscard, "purple"), NamePartner("partner 2"),
		NotAlone(4), NotAlone(5), NotAChoice(),
		MustFollow(engine.Red, engine.Rules{Trump: engine.Blue}), MustFollow(engine.Blue, engine.Rules{Trump: engine.Blue})} {
		t.Run(m.ID, func(t *testing.T) { checkSaid(t, m) })
	}
	if got := NotHeld(red9).String(); got != "you do not hold red 9" {
		t.Errorf("NotHeld = %q", got)
	}
}

// TestTableWords covers the remaining phrases a front end shows.
func TestTableWords(t *testing.T) {
	seats := seatsOf(4)
	red1, _ := engine.ParseCard(engine.Classic, "red1", 0)
	for i, m := range []Msg{
		Teams([]int{0, 1, 0, 1}, 2, seats), Doubling(0, seats), Doubling(2, seats),
		DoublingRule(engine.Classic, 1, seats), DoublingRule(engine.Modern, 0, seats),
		Prompt(engine.View{Phase: engine.PhaseNjet}, seats), Prompt(engine.View{Phase: engine.PhaseTeams}, seats),
		Prompt(engine.View{Phase: engine.PhaseTricks}, seats), Choices(), Answer(), Pause(3),
		BoardTitle(), BoardDecided(), BoardFinal(), Hand(1, []Msg{HandGroup(engine.Red, true, "1*")}),
		Hand(10, []Msg{HandGroup(engine.Red, false, "3 4"), HandGroup(engine.Blue, false, "-")}), SuperNote(),
		TrickUnderWay(1, 10, nil, seats), TrickUnderWay(2, 10, []engine.Play{{Seat: 1, Card: red1}}, seats),
		SoFar(1, 0, 2, 1), NoTeams(), RoundOver(2, -2), TeamScore([]Msg{You(), Bot(2)}, 3, 1), Doubled(),
		Standings(1), Standings(3), StandingLine(Bot(1), -4), Welcome(engine.Modern, 2, engine.Bear, "heuristic"),
		Welcome(engine.Classic, 4, engine.Dove, "random"), RoundStart(1, 8, You()), RoundStart(2, 0, Bot(1)),
		Target(engine.Classic, 100), Target(engine.Modern, 100), GameOver(1), GameOver(8),
		Winners([]Msg{You()}, 30), Winners([]Msg{Bot(1)}, 30), Winners([]Msg{You(), Bot(1), Bot(3)}, 30),
		Leave(2), InputEnded(2), Received(red1, Bot(3)), FieldHeld(engine.Classic, 0, You()),
		SeatNumber(2), BotForYou(), Phase(engine.PhaseTricks), Edition(engine.Modern), TrumpSuit(),
		Suit(engine.Classic, engine.Black), Cards(nil), Number(4),
		DeviceLeft(Plain("Ada")), YourDeviceLeft(Bot(1)), DeviceLeftAtTwo(Plain("Ada")), RevealWithheld(Plain("Ada")),
		DealtAgain(), ClockMove(60), ClockLeft(10), ClockOut(),
	} {
		t.Run(fmt.Sprint(i, m.ID), func(t *testing.T) { checkSaid(t, m) })
	}
	if got := Teams([]int{0, 1, 0, 1}, 2, seats).String(); got != "Teams: Bot 2 (start player) + You against Bot 1 + Bot 3." {
		t.Errorf("Teams = %q", got)
	}
	if got := Target(engine.Classic, 100).String(); !strings.HasPrefix(got, "House rule") {
		t.Errorf("the Classic target is not a house rule: %q", got)
	}
}

// TestGermanAndFrench spot-checks the translations through the nested
// rendering the app uses.
func TestGermanAndFrench(t *testing.T) {
	red7, _ := engine.ParseCard(engine.Modern, "red7", 0)
	m := Action(engine.Modern, engine.Action{Kind: engine.ActPlay, Seat: 2, Card: red7}, seatsOf(4))
	for l, want := range map[string]string{"en": "Bot 2 plays red 7.", "de": "Bot 2 spielt Rot 7.", "fr": "Bot 2 joue 7 rouge."} {
		if got := m.Say(translator(t, l)); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}
