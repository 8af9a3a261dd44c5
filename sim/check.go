package sim

import (
	"fmt"
	"slices"

	"github.com/njetlan/njet/engine"
)

// CheckRecords re-checks records against the rules (RULES.md), independently
// of the engine's own bookkeeping: hand sizes, every card in exactly one
// place, the order and legality of the blocks, teams and the bonus, discards
// and passes, follow-suit, trick winners and loot, scores with doubling, and
// running totals. Records of one game must be consecutive and in round
// order. The first failing check is returned, wrapping ErrRecord.
func CheckRecords(recs []Record) error {
	var prev *Record
	for i := range recs {
		rec := &recs[i]
		if prev != nil && prev.Game != rec.Game {
			prev = nil
		}
		if err := checkRecord(rec, prev); err != nil {
			return fmt.Errorf("%w: game %d round %d: %v", ErrRecord, rec.Game, rec.Round, err)
		}
		prev = rec
	}
	return nil
}

// card is a card of a record: its name and what the rules need of it.
type card struct {
	name   string
	colour engine.Colour
	value  int
}

// roundRules are the parsed rules of a record.
type roundRules struct {
	trump, super engine.Colour
}

func (r roundRules) suit(c card) engine.Colour {
	if r.isSuper(c) {
		return r.trump
	}
	return c.colour
}

func (r roundRules) isSuper(c card) bool {
	return r.super != engine.NoColour && c.value == 1 && c.colour == r.super
}

// trickWinner applies R-WIN to a complete trick and returns the index of the
// winning play.
func (r roundRules) trickWinner(cards []card) int {
	led := r.suit(cards[0])
	class := func(c card) int {
		switch {
		case r.isSuper(c):
			return 3
		case r.suit(c) == r.trump:
			return 2
		case r.suit(c) == led:
			return 1
		}
		return 0
	}
	best := 0
	for i := 1; i < len(cards); i++ {
		k, bk := class(cards[i]), class(cards[best])
		if k > bk || k == bk && k > 0 && cards[i].value >= cards[best].value {
			best = i
		}
	}
	return best
}

// multiset counts card names.
type multiset map[string]int

func (m multiset) add(names ...string) {
	for _, n := range names {
		m[n]++
	}
}

// take removes one card named n and reports whether there was one.
func (m multiset) take(n string) bool {
	if m[n] == 0 {
		return false
	}
	m[n]--
	if m[n] == 0 {
		delete(m, n)
	}
	return true
}

func (m multiset) size() int {
	n := 0
	for _, k := range m {
		n += k
	}
	return n
}

func checkRecord(rec *Record, prev *Record) error {
	e, err := engine.ParseEdition(rec.Edition)
	if err != nil {
		return err
	}
	n := rec.Players
	if n < e.MinPlayers() || n > e.MaxPlayers() {
		return fmt.Errorf("%d players in the %s edition", n, e)
	}
	if prev != nil && (prev.Edition != rec.Edition || prev.Players != n || len(prev.Totals) != n) {
		return fmt.Errorf("the game changes from %d players (%s) to %d (%s) between rounds", prev.Players, prev.Edition, n, rec.Edition)
	}
	if err := checkHouseRules(rec, e, prev); err != nil {
		return err
	}
	if err := checkVariant(rec, e, prev); err != nil {
		return err
	}
	if prev == nil && rec.Round != 1 || prev != nil && rec.Round != prev.Round+1 {
		return fmt.Errorf("round %d out of order", rec.Round)
	}
	if rec.Dealer < 0 || rec.Dealer >= n {
		return fmt.Errorf("dealer %d", rec.Dealer)
	}
	if prev != nil && rec.Dealer != (prev.Dealer+1)%n {
		return fmt.Errorf("dealer %d after dealer %d (the deal passes left)", rec.Dealer, prev.Dealer)
	}
	if len(rec.Characters) != n || len(rec.Hands) != n || len(rec.Discards) != n || len(rec.Passes) != n ||
		len(rec.Score.Points) != n || len(rec.Totals) != n {
		return fmt.Errorf("a per-seat array is not of %d seats", n)
	}

	// Cards: every card of the deck in play in exactly one hand or unused.
	cards := map[string]card{}
	deck := multiset{}
	for _, c := range e.Deck(n) {
		cards[c.String()] = card{name: c.String(), colour: c.Colour(), value: c.Value()}
		deck.add(c.String())
	}
	held := multiset{}
	for s, h := range rec.Hands {
		if len(h) != e.HandSize(n) {
			return fmt.Errorf("seat %d was dealt %d cards, want %d", s, len(h), e.HandSize(n))
		}
		held.add(h...)
	}
	held.add(rec.Unused...)
	for name, k := range held {
		if deck[name] != k {
			return fmt.Errorf("card %s dealt %d times, the deck has %d", name, k, deck[name])
		}
	}
	if held.size() != deck.size() {
		return fmt.Errorf("%d cards dealt or unused, the deck has %d", held.size(), deck.size())
	}

	// Characters and the Njet board (R-BOARD, R-NJET).
	holder := map[engine.Character]int{}
	for s, name := range rec.Characters {
		ch, err := engine.ParseCharacter(e, name)
		if err != nil {
			return err
		}
		if _, dup := holder[ch]; dup {
			return fmt.Errorf("character %s held twice", name)
		}
		holder[ch] = s
	}
	var board engine.Board
	for f, ch := range e.Characters() {
		if _, ok := holder[ch]; !ok {
			board = board.Block(engine.RowStart, engine.Field(f))
		}
	}
	first := (rec.Dealer + 1) % n
	if e == engine.Modern {
		first = rec.Dealer
	}
	for i, b := range rec.Blocks {
		if b.Seat != (first+i)%n {
			return fmt.Errorf("block %d placed by seat %d, want seat %d", i+1, b.Seat, (first+i)%n)
		}
		row, err := engine.ParseRow(b.Row)
		if err != nil {
			return err
		}
		f, err := e.ParseField(row, b.Field)
		if err != nil {
			return err
		}
		if board.Blocked(row, f) || board.FreeCount(e, row) < 2 {
			return fmt.Errorf("block %d: %s %s cannot be blocked (R-NJET-1)", i+1, b.Row, b.Field)
		}
		board = board.Block(row, f)
	}
	free := map[engine.Row]string{}
	for r := engine.Row(0); r < engine.NumRows; r++ {
		fs := board.Free(e, r)
		if len(fs) != 1 {
			return fmt.Errorf("row %s has %d free fields after the Njet phase (R-NJET-2)", r, len(fs))
		}
		free[r] = e.FieldName(r, fs[0])
	}
	ru := rec.Rules
	if ru.Start != free[engine.RowStart] || ru.Discard != free[engine.RowDiscard] || ru.Trump != free[engine.RowTrump] ||
		ru.Super != free[engine.RowSuper] || fmt.Sprint(ru.Points) != free[engine.RowPoints] {
		return fmt.Errorf("rules %+v are not the free fields %v", ru, free)
	}
	startChar, err := engine.ParseCharacter(e, ru.Start)
	if err != nil {
		return err
	}
	if holder[startChar] != ru.StartSeat {
		return fmt.Errorf("startSeat %d does not hold %s", ru.StartSeat, ru.Start)
	}
	var rules roundRules
	for _, col := range e.Colours() {
		if col.String() == ru.Trump {
			rules.trump = col
		}
		if col.String() == ru.Super {
			rules.super = col
		}
	}

	// Teams and the bonus (R-TEAM, R-SCORE-2).
	if len(rec.Teams) != 2 {
		return fmt.Errorf("%d teams", len(rec.Teams))
	}
	team := make([]int, n)
	for s := range team {
		team[s] = -1
	}
	for t, members := range rec.Teams {
		for _, s := range members {
			if s < 0 || s >= n || team[s] != -1 {
				return fmt.Errorf("bad team member %d", s)
			}
			team[s] = t
		}
	}
	if slices.Contains(team, -1) {
		return fmt.Errorf("teams %v leave a seat out", rec.Teams)
	}
	if team[ru.StartSeat] != 0 {
		return fmt.Errorf("the start player's team is not first")
	}
	size0, size1 := len(rec.Teams[0]), len(rec.Teams[1])
	okSizes := map[int]bool{2: size0 == 1 && size1 == 1, 3: size0+size1 == 3 && size0 >= 1 && size1 >= 1,
		4: size0 == 2 && size1 == 2, 5: size0 == 2 && size1 == 3 || size0 == 3 && size1 == 2}[n]
	if !okSizes {
		return fmt.Errorf("teams of %d and %d with %d players", size0, size1, n)
	}
	bonus := -1
	if rec.Bonus != nil {
		bonus = *rec.Bonus
	}
	switch {
	case n == 3:
		solo := rec.Teams[0][0]
		if size1 == 1 {
			solo = rec.Teams[1][0]
		}
		if bonus != solo {
			return fmt.Errorf("bonus %v, want the solo seat %d", bonus, solo)
		}
	case n == 5:
		if bonus < 0 || bonus >= n || len(rec.Teams[team[bonus]]) != 2 {
			return fmt.Errorf("bonus %v is not on the two-player team", bonus)
		}
	case rec.Bonus != nil:
		return fmt.Errorf("bonus %d with %d players", bonus, n)
	}

	// Discards and passes (R-DISCARD), then the hands for trick play.
	hands := make([]multiset, n)
	for s := range hands {
		hands[s] = multiset{}
		hands[s].add(rec.Hands[s]...)
	}
	for s, p := range rec.Passes {
		if (ru.Discard == "pass-left") != (p != nil) {
			return fmt.Errorf("seat %d: pass %v under discard rule %s", s, p, ru.Discard)
		}
		if p != nil && !slices.Contains(rec.Hands[s], *p) {
			return fmt.Errorf("seat %d passed %s, which it was not dealt", s, *p)
		}
	}
	for s, p := range rec.Passes {
		if p != nil {
			hands[s].take(*p)
			hands[(s+1)%n].add(*p)
		}
	}
	want := map[string]int{"discard1": 1, "discard2": 2, "discard1-no-ones": 1}[ru.Discard]
	for s, d := range rec.Discards {
		if len(d) != want {
			return fmt.Errorf("seat %d discarded %d cards under %s", s, len(d), ru.Discard)
		}
		for _, name := range d {
			if !hands[s].take(name) {
				return fmt.Errorf("seat %d discarded %s, which it does not hold", s, name)
			}
			if ru.Discard == "discard1-no-ones" && cards[name].value == 1 {
				for other := range hands[s] {
					if cards[other].value != 1 {
						return fmt.Errorf("seat %d discarded a 1 while holding %s", s, other)
					}
				}
			}
		}
	}

	// Tricks (R-TRICK, R-WIN, R-LOOT).
	perSeat := hands[0].size()
	for s := range hands {
		if hands[s].size() != perSeat {
			return fmt.Errorf("seat %d holds %d cards for trick play, seat 0 %d", s, hands[s].size(), perSeat)
		}
	}
	if len(rec.Tricks) != perSeat {
		return fmt.Errorf("%d tricks, want %d", len(rec.Tricks), perSeat)
	}
	var tricks, loot [2]int
	leader := ru.StartSeat
	for i, t := range rec.Tricks {
		if t.Leader != leader || len(t.Plays) != n {
			return fmt.Errorf("trick %d: leader %d with %d plays, want leader %d with %d", i+1, t.Leader, len(t.Plays), leader, n)
		}
		played := make([]card, n)
		var led engine.Colour
		for j, p := range t.Plays {
			c, ok := cards[p.Card]
			if p.Seat != (leader+j)%n || !ok {
				return fmt.Errorf("trick %d: play %d is seat %d card %q", i+1, j+1, p.Seat, p.Card)
			}
			if j == 0 {
				led = rules.suit(c)
			} else if rules.suit(c) != led {
				for other := range hands[p.Seat] {
					if rules.suit(cards[other]) == led {
						return fmt.Errorf("trick %d: seat %d played %s holding %s (R-TRICK-2)", i+1, p.Seat, p.Card, other)
					}
				}
			}
			if !hands[p.Seat].take(p.Card) {
				return fmt.Errorf("trick %d: seat %d played %s, which it does not hold", i+1, p.Seat, p.Card)
			}
			played[j] = c
		}
		w := t.Plays[rules.trickWinner(played)].Seat
		if t.Winner != w {
			return fmt.Errorf("trick %d: winner %d, want %d (R-WIN)", i+1, t.Winner, w)
		}
		var wantLoot []string
		for j, p := range t.Plays {
			if played[j].value == 1 && team[p.Seat] != team[w] {
				wantLoot = append(wantLoot, p.Card)
			}
		}
		gotLoot := slices.Clone(t.Loot)
		slices.Sort(gotLoot)
		slices.Sort(wantLoot)
		if !slices.Equal(gotLoot, wantLoot) {
			return fmt.Errorf("trick %d: loot %v, want %v (R-LOOT)", i+1, t.Loot, wantLoot)
		}
		tricks[team[w]]++
		loot[team[w]] += len(wantLoot)
		leader = w
	}

	// Score and totals (R-SCORE).
	if rec.Score.Tricks != tricks || rec.Score.Loot != loot {
		return fmt.Errorf("score tricks %v loot %v, want %v %v", rec.Score.Tricks, rec.Score.Loot, tricks, loot)
	}
	for s := 0; s < n; s++ {
		pts := (tricks[team[s]] + loot[team[s]]) * ru.Points
		if s == bonus {
			pts *= 2
		}
		if rec.Score.Points[s] != pts {
			return fmt.Errorf("seat %d scored %d, want %d (R-SCORE)", s, rec.Score.Points[s], pts)
		}
		total := pts
		if prev != nil {
			total += prev.Totals[s]
		}
		if rec.Totals[s] != total {
			return fmt.Errorf("seat %d total %d, want %d", s, rec.Totals[s], total)
		}
	}
	return nil
}
