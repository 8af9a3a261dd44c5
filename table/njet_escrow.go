package table

import (
	"io"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// What Njet adds to the recovery of a seat gone (escrow.go): during the
// tricks and at the reveal a seat whose device left is played on from the
// escrow. Before the tricks the deal is dealt again, as before escrows:
// nothing played is lost, and the board and the discards are the gone
// seat's own choices that nobody else could make for it.

// forget hides from this peer's engine what it knew of seat's hand (its
// deal, its discard or pass, the card passed to it) when its device still
// runs here, its seat taken over all the same (a person who did not
// answer, a device cut off): the seat's new player chooses its discard
// anew from what it did not play, which the old knowledge would refuse.
// The engine is rebuilt from the deal's start with those actions hidden.
func (n *Njet) forget(seat int) *Violation {
	d := n.d
	left, right := (seat+n.g.n-1)%n.g.n, (seat+1)%n.g.n
	// A passed card is known to both hands it moves between: it is
	// forgotten only where seat's hand alone told it, not on the device
	// that plays the seat on the other side of the pass.
	known := func(s int) bool {
		return slices.ContainsFunc(d.actions, func(a engine.Action) bool {
			return a.Kind == engine.ActDeal && a.Seat == s && !a.Hidden
		})
	}
	leftKnown, rightKnown := known(left), known(right)
	hide := func(a engine.Action) (engine.Action, bool) {
		var mine bool
		switch {
		case a.Seat == seat && a.Kind == engine.ActPass:
			mine = !rightKnown
		case a.Seat == seat:
			mine = a.Kind != engine.ActPlay && a.Kind != engine.ActBlock && a.Kind != engine.ActTeam
		case a.Seat == left && a.Kind == engine.ActPass:
			mine = !leftKnown
		}
		if !mine || a.Hidden {
			return a, false
		}
		a.Hidden, a.Hand, a.Card, a.Cards = true, 0, engine.NoCard, [2]engine.Card{engine.NoCard, engine.NoCard}
		return a, true
	}
	knew := false
	for _, a := range d.actions {
		if _, h := hide(a); h {
			knew = true
		}
	}
	if !knew {
		return nil
	}
	eng := n.snap.Clone()
	for _, a := range d.actions {
		a, _ = hide(a)
		if err := eng.Apply(a); err != nil {
			return private(violation(seat, CheckKeys, "the deal without seat %d's hand: %v", seat, err))
		}
	}
	n.eng = eng
	return nil
}

func (n *Njet) recoverable() bool {
	g := n.g
	switch g.st {
	case stPlay:
		return n.eng.Phase() == engine.PhaseTricks
	case stReveal:
		return true
	}
	return false
}

// holding returns the positions seat holds now: its dealt positions but
// the one it passed, the one passed to it, none played. Under a discard
// rule they include its discards, which stay hidden in its commitment.
func (n *Njet) holding(seat int) []int {
	d := n.d
	left := (seat + n.g.n - 1) % n.g.n
	var out []int
	for p := range d.playedBy {
		o := n.owner(p)
		if d.playedBy[p] < 0 && (o == seat && d.passPos[seat] != p || o == left && d.passPos[left] == p) {
			out = append(out, p)
		}
	}
	return out
}

// recoveredHand reads, at the host, the cards of the gone seat's
// positions, and sets aside as its discard the cards it will not play: the
// seat's commitment stays closed with its device, so what it does not
// play is its discard. The cards of a suit it has shown it lacks go there
// first (it discarded them, or it reneged), then, under "except 1", a card
// that is not a 1, then the lowest.
func (n *Njet) recoveredHand(seat int) *Violation {
	g, d := n.g, n.d
	var held []int
	for _, p := range g.rd.recovering {
		i, v := g.recoveredCard(p)
		if v != nil {
			return v
		}
		d.cardAt[p] = n.cards[i]
		held = append(held, p)
	}
	k := len(held) - n.eng.View(-1).HandSizes[seat]
	rules := n.eng.Rules()
	voids := n.eng.View(-1).Voids[seat]
	rank := func(p int) int {
		c := d.cardAt[p]
		r := c.Value()
		if voids&(1<<engine.SuitOf(c, rules)) != 0 {
			r -= 1000
		}
		if rules.Discard == engine.Discard1NoOnes && c.Value() == 1 {
			r += 100
		}
		return r
	}
	slices.SortStableFunc(held, func(a, b int) int { return rank(a) - rank(b) })
	d.reserved = map[int]bool{}
	for _, p := range held[:max(k, 0)] {
		d.reserved[p] = true
	}
	return nil
}

// revealGone derives the gone seat's discard or pass from the public
// play: its passed position is in the forward's header, and its discard
// is what it did not play.
func (n *Njet) revealGone(seat int) *Violation {
	d := n.d
	ch := &choice{}
	if n.eng.Rules().Discard == engine.PassLeft {
		ch.Positions = []int{d.passPos[seat]}
	} else {
		for p := range d.playedBy {
			if n.owner(p) == seat && d.playedBy[p] < 0 {
				ch.Positions = append(ch.Positions, p)
			}
		}
	}
	if want := discardCount(n.eng.Rules().Discard); len(ch.Positions) != want {
		return violation(seat, CheckChoice, "%d positions left unplayed, want %d", len(ch.Positions), want)
	}
	d.choices = append(d.choices, ch)
	return nil
}

// discardCount is how many positions a seat discards or passes under rule
// (none under "njet").
func discardCount(rule engine.DiscardRule) int {
	return map[engine.DiscardRule]int{engine.Discard1: 1, engine.Discard2: 2, engine.Discard1NoOnes: 1, engine.PassLeft: 1}[rule]
}

// applyRecoveredPlay plays a card of the gone seat: its bot posts the
// host's opening of the position with every other seat's tokens.
func (n *Njet) applyRecoveredPlay(seat int, body []byte) (*Violation, error) {
	var m crypto.RecoveredPlay
	if err := parseCrypto(tablelog.KindRecoveredPlay, body, &m); err != nil {
		return nil, err
	}
	return n.playPosition(seat, m.Position, func() (int, *Violation) { return n.g.verifyRecoveredPlay(seat, &m) }), nil
}

// recoveredChoice is what the gone seat's bot may play at the host: the
// cards it holds but the ones set aside as its discard, following suit.
func (n *Njet) recoveredChoice(seat int) (engine.View, []engine.Action) {
	d := n.d
	v := n.eng.View(seat)
	var hand engine.Hand
	for _, p := range n.holding(seat) {
		if c, ok := d.cardAt[p]; ok && !d.reserved[p] {
			hand = hand.Add(c)
		}
	}
	v.Hand = hand
	follow := hand
	if len(v.Trick.Plays) > 0 {
		led := engine.SuitOf(v.Trick.Plays[0].Card, v.Rules)
		var same engine.Hand
		for _, c := range hand.Cards(v.Edition) {
			if engine.SuitOf(c, v.Rules) == led {
				same = same.Add(c)
			}
		}
		if same != 0 {
			follow = same
		}
	}
	var legal []engine.Action
	for _, c := range follow.Cards(v.Edition) {
		legal = append(legal, engine.Action{Kind: engine.ActPlay, Seat: seat, Card: c})
	}
	return v, legal
}

// draftRecoveredPlay fills d with the gone seat's play of card a.Card.
func (n *Njet) draftRecoveredPlay(d *draft, seat int, a engine.Action, rnd io.Reader) error {
	g := n.g
	p, err := n.positionOf(seat, a.Card)
	if err != nil {
		return err
	}
	openings, err := g.recoveredOpenings(p, rnd)
	if err != nil {
		return err
	}
	d.body, err = cryptoBody(&crypto.RecoveredPlay{Seat: g.rd.host, Owner: seat, Position: p, Openings: openings})
	return err
}
