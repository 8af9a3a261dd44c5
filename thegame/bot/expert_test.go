package bot

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/njetlan/njet/thegame"
)

func TestHomesValueCountsPiles(t *testing.T) {
	// Rising piles at 10 and 50, falling ones at 90 and 60.
	p := thegame.Position{Piles: [4]thegame.Pile{{Up: true, Top: 10}, {Up: true, Top: 50}, {Top: 90}, {Top: 60}}}
	jg := Judgement{Home: [5]float64{100, 10, 1, 0.1, 0}, Hand: 1}
	for _, tc := range []struct {
		card thegame.Card
		want float64
	}{
		{55, 0},   // every pile
		{30, 0.1}, // not the rising pile at 50
		{80, 0.1}, // not the falling pile at 60
		{95, 1},   // the rising piles only
		{5, 1},    // the falling piles only
		{40, 0},   // three piles, and the backwards trick on 50
		{70, 0},   // three piles, and the backwards trick on 60
	} {
		if got := jg.homesValue(&p, thegame.Cards{}.Add(tc.card), thegame.Cards{}); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("card %s: price %v, want %v", tc.card, got, tc.want)
		}
	}
	hand := thegame.Cards{}.Add(95)
	jg.Hand = 3
	if got := jg.homesValue(&p, hand.Add(5), hand); math.Abs(got-4) > 1e-9 {
		t.Errorf("95 in the hand and 5 unseen: price %v, want 3×1 + 1", got)
	}
}

// TestMoveCostIsTheChangeOfPrice checks the expert's cheap price of a move
// against the whole price before and after it, on random positions whose
// unplayed cards hold none a backwards trick would reach (the one place
// where the cheap price is an estimate).
func TestMoveCostIsTheChangeOfPrice(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	jg := DefaultJudgement()
	jg.Hand = 1.7
	checked := 0
	for range 3000 {
		var p thegame.Position
		var used thegame.Cards
		for i := range p.Piles {
			p.Piles[i] = thegame.Pile{Up: i < 2, Top: 1 + 99*(i/2)}
			if r.IntN(4) != 0 {
				c := thegame.Card(2 + r.IntN(98))
				if !used.Has(c) {
					used = used.Add(c)
					p.Piles[i].Top = int(c)
				}
			}
		}
		var rest, hand thegame.Cards
		for c := thegame.MinCard; c <= thegame.MaxCard; c++ {
			if !used.Has(c) && r.IntN(2) == 0 {
				rest = rest.Add(c)
				if r.IntN(5) == 0 {
					hand = hand.Add(c)
				}
			}
		}
		c := thegame.Card(2 + r.IntN(98))
		pile := r.IntN(4)
		if used.Has(c) || !hand.Has(c) {
			continue
		}
		if ok, _ := p.Piles[pile].Fits(c); !ok {
			continue
		}
		rest, hand = rest.Remove(c), hand.Remove(c)
		q := p
		q.Piles[pile].Top = int(c)
		for _, pos := range []*thegame.Position{&p, &q} {
			for _, pl := range pos.Piles {
				for _, x := range []int{pl.Top - 10, pl.Top + 10} {
					if x >= 2 && x <= 99 {
						rest, hand = rest.Remove(thegame.Card(x)), hand.Remove(thegame.Card(x))
					}
				}
			}
		}
		want := jg.homesValue(&q, rest, hand) - jg.homesValue(&p, rest, hand)
		if got := jg.moveCost(&p, c, pile, rest, hand); math.Abs(got-want) > 1e-9 {
			t.Fatalf("%s on pile %d of %+v: move cost %v, change of price %v", c, pile, p.Piles, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d moves checked", checked)
	}
}

func TestTenApart(t *testing.T) {
	var hand thegame.Cards
	for _, c := range []thegame.Card{12, 22, 32, 45, 54, 99} {
		hand = hand.Add(c)
	}
	if got := tenApart(hand); got != 2 {
		t.Errorf("tenApart = %d, want 2 (12-22, 22-32)", got)
	}
}

func TestExpertJumpsWhereTheCardsKeepAHome(t *testing.T) {
	// 15 on the rising pile at 10 takes from 11..14 one home of three; 55
	// on the one at 50 takes from 51..54 one home of four (they still fit
	// the pile at 10): the expert lays 55, with 99 as the free card.
	v := view(t, 2, []thegame.Card{15, 55, 99}, [4]int{10, 50, 100, 100}, 30)
	plays := turn(t, NewExpert(false), v)
	if len(plays) != 2 {
		t.Fatalf("plays %v, want two", plays)
	}
	for _, a := range plays {
		if a.Card == 15 {
			t.Errorf("plays %v: 15 on the lower rising pile", plays)
		}
	}
}

func TestExpertCoversItsSkull(t *testing.T) {
	v := view(t, 2, []thegame.Card{31, 32, 95, 96, 5, 4, 3}, [4]int{30, 80, 20, 25}, 30)
	v.Extreme = true
	if plays := turn(t, NewExpert(false), v); len(plays) < 2 {
		t.Fatalf("plays %v", plays)
	}
}

// TestExpertPlaysByTable plays Extreme games where the expert's turns are
// also planned by experts given its table's settings and the settings of
// no table: the first always agree with it; with others at the table the
// second do not always (the settings of the table change its play).
func TestExpertPlaysByTable(t *testing.T) {
	for _, n := range []int{1, 3} {
		differ := 0
		for game := range 6 {
			g, err := thegame.NewGame(thegame.Config{Players: n, Extreme: true})
			if err != nil {
				t.Fatal(err)
			}
			deck := thegame.Deck()
			r := rand.New(rand.NewPCG(uint64(n), uint64(game)))
			r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			players := make([]Player, n)
			for s := range players {
				players[s] = NewExpert(false)
			}
			w, jg := ExpertSettings(n, true)
			for step := 0; step < 400; step++ {
				if err := g.Feed(deck); err != nil {
					t.Fatal(err)
				}
				if g.Phase() == thegame.PhaseOver {
					break
				}
				s := g.Turn()
				v := g.View(s)
				a := NewExpert(false).Act(&v) // planned afresh, as the others
				if b := NewExpertLookahead(false, w, jg, ExpertLookahead(n, true)).Act(&v); b != a {
					t.Fatalf("%d players, game %d, step %d: %s, with the table's settings %s", n, game, step, a, b)
				}
				if b := NewExpertWeights(false, ExpertWeights(), DefaultJudgement()).Act(&v); b != a {
					differ++
				}
				if err := g.Apply(players[s].Act(&v)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if n > 1 && differ == 0 {
			t.Errorf("%d players: the table's settings never changed a play", n)
		}
	}
}
