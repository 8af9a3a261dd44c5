package thegame

// View is what one seat may know: its own hand, the number of cards in the
// other hands, the piles, the cards played, the signals and the commands in
// force.
type View struct {
	Seat     int
	Players  int
	Extreme  bool
	HandSize int
	Phase    Phase
	Turn     int
	Turns    int

	Hand      []Card // the seat's own hand, ascending
	HandSizes []int  // cards in each seat's hand
	DrawPile  int
	Piles     [NumPiles]Pile
	Played    Cards // every card on the piles

	// The turn in progress (the seat on turn's Position without its hand).
	PlayedThisTurn int
	OnPiles        uint8
	Three          bool

	Signals [][NumPiles]Signal // per seat
	Muted   bool               // no talking is in force: the signals are greyed out
	InForce []Command          // the commands holding now, lasting and of this turn

	Result Result // meaningful in PhaseOver
}

// View returns what seat s may know (the zero View for a bad seat).
func (g *Game) View(s int) View {
	if s < 0 || s >= g.cfg.Players {
		return View{}
	}
	v := View{
		Seat: s, Players: g.cfg.Players, Extreme: g.cfg.Extreme, HandSize: g.handSize,
		Phase: g.phase, Turn: g.turn, Turns: g.turns,
		Hand: g.hand(s).List(), DrawPile: g.DrawPile(), Piles: g.pos.Piles, Played: g.played,
		Muted: g.pos.InForce(CmdSilence), Result: g.result,
	}
	for t := range g.cfg.Players {
		v.HandSizes = append(v.HandSizes, g.hand(t).Len())
		v.Signals = append(v.Signals, g.signals[t])
	}
	if g.phase == PhasePlay {
		v.PlayedThisTurn, v.OnPiles, v.Three = g.pos.Played, g.pos.OnPiles, g.pos.Three
	}
	v.InForce = g.inForce()
	return v
}

// inForce lists the commands holding now: the lasting ones visible on a
// pile and, in a turn, the one-turn commands its player must keep.
func (g *Game) inForce() []Command {
	if !g.cfg.Extreme {
		return nil
	}
	var out []Command
	for _, k := range Commands() {
		hold := false
		switch {
		case k.Lasting(), k == CmdSkull:
			hold = g.pos.InForce(k)
		case k == CmdThree:
			hold = g.phase == PhasePlay && g.pos.Three
		}
		if hold {
			out = append(out, k)
		}
	}
	return out
}

// Position returns the position the seat would plan its turn from: the
// piles and turn so far as seen, with the seat's own hand.
func (v *View) Position() Position {
	p := Position{Piles: v.Piles, DrawPile: v.DrawPile, Extreme: v.Extreme}
	for _, c := range v.Hand {
		p.Hand = p.Hand.Add(c)
	}
	if v.Phase == PhasePlay && v.Turn == v.Seat {
		p.Played, p.OnPiles, p.Three = v.PlayedThisTurn, v.OnPiles, v.Three
	}
	return p
}
