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
	byTable   bool       // w and judgement follow ExpertSettings for the view's table

	plan     []thegame.Action
	planTurn int // v.Turns when the plan was made
	step     int
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
	if b.planTurn != v.Turns || b.step != v.PlayedThisTurn {
		b.plan, b.planTurn, b.step = b.makePlan(v), v.Turns, v.PlayedThisTurn
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
	best     float64
	bestSeq  []thegame.Action
	seq      []thegame.Action
	seat     int
	maxNodes int
	jg       *Judgement // the expert's judgement, or nil
	reached  map[planKey]float64
}

func newJudge(v *thegame.View, w Weights, signals bool, jg *Judgement) *judge {
	j := &judge{w: w, end: v.DrawPile == 0, extreme: v.Extreme, seat: v.Seat, maxNodes: 20000, jg: jg}
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

// judgedCost is cost by the expert's judgement: what the play changes in
// the price of the other unplayed cards, less the reward of a card.
func (j *judge) judgedCost(p *thegame.Position, c thegame.Card, pile int, card float64, gap int) float64 {
	cost := j.jg.moveCost(p, c, pile, j.others.Union(p.Hand.Remove(c)), p.Hand.Remove(c)) - card
	if gap == -10 {
		return cost - j.w.Trick
	}
	if j.alive.CountBetween(p.Piles[pile].Top, int(c)) > 0 {
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
		if total := sofar + j.finish(p); j.bestSeq == nil || total < j.best {
			j.best = total
			j.bestSeq = append(j.bestSeq[:0], j.seq...)
			if j.bestSeq == nil {
				j.bestSeq = []thegame.Action{}
			}
		}
		if p.Stopped {
			return
		}
	}
	extra := j.w.Extra
	if j.end {
		extra = j.w.EndExtra
	}
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
				cst := j.cost(p, c, pile)
				// Past the duty only free cards; and no plan lays more than
				// three cards that cost something, which bounds the search.
				if (done || p.Played >= maxPaid) && cst > extra {
					continue
				}
				q := *p
				q.Play(c, pile)
				if hopeless(&q) {
					continue
				}
				j.seq = append(j.seq, thegame.Action{Kind: thegame.ActPlay, Seat: j.seat, Card: c, Pile: pile})
				j.search(&q, sofar+cst)
				j.seq = j.seq[:len(j.seq)-1]
			}
		}
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
		j.reached = make(map[planKey]float64)
	}
	if c, ok := j.reached[k]; ok && c <= sofar {
		return true
	}
	j.reached[k] = sofar
	return false
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
		b.w, b.judgement = w, &jg
	}
	j := newJudge(v, b.w, b.signals, b.judgement)
	p := v.Position()
	if j.end && v.Players == 1 {
		if seq := longestRun(&p, v.Seat); seq != nil {
			return seq
		}
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
