package table

import (
	"fmt"
	"strconv"

	"github.com/njetlan/njet/thegame"
)

// GameName names the game a table plays. The values are append-only: they
// appear in genesis bodies.
type GameName uint8

// The games.
const (
	GameNjet    GameName = iota // Njet!, the table's first game
	GameTheGame                 // The Game, base or Extreme (package thegame)
)

// String returns the game's name as the command line spells it.
func (n GameName) String() string {
	switch n {
	case GameNjet:
		return "njet"
	case GameTheGame:
		return "thegame"
	}
	return "game(" + strconv.Itoa(int(n)) + ")"
}

// genesisTheGameVersion is the body version of a genesis of The Game. A
// Njet genesis keeps body version 1 and its layout, byte for byte; a
// program that knows only Njet refuses this one with ErrUnknownVersion
// rather than misreading it.
const genesisTheGameVersion = 2

// TheGameConfig returns the configuration of The Game that the genesis
// sets up.
func (g *Genesis) TheGameConfig() thegame.Config {
	return thegame.Config{Players: len(g.Keys), Extreme: g.Extreme}
}

// validateTheGame checks a genesis of The Game: one to five seats with
// distinct keys, no Njet fields, the command assignment this program
// plays, and the names.
func (g *Genesis) validateTheGame() error {
	if g.Game != GameTheGame {
		return fmt.Errorf("%w: genesis of unknown game %v", ErrMalformed, g.Game)
	}
	n := len(g.Keys)
	if n < thegame.MinPlayers || n > thegame.MaxPlayers {
		return fmt.Errorf("%w: The Game with %d seats, want %d to %d", ErrMalformed, n, thegame.MinPlayers, thegame.MaxPlayers)
	}
	for i := range g.Keys {
		for j := range i {
			if g.Keys[i] == g.Keys[j] {
				return fmt.Errorf("%w: genesis seats %d and %d share a key", ErrMalformed, j, i)
			}
		}
	}
	if g.Edition != 0 || len(g.Characters) != 0 || g.FirstDealer != 0 || g.Short || g.Target != 0 || g.Rounds != 0 {
		return fmt.Errorf("%w: a genesis of The Game with Njet's edition, characters or game length", ErrMalformed)
	}
	switch {
	case g.Extreme && g.Commands != thegame.AssignmentVersion:
		return fmt.Errorf("%w: The Game Extreme with command assignment version %d, this program plays version %d",
			ErrMalformed, g.Commands, thegame.AssignmentVersion)
	case !g.Extreme && g.Commands != 0:
		return fmt.Errorf("%w: the base game of The Game with command assignment version %d", ErrMalformed, g.Commands)
	}
	if len(g.Names) != 0 && len(g.Names) != n {
		return fmt.Errorf("%w: genesis with %d names for %d seats", ErrMalformed, len(g.Names), n)
	}
	for s, name := range g.Names {
		c, err := CheckName(name)
		if err != nil {
			return fmt.Errorf("%w: genesis name of seat %d: %w", ErrMalformed, s, err)
		}
		if c != name {
			return fmt.Errorf("%w: genesis name of seat %d has spaces at an end", ErrMalformed, s)
		}
	}
	return nil
}

// assignmentBytes lists the command cards of the assignment this program
// plays: for each command in the order of thegame.Commands, its cards in
// ascending order.
func assignmentBytes() []byte {
	a := thegame.Assignment()
	var out []byte
	for _, k := range thegame.Commands() {
		for _, c := range a[k] {
			out = append(out, byte(c))
		}
	}
	return out
}

// marshalTheGame encodes a validated genesis of The Game: the version 2,
// the game, the variant, the assignment version and, in Extreme, the
// assignment itself (so a log says by itself which card orders what),
// then the seats' keys, the nonce and the names as in a Njet genesis.
func (g *Genesis) marshalTheGame() []byte {
	w := &writer{b: []byte{genesisTheGameVersion}}
	w.u8(int(g.Game))
	w.flag(g.Extreme)
	w.u8(g.Commands)
	if g.Extreme {
		w.raw(assignmentBytes())
	}
	w.u8(len(g.Keys))
	for _, k := range g.Keys {
		w.raw(k[:])
	}
	w.raw(g.Nonce[:])
	if g.named() {
		w.u8(genesisNames)
		for _, name := range g.Names {
			w.blob([]byte(name))
		}
	}
	return w.bytes()
}

// parseTheGameGenesis decodes and validates a genesis of The Game.
func parseTheGameGenesis(body []byte) (*Genesis, error) {
	r := &reader{b: body[1:], kind: KindGenesis}
	g := &Genesis{Game: GameName(r.u8())}
	if r.err == nil && g.Game != GameTheGame {
		r.fail("game %v in a genesis of version %d", g.Game, genesisTheGameVersion)
	}
	g.Extreme = r.flag()
	g.Commands = r.u8()
	if g.Extreme && r.err == nil {
		want := assignmentBytes()
		if got := r.take(len(want)); r.err == nil && string(got) != string(want) {
			return nil, fmt.Errorf("%w: the genesis gives the commands to other cards than assignment version %d of this program",
				ErrMalformed, thegame.AssignmentVersion)
		}
	}
	n := r.u8()
	if r.err == nil && (n < thegame.MinPlayers || n > thegame.MaxPlayers) {
		r.fail("%d seats", n)
	}
	for range n {
		if r.err != nil {
			break
		}
		var id Identity
		copy(id[:], r.take(32))
		g.Keys = append(g.Keys, id)
	}
	copy(g.Nonce[:], r.take(16))
	if r.err == nil && len(r.b) > 0 {
		if v := r.u8(); v != genesisNames {
			r.fail("genesis extension %d", v)
		}
		for range n {
			if r.err != nil {
				break
			}
			g.Names = append(g.Names, string(r.blob(MaxNameBytes)))
		}
		if r.err == nil && !g.named() {
			r.fail("genesis names all empty")
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}
