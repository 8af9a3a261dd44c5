package bot

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/njetlan/njet/thegame"
)

func envInt(k string, d int) int {
	if s := os.Getenv(k); s != "" {
		n, _ := strconv.Atoi(s)
		return n
	}
	return d
}

func envFloat(k string, d float64) float64 {
	if s := os.Getenv(k); s != "" {
		n, _ := strconv.ParseFloat(s, 64)
		return n
	}
	return d
}

func tuneDeck(seed uint64, i int) []thegame.Card {
	d := thegame.Deck()
	rand.New(rand.NewPCG(seed, uint64(i))).Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
	return d
}

func init() {
	if os.Getenv("LOOK") != "" {
		tuneLook = envLook
	}
}

func tunePlayer(kind string, n int, extreme bool) Player {
	p, _ := New(kind, true)
	return p
}

func envLook(look *Lookahead) {
	look.Plans = envInt("K", look.Plans)
	look.Orders = envInt("N", look.Orders)
	look.Least = envInt("LEAST", look.Least)
	look.Turns = envInt("TURNS", look.Turns)
	look.Beam = envInt("BEAM", look.Beam)
	look.Race = envInt("RACE", look.Race)
	look.MaxDraw = envInt("DMAX", look.MaxDraw)
	look.ExactEnd = os.Getenv("NOEXACT") == ""
	look.LastPlans = envInt("LASTK", look.LastPlans)
	look.Replan = os.Getenv("REPLAN") != ""
	look.Spread = envInt("SPREAD", look.Spread)
	look.Sure = envFloat("Z", look.Sure)
	look.Lost = envFloat("LOSSPEN", look.Lost)
}

func TestTuneBot(t *testing.T) {
	kind := os.Getenv("TUNEBOT")
	if kind == "" {
		t.Skip()
	}
	games, seed, n := envInt("GAMES", 200), uint64(envInt("SEED", 1)), envInt("PLAYERS", 1)
	first := envInt("FIRST", 0)
	extreme := os.Getenv("EXTREME") != ""
	sum, wins, lost := 0, 0, 0
	var hist [10]int
	var ahash uint64 = 14695981039346656037
	start := time.Now()
	var left []int
	for i := first; i < first+games; i++ {
		deck := tuneDeck(seed, i)
		g, _ := thegame.NewGame(thegame.Config{Players: n, Extreme: extreme})
		players := make([]Player, n)
		for s := range players {
			players[s] = tunePlayer(kind, n, extreme)
		}
		for range 20000 {
			if err := g.Feed(deck); err != nil {
				t.Fatal(err)
			}
			if g.Phase() == thegame.PhaseOver {
				break
			}
			s := g.Turn()
			v := g.View(s)
			a := players[s].Act(&v)
			ahash = (ahash ^ uint64(a.Card)<<8 ^ uint64(a.Pile)<<4 ^ uint64(a.Kind)) * 1099511628211
			if err := g.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		r := g.Result()
		hist[min(g.DrawPile()/10, 9)]++
		sum += r.CardsLeft
		left = append(left, r.CardsLeft)
		if r.Won {
			wins++
		}
		if r.Broken != 0 {
			lost++
		}
	}
	if f := os.Getenv("LEFTOUT"); f != "" {
		out, _ := os.Create(f)
		for _, x := range left {
			fmt.Fprintln(out, x)
		}
		out.Close()
	}
	fmt.Printf("%s: %d games, left %.2f, won %.1f%%, lost %d, hash %x, %.1f ms/game, end draw pile by tens %v\n", kind, games, float64(sum)/float64(games), 100*float64(wins)/float64(games), lost, ahash, float64(time.Since(start).Microseconds())/1000/float64(games), hist)
}

func BenchmarkPlayOn(b *testing.B) {
	for _, extreme := range []bool{false, true} {
		b.Run(fmt.Sprint(extreme), func(b *testing.B) {
			w, jg := ExpertSettings(1, extreme)
			on := &playOn{w: w, jg: &jg, handSize: 8, extreme: extreme, beam: envInt("BEAM", 5), least: jg.leastStep(), exactEnd: os.Getenv("EXACT") != ""}
			sum := 0
			for i := 0; b.Loop(); i++ {
				deck := tuneDeck(9, i%50)
				p := thegame.Position{Piles: [4]thegame.Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}, Extreme: extreme}
				var alive thegame.Cards
				for _, c := range deck {
					alive = alive.Add(c)
				}
				left, _ := on.game(p, deck, alive)
				sum += left
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(on.turns), "µs/turn")
			b.ReportMetric(float64(sum)/float64(b.N), "left")
		})
	}
}
