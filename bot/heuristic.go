package bot

import (
	"math/rand/v2"

	"github.com/njetlan/njet/engine"
)

// Heuristic plays by simple card-player rules of thumb; see the package
// documentation. It uses its random source only to break exact ties, so it
// is deterministic given its seed.
type Heuristic struct {
	rng *rand.Rand
}

// NewHeuristic returns a Heuristic player drawing from rng.
func NewHeuristic(rng *rand.Rand) *Heuristic { return &Heuristic{rng: rng} }

// Name returns "heuristic".
func (*Heuristic) Name() string { return "heuristic" }

// Act scores every legal action and returns the best one.
func (p *Heuristic) Act(v *engine.View, legal []engine.Action) engine.Action {
	if len(legal) == 0 {
		return engine.Action{}
	}
	if len(legal) == 1 {
		return legal[0]
	}
	k := newKnowledge(v)
	var score func(engine.Action) float64
	switch legal[0].Kind {
	case engine.ActBlock:
		score = func(a engine.Action) float64 { return k.dislike(a.Row, a.Field) }
	case engine.ActTeam:
		score = k.teamScore
	case engine.ActDiscard:
		score = func(a engine.Action) float64 {
			s := -k.keep(a.Cards[0])
			if a.Cards[1] != engine.NoCard {
				s -= k.keep(a.Cards[1])
			}
			return s
		}
	case engine.ActPass:
		score = k.passScore
	case engine.ActPlay:
		score = k.playScorer()
	default:
		return legal[p.rng.IntN(len(legal))]
	}
	best, bestScore, ties := 0, score(legal[0]), 1
	for i := 1; i < len(legal); i++ {
		s := score(legal[i])
		switch {
		case s > bestScore+1e-9:
			best, bestScore, ties = i, s, 1
		case s > bestScore-1e-9:
			// Reservoir choice among equal scores keeps every tie equally likely.
			ties++
			if p.rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return legal[best]
}

// knowledge is what the heuristic derives from a view before it scores.
type knowledge struct {
	v    *engine.View
	e    engine.Edition
	r    engine.Rules
	hand []engine.Card
	handStats
	unknown  []engine.Card // cards in play whose place this seat does not know
	rulesSet bool          // the Njet phase is over
}

func newKnowledge(v *engine.View) *knowledge {
	k := &knowledge{
		v:    v,
		e:    v.Edition,
		r:    v.Rules,
		hand: v.Hand.Cards(v.Edition),
	}
	k.rulesSet = v.Phase > engine.PhaseNjet
	deck := k.e.Deck(v.Players)
	top := 0
	for _, c := range deck {
		top = max(top, c.Value())
	}
	k.handStats = readHand(k.e, v.Hand, top, len(k.hand)+v.Discarded.Len(), len(deck))

	var seen engine.Hand = v.Hand | v.Discarded
	for _, t := range v.Tricks {
		for _, pl := range t.Plays {
			seen = seen.Add(pl.Card)
		}
	}
	for _, pl := range v.Trick.Plays {
		seen = seen.Add(pl.Card)
	}
	for _, c := range deck {
		if !seen.Has(c) {
			k.unknown = append(k.unknown, c)
		}
	}
	return k
}

// strong reports whether the hand is better than an average one.
func (k *knowledge) strong() bool { return k.margin > 0 }

// confidence grows with the distance of the hand from an average one.
func (k *knowledge) confidence() float64 {
	m := k.margin
	if m < 0 {
		m = -m
	}
	return 0.4 + min(1, m/3)
}

// trumpPotential rates a colour as trump for this hand: length plus top cards.
func (k *knowledge) trumpPotential(col engine.Colour) float64 {
	return float64(k.count[col]) + float64(k.high[col]) + 0.5*float64(k.ones[col])
}

// dislike is how much this seat wants field f of row r gone: the higher, the
// sooner it blocks it.
func (k *knowledge) dislike(r engine.Row, f engine.Field) float64 {
	e := k.e
	switch r {
	case engine.RowTrump:
		best := 0.0
		for _, col := range e.Colours() {
			best = max(best, k.trumpPotential(col))
		}
		return 1.5 * (best - k.trumpPotential(e.Colours()[f]))
	case engine.RowSuper:
		// A supertrump colour is worth its 1s to whoever holds them; with
		// none of them, "no supertrump" is best.
		val := func(g engine.Field) float64 {
			if g == engine.SuperNjet {
				return 0.5
			}
			return float64(k.ones[e.Colours()[g]])
		}
		best := 0.0
		for g := 0; g < e.Fields(engine.RowSuper); g++ {
			best = max(best, val(engine.Field(g)))
		}
		return 1.5 * (best - val(f))
	case engine.RowPoints:
		pts := float64(engine.PointsValue(f))
		if k.strong() {
			return k.confidence() * (4 - pts) // a strong hand wants tricks to count
		}
		if pts < 0 && k.margin > -3 {
			// -2 costs everyone; only a very weak hand, which expects few
			// tricks, gains by keeping it.
			return 7
		}
		return k.confidence() * (pts + 2) // a weak one wants them cheap
	case engine.RowStart:
		owner := -1
		ch := e.Characters()[f]
		for s, c := range k.v.Characters {
			if c == ch {
				owner = s
			}
		}
		if k.strong() {
			if owner == k.v.Seat {
				return -1
			}
			return 2 * k.confidence()
		}
		if owner == k.v.Seat {
			return 0.8
		}
		return 0.3
	case engine.RowDiscard:
		switch f {
		case engine.DiscardNjet:
			return 0.5 // discarding lets this seat shed its weakest cards
		case engine.PassLeft:
			return 0.6
		}
		return 0.1
	}
	return 0
}

// agreement is how much a block placed by another seat matches what this
// seat would have blocked: positive for a like-minded seat.
func (k *knowledge) agreement(b engine.Block) float64 {
	n := k.e.Fields(b.Row)
	mean := 0.0
	for f := 0; f < n; f++ {
		mean += k.dislike(b.Row, engine.Field(f))
	}
	mean /= float64(n)
	return k.dislike(b.Row, b.Field) - mean
}

// teamScore rates a team choice: like-minded partners, and a team shape
// that suits the hand.
func (k *knowledge) teamScore(a engine.Action) float64 {
	v := k.v
	partner := make([]float64, v.Players)
	for _, b := range v.Blocks {
		if b.Seat != v.Seat {
			partner[b.Seat] += k.agreement(b)
		}
	}
	score, members := 0.0, 1
	for s := 0; s < v.Players; s++ {
		if a.Partners&(1<<s) != 0 && s != v.Seat {
			score += partner[s]
			members++
		}
	}
	switch v.Players {
	case 3:
		if members == 1 {
			// Alone doubles the credit but plays one against two.
			score += 3 * (k.margin - 2)
			if k.r.Points < 0 {
				score -= 10
			}
		}
	case 5:
		if members == 3 {
			score += 2
		} else if a.Bonus == v.Seat && k.r.Points > 0 {
			score += k.margin
		}
		if a.Bonus == v.Seat && k.r.Points < 0 {
			score -= 3
		}
	}
	return score
}

// keep rates how much a card is worth keeping for trick play under the
// round's rules: supertrumps and trumps most, side 1s (which only give loot
// away) least, low singletons of side colours little.
func (k *knowledge) keep(c engine.Card) float64 {
	if k.r.Points < 0 {
		// Under -2 every trick costs: keep the cards that lose tricks, and
		// side 1s, which cost the opponents as loot.
		if c.Value() == 1 && !isSuper(c, k.r) {
			return 30
		}
		return 20 - k.power(c)
	}
	return k.power(c)
}

// power rates how likely a card is to win tricks.
func (k *knowledge) power(c engine.Card) float64 {
	r := k.r
	switch {
	case isSuper(c, r):
		return 100
	case isTrump(c, r):
		return 40 + float64(c.Value())
	case c.Value() == 1:
		return 0.5
	}
	v := float64(c.Value())
	if k.master(c) {
		v += 10
	}
	if k.count[c.Colour()] == 1 {
		v -= 3 // discarding it makes a void to trump into
	}
	return v
}

// void reports whether seat s has shown it holds no card of suit (it did
// not follow that suit), as the view's Voids record it.
func (k *knowledge) void(s int, suit engine.Colour) bool {
	return s >= 0 && s < len(k.v.Voids) && k.v.Voids[s]&(1<<suit) != 0
}

// oppMayHold reports whether some opponent (or, before the teams are known,
// some other seat) may still hold a card of suit.
func (k *knowledge) oppMayHold(suit engine.Colour) bool {
	for s := 0; s < k.v.Players; s++ {
		if s != k.v.Seat && !k.sameTeam(s) && !k.void(s, suit) {
			return true
		}
	}
	return false
}

// ruffers counts the seats that have shown a void in the side suit of c
// but not in trumps: they may trump a lead of it. It counts opponents and
// partners apart.
func (k *knowledge) ruffers(c engine.Card) (opps, partners int) {
	suit := engine.SuitOf(c, k.r)
	if suit == k.r.Trump {
		return 0, 0
	}
	for s := 0; s < k.v.Players; s++ {
		if s == k.v.Seat || !k.void(s, suit) || k.void(s, k.r.Trump) {
			continue
		}
		if k.sameTeam(s) {
			partners++
		} else {
			opps++
		}
	}
	return opps, partners
}

// master reports whether no card this seat cannot place outranks c in its
// suit, where an opponent may hold it: the cards of a suit every opponent
// has shown a void in are the partners'.
func (k *knowledge) master(c engine.Card) bool {
	suit := engine.SuitOf(c, k.r)
	if k.rulesSet && !k.oppMayHold(suit) {
		return true
	}
	for _, u := range k.unknown {
		if engine.SuitOf(u, k.r) == suit && outranks(u, c, k.r) {
			return false
		}
	}
	return true
}

// passScore rates passing a card to the left neighbour: the least useful
// card, but no 1 to a partner, whom it would only burden.
func (k *knowledge) passScore(a engine.Action) float64 {
	s := -k.keep(a.Card)
	left := (k.v.Seat + 1) % k.v.Players
	if a.Card.Value() == 1 && !isSuper(a.Card, k.r) && k.sameTeam(left) {
		s -= 20
	}
	return s
}

// sameTeam reports whether seat s is on this seat's team.
func (k *knowledge) sameTeam(s int) bool {
	t := k.v.Team
	return s < len(t) && t[s] >= 0 && t[s] == t[k.v.Seat]
}

// playScorer returns the scoring function for the cards this seat may play
// into the trick under way.
func (k *knowledge) playScorer() func(engine.Action) float64 {
	v, r := k.v, k.r
	plays := v.Trick.Plays
	if r.Points < 0 {
		return k.loseScorer()
	}
	if len(plays) == 0 {
		return func(a engine.Action) float64 { return k.leadScore(a.Card) }
	}
	cur := plays[winning(plays, r)]
	partnerWins := k.sameTeam(cur.Seat)
	// An opponent still to play threatens the trick unless it has shown
	// that it can neither follow nor trump (R-TRICK-2).
	led := engine.SuitOf(plays[0].Card, r)
	oppsAfter := false
	for i := 1; i < v.Players-len(plays); i++ {
		s := (v.Seat + i) % v.Players
		if !k.sameTeam(s) && !(k.void(s, led) && k.void(s, r.Trump)) {
			oppsAfter = true
		}
	}
	loot := 0
	for _, pl := range plays {
		if pl.Card.Value() == 1 && !k.sameTeam(pl.Seat) {
			loot++
		}
	}
	return func(a engine.Action) float64 {
		c := a.Card
		wins := wouldWin(plays, v.Seat, c, r)
		side1 := c.Value() == 1 && !isSuper(c, r)
		switch {
		case partnerWins && !wins:
			// Leave the trick to the partner and shed the least useful
			// card; a 1 is safe here unless an opponent may still win it.
			s := 200 - k.keep(c)
			if side1 && oppsAfter {
				s -= 50
			}
			return s
		case partnerWins:
			return -k.keep(c) // forced to overtake: as cheaply as possible
		case wins && !oppsAfter:
			return 300 - k.keep(c) // last to play: win as cheaply as possible
		case wins && k.master(c):
			return 300 - k.keep(c)
		case wins && loot > 0:
			return 250 + k.keep(c) // loot at stake: the strongest winner
		case wins:
			return 250 - k.keep(c)
		}
		// Cannot win: follow low and give no 1 away as loot.
		s := 100 - k.keep(c)
		if side1 {
			s -= 150
		}
		return s
	}
}

// leadScore rates leading c: masters and trumps from a long trump holding
// first, then low cards of long side colours; never a side 1.
func (k *knowledge) leadScore(c engine.Card) float64 {
	r := k.r
	trumps := 0
	for _, h := range k.hand {
		if isTrump(h, r) {
			trumps++
		}
	}
	switch {
	case c.Value() == 1 && !isSuper(c, r):
		return -10
	case isSuper(c, r) && !k.master(c):
		return -5 // a later supertrump would take it, and it as loot
	case isTrump(c, r) && k.master(c):
		if trumps >= 3 {
			return 30 + float64(trumps)
		}
		return 15
	case isTrump(c, r):
		return float64(trumps) - 2 - float64(c.Value())/20
	}
	// Shown voids: an opponent who cannot follow a side suit may trump it;
	// a partner who cannot may trump it for the team.
	opps, partners := k.ruffers(c)
	switch {
	case opps > 0:
		return -3 - float64(c.Value())/float64(k.e.MaxValue())
	case partners > 0:
		return 25 - float64(c.Value())/float64(k.e.MaxValue())
	case k.master(c):
		return 20 + float64(c.Value())/20
	}
	return float64(k.count[c.Colour()]) - float64(c.Value())/float64(k.e.MaxValue())
}

// loseScorer plays under a negative points value, where every trick and
// every loot card costs: lead low, duck under the winning card with the
// highest card that still loses, give side 1s to the opponents' tricks as
// loot, and when a trick cannot be lost, take it with the strongest card.
func (k *knowledge) loseScorer() func(engine.Action) float64 {
	v, r := k.v, k.r
	plays := v.Trick.Plays
	if len(plays) == 0 {
		return func(a engine.Action) float64 {
			if a.Card.Value() == 1 && !isSuper(a.Card, r) {
				return -50 // led, it loses and costs the opponents nothing
			}
			return -k.power(a.Card)
		}
	}
	cur := plays[winning(plays, r)]
	oppWins := !k.sameTeam(cur.Seat)
	return func(a engine.Action) float64 {
		c := a.Card
		if wouldWin(plays, v.Seat, c, r) {
			return -100 + k.power(c)
		}
		if oppWins && c.Value() == 1 && !isSuper(c, r) {
			return 200
		}
		return 100 + k.power(c)
	}
}
