package thegame

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// playSome plays steps legal actions of a dealt game, the first legal one
// each time, and returns the game (it may have ended).
func playSome(t *testing.T, cfg Config, seed uint64, steps int) (*Game, []Card) {
	t.Helper()
	deck := shuffled(seed)
	g := dealt(t, cfg, deck)
	for range steps {
		if g.Phase() == PhaseDraw {
			if err := g.Feed(deck); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if g.Phase() != PhasePlay {
			break
		}
		legal := g.Legal(g.Turn())
		if len(legal) == 0 {
			t.Fatalf("no legal action in %s", g.Phase())
		}
		if err := g.Apply(legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	return g, deck
}

// newHidden deals the cards not yet played again, from seed: hands of the
// sizes pub gives, the rest as the pile.
func newHidden(pub Public, seed uint64) ([][]Card, []Card) {
	var free []Card
	for _, c := range Deck() {
		if !pub.Played.Has(c) {
			free = append(free, c)
		}
	}
	r := rand.New(rand.NewPCG(seed, 11))
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	hands := make([][]Card, len(pub.HandSizes))
	for s, k := range pub.HandSizes {
		hands[s], free = free[:k:k], free[k:]
	}
	return hands, free
}

func TestRedealKeepsThePublicPart(t *testing.T) {
	for _, cfg := range []Config{{Players: 1}, {Players: 3, Extreme: true}, {Players: 5}, {Players: 2, Extreme: true}} {
		for _, steps := range []int{0, 1, 5, 17, 40} {
			t.Run("", func(t *testing.T) {
				g, _ := playSome(t, cfg, uint64(steps)+7, steps)
				if g.Phase() == PhaseOver {
					return
				}
				before := g.Public()
				hands, pile := newHidden(before, 3)
				if err := g.Redeal(hands, pile); err != nil {
					t.Fatal(err)
				}
				after := g.Public()
				if g.Phase() != PhaseOver && !reflect.DeepEqual(before, after) {
					t.Fatalf("the public part changed:\n%+v\n%+v", before, after)
				}
				for s := range cfg.Players {
					if !reflect.DeepEqual(g.Hand(s), setOf(hands[s]).List()) {
						t.Fatalf("seat %d holds %v, dealt %v", s, g.Hand(s), hands[s])
					}
				}
				if g.DrawPile() != len(pile) {
					t.Fatalf("draw pile %d, dealt %d", g.DrawPile(), len(pile))
				}
				// The game plays on to its end from the new deal.
				deck := make([]Card, g.Drawn(), DeckSize)
				deck = append(deck, pile...)
				for range 4 * DeckSize {
					switch g.Phase() {
					case PhaseDraw:
						if err := g.Feed(deck); err != nil {
							t.Fatal(err)
						}
						continue
					case PhasePlay:
						if err := g.Apply(g.Legal(g.Turn())[0]); err != nil {
							t.Fatal(err)
						}
						continue
					}
					break
				}
				if g.Phase() != PhaseOver {
					t.Fatalf("the game did not end: %s", g.Phase())
				}
			})
		}
	}
}

func TestRedealRefusesBadDeals(t *testing.T) {
	cfg := Config{Players: 3, Extreme: true}
	g, _ := playSome(t, cfg, 5, 9)
	if g.Phase() == PhaseOver {
		t.Fatal("the game ended early")
	}
	pub := g.Public()
	hands, pile := newHidden(pub, 1)
	var playedCard Card
	for _, c := range Deck() {
		if pub.Played.Has(c) {
			playedCard = c
			break
		}
	}
	clone := func() ([][]Card, []Card) {
		h := make([][]Card, len(hands))
		for i := range hands {
			h[i] = append([]Card(nil), hands[i]...)
		}
		return h, append([]Card(nil), pile...)
	}
	tests := []struct {
		name string
		edit func(h [][]Card, p []Card) ([][]Card, []Card, Public)
		want error
	}{
		{"hand too small", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			h[0], p = h[0][1:], append(p, h[0][0])
			return h, p, pub
		}, ErrBadAction},
		{"card twice", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			p[0] = h[1][0]
			return h, p, pub
		}, ErrDrawn},
		{"played card dealt", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			h[2][0] = playedCard
			return h, p, pub
		}, ErrDrawn},
		{"card missing", func(h [][]Card, p []Card) ([][]Card, []Card, Public) { return h, p[1:], pub }, ErrBadAction},
		{"no such card", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			p[0] = 120
			return h, p, pub
		}, ErrBadCard},
		{"hands missing", func(h [][]Card, p []Card) ([][]Card, []Card, Public) { return h[:2], p, pub }, ErrBadAction},
		{"in the deal", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			q := pub
			q.Phase = PhaseDeal
			return h, p, q
		}, ErrWrongPhase},
		{"seat off the table", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			q := pub
			q.Turn = 4
			return h, p, q
		}, ErrBadAction},
		{"command not on its card", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			q := pub
			q.Piles[1].Cmd = CmdStop
			if q.Piles[1].Top != 1 && CommandOf(Card(q.Piles[1].Top)) == CmdStop {
				q.Piles[1].Cmd = CmdSkull
			}
			return h, p, q
		}, ErrBadAction},
		{"pile top not played", func(h [][]Card, p []Card) ([][]Card, []Card, Public) {
			q := pub
			q.Piles[0].Top = int(h[0][0])
			return h, p, q
		}, ErrBadAction},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, p := clone()
			h, p, q := tt.edit(h, p)
			if _, err := Resume(cfg, q, h, p); !errors.Is(err, tt.want) {
				t.Fatalf("Resume: %v, want %v", err, tt.want)
			}
			before := g.Public()
			if q.Phase == pub.Phase && q.Turn == pub.Turn && q.Piles == pub.Piles {
				if err := g.Redeal(h, p); !errors.Is(err, tt.want) {
					t.Fatalf("Redeal: %v, want %v", err, tt.want)
				}
				if !reflect.DeepEqual(before, g.Public()) {
					t.Fatal("a refused redeal changed the game")
				}
			}
		})
	}
}

func setOf(cs []Card) Cards {
	var out Cards
	for _, c := range cs {
		out = out.Add(c)
	}
	return out
}
