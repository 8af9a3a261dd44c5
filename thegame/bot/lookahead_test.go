package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/njetlan/njet/thegame"
)

// turnPlayer plays each turn as a play-out of the lookahead does, to check
// play-outs against the engine.
type turnPlayer struct {
	on    *playOn
	plays []thegame.Action
}

func (*turnPlayer) Name() string                        { return "play-out" }
func (*turnPlayer) Talk(*thegame.View) []thegame.Action { return nil }

func (t *turnPlayer) Act(v *thegame.View) thegame.Action {
	p := v.Position()
	if v.PlayedThisTurn == 0 {
		var alive thegame.Cards
		for c := thegame.MinCard; c <= thegame.MaxCard; c++ {
			if !v.Played.Has(c) {
				alive = alive.Add(c)
			}
		}
		q := p
		t.plays = nil
		if t.on.turn(&q, &alive) {
			t.plays = append(t.plays, t.on.j.bestSeq...)
		}
	}
	if k := v.PlayedThisTurn; k < len(t.plays) {
		a := t.plays[k]
		a.Seat = v.Seat
		return a
	}
	if p.CanEnd() {
		return thegame.Action{Kind: thegame.ActEnd, Seat: v.Seat}
	}
	for _, c := range v.Hand { // no plan: the game ends with this card
		for pile := range thegame.NumPiles {
			if p.CanPlay(c, pile) {
				return thegame.Action{Kind: thegame.ActPlay, Seat: v.Seat, Card: c, Pile: pile}
			}
		}
	}
	return thegame.Action{}
}

// TestPlayOnKeepsTheRules plays whole games alone twice on the same deck
// with the same turns: once as a play-out of the lookahead, once with the
// engine. The play-out must end the game where the engine does (G-B3,
// G-B6, G-X2, G-X9), with as many cards left.
func TestPlayOnKeepsTheRules(t *testing.T) {
	for _, extreme := range []bool{false, true} {
		t.Run(fmt.Sprintf("extreme=%v", extreme), func(t *testing.T) {
			w, jg := ExpertSettings(1, extreme)
			for seed := range uint64(30) {
				deck := thegame.Deck()
				rand.New(rand.NewPCG(seed, 11)).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				on := &playOn{w: w, jg: &jg, handSize: 8, extreme: extreme, beam: 3, least: jg.leastStep()}
				start := thegame.Position{Piles: [thegame.NumPiles]thegame.Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}, Extreme: extreme}
				var all thegame.Cards
				for _, c := range deck {
					all = all.Add(c)
				}
				left, won := on.game(start, deck, all)

				g, err := thegame.NewGame(thegame.Config{Players: 1, Extreme: extreme})
				if err != nil {
					t.Fatal(err)
				}
				pl := &turnPlayer{on: &playOn{w: w, jg: &jg, handSize: 8, extreme: extreme, beam: 3, least: jg.leastStep()}}
				for step := 0; g.Phase() != thegame.PhaseOver; step++ {
					if err := g.Feed(deck); err != nil {
						t.Fatal(err)
					}
					if g.Phase() == thegame.PhaseOver {
						break
					}
					if step > 1000 {
						t.Fatal("the game does not end")
					}
					v := g.View(0)
					if err := g.Apply(pl.Act(&v)); err != nil {
						t.Fatalf("seed %d, step %d: %v", seed, step, err)
					}
				}
				r := g.Result()
				if r.CardsLeft != left || r.Won != won {
					t.Errorf("seed %d: the play-out leaves %d cards (won %v), the engine %d (won %v)", seed, left, won, r.CardsLeft, r.Won)
				}
			}
		})
	}
}

// TestLookaheadWithNothingHidden plays games alone to the end of the draw
// pile and there, where the turn draws every card left and nothing is
// hidden after it, checks that the lookahead lays the plan that, played
// on, leaves the fewest cards (a game not won counting Lost more), the
// cheapest one of those.
func TestLookaheadWithNothingHidden(t *testing.T) {
	for _, extreme := range []bool{false, true} {
		t.Run(fmt.Sprintf("extreme=%v", extreme), func(t *testing.T) {
			w, jg := ExpertSettings(1, extreme)
			look := ExpertLookahead(1, extreme)
			last := 2 // the turn's two cards draw them both
			if extreme {
				last = 1 // a stop or "draw one" draws one
			}
			checked := 0
			for seed := range uint64(100) {
				g, err := thegame.NewGame(thegame.Config{Players: 1, Extreme: extreme})
				if err != nil {
					t.Fatal(err)
				}
				deck := thegame.Deck()
				rand.New(rand.NewPCG(seed, 12)).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				b := NewExpertWeights(false, w, jg)
				for step := 0; step < 1000; step++ {
					if err := g.Feed(deck); err != nil {
						t.Fatal(err)
					}
					if g.Phase() == thegame.PhaseOver {
						break
					}
					v := g.View(0)
					if v.DrawPile <= last && (extreme || v.DrawPile > 0) {
						checked += checkNothingHidden(t, &v, w, jg, look)
					}
					if err := g.Apply(b.Act(&v)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if checked < 20 {
				t.Fatalf("%d turns checked: the test proves little", checked)
			}
		})
	}
}

// checkNothingHidden checks the lookahead's plan at v against the play-out
// of every plan it weighs, and returns 1 when there were two or more.
func checkNothingHidden(t *testing.T, v *thegame.View, w Weights, jg Judgement, look Lookahead) int {
	t.Helper()
	j := newJudge(v, w, false, &jg)
	p := v.Position()
	plays := look.plan(v, j, &p)
	if len(j.top) < 2 {
		return 0
	}
	on := &playOn{w: w, jg: &jg, handSize: v.HandSize, extreme: v.Extreme, beam: look.Beam, least: j.least, exactEnd: look.ExactEnd}
	want := 0
	var score []float64
	for i := range j.top {
		alive := j.alive
		for _, a := range j.top[i].plays {
			alive = alive.Remove(a.Card)
		}
		n, won := on.game(j.top[i].end, j.others.List(), alive)
		x := float64(n)
		if !won {
			x += look.Lost
		}
		score = append(score, x)
		if x < score[want] {
			want = i
		}
	}
	if !slices.Equal(plays, j.top[want].plays) {
		t.Fatalf("turn %d: the lookahead lays %v, the plan leaving the fewest cards is %v (scores %v)", v.Turns, plays, j.top[want].plays, score)
	}
	return 1
}

// BenchmarkPlayOn times the lookahead's play-out of a whole game alone
// from the first turn, on 50 seeded orders of the deck, and reports the
// time per turn played and the cards it leaves.
func BenchmarkPlayOn(b *testing.B) {
	for _, extreme := range []bool{false, true} {
		b.Run(fmt.Sprintf("extreme=%v", extreme), func(b *testing.B) {
			w, jg := ExpertSettings(1, extreme)
			look := ExpertLookahead(1, extreme)
			on := &playOn{w: w, jg: &jg, handSize: 8, extreme: extreme, beam: look.Beam, least: jg.leastStep(), exactEnd: look.ExactEnd}
			left := 0
			for i := 0; b.Loop(); i++ {
				deck := thegame.Deck()
				rand.New(rand.NewPCG(9, uint64(i%50))).Shuffle(len(deck), func(x, y int) { deck[x], deck[y] = deck[y], deck[x] })
				p := thegame.Position{Piles: [4]thegame.Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}, Extreme: extreme}
				var alive thegame.Cards
				for _, c := range deck {
					alive = alive.Add(c)
				}
				n, _ := on.game(p, deck, alive)
				left += n
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(max(on.turns, 1)), "µs/turn")
			b.ReportMetric(float64(left)/float64(b.N), "left")
		})
	}
}
