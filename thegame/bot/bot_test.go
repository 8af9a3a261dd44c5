package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/njetlan/njet/thegame"
)

// view builds the view of seat 0 on turn with the given hand and pile tops;
// played lists the cards already on the piles (the tops are added).
func view(t *testing.T, players int, hand []thegame.Card, tops [4]int, drawPile int, played ...thegame.Card) *thegame.View {
	t.Helper()
	v := &thegame.View{Seat: 0, Players: players, HandSize: thegame.HandSize(players), Phase: thegame.PhasePlay,
		Hand: hand, DrawPile: drawPile, Signals: make([][thegame.NumPiles]thegame.Signal, players)}
	for i := range v.Piles {
		v.Piles[i] = thegame.Pile{Up: i < 2, Top: tops[i]}
		if c := thegame.Card(tops[i]); c.Valid() {
			v.Played = v.Played.Add(c)
		}
	}
	for _, c := range played {
		v.Played = v.Played.Add(c)
	}
	for range players {
		v.HandSizes = append(v.HandSizes, len(hand))
	}
	return v
}

// turn asks p for actions until it ends the turn, applying them to a copy
// of the view's position, and returns the plays.
func turn(t *testing.T, p Player, v *thegame.View) []thegame.Action {
	t.Helper()
	var plays []thegame.Action
	pos := v.Position()
	for range 20 {
		a := p.Act(v)
		if a.Kind == thegame.ActEnd {
			if err := pos.CheckEnd(); err != nil {
				t.Fatalf("%s ends a turn it may not end: %v", p.Name(), err)
			}
			return plays
		}
		if a.Kind != thegame.ActPlay {
			t.Fatalf("action %+v", a)
		}
		if err := pos.CheckPlay(a.Card, a.Pile); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		pos.Play(a.Card, a.Pile)
		plays = append(plays, a)
		v.Hand = pos.Hand.List()
		v.Piles = pos.Piles
		v.Played = v.Played.Add(a.Card)
		v.PlayedThisTurn, v.OnPiles, v.Three = pos.Played, pos.OnPiles, pos.Three
		if pos.Stopped || !pos.CanPlayAny() {
			return plays
		}
	}
	t.Fatal("the turn does not end")
	return nil
}

func TestNew(t *testing.T) {
	for _, k := range Kinds() {
		if p, err := New(k, k != "coop-silent"); err != nil || p.Name() != k {
			t.Errorf("New(%q) = %v, %v", k, p, err)
		}
	}
	if _, err := New("oracle", true); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestGreedySmallestStepTrickFirst(t *testing.T) {
	cases := []struct {
		name string
		hand []thegame.Card
		tops [4]int
		want []thegame.Action
	}{
		{"smallest steps", []thegame.Card{20, 50, 80, 90}, [4]int{15, 45, 93, 60},
			[]thegame.Action{{Kind: thegame.ActPlay, Card: 90, Pile: 2}, {Kind: thegame.ActPlay, Card: 20, Pile: 0}}},
		{"tricks first, and after the minimum", []thegame.Card{35, 70, 80, 25}, [4]int{45, 2, 60, 100},
			[]thegame.Action{{Kind: thegame.ActPlay, Card: 35, Pile: 0}, {Kind: thegame.ActPlay, Card: 25, Pile: 0}, {Kind: thegame.ActPlay, Card: 70, Pile: 2}, {Kind: thegame.ActPlay, Card: 80, Pile: 2}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := turn(t, Greedy{}, view(t, 2, tc.hand, tc.tops, 30))
			for i := range got {
				got[i].Seat = 0
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("plays %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCoopCountsPlayedCards(t *testing.T) {
	// 30 and 31 would both do on the rising pile at 20; 30 jumps over
	// 21..29, all already played, so it costs nothing, while 60 on the
	// falling pile at 70 jumps over live cards.
	played := []thegame.Card{21, 22, 23, 24, 25, 26, 27, 28, 29}
	v := view(t, 2, []thegame.Card{30, 60, 99, 98}, [4]int{20, 90, 70, 100}, 30, played...)
	plays := turn(t, NewCoop(false), v)
	if len(plays) < 2 || plays[0].Card != 30 && plays[1].Card != 30 {
		t.Fatalf("plays %v, want 30 on pile 0 among the first", plays)
	}
	for _, a := range plays {
		if a.Card == 60 {
			t.Errorf("laid 60 over live cards: %v", plays)
		}
	}
}

func TestCoopPlaysTrickAndKeepsMinimumWhenTight(t *testing.T) {
	v := view(t, 3, []thegame.Card{40, 71, 80, 15, 16, 85}, [4]int{50, 60, 70, 30}, 40)
	plays := turn(t, NewCoop(false), v)
	if len(plays) != 2 {
		t.Fatalf("plays %v, want the minimum of 2 (the trick and the least bad)", plays)
	}
	if plays[0].Card != 40 && plays[1].Card != 40 {
		t.Errorf("plays %v: the trick 40 on pile 0 is missing", plays)
	}
}

func TestCoopSignals(t *testing.T) {
	v := view(t, 3, []thegame.Card{51, 75, 5, 6, 7, 8}, [4]int{50, 40, 90, 60}, 40)
	sig := NewCoop(true).Talk(v)
	want := map[int]thegame.Signal{0: thegame.SignalMine}
	got := map[int]thegame.Signal{}
	for _, a := range sig {
		if a.Kind != thegame.ActSignal || a.Seat != 0 {
			t.Fatalf("signal action %+v", a)
		}
		got[a.Pile] = a.Signal
	}
	if got[0] != want[0] {
		t.Errorf("signals %v, want mine on pile 0 (51 on 50)", got)
	}
	if NewCoop(false).Talk(v) != nil {
		t.Error("a player without signals talks")
	}
	v.Muted = true
	if NewCoop(true).Talk(v) != nil {
		t.Error("talks under no talking")
	}
}

func TestCoopReadsSignals(t *testing.T) {
	// 55 could go on pile 0 (at 50) or pile 1 (at 48) at nearly the same
	// cost; seat 1 asks to keep pile 0.
	mk := func() *thegame.View {
		return view(t, 2, []thegame.Card{55, 95, 94, 93, 92, 91, 3}, [4]int{50, 48, 97, 100}, 30, 49)
	}
	v := mk()
	v.Signals[1][0] = thegame.SignalMine
	plays := turn(t, NewCoop(true), v)
	for _, a := range plays {
		if a.Card == 55 && a.Pile == 0 {
			t.Errorf("laid 55 on the pile seat 1 keeps: %v", plays)
		}
	}
}

func TestCoopEndgameLongestRunAlone(t *testing.T) {
	// Alone with the draw pile gone: 60 must go before the trick 50 on the
	// rising pile, and 65 after it: all four cards can go.
	v := view(t, 1, []thegame.Card{50, 60, 65, 20}, [4]int{55, 90, 10, 100}, 0)
	plays := turn(t, NewCoop(false), v)
	if len(plays) != 4 {
		t.Fatalf("plays %v, want all four", plays)
	}
}

// TestBotsDeterministicAndLegal plays whole games with both bots in both
// variants twice and checks they make the same moves.
func TestBotsDeterministicAndLegal(t *testing.T) {
	for _, kind := range Kinds() {
		for _, extreme := range []bool{false, true} {
			for n := 1; n <= 5; n++ {
				t.Run(fmt.Sprintf("%s/extreme=%v/%dp", kind, extreme, n), func(t *testing.T) {
					var runs [2][]thegame.Action
					for k := range runs {
						runs[k] = playOut(t, kind, n, extreme, uint64(n))
					}
					if !reflect.DeepEqual(runs[0], runs[1]) {
						t.Fatal("the same deal played twice went differently")
					}
				})
			}
		}
	}
}

func playOut(t *testing.T, kind string, n int, extreme bool, seed uint64) []thegame.Action {
	t.Helper()
	g, err := thegame.NewGame(thegame.Config{Players: n, Extreme: extreme})
	if err != nil {
		t.Fatal(err)
	}
	deck := thegame.Deck()
	rand.New(rand.NewPCG(seed, 3)).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	players := make([]Player, n)
	for s := range players {
		players[s], _ = New(kind, true)
	}
	var log []thegame.Action
	for range 5000 {
		if err := g.Feed(deck); err != nil {
			t.Fatal(err)
		}
		if g.Phase() == thegame.PhaseOver {
			return log
		}
		for s := range n {
			v := g.View(s)
			for _, a := range players[s].Talk(&v) {
				if g.CanSignal() {
					if err := g.Apply(a); err != nil {
						t.Fatalf("%s: %v", a, err)
					}
				}
			}
		}
		v := g.View(g.Turn())
		a := players[g.Turn()].Act(&v)
		if err := g.Apply(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		log = append(log, a)
	}
	t.Fatal("the game did not end")
	return nil
}

func TestCoopExtremeDrawOneKeepsMinimum(t *testing.T) {
	// 88 to 93 jump only over played numbers on the rising pile at 84: free
	// cards, laid all at once normally, but not when only one card will be
	// drawn after the turn.
	played := []thegame.Card{85, 86, 87, 90}
	hand := []thegame.Card{2, 88, 89, 91, 92, 93}
	for _, tc := range []struct {
		name    string
		top2    int
		atMost2 bool
	}{{"no command on top", 30, false}, {"draw one on top", 24, true}} {
		t.Run(tc.name, func(t *testing.T) {
			v := view(t, 3, append([]thegame.Card(nil), hand...), [4]int{84, 1, tc.top2, 100}, 40, played...)
			v.Extreme = true
			for i := range v.Piles {
				if c := thegame.Card(v.Piles[i].Top); c.Valid() {
					v.Piles[i].Cmd = thegame.CommandOf(c)
				}
			}
			plays := turn(t, NewCoop(false), v)
			if got := len(plays) <= 2; got != tc.atMost2 {
				t.Errorf("%d cards laid: %v", len(plays), plays)
			}
		})
	}
}

func TestCoopExtremeCoversItsSkull(t *testing.T) {
	// The cheap cards are the skull 31 and 32 on the rising pile at 30; the
	// plan must cover the skull within the turn (turn checks the end).
	v := view(t, 2, []thegame.Card{31, 32, 95, 96, 5, 4, 3}, [4]int{30, 80, 20, 25}, 30)
	v.Extreme = true
	plays := turn(t, NewCoop(false), v)
	if len(plays) < 2 {
		t.Fatalf("plays %v", plays)
	}
}
