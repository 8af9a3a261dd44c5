package engine

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Character is a character card; its field on the start row names the start
// player.
type Character uint8

// The characters of both editions.
const (
	NoCharacter Character = iota
	Bear
	Wolf
	Falcon
	Dove
	Eagle
	Tiger
	Crane
)

var characterNames = [...]string{"none", "bear", "wolf", "falcon", "dove", "eagle", "tiger", "crane"}

// String returns the lower-case name used in records.
func (c Character) String() string {
	if int(c) < len(characterNames) {
		return characterNames[c]
	}
	return "character(" + strconv.Itoa(int(c)) + ")"
}

// Characters returns the edition's characters in start-row order.
func (e Edition) Characters() []Character {
	if e == Modern {
		return []Character{Bear, Wolf, Eagle, Tiger, Crane}
	}
	return []Character{Bear, Wolf, Falcon, Dove}
}

// ParseCharacter reads a character name of edition e.
func ParseCharacter(e Edition, s string) (Character, error) {
	for _, c := range e.Characters() {
		if c.String() == strings.ToLower(s) {
			return c, nil
		}
	}
	return NoCharacter, fmt.Errorf("%w: %q is not a character of the %s edition", ErrBadConfig, s, e)
}

// Row is a row of the Njet board.
type Row uint8

// The five rows, top to bottom.
const (
	RowStart Row = iota
	RowDiscard
	RowTrump
	RowSuper
	RowPoints
	NumRows = 5
)

var rowNames = [NumRows]string{"start", "discard", "trump", "super", "points"}

// String returns the record name of the row: start, discard, trump, super, points.
func (r Row) String() string {
	if int(r) < NumRows {
		return rowNames[r]
	}
	return "row(" + strconv.Itoa(int(r)) + ")"
}

// ParseRow reads a row name.
func ParseRow(s string) (Row, error) {
	for i, n := range rowNames {
		if n == strings.ToLower(s) {
			return Row(i), nil
		}
	}
	return 0, fmt.Errorf("%w: no row %q", ErrBadAction, s)
}

// Field is a field of a row, numbered from 0 in the row's order:
//   - start: the edition's characters (Edition.Characters)
//   - discard: DiscardNjet, Discard1, Discard2, then in Modern Discard1NoOnes, PassLeft
//   - trump: the edition's colours (Edition.Colours)
//   - super: the edition's colours, then SuperNjet
//   - points: 1, 2, 3, 4, then in Modern -2
type Field uint8

// DiscardRule is the field of the discard row, numbered as on the board.
type DiscardRule = Field

// The discard fields.
const (
	DiscardNjet    DiscardRule = 0 // no discard
	Discard1       DiscardRule = 1
	Discard2       DiscardRule = 2
	Discard1NoOnes DiscardRule = 3 // Modern: discard one card that is not a 1
	PassLeft       DiscardRule = 4 // Modern: pass one card to the left neighbour
)

// SuperNjet is the "no supertrump" field of the super row.
const SuperNjet Field = 4

var discardNames = [...]string{"njet", "discard1", "discard2", "discard1-no-ones", "pass-left"}

// Fields is the number of fields of row r in edition e.
func (e Edition) Fields(r Row) int {
	switch r {
	case RowStart:
		return len(e.Characters())
	case RowDiscard:
		if e == Modern {
			return 5
		}
		return 3
	case RowTrump:
		return 4
	case RowSuper:
		return 5
	case RowPoints:
		if e == Modern {
			return 5
		}
		return 4
	}
	return 0
}

// PointsValue is the value of a field of the points row: 1..4, or -2.
func PointsValue(f Field) int {
	if f == 4 {
		return -2
	}
	return int(f) + 1
}

// FieldName returns the record name of field f of row r: a character, a
// discard rule word, a colour, "njet", or a points value.
func (e Edition) FieldName(r Row, f Field) string {
	if int(f) >= e.Fields(r) {
		return "field(" + strconv.Itoa(int(f)) + ")"
	}
	switch r {
	case RowStart:
		return e.Characters()[f].String()
	case RowDiscard:
		return discardNames[f]
	case RowTrump:
		return e.Colours()[f].String()
	case RowSuper:
		if f == SuperNjet {
			return "njet"
		}
		return e.Colours()[f].String()
	case RowPoints:
		return strconv.Itoa(PointsValue(f))
	}
	return "field(" + strconv.Itoa(int(f)) + ")"
}

// ParseField reads a field name of row r in edition e.
func (e Edition) ParseField(r Row, s string) (Field, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for f := 0; f < e.Fields(r); f++ {
		if e.FieldName(r, Field(f)) == s {
			return Field(f), nil
		}
	}
	return 0, fmt.Errorf("%w: row %s has no field %q", ErrBadAction, r, s)
}

// Board is the Njet board: which fields of each row are blocked. The zero
// Board has every field free.
type Board struct {
	blocked [NumRows]uint8 // bit f set: field f blocked
}

// Blocked reports whether field f of row r is blocked.
func (b Board) Blocked(r Row, f Field) bool { return b.blocked[r]&(1<<f) != 0 }

// Block returns b with field f of row r blocked.
func (b Board) Block(r Row, f Field) Board {
	b.blocked[r] |= 1 << f
	return b
}

// Free lists the free fields of row r in edition e.
func (b Board) Free(e Edition, r Row) []Field {
	var out []Field
	for f := 0; f < e.Fields(r); f++ {
		if !b.Blocked(r, Field(f)) {
			out = append(out, Field(f))
		}
	}
	return out
}

// FreeCount is the number of free fields of row r in edition e.
func (b Board) FreeCount(e Edition, r Row) int {
	return e.Fields(r) - bits.OnesCount8(b.blocked[r])
}
