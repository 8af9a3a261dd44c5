package table

import (
	"errors"
	"slices"
	"testing"

	"github.com/njetlan/njet/tablelog"
)

// TestGenesisHints: the host's permission for hints travels in its own
// extension after the names, with or without them; a genesis without it
// keeps the layout (and so the table id) it had before hints existed.
func TestGenesisHints(t *testing.T) {
	for _, names := range [][]string{nil, {"Anna", "", "Zoë"}} {
		g := namedGenesis(t, names)
		plain, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g.Hints = true
		body, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if want := append(slices.Clone(plain), genesisHints); !slices.Equal(body, want) {
			t.Fatalf("names %q: hints encode as %x, want the old body and one byte", names, body[len(plain):])
		}
		back, err := ParseGenesis(body)
		if err != nil {
			t.Fatal(err)
		}
		if !back.Hints || !slices.Equal(back.Names, names) {
			t.Fatalf("read back hints %v names %q", back.Hints, back.Names)
		}
		if old, err := ParseGenesis(plain); err != nil || old.Hints {
			t.Fatalf("a genesis without the extension: %v, hints %v", err, old.Hints)
		}
		if TableIDOf(plain) == TableIDOf(body) {
			t.Fatal("the hints do not change the table id")
		}
	}
	base, err := namedGenesis(t, nil).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for name, tail := range map[string][]byte{
		"twice":             {genesisHints, genesisHints},
		"unknown extension": {genesisHints + 1},
		"hints then names":  {genesisHints, genesisNames},
		"hints then clock":  {genesisHints, genesisClock, 0, 30},
	} {
		if _, err := ParseGenesis(append(slices.Clone(base), tail...)); !errors.Is(err, tablelog.ErrMalformed) {
			t.Errorf("%s: %v, want tablelog.ErrMalformed", name, err)
		}
	}
}
