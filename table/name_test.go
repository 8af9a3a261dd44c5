package table

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

func TestCheckName(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"latin", "Anna", "Anna"},
		{"diaeresis", "Zoë", "Zoë"},
		{"combining mark", "Zoe\u0308", "Zoe\u0308"},
		{"cyrillic", "Анна", "Анна"},
		{"chinese", "李雷", "李雷"},
		{"arabic", "ليلى", "ليلى"},
		{"devanagari", "अनीता", "अनीता"},
		{"punctuation and digits", "Jean-Luc O'Neil, Jr. 2", "Jean-Luc O'Neil, Jr. 2"},
		{"trimmed", "  Anna  ", "Anna"},
		{"empty", "", ""},
		{"only spaces", "   ", ""},
		{"24 letters", strings.Repeat("a", 24), strings.Repeat("a", 24)},
		{"21 chinese letters", strings.Repeat("李", 21), strings.Repeat("李", 21)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckName(c.in)
			if err != nil || got != c.want {
				t.Fatalf("CheckName(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

func TestCheckNameRefuses(t *testing.T) {
	cases := []struct{ name, in string }{
		{"too long", strings.Repeat("a", 25)},
		{"too long after trimming", " " + strings.Repeat("b", 25) + " "},
		{"too many bytes", strings.Repeat("李", 22)},
		{"too many marks", strings.Repeat("e\u0308\u0301", 12)},
		{"newline", "Anna\nBob"},
		{"tab", "Anna\t"},
		{"escape", "\x1b[2JAnna"},
		{"delete", "Anna\x7f"},
		{"C1 control", "Anna\u0085"},
		{"bidi override", "Anna\u202e"},
		{"zero width joiner", "An\u200dna"},
		{"invalid UTF-8", "Anna\xff"},
		{"symbol", "Anna ♠"},
		{"emoji", "Anna 🃏"},
		{"no-break space", "Anna\u00a0B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckName(c.in)
			if !errors.Is(err, ErrBadName) {
				t.Fatalf("CheckName(%q) = %q, %v; want ErrBadName", c.in, got, err)
			}
		})
	}
}

// namedGenesis is a Classic three-player genesis with the given names.
func namedGenesis(t *testing.T, names []string) *Genesis {
	t.Helper()
	g := &Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], FirstDealer: 1, Names: names,
		Keys: make([]tablelog.Identity, 3)}
	for s := range 3 {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = byte(s + 1)
		pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
		var err error
		if g.Keys[s], err = tablelog.IdentityOf(pub); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestGenesisNames: the players' names are fixed in the signed genesis;
// a genesis without names keeps the layout older logs have.
func TestGenesisNames(t *testing.T) {
	for _, names := range [][]string{
		{"Анна", "李雷", "Zoë"},
		{"", "Bob", ""},
		{"Jean-Luc", "अनीता", strings.Repeat("李", 21)},
	} {
		t.Run(strings.Join(names, ","), func(t *testing.T) {
			g := namedGenesis(t, names)
			body, err := g.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseGenesis(body)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.Names, names) {
				t.Fatalf("names %q read back as %q", names, back.Names)
			}
			for s, n := range names {
				if back.Name(s) != n {
					t.Fatalf("Name(%d) = %q, want %q", s, back.Name(s), n)
				}
			}
		})
	}
	t.Run("no names: the old layout", func(t *testing.T) {
		for _, names := range [][]string{nil, {"", "", ""}} {
			body, err := namedGenesis(t, names).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			// version, edition, seats, 3 × (character, key), dealer, short, target, rounds, nonce
			if want := 1 + 1 + 1 + 3*33 + 1 + 1 + 2 + 1 + 16; len(body) != want {
				t.Fatalf("a genesis without names has %d bytes, the old layout %d", len(body), want)
			}
			g, err := ParseGenesis(body)
			if err != nil || g.Names != nil || g.Name(1) != "" {
				t.Fatalf("ParseGenesis: %v, names %q", err, g.Names)
			}
		}
	})
}

func TestGenesisNamesRefused(t *testing.T) {
	t.Run("bad names", func(t *testing.T) {
		for _, names := range [][]string{
			{"Anna", "Bob"},
			{"Anna", "Bob", "Carl", "Dora"},
			{"Anna", "B\x1bob", "Carl"},
			{"Anna", strings.Repeat("x", 25), "Carl"},
			{" Anna", "Bob", "Carl"},
			{"Anna", "Bob\xff", "Carl"},
		} {
			if _, err := namedGenesis(t, names).MarshalBinary(); !errors.Is(err, tablelog.ErrMalformed) {
				t.Errorf("names %q: %v, want tablelog.ErrMalformed", names, err)
			}
		}
	})
	base, err := namedGenesis(t, nil).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	ext := func(version byte, names ...string) []byte {
		b := append(slices.Clone(base), version)
		for _, n := range names {
			b = binary.BigEndian.AppendUint16(b, uint16(len(n)))
			b = append(b, n...)
		}
		return b
	}
	cases := []struct {
		name string
		body []byte
	}{
		{"control character", ext(genesisNames, "Anna", "Bo\nb", "")},
		{"too long", ext(genesisNames, "Anna", strings.Repeat("x", 30), "")},
		{"too many bytes", ext(genesisNames, strings.Repeat("x", 65), "", "")},
		{"invalid UTF-8", ext(genesisNames, "Anna\xc3", "", "")},
		{"untrimmed", ext(genesisNames, "Anna ", "", "")},
		{"all empty", ext(genesisNames, "", "", "")},
		{"too few", ext(genesisNames, "Anna", "Bob")},
		{"too many", ext(genesisNames, "Anna", "Bob", "Carl", "Dora")},
		{"unknown extension", ext(2, "Anna", "Bob", "Carl")},
		{"extension without names", ext(genesisNames)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if g, err := ParseGenesis(c.body); !errors.Is(err, tablelog.ErrMalformed) {
				t.Fatalf("ParseGenesis: %v (names %q), want tablelog.ErrMalformed", err, g.Names)
			}
		})
	}
}
