package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// setups lists every edition and player count.
var setups = []struct {
	ed      Edition
	players int
}{
	{Classic, 3}, {Classic, 4},
	{Modern, 2}, {Modern, 3}, {Modern, 4}, {Modern, 5},
}

func setupName(ed Edition, players int) string { return fmt.Sprintf("%s-%dp", ed, players) }

func mustGame(t testing.TB, cfg Config) *Game {
	t.Helper()
	g, err := NewGame(cfg)
	if err != nil {
		t.Fatalf("NewGame(%+v): %v", cfg, err)
	}
	return g
}

func mustApply(t testing.TB, g *Game, a Action) {
	t.Helper()
	if err := g.Apply(a); err != nil {
		t.Fatalf("Apply(%+v) in %s: %v", a, g.phase, err)
	}
}

// cards parses card names of edition e, giving repeated 1s successive copies.
func cards(t testing.TB, e Edition, names ...string) []Card {
	t.Helper()
	var out []Card
	var h Hand
	for _, n := range names {
		for cp := 0; ; cp++ {
			c, err := ParseCard(e, n, cp)
			if err != nil {
				t.Fatalf("card %q: %v", n, err)
			}
			if !h.Has(c) {
				h = h.Add(c)
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func card(t testing.TB, e Edition, name string) Card { return cards(t, e, name)[0] }

// fill completes hands: each seat gets its fixed cards, then cards of the
// deck in play in index order, skipping the colours it must not hold. Seats
// with a colour to avoid are filled first.
func fill(t testing.TB, g *Game, fixed map[int][]Card, avoid map[int]Colour) []Hand {
	t.Helper()
	hands := make([]Hand, g.n)
	var used Hand
	for s, cs := range fixed {
		for _, c := range cs {
			if used.Has(c) {
				t.Fatalf("card %s fixed twice", c)
			}
			hands[s] = hands[s].Add(c)
			used = used.Add(c)
		}
	}
	order := []int{}
	for s := 0; s < g.n; s++ {
		if _, ok := avoid[s]; ok {
			order = append(order, s)
		}
	}
	for s := 0; s < g.n; s++ {
		if _, ok := avoid[s]; !ok {
			order = append(order, s)
		}
	}
	for _, s := range order {
		for _, c := range g.ed.Deck(g.n) {
			if hands[s].Len() == g.handSize {
				break
			}
			if col, ok := avoid[s]; used.Has(c) || ok && c.Colour() == col {
				continue
			}
			hands[s] = hands[s].Add(c)
			used = used.Add(c)
		}
		if hands[s].Len() != g.handSize {
			t.Fatalf("cannot fill the hand of seat %d", s)
		}
	}
	return hands
}

func dealHands(t testing.TB, g *Game, hands []Hand) {
	t.Helper()
	for s, h := range hands {
		mustApply(t, g, Action{Kind: ActDeal, Seat: s, Hand: h})
	}
}

// forceRules plays the Njet phase so that the wanted fields stay free; rows
// not named end on their first field that is free.
func forceRules(t testing.TB, g *Game, want map[Row]Field) {
	t.Helper()
	for g.phase == PhaseNjet {
		var a Action
		found := false
		for _, l := range g.Legal(g.Turn()) {
			if f, ok := want[l.Row]; ok && f == l.Field {
				continue
			}
			if _, ok := want[l.Row]; !ok && l.Field == g.rs.board.firstFree(g.ed, l.Row) {
				continue
			}
			a, found = l, true
			break
		}
		if !found {
			t.Fatalf("no block keeps %v free", want)
		}
		mustApply(t, g, a)
	}
}

func (b Board) firstFree(e Edition, r Row) Field { return b.Free(e, r)[0] }

// fieldOf names a field of row r.
func fieldOf(t testing.TB, e Edition, r Row, name string) Field {
	t.Helper()
	f, err := e.ParseField(r, name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// rulesWant builds the wanted fields from names: start character, discard,
// trump, super, points.
func rulesWant(t testing.TB, e Edition, start, discard, trump, super, points string) map[Row]Field {
	t.Helper()
	return map[Row]Field{
		RowStart:   fieldOf(t, e, RowStart, start),
		RowDiscard: fieldOf(t, e, RowDiscard, discard),
		RowTrump:   fieldOf(t, e, RowTrump, trump),
		RowSuper:   fieldOf(t, e, RowSuper, super),
		RowPoints:  fieldOf(t, e, RowPoints, points),
	}
}

// shuffled is the deck in play in a random order.
func shuffled(r *rand.Rand, e Edition, players int) []Card {
	d := e.Deck(players)
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// randomStep makes one random legal move; deals come from a shuffled deck.
// It returns the action taken (Kind 0 for a whole deal) and the buffer.
func randomStep(t testing.TB, g *Game, r *rand.Rand, buf []Action) (Action, []Action) {
	t.Helper()
	switch g.phase {
	case PhaseDeal, PhaseRoundOver:
		if err := g.DealDeck(shuffled(r, g.ed, g.n)); err != nil {
			t.Fatalf("DealDeck: %v", err)
		}
		return Action{}, buf
	}
	seat := g.Turn()
	if seat < 0 {
		w := g.Waiting()
		seat = w[r.IntN(len(w))]
	}
	buf = g.AppendLegal(buf[:0], seat)
	if len(buf) == 0 {
		t.Fatalf("no legal action for seat %d in %s", seat, g.phase)
	}
	a := buf[r.IntN(len(buf))]
	mustApply(t, g, a)
	return a, buf
}

// checkInvariants checks a game whose engine knows every hand.
func checkInvariants(g *Game) error {
	rs := &g.rs
	if g.phase == PhaseDeal {
		return nil
	}
	allKnown := int(rs.dealtKnown) == 1<<g.n-1
	var places []Hand
	var dealt Hand
	for s := 0; s < g.n; s++ {
		if allKnown && rs.unknown[s] != 0 {
			return fmt.Errorf("seat %d has %d unknown cards", s, rs.unknown[s])
		}
		if rs.unknown[s] < 0 {
			return fmt.Errorf("seat %d has %d unknown cards", s, rs.unknown[s])
		}
		places = append(places, rs.known[s], rs.discards[s])
		dealt |= rs.dealt[s]
	}
	var played Hand
	for _, c := range rs.plays[:rs.nplays] {
		if played.Has(c) {
			return fmt.Errorf("%s played twice", c)
		}
		played = played.Add(c)
	}
	if allKnown {
		places = append(places, g.deck&^dealt)
	}
	places = append(places, played)
	var all Hand
	for _, p := range places {
		if all&p != 0 {
			return fmt.Errorf("a card is in two places")
		}
		all |= p
	}
	if allKnown && all != g.deck || all&^g.deck != 0 {
		return fmt.Errorf("cards lost or foreign: %v", (g.deck ^ all).Cards(g.ed))
	}
	if g.phase < PhaseTricks {
		return nil
	}
	if want := g.handSize - discardCount(rs.rules.Discard); rs.tricks != want {
		return fmt.Errorf("%d tricks, want %d", rs.tricks, want)
	}
	if rs.nplays != rs.done*g.n+rs.trickLen {
		return fmt.Errorf("%d plays in %d tricks and %d cards", rs.nplays, rs.done, rs.trickLen)
	}
	if rs.won[0]+rs.won[1] != rs.done {
		return fmt.Errorf("tricks won %v of %d", rs.won, rs.done)
	}
	for s := 0; s < g.n; s++ {
		want := rs.tricks - rs.done
		if g.phase == PhaseTricks && (s-int(rs.leaders[rs.done])+g.n)%g.n < rs.trickLen {
			want--
		}
		if got := rs.known[s].Len() + int(rs.unknown[s]); got != want {
			return fmt.Errorf("seat %d holds %d cards, want %d", s, got, want)
		}
	}
	for k := 0; k < rs.done; k++ {
		tr := g.trickAt(k)
		if len(tr.Plays) != g.n {
			return fmt.Errorf("trick %d has %d cards", k, len(tr.Plays))
		}
		if w := TrickWinner(tr, rs.rules); w != tr.Winner {
			return fmt.Errorf("trick %d: TrickWinner %d, engine %d", k, w, tr.Winner)
		}
	}
	if rs.scored {
		for s := 0; s < g.n; s++ {
			tm := rs.team[s]
			want := (rs.won[tm] + rs.loot[tm]) * rs.rules.Points
			if s == rs.bonus {
				want *= 2
			}
			if rs.points[s] != want {
				return fmt.Errorf("seat %d scored %d, want %d", s, rs.points[s], want)
			}
		}
	}
	return nil
}
