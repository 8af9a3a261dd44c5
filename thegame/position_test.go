package thegame

import (
	"math/rand/v2"
	"testing"
)

// plainFeasible is Feasible's definition searched without memory or
// shortcuts: the reference the fast search must agree with.
func plainFeasible(p Position) bool {
	if p.CanEnd() {
		return true
	}
	for _, c := range p.Hand.List() {
		for pile := range NumPiles {
			if p.CanPlay(c, pile) {
				q := p
				q.Play(c, pile)
				if plainFeasible(q) {
					return true
				}
			}
		}
	}
	return false
}

// randomTurn returns an Extreme position part way through a turn: random
// tops (commands included), a hand of up to 7 cards and some plays made.
func randomTurn(r *rand.Rand) Position {
	p := Position{Piles: startPiles(), DrawPile: r.IntN(3) * 20, Extreme: r.IntN(4) != 0}
	var used Cards
	pick := func() Card {
		for {
			c := Card(2 + r.IntN(98))
			if !used.Has(c) {
				used = used.Add(c)
				return c
			}
		}
	}
	for i := range p.Piles {
		if r.IntN(3) != 0 {
			c := pick()
			p.Piles[i].Top = int(c)
			p.Piles[i].Cmd = p.command(c)
		}
	}
	for range 1 + r.IntN(7) {
		p.Hand = p.Hand.Add(pick())
	}
	for range r.IntN(3) {
		var opts [][2]int
		for _, c := range p.Hand.List() {
			for pile := range NumPiles {
				if p.CanPlay(c, pile) {
					opts = append(opts, [2]int{int(c), pile})
				}
			}
		}
		if len(opts) == 0 {
			break
		}
		o := opts[r.IntN(len(opts))]
		p.Play(Card(o[0]), o[1])
	}
	return p
}

func TestFeasibleAgreesWithPlainSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	counts := [2]int{}
	for i := range 20000 {
		p := randomTurn(r)
		want := plainFeasible(p)
		if got := p.Feasible(); got != want {
			t.Fatalf("position %d %+v: Feasible %v, the plain search %v", i, p, got, want)
		}
		if want {
			counts[1]++
		} else {
			counts[0]++
		}
	}
	if counts[0] < 100 || counts[1] < 100 {
		t.Errorf("too few of each answer to compare: %v", counts)
	}
}

// skullNothingCovers is a turn under a skull on pile 0 (at 98) that no
// card of a hand of 7 fits, the hand free to go on the other piles in many
// orders: the plain search's worst case.
func skullNothingCovers() Position {
	p := Position{Piles: startPiles(), DrawPile: 40, Extreme: true}
	p.Piles[0] = Pile{Up: true, Top: 98, Cmd: CmdSkull}
	p.Piles[1] = Pile{Up: true, Top: 2}
	for _, c := range []Card{40, 41, 43, 44, 46, 47, 50} {
		p.Hand = p.Hand.Add(c)
	}
	return p
}

func TestFeasibleSkullNothingCovers(t *testing.T) {
	p := skullNothingCovers()
	if CommandOf(98) == CmdSkull || p.Feasible() || plainFeasible(p) {
		t.Fatal("a skull nothing covers, yet the turn is feasible")
	}
}

// BenchmarkFeasible reports the time of one Feasible call on the worst
// case of the plain search (and of the plain search itself there) and on
// random turns.
func BenchmarkFeasible(b *testing.B) {
	b.Run("skull-nothing-covers", func(b *testing.B) {
		p := skullNothingCovers()
		for b.Loop() {
			p.Feasible()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/call")
	})
	b.Run("skull-nothing-covers/plain-search", func(b *testing.B) {
		p := skullNothingCovers()
		for b.Loop() {
			plainFeasible(p)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/call")
	})
	b.Run("random-turns", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 4))
		ps := make([]Position, 1000)
		for i := range ps {
			ps[i] = randomTurn(r)
		}
		i := 0
		for b.Loop() {
			ps[i%len(ps)].Feasible()
			i++
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/call")
	})
}
