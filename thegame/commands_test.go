package thegame

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

// Command cards of assignment version 1, by name, for readable tests.
const (
	stop27, stop52       Card = 27, 52
	skull31, skull55     Card = 31, 55
	three10, three34     Card = 10, 34
	silence13            Card = 13
	notrick17            Card = 17
	onepile20, onepile45 Card = 20, 45
	drawone24            Card = 24
	plain40, plain50     Card = 40, 50
)

func TestG_X1_Assignment(t *testing.T) {
	a := Assignment()
	if len(a) != 7 {
		t.Fatalf("%d commands, want 7", len(a))
	}
	var all Cards
	for _, k := range Commands() {
		cards := a[k]
		if len(cards) != CommandCards {
			t.Errorf("%s on %d cards, want %d", k, len(cards), CommandCards)
		}
		quarters := map[int]bool{}
		for _, c := range cards {
			if CommandOf(c) != k || all.Has(c) {
				t.Errorf("card %s: command %s, listed for %s", c, CommandOf(c), k)
			}
			all = all.Add(c)
			quarters[(int(c)-2)*4/DeckSize] = true
		}
		if len(quarters) != 4 {
			t.Errorf("%s on %v: not one card in each quarter of the range", k, cards)
		}
	}
	if all.Len() != 7*CommandCards {
		t.Errorf("%d command cards, want 28", all.Len())
	}
	for _, c := range []Card{stop27, skull31, three10, silence13, notrick17, onepile20, drawone24} {
		if CommandOf(c) == CmdNone {
			t.Errorf("the test names of %s are stale", c)
		}
	}
	for _, c := range []Card{plain40, plain50, 60, 61, 2, 99} {
		if CommandOf(c) != CmdNone {
			t.Errorf("%s carries %s, the tests take it for a plain number", c, CommandOf(c))
		}
	}
}

func TestG_X1_BaseGameIgnoresCommands(t *testing.T) {
	g := scene{cfg: Config{Players: 1}, hands: [][]Card{{stop27, skull31, 40}}, pile: []Card{95}}.build(t)
	must(t, g, play(0, stop27, 0), play(0, skull31, 0), end(0))
	if g.Phase() != PhaseDraw || len(g.View(0).InForce) != 0 {
		t.Fatalf("a base game obeyed a command: %s %v", g.Phase(), g.View(0).InForce)
	}
}

func TestG_X3_Stop(t *testing.T) {
	cfg := Config{Players: 2, Extreme: true}
	t.Run("as the first card the turn ends at once", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{stop27, 40, 41}, {70}}, pile: []Card{95, 96}}.build(t)
		must(t, g, play(0, stop27, 0))
		if s, ok := g.NeedDraw(); g.Phase() != PhaseDraw || !ok || s != 0 || g.due != 2 {
			t.Fatalf("after a first-card stop: %s, draw due %v for %d (%d cards)", g.Phase(), ok, s, g.due)
		}
		if err := g.Apply(play(0, 40, 0)); !errors.Is(err, ErrWrongPhase) {
			t.Fatalf("playing on after the stop: %v", err)
		}
	})
	t.Run("under 3! only as the third card", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{three10, stop27, 11, 12}, {70}}, pile: []Card{95, 96}}.build(t)
		must(t, g, play(0, three10, 0))
		if err := g.Apply(play(0, stop27, 0)); !errors.Is(err, ErrCommand) {
			t.Fatalf("stop as the second card under 3!: %v, want ErrCommand", err)
		}
		must(t, g, play(0, 11, 0), play(0, stop27, 0))
		if g.Phase() != PhaseDraw || g.due != 2 {
			t.Fatalf("after 3!, 11, stop: %s, %d due", g.Phase(), g.due)
		}
	})
	t.Run("not while a skull lies uncovered elsewhere", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{skull31, stop52, 40}, {70}}, tops: [NumPiles]int{30, 1, 100, 100}, pile: []Card{95}}.build(t)
		must(t, g, play(0, skull31, 0))
		if err := g.Apply(play(0, stop52, 1)); !errors.Is(err, ErrCommand) {
			t.Fatalf("stop elsewhere with a skull open: %v, want ErrCommand", err)
		}
		must(t, g, play(0, stop52, 0)) // covers the skull and ends the turn
		if g.Phase() != PhaseDraw {
			t.Fatalf("phase %s", g.Phase())
		}
	})
}

func TestG_X4_Skull(t *testing.T) {
	cfg := Config{Players: 1, Extreme: true}
	t.Run("must be covered in the same turn", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{skull31, 30, 70}}, tops: [NumPiles]int{1, 1, 32, 100}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 70, 0), play(0, skull31, 2))
		if err := g.Apply(end(0)); !errors.Is(err, ErrCommand) {
			t.Fatalf("ending with a skull on top: %v, want ErrCommand", err)
		}
		if !slices.Contains(g.View(0).InForce, CmdSkull) {
			t.Errorf("the skull is not listed in force: %v", g.View(0).InForce)
		}
		must(t, g, play(0, 30, 2))
		if g.Phase() != PhaseDraw {
			t.Fatalf("phase %s after covering the skull", g.Phase())
		}
	})
	t.Run("nothing can cover it: lost, and warned before", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{skull31, 50}}, tops: [NumPiles]int{30, 45, 32, 25}}.build(t)
		if k, lose := g.Warning(play(0, skull31, 2)); !lose || k != CmdSkull {
			t.Fatalf("Warning = %s, %v; want skull, true", k, lose)
		}
		if _, lose := g.Warning(play(0, 50, 0)); lose {
			t.Fatal("a safe card warns")
		}
		must(t, g, play(0, skull31, 2))
		r := g.Result()
		if g.Phase() != PhaseOver || r.Won || r.Broken != CmdSkull || r.CardsLeft != 1 || r.Rating() != RatingLost {
			t.Fatalf("%s %+v", g.Phase(), r)
		}
	})
	t.Run("a skull on the 98th card loses", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{skull55}}, tops: [NumPiles]int{50, 1, 100, 100}}.build(t)
		must(t, g, play(0, skull55, 0))
		r := g.Result()
		if g.Phase() != PhaseOver || r.Won || r.CardsLeft != 0 || r.Broken != CmdSkull || r.Rating() != RatingLost {
			t.Fatalf("%s %+v", g.Phase(), r)
		}
	})
}

func TestG_X5_Three(t *testing.T) {
	cfg := Config{Players: 2, Extreme: true}
	t.Run("exactly three cards, then the turn ends", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{three10, 11, 12, 14, 15}, {70}}, pile: []Card{95, 96, 97}}.build(t)
		must(t, g, play(0, three10, 0), play(0, 11, 0))
		if err := g.Apply(end(0)); !errors.Is(err, ErrCommand) {
			t.Fatalf("ending after 2 under 3!: %v, want ErrCommand", err)
		}
		must(t, g, play(0, 12, 0))
		if g.Phase() != PhaseDraw || g.due != 3 {
			t.Fatalf("after three cards: %s, %d due", g.Phase(), g.due)
		}
	})
	t.Run("as the fourth card it is refused", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{11, 12, 14, three34, 40}, {70}}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 11, 0), play(0, 12, 0), play(0, 14, 0))
		if err := g.Apply(play(0, three34, 0)); !errors.Is(err, ErrCommand) {
			t.Fatalf("3! as the fourth card: %v, want ErrCommand", err)
		}
	})
	t.Run("as the third card it is kept at once", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{11, 12, three34, 40}, {70}}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 11, 0), play(0, 12, 0), play(0, three34, 0))
		if g.Phase() != PhaseDraw {
			t.Fatalf("phase %s", g.Phase())
		}
	})
	t.Run("with two cards left the game is lost", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{three34, 40}, {70}}}.build(t)
		if k, lose := g.Warning(play(0, three34, 0)); !lose || k != CmdThree {
			t.Fatalf("Warning = %s, %v; want three, true", k, lose)
		}
		must(t, g, play(0, three34, 0))
		r := g.Result()
		if g.Phase() != PhaseOver || r.Broken != CmdThree || r.CardsLeft != 2 || r.Rating() != RatingLost {
			t.Fatalf("%s %+v", g.Phase(), r)
		}
	})
}

func TestG_X6_NoTalking(t *testing.T) {
	g := scene{cfg: Config{Players: 2, Extreme: true}, hands: [][]Card{{silence13, 14, 15}, {70}}, tops: [NumPiles]int{12, 1, 100, 100}, pile: []Card{95}}.build(t)
	must(t, g, Action{Kind: ActSignal, Seat: 1, Pile: 0, Signal: SignalMine})
	must(t, g, play(0, silence13, 0))
	if !g.View(1).Muted || g.CanSignal() {
		t.Fatal("no talking on top does not mute the signals")
	}
	if err := g.Apply(Action{Kind: ActSignal, Seat: 1, Pile: 2, Signal: SignalGood}); !errors.Is(err, ErrNoTalking) {
		t.Fatalf("a signal under no talking: %v, want ErrNoTalking", err)
	}
	if g.View(0).Signals[1][0] != SignalMine {
		t.Error("the muted signal is gone; it should stay, greyed out")
	}
	must(t, g, play(0, 14, 0))
	if g.View(1).Muted || !g.CanSignal() {
		t.Fatal("covered no talking still mutes")
	}
	must(t, g, Action{Kind: ActSignal, Seat: 1, Pile: 2, Signal: SignalGood})
}

func TestG_X7_NoTrick(t *testing.T) {
	g := scene{cfg: Config{Players: 2, Extreme: true}, hands: [][]Card{{notrick17, 18, 40, 60}, {70}}, tops: [NumPiles]int{16, 50, 100, 100}, pile: []Card{95}}.build(t)
	must(t, g, play(0, notrick17, 0))
	if err := g.Apply(play(0, 40, 1)); !errors.Is(err, ErrCommand) {
		t.Fatalf("a trick under no-trick: %v, want ErrCommand", err)
	}
	must(t, g, play(0, 18, 0), play(0, 40, 1))
}

func TestG_X8_OnePile(t *testing.T) {
	cfg := Config{Players: 2, Extreme: true}
	t.Run("visible at the start: the first card chooses the pile", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{60, 61, 62}, {70}}, tops: [NumPiles]int{onepile20.int(), 1, 100, 100}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 60, 1))
		if err := g.Apply(play(0, 61, 0)); !errors.Is(err, ErrCommand) {
			t.Fatalf("a second pile under one-pile: %v, want ErrCommand", err)
		}
		must(t, g, play(0, 61, 1), play(0, 62, 1))
	})
	t.Run("covering it frees the turn", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{21, 61, 62}, {70}}, tops: [NumPiles]int{onepile20.int(), 1, 100, 100}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 21, 0), play(0, 61, 1), play(0, 62, 3))
	})
	t.Run("played after a card on another pile it is refused", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{onepile45, 44, 70}, {71}}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 44, 0))
		if err := g.Apply(play(0, onepile45, 1)); !errors.Is(err, ErrCommand) {
			t.Fatalf("one-pile onto a second pile: %v, want ErrCommand", err)
		}
		must(t, g, play(0, onepile45, 0))
		if err := g.Apply(play(0, 70, 2)); !errors.Is(err, ErrCommand) {
			t.Fatalf("a second pile after one-pile: %v, want ErrCommand", err)
		}
	})
}

func (c Card) int() int { return int(c) }

func TestG_X9_DrawOne(t *testing.T) {
	cfg := Config{Players: 2, Extreme: true}
	t.Run("only one card after the turn", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{60, 61, 62, 63}, {70}}, tops: [NumPiles]int{1, 1, drawone24.int(), 100}, pile: []Card{95, 96, 97}}.build(t)
		must(t, g, play(0, 60, 0), play(0, 61, 0), play(0, 62, 0), end(0))
		if g.due != 1 {
			t.Fatalf("%d due under draw-one, want 1", g.due)
		}
	})
	t.Run("covered: back up to the full hand", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{23, 61, 62}, {70}}, tops: [NumPiles]int{1, 1, drawone24.int(), 100}, pile: []Card{95, 96, 97, 98, 99, 92, 93, 91}}.build(t)
		must(t, g, play(0, 23, 2), play(0, 61, 0), end(0))
		if g.due != 6 {
			t.Fatalf("%d due, want 6 (back up to a full hand of 7)", g.due)
		}
	})
	t.Run("while the draw pile runs out", func(t *testing.T) {
		g := scene{cfg: cfg, hands: [][]Card{{60, 61, 62}, {70, 71}}, tops: [NumPiles]int{1, 1, drawone24.int(), 100}, pile: []Card{95}}.build(t)
		must(t, g, play(0, 60, 0), play(0, 61, 0), end(0), draw(0, 95))
		if g.DrawPile() != 0 || g.Turn() != 1 || g.Position().Min() != 1 {
			t.Fatalf("pile %d, turn %d, min %d", g.DrawPile(), g.Turn(), g.Position().Min())
		}
		must(t, g, play(1, 70, 0), end(1))
		if g.Phase() != PhasePlay || g.Turn() != 0 {
			t.Fatalf("with the pile gone nothing is drawn: %s, turn %d", g.Phase(), g.Turn())
		}
	})
}

func TestG_X10_TwoLastingCommandsOnDifferentPiles(t *testing.T) {
	g := scene{cfg: Config{Players: 2, Extreme: true}, hands: [][]Card{{60, 50, 61, 65, 66}, {70}},
		tops: [NumPiles]int{notrick17.int(), 1, onepile20.int(), 100}, pile: []Card{95}}.build(t)
	v := g.View(0).InForce
	if !slices.Contains(v, CmdNoTrick) || !slices.Contains(v, CmdOnePile) {
		t.Fatalf("in force: %v", v)
	}
	must(t, g, play(0, 60, 1))
	if err := g.Apply(play(0, 50, 1)); !errors.Is(err, ErrCommand) {
		t.Fatalf("trick under no-trick: %v", err)
	}
	if err := g.Apply(play(0, 61, 3)); !errors.Is(err, ErrCommand) {
		t.Fatalf("second pile under one-pile: %v", err)
	}
	must(t, g, play(0, 65, 1), end(0))
}

func TestG_S1_Signals(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			g := scene{cfg: Config{Players: 3, Extreme: v.extreme}, hands: [][]Card{{60, 61, 66}, {62, 63, 67}, {64, 65, 68}}, pile: []Card{90, 91, 92, 93, 94, 95, 96, 97, 98, 99}}.build(t)
			must(t, g, Action{Kind: ActSignal, Seat: 2, Pile: 1, Signal: SignalMine}, Action{Kind: ActSignal, Seat: 0, Pile: 3, Signal: SignalGood})
			for s := range 3 {
				if sig := g.View(s).Signals; sig[2][1] != SignalMine || sig[0][3] != SignalGood {
					t.Fatalf("seat %d sees %v", s, sig)
				}
			}
			must(t, g, play(0, 60, 0), play(0, 61, 0), end(0))
			drawDue(t, g)
			if g.Signals(0)[3] != SignalGood || g.Signals(2)[1] != SignalMine {
				t.Fatal("a signal vanished before its seat's next turn")
			}
			must(t, g, play(1, 62, 0), play(1, 63, 0), end(1))
			drawDue(t, g)
			if g.Turn() != 2 || g.Signals(2)[1] != SignalNone || g.Signals(0)[3] != SignalGood {
				t.Fatalf("at seat 2's turn: its signals %v, seat 0's %v", g.Signals(2), g.Signals(0))
			}
			for _, bad := range []Action{{Kind: ActSignal, Seat: 1, Pile: 4, Signal: SignalMine}, {Kind: ActSignal, Seat: 1, Pile: 0, Signal: 9}, {Kind: ActSignal, Seat: 3, Pile: 0, Signal: SignalMine}} {
				if err := g.Apply(bad); !errors.Is(err, ErrBadAction) {
					t.Errorf("%+v: %v, want ErrBadAction", bad, err)
				}
			}
		})
	}
}

func TestApplyRejectsInOrderAndChangesNothing(t *testing.T) {
	g := dealt(t, Config{Players: 2, Extreme: true}, shuffled(3))
	over := scene{cfg: Config{Players: 1}, hands: [][]Card{{40}}}.build(t)
	must(t, over, play(0, 40, 0))
	fresh, _ := NewGame(Config{Players: 2})
	h0 := g.Hand(0)
	h1 := g.Hand(1)
	cases := []struct {
		name string
		g    *Game
		a    Action
		want error
	}{
		{"over", over, play(0, 40, 0), ErrGameOver},
		{"unknown kind", g, Action{Kind: 9}, ErrBadAction},
		{"bad seat", g, play(2, h0[0], 0), ErrBadAction},
		{"draw in play", g, draw(0, h0[0]), ErrWrongPhase},
		{"play in the deal", fresh, play(0, 2, 0), ErrWrongPhase},
		{"signal in the deal", fresh, Action{Kind: ActSignal, Seat: 0}, ErrWrongPhase},
		{"draw for the wrong seat", fresh, draw(1, 2), ErrNotYourTurn},
		{"draw a bad card", fresh, draw(0, 100), ErrBadCard},
		{"not on turn", g, play(1, h1[0], 0), ErrNotYourTurn},
		{"not in hand", g, play(0, h1[0], 0), ErrNotInHand},
		{"bad pile", g, play(0, h0[0], 7), ErrBadAction},
		{"end too early", g, end(0), ErrTooFew},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.g
			if err := tc.g.Apply(tc.a); !errors.Is(err, tc.want) {
				t.Fatalf("%+v: %v, want %v", tc.a, err, tc.want)
			}
			if !reflect.DeepEqual(before, *tc.g) {
				t.Fatal("a rejected action changed the game")
			}
		})
	}
	must(t, fresh, draw(0, 2))
	if err := fresh.Apply(draw(0, 2)); !errors.Is(err, ErrDrawn) {
		t.Fatalf("the same card drawn twice: %v", err)
	}
}

func TestG_B8_Rating(t *testing.T) {
	cases := []struct {
		r    Result
		want Rating
	}{
		{Result{Won: true}, RatingWon},
		{Result{CardsLeft: 1}, RatingExcellent},
		{Result{CardsLeft: 9}, RatingExcellent},
		{Result{CardsLeft: 10}, RatingPlayOn},
		{Result{CardsLeft: 0, Broken: CmdSkull}, RatingLost},
	}
	for _, tc := range cases {
		if got := tc.r.Rating(); got != tc.want || got.Words() == "" {
			t.Errorf("%+v: rating %d %q, want %d", tc.r, got, got.Words(), tc.want)
		}
	}
}
