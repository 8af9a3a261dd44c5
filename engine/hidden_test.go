package engine

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

// observerScene deals seat 0 its hand from the scene and every other seat a
// hidden hand, then plays the Njet phase and the teams: the engine of seat 0.
func observerScene(t *testing.T, sc scene) *Game {
	t.Helper()
	full := mustGame(t, sc.cfg)
	fixed := map[int][]Card{}
	for s, names := range sc.fixed {
		fixed[s] = cards(t, full.ed, names...)
	}
	hands := fill(t, full, fixed, sc.avoid)
	g := mustGame(t, sc.cfg)
	mustApply(t, g, Action{Kind: ActDeal, Seat: 0, Hand: hands[0]})
	for s := 1; s < g.n; s++ {
		mustApply(t, g, Action{Kind: ActDeal, Seat: s, Hidden: true})
	}
	forceRules(t, g, rulesWant(t, g.ed, sc.start, sc.discard, sc.trump, sc.super, sc.points))
	if g.Phase() == PhaseTeams {
		mustApply(t, g, Action{Kind: ActTeam, Seat: g.rs.rules.StartSeat, Partners: sc.partners, Bonus: sc.bonus})
	}
	return g
}

func play(t *testing.T, g *Game, seat int, name string) error {
	t.Helper()
	return g.Apply(Action{Kind: ActPlay, Seat: seat, Card: card(t, g.ed, name)})
}

func TestHiddenRenegeIsCaughtAtOnce(t *testing.T) {
	sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", discard: "njet", trump: "blue", super: "njet",
		points: "1", partners: 1 << 2, fixed: map[int][]string{0: {"green13"}}}
	g := observerScene(t, sc)
	if err := play(t, g, 0, "green13"); err != nil {
		t.Fatal(err)
	}
	// Seat 1 may hold green; this engine cannot tell, so yellow 5 passes.
	if err := play(t, g, 1, "yellow5"); err != nil {
		t.Fatal(err)
	}
	if g.View(3).Voids[1] != 1<<Green {
		t.Fatalf("voids of seat 1: %b", g.View(3).Voids[1])
	}
	wantRejected(t, g, Action{Kind: ActPlay, Seat: 2, Card: card(t, g.ed, "yellow5")}, ErrIllegalCard)
	wantRejected(t, g, Action{Kind: ActPlay, Seat: 2, Card: g.rs.known[0].Cards(g.ed)[0]}, ErrIllegalCard)
	for _, name := range []string{"green12", "red9"} {
		if err := play(t, g, g.Turn(), name); err != nil {
			t.Fatal(err)
		}
	}
	if g.Turn() != 0 {
		t.Fatalf("seat %d leads trick 2", g.Turn())
	}
	mustApply(t, g, Action{Kind: ActPlay, Seat: 0, Card: g.rs.known[0].Cards(g.ed)[0]})
	for _, a := range g.Legal(1) {
		if g.suitOf(a.Card) == Green {
			t.Fatalf("Legal offers %s after seat 1 showed no green", a.Card)
		}
	}
	before := g.Clone()
	err := play(t, g, 1, "green2")
	wantSeatError(t, err, 1, ErrRenege)
	if !reflect.DeepEqual(g, before) {
		t.Fatal("the renege changed the game")
	}
}

func TestHiddenPassAndKnownCards(t *testing.T) {
	sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", discard: "pass-left", trump: "blue", super: "njet",
		points: "1", partners: 1 << 2, fixed: map[int][]string{0: {"green13", "green7"}}}
	g := observerScene(t, sc)
	if l := g.Legal(1); len(l) != 1 || !l[0].Hidden || l[0].Kind != ActPass {
		t.Fatalf("legal passes of a hidden hand: %+v", l)
	}
	wantRejected(t, g, Action{Kind: ActPass, Seat: 0, Hidden: true}, ErrBadAction)
	wantRejected(t, g, Action{Kind: ActPass, Seat: 3, Card: card(t, g.ed, "green13")}, ErrIllegalCard)
	mustApply(t, g, Action{Kind: ActPass, Seat: 0, Card: card(t, g.ed, "green7")})
	mustApply(t, g, Action{Kind: ActPass, Seat: 1, Hidden: true})
	mustApply(t, g, Action{Kind: ActPass, Seat: 2, Hidden: true})
	red9 := card(t, g.ed, "red9")
	mustApply(t, g, Action{Kind: ActPass, Seat: 3, Card: red9}) // to this engine's seat
	v := g.View(0)
	if !v.Hand.Has(red9) || v.Received != red9 || v.Hand.Len() != 15 || v.Passed != card(t, g.ed, "green7") {
		t.Fatalf("seat 0: hand %v received %s passed %s", v.Hand.Cards(g.ed), v.Received, v.Passed)
	}
	if !slices.Equal(v.HandSizes, []int{15, 15, 15, 15}) {
		t.Fatalf("hand sizes %v", v.HandSizes)
	}
	if err := play(t, g, 0, "green13"); err != nil {
		t.Fatal(err)
	}
	// Seat 1 is known to hold green 7, the card seat 0 passed it.
	wantRejected(t, g, Action{Kind: ActPlay, Seat: 1, Card: card(t, g.ed, "yellow5")}, ErrMustFollow)
	if l := g.Legal(1); slices.ContainsFunc(l, func(a Action) bool { return g.suitOf(a.Card) != Green }) {
		t.Fatalf("Legal lets seat 1 leave green: %v", l)
	}
	if err := play(t, g, 1, "green7"); err != nil {
		t.Fatal(err)
	}
}

func TestHiddenDiscards(t *testing.T) {
	sc := scene{cfg: Config{Edition: Modern, Players: 3}, start: "bear", discard: "discard2", trump: "blue", super: "njet",
		points: "1", partners: 0}
	g := observerScene(t, sc)
	wantRejected(t, g, Action{Kind: ActDiscard, Seat: 0, Hidden: true}, ErrBadAction)
	mustApply(t, g, Action{Kind: ActDiscard, Seat: 2, Hidden: true})
	mustApply(t, g, Action{Kind: ActDiscard, Seat: 1, Hidden: true})
	mustApply(t, g, g.Legal(0)[0])
	if v := g.View(0); !slices.Equal(v.HandSizes, []int{14, 14, 14}) || v.Discarded.Len() != 2 {
		t.Fatalf("hand sizes %v, discarded %v", v.HandSizes, v.Discarded)
	}
	if h := g.History(); h.Known[1] || !h.Known[0] || h.Unused != 0 || h.Discards[1] != 0 {
		t.Fatalf("history knows too much: %+v", h)
	}
}

func TestViewHoldsOnlyWhatTheSeatMayKnow(t *testing.T) {
	sc := scene{cfg: Config{Edition: Modern, Players: 4}, start: "bear", discard: "discard1", trump: "blue", super: "red",
		points: "2", partners: 1 << 2}
	g := sc.play(t)
	for s := 0; s < 4; s++ {
		mustApply(t, g, g.Legal(s)[0])
	}
	for s := 0; s < 4; s++ {
		v := g.View(s)
		if v.Hand != g.rs.known[s] || v.Discarded != g.rs.discards[s] || v.Seat != s {
			t.Fatalf("seat %d sees hand %v discards %v", s, v.Hand, v.Discarded)
		}
		if !slices.Equal(v.Team, []int{0, 1, 0, 1}) || !slices.Equal(v.HandSizes, []int{14, 14, 14, 14}) {
			t.Fatalf("team %v sizes %v", v.Team, v.HandSizes)
		}
	}
	if v := g.View(7); v.Hand != 0 || v.Discarded != 0 || v.Passed != NoCard {
		t.Fatalf("an outsider sees %+v", v)
	}
	t.Run("slices are copies", func(t *testing.T) {
		v := g.View(0)
		v.Blocks[0].Seat = 9
		v.Totals[0] = 999
		v.Characters[0] = Crane
		v.HandSizes[0] = 0
		h := g.History()
		h.Dealt[0] = 0
		w := g.View(0)
		if w.Blocks[0].Seat == 9 || w.Totals[0] == 999 || w.Characters[0] == Crane || w.HandSizes[0] == 0 || g.History().Dealt[0] == 0 {
			t.Fatal("a View or History shares memory with the game")
		}
		c := g.Config()
		c.Characters[0] = Crane
		if g.Config().Characters[0] == Crane {
			t.Fatal("Config shares memory with the game")
		}
	})
}

func TestApplyCheckOrder(t *testing.T) {
	g := mustGame(t, Config{Edition: Classic, Players: 4})
	if err := g.DealDeck(Classic.Deck(4)); err != nil {
		t.Fatal(err)
	}
	turn := g.Turn()
	mustApply(t, g, Action{Kind: ActBlock, Seat: turn, Row: RowPoints, Field: 0})
	turn = g.Turn()
	tests := []struct {
		name string
		a    Action
		err  error
	}{
		{"unknown kind", Action{Kind: 0, Seat: 99}, ErrBadAction},
		{"kind out of range", Action{Kind: 42, Seat: turn}, ErrBadAction},
		{"wrong phase before malformed", Action{Kind: ActPlay, Seat: 99, Card: 200}, ErrWrongPhase},
		{"malformed seat before not your turn", Action{Kind: ActBlock, Seat: -1, Row: RowTrump}, ErrBadAction},
		{"malformed row before not your turn", Action{Kind: ActBlock, Seat: (turn + 1) % 4, Row: 9}, ErrBadAction},
		{"malformed field", Action{Kind: ActBlock, Seat: turn, Row: RowDiscard, Field: 3}, ErrBadAction},
		{"not your turn before the move", Action{Kind: ActBlock, Seat: (turn + 1) % 4, Row: RowPoints, Field: 0}, ErrNotYourTurn},
		{"the move", Action{Kind: ActBlock, Seat: turn, Row: RowPoints, Field: 0}, ErrIllegalBlock},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantRejected(t, g, tt.a, tt.err) })
	}
	t.Run("tricks", func(t *testing.T) {
		sc := scene{cfg: Config{Edition: Classic, Players: 4}, start: "bear", trump: "red", super: "njet", partners: 1 << 2}
		g := sc.play(t)
		mine := g.rs.known[0].Cards(g.ed)[0]
		wantRejected(t, g, Action{Kind: ActPlay, Seat: 0, Card: CardOf(Modern, 3)}, ErrBadCard)
		wantRejected(t, g, Action{Kind: ActPlay, Seat: 0, Card: NoCard}, ErrBadCard)
		wantRejected(t, g, Action{Kind: ActPlay, Seat: 0, Card: mine, Hidden: true}, ErrBadAction)
		wantRejected(t, g, Action{Kind: ActPlay, Seat: 1, Card: mine}, ErrNotYourTurn)
		wantRejected(t, g, Action{Kind: ActPlay, Seat: 0, Card: g.rs.known[1].Cards(g.ed)[0]}, ErrIllegalCard)
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 0, Hidden: true}, ErrWrongPhase)
	})
}

func TestDealValidation(t *testing.T) {
	g := mustGame(t, Config{Edition: Classic, Players: 3})
	deck := Classic.Deck(3)
	t.Run("deck", func(t *testing.T) {
		bad := [][]Card{
			deck[1:],
			append(slices.Clone(deck[1:]), deck[2]),
			append(slices.Clone(deck[1:]), card(t, Classic, "red2")),
			append(slices.Clone(deck[1:]), CardOf(Modern, 0)),
		}
		for i, d := range bad {
			before := g.Clone()
			if err := g.DealDeck(d); err == nil || !reflect.DeepEqual(g, before) {
				t.Fatalf("bad deck %d: %v", i, err)
			}
		}
	})
	t.Run("hands", func(t *testing.T) {
		h0 := HandOf(deck[:12]...)
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 0, Hand: HandOf(deck[:11]...)}, ErrBadAction)
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 0, Hand: HandOf(deck[:11]...).Add(card(t, Classic, "red2"))}, ErrIllegalCard)
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 3, Hand: h0}, ErrBadAction)
		mustApply(t, g, Action{Kind: ActDeal, Seat: 1, Hand: h0})
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 1, Hand: HandOf(deck[12:24]...)}, ErrAlreadyActed)
		wantRejected(t, g, Action{Kind: ActDeal, Seat: 0, Hand: HandOf(deck[6:18]...)}, ErrIllegalCard)
		if err := g.DealDeck(deck); !errors.Is(err, ErrAlreadyActed) {
			t.Fatalf("DealDeck after a deal: %v", err)
		}
		if !slices.Equal(g.Waiting(), []int{0, 2}) || g.Turn() != -1 {
			t.Fatalf("waiting %v", g.Waiting())
		}
		mustApply(t, g, Action{Kind: ActDeal, Seat: 2, Hand: HandOf(deck[24:]...)})
		mustApply(t, g, Action{Kind: ActDeal, Seat: 0, Hand: HandOf(deck[12:24]...)})
		if g.Phase() != PhaseNjet {
			t.Fatalf("phase %s", g.Phase())
		}
	})
}

func TestCloneIsIndependent(t *testing.T) {
	g := mustGame(t, Config{Edition: Modern, Players: 5})
	if err := g.DealDeck(Modern.Deck(5)); err != nil {
		t.Fatal(err)
	}
	keep := g.Clone()
	c := g.Clone()
	for c.Phase() == PhaseNjet {
		mustApply(t, c, c.Legal(c.Turn())[0])
	}
	if !reflect.DeepEqual(g, keep) {
		t.Fatal("playing on a clone changed the original")
	}
}

func TestAuditRoundPreconditions(t *testing.T) {
	g := mustGame(t, Config{Edition: Modern, Players: 2})
	wantErr(t, g.AuditRound(Reveal{}), ErrWrongPhase)
	sc := scene{cfg: Config{Edition: Modern, Players: 2}, start: "bear", trump: "red", super: "njet"}
	g = sc.play(t)
	for g.Phase() == PhaseTricks {
		mustApply(t, g, g.Legal(g.Turn())[0])
	}
	wantErr(t, g.AuditRound(Reveal{}), ErrBadAction)
	r := revealOf(g)
	if g.History().Unused.Len() != 30 {
		t.Fatalf("unused %d", g.History().Unused.Len())
	}
	if err := g.AuditRound(r); err != nil {
		t.Fatal(err)
	}
	lie := cloneReveal(r)
	lie.Discards[1] = HandOf(r.Dealt[1].Cards(g.ed)[0])
	wantSeatError(t, g.AuditRound(lie), 1, ErrIllegalDiscard)
	lie = cloneReveal(r)
	lie.Passes[0] = r.Dealt[0].Cards(g.ed)[0]
	wantSeatError(t, g.AuditRound(lie), 0, ErrAudit)
	lie = cloneReveal(r)
	u := g.History().Unused.Cards(g.ed)[0]
	lie.Dealt[1] = lie.Dealt[1].Remove(lie.Dealt[1].Cards(g.ed)[0]).Add(u)
	wantSeatError(t, g.AuditRound(lie), 1, ErrAudit)
}
