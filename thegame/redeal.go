package thegame

import "fmt"

// Public is the part of a game everyone at the table knows: the piles and
// the cards on them, whose turn it is and what that turn has done, the
// size of every hand, the draws due and the signals. The cards in the
// hands and the order of the draw pile are not part of it.
//
// A table whose device left for good keeps the public part and deals the
// hidden part again (Resume): every card not yet played is shuffled anew,
// each seat gets a new hand of the size it held and the rest becomes the
// draw pile.
type Public struct {
	Phase     Phase // PhasePlay or PhaseDraw
	Turn      int   // the seat on turn (in PhaseDraw: the seat drawing)
	Turns     int   // turns begun so far
	Piles     [NumPiles]Pile
	Played    Cards // every card on the piles
	HandSizes []int // cards in each seat's hand
	Due       int   // PhaseDraw: the cards the seat on turn still draws
	Signals   [MaxPlayers][NumPiles]Signal

	// The turn in progress (PhasePlay).
	PlayedThisTurn int
	OnPiles        uint8
	Three          bool
}

// Public returns the public part of the game; it is meaningful in
// PhasePlay and PhaseDraw.
func (g *Game) Public() Public {
	pub := Public{Phase: g.phase, Turn: g.turn, Turns: g.turns, Piles: g.pos.Piles, Played: g.played,
		Due: g.due, Signals: g.signals}
	for s := range g.cfg.Players {
		pub.HandSizes = append(pub.HandSizes, g.hand(s).Len())
	}
	if g.phase == PhasePlay {
		pub.PlayedThisTurn, pub.OnPiles, pub.Three = g.pos.Played, g.pos.OnPiles, g.pos.Three
	}
	return pub
}

// Resume returns a game of cfg at the public position pub with new hidden
// cards: hands[s] becomes seat s's hand and pile holds the cards left to
// draw (its order is the caller's: draws name their card). It checks that
// the position can happen in a game of cfg and that the hands and the pile
// hold exactly the cards not on the piles, each once, every hand of the
// size pub gives it. As after any play, a turn that can no longer be
// completed with the new hand ends the game (G-B6, G-X2).
func Resume(cfg Config, pub Public, hands [][]Card, pile []Card) (*Game, error) {
	g, err := NewGame(cfg)
	if err != nil {
		return nil, err
	}
	if err := g.checkPublic(&pub); err != nil {
		return nil, err
	}
	if len(hands) != cfg.Players {
		return nil, fmt.Errorf("%w: %d hands for %d players", ErrBadAction, len(hands), cfg.Players)
	}
	seen := pub.Played
	take := func(c Card) error {
		if !c.Valid() {
			return fmt.Errorf("%w: %d", ErrBadCard, c)
		}
		if seen.Has(c) {
			return fmt.Errorf("%w: %s is dealt twice or lies on a pile", ErrDrawn, c)
		}
		seen = seen.Add(c)
		return nil
	}
	for s, h := range hands {
		if len(h) != pub.HandSizes[s] {
			return nil, fmt.Errorf("%w: seat %d gets %d cards, it held %d", ErrBadAction, s, len(h), pub.HandSizes[s])
		}
		for _, c := range h {
			if err := take(c); err != nil {
				return nil, err
			}
			g.hands[s] = g.hands[s].Add(c)
		}
	}
	for _, c := range pile {
		if err := take(c); err != nil {
			return nil, err
		}
	}
	if seen.Len() != DeckSize {
		return nil, fmt.Errorf("%w: the hands and the pile miss %d cards not played", ErrBadAction, DeckSize-seen.Len())
	}
	if pub.Phase == PhaseDraw && pub.Due > len(pile) {
		return nil, fmt.Errorf("%w: %d draws due, %d cards to draw", ErrBadAction, pub.Due, len(pile))
	}
	g.phase, g.turn, g.turns, g.due, g.signals = pub.Phase, pub.Turn, pub.Turns, pub.Due, pub.Signals
	g.played = pub.Played
	// The cards in the pile count as not drawn yet: seen holds the played
	// ones and the hands.
	g.seen = seen
	for _, c := range pile {
		g.seen = g.seen.Remove(c)
	}
	g.drawn = DeckSize - len(pile)
	g.pos = Position{Piles: pub.Piles, DrawPile: len(pile), Extreme: cfg.Extreme}
	if g.phase != PhasePlay {
		return g, nil
	}
	g.pos.Hand = g.hands[g.turn]
	g.pos.Played, g.pos.OnPiles, g.pos.Three = pub.PlayedThisTurn, pub.OnPiles, pub.Three
	switch {
	case g.pos.Played == 0 && !g.pos.CanPlayMin():
		g.over(CmdNone)
	case g.pos.Played > 0 && !g.pos.Feasible():
		g.over(g.pos.Broken())
	}
	return g, nil
}

// Redeal keeps the public part of the game and replaces its hidden part:
// hands and pile as for Resume. It is valid in PhasePlay and PhaseDraw; a
// rejected redeal leaves the game unchanged.
func (g *Game) Redeal(hands [][]Card, pile []Card) error {
	ng, err := Resume(g.cfg, g.Public(), hands, pile)
	if err != nil {
		return err
	}
	*g = *ng
	return nil
}

// checkPublic checks that pub is a position a game of g's configuration
// can be in between two actions of the play.
func (g *Game) checkPublic(pub *Public) error {
	n := g.cfg.Players
	switch {
	case pub.Phase != PhasePlay && pub.Phase != PhaseDraw:
		return fmt.Errorf("%w: a redeal in %s", ErrWrongPhase, pub.Phase)
	case pub.Turn < 0 || pub.Turn >= n:
		return fmt.Errorf("%w: seat %d on turn in a game of %d", ErrBadAction, pub.Turn, n)
	case pub.Turns < 1:
		return fmt.Errorf("%w: %d turns begun", ErrBadAction, pub.Turns)
	case len(pub.HandSizes) != n:
		return fmt.Errorf("%w: %d hand sizes for %d players", ErrBadAction, len(pub.HandSizes), n)
	case pub.PlayedThisTurn < 0 || pub.PlayedThisTurn > g.handSize || pub.OnPiles >= 1<<NumPiles:
		return fmt.Errorf("%w: a turn of %d cards on piles %b", ErrBadAction, pub.PlayedThisTurn, pub.OnPiles)
	case pub.Phase == PhaseDraw && (pub.Due < 1 || pub.Due > g.handSize || pub.PlayedThisTurn != 0):
		return fmt.Errorf("%w: %d draws due", ErrBadAction, pub.Due)
	case pub.Phase == PhasePlay && pub.Due != 0:
		return fmt.Errorf("%w: %d draws due during a turn", ErrBadAction, pub.Due)
	}
	for s, k := range pub.HandSizes {
		if k < 0 || k > g.handSize {
			return fmt.Errorf("%w: seat %d holds %d cards", ErrBadAction, s, k)
		}
	}
	if pub.Phase == PhasePlay && pub.HandSizes[pub.Turn] == 0 && pub.PlayedThisTurn == 0 {
		return fmt.Errorf("%w: seat %d is on turn with no cards", ErrBadAction, pub.Turn)
	}
	for i, p := range pub.Piles {
		start := startPiles()[i]
		if p.Up != start.Up || p.Top != start.Top && (p.Top < int(MinCard) || p.Top > int(MaxCard) || !pub.Played.Has(Card(p.Top))) {
			return fmt.Errorf("%w: pile %d shows %d, which was not played", ErrBadAction, i, p.Top)
		}
		want := CmdNone
		if g.cfg.Extreme && p.Top != start.Top {
			want = CommandOf(Card(p.Top))
		}
		if p.Cmd != want {
			return fmt.Errorf("%w: pile %d shows the command %s on %d", ErrBadAction, i, p.Cmd, p.Top)
		}
	}
	for s := n; s < MaxPlayers; s++ {
		if pub.Signals[s] != ([NumPiles]Signal{}) {
			return fmt.Errorf("%w: signals of seat %d in a game of %d", ErrBadAction, s, n)
		}
	}
	for s := range n {
		for _, sg := range pub.Signals[s] {
			if sg >= numSignals {
				return fmt.Errorf("%w: unknown signal %d", ErrBadAction, sg)
			}
		}
	}
	return nil
}
