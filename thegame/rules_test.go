package thegame

import (
	"errors"
	"fmt"
	"testing"
)

var variants = []struct {
	name    string
	extreme bool
}{{"base", false}, {"extreme", true}}

func TestG_B1_B2_DealEveryPlayerCount(t *testing.T) {
	want := map[int]int{1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
	for _, v := range variants {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%dp", v.name, n), func(t *testing.T) {
				g := dealt(t, Config{Players: n, Extreme: v.extreme}, shuffled(uint64(n)))
				if g.Phase() != PhasePlay || g.Turn() != 0 {
					t.Fatalf("after the deal: phase %s, turn %d", g.Phase(), g.Turn())
				}
				for s := range n {
					if got := len(g.Hand(s)); got != want[n] {
						t.Errorf("seat %d holds %d cards, want %d", s, got, want[n])
					}
				}
				if got := g.DrawPile(); got != DeckSize-n*want[n] {
					t.Errorf("draw pile %d, want %d", got, DeckSize-n*want[n])
				}
				p := g.Piles()
				if p != startPiles() || !p[0].Up || !p[1].Up || p[2].Up || p[3].Up || p[0].Top != 1 || p[2].Top != 100 {
					t.Errorf("piles at the start: %+v", p)
				}
			})
		}
	}
	for _, n := range []int{-1, 0, 6} {
		if _, err := NewGame(Config{Players: n}); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%d players: error %v, want ErrBadConfig", n, err)
		}
	}
}

func TestG_B4_Fits(t *testing.T) {
	up := Pile{Up: true, Top: 47}
	down := Pile{Top: 47}
	cases := []struct {
		p           Pile
		c           Card
		ok, trick   bool
		name        string
		wantGapSign int
	}{
		{up, 48, true, false, "rising: one higher", 1},
		{up, 99, true, false, "rising: far higher", 1},
		{up, 37, true, true, "rising: exactly ten back", -1},
		{up, 46, false, false, "rising: lower", -1},
		{up, 36, false, false, "rising: eleven back", -1},
		{down, 46, true, false, "falling: one lower", 1},
		{down, 2, true, false, "falling: far lower", 1},
		{down, 57, true, true, "falling: exactly ten back", -1},
		{down, 48, false, false, "falling: higher", -1},
		{Pile{Up: true, Top: 1}, 2, true, false, "rising starter", 1},
		{Pile{Top: 100}, 99, true, false, "falling starter", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, trick := tc.p.Fits(tc.c)
			if ok != tc.ok || trick != tc.trick {
				t.Errorf("Fits(%s) = %v, %v; want %v, %v", tc.c, ok, trick, tc.ok, tc.trick)
			}
			if g := tc.p.Gap(tc.c); (g > 0) != (tc.wantGapSign > 0) {
				t.Errorf("Gap(%s) = %d", tc.c, g)
			}
		})
	}
}

func TestG_B4_TrickManyTimesOnAnyPile(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			// 50 → 40 → 30 on a rising pile, 60 → 70 on a falling one: all
			// plain numbers in the Extreme assignment too.
			g := scene{cfg: Config{Players: 2, Extreme: v.extreme}, hands: [][]Card{{40, 30, 70, 2}, {5}},
				tops: [NumPiles]int{50, 1, 60, 100}, pile: []Card{91, 92, 93}}.build(t)
			must(t, g, play(0, 40, 0), play(0, 30, 0), play(0, 70, 2), end(0))
			if p := g.Piles(); p[0].Top != 30 || p[2].Top != 70 {
				t.Errorf("piles after three tricks: %+v", p)
			}
		})
	}
}

func TestG_B3_MinimumAndDrawBackUp(t *testing.T) {
	for _, v := range variants {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%dp", v.name, n), func(t *testing.T) {
				// Plain numbers only, so the commands play no part here.
				hand := []Card{2, 4, 5, 7, 8, 9, 11, 12}[:HandSize(n)]
				hands := [][]Card{hand}
				next := Card(14)
				for s := 1; s < n; s++ {
					var h []Card
					for len(h) < HandSize(n) {
						if CommandOf(next) == CmdNone {
							h = append(h, next)
						}
						next++
					}
					hands = append(hands, h)
				}
				g := scene{cfg: Config{Players: n, Extreme: v.extreme}, hands: hands, pile: []Card{95, 96, 98, 99}}.build(t)
				must(t, g, play(0, 2, 0))
				if err := g.Apply(end(0)); !errors.Is(err, ErrTooFew) {
					t.Fatalf("end after one card with a draw pile: %v, want ErrTooFew", err)
				}
				must(t, g, play(0, 4, 0), play(0, 5, 0), end(0))
				if s, ok := g.NeedDraw(); !ok || s != 0 || g.due != 3 {
					t.Fatalf("after three cards: draw due %v for seat %d, %d cards; want 3 for seat 0", ok, s, g.due)
				}
				must(t, g, draw(0, 95), draw(0, 96), draw(0, 98))
				if len(g.Hand(0)) != HandSize(n) || g.Turn() != 1%n {
					t.Fatalf("hand %v, turn %d", g.Hand(0), g.Turn())
				}
				// The last card of the draw pile: from then on one card is enough.
				s := g.Turn()
				h := g.Hand(s)
				must(t, g, play(s, h[0], 0), play(s, h[1], 0), end(s), draw(s, 99))
				if g.DrawPile() != 0 {
					t.Fatalf("draw pile %d", g.DrawPile())
				}
				s = g.Turn()
				must(t, g, play(s, g.Hand(s)[len(g.Hand(s))-1], 1), end(s))
				if g.Phase() != PhasePlay || g.Turn() != (s+1)%n {
					t.Fatalf("after one card with the pile gone: phase %s, turn %d", g.Phase(), g.Turn())
				}
			})
		}
	}
}

func TestG_B5_EmptyHandSitsOut(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			g := scene{cfg: Config{Players: 3, Extreme: v.extreme}, hands: [][]Card{{50}, {51, 52}, {53, 54}}, pile: nil}.build(t)
			must(t, g, play(0, 50, 0))
			if g.Turn() != 1 || g.Phase() != PhasePlay {
				t.Fatalf("turn %d phase %s", g.Turn(), g.Phase())
			}
			must(t, g, play(1, 51, 1), end(1), play(2, 53, 0), end(2))
			if g.Turn() != 1 {
				t.Fatalf("seat 0 with an empty hand was not skipped: turn %d", g.Turn())
			}
			must(t, g, play(1, 52, 1))
			if g.Turn() != 2 {
				t.Fatalf("turn %d, want 2", g.Turn())
			}
			must(t, g, play(2, 54, 0))
			if g.Phase() != PhaseOver || !g.Result().Won || g.Result().CardsLeft != 0 || g.Result().Rating() != RatingWon {
				t.Fatalf("all played: %s %+v", g.Phase(), g.Result())
			}
		})
	}
}

func TestG_B6_EndsWhenMinimumCannotBePlayed(t *testing.T) {
	cases := []struct {
		name  string
		hand  []Card
		pile  []Card
		tops  [NumPiles]int
		over  bool
		left  int
		after []Action
	}{
		{name: "nothing fits", hand: []Card{40, 60}, tops: [NumPiles]int{75, 75, 25, 25}, pile: []Card{95}, over: true, left: 3},
		{name: "one fits, two needed", hand: []Card{40, 80}, tops: [NumPiles]int{75, 75, 25, 25}, pile: []Card{95}, over: true, left: 3},
		{name: "one fits, pile empty", hand: []Card{40, 80}, tops: [NumPiles]int{75, 75, 25, 25}, over: false},
		{name: "the order matters but exists", hand: []Card{60, 65}, tops: [NumPiles]int{70, 70, 30, 30}, pile: []Card{95}, over: false},
		{name: "stuck after a careless first card", hand: []Card{60, 75}, tops: [NumPiles]int{70, 90, 30, 30}, pile: []Card{95}, over: true, left: 2,
			after: []Action{play(0, 75, 0)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := scene{cfg: Config{Players: 1}, hands: [][]Card{tc.hand}, tops: tc.tops, pile: tc.pile}.build(t)
			if len(tc.after) > 0 {
				// 60 (the trick) then 75 would do; 75 first leaves 60 nowhere.
				if _, lose := g.Warning(play(0, 60, 0)); lose {
					t.Fatal("the trick that keeps the turn going warns")
				}
				if k, lose := g.Warning(tc.after[0]); !lose || k != CmdNone {
					t.Fatalf("Warning(%s) = %v, %v; want none, true", tc.after[0], k, lose)
				}
				must(t, g, tc.after...)
			}
			if got := g.Phase() == PhaseOver; got != tc.over {
				t.Fatalf("over %v, want %v", got, tc.over)
			}
			if tc.over && (g.Result().CardsLeft != tc.left || g.Result().Won || g.Result().Broken != CmdNone) {
				t.Fatalf("result %+v, want %d left", g.Result(), tc.left)
			}
		})
	}
}

func TestCardsCountBetween(t *testing.T) {
	var s Cards
	for _, c := range []Card{2, 10, 63, 64, 65, 99} {
		s = s.Add(c)
	}
	for _, tc := range []struct{ a, b, want int }{
		{1, 100, 6}, {100, 1, 6}, {2, 10, 0}, {1, 11, 2}, {62, 66, 3}, {63, 64, 0}, {10, 10, 0}, {-5, 3, 1}, {98, 200, 1},
	} {
		if got := s.CountBetween(tc.a, tc.b); got != tc.want {
			t.Errorf("CountBetween(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestBadInputNeverPanics(t *testing.T) {
	var s Cards
	s = s.Add(200).Remove(255)
	if s.Has(200) || s.Len() != 0 {
		t.Errorf("a set holds a number above 127: %v", s)
	}
	p := Position{Piles: startPiles(), DrawPile: 10}
	p.Play(200, 9)
	p.Play(50, -1)
	if p.Played != 0 || p.Piles != startPiles() {
		t.Errorf("Play with no such card or pile changed the position: %+v", p)
	}
	for _, c := range []Card{0, 1, 100, 255} {
		if err := p.CheckPlay(c, 0); !errors.Is(err, ErrBadCard) {
			t.Errorf("CheckPlay(%d): %v, want ErrBadCard", c, err)
		}
	}
	if _, err := ParseCommand("jump"); !errors.Is(err, ErrBadAction) {
		t.Errorf("ParseCommand: %v", err)
	}
	if _, err := ParseSignal("42"); !errors.Is(err, ErrBadAction) {
		t.Errorf("ParseSignal: %v", err)
	}
	g, _ := NewGame(Config{Players: 2})
	if g.Hand(-1) != nil || g.Hand(2) != nil || g.View(5).Players != 0 || g.Signals(9) != ([NumPiles]Signal{}) {
		t.Error("a bad seat gave something")
	}
}
