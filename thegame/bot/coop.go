package bot

import (
	"github.com/njetlan/njet/thegame"
)

// Coop is the cooperative player. Its zero value is not ready; use NewCoop
// or NewExpert (Coop with the expert's Judgement).
type Coop struct {
	signals   bool
	w         Weights
	kind      string     // "coop" when empty
	judgement *Judgement // the expert's; nil for coop
	byTable   bool       // w, judgement and look follow ExpertSettings and ExpertLookahead for the view's table
	look      Lookahead  // how a player alone weighs its best plans by playing on; none when zero

	plan     []thegame.Action
	planTurn int // v.Turns when the plan was made
	planFrom int // v.PlayedThisTurn when the plan was made
	step     int // the plays of the plan laid so far
}

// Weights tune Coop. They are exported so that experiments can vary them;
// DefaultWeights returns the ones tuned on seeded batches.
type Weights struct {
	Card      float64 // reward for each card laid (more cards when they are cheap)
	EndCard   float64 // the same once the draw pile is empty
	Extra     float64 // an extra card beyond the duty is laid only at this cost or less
	EndExtra  float64 // the same once the draw pile is empty
	Trick     float64 // reward for a backwards trick, besides the numbers it reopens
	Mine      float64 // cost of stepping on a pile another seat asked to keep
	Good      float64 // cost of stepping on a pile another seat plays well on
	Dead      float64 // cost per unplayed card that fits no pile after the turn
	Lasting   float64 // cost per lasting command left on top after the turn
	Skull     float64 // cost per skull kept in the hand after the turn
	Three     float64 // cost per "3!" kept in the hand after the turn
	DrawOne   float64 // cost per card beyond one laid in a turn that ends under "draw one"
	MineBelow int     // signal "mine" for a card this close (cards skipped)
	GoodBelow int     // signal "good" for a card this close
}

// DefaultWeights returns the weights Coop plays with.
func DefaultWeights() Weights {
	return Weights{
		Card: 0.6, EndCard: 1.2, Extra: 0, EndExtra: 1.5, Trick: 2,
		Mine: 3, Good: 1, Dead: 3, Lasting: 2.5, Skull: 6, Three: 3, DrawOne: 3, MineBelow: 1, GoodBelow: 3,
	}
}

// NewCoop returns a cooperative player; with signals it gives and reads
// signals.
func NewCoop(signals bool) *Coop { return &Coop{signals: signals, w: DefaultWeights(), planTurn: -1} }

// NewCoopWeights returns a cooperative player with the given weights.
func NewCoopWeights(signals bool, w Weights) *Coop {
	return &Coop{signals: signals, w: w, planTurn: -1}
}

// Name returns "coop" or "expert", with "-silent" without signals.
func (b *Coop) Name() string {
	kind := b.kind
	if kind == "" {
		kind = "coop"
	}
	if !b.signals {
		return kind + "-silent"
	}
	return kind
}

// Act plays the next card of the turn's plan, made when the turn began.
func (b *Coop) Act(v *thegame.View) thegame.Action {
	p := v.Position()
	if b.planTurn != v.Turns || b.planFrom+b.step != v.PlayedThisTurn {
		b.plan, b.planTurn, b.planFrom, b.step = b.makePlan(v), v.Turns, v.PlayedThisTurn, 0
	}
	if b.step < len(b.plan) {
		a := b.plan[b.step]
		if p.CanPlay(a.Card, a.Pile) {
			b.step++
			return a
		}
	}
	if p.CanEnd() {
		return thegame.Action{Kind: thegame.ActEnd, Seat: v.Seat}
	}
	// The plan ran out without completing the turn (only when the search
	// found no way to): lay a card after which the turn can still be
	// completed if there is one, else any card that fits.
	var any thegame.Action
	for _, c := range v.Hand {
		for pile := range thegame.NumPiles {
			if !p.CanPlay(c, pile) {
				continue
			}
			a := thegame.Action{Kind: thegame.ActPlay, Seat: v.Seat, Card: c, Pile: pile}
			q := p
			q.Play(c, pile)
			if q.Stopped || q.Feasible() {
				return a
			}
			if any.Kind == 0 {
				any = a
			}
		}
	}
	return any
}

// judge holds what a plan is weighed with.
type judge struct {
	w        Weights
	others   thegame.Cards // unplayed cards not in the hand
	alive    thegame.Cards // every unplayed card
	penalty  [thegame.NumPiles]float64
	end      bool // the draw pile is empty
	extreme  bool
	nodes    int
	found    bool // a plan completes the turn: bestSeq, at cost best
	best     float64
	bestSeq  []thegame.Action
	seq      []thegame.Action
	room     []thegame.Position // room[d]: the position after d+1 plays of seq
	seat     int
	maxNodes int
	jg       *Judgement // the expert's judgement, or nil
	least    float64    // jg.leastStep()
	reached  *reachedTable
	beam     int    // when above 0, the duty's cards are sought among this many cheapest plays only
	keep     int    // how many of the cheapest plans to keep in top
	top      []plan // the cheapest plans, cheapest first, each ending in another position
}

// plan is a way to play the turn: its plays, its price and the position
// it ends in.
type plan struct {
	plays []thegame.Action
	cost  float64
	end   thegame.Position
}

// note keeps the plan j.seq ending in p at total among the cheapest.
func (j *judge) note(p *thegame.Position, total float64) {
	for i := range j.top {
		if j.top[i].end.Hand == p.Hand && j.top[i].end.Piles == p.Piles {
			if total >= j.top[i].cost {
				return
			}
			j.top = append(j.top[:i], j.top[i+1:]...)
			break
		}
	}
	if len(j.top) == j.keep && total >= j.top[len(j.top)-1].cost {
		return
	}
	i := len(j.top)
	for i > 0 && j.top[i-1].cost > total {
		i--
	}
	pl := plan{plays: append([]thegame.Action(nil), j.seq...), cost: total, end: *p}
	j.top = append(j.top, plan{})
	copy(j.top[i+1:], j.top[i:])
	j.top[i] = pl
	if len(j.top) > j.keep {
		j.top = j.top[:j.keep]
	}
}

func newJudge(v *thegame.View, w Weights, signals bool, jg *Judgement) *judge {
	j := &judge{w: w, end: v.DrawPile == 0, extreme: v.Extreme, seat: v.Seat, maxNodes: 20000, jg: jg}
	if jg != nil {
		j.least = jg.leastStep()
	}
	var hand thegame.Cards
	for _, c := range v.Hand {
		hand = hand.Add(c)
	}
	for c := thegame.MinCard; c <= thegame.MaxCard; c++ {
		if !v.Played.Has(c) {
			j.alive = j.alive.Add(c)
			if !hand.Has(c) {
				j.others = j.others.Add(c)
			}
		}
	}
	if signals && !v.Muted {
		for s, sig := range v.Signals {
			if s == v.Seat {
				continue
			}
			for pile, k := range sig {
				switch k {
				case thegame.SignalMine:
					j.penalty[pile] += w.Mine
				case thegame.SignalGood:
					j.penalty[pile] += w.Good
				}
			}
		}
	}
	return j
}

// cost weighs laying c on pile in position p: the unplayed numbers it
// jumps over, or the reward of a backwards trick.
func (j *judge) cost(p *thegame.Position, c thegame.Card, pile int) float64 {
	pl := p.Piles[pile]
	card := j.w.Card
	if j.end {
		card = j.w.EndCard
	}
	gap := pl.Gap(c)
	if j.jg != nil {
		return j.judgedCost(p, c, pile, card, gap)
	}
	if gap == -10 {
		return -float64(j.alive.CountBetween(int(c), pl.Top)) - j.w.Trick - card
	}
	skipped := float64(j.alive.CountBetween(pl.Top, int(c)))
	cost := skipped - card
	if skipped > 0 {
		cost += j.penalty[pile]
	}
	return cost
}

// cardValue is the reward of a card laid now.
func (j *judge) cardValue() float64 {
	if j.end {
		return j.w.EndCard
	}
	return j.w.Card
}

// judgedCost is cost by the expert's judgement: what the play changes in
// the price of the other unplayed cards, less the reward of a card.
func (j *judge) judgedCost(p *thegame.Position, c thegame.Card, pile int, card float64, gap int) float64 {
	hand := p.Hand.Remove(c)
	cost := j.jg.moveCost(p, c, pile, j.others.Union(hand), hand) - card
	if gap == -10 {
		return cost - j.w.Trick
	}
	if j.penalty[pile] != 0 && j.alive.CountBetween(p.Piles[pile].Top, int(c)) > 0 {
		cost += j.penalty[pile]
	}
	return cost
}

// finish weighs the position a turn ends in.
func (j *judge) finish(p *thegame.Position) float64 {
	cost := 0.0
	if j.w.Dead != 0 {
		cost += j.w.Dead * float64(deadCards(p, j.others.Union(p.Hand)))
	}
	if j.jg != nil && j.jg.Pair != 0 {
		cost -= j.jg.Pair * float64(tenApart(p.Hand))
	}
	if j.extreme {
		for i := range thegame.NumPiles {
			if p.Piles[i].Cmd.Lasting() {
				cost += j.w.Lasting
			}
		}
		if p.DrawPile > 1 && p.InForce(thegame.CmdDrawOne) {
			cost += j.w.DrawOne * float64(p.Played-1)
		}
		for w := range 2 {
			for x := p.Hand[w]; x != 0; x &= x - 1 {
				switch thegame.CommandOf(thegame.Card(w*64 + trailingZeros(x))) {
				case thegame.CmdSkull:
					cost += j.w.Skull
				case thegame.CmdThree:
					cost += j.w.Three
				}
			}
		}
	}
	return cost
}

// search explores the turn from p, which has cost so far.
func (j *judge) search(p *thegame.Position, sofar float64) {
	if j.jg != nil && j.reachedCheaper(p, sofar) {
		return
	}
	j.nodes++
	done := p.Stopped || p.CanEnd()
	if done {
		total := sofar + j.finish(p)
		if j.keep > 0 {
			j.note(p, total)
		}
		if !j.found || total < j.best {
			j.found, j.best = true, total
			j.bestSeq = append(j.bestSeq[:0], j.seq...)
		}
		if p.Stopped {
			return
		}
	}
	extra := j.w.Extra
	if j.end {
		extra = j.w.EndExtra
	}
	if j.beam > 0 && !done && p.Played < maxPaid {
		j.searchBeam(p, sofar)
		return
	}
	// Past the duty only free cards; and no plan lays more than three
	// cards that cost something, which bounds the search.
	freeOnly := done || p.Played >= maxPaid
	rest := j.others.Union(p.Hand)
	hand := p.Hand
	for w := range 2 {
		for x := hand[w]; x != 0; x &= x - 1 {
			c := thegame.Card(w*64 + trailingZeros(x))
			for pile := range thegame.NumPiles {
				if j.nodes >= j.maxNodes {
					return
				}
				if !p.CanPlay(c, pile) {
					continue
				}
				if freeOnly && j.jg != nil && j.jg.leastCost(p, c, pile, rest, j.least)-j.cardValue() > extra {
					continue
				}
				cst := j.cost(p, c, pile)
				if freeOnly && cst > extra {
					continue
				}
				q := j.next(p, c, pile)
				if hopeless(q) {
					continue
				}
				j.seq = append(j.seq, thegame.Action{Kind: thegame.ActPlay, Seat: j.seat, Card: c, Pile: pile})
				j.search(q, sofar+cst)
				j.seq = j.seq[:len(j.seq)-1]
			}
		}
	}
}

// next returns p with c laid on pile, in the search's room for the
// position after the plays of j.seq and one more: a position on the heap
// for every step would cost more than the step.
func (j *judge) next(p *thegame.Position, c thegame.Card, pile int) *thegame.Position {
	d := len(j.seq)
	for len(j.room) <= d {
		j.room = append(j.room, thegame.Position{})
	}
	q := &j.room[d]
	*q = *p
	q.Play(c, pile)
	return q
}

// searchBeam goes on from p, where the turn's duty is not done, with the
// beam cheapest plays only.
func (j *judge) searchBeam(p *thegame.Position, sofar float64) {
	type move struct {
		c    thegame.Card
		pile int
		cost float64
	}
	var moves [64]move
	n := 0
	for w := range 2 {
		for x := p.Hand[w]; x != 0; x &= x - 1 {
			c := thegame.Card(w*64 + trailingZeros(x))
			for pile := range thegame.NumPiles {
				if n == len(moves) || !p.CanPlay(c, pile) {
					continue
				}
				m := move{c, pile, j.cost(p, c, pile)}
				i := n
				for ; i > 0 && moves[i-1].cost > m.cost; i-- {
					moves[i] = moves[i-1]
				}
				moves[i] = m
				n++
			}
		}
	}
	taken := 0
	for _, m := range moves[:n] {
		if taken == j.beam || j.nodes >= j.maxNodes {
			return
		}
		q := j.next(p, m.c, m.pile)
		if hopeless(q) {
			continue
		}
		taken++
		j.seq = append(j.seq, thegame.Action{Kind: thegame.ActPlay, Seat: j.seat, Card: m.c, Pile: m.pile})
		j.search(q, sofar+m.cost)
		j.seq = j.seq[:len(j.seq)-1]
	}
}

// planKey is what decides the rest of a planned turn and its price.
type planKey struct {
	hand    thegame.Cards
	tops    [thegame.NumPiles]uint8
	onPiles uint8
	three   bool
}

// reachedCheaper reports whether the search has been at p before at no
// higher cost, and notes p otherwise: cards laid on different piles reach
// the same position in either order, and the second time adds nothing.
func (j *judge) reachedCheaper(p *thegame.Position, sofar float64) bool {
	k := planKey{hand: p.Hand, onPiles: p.OnPiles, three: p.Three}
	for i := range p.Piles {
		k.tops[i] = uint8(p.Piles[i].Top)
	}
	if j.reached == nil {
		j.reached = &reachedTable{}
	}
	return j.reached.cheaper(k, sofar)
}

// reachedTable maps the positions a turn search has reached to the lowest
// cost it reached them at. It is an open-addressed table that a new search
// empties by moving on a generation, so that the searches of many turns
// share one without clearing or allocating it again.
type reachedTable struct {
	slots []reachedSlot
	gen   uint32
	used  int
}

type reachedSlot struct {
	key  planKey
	cost float64
	gen  uint32
}

// reset empties the table.
func (t *reachedTable) reset() {
	t.gen++
	t.used = 0
}

// cheaper reports whether k is in the table at cost at most sofar, and
// puts it there at sofar otherwise.
func (t *reachedTable) cheaper(k planKey, sofar float64) bool {
	if t.gen == 0 {
		t.gen = 1
	}
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	h := k.hand[0]*0x9e3779b97f4a7c15 ^ k.hand[1]*0xc2b2ae3d27d4eb4f
	h ^= uint64(k.tops[0]) | uint64(k.tops[1])<<8 | uint64(k.tops[2])<<16 | uint64(k.tops[3])<<24 | uint64(k.onPiles)<<32
	if k.three {
		h ^= 1 << 40
	}
	h *= 0x9e3779b97f4a7c15
	for i := h >> 32 & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			*s = reachedSlot{key: k, cost: sofar, gen: t.gen}
			t.used++
			return false
		}
		if s.key == k {
			if s.cost <= sofar {
				return true
			}
			s.cost = sofar
			return false
		}
	}
}

// grow doubles the table, keeping the positions of this generation.
func (t *reachedTable) grow() {
	old := t.slots
	t.slots = make([]reachedSlot, max(256, 2*len(old)))
	t.used = 0
	for _, s := range old {
		if s.gen == t.gen {
			t.cheaper(s.key, s.cost)
		}
	}
}

// maxPaid is the number of cards a plan lays before only free ones may
// follow: two for the duty and one to cover a skull.
const maxPaid = 3

// hopeless reports a position whose turn plainly cannot be completed: a
// skull that no card of the hand fits on, or a "3!" the hand cannot fill.
func hopeless(p *thegame.Position) bool {
	if p.Stopped {
		return false
	}
	if p.Three && p.Played+p.Hand.Len() < 3 {
		return true
	}
	for i := range thegame.NumPiles {
		if p.Extreme && p.Piles[i].Cmd == thegame.CmdSkull {
			covered := false
			for w := range 2 {
				for x := p.Hand[w]; x != 0 && !covered; x &= x - 1 {
					covered = p.CanPlay(thegame.Card(w*64+trailingZeros(x)), i)
				}
			}
			if !covered {
				return true
			}
		}
	}
	return false
}

// makePlan returns the plays of the turn ahead.
func (b *Coop) makePlan(v *thegame.View) []thegame.Action {
	if b.byTable {
		w, jg := ExpertSettings(v.Players, v.Extreme)
		b.w, b.judgement, b.look = w, &jg, ExpertLookahead(v.Players, v.Extreme)
	}
	j := newJudge(v, b.w, b.signals, b.judgement)
	p := v.Position()
	look := b.look.Plans > 1 && v.Players == 1 && v.DrawPile <= b.look.MaxDraw
	// The longest run is exact for a player alone in the base game once
	// the draw pile is empty; in the Extreme game the lookahead is better.
	if j.end && v.Players == 1 && (!v.Extreme || !look) {
		if seq := longestRun(&p, v.Seat); seq != nil {
			return seq
		}
	}
	if look {
		return b.look.plan(v, j, &p)
	}
	j.search(&p, 0)
	return j.bestSeq
}

// Talk signals, on each pile, how well the seat's hand fits there.
func (b *Coop) Talk(v *thegame.View) []thegame.Action {
	if !b.signals || v.Muted || v.Players < 2 {
		return nil
	}
	j := newJudge(v, b.w, false, nil)
	p := v.Position()
	var out []thegame.Action
	for pile := range thegame.NumPiles {
		want := thegame.SignalNone
		best := 1 << 30
		for _, c := range v.Hand {
			ok, trick := p.Piles[pile].Fits(c)
			if !ok {
				continue
			}
			skipped := j.alive.CountBetween(p.Piles[pile].Top, int(c))
			if trick {
				skipped = -1
			}
			best = min(best, skipped)
		}
		switch {
		case best <= b.w.MineBelow:
			want = thegame.SignalMine
		case best <= b.w.GoodBelow:
			want = thegame.SignalGood
		}
		if v.Signals[v.Seat][pile] != want {
			out = append(out, thegame.Action{Kind: thegame.ActSignal, Seat: v.Seat, Pile: pile, Signal: want})
		}
	}
	return out
}

// deadCards counts the cards of rest that fit no pile of p. A card fits
// somewhere when it lies above the lower rising top, below the higher
// falling top, or is a backwards trick; the dead ones lie between.
func deadCards(p *thegame.Position, rest thegame.Cards) int {
	r := min(p.Piles[0].Top, p.Piles[1].Top)
	f := max(p.Piles[2].Top, p.Piles[3].Top)
	if f > r {
		return 0
	}
	dead := rest.CountBetween(f-1, r+1)
	var tricks thegame.Cards
	for i, pl := range p.Piles {
		t := pl.Top - 10
		if i >= 2 {
			t = pl.Top + 10
		}
		if t >= f && t <= r && t >= int(thegame.MinCard) && t <= int(thegame.MaxCard) && rest.Has(thegame.Card(t)) && !tricks.Has(thegame.Card(t)) {
			tricks = tricks.Add(thegame.Card(t))
			dead--
		}
	}
	return dead
}
