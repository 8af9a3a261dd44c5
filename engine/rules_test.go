package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// scene is a round set up by hand: fixed cards, colours some seats must not
// hold, the fields left free and the team choice.
type scene struct {
	cfg      Config
	fixed    map[int][]string
	avoid    map[int]Colour
	start    string // character
	discard  string
	trump    string
	super    string
	points   string
	partners uint8
	bonus    int
}

// play deals the scene and plays it up to the discard phase or the tricks.
func (sc scene) play(t *testing.T) *Game {
	t.Helper()
	g := mustGame(t, sc.cfg)
	fixed := map[int][]Card{}
	var used Hand
	for s := 0; s < g.n; s++ {
		for _, name := range sc.fixed[s] {
			for cp := 0; ; cp++ {
				c, err := ParseCard(g.ed, name, cp)
				if err != nil {
					t.Fatalf("card %q: %v", name, err)
				}
				if !used.Has(c) {
					used = used.Add(c)
					fixed[s] = append(fixed[s], c)
					break
				}
			}
		}
	}
	dealHands(t, g, fill(t, g, fixed, sc.avoid))
	if sc.discard == "" {
		sc.discard = "njet"
	}
	if sc.points == "" {
		sc.points = "1"
	}
	forceRules(t, g, rulesWant(t, g.ed, sc.start, sc.discard, sc.trump, sc.super, sc.points))
	if g.phase == PhaseTeams {
		mustApply(t, g, Action{Kind: ActTeam, Seat: g.rs.rules.StartSeat, Partners: sc.partners, Bonus: sc.bonus})
	}
	return g
}

func playCard(t *testing.T, g *Game, seat int, name string) {
	t.Helper()
	mustApply(t, g, Action{Kind: ActPlay, Seat: seat, Card: heldCard(t, g, seat, name)})
}

// heldCard finds the card called name in the hand of seat (any copy of a 1).
func heldCard(t *testing.T, g *Game, seat int, name string) Card {
	t.Helper()
	for cp := 0; cp < g.ed.Ones(); cp++ {
		c, err := ParseCard(g.ed, name, cp)
		if err != nil {
			t.Fatal(err)
		}
		if g.rs.known[seat].Has(c) {
			return c
		}
	}
	t.Fatalf("seat %d holds no %s", seat, name)
	return NoCard
}

func wantErr(t *testing.T, err, sentinel error) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("got %v, want %v", err, sentinel)
	}
}

// wantRejected applies a, expects sentinel and checks nothing changed.
func wantRejected(t *testing.T, g *Game, a Action, sentinel error) {
	t.Helper()
	before := g.Clone()
	wantErr(t, g.Apply(a), sentinel)
	if !reflect.DeepEqual(g, before) {
		t.Fatalf("rejected %+v changed the game", a)
	}
}

func TestR_SEAT_SeatsCharactersAndDealer(t *testing.T) {
	t.Run("config", func(t *testing.T) {
		tests := []struct {
			name string
			cfg  Config
			ok   bool
		}{
			{"classic 4p", Config{Edition: Classic, Players: 4}, true},
			{"modern 2p", Config{Edition: Modern, Players: 2, FirstDealer: 1}, true},
			{"modern 5p target", Config{Edition: Modern, Players: 5, Target: 100}, true},
			{"classic short", Config{Edition: Classic, Players: 3, Short: true}, true},
			{"chosen characters", Config{Edition: Modern, Players: 3, Characters: []Character{Crane, Bear, Tiger}}, true},
			{"no edition", Config{Players: 4}, false},
			{"classic 2p", Config{Edition: Classic, Players: 2}, false},
			{"classic 5p", Config{Edition: Classic, Players: 5}, false},
			{"modern 6p", Config{Edition: Modern, Players: 6}, false},
			{"modern 1p", Config{Edition: Modern, Players: 1}, false},
			{"dealer out of range", Config{Edition: Classic, Players: 4, FirstDealer: 4}, false},
			{"negative dealer", Config{Edition: Classic, Players: 4, FirstDealer: -1}, false},
			{"short modern", Config{Edition: Modern, Players: 4, Short: true}, false},
			{"negative target", Config{Edition: Modern, Players: 4, Target: -5}, false},
			{"short with target", Config{Edition: Classic, Players: 4, Short: true, Target: 50}, false},
			{"same character twice", Config{Edition: Classic, Players: 3, Characters: []Character{Bear, Wolf, Bear}}, false},
			{"character of the other edition", Config{Edition: Classic, Players: 3, Characters: []Character{Bear, Wolf, Eagle}}, false},
			{"too few characters", Config{Edition: Classic, Players: 4, Characters: []Character{Bear, Wolf, Dove}}, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				g, err := NewGame(tt.cfg)
				if tt.ok != (err == nil) {
					t.Fatalf("NewGame: %v", err)
				}
				if !tt.ok {
					wantErr(t, err, ErrBadConfig)
					return
				}
				if g.Phase() != PhaseDeal || g.Round() != 1 || g.Dealer() != tt.cfg.FirstDealer {
					t.Fatalf("new game: %s round %d dealer %d", g.Phase(), g.Round(), g.Dealer())
				}
			})
		}
	})
	t.Run("default characters", func(t *testing.T) {
		g := mustGame(t, Config{Edition: Modern, Players: 3})
		if got := g.Config().Characters; !slices.Equal(got, []Character{Bear, Wolf, Eagle}) {
			t.Fatalf("characters %v", got)
		}
	})
	t.Run("the deal passes left", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 1))
		g := mustGame(t, Config{Edition: Classic, Players: 4, FirstDealer: 2})
		dealt := make([]int, 4)
		for g.Phase() != PhaseGameOver {
			if g.Phase() == PhaseDeal || g.Phase() == PhaseRoundOver {
				randomStep(t, g, r, nil)
				dealt[g.Dealer()]++
				if want := (2 + g.Round() - 1) % 4; g.Dealer() != want {
					t.Fatalf("round %d dealt by %d, want %d", g.Round(), g.Dealer(), want)
				}
				continue
			}
			randomStep(t, g, r, nil)
		}
		if !slices.Equal(dealt, []int{2, 2, 2, 2}) {
			t.Fatalf("deals per seat %v", dealt)
		}
	})
}

func TestR_DECK_Cards(t *testing.T) {
	tests := []struct {
		ed               Edition
		players          int
		deck, hand, ones int
		missing          []int // values removed from the deck
	}{
		{Classic, 4, 40, 10, 8, nil},
		{Classic, 3, 36, 12, 8, []int{2}},
		{Modern, 2, 60, 15, 12, nil},
		{Modern, 3, 48, 16, 12, []int{11, 12, 13}},
		{Modern, 4, 60, 15, 12, nil},
		{Modern, 5, 60, 12, 12, nil},
	}
	for _, tt := range tests {
		t.Run(setupName(tt.ed, tt.players), func(t *testing.T) {
			d := tt.ed.Deck(tt.players)
			if len(d) != tt.deck || tt.ed.HandSize(tt.players) != tt.hand {
				t.Fatalf("deck %d hand %d", len(d), tt.ed.HandSize(tt.players))
			}
			unused := tt.deck - tt.hand*tt.players
			if unused != 0 && !(tt.ed == Modern && tt.players == 2 && unused == 30) {
				t.Fatalf("%d cards left after the deal", unused)
			}
			ones := 0
			h := HandOf(d...)
			if h.Len() != len(d) {
				t.Fatal("card ids repeat")
			}
			for _, c := range d {
				if c.Edition() != tt.ed || !c.Valid() {
					t.Fatalf("%s: edition %s", c, c.Edition())
				}
				if slices.Contains(tt.missing, c.Value()) {
					t.Fatalf("%s should not be in play", c)
				}
				if c.Value() == 1 {
					ones++
				}
				back, err := ParseCard(tt.ed, c.String(), c.Copy())
				if err != nil || back != c {
					t.Fatalf("ParseCard(%s, copy %d) = %v, %v", c, c.Copy(), back, err)
				}
			}
			if ones != tt.ones {
				t.Fatalf("%d ones, want %d", ones, tt.ones)
			}
		})
	}
	t.Run("equal ones are distinct cards", func(t *testing.T) {
		h, err := ParseHand(Modern, []string{"red1", "red1", "red1"})
		if err != nil || h.Len() != 3 {
			t.Fatalf("three red 1s: %v %v", h, err)
		}
		if _, err := ParseHand(Modern, []string{"red1", "red1", "red1", "red1"}); !errors.Is(err, ErrBadCard) {
			t.Fatalf("a fourth red 1: %v", err)
		}
		if _, err := ParseHand(Classic, []string{"yellow3"}); !errors.Is(err, ErrBadCard) {
			t.Fatalf("a Classic yellow card: %v", err)
		}
	})
}

func TestR_BOARD_RowsAndFields(t *testing.T) {
	tests := []struct {
		ed     Edition
		fields [NumRows]int
	}{
		{Classic, [NumRows]int{4, 3, 4, 5, 4}},
		{Modern, [NumRows]int{5, 5, 4, 5, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.ed.String(), func(t *testing.T) {
			for r := Row(0); r < NumRows; r++ {
				if got := tt.ed.Fields(r); got != tt.fields[r] {
					t.Fatalf("row %s has %d fields, want %d", r, got, tt.fields[r])
				}
				for f := Field(0); int(f) < tt.fields[r]; f++ {
					back, err := tt.ed.ParseField(r, tt.ed.FieldName(r, f))
					if err != nil || back != f {
						t.Fatalf("field %s: %v %v", tt.ed.FieldName(r, f), back, err)
					}
				}
			}
		})
	}
	if PointsValue(4) != -2 || PointsValue(0) != 1 || PointsValue(3) != 4 {
		t.Fatal("points values")
	}
}

func TestR_BOARD_1_UnheldCharactersStartBlocked(t *testing.T) {
	tests := []struct {
		ed      Edition
		players int
		chars   []Character
		blocked []Character
	}{
		{Classic, 4, nil, nil},
		{Classic, 3, nil, []Character{Dove}},
		{Classic, 3, []Character{Bear, Falcon, Dove}, []Character{Wolf}},
		{Modern, 5, nil, nil},
		{Modern, 4, nil, []Character{Crane}},
		{Modern, 3, nil, []Character{Tiger, Crane}},
		{Modern, 2, []Character{Crane, Eagle}, []Character{Bear, Wolf, Tiger}},
	}
	for _, tt := range tests {
		t.Run(setupName(tt.ed, tt.players), func(t *testing.T) {
			g := mustGame(t, Config{Edition: tt.ed, Players: tt.players, Characters: tt.chars})
			if err := g.DealDeck(tt.ed.Deck(tt.players)); err != nil {
				t.Fatal(err)
			}
			v := g.View(0)
			if len(v.Blocks) != 0 {
				t.Fatalf("blocks before anyone blocked: %v", v.Blocks)
			}
			for f, c := range tt.ed.Characters() {
				if v.Board.Blocked(RowStart, Field(f)) != slices.Contains(tt.blocked, c) {
					t.Fatalf("%s blocked: %v", c, v.Board.Blocked(RowStart, Field(f)))
				}
			}
			for _, a := range g.Legal(g.Turn()) {
				if a.Row == RowStart && slices.Contains(tt.blocked, tt.ed.Characters()[a.Field]) {
					t.Fatalf("Legal offers the blocked %s", tt.ed.Characters()[a.Field])
				}
			}
			if len(tt.blocked) > 0 {
				f := Field(slices.Index(tt.ed.Characters(), tt.blocked[0]))
				wantRejected(t, g, Action{Kind: ActBlock, Seat: g.Turn(), Row: RowStart, Field: f}, ErrIllegalBlock)
			}
		})
	}
}

func TestR_BOARD_2_OneFreeFieldPerRowEndsThePhase(t *testing.T) {
	for i, su := range setups {
		t.Run(setupName(su.ed, su.players), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 2))
			g := mustGame(t, Config{Edition: su.ed, Players: su.players})
			randomStep(t, g, r, nil)
			fields := 0
			for row := Row(0); row < NumRows; row++ {
				fields += su.ed.Fields(row)
			}
			unheld := len(su.ed.Characters()) - su.players
			for g.Phase() == PhaseNjet {
				randomStep(t, g, r, nil)
			}
			want := fields - unheld - NumRows
			if su.ed == Classic && su.players == 4 && want != 15 {
				t.Fatalf("Classic 4p needs %d stones, want 15", want)
			}
			if g.rs.nblocks != want {
				t.Fatalf("%d blocks, want %d", g.rs.nblocks, want)
			}
		})
	}
}

func TestR_NJET_StarterAndClockwiseOrder(t *testing.T) {
	tests := []struct {
		ed              Edition
		players, dealer int
		first           int
	}{
		{Classic, 4, 0, 1},
		{Classic, 3, 2, 0},
		{Modern, 4, 0, 0},
		{Modern, 5, 3, 3},
		{Modern, 2, 1, 1},
	}
	for _, tt := range tests {
		t.Run(setupName(tt.ed, tt.players), func(t *testing.T) {
			g := mustGame(t, Config{Edition: tt.ed, Players: tt.players, FirstDealer: tt.dealer})
			wantErr(t, g.Apply(Action{Kind: ActBlock, Seat: tt.first, Row: RowTrump}), ErrWrongPhase)
			if err := g.DealDeck(tt.ed.Deck(tt.players)); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 2*tt.players; k++ {
				want := (tt.first + k) % tt.players
				if g.Turn() != want {
					t.Fatalf("block %d by seat %d, want %d", k, g.Turn(), want)
				}
				legal := g.Legal(want)
				if len(legal) == 0 {
					t.Fatal("no legal block: nobody may pass")
				}
				wrong := legal[0]
				wrong.Seat = (want + 1) % tt.players
				wantRejected(t, g, wrong, ErrNotYourTurn)
				if g.Legal(wrong.Seat) != nil {
					t.Fatal("Legal lists blocks for a seat not on turn")
				}
				mustApply(t, g, legal[len(legal)-1])
			}
		})
	}
}

func TestR_NJET_1_LastFreeFieldCannotBeBlocked(t *testing.T) {
	for _, ed := range []Edition{Classic, Modern} {
		t.Run(ed.String(), func(t *testing.T) {
			g := mustGame(t, Config{Edition: ed, Players: 4})
			if err := g.DealDeck(ed.Deck(4)); err != nil {
				t.Fatal(err)
			}
			// Block the trump row down to its last colour.
			for f := Field(0); f < 3; f++ {
				mustApply(t, g, Action{Kind: ActBlock, Seat: g.Turn(), Row: RowTrump, Field: f})
			}
			wantRejected(t, g, Action{Kind: ActBlock, Seat: g.Turn(), Row: RowTrump, Field: 3}, ErrIllegalBlock)
			wantRejected(t, g, Action{Kind: ActBlock, Seat: g.Turn(), Row: RowTrump, Field: 0}, ErrIllegalBlock)
			for _, a := range g.Legal(g.Turn()) {
				if a.Row == RowTrump {
					t.Fatalf("Legal offers %+v", a)
				}
			}
		})
	}
}

func TestR_NJET_2_PhaseEndsWhenEveryRowHasOneFreeField(t *testing.T) {
	sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "tiger", discard: "discard2",
		trump: "green", super: "njet", points: "-2", partners: 1}
	g := sc.play(t)
	for r := Row(0); r < NumRows; r++ {
		if n := g.rs.board.FreeCount(g.ed, r); n != 1 {
			t.Fatalf("row %s has %d free fields", r, n)
		}
	}
	want := Rules{Start: Tiger, StartSeat: 3, Discard: Discard2, Trump: Green, Super: NoColour, Points: -2}
	if got := g.View(0).Rules; got != want {
		t.Fatalf("rules %+v, want %+v", got, want)
	}
	if g.Phase() != PhaseDiscard {
		t.Fatalf("phase %s after the teams", g.Phase())
	}
}

func TestR_TEAM_FormingTeams(t *testing.T) {
	base := func(players int) scene {
		return scene{cfg: Config{Edition: Modern, Players: players}, start: "wolf", trump: "red", super: "blue"}
	}
	t.Run("2p one against one", func(t *testing.T) {
		g := base(2).play(t)
		if g.Phase() != PhaseTricks || g.rs.team != [maxSeats]int8{1, 0, -1, -1, -1} || g.rs.bonus != -1 {
			t.Fatalf("phase %s teams %v bonus %d", g.Phase(), g.rs.team, g.rs.bonus)
		}
	})
	tests := []struct {
		name     string
		players  int
		partners uint8
		bonus    int
		err      error
		teams    [2][]int
		doubles  int
	}{
		{"3p start alone", 3, 0, 0, nil, [2][]int{{1}, {0, 2}}, 1},
		{"3p with a partner", 3, 1 << 2, 0, nil, [2][]int{{1, 2}, {0}}, 0},
		{"3p two partners", 3, 1<<0 | 1<<2, 0, ErrIllegalTeam, [2][]int{}, 0},
		{"3p self as partner", 3, 1 << 1, 0, ErrIllegalTeam, [2][]int{}, 0},
		{"4p one partner", 4, 1 << 3, 0, nil, [2][]int{{1, 3}, {0, 2}}, -1},
		{"4p alone", 4, 0, 0, ErrIllegalTeam, [2][]int{}, 0},
		{"4p two partners", 4, 1<<0 | 1<<2, 0, ErrIllegalTeam, [2][]int{}, 0},
		{"5p two, bonus to the start player", 5, 1 << 4, 1, nil, [2][]int{{1, 4}, {0, 2, 3}}, 1},
		{"5p two, bonus to the partner", 5, 1 << 4, 4, nil, [2][]int{{1, 4}, {0, 2, 3}}, 4},
		{"5p three, bonus to the other pair", 5, 1<<0 | 1<<2, 3, nil, [2][]int{{0, 1, 2}, {3, 4}}, 3},
		{"5p two, bonus to the other team", 5, 1 << 4, 0, ErrIllegalTeam, [2][]int{}, 0},
		{"5p three, bonus kept", 5, 1<<0 | 1<<2, 1, ErrIllegalTeam, [2][]int{}, 0},
		{"5p four", 5, 1<<0 | 1<<2 | 1<<3, 4, ErrIllegalTeam, [2][]int{}, 0},
		{"5p alone", 5, 0, 1, ErrIllegalTeam, [2][]int{}, 0},
		{"partner outside the table", 4, 1 << 5, 0, ErrBadAction, [2][]int{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := base(tt.players)
			g := mustGame(t, sc.cfg)
			dealHands(t, g, fill(t, g, nil, nil))
			forceRules(t, g, rulesWant(t, g.ed, "wolf", "njet", "red", "blue", "1"))
			if g.Phase() != PhaseTeams {
				t.Fatalf("phase %s", g.Phase())
			}
			a := Action{Kind: ActTeam, Seat: 1, Partners: tt.partners, Bonus: tt.bonus}
			if tt.err != ErrBadAction {
				wrong := a
				wrong.Seat = 0
				wantRejected(t, g, wrong, ErrNotYourTurn)
			}
			if tt.err != nil {
				wantRejected(t, g, a, tt.err)
				return
			}
			if !slices.ContainsFunc(g.Legal(1), func(l Action) bool {
				return l.Partners == a.Partners && (tt.players != 5 || l.Bonus == a.Bonus)
			}) {
				t.Fatalf("Legal does not list %+v", a)
			}
			mustApply(t, g, a)
			h := g.History()
			if !slices.Equal(h.Teams[0], tt.teams[0]) || !slices.Equal(h.Teams[1], tt.teams[1]) || h.Bonus != tt.doubles {
				t.Fatalf("teams %v bonus %d, want %v bonus %d", h.Teams, h.Bonus, tt.teams, tt.doubles)
			}
		})
	}
	t.Run("legal choices", func(t *testing.T) {
		for players, want := range map[int]int{3: 3, 4: 3, 5: 20} {
			g := mustGame(t, Config{Edition: Modern, Players: players})
			dealHands(t, g, fill(t, g, nil, nil))
			forceRules(t, g, rulesWant(t, g.ed, "wolf", "njet", "red", "blue", "1"))
			if got := len(g.Legal(1)); got != want {
				t.Fatalf("%dp: %d team choices, want %d", players, got, want)
			}
		}
	})
}

func TestR_DISCARD_DiscardAndPass(t *testing.T) {
	newScene := func(rule string, players int) scene {
		return scene{cfg: Config{Edition: Modern, Players: players}, start: "bear", discard: rule,
			trump: "red", super: "blue", partners: 1 << 1, bonus: 1}
	}
	t.Run("njet skips the phase", func(t *testing.T) {
		g := newScene("njet", 4).play(t)
		if g.Phase() != PhaseTricks || g.rs.tricks != 15 {
			t.Fatalf("phase %s with %d tricks", g.Phase(), g.rs.tricks)
		}
	})
	for _, tt := range []struct {
		rule   string
		k      int
		tricks int
	}{{"discard1", 1, 14}, {"discard2", 2, 13}, {"discard1-no-ones", 1, 14}} {
		t.Run(tt.rule, func(t *testing.T) {
			g := newScene(tt.rule, 4).play(t)
			if g.Turn() != -1 || !slices.Equal(g.Waiting(), []int{0, 1, 2, 3}) {
				t.Fatalf("turn %d waiting %v", g.Turn(), g.Waiting())
			}
			wantRejected(t, g, Action{Kind: ActPass, Seat: 0, Card: g.rs.known[0].Cards(g.ed)[5]}, ErrWrongPhase)
			bad := [2]Card{g.rs.known[1].Cards(g.ed)[5], NoCard}
			if tt.k == 2 {
				bad[1] = g.rs.known[0].Cards(g.ed)[6]
			}
			wantRejected(t, g, Action{Kind: ActDiscard, Seat: 0, Cards: bad}, ErrIllegalCard)
			if tt.k == 1 {
				wantRejected(t, g, Action{Kind: ActDiscard, Seat: 0, Cards: [2]Card{g.rs.known[0].Cards(g.ed)[5], g.rs.known[0].Cards(g.ed)[6]}}, ErrBadAction)
			} else {
				c := g.rs.known[0].Cards(g.ed)[5]
				wantRejected(t, g, Action{Kind: ActDiscard, Seat: 0, Cards: [2]Card{c, c}}, ErrBadAction)
			}
			// Any order; each seat once.
			for _, s := range []int{2, 0, 3, 1} {
				hand := g.rs.known[s]
				a := g.Legal(s)[0]
				mustApply(t, g, a)
				if got := g.rs.known[s]; got.Len() != hand.Len()-tt.k || g.rs.discards[s] != hand&^got {
					t.Fatalf("seat %d: hand %d cards, discards %v", s, got.Len(), g.rs.discards[s])
				}
			}
			if g.Phase() != PhaseTricks || g.rs.tricks != tt.tricks {
				t.Fatalf("phase %s with %d tricks", g.Phase(), g.rs.tricks)
			}
		})
	}
	t.Run("each seat acts once", func(t *testing.T) {
		g := newScene("discard1", 4).play(t)
		mustApply(t, g, g.Legal(2)[0])
		a := Action{Kind: ActDiscard, Seat: 2, Cards: [2]Card{g.rs.known[2].Cards(g.ed)[0], NoCard}}
		wantRejected(t, g, a, ErrAlreadyActed)
		if g.Legal(2) != nil {
			t.Fatal("Legal lists a second discard")
		}
	})
	t.Run("except 1", func(t *testing.T) {
		// Modern 5p: seat 1 holds all twelve 1s.
		ones := []string{"blue1", "blue1", "blue1", "red1", "red1", "red1", "yellow1", "yellow1", "yellow1", "green1", "green1", "green1"}
		sc := newScene("discard1-no-ones", 5)
		sc.fixed = map[int][]string{1: ones}
		sc.partners = 1 << 1
		g := sc.play(t)
		one := HandOf(cards(t, g.ed, "red1")...)
		if len(g.Legal(1)) != 12 {
			t.Fatalf("a hand of 1s may discard any of them: %d choices", len(g.Legal(1)))
		}
		mustApply(t, g, Action{Kind: ActDiscard, Seat: 1, Cards: [2]Card{one.Cards(g.ed)[0], NoCard}})
		for _, a := range g.Legal(0) {
			if a.Cards[0].Value() == 1 {
				t.Fatalf("Legal offers a 1: %+v", a)
			}
		}
	})
	t.Run("except 1 refuses a 1 next to other cards", func(t *testing.T) {
		sc := newScene("discard1-no-ones", 4)
		sc.fixed = map[int][]string{2: {"green1"}}
		g := sc.play(t)
		c := heldCard(t, g, 2, "green1")
		wantRejected(t, g, Action{Kind: ActDiscard, Seat: 2, Cards: [2]Card{c, NoCard}}, ErrIllegalDiscard)
	})
	t.Run("pass left", func(t *testing.T) {
		sc := newScene("pass-left", 4)
		sc.fixed = map[int][]string{0: {"green7"}, 1: {"green8"}, 2: {"green9"}, 3: {"green10"}}
		g := sc.play(t)
		passes := []string{"green7", "green8", "green9", "green10"}
		for _, s := range []int{3, 1, 0} {
			mustApply(t, g, Action{Kind: ActPass, Seat: s, Card: heldCard(t, g, s, passes[s])})
		}
		// Nobody has received yet: seat 1 still holds the card it chose.
		if g.rs.known[2].Has(card(t, g.ed, "green8")) || g.Phase() != PhaseDiscard {
			t.Fatal("a card arrived before every seat had chosen")
		}
		wantRejected(t, g, Action{Kind: ActPass, Seat: 2, Card: card(t, g.ed, "green8")}, ErrIllegalCard)
		mustApply(t, g, Action{Kind: ActPass, Seat: 2, Card: heldCard(t, g, 2, "green9")})
		for s := 0; s < 4; s++ {
			got := heldCard(t, g, (s+1)%4, passes[s])
			if v := g.View((s + 1) % 4); v.Received != got || v.Hand.Len() != 15 {
				t.Fatalf("seat %d received %s, hand %d", (s+1)%4, v.Received, v.Hand.Len())
			}
		}
		if g.Phase() != PhaseTricks || g.rs.tricks != 15 {
			t.Fatalf("phase %s", g.Phase())
		}
	})
}

func TestR_TRICK_LeadAndTurnOrder(t *testing.T) {
	sc := scene{cfg: Config{Edition: Classic, Players: 4}, start: "falcon", trump: "red", super: "njet", partners: 1}
	g := sc.play(t)
	if g.Turn() != 2 {
		t.Fatalf("seat %d leads, want the start player 2", g.Turn())
	}
	for k := 0; k < 3; k++ {
		leader := g.Turn()
		for i := 0; i < 4; i++ {
			if g.Turn() != (leader+i)%4 {
				t.Fatalf("trick %d card %d by seat %d", k, i, g.Turn())
			}
			wrong := Action{Kind: ActPlay, Seat: (g.Turn() + 1) % 4, Card: g.rs.known[(g.Turn()+1)%4].Cards(g.ed)[0]}
			wantRejected(t, g, wrong, ErrNotYourTurn)
			mustApply(t, g, g.Legal(g.Turn())[0])
		}
		v := g.View(0)
		last := v.Tricks[len(v.Tricks)-1]
		if g.Turn() != last.Winner || len(last.Plays) != 4 {
			t.Fatalf("seat %d leads after seat %d won", g.Turn(), last.Winner)
		}
	}
}

func TestR_TRICK_1_SupertrumpBelongsToTrumpSuit(t *testing.T) {
	blueRed := Rules{Trump: Blue, Super: Red}
	tests := []struct {
		name  string
		card  string
		rules Rules
		want  Colour
	}{
		{"supertrump", "red1", blueRed, Blue},
		{"other red", "red7", blueRed, Red},
		{"trump", "blue9", blueRed, Blue},
		{"trump 1", "blue1", blueRed, Blue},
		{"plain", "green1", blueRed, Green},
		{"no supertrump", "red1", Rules{Trump: Blue, Super: NoColour}, Red},
		{"supertrump of the trump colour", "blue1", Rules{Trump: Blue, Super: Blue}, Blue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := card(t, Modern, tt.card)
			if got := SuitOf(c, tt.rules); got != tt.want {
				t.Fatalf("SuitOf(%s) = %s, want %s", c, got, tt.want)
			}
		})
	}
}

func TestR_TRICK_2_MustFollowButNeedNotTrump(t *testing.T) {
	// Seat 0 leads red 7 with blue trump and red supertrumps.
	sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", trump: "blue", super: "red", partners: 1 << 2,
		fixed: map[int][]string{0: {"red7"}, 1: {"red5", "red1"}, 2: {"red1"}, 3: {"green13"}},
		avoid: map[int]Colour{1: Red, 2: Red, 3: Red}}
	tests := []struct {
		name    string
		seat    int
		play    string
		err     error
		playing []string // cards played before by the seats in between
	}{
		{"red 1 is a trump, not red", 1, "red1", ErrMustFollow, nil},
		{"red 5 follows", 1, "red5", nil, nil},
		{"only a supertrump: play anything", 2, "red1", nil, []string{"red5"}},
		{"no red: no obligation to trump", 3, "green13", nil, []string{"red5", "red1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sc.play(t)
			playCard(t, g, 0, "red7")
			for i, name := range tt.playing {
				playCard(t, g, 1+i, name)
			}
			c := heldCard(t, g, tt.seat, tt.play)
			legal := slices.ContainsFunc(g.Legal(tt.seat), func(a Action) bool { return a.Card == c })
			if legal != (tt.err == nil) {
				t.Fatalf("Legal lists %s: %v", c, legal)
			}
			if tt.err != nil {
				wantRejected(t, g, Action{Kind: ActPlay, Seat: tt.seat, Card: c}, tt.err)
				return
			}
			mustApply(t, g, Action{Kind: ActPlay, Seat: tt.seat, Card: c})
		})
	}
	t.Run("legal set of the example", func(t *testing.T) {
		g := sc.play(t)
		playCard(t, g, 0, "red7")
		if l := g.Legal(1); len(l) != 1 || l[0].Card != card(t, Modern, "red5") {
			t.Fatalf("legal %v", l)
		}
	})
}

// trick builds a trick from card names, seats from leader on.
func trick(t *testing.T, e Edition, players, leader int, names ...string) Trick {
	t.Helper()
	tr := Trick{Leader: leader, Winner: -1}
	for i, c := range cards(t, e, names...) {
		tr.Plays = append(tr.Plays, Play{Seat: (leader + i) % players, Card: c})
	}
	return tr
}

func TestR_WIN_WhoWinsATrick(t *testing.T) {
	yellowGreen := Rules{Trump: Yellow, Super: Green}
	tests := []struct {
		name  string
		rules Rules
		cards []string
		want  int // seat; leader is seat 0 of 4
	}{
		{"supertrump beats the highest trump", yellowGreen, []string{"yellow13", "green1", "yellow12", "blue2"}, 1},
		{"trump beats the led suit", yellowGreen, []string{"blue13", "yellow2", "blue12", "red13"}, 1},
		{"led suit wins without trumps", yellowGreen, []string{"blue5", "red13", "blue6", "green13"}, 2},
		{"led card wins alone", yellowGreen, []string{"blue5", "red13", "red12", "green13"}, 0},
		{"empty trick", yellowGreen, nil, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(trick(t, Modern, 4, 0, tt.cards...), tt.rules); got != tt.want {
				t.Fatalf("winner %d, want %d", got, tt.want)
			}
		})
	}
}

func TestR_WIN_1_LastSupertrumpWins(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		cards []string
		want  int
	}{
		{"two supertrumps", Rules{Trump: Yellow, Super: Green}, []string{"green1", "yellow13", "green1", "blue9"}, 2},
		{"three supertrumps", Rules{Trump: Yellow, Super: Green}, []string{"green1", "green1", "yellow13", "green1"}, 3},
		{"supertrumps of the trump colour", Rules{Trump: Red, Super: Red}, []string{"red1", "red13", "red1", "blue9"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(trick(t, Modern, 4, 0, tt.cards...), tt.rules); got != tt.want {
				t.Fatalf("winner %d, want %d", got, tt.want)
			}
		})
	}
}

func TestR_WIN_2_HighestTrumpWins(t *testing.T) {
	tests := []struct {
		name  string
		ed    Edition
		rules Rules
		cards []string
		want  int
	}{
		{"highest of two trumps", Modern, Rules{Trump: Yellow, Super: NoColour}, []string{"red9", "yellow2", "yellow12", "red13"}, 2},
		{"trump 1 is low without supertrump", Modern, Rules{Trump: Yellow, Super: NoColour}, []string{"red9", "yellow2", "yellow1", "red13"}, 1},
		{"a low trump beats a high led card", Modern, Rules{Trump: Yellow, Super: NoColour}, []string{"blue13", "yellow3", "blue12", "green13"}, 1},
		{"classic black trump", Classic, Rules{Trump: Black, Super: NoColour}, []string{"red9", "black3", "black2", "blue9"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(trick(t, tt.ed, 4, 0, tt.cards...), tt.rules); got != tt.want {
				t.Fatalf("winner %d, want %d", got, tt.want)
			}
		})
	}
}

func TestR_WIN_3_HighestOfLedSuitWins(t *testing.T) {
	r := Rules{Trump: Yellow, Super: NoColour}
	tests := []struct {
		name  string
		cards []string
		want  int
	}{
		{"other colours never win", []string{"red5", "blue13", "red9", "green13"}, 2},
		{"a low card of the led suit", []string{"green2", "red13", "blue13", "green3"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(trick(t, Modern, 4, 3, tt.cards...), r); got != (3+tt.want)%4 {
				t.Fatalf("winner %d, want seat %d", got, (3+tt.want)%4)
			}
		})
	}
}

func TestR_WIN_4_LaterEqualOneWins(t *testing.T) {
	tests := []struct {
		name  string
		ed    Edition
		rules Rules
		cards []string
		want  int
	}{
		{"two red 1s led", Modern, Rules{Trump: Yellow, Super: NoColour}, []string{"red1", "blue5", "red1", "green9"}, 2},
		{"three trump 1s", Modern, Rules{Trump: Red, Super: NoColour}, []string{"red1", "red1", "red1", "green9"}, 2},
		{"a 2 beats the 1s", Modern, Rules{Trump: Yellow, Super: NoColour}, []string{"red1", "red2", "red1", "green9"}, 1},
		{"classic nine is the highest", Classic, Rules{Trump: Green, Super: NoColour}, []string{"red8", "red9", "red1", "red1"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(trick(t, tt.ed, 4, 0, tt.cards...), tt.rules); got != tt.want {
				t.Fatalf("winner %d, want %d", got, tt.want)
			}
		})
	}
}

// TestR_WIN_Modern5pSeedTrick plays the seed's 5-player trick: seats 0, 1
// and 4 against 2 and 3, yellow trump; and the same cards with green 1s as
// supertrumps.
func TestR_WIN_Modern5pSeedTrick(t *testing.T) {
	tests := []struct {
		name   string
		super  string
		winner int
		loot   []string
		won    [2]int
	}{
		{"seed: yellow 7 wins, the yellow 1 is loot", "njet", 4, []string{"yellow1"}, [2]int{1, 0}},
		{"green supertrumps: the green 1 wins", "green", 1, []string{"yellow1"}, [2]int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := scene{cfg: Config{Edition: Modern, Players: 5}, start: "bear", trump: "yellow", super: tt.super,
				partners: 1<<1 | 1<<4, bonus: 2,
				fixed: map[int][]string{0: {"green9"}, 1: {"green1"}, 2: {"green4"}, 3: {"yellow1"}, 4: {"yellow7"}},
				avoid: map[int]Colour{1: Green, 3: Green, 4: Green}} // seat 1 holds no other green
			g := sc.play(t)
			for s, name := range []string{"green9", "green1", "green4", "yellow1", "yellow7"} {
				playCard(t, g, s, name)
			}
			tr := g.View(0).Tricks[0]
			var loot []string
			for _, c := range tr.Loot {
				loot = append(loot, c.String())
			}
			if tr.Winner != tt.winner || !slices.Equal(loot, tt.loot) {
				t.Fatalf("winner %d loot %v, want %d %v", tr.Winner, loot, tt.winner, tt.loot)
			}
			if g.rs.won != tt.won || g.rs.loot != [2]int{len(tt.loot), 0} {
				t.Fatalf("tricks %v loot %v", g.rs.won, g.rs.loot)
			}
			if TrickWinner(tr, g.rs.rules) != tt.winner {
				t.Fatal("TrickWinner disagrees with the engine")
			}
		})
	}
}

func TestR_LOOT_OnesOfTheLosingTeam(t *testing.T) {
	// Seats 0 and 2 against 1 and 3; blue is trump and the blue 1s are
	// supertrumps.
	tests := []struct {
		name   string
		cards  []string // seats 0..3
		void   []int    // seats that hold no green
		winner int
		loot   []string
	}{
		{"two opponents' 1s", []string{"green13", "green1", "green12", "green1"}, nil, 0, []string{"green1", "green1"}},
		{"own team's 1 is no loot", []string{"green13", "yellow5", "green1", "yellow6"}, []int{1, 3}, 0, nil},
		{"a beaten supertrump is loot", []string{"green5", "blue1", "blue1", "green6"}, []int{1, 2}, 2, []string{"blue1"}},
		{"the leader's 1 is loot for the other team", []string{"green1", "green13", "green2", "yellow4"}, []int{3}, 1, []string{"green1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fixed := map[int][]string{}
			for s, name := range tt.cards {
				fixed[s] = []string{name}
			}
			avoid := map[int]Colour{}
			for _, s := range tt.void {
				avoid[s] = Green
			}
			sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", trump: "blue", super: "blue",
				partners: 1 << 2, fixed: fixed, avoid: avoid}
			g := sc.play(t)
			for s, name := range tt.cards {
				playCard(t, g, s, name)
			}
			tr := g.View(1).Tricks[0]
			var loot []string
			for _, c := range tr.Loot {
				loot = append(loot, c.String())
			}
			if tr.Winner != tt.winner || !slices.Equal(loot, tt.loot) {
				t.Fatalf("winner %d loot %v, want %d %v", tr.Winner, loot, tt.winner, tt.loot)
			}
			if g.rs.loot[g.rs.team[tt.winner]] != len(tt.loot) || g.rs.loot[1-g.rs.team[tt.winner]] != 0 {
				t.Fatalf("team loot %v", g.rs.loot)
			}
		})
	}
}

// scored sets the tricks and loot of a round and scores it.
func scored(t *testing.T, sc scene, won, loot [2]int) []int {
	t.Helper()
	g := sc.play(t)
	g.rs.won, g.rs.loot = won, loot
	g.rs.done = g.rs.tricks
	g.score()
	if g.Phase() != PhaseRoundOver {
		t.Fatalf("phase %s after scoring", g.Phase())
	}
	if v := g.View(0); v.Score == nil || !slices.Equal(v.Score.Points, g.Totals()) {
		t.Fatalf("view score %+v, totals %v", v.Score, g.Totals())
	}
	return g.Totals()
}

func TestR_SCORE_RoundScore(t *testing.T) {
	t.Run("-2 makes totals negative", func(t *testing.T) {
		sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", trump: "blue", super: "red", points: "-2", partners: 1 << 2}
		got := scored(t, sc, [2]int{10, 5}, [2]int{1, 2})
		if !slices.Equal(got, []int{-22, -14, -22, -14}) {
			t.Fatalf("points %v", got)
		}
	})
}

func TestR_SCORE_1_TeamCredit(t *testing.T) {
	tests := []struct {
		name      string
		sc        scene
		won, loot [2]int
		want      []int
	}{
		{"classic 4p seed example", scene{cfg: Config{Edition: Classic, Players: 4}, start: "bear", discard: "discard2", trump: "red", super: "njet", points: "3", partners: 1 << 1},
			[2]int{3, 5}, [2]int{1, 2}, []int{12, 12, 21, 21}},
		{"modern 2p", scene{cfg: Config{Edition: Modern, Players: 2}, start: "wolf", trump: "red", super: "njet", points: "4"},
			[2]int{9, 6}, [2]int{0, 1}, []int{28, 36}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scored(t, tt.sc, tt.won, tt.loot); !slices.Equal(got, tt.want) {
				t.Fatalf("points %v, want %v", got, tt.want)
			}
		})
	}
}

func TestR_SCORE_2_Doubling(t *testing.T) {
	tests := []struct {
		name      string
		sc        scene
		won, loot [2]int
		want      []int
	}{
		{"classic 3p seed example: solo start player", scene{cfg: Config{Edition: Classic, Players: 3}, start: "wolf", trump: "red", super: "njet", points: "2"},
			[2]int{5, 7}, [2]int{1, 2}, []int{18, 24, 18}},
		{"classic 3p: the seat left out plays solo", scene{cfg: Config{Edition: Classic, Players: 3}, start: "wolf", trump: "red", super: "njet", points: "2", partners: 1 << 2},
			[2]int{7, 5}, [2]int{2, 1}, []int{24, 18, 18}},
		{"modern 3p solo holds the bonus", scene{cfg: Config{Edition: Modern, Players: 3}, start: "bear", trump: "red", super: "njet", points: "1", partners: 1 << 1},
			[2]int{10, 6}, [2]int{1, 0}, []int{11, 11, 12}},
		{"modern 5p bonus holder only", scene{cfg: Config{Edition: Modern, Players: 5}, start: "bear", trump: "red", super: "njet", points: "2", partners: 1<<1 | 1<<2, bonus: 4},
			[2]int{8, 4}, [2]int{0, 3}, []int{16, 16, 16, 14, 28}},
		{"modern 4p nobody doubles", scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", trump: "red", super: "njet", points: "1", partners: 1 << 1},
			[2]int{8, 7}, [2]int{0, 0}, []int{8, 8, 7, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scored(t, tt.sc, tt.won, tt.loot); !slices.Equal(got, tt.want) {
				t.Fatalf("points %v, want %v", got, tt.want)
			}
		})
	}
}

func TestR_END_RoundsAndWinners(t *testing.T) {
	tests := []struct {
		cfg    Config
		rounds int
	}{
		{Config{Edition: Classic, Players: 4}, 8},
		{Config{Edition: Classic, Players: 3}, 6},
		{Config{Edition: Classic, Players: 4, Short: true}, 4},
		{Config{Edition: Classic, Players: 3, Short: true}, 3},
		{Config{Edition: Modern, Players: 2}, 8},
		{Config{Edition: Modern, Players: 3}, 9},
		{Config{Edition: Modern, Players: 4}, 8},
		{Config{Edition: Modern, Players: 5}, 10},
		{Config{Edition: Modern, Players: 4, Target: 100}, 0},
	}
	for i, tt := range tests {
		t.Run(setupName(tt.cfg.Edition, tt.cfg.Players), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 3))
			g := mustGame(t, tt.cfg)
			if g.Rounds() != tt.rounds {
				t.Fatalf("%d rounds, want %d", g.Rounds(), tt.rounds)
			}
			for g.Phase() != PhaseGameOver {
				if g.Phase() == PhaseRoundOver {
					if g.Winners() != nil {
						t.Fatal("winners before the end")
					}
					if tt.cfg.Target > 0 && slices.Max(g.Totals()) >= tt.cfg.Target {
						t.Fatalf("target reached at %v but the game goes on", g.Totals())
					}
					dealer := g.Dealer()
					randomStep(t, g, r, nil)
					if g.Dealer() != (dealer+1)%tt.cfg.Players || g.rs.nblocks != 0 || g.Phase() != PhaseNjet {
						t.Fatalf("next round: dealer %d blocks %d phase %s", g.Dealer(), g.rs.nblocks, g.Phase())
					}
					continue
				}
				randomStep(t, g, r, nil)
			}
			if tt.cfg.Target > 0 {
				if slices.Max(g.Totals()) < tt.cfg.Target {
					t.Fatalf("ended below the target: %v", g.Totals())
				}
			} else if g.Round() != tt.rounds {
				t.Fatalf("ended after round %d", g.Round())
			}
			wantErr(t, g.Apply(Action{Kind: ActDeal, Seat: 0, Hidden: true}), ErrGameOver)
			wantErr(t, g.DealDeck(tt.cfg.Edition.Deck(tt.cfg.Players)), ErrGameOver)
			if g.Legal(0) != nil || g.Waiting() != nil {
				t.Fatal("actions after the end")
			}
		})
	}
	t.Run("ties share the win", func(t *testing.T) {
		g := mustGame(t, Config{Edition: Classic, Players: 4, Short: true})
		g.phase = PhaseGameOver
		g.totals = [maxSeats]int{30, 42, 17, 42}
		if w := g.Winners(); !slices.Equal(w, []int{1, 3}) {
			t.Fatalf("winners %v", w)
		}
	})
}

// R-SUPER is named in R-DECK without a section of its own: the 1s of the
// supertrump colour are supertrumps, they belong to the trump suit
// (R-TRICK-1) and beat every trump (R-WIN-1); with the Njet field free on the
// super row no card is a supertrump and the 1s stay the lowest of their suit.
func TestR_SUPER_OnesOfTheSupertrumpColour(t *testing.T) {
	e := Modern
	tests := []struct {
		name      string
		rules     Rules
		card      string
		wantSuit  Colour
		wantSuper bool
	}{
		{"a 1 of the super colour is a supertrump", Rules{Trump: Yellow, Super: Green}, "green1", Yellow, true},
		{"a higher card of the super colour is not", Rules{Trump: Yellow, Super: Green}, "green2", Green, false},
		{"no supertrump under njet", Rules{Trump: Yellow, Super: NoColour}, "green1", Green, false},
		{"a trump 1 is a supertrump when both rows agree", Rules{Trump: Red, Super: Red}, "red1", Red, true},
		{"a trump 1 is a plain trump otherwise", Rules{Trump: Red, Super: Blue}, "red1", Red, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := card(t, e, tt.card)
			if got := SuitOf(c, tt.rules); got != tt.wantSuit {
				t.Errorf("suit %s, want %s", got, tt.wantSuit)
			}
			if got := isSuper(c, tt.rules); got != tt.wantSuper {
				t.Errorf("supertrump %v, want %v", got, tt.wantSuper)
			}
			// A supertrump beats the highest trump; any other 1 loses to it.
			tr := trick(t, e, 2, 0, tt.rules.Trump.String()+"13", tt.card)
			want := 0
			if tt.wantSuper {
				want = 1
			}
			if got := TrickWinner(tr, tt.rules); got != want {
				t.Errorf("%s against %s13: winner %d, want %d", tt.card, tt.rules.Trump, got, want)
			}
		})
	}
}

func TestR_WIN_TrickWinSaysWhy(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		cards []string
		want  Win // Card by name below
		card  string
	}{
		{"supertrump beats a trump", Rules{Trump: Yellow, Super: Green}, []string{"yellow13", "green1", "yellow12", "blue2"}, Win{Seat: 1, Why: WinSuper}, "green1"},
		{"the later of two supertrumps", Rules{Trump: Yellow, Super: Green}, []string{"green1", "yellow13", "green1", "blue9"}, Win{Seat: 2, Why: WinSuper, Tie: true}, "green1"},
		{"trump beats the led suit", Rules{Trump: Yellow, Super: Green}, []string{"blue13", "yellow2", "blue12", "red13"}, Win{Seat: 1, Why: WinTrump}, "yellow2"},
		{"highest of the led suit", Rules{Trump: Yellow, Super: NoColour}, []string{"blue5", "red13", "blue6", "green13"}, Win{Seat: 2, Why: WinLed}, "blue6"},
		{"the later of two equal 1s", Rules{Trump: Yellow, Super: NoColour}, []string{"red1", "blue5", "red1", "green9"}, Win{Seat: 2, Why: WinLed, Tie: true}, "red1"},
		{"an equal card played earlier does not tie a later higher one", Rules{Trump: Yellow, Super: NoColour}, []string{"red1", "red1", "red2", "green9"}, Win{Seat: 2, Why: WinLed}, "red2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := trick(t, Modern, 4, 0, tt.cards...)
			got := TrickWin(tr, tt.rules)
			want := tt.want
			want.Card = tr.Plays[want.Seat].Card
			if got != want || got.Card.String() != tt.card {
				t.Fatalf("TrickWin = %+v, want %+v (%s)", got, want, tt.card)
			}
			if TrickWinner(tr, tt.rules) != want.Seat {
				t.Fatalf("TrickWinner disagrees with TrickWin")
			}
		})
	}
	if w := TrickWin(Trick{}, Rules{}); w.Seat != -1 {
		t.Fatalf("empty trick: %+v", w)
	}
}

func TestR_END_Leaders(t *testing.T) {
	for _, tt := range []struct {
		totals []int
		want   []int
	}{
		{nil, nil},
		{[]int{3}, []int{0}},
		{[]int{3, 9, 2}, []int{1}},
		{[]int{9, -2, 9, 4}, []int{0, 2}},
	} {
		if got := Leaders(tt.totals); !slices.Equal(got, tt.want) {
			t.Errorf("Leaders(%v) = %v, want %v", tt.totals, got, tt.want)
		}
	}
}
