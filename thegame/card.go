package thegame

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Card is a number card of The Game, 2 to 99. The pile starters 1 and 100
// are not cards; Pile.Top holds them as plain numbers.
type Card uint8

// The range of the number cards and the size of the deck.
const (
	MinCard  Card = 2
	MaxCard  Card = 99
	DeckSize      = 98
)

// Valid reports whether c is one of the 98 number cards.
func (c Card) Valid() bool { return c >= MinCard && c <= MaxCard }

// String returns the number, e.g. "37".
func (c Card) String() string { return strconv.Itoa(int(c)) }

// Deck returns the 98 cards in ascending order.
func Deck() []Card {
	d := make([]Card, 0, DeckSize)
	for c := MinCard; c <= MaxCard; c++ {
		d = append(d, c)
	}
	return d
}

// Cards is a set of cards, one bit per number 0 to 127. The zero value is
// the empty set.
type Cards [2]uint64

// Has reports whether c is in the set.
func (s Cards) Has(c Card) bool { return c < 128 && s[c>>6]&(1<<(c&63)) != 0 }

// Add returns the set with c added; numbers from 128 up are left out.
func (s Cards) Add(c Card) Cards {
	if c < 128 {
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

// Remove returns the set without c.
func (s Cards) Remove(c Card) Cards {
	if c < 128 {
		s[c>>6] &^= 1 << (c & 63)
	}
	return s
}

// Len returns the number of cards in the set.
func (s Cards) Len() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// Union returns the cards in s or t.
func (s Cards) Union(t Cards) Cards { return Cards{s[0] | t[0], s[1] | t[1]} }

// List returns the cards in ascending order.
func (s Cards) List() []Card { return s.AppendTo(nil) }

// AppendTo appends the cards in ascending order to dst.
func (s Cards) AppendTo(dst []Card) []Card {
	for w := range 2 {
		for x := s[w]; x != 0; x &= x - 1 {
			dst = append(dst, Card(w*64+bits.TrailingZeros64(x)))
		}
	}
	return dst
}

// CountBetween returns how many cards of s lie strictly between a and b
// (in either order).
func (s Cards) CountBetween(a, b int) int {
	if a > b {
		a, b = b, a
	}
	lo, hi := max(a+1, 0), min(b-1, 127)
	n := 0
	for w := range 2 {
		l, h := max(lo, w*64), min(hi, w*64+63)
		if l > h {
			continue
		}
		m := ^uint64(0) >> (63 - (h - w*64)) & (^uint64(0) << (l - w*64))
		n += bits.OnesCount64(s[w] & m)
	}
	return n
}

// Command is what an Extreme card orders. The values are append-only: they
// appear in records.
type Command uint8

// The commands of the Extreme variant (G-X1). The first three bind only the
// player who plays them, in that turn; the other four hold for everyone
// while the card is visible on top of a pile.
const (
	CmdNone    Command = iota
	CmdStop            // the turn ends at once, even as its first card
	CmdSkull           // must be covered in the same turn
	CmdThree           // exactly 3 cards this turn; a stop only as the third
	CmdSilence         // no talking: no signals while visible
	CmdNoTrick         // no backwards trick while visible
	CmdOnePile         // all cards of a turn on one pile while visible
	CmdDrawOne         // draw only one card after the turn while visible
	numCommands
)

var commandNames = [numCommands]string{"none", "stop", "skull", "three", "no-talking", "no-trick", "one-pile", "draw-one"}

// String returns the command's record name, e.g. "skull".
func (k Command) String() string { return nameOf(commandNames[:], k, "command") }

// ParseCommand reads a command's record name.
func ParseCommand(s string) (Command, error) {
	return parseName[Command](commandNames[:], s, "command")
}

// Lasting reports whether k holds while visible on a pile (rather than for
// the turn of the player who plays it).
func (k Command) Lasting() bool { return k >= CmdSilence && k < numCommands }

// Commands lists the seven commands in their fixed order.
func Commands() []Command {
	return []Command{CmdStop, CmdSkull, CmdThree, CmdSilence, CmdNoTrick, CmdOnePile, CmdDrawOne}
}

// CommandCards is the number of cards carrying each command.
const CommandCards = 4

// AssignmentVersion names the assignment of commands to numbers below; a
// genesis records it so every device plays with the same one.
const AssignmentVersion = 1

// assignment[c] is the command on card c in the Extreme variant.
var assignment = func() (a [128]Command) {
	// The 28 command cards are every 3.5th number, from 3 to 97: 3, 6, 10,
	// 13, 17, 20, 24, … . Taking the seven commands in turn along that row
	// gives each command four cards about 24 apart, one in each quarter of
	// the range, on low and high numbers alike.
	for i := range 7 * CommandCards {
		c := 3 + 7*i/2
		a[c] = Commands()[i%7]
	}
	return a
}()

// CommandOf returns the command on card c in the Extreme variant (CmdNone
// for a plain number or an invalid card).
func CommandOf(c Card) Command {
	if !c.Valid() {
		return CmdNone
	}
	return assignment[c]
}

// Assignment returns, for each command in the order of Commands, its four
// cards in ascending order: the fixed assignment of version
// AssignmentVersion, documented in docs/thegame-rules.md.
func Assignment() map[Command][]Card {
	m := make(map[Command][]Card, 7)
	for c := MinCard; c <= MaxCard; c++ {
		if k := assignment[c]; k != CmdNone {
			m[k] = append(m[k], c)
		}
	}
	return m
}

// Signal is what a seat says about a pile, the only talk the digital game
// allows (G-S1): never a number. The values are append-only.
type Signal uint8

// The signals.
const (
	SignalNone Signal = iota // no signal; putting it clears one
	SignalMine               // please leave this pile to me
	SignalGood               // I can play well here
	numSignals
)

var signalNames = [numSignals]string{"none", "mine", "good"}

// String returns the signal's record name.
func (s Signal) String() string { return nameOf(signalNames[:], s, "signal") }

// ParseSignal reads a signal's record name.
func ParseSignal(s string) (Signal, error) { return parseName[Signal](signalNames[:], s, "signal") }

// nameOf returns the record name of v, a value of the enumeration whose
// names are names, or what(v) for a value it does not know.
func nameOf[T ~uint8](names []string, v T, what string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return what + "(" + strconv.Itoa(int(v)) + ")"
}

// parseName reads a record name of the enumeration whose names are names.
func parseName[T ~uint8](names []string, s, what string) (T, error) {
	for k, n := range names {
		if n == s && n != "" {
			return T(k), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q", ErrBadAction, what, s)
}

// NumPiles is the number of piles: 0 and 1 rise from 1, 2 and 3 fall from
// 100.
const NumPiles = 4

// Pile is one of the four piles.
type Pile struct {
	Up  bool // rising from 1; else falling from 100
	Top int  // the number on top: a card, or the starter 1 or 100
	Cmd Command
}

// startPiles returns the four piles as a game begins.
func startPiles() [NumPiles]Pile {
	return [NumPiles]Pile{{Up: true, Top: 1}, {Up: true, Top: 1}, {Top: 100}, {Top: 100}}
}

// Fits reports whether c may go on the pile by the base rules (G-B4): higher
// on a rising pile, lower on a falling one, or exactly 10 back. trick tells
// whether it would be the backwards trick.
func (p Pile) Fits(c Card) (ok, trick bool) {
	v := int(c)
	if p.Up {
		return v > p.Top || v == p.Top-10, v == p.Top-10
	}
	return v < p.Top || v == p.Top+10, v == p.Top+10
}

// Gap returns how far c moves the pile on: positive for a step forward,
// -10 for the backwards trick.
func (p Pile) Gap(c Card) int {
	if p.Up {
		return int(c) - p.Top
	}
	return p.Top - int(c)
}
