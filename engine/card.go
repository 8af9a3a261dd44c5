package engine

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Edition is one of the two published editions of Njet!.
type Edition uint8

// The editions. The zero value is no edition, so a forgotten field is an error.
const (
	Classic Edition = 1 // Goldsieber 1997: 3-4 players, 40 cards
	Modern  Edition = 2 // IELLO 2017: 2-5 players, 60 cards
)

// String returns "classic" or "modern".
func (e Edition) String() string {
	if e.Valid() {
		return editions[e].name
	}
	return "edition(" + strconv.Itoa(int(e)) + ")"
}

// ParseEdition reads "classic" or "modern", in any case.
func ParseEdition(s string) (Edition, error) {
	name := strings.ToLower(s)
	for _, e := range [...]Edition{Classic, Modern} {
		if name == editions[e].name {
			return e, nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want classic or modern)", ErrBadConfig, s)
}

// Valid reports whether e is a known edition.
func (e Edition) Valid() bool { return e == Classic || e == Modern }

// editionSpec is what sets one edition apart.
type editionSpec struct {
	name                   string
	minPlayers, maxPlayers int
	colours                [4]Colour // in board order
	maxValue               int       // the highest card value
	ones                   int       // 1s per colour
}

var editions = [...]editionSpec{
	Classic: {name: "classic", minPlayers: 3, maxPlayers: 4, colours: [4]Colour{Red, Black, Blue, Green}, maxValue: 9, ones: 2},
	Modern:  {name: "modern", minPlayers: 2, maxPlayers: 5, colours: [4]Colour{Blue, Red, Yellow, Green}, maxValue: 13, ones: 3},
}

// spec returns the edition's numbers; anything but Modern reads as Classic.
func (e Edition) spec() *editionSpec {
	if e == Modern {
		return &editions[Modern]
	}
	return &editions[Classic]
}

// MinPlayers is the smallest player count of the edition.
func (e Edition) MinPlayers() int { return e.spec().minPlayers }

// MaxPlayers is the largest player count of the edition.
func (e Edition) MaxPlayers() int { return e.spec().maxPlayers }

// Colours returns the edition's four colours in board order.
func (e Edition) Colours() [4]Colour { return e.spec().colours }

// MaxValue is the highest card value: 9 (Classic) or 13 (Modern).
func (e Edition) MaxValue() int { return e.spec().maxValue }

// Ones is how many 1s each colour has: 2 (Classic) or 3 (Modern).
func (e Edition) Ones() int { return e.spec().ones }

// perColour is the number of cards of one colour in the full deck.
func (e Edition) perColour() int { return e.Ones() + e.MaxValue() - 1 }

// DeckSize is the size of the full deck: 40 or 60.
func (e Edition) DeckSize() int { return 4 * e.perColour() }

// Colour is a card colour. The names are global; each edition uses four.
type Colour uint8

// The colours. NoColour stands for "no supertrump".
const (
	NoColour Colour = iota
	Red
	Black
	Blue
	Green
	Yellow
)

var colourNames = [...]string{"none", "red", "black", "blue", "green", "yellow"}

// String returns the colour word used in records: "red", "blue", ...
func (c Colour) String() string {
	if int(c) < len(colourNames) {
		return colourNames[c]
	}
	return "colour(" + strconv.Itoa(int(c)) + ")"
}

// Card identifies one physical card. Classic cards are 0..39 and Modern cards
// 64..123: the low six bits are the card's index in its edition's full deck,
// bit 6 marks the Modern edition. Within a colour the index runs over the 1s
// (two or three copies) and then the values 2 upwards; colours follow the
// edition's board order. Equal 1s are distinct cards with distinct ids.
type Card uint8

// NoCard is the absent card (no pass, hidden card).
const NoCard Card = 0xFF

const modernBit = 0x40

// CardOf returns the card of edition e with the given index (0..DeckSize-1).
func CardOf(e Edition, index int) Card {
	if e == Modern {
		return Card(index) | modernBit
	}
	return Card(index)
}

// Edition returns the card's edition.
func (c Card) Edition() Edition {
	if c&modernBit != 0 {
		return Modern
	}
	return Classic
}

// Index is the card's position in its edition's full deck.
func (c Card) Index() int { return int(c & 0x3F) }

// Colour returns the printed colour of the card.
func (c Card) Colour() Colour {
	e := c.Edition()
	return e.Colours()[c.Index()/e.perColour()]
}

// Value returns the printed value, 1..13.
func (c Card) Value() int {
	e := c.Edition()
	k := c.Index() % e.perColour()
	if k < e.Ones() {
		return 1
	}
	return k - e.Ones() + 2
}

// Copy tells equal 1s apart: 0, 1 (or 2 in Modern); 0 for every other card.
func (c Card) Copy() int {
	e := c.Edition()
	k := c.Index() % e.perColour()
	if k < e.Ones() {
		return k
	}
	return 0
}

// Valid reports whether c is a card of some edition.
func (c Card) Valid() bool {
	if c == NoCard || c&0x80 != 0 {
		return false
	}
	return c.Index() < c.Edition().DeckSize()
}

// String returns the record name: colour word and value, e.g. "red7". Equal
// 1s share a name.
func (c Card) String() string {
	if !c.Valid() {
		return "nocard"
	}
	return c.Colour().String() + strconv.Itoa(c.Value())
}

// ParseCard reads a card name such as "red7" in edition e. For a 1 it returns
// the copy given (0-based); ParseHand assigns copies of repeated 1s.
func ParseCard(e Edition, s string, copy int) (Card, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := strings.IndexAny(s, "0123456789-")
	if i <= 0 {
		return NoCard, fmt.Errorf("%w: %q", ErrBadCard, s)
	}
	v, err := strconv.Atoi(s[i:])
	if err != nil || v < 1 || v > e.MaxValue() {
		return NoCard, fmt.Errorf("%w: %q", ErrBadCard, s)
	}
	for ci, col := range e.Colours() {
		if col.String() != s[:i] {
			continue
		}
		k := v - 2 + e.Ones()
		if v == 1 {
			if copy < 0 || copy >= e.Ones() {
				return NoCard, fmt.Errorf("%w: %q copy %d", ErrBadCard, s, copy)
			}
			k = copy
		}
		return CardOf(e, ci*e.perColour()+k), nil
	}
	return NoCard, fmt.Errorf("%w: %q is not a colour of the %s edition", ErrBadCard, s[:i], e)
}

// ParseHand reads card names, giving repeated 1s successive copies, and
// rejects a card named more often than it exists.
func ParseHand(e Edition, names []string) (Hand, error) {
	var h Hand
	for _, n := range names {
		var c Card
		var err error
		for cp := 0; ; cp++ {
			c, err = ParseCard(e, n, cp)
			if err != nil {
				return 0, err
			}
			if !h.Has(c) {
				break
			}
			if c.Value() != 1 {
				return 0, fmt.Errorf("%w: %q named twice", ErrBadCard, n)
			}
		}
		h = h.Add(c)
	}
	return h, nil
}

// Hand is a set of cards of one edition, as a bit set over card indexes.
type Hand uint64

// Has reports whether c is in h.
func (h Hand) Has(c Card) bool { return h&(1<<c.Index()) != 0 }

// Add returns h with c.
func (h Hand) Add(c Card) Hand { return h | 1<<c.Index() }

// Remove returns h without c.
func (h Hand) Remove(c Card) Hand { return h &^ (1 << c.Index()) }

// Len is the number of cards in h.
func (h Hand) Len() int { return bits.OnesCount64(uint64(h)) }

// Cards lists the cards of h in index order (colour by colour, low to high).
func (h Hand) Cards(e Edition) []Card {
	out := make([]Card, 0, h.Len())
	for x := uint64(h); x != 0; x &= x - 1 {
		out = append(out, CardOf(e, bits.TrailingZeros64(x)))
	}
	return out
}

// HandOf collects cards into a Hand.
func HandOf(cards ...Card) Hand {
	var h Hand
	for _, c := range cards {
		h = h.Add(c)
	}
	return h
}

// Deck returns the cards in play for the edition and player count, in index
// order: Classic 3p drops the four 2s, Modern 3p drops 11, 12 and 13.
func (e Edition) Deck(players int) []Card {
	out := make([]Card, 0, e.DeckSize())
	for i := 0; i < e.DeckSize(); i++ {
		c := CardOf(e, i)
		if players == 3 && (e == Classic && c.Value() == 2 || e == Modern && c.Value() >= 11) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// HandSize is the number of cards dealt to each player.
func (e Edition) HandSize(players int) int {
	switch {
	case e == Classic && players == 4:
		return 10
	case e == Modern && (players == 2 || players == 4):
		return 15
	case e == Classic && players == 3:
		return 12
	case e == Modern && players == 3:
		return 16
	case e == Modern && players == 5:
		return 12
	}
	return 0
}
