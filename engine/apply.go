package engine

import (
	"fmt"
	"math/bits"
)

// Apply validates a and, when it is legal, carries it out. It checks in a
// fixed order: the game is over, the action does not belong to this phase,
// the action is malformed, it is not this seat's turn, then the move itself.
// A rejected action leaves the game unchanged; the error wraps one of the
// sentinels of errors.go, and a renege (ErrRenege) comes as a *SeatError.
func (g *Game) Apply(a Action) error {
	if err := g.check(&a); err != nil {
		return err
	}
	switch a.Kind {
	case ActDeal:
		g.doDeal(&a)
	case ActBlock:
		g.doBlock(&a)
	case ActTeam:
		g.doTeam(&a)
	case ActDiscard:
		g.doDiscard(&a)
	case ActPass:
		g.doPass(&a)
	case ActPlay:
		g.doPlay(a.Seat, a.Card)
	}
	return nil
}

// kindAllowed reports whether an action of kind k belongs to the phase.
func (g *Game) kindAllowed(k Kind) bool {
	switch g.phase {
	case PhaseDeal, PhaseRoundOver:
		return k == ActDeal
	case PhaseNjet:
		return k == ActBlock
	case PhaseTeams:
		return k == ActTeam
	case PhaseDiscard:
		if g.rs.rules.Discard == PassLeft {
			return k == ActPass
		}
		return k == ActDiscard
	case PhaseTricks:
		return k == ActPlay
	}
	return false
}

// check validates a without changing anything.
func (g *Game) check(a *Action) error {
	if g.phase == PhaseGameOver {
		return ErrGameOver
	}
	if a.Kind < ActDeal || a.Kind > ActPlay {
		return fmt.Errorf("%w: unknown action kind %d", ErrBadAction, a.Kind)
	}
	if !g.kindAllowed(a.Kind) {
		return fmt.Errorf("%w: %s during %s", ErrWrongPhase, a.Kind, g.phase)
	}
	if a.Seat < 0 || a.Seat >= g.n {
		return fmt.Errorf("%w: seat %d", ErrBadAction, a.Seat)
	}
	switch a.Kind {
	case ActDeal:
		return g.checkDeal(a)
	case ActBlock:
		return g.checkBlock(a)
	case ActTeam:
		return g.checkTeam(a)
	case ActDiscard:
		return g.checkDiscard(a)
	case ActPass:
		return g.checkPass(a)
	}
	return g.checkPlay(a)
}

// checkCard reports a card id that is not a card of this game's edition.
func (g *Game) checkCard(c Card) error {
	if !c.Valid() || c.Edition() != g.ed {
		return fmt.Errorf("%w: card id %d in a %s game", ErrBadCard, c, g.ed)
	}
	return nil
}

// holdable reports whether seat s may hold c: it is known to be in the hand,
// or the hand has unknown cards and c is in play and located nowhere else.
func (g *Game) holdable(s int, c Card) bool {
	return g.rs.known[s].Has(c) || g.rs.unknown[s] > 0 && g.deck.Has(c) && !g.rs.located.Has(c)
}

func (g *Game) checkDeal(a *Action) error {
	if g.phase == PhaseDeal && g.rs.dealtSet&(1<<a.Seat) != 0 {
		return fmt.Errorf("%w: seat %d has been dealt", ErrAlreadyActed, a.Seat)
	}
	if a.Hidden {
		return nil
	}
	if a.Hand.Len() != g.handSize {
		return fmt.Errorf("%w: a hand of %d cards, want %d", ErrBadAction, a.Hand.Len(), g.handSize)
	}
	if a.Hand&^g.deck != 0 {
		return fmt.Errorf("%w: the hand of seat %d holds cards not in play", ErrIllegalCard, a.Seat)
	}
	if g.phase == PhaseDeal && a.Hand&g.rs.located != 0 {
		return fmt.Errorf("%w: the hand of seat %d holds cards dealt to another seat", ErrIllegalCard, a.Seat)
	}
	return nil
}

func (g *Game) doDeal(a *Action) {
	if g.phase == PhaseRoundOver {
		g.nextRound()
	}
	s := a.Seat
	g.rs.dealtSet |= 1 << s
	if a.Hidden {
		g.rs.unknown[s] = int8(g.handSize)
	} else {
		g.rs.dealtKnown |= 1 << s
		g.rs.dealt[s] = a.Hand
		g.rs.known[s] = a.Hand
		g.rs.located |= a.Hand
	}
	if int(g.rs.dealtSet) == 1<<g.n-1 {
		g.phase = PhaseNjet
		g.rs.turn = g.njetStarter()
	}
}

// DealDeck deals a whole round: seat s receives deck[s*h:(s+1)*h], where h
// is the hand size, and any cards after the last hand stay unused (Modern
// with 2 players). deck must be an ordering of Edition.Deck(players). It is
// accepted at PhaseDeal before any seat has been dealt and at
// PhaseRoundOver; like Apply it changes nothing when it fails.
func (g *Game) DealDeck(deck []Card) error {
	switch {
	case g.phase == PhaseGameOver:
		return ErrGameOver
	case g.phase != PhaseDeal && g.phase != PhaseRoundOver:
		return fmt.Errorf("%w: deal during %s", ErrWrongPhase, g.phase)
	case g.phase == PhaseDeal && g.rs.dealtSet != 0:
		return fmt.Errorf("%w: the deal of this round has begun", ErrAlreadyActed)
	}
	if len(deck) != g.deck.Len() {
		return fmt.Errorf("%w: a deck of %d cards, want %d", ErrBadAction, len(deck), g.deck.Len())
	}
	var seen Hand
	for _, c := range deck {
		if err := g.checkCard(c); err != nil {
			return err
		}
		if !g.deck.Has(c) || seen.Has(c) {
			return fmt.Errorf("%w: %s is not in play or repeated", ErrIllegalCard, c)
		}
		seen = seen.Add(c)
	}
	for s := 0; s < g.n; s++ {
		var h Hand
		for _, c := range deck[s*g.handSize : (s+1)*g.handSize] {
			h = h.Add(c)
		}
		g.doDeal(&Action{Kind: ActDeal, Seat: s, Hand: h})
	}
	return nil
}

func (g *Game) checkBlock(a *Action) error {
	if a.Row >= NumRows || int(a.Field) >= g.ed.Fields(a.Row) {
		return fmt.Errorf("%w: no field %d in row %s", ErrBadAction, a.Field, a.Row)
	}
	if a.Seat != g.rs.turn {
		return fmt.Errorf("%w: seat %d blocks, seat %d is to block", ErrNotYourTurn, a.Seat, g.rs.turn)
	}
	b := g.rs.board
	if b.Blocked(a.Row, a.Field) {
		return fmt.Errorf("%w: %s %s is already blocked", ErrIllegalBlock, a.Row, g.ed.FieldName(a.Row, a.Field))
	}
	if b.FreeCount(g.ed, a.Row) < 2 {
		return fmt.Errorf("%w: %s %s is the last free field of its row", ErrIllegalBlock, a.Row, g.ed.FieldName(a.Row, a.Field))
	}
	return nil
}

func (g *Game) doBlock(a *Action) {
	g.rs.board = g.rs.board.Block(a.Row, a.Field)
	g.rs.blocks[g.rs.nblocks] = Block{Seat: a.Seat, Row: a.Row, Field: a.Field}
	g.rs.nblocks++
	for r := Row(0); r < NumRows; r++ {
		if g.rs.board.FreeCount(g.ed, r) > 1 {
			g.rs.turn = (g.rs.turn + 1) % g.n
			return
		}
	}
	g.endNjet()
}

// endNjet reads the rules off the board (R-NJET-2) and moves on to teams.
func (g *Game) endNjet() {
	b := g.rs.board
	e := g.ed
	cols := e.Colours()
	r := &g.rs.rules
	f := b.onlyFree(e, RowStart)
	r.Start = e.Characters()[f]
	r.StartSeat = int(g.fieldSeat[f])
	r.Discard = b.onlyFree(e, RowDiscard)
	r.Trump = cols[b.onlyFree(e, RowTrump)]
	r.Super = NoColour
	if f := b.onlyFree(e, RowSuper); f != SuperNjet {
		r.Super = cols[f]
	}
	r.Points = PointsValue(b.onlyFree(e, RowPoints))
	for _, c := range cols {
		g.rs.suit[c] = g.colourMask[c]
	}
	if r.Super != NoColour {
		sup := g.colourMask[r.Super] & g.ones
		g.rs.suit[r.Super] &^= sup
		g.rs.suit[r.Trump] |= sup
	}
	g.rs.turn = r.StartSeat
	if g.n == 2 {
		g.setTeams(0, -1)
		return
	}
	g.phase = PhaseTeams
}

func (g *Game) checkTeam(a *Action) error {
	if a.Partners>>g.n != 0 {
		return fmt.Errorf("%w: partners %#b name no seat", ErrBadAction, a.Partners)
	}
	if g.n == 5 && (a.Bonus < 0 || a.Bonus >= g.n) {
		return fmt.Errorf("%w: bonus seat %d", ErrBadAction, a.Bonus)
	}
	start := g.rs.rules.StartSeat
	if a.Seat != start {
		return fmt.Errorf("%w: seat %d forms the teams, not seat %d", ErrNotYourTurn, start, a.Seat)
	}
	if a.Partners&(1<<start) != 0 {
		return fmt.Errorf("%w: the start player cannot be its own partner", ErrIllegalTeam)
	}
	k := bits.OnesCount8(a.Partners)
	switch g.n {
	case 3:
		if k > 1 {
			return fmt.Errorf("%w: with 3 players the start player takes at most one partner", ErrIllegalTeam)
		}
	case 4:
		if k != 1 {
			return fmt.Errorf("%w: with 4 players the start player takes one partner", ErrIllegalTeam)
		}
	case 5:
		if k != 1 && k != 2 {
			return fmt.Errorf("%w: with 5 players the start player takes one or two partners", ErrIllegalTeam)
		}
		inStart := a.Bonus == start || a.Partners&(1<<a.Bonus) != 0
		if inStart != (k == 1) {
			return fmt.Errorf("%w: the bonus card goes to a member of the two-player team", ErrIllegalTeam)
		}
	}
	return nil
}

func (g *Game) doTeam(a *Action) {
	bonus := -1
	switch {
	case g.n == 3 && a.Partners == 0:
		bonus = g.rs.rules.StartSeat
	case g.n == 3:
		bonus = bits.TrailingZeros8(uint8(1<<g.n-1) &^ a.Partners &^ (1 << g.rs.rules.StartSeat))
	case g.n == 5:
		bonus = a.Bonus
	}
	g.setTeams(a.Partners, bonus)
}

// setTeams forms the teams (R-TEAM) and moves on to the discard phase, or
// straight to the tricks when the discard rule is Njet.
func (g *Game) setTeams(partners uint8, bonus int) {
	partners |= 1 << g.rs.rules.StartSeat
	for s := 0; s < g.n; s++ {
		g.rs.team[s] = 1
		if partners&(1<<s) != 0 {
			g.rs.team[s] = 0
		}
	}
	g.rs.bonus = bonus
	if g.rs.rules.Discard == DiscardNjet {
		g.startTricks()
		return
	}
	g.phase = PhaseDiscard
	g.rs.turn = -1
}

func (g *Game) checkDiscard(a *Action) error {
	rule := g.rs.rules.Discard
	k := discardCount(rule)
	if !a.Hidden {
		for i := 0; i < k; i++ {
			if err := g.checkCard(a.Cards[i]); err != nil {
				return err
			}
		}
		if k == 1 && a.Cards[1] != NoCard {
			return fmt.Errorf("%w: one card to discard, Cards[1] must be NoCard", ErrBadAction)
		}
		if k == 2 && a.Cards[0] == a.Cards[1] {
			return fmt.Errorf("%w: the same card twice", ErrBadAction)
		}
	}
	s := a.Seat
	if g.rs.acted&(1<<s) != 0 {
		return fmt.Errorf("%w: seat %d has discarded", ErrAlreadyActed, s)
	}
	if a.Hidden {
		if g.rs.known[s] != 0 || int(g.rs.unknown[s]) < k {
			return fmt.Errorf("%w: a hidden discard from a hand this engine knows", ErrBadAction)
		}
		return nil
	}
	fromPool := 0
	for i := 0; i < k; i++ {
		c := a.Cards[i]
		if !g.holdable(s, c) {
			return fmt.Errorf("%w: seat %d cannot hold %s", ErrIllegalCard, s, c)
		}
		if !g.rs.known[s].Has(c) {
			fromPool++
		}
	}
	if fromPool > int(g.rs.unknown[s]) {
		return fmt.Errorf("%w: seat %d has %d unknown cards", ErrIllegalCard, s, g.rs.unknown[s])
	}
	if rule == Discard1NoOnes && a.Cards[0].Value() == 1 && g.rs.known[s]&^g.ones != 0 {
		return fmt.Errorf("%w: seat %d discards a 1 while holding other cards", ErrIllegalDiscard, s)
	}
	return nil
}

func (g *Game) doDiscard(a *Action) {
	s := a.Seat
	k := discardCount(g.rs.rules.Discard)
	g.rs.acted |= 1 << s
	if a.Hidden {
		g.rs.discardHidden |= 1 << s
		g.rs.unknown[s] -= int8(k)
	} else {
		for i := 0; i < k; i++ {
			c := a.Cards[i]
			if g.rs.known[s].Has(c) {
				g.rs.known[s] = g.rs.known[s].Remove(c)
			} else {
				g.rs.unknown[s]--
				g.rs.located = g.rs.located.Add(c)
			}
			g.rs.discards[s] = g.rs.discards[s].Add(c)
		}
	}
	if int(g.rs.acted) == 1<<g.n-1 {
		g.startTricks()
	}
}

func (g *Game) checkPass(a *Action) error {
	if !a.Hidden {
		if err := g.checkCard(a.Card); err != nil {
			return err
		}
	}
	s := a.Seat
	if g.rs.acted&(1<<s) != 0 {
		return fmt.Errorf("%w: seat %d has passed", ErrAlreadyActed, s)
	}
	if a.Hidden {
		if g.rs.unknown[s] == 0 {
			return fmt.Errorf("%w: a hidden pass from a hand this engine knows", ErrBadAction)
		}
		return nil
	}
	if !g.holdable(s, a.Card) {
		return fmt.Errorf("%w: seat %d cannot hold %s", ErrIllegalCard, s, a.Card)
	}
	return nil
}

func (g *Game) doPass(a *Action) {
	s := a.Seat
	g.rs.acted |= 1 << s
	if a.Hidden {
		g.rs.passHidden |= 1 << s
	} else {
		c := a.Card
		if !g.rs.known[s].Has(c) {
			// The card is now known to be in this hand until the passes
			// are carried out.
			g.rs.unknown[s]--
			g.rs.known[s] = g.rs.known[s].Add(c)
			g.rs.located = g.rs.located.Add(c)
		}
		g.rs.passes[s] = c
	}
	if int(g.rs.acted) != 1<<g.n-1 {
		return
	}
	// Everyone has chosen: take every passed card out, then hand them over,
	// so that no received card is passed on (R-DISCARD).
	for s := 0; s < g.n; s++ {
		if g.rs.passHidden&(1<<s) != 0 {
			g.rs.unknown[s]--
		} else {
			g.rs.known[s] = g.rs.known[s].Remove(g.rs.passes[s])
		}
	}
	for s := 0; s < g.n; s++ {
		to := (s + 1) % g.n
		if g.rs.passHidden&(1<<s) != 0 {
			g.rs.unknown[to]++
		} else {
			g.rs.known[to] = g.rs.known[to].Add(g.rs.passes[s])
			g.rs.received[to] = g.rs.passes[s]
		}
	}
	g.startTricks()
}

// startTricks begins trick play: the start player leads (R-TRICK).
func (g *Game) startTricks() {
	g.phase = PhaseTricks
	g.rs.tricks = g.handSize - discardCount(g.rs.rules.Discard)
	g.rs.turn = g.rs.rules.StartSeat
	g.rs.leaders[0] = int8(g.rs.turn)
	g.rs.trickLen = 0
}

// suitOf is SuitOf under the round's rules (R-TRICK-1).
func (g *Game) suitOf(c Card) Colour {
	if g.rs.suit[g.rs.rules.Trump].Has(c) {
		return g.rs.rules.Trump
	}
	return c.Colour()
}

// voidMask is every card of the suits seat s has shown it lacks.
func (g *Game) voidMask(s int) Hand {
	var m Hand
	for v := g.rs.voids[s]; v != 0; v &= v - 1 {
		m |= g.rs.suit[bits.TrailingZeros8(v)]
	}
	return m
}

func (g *Game) checkPlay(a *Action) error {
	if err := g.checkCard(a.Card); err != nil {
		return err
	}
	if a.Hidden {
		return fmt.Errorf("%w: a played card is never hidden", ErrBadAction)
	}
	s, c := a.Seat, a.Card
	if s != g.rs.turn {
		return fmt.Errorf("%w: seat %d plays, seat %d is to play", ErrNotYourTurn, s, g.rs.turn)
	}
	if !g.holdable(s, c) {
		return fmt.Errorf("%w: seat %d cannot hold %s", ErrIllegalCard, s, c)
	}
	suit := g.suitOf(c)
	if g.rs.voids[s]&(1<<suit) != 0 {
		return &SeatError{Seat: s, Err: fmt.Errorf("%w: %s after showing no %s", ErrRenege, c, suit)}
	}
	if g.rs.trickLen > 0 && suit != g.rs.led && g.rs.known[s]&g.rs.suit[g.rs.led] != 0 {
		return fmt.Errorf("%w: seat %d holds %s and plays %s", ErrMustFollow, s, g.rs.led, c)
	}
	return nil
}

// rankOf orders the cards of the trick under way (R-WIN): supertrumps above
// trumps above the led suit; a card of another suit has rank 0 and never
// wins. Equal ranks occur only among 1s, and the later card wins.
func (g *Game) rankOf(c Card, suit Colour) int {
	r := &g.rs.rules
	switch {
	case r.Super != NoColour && c.Value() == 1 && c.Colour() == r.Super:
		return 3 << 4
	case suit == r.Trump:
		return 2<<4 | c.Value()
	case suit == g.rs.led:
		return 1<<4 | c.Value()
	}
	return 0
}

func (g *Game) doPlay(s int, c Card) {
	rs := &g.rs
	if rs.known[s].Has(c) {
		rs.known[s] = rs.known[s].Remove(c)
	} else {
		rs.unknown[s]--
		rs.located = rs.located.Add(c)
	}
	suit := g.suitOf(c)
	if rs.trickLen == 0 {
		rs.led = suit
		rs.bestRank = 0
	} else if suit != rs.led {
		rs.voids[s] |= 1 << rs.led
	}
	if k := g.rankOf(c, suit); k > 0 && k >= rs.bestRank {
		rs.bestRank = k
		rs.bestSeat = s
	}
	rs.plays[rs.nplays] = c
	rs.nplays++
	rs.trickLen++
	if rs.trickLen < g.n {
		rs.turn = (s + 1) % g.n
		return
	}
	// The trick is complete: R-WIN and R-LOOT.
	w := rs.bestSeat
	wt := rs.team[w]
	leader := int(rs.leaders[rs.done])
	loot := 0
	for i, c := range rs.plays[rs.nplays-g.n : rs.nplays] {
		if c.Value() == 1 && rs.team[(leader+i)%g.n] != wt {
			loot++
		}
	}
	rs.winners[rs.done] = int8(w)
	rs.won[wt]++
	rs.loot[wt] += loot
	rs.done++
	rs.trickLen = 0
	if rs.done < rs.tricks {
		rs.leaders[rs.done] = int8(w)
		rs.turn = w
		return
	}
	g.score()
}

// score credits the round (R-SCORE) and ends the round or the game (R-END).
func (g *Game) score() {
	rs := &g.rs
	v := rs.rules.Points
	reached := false
	for s := 0; s < g.n; s++ {
		t := rs.team[s]
		p := (rs.won[t] + rs.loot[t]) * v
		if s == rs.bonus {
			p *= 2
		}
		rs.points[s] = p
		g.totals[s] += p
		reached = reached || g.cfg.Target > 0 && g.totals[s] >= g.cfg.Target
	}
	rs.scored = true
	rs.turn = -1
	if reached || g.rounds > 0 && g.round >= g.rounds {
		g.phase = PhaseGameOver
		return
	}
	g.phase = PhaseRoundOver
}
