package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/njetlan/njet/engine"
)

// rolloutGame deals the given cards to their seats (the rest of the deck
// to the seats with room, never a colour the seat is barred from) and
// plays the Njet phase so that the fields of free are the ones left free.
// Seat 0 is the dealer.
func rolloutGame(t *testing.T, e engine.Edition, n int, held map[int][]string, barred map[int][]engine.Colour, free map[engine.Row]engine.Field) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(engine.Config{Edition: e, Players: n, FirstDealer: 0})
	if err != nil {
		t.Fatal(err)
	}
	size := e.HandSize(n)
	hands := make([]engine.Hand, n)
	var used engine.Hand
	for s, names := range held {
		h, err := engine.ParseHand(e, names)
		if err != nil {
			t.Fatal(err)
		}
		if h&used != 0 {
			t.Fatalf("seat %d is given a card of another seat", s)
		}
		hands[s], used = h, used|h
	}
	// The cards fewest seats may hold go first, so that the fill ends with
	// every hand full whenever the bars allow it.
	rest := slices.DeleteFunc(e.Deck(n), used.Has)
	allowed := func(c engine.Card) int {
		k := 0
		for s := range n {
			if !slices.Contains(barred[s], c.Colour()) {
				k++
			}
		}
		return k
	}
	slices.SortStableFunc(rest, func(a, b engine.Card) int { return allowed(a) - allowed(b) })
	for _, c := range rest {
		for s := range hands {
			if hands[s].Len() < size && !slices.Contains(barred[s], c.Colour()) {
				hands[s] = hands[s].Add(c)
				used = used.Add(c)
				break
			}
		}
	}
	for s, h := range hands {
		if h.Len() != size {
			t.Fatalf("seat %d holds %d cards, want %d", s, h.Len(), size)
		}
		if err := g.Apply(engine.Action{Kind: engine.ActDeal, Seat: s, Hand: h}); err != nil {
			t.Fatal(err)
		}
	}
	for steps := 0; g.Phase() == engine.PhaseNjet; steps++ {
		if steps > 40 {
			t.Fatal("the Njet phase does not end")
		}
		s := g.Waiting()[0]
		i := slices.IndexFunc(g.Legal(s), func(a engine.Action) bool {
			f, ok := free[a.Row]
			return !ok || a.Field != f
		})
		if err := g.Apply(g.Legal(s)[i]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// apply applies the actions or fails the test.
func apply(t *testing.T, g *engine.Game, as ...engine.Action) {
	t.Helper()
	for _, a := range as {
		if err := g.Apply(a); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
}

func playOf(t *testing.T, e engine.Edition, seat int, name string) engine.Action {
	t.Helper()
	c, err := engine.ParseCard(e, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Action{Kind: engine.ActPlay, Seat: seat, Card: c}
}

// policyChoice is the playout policy's action for the seat on turn.
func policyChoice(g *engine.Game, e engine.Edition, n int) engine.Action {
	ro := newRollout(e, e.Characters()[:n])
	s := g.Waiting()[0]
	ro.legal = g.AppendLegal(ro.legal[:0], s)
	return ro.choose(g, g.Phase(), s)
}

// Classic, start player seat 0 (the Bear), no discard, blue trump, no
// supertrump, 3 points.
var classicBlue3 = map[engine.Row]engine.Field{
	engine.RowStart: 0, engine.RowDiscard: engine.DiscardNjet,
	engine.RowTrump: 2, engine.RowSuper: engine.SuperNjet, engine.RowPoints: 2,
}

// TestRolloutTeam checks that the playout policy's start player (R-TEAM)
// takes the partner that promises it the most points: the strongest hand
// when tricks score, the weakest under -2 points.
func TestRolloutTeam(t *testing.T) {
	for _, tc := range []struct {
		name   string
		e      engine.Edition
		n      int
		held   map[int][]string
		trump  engine.Field
		points engine.Field
		want   uint8
	}{
		{"R-SCORE-1 Classic 4: the strongest partner", engine.Classic, 4, map[int][]string{
			1: {"red2", "red3", "red4", "red5", "black2", "black3", "black4", "green2", "green3", "green4"},
			2: {"blue9", "blue8", "blue7", "blue6", "blue5", "red9", "black9", "green9"},
		}, 2, 2, 1 << 2},
		{"R-SCORE-2 Classic 3: a strong start player plays alone", engine.Classic, 3, map[int][]string{
			0: {"blue9", "blue8", "blue7", "blue6", "blue5", "blue4", "red9", "black9", "green9", "red8", "black8", "green8"},
		}, 2, 2, 0},
		{"R-SCORE-1 Modern 4 under -2: the weakest partner", engine.Modern, 4, map[int][]string{
			1: {"red2", "red3", "red4", "red5", "red6", "red7", "red8", "yellow2", "yellow3", "yellow4", "yellow5", "yellow6", "yellow7", "yellow8", "green2"},
			2: {"blue13", "blue12", "blue11", "blue10", "blue9", "red13", "yellow13", "green13"},
		}, 0, 4, 1 << 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			free := map[engine.Row]engine.Field{
				engine.RowStart: 0, engine.RowDiscard: engine.DiscardNjet,
				engine.RowTrump: tc.trump, engine.RowSuper: engine.SuperNjet, engine.RowPoints: tc.points,
			}
			g := rolloutGame(t, tc.e, tc.n, tc.held, nil, free)
			if g.Phase() != engine.PhaseTeams {
				t.Fatalf("phase %s, want teams", g.Phase())
			}
			if got := policyChoice(g, tc.e, tc.n); got.Partners != tc.want {
				t.Fatalf("partners %#b, want %#b", got.Partners, tc.want)
			}
		})
	}
}

// TestRolloutTrickPlay pins choices of the playout policy in trick play
// (seats 0 and 2 against 1 and 3).
func TestRolloutTrickPlay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		held   map[int][]string
		barred map[int][]engine.Colour
		plays  []string // from seat 0
		want   string   // a card, or "a 1" or "no 1"
	}{
		{
			// Seat 1's red 9 takes the trick: a green 1 would be its
			// loot.
			name:   "R-LOOT gives no 1 to an opponent's trick",
			held:   map[int][]string{0: {"red7"}, 1: {"red9"}, 2: {"green1", "green5", "black4"}},
			barred: map[int][]engine.Colour{2: {engine.Red, engine.Blue}},
			plays:  []string{"red7", "red9"},
			want:   "no 1",
		},
		{
			name:   "R-LOOT sheds a 1 on a partner's trick nobody can take",
			held:   map[int][]string{0: {"red9"}, 1: {"red2"}, 2: {"green1", "green5", "black4"}, 3: {"red3"}},
			barred: map[int][]engine.Colour{2: {engine.Red, engine.Blue}, 3: {engine.Blue}},
			plays:  []string{"red9", "red2"},
			want:   "a 1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := rolloutGame(t, engine.Classic, 4, tc.held, tc.barred, classicBlue3)
			apply(t, g, engine.Action{Kind: engine.ActTeam, Seat: 0, Partners: 1 << 2, Bonus: -1})
			for i, name := range tc.plays {
				apply(t, g, playOf(t, engine.Classic, i, name))
			}
			got := policyChoice(g, engine.Classic, 4).Card
			ok := got.String() == tc.want
			switch tc.want {
			case "a 1":
				ok = got.Value() == 1
			case "no 1":
				ok = got.Value() != 1
			}
			if !ok {
				t.Fatalf("played %s, want %s", got, tc.want)
			}
		})
	}
}

// TestRolloutLegalAndDeterministic plays rounds from the deal to the end
// by the playout policy alone at every table: every action it chooses is
// legal (R-NJET, R-TEAM, R-DISCARD, R-TRICK-2), every round ends, and the
// same seed gives the same round.
func TestRolloutLegalAndDeterministic(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			deals := rand.New(rand.NewPCG(11, uint64(tc.n)))
			for deal := range 200 {
				deck := tc.e.Deck(tc.n)
				deals.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				var points [2][]int
				for run := range 2 {
					g, err := engine.NewGame(engine.Config{Edition: tc.e, Players: tc.n, FirstDealer: deal % tc.n})
					if err != nil {
						t.Fatal(err)
					}
					if err := g.DealDeck(deck); err != nil {
						t.Fatal(err)
					}
					ro := newRollout(tc.e, tc.e.Characters()[:tc.n])
					ro.pcg.Seed(uint64(deal), 3)
					for steps := 0; g.Phase() != engine.PhaseRoundOver && g.Phase() != engine.PhaseGameOver; steps++ {
						if steps > maxRolloutSteps {
							t.Fatalf("deal %d: the round does not end", deal)
						}
						s := g.Waiting()[0]
						legal := g.Legal(s)
						ro.legal = g.AppendLegal(ro.legal[:0], s)
						a := ro.choose(g, g.Phase(), s)
						if !slices.Contains(legal, a) {
							t.Fatalf("deal %d: %+v is not legal in phase %s", deal, a, g.Phase())
						}
						if err := g.Apply(a); err != nil {
							t.Fatalf("deal %d: %+v: %v", deal, a, err)
						}
					}
					for s := range tc.n {
						points[run] = append(points[run], g.RoundPoints(s))
					}
				}
				if !slices.Equal(points[0], points[1]) {
					t.Fatalf("deal %d: points %v, then %v with the same seed", deal, points[0], points[1])
				}
			}
		})
	}
}

// TestRolloutMargin checks the score of a playout: the seat's points in the
// round minus the mean of the other seats' points, so that a round in which
// every seat scores alike is worth nothing to the search. With two teams of
// two it is two thirds of the seat's team's lead.
func TestRolloutMargin(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 5}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			deals := rand.New(rand.NewPCG(13, uint64(tc.n)))
			nonzero := 0
			for deal := range 50 {
				deck := tc.e.Deck(tc.n)
				deals.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				g, err := engine.NewGame(engine.Config{Edition: tc.e, Players: tc.n, FirstDealer: deal % tc.n})
				if err != nil {
					t.Fatal(err)
				}
				if err := g.DealDeck(deck); err != nil {
					t.Fatal(err)
				}
				seat := deal % tc.n
				ro := newRollout(tc.e, tc.e.Characters()[:tc.n])
				ro.pcg.Seed(uint64(deal), 5)
				got := ro.run(g, seat)
				if g.Phase() != engine.PhaseRoundOver && g.Phase() != engine.PhaseGameOver {
					t.Fatalf("deal %d: the playout stopped in phase %s", deal, g.Phase())
				}
				own, sum := 0, 0
				for s := range tc.n {
					sum += g.RoundPoints(s)
				}
				own = g.RoundPoints(seat)
				want := float64(own) - float64(sum-own)/float64(tc.n-1)
				if math.Abs(got-want) > 1e-9 {
					t.Fatalf("deal %d: margin %v, want %v (points %d of %d)", deal, got, want, own, sum)
				}
				if tc.n == 4 {
					var team, opp int
					for s := range tc.n {
						if g.TeamOf(s) == g.TeamOf(seat) {
							team += g.RoundPoints(s)
						} else {
							opp += g.RoundPoints(s)
						}
					}
					if lead := float64(team-opp) / 3; math.Abs(got-lead) > 1e-9 {
						t.Fatalf("deal %d: margin %v, want a third of the lead of the team's %d points over %d", deal, got, team, opp)
					}
				}
				if got != 0 {
					nonzero++
				}
			}
			if nonzero == 0 {
				t.Fatal("every round gave a margin of 0")
			}
		})
	}
}
