package thegame

import "fmt"

// Position is what the rules of one turn need: the piles, the hand of the
// player on turn, the size of the draw pile and what has happened in the
// turn so far. It is a plain value: copying it is cheap, so bots plan a turn
// on copies.
type Position struct {
	Piles    [NumPiles]Pile
	Hand     Cards
	DrawPile int  // cards left to draw
	Extreme  bool // the commands are in play

	Played  int   // cards played in this turn
	OnPiles uint8 // bit p: a card of this turn went on pile p
	Three   bool  // a "3!" was played in this turn
	Stopped bool  // a stop ended the turn
}

// Min returns the number of cards a turn must play: 2, or 1 once the draw
// pile is empty (G-B3).
func (p Position) Min() int {
	if p.DrawPile > 0 {
		return 2
	}
	return 1
}

// InForce reports whether a lasting command k is visible on a pile.
func (p *Position) InForce(k Command) bool {
	if !p.Extreme {
		return false
	}
	for i := range p.Piles {
		if p.Piles[i].Cmd == k {
			return true
		}
	}
	return false
}

// command returns the command c carries in this game.
func (p *Position) command(c Card) Command {
	if !p.Extreme {
		return CmdNone
	}
	return CommandOf(c)
}

// Why a play is refused; see CheckPlay.
const (
	okPlay = iota
	refBadCard
	refBadPile
	refStopped
	refNotInHand
	refNoFit
	refNoTrick
	refOnePile
	refThreeCount
	refThreeStop
	refStopSkull
)

// CanPlay reports whether c may go on pile now; CheckPlay says why not.
func (p *Position) CanPlay(c Card, pile int) bool { return p.refusal(c, pile) == okPlay }

// refusal returns why c may not go on pile, or okPlay. It is the hot path of
// every search, so it does not build errors.
func (p *Position) refusal(c Card, pile int) int {
	switch {
	case !c.Valid():
		return refBadCard
	case pile < 0 || pile >= NumPiles:
		return refBadPile
	case p.Stopped:
		return refStopped
	case !p.Hand.Has(c):
		return refNotInHand
	}
	ok, trick := p.Piles[pile].Fits(c)
	if !ok {
		return refNoFit
	}
	if !p.Extreme {
		return okPlay
	}
	k := CommandOf(c)
	if trick && p.InForce(CmdNoTrick) {
		return refNoTrick
	}
	if (k == CmdOnePile || p.InForce(CmdOnePile)) && p.OnPiles != 0 && p.OnPiles|1<<pile != 1<<pile {
		return refOnePile
	}
	three := p.Three || k == CmdThree
	if three && p.Played >= 3 {
		return refThreeCount
	}
	if k == CmdStop {
		if three && p.Played != 2 {
			return refThreeStop
		}
		for i := range p.Piles {
			if i != pile && p.Piles[i].Cmd == CmdSkull {
				return refStopSkull
			}
		}
	}
	return okPlay
}

// CheckPlay reports whether c may go on pile now, without changing anything.
// The error wraps ErrBadCard, ErrBadAction, ErrNotInHand, ErrIllegalPlay or
// ErrCommand.
func (p *Position) CheckPlay(c Card, pile int) error {
	pl := Pile{}
	if pile >= 0 && pile < NumPiles {
		pl = p.Piles[pile]
	}
	switch p.refusal(c, pile) {
	case okPlay:
		return nil
	case refBadCard:
		return fmt.Errorf("%w: %d", ErrBadCard, c)
	case refBadPile:
		return fmt.Errorf("%w: no pile %d", ErrBadAction, pile)
	case refStopped:
		return fmt.Errorf("%w: a stop has ended the turn", ErrCommand)
	case refNotInHand:
		return fmt.Errorf("%w: %s", ErrNotInHand, c)
	case refNoFit:
		if pl.Up {
			return fmt.Errorf("%w: %s on a rising pile showing %d (higher, or exactly %d)", ErrIllegalPlay, c, pl.Top, pl.Top-10)
		}
		return fmt.Errorf("%w: %s on a falling pile showing %d (lower, or exactly %d)", ErrIllegalPlay, c, pl.Top, pl.Top+10)
	case refNoTrick:
		return fmt.Errorf("%w: no backwards trick is in force", ErrCommand)
	case refOnePile:
		return fmt.Errorf("%w: all cards of this turn must go on one pile", ErrCommand)
	case refThreeCount:
		return fmt.Errorf("%w: \"3!\" allows exactly 3 cards in this turn", ErrCommand)
	case refThreeStop:
		return fmt.Errorf("%w: under \"3!\" a stop may only be the third card", ErrCommand)
	}
	return fmt.Errorf("%w: a stop now would leave a skull uncovered", ErrCommand)
}

// Play puts c on pile. It checks only that c and pile exist (and does
// nothing otherwise): call CanPlay or CheckPlay first.
func (p *Position) Play(c Card, pile int) {
	if !c.Valid() || pile < 0 || pile >= NumPiles {
		return
	}
	p.Hand = p.Hand.Remove(c)
	k := p.command(c)
	p.Piles[pile].Top = int(c)
	p.Piles[pile].Cmd = k
	p.Played++
	p.OnPiles |= 1 << pile
	switch k {
	case CmdThree:
		p.Three = true
	case CmdStop:
		p.Stopped = true
	}
}

// SkullOpen reports whether a skull lies uncovered on a pile.
func (p *Position) SkullOpen() bool { return p.InForce(CmdSkull) }

// CheckEnd reports whether the player may end the turn now: the minimum is
// played, no skull lies uncovered and a "3!" has its three cards (G-B3,
// G-X3, G-X4). A turn ended by a stop is complete.
func (p *Position) CheckEnd() error {
	switch {
	case p.Stopped:
		return nil
	case p.SkullOpen():
		return fmt.Errorf("%w: the skull must be covered in this turn", ErrCommand)
	case p.Three && p.Played != 3:
		return fmt.Errorf("%w: \"3!\" needs exactly 3 cards, %d played", ErrCommand, p.Played)
	case p.Played < p.Min():
		return fmt.Errorf("%w: %d of at least %d cards played", ErrTooFew, p.Played, p.Min())
	}
	return nil
}

// CanEnd reports whether the turn may end now; CheckEnd says why not.
func (p *Position) CanEnd() bool {
	return p.Stopped || !p.SkullOpen() && (!p.Three || p.Played == 3) && p.Played >= p.Min()
}

// CanPlayAny reports whether some card of the hand may go on some pile.
func (p *Position) CanPlayAny() bool {
	for range p.plays {
		return true
	}
	return false
}

// plays yields every card of the hand with each pile it may go on now, in
// the order of the cards and then of the piles.
func (p *Position) plays(yield func(Card, int) bool) {
	for w := range 2 {
		for x := p.Hand[w]; x != 0; x &= x - 1 {
			c := Card(w*64 + trailing(x))
			for pile := range NumPiles {
				if p.CanPlay(c, pile) && !yield(c, pile) {
					return
				}
			}
		}
	}
}

// Feasible reports whether the turn can still be completed with every
// command kept: it may end now, or some sequence of plays from the hand
// leads to a position where it may. After a play that leaves it false the
// game is over (G-B6, G-X2).
//
// The search remembers the positions it has found to be dead ends: cards
// laid on different piles lead to the same position in either order, so
// without that memory a skull that nothing can cover would make it try
// every order of the whole hand.
func (p *Position) Feasible() bool {
	if p.CanEnd() {
		return true
	}
	var dead map[turnKey]struct{}
	return p.feasible(&dead)
}

// turnKey is what decides the rest of a turn, the draw pile and the
// variant aside (they do not change within a turn).
type turnKey struct {
	hand    Cards
	tops    [NumPiles]uint8
	onPiles uint8
	played  uint8
	three   bool
}

func (p *Position) key() turnKey {
	k := turnKey{hand: p.Hand, onPiles: p.OnPiles, played: uint8(min(p.Played, 255)), three: p.Three}
	for i := range p.Piles {
		k.tops[i] = uint8(p.Piles[i].Top)
	}
	return k
}

// feasible is Feasible's search; dead holds the positions known to lead
// nowhere, made when first needed.
func (p *Position) feasible(dead *map[turnKey]struct{}) bool {
	if p.CanEnd() {
		return true
	}
	if p.plainlyStuck() {
		return false
	}
	var k turnKey
	if *dead != nil {
		k = p.key()
		if _, ok := (*dead)[k]; ok {
			return false
		}
	}
	for c, pile := range p.plays {
		q := *p
		q.Play(c, pile)
		if q.feasible(dead) {
			return true
		}
	}
	if *dead == nil {
		*dead = make(map[turnKey]struct{})
		k = p.key()
	}
	(*dead)[k] = struct{}{}
	return false
}

// plainlyStuck reports a turn that cannot be completed whatever is laid: a
// skull whose pile no card of the hand fits (its top stays until a card
// covers it), or a "3!" with too few cards left. It is only a shortcut: it
// never says stuck when some sequence completes the turn.
func (p *Position) plainlyStuck() bool {
	if !p.Extreme || p.Stopped {
		return false
	}
	if p.Three && p.Played+p.Hand.Len() < 3 {
		return true
	}
	for i := range p.Piles {
		if p.Piles[i].Cmd != CmdSkull {
			continue
		}
		fits := false
		for w := range 2 {
			for x := p.Hand[w]; x != 0 && !fits; x &= x - 1 {
				fits, _ = p.Piles[i].Fits(Card(w*64 + trailing(x)))
			}
		}
		if !fits {
			return true
		}
	}
	return false
}

// CanPlayMin reports whether the hand can play the turn's minimum number of
// cards (or a stop), commands that would bind later aside. A turn that
// cannot is never begun: the game ends (G-B6). A turn that can but then
// cannot keep a skull or a "3!" loses the game (G-X2). It looks at most two
// cards deep.
func (p *Position) CanPlayMin() bool {
	if p.Stopped || p.Played >= p.Min() {
		return true
	}
	for c, pile := range p.plays {
		q := *p
		q.Play(c, pile)
		if q.CanPlayMin() {
			return true
		}
	}
	return false
}

// Broken names the command a position that is not Feasible fails to keep:
// CmdSkull, CmdThree, or CmdNone when the turn simply cannot play its
// minimum.
func (p *Position) Broken() Command {
	switch {
	case p.SkullOpen():
		return CmdSkull
	case p.Three:
		return CmdThree
	}
	return CmdNone
}
