package thegame

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// shuffled returns the deck in an order drawn from seed.
func shuffled(seed uint64) []Card {
	d := Deck()
	r := rand.New(rand.NewPCG(seed, 7))
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// dealt returns a game of cfg dealt from deck.
func dealt(t testing.TB, cfg Config, deck []Card) *Game {
	t.Helper()
	g, err := NewGame(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Feed(deck); err != nil {
		t.Fatal(err)
	}
	return g
}

// scene sets up a game in the middle: seat turn is on turn with the given
// hands, pile tops and draw pile (cards in the order they will be drawn).
// Every other card counts as played.
type scene struct {
	cfg   Config
	hands [][]Card
	tops  [NumPiles]int
	pile  []Card
	turn  int
}

func (sc scene) build(t testing.TB) *Game {
	t.Helper()
	if sc.tops == ([NumPiles]int{}) {
		sc.tops = [NumPiles]int{1, 1, 100, 100}
	}
	g, err := NewGame(sc.cfg)
	if err != nil {
		t.Fatal(err)
	}
	var free Cards
	for s, h := range sc.hands {
		for _, c := range h {
			if free.Has(c) {
				t.Fatalf("scene: card %s twice", c)
			}
			free = free.Add(c)
			g.hands[s] = g.hands[s].Add(c)
		}
	}
	for _, c := range sc.pile {
		free = free.Add(c)
	}
	for c := MinCard; c <= MaxCard; c++ {
		if !free.Has(c) {
			g.played = g.played.Add(c)
		}
	}
	g.seen = Cards{}
	for c := MinCard; c <= MaxCard; c++ {
		if g.played.Has(c) || g.hands[0].Has(c) || g.hands[1].Has(c) || g.hands[2].Has(c) || g.hands[3].Has(c) || g.hands[4].Has(c) {
			g.seen = g.seen.Add(c)
		}
	}
	g.drawn = DeckSize - len(sc.pile)
	for i, top := range sc.tops {
		g.pos.Piles[i].Top = top
		if sc.cfg.Extreme && top >= 2 && top <= 99 {
			g.pos.Piles[i].Cmd = CommandOf(Card(top))
		}
	}
	g.turn = (sc.turn + sc.cfg.Players - 1) % sc.cfg.Players
	g.phase = PhasePlay
	g.beginTurn(sc.turn)
	return g
}

// must applies actions and fails the test on the first error.
func must(t testing.TB, g *Game, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if err := g.Apply(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
}

func play(s int, c Card, pile int) Action { return Action{Kind: ActPlay, Seat: s, Card: c, Pile: pile} }
func end(s int) Action                    { return Action{Kind: ActEnd, Seat: s} }
func draw(s int, c Card) Action           { return Action{Kind: ActDraw, Seat: s, Card: c} }

// cardsOf returns the cards with command k, ascending.
func cardsOf(k Command) []Card { return Assignment()[k] }

// checkInvariants verifies what must hold after every accepted action.
func checkInvariants(g *Game) error {
	total := g.played.Len() + g.DrawPile()
	var all Cards
	for s := range g.cfg.Players {
		h := g.hand(s)
		total += h.Len()
		if h[0]&all[0] != 0 || h[1]&all[1] != 0 {
			return fmt.Errorf("a card in two hands")
		}
		all = all.Union(h)
		if h.Len() > g.handSize {
			return fmt.Errorf("seat %d holds %d cards", s, h.Len())
		}
	}
	if g.phase != PhaseDeal && total != DeckSize {
		return fmt.Errorf("%d cards accounted for, want %d", total, DeckSize)
	}
	for i, p := range g.pos.Piles {
		if p.Up != (i < 2) {
			return fmt.Errorf("pile %d has the wrong direction", i)
		}
	}
	if g.phase == PhasePlay && (g.pos.Played == 0 && !g.pos.CanPlayMin() || g.pos.Played > 0 && !g.pos.Feasible()) {
		return fmt.Errorf("seat %d is on turn with a turn it cannot complete", g.turn)
	}
	if g.phase == PhaseOver && g.result.Won && g.result.CardsLeft != 0 {
		return fmt.Errorf("won with %d cards left", g.result.CardsLeft)
	}
	return nil
}

// drawDue draws the cards due, each time the lowest card not yet drawn.
func drawDue(t testing.TB, g *Game) {
	t.Helper()
	for c := MinCard; c <= MaxCard && g.Phase() == PhaseDraw; c++ {
		if !g.seen.Has(c) {
			must(t, g, draw(g.Turn(), c))
		}
	}
}
