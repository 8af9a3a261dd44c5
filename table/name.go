package table

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a player's name: at most MaxNameRunes characters and
// MaxNameBytes bytes of UTF-8 (so 24 Latin, Cyrillic or Chinese letters
// fit, and a name with many combining marks is cut short by bytes).
const (
	MaxNameRunes = 24
	MaxNameBytes = 64
)

// ErrBadName is wrapped by CheckName's errors.
var ErrBadName = errors.New("table: bad player name")

// CheckName returns a player's name as a table records it, or why it
// cannot be one. Spaces at either end are trimmed; what remains may hold
// letters and marks of any script, digits, spaces and punctuation, up to
// MaxNameRunes characters and MaxNameBytes bytes. Control and format
// characters (which could rewrite a terminal or turn text around),
// symbols, other kinds of space and invalid UTF-8 are refused. The empty
// name is allowed: front ends then name the seat by its character.
func CheckName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("%w: not valid UTF-8", ErrBadName)
	}
	for i, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", fmt.Errorf("%w: control character %U at byte %d", ErrBadName, r, i)
		}
	}
	name = strings.Trim(name, " ")
	if n := utf8.RuneCountInString(name); n > MaxNameRunes {
		return "", fmt.Errorf("%w: %d characters, at most %d", ErrBadName, n, MaxNameRunes)
	}
	if len(name) > MaxNameBytes {
		return "", fmt.Errorf("%w: %d bytes, at most %d", ErrBadName, len(name), MaxNameBytes)
	}
	for _, r := range name {
		switch {
		case r == ' ', unicode.IsLetter(r), unicode.IsMark(r), unicode.IsDigit(r), unicode.IsPunct(r):
		default:
			return "", fmt.Errorf("%w: %q (%U) is not a letter, digit, space or punctuation", ErrBadName, r, r)
		}
	}
	return name, nil
}
