package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/njetlan/njet/engine"
)

// rollout plays a determinized round to its end with a fast greedy policy
// for every seat. In a determinized game every hand is known, so the policy
// reads all hands: it stands in for sensible play, cheaply, and does not
// allocate once its buffers have grown.
type rollout struct {
	rng     *rand.Rand
	pcg     *rand.PCG // rng's source, reseeded so that candidates share their luck
	scores  []float64
	e       engine.Edition
	n       int
	legal   []engine.Action
	waiting []int
	chars   []engine.Character // each seat's character

	// Set when trick play starts (or at once when it is under way).
	rulesSet bool
	r        engine.Rules
	suit     [8]engine.Hand // cards of each suit under r, by Colour
	maxVal   int
	deckLen  int
	val      [64]int8 // card values by index, read in the inner loop
}

func newRollout(e engine.Edition, chars []engine.Character) *rollout {
	n := len(chars)
	pcg := rand.NewPCG(0, 0)
	return &rollout{
		chars:   chars,
		pcg:     pcg,
		rng:     rand.New(pcg),
		scores:  make([]float64, 0, 32),
		e:       e,
		n:       n,
		legal:   make([]engine.Action, 0, 128),
		waiting: make([]int, 0, 5),
		maxVal:  e.MaxValue(),
		deckLen: len(e.Deck(n)),
		val:     valueTable(e),
	}
}

// valueTable lists the value of every card of edition e by index.
func valueTable(e engine.Edition) [64]int8 {
	var t [64]int8
	for i := 0; i < e.DeckSize(); i++ {
		t[i] = int8(engine.CardOf(e, i).Value())
	}
	return t
}

// value is c.Value() by table.
func (ro *rollout) value(c engine.Card) int { return int(ro.val[c.Index()]) }

// maxRolloutSteps bounds one rollout; a round has well under 200 actions.
const maxRolloutSteps = 400

// run plays g to the end of its round and returns seat's margin in it.
func (ro *rollout) run(g *engine.Game, seat int) float64 {
	ro.rulesSet = false
	for range maxRolloutSteps {
		ph := g.Phase()
		if ph == engine.PhaseRoundOver || ph == engine.PhaseGameOver || ph == engine.PhaseDeal {
			break
		}
		ro.waiting = g.AppendWaiting(ro.waiting[:0])
		if len(ro.waiting) == 0 {
			break
		}
		s := ro.waiting[0]
		ro.legal = g.AppendLegal(ro.legal[:0], s)
		if len(ro.legal) == 0 {
			break
		}
		a := ro.choose(g, ph, s)
		if g.Apply(a) != nil {
			break
		}
	}
	return ro.margin(g, seat)
}

// margin is seat's points in g's round minus the mean of the other seats'
// points. The search plays for this lead and not for its points alone: the
// game is won by the most points, and a choice that raises every seat's
// score (a higher points value that all the table shares, say) gains it
// nothing over the others.
func (ro *rollout) margin(g *engine.Game, seat int) float64 {
	var others float64
	for o := 0; o < ro.n; o++ {
		if o != seat {
			others += float64(g.RoundPoints(o))
		}
	}
	return float64(g.RoundPoints(seat)) - others/float64(ro.n-1)
}

// choose picks the policy's action for seat s among ro.legal.
func (ro *rollout) choose(g *engine.Game, ph engine.Phase, s int) engine.Action {
	if len(ro.legal) == 1 {
		return ro.legal[0]
	}
	if ph != engine.PhaseNjet && !ro.rulesSet {
		ro.setRules(g.Rules())
	}
	switch ph {
	case engine.PhaseNjet:
		return ro.block(g, s)
	case engine.PhaseTeams:
		return ro.team(g, s)
	case engine.PhaseDiscard:
		return ro.discard(g, s)
	case engine.PhaseTricks:
		return ro.play(g, s)
	}
	return ro.legal[ro.rng.IntN(len(ro.legal))]
}

func (ro *rollout) setRules(r engine.Rules) {
	ro.r = r
	ro.rulesSet = true
	ro.suit = [8]engine.Hand{}
	for i := 0; i < ro.e.DeckSize(); i++ {
		c := engine.CardOf(ro.e, i)
		s := engine.SuitOf(c, r)
		ro.suit[s] = ro.suit[s].Add(c)
	}
}

// block picks the field the seat most wants gone, by the same reading of
// the hand as the heuristic player, with a little noise so that rollouts
// differ.
func (ro *rollout) block(g *engine.Game, s int) engine.Action {
	ro.blockScores(g.Held(s), s)
	best, bestScore := 0, -1e9
	for i, d := range ro.scores {
		d += ro.rng.Float64()
		if d > bestScore {
			best, bestScore = i, d
		}
	}
	return ro.legal[best]
}

// blockScores rates every block of ro.legal for seat s holding hand: how
// much the seat wants that field gone. The scores go to ro.scores.
func (ro *rollout) blockScores(hand engine.Hand, s int) {
	st := readHand(ro.e, hand, ro.maxVal, hand.Len(), ro.deckLen)
	cols := ro.e.Colours()
	bestTrump, bestSuper := 0.0, 0.5
	for _, col := range cols {
		bestTrump = max(bestTrump, float64(st.count[col]+st.high[col])+0.5*float64(st.ones[col]))
		bestSuper = max(bestSuper, float64(st.ones[col]))
	}
	strong := st.margin > 0
	conf := 0.4 + min(1, abs(st.margin)/3)
	chars := ro.e.Characters()
	ro.scores = ro.scores[:0]
	for _, a := range ro.legal {
		var d float64
		switch a.Row {
		case engine.RowTrump:
			col := cols[a.Field]
			d = 1.5 * (bestTrump - float64(st.count[col]+st.high[col]) - 0.5*float64(st.ones[col]))
		case engine.RowSuper:
			val := 0.5
			if a.Field != engine.SuperNjet {
				val = float64(st.ones[cols[a.Field]])
			}
			d = 1.5 * (bestSuper - val)
		case engine.RowPoints:
			pts := float64(engine.PointsValue(a.Field))
			switch {
			case strong:
				d = conf * (4 - pts)
			case pts < 0 && st.margin > -3:
				d = 7
			default:
				d = conf * (pts + 2)
			}
		case engine.RowStart:
			own := int(a.Field) < len(chars) && s < len(ro.chars) && ro.chars[s] == chars[a.Field]
			switch {
			case strong && own:
				d = -1
			case strong:
				d = 2 * conf
			case own:
				d = 0.8
			default:
				d = 0.3
			}
		case engine.RowDiscard:
			d = 0.1
			switch a.Field {
			case engine.DiscardNjet:
				d = 0.5
			case engine.PassLeft:
				d = 0.6
			}
		}
		ro.scores = append(ro.scores, d)
	}
}

// blockEvidence is how much likelier than a uniform choice the block a of
// seat s, holding hand, is under the block policy, as a log ratio: the
// policy's choice modelled as a softmax of its scores. g is the game just
// before the block.
func (ro *rollout) blockEvidence(g *engine.Game, a engine.Action, hand engine.Hand) float64 {
	ro.legal = g.AppendLegal(ro.legal[:0], a.Seat)
	if len(ro.legal) < 2 {
		return 0
	}
	ro.blockScores(hand, a.Seat)
	const temp = 0.6
	top := ro.scores[0]
	for _, d := range ro.scores {
		top = max(top, d)
	}
	sum, chosen := 0.0, math.Inf(-1)
	for i, d := range ro.scores {
		sum += math.Exp((d - top) / temp)
		if ro.legal[i].Row == a.Row && ro.legal[i].Field == a.Field {
			chosen = (d - top) / temp
		}
	}
	if math.IsInf(chosen, -1) {
		return 0
	}
	return chosen - math.Log(sum) + math.Log(float64(len(ro.legal)))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// team forms the teams that promise the start player s the most points,
// reading every hand: each team's share of the tricks is taken as its share
// of the table's trick-taking power (power), times the points value and the
// seat's doubling. Under -2 points that means the weakest team.
func (ro *rollout) team(g *engine.Game, s int) engine.Action {
	var pw [8]float64
	total := 0.0
	for o := 0; o < ro.n; o++ {
		pw[o] = ro.power(g.Held(o))
		total += pw[o]
	}
	if total <= 0 {
		return ro.legal[ro.rng.IntN(len(ro.legal))]
	}
	pts := float64(ro.r.Points)
	best, bestScore := 0, math.Inf(-1)
	for i, a := range ro.legal {
		team := pw[s]
		for x := a.Partners; x != 0; x &= x - 1 {
			team += pw[bits.TrailingZeros8(x)]
		}
		mult := 1.0
		switch {
		case ro.n == 3 && a.Partners == 0:
			mult = 2 // the solo player doubles (R-SCORE-2)
		case ro.n == 5 && a.Bonus == s:
			mult = 2
		}
		sc := pts * mult * team / total
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return ro.legal[best]
}

// power rates how many tricks a hand may take under the round's rules:
// supertrumps most, then trumps by value, then the high side cards.
func (ro *rollout) power(h engine.Hand) float64 {
	r := ro.r
	mv := float64(ro.maxVal)
	var p float64
	for x := uint64(h); x != 0; x &= x - 1 {
		c := engine.CardOf(ro.e, bits.TrailingZeros64(x))
		v := float64(ro.value(c))
		switch {
		case r.Super != engine.NoColour && v == 1 && c.Colour() == r.Super:
			p += 3
		case ro.suit[r.Trump].Has(c):
			p += 1 + v/mv
		case v >= mv-2:
			p += 0.8
		default:
			p += 0.3 * v / mv
		}
	}
	return p
}

// keep rates how much a card is worth keeping for trick play.
func (ro *rollout) keep(c engine.Card) int {
	r := ro.r
	v := ro.value(c)
	super := r.Super != engine.NoColour && v == 1 && c.Colour() == r.Super
	trump := ro.suit[r.Trump].Has(c)
	if r.Points < 0 {
		// Every trick costs: keep low cards, shed trumps and high cards.
		switch {
		case super:
			return -20
		case trump:
			return -10 - v
		}
		return 20 - v
	}
	switch {
	case super:
		return 100
	case trump:
		return 40 + v
	case v == 1:
		return -5
	}
	return v
}

// discard drops the cards least worth keeping; a pass gives the least useful
// card, but not a side 1 to a partner.
func (ro *rollout) discard(g *engine.Game, s int) engine.Action {
	best, bestScore := 0, -1<<30
	left := (s + 1) % ro.n
	partnerLeft := g.TeamOf(left) == g.TeamOf(s)
	for i, a := range ro.legal {
		var sc int
		if a.Kind == engine.ActPass {
			sc = -ro.keep(a.Card)
			if partnerLeft && a.Card.Value() == 1 {
				sc -= 30
			}
		} else {
			sc = -ro.keep(a.Cards[0])
			if a.Cards[1] != engine.NoCard {
				sc -= ro.keep(a.Cards[1])
			}
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return ro.legal[best]
}

// rank orders a card within a trick whose led suit is led (R-WIN):
// supertrumps, trumps, the led suit, then cards that cannot win (0).
func (ro *rollout) rank(c engine.Card, led engine.Colour) int {
	r := ro.r
	switch {
	case r.Super != engine.NoColour && ro.value(c) == 1 && c.Colour() == r.Super:
		return 48
	case ro.suit[r.Trump].Has(c):
		return 32 + ro.value(c)
	case ro.suit[led].Has(c):
		return 16 + ro.value(c)
	}
	return 0
}

// beats reports whether c played now takes the trick from best: a higher
// rank, or an equal 1 played later (R-WIN).
func beats(rc, rbest int) bool { return rc > 0 && rc >= rbest }

// threat reports whether a seat yet to play in the trick, on the other team
// of s, holds a card that would beat rank rc.
func (ro *rollout) threat(g *engine.Game, s int, t engine.TrickNow, rc int) bool {
	for i := t.Len + 1; i < ro.n; i++ {
		o := (t.Leader + i) % ro.n
		if g.TeamOf(o) == g.TeamOf(s) {
			continue
		}
		if ro.canBeat(g.Held(o), t.Led, rc) {
			return true
		}
	}
	return false
}

// canBeat reports whether a seat holding h, following the rules of
// following suit, has a card that beats rank rc in a trick led in led.
func (ro *rollout) canBeat(h engine.Hand, led engine.Colour, rc int) bool {
	if f := h & ro.suit[led]; f != 0 {
		h = f
	}
	for x := uint64(h); x != 0; x &= x - 1 {
		if beats(ro.rank(engine.CardOf(ro.e, bits.TrailingZeros64(x)), led), rc) {
			return true
		}
	}
	return false
}

// play is the trick-play policy: win tricks cheaply, keep loot away from the
// opponents, shed 1s on the partner's tricks; under negative points, lose.
func (ro *rollout) play(g *engine.Game, s int) engine.Action {
	t := g.TrickState()
	neg := ro.r.Points < 0
	if t.Len == 0 {
		return ro.lead(g, s, neg)
	}
	rbest := ro.rank(t.Best, t.Led)
	partnerWins := g.TeamOf(t.Winner) == g.TeamOf(s)
	last := t.Len == ro.n-1
	partnerThreat := partnerWins && !last && ro.threat(g, s, t, rbest)
	best, bestScore := 0, -1<<30
	for i, a := range ro.legal {
		c := a.Card
		rc := ro.rank(c, t.Led)
		wins := beats(rc, rbest)
		side1 := ro.value(c) == 1 && rc < 48
		var sc int
		switch {
		case neg && wins:
			sc = -100 + ro.keepNeg(c) // forced to win: with a card best gone
		case neg:
			sc = 100 - ro.keepNeg(c)
			if side1 && !partnerWins {
				sc += 50 // loot for the opponents costs them
			}
		case partnerWins && wins && !last && partnerThreat && !ro.threat(g, s, t, rc):
			sc = 250 - ro.keep(c) // the partner's card would fall: take it safely
		case partnerWins && !wins:
			sc = 200 - ro.keep(c)
			if side1 {
				sc += 20
			}
		case partnerWins:
			sc = -ro.keep(c)
		case wins && (last || !ro.threat(g, s, t, rc)):
			sc = 300 - ro.keep(c)
		case wins:
			sc = 150 + rc
		default:
			sc = 100 - ro.keep(c)
			if side1 {
				sc -= 150
			}
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return ro.legal[best]
}

// keepNeg is keep under negative points, where high cards are the danger.
func (ro *rollout) keepNeg(c engine.Card) int {
	r := ro.r
	if r.Super != engine.NoColour && ro.value(c) == 1 && c.Colour() == r.Super {
		return -50
	}
	if ro.suit[r.Trump].Has(c) {
		return -20 - ro.value(c)
	}
	return 20 - ro.value(c)
}

// lead picks the card to lead: a card no opponent can beat, else a low card
// of the seat's longest side suit; never a side 1. Under negative points the
// lowest card.
func (ro *rollout) lead(g *engine.Game, s int, neg bool) engine.Action {
	hand := g.Held(s)
	best, bestScore := 0, -1<<30
	for i, a := range ro.legal {
		c := a.Card
		suit := engine.SuitOf(c, ro.r)
		var sc int
		if neg {
			sc = -ro.rank(c, suit)
			if ro.value(c) == 1 && !ro.suit[ro.r.Trump].Has(c) {
				sc += 40
			}
		} else {
			rc := ro.rank(c, suit)
			master := true
			for o := 0; o < ro.n && master; o++ {
				if o != s && g.TeamOf(o) != g.TeamOf(s) && ro.canBeat(g.Held(o), suit, rc) {
					master = false
				}
			}
			length := bits.OnesCount64(uint64(hand & ro.suit[suit]))
			switch {
			case ro.value(c) == 1 && rc < 48:
				sc = -100
			case master:
				sc = 100 + rc
			default:
				sc = 10*length - ro.value(c)
			}
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return ro.legal[best]
}
