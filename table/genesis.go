package table

import (
	"fmt"
	"strconv"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
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
	if s, ok := gameSpecs[n]; ok {
		return s.name
	}
	return "game(" + strconv.Itoa(int(n)) + ")"
}

// gameSpec is what the protocol knows of a game: its rules, its seats,
// the checks of its own genesis fields and, in the genesis layout of
// every game but Njet, the bytes that follow its variant.
type gameSpec struct {
	name               string // as the command line spells it
	rules              func(g *Game) (rules, error)
	minSeats, maxSeats int
	validate           func(g *Genesis) error
	variantBytes       func(g *Genesis) []byte
}

// gameSpecs are the games a log can hold, by the name its genesis gives.
var gameSpecs = map[GameName]gameSpec{
	GameNjet:    njetSpec,
	GameTheGame: theGameSpec,
}

// specOf returns the spec of the game a genesis names.
func specOf(name GameName) (gameSpec, error) {
	s, ok := gameSpecs[name]
	if !ok {
		return gameSpec{}, fmt.Errorf("%w: genesis of unknown game %v", tablelog.ErrMalformed, name)
	}
	return s, nil
}

// genesisDomain is the domain string of a table id's hash.
const genesisDomain = "njet/table/v1/genesis\x00"

// genesisVersion2 is the body version of the genesis of every game but
// Njet: its game, its variant, its seats' keys, the nonce and the names.
// A Njet genesis keeps body version 1 and its layout, byte for byte; a
// program that knows only Njet refuses this one with ErrUnknownVersion
// rather than misreading it.
const genesisVersion2 = 2

// Genesis is the table's setup, the body of the envelope at seq 0. Seat 0
// is the creator, who signs it; every other seat acknowledges it.
type Genesis struct {
	Edition    engine.Edition
	Characters []engine.Character  // one per seat, distinct; its length is the player count
	Keys       []tablelog.Identity // each seat's Ed25519 key, distinct
	// FirstDealer deals the first round.
	FirstDealer int
	// Short and Target choose the game's length as in engine.Config.
	Short  bool
	Target int
	// Rounds, when positive, ends the game after that many rounds (a
	// shortened game, e.g. for a demonstration); 0 plays the whole game.
	Rounds int
	// Nonce makes the table id unique even for identical setups.
	Nonce [16]byte
	// Names are the players' names by seat, each as CheckName returns it;
	// nil (or all empty) when nobody gave one. They follow the fields
	// above in an extension of their own (genesisNames), so a genesis
	// without names is encoded as before names existed and every older
	// log still reads and verifies.
	Names []string
	// Game names the game the table plays: GameNjet, the zero value and
	// the only game of older logs, or another, whose genesis has a layout
	// of its own (version 2) without the Njet fields above.
	Game GameName
	// Extreme plays The Game with its command cards; Commands is then the
	// version of the assignment of commands to cards
	// (thegame.AssignmentVersion), and 0 in the base game.
	Extreme  bool
	Commands int
	// Hints tells that the host allowed hints at the table: a person's
	// front end may show the strong bot's move from the person's own view.
	// It follows the names in an extension of its own (genesisHints),
	// written only when set, so a genesis without it encodes as before.
	Hints bool
	// Clock, when positive, is the table's clock: the seconds a person has
	// for each move, chosen by the host in the lobby. When it runs out the
	// person's device makes the move with its bot (the seat stays the
	// person's). 0, the default, gives a person all the time they like.
	// It follows the names in an extension of its own (genesisClock), so
	// a genesis without a clock is encoded as before clocks existed.
	Clock int
}

// MaxClock is the longest table clock, in seconds.
const MaxClock = 3600

// genesisClock is the version of the genesis extension that carries the
// table's clock: the byte 2, then the seconds (2 bytes). It follows the
// names extension, if any.
const genesisClock = 2

// genesisNames is the version of the genesis extension that carries the
// players' names: the byte 1, then one length-prefixed name per seat.
// A genesis whose names are all empty has no extension.
const genesisNames = 1

// genesisHints is the version of the genesis extension that says the host
// allowed hints: the byte 3 alone, after the names and clock extensions.
const genesisHints = 3

// Name returns the name of seat s, or "" when it has none.
func (g *Genesis) Name(s int) string {
	if s < 0 || s >= len(g.Names) {
		return ""
	}
	return g.Names[s]
}

// named reports whether any seat has a name.
func (g *Genesis) named() bool {
	for _, n := range g.Names {
		if n != "" {
			return true
		}
	}
	return false
}

// Players is the number of seats.
func (g *Genesis) Players() int { return len(g.Keys) }

// Validate checks the setup: a game this program plays, its seats, their
// keys distinct, the names, and the game's own fields (a Njet genesis
// the engine accepts; The Game's command assignment).
func (g *Genesis) Validate() error {
	spec, err := specOf(g.Game)
	if err != nil {
		return err
	}
	n := len(g.Keys)
	if n < spec.minSeats || n > spec.maxSeats {
		return fmt.Errorf("%w: a genesis of %v with %d seats, want %d to %d", tablelog.ErrMalformed, g.Game, n, spec.minSeats, spec.maxSeats)
	}
	for i := range g.Keys {
		for j := range i {
			if g.Keys[i] == g.Keys[j] {
				return fmt.Errorf("%w: genesis seats %d and %d share a key", tablelog.ErrMalformed, j, i)
			}
		}
	}
	if g.Game != GameNjet && (g.Edition != 0 || len(g.Characters) != 0 || g.FirstDealer != 0 || g.Short || g.Target != 0 || g.Rounds != 0) {
		return fmt.Errorf("%w: a genesis of %v with Njet's edition, characters or game length", tablelog.ErrMalformed, g.Game)
	}
	if err := spec.validate(g); err != nil {
		return err
	}
	if g.Clock < 0 || g.Clock > MaxClock {
		return fmt.Errorf("%w: a table clock of %d s (at most %d)", tablelog.ErrMalformed, g.Clock, MaxClock)
	}
	if len(g.Names) != 0 && len(g.Names) != n {
		return fmt.Errorf("%w: genesis with %d names for %d seats", tablelog.ErrMalformed, len(g.Names), n)
	}
	for s, name := range g.Names {
		c, err := CheckName(name)
		if err != nil {
			return fmt.Errorf("%w: genesis name of seat %d: %w", tablelog.ErrMalformed, s, err)
		}
		if c != name {
			return fmt.Errorf("%w: genesis name of seat %d has spaces at an end", tablelog.ErrMalformed, s)
		}
	}
	return nil
}

// MarshalBinary encodes the genesis body: version 1 for Njet, version 2
// for every other game.
func (g *Genesis) MarshalBinary() ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if g.Game != GameNjet {
		return g.marshalV2(), nil
	}
	w := newWriter()
	w.u8(int(g.Edition))
	w.u8(len(g.Keys))
	for s := range g.Keys {
		w.u8(int(g.Characters[s]))
		w.raw(g.Keys[s][:])
	}
	w.u8(g.FirstDealer)
	w.flag(g.Short)
	w.u16(g.Target)
	w.u8(g.Rounds)
	w.raw(g.Nonce[:])
	g.writeNames(w)
	return w.bytes(), nil
}

// writeNames writes the extensions: the names when any seat has a name,
// then the clock when the table has one, then the hints when the host
// allowed them.
func (g *Genesis) writeNames(w *writer) {
	if g.named() {
		w.u8(genesisNames)
		for _, name := range g.Names {
			w.blob([]byte(name))
		}
	}
	if g.Clock > 0 {
		w.u8(genesisClock)
		w.u16(g.Clock)
	}
	if g.Hints {
		w.u8(genesisHints)
	}
}

// readNames reads the extensions of a genesis of n seats that the body
// holds: the names, then the clock, then the hints, each at most once and
// in that order.
func (g *Genesis) readNames(r *reader, n int) {
	last := 0
	for r.err == nil && len(r.b) > 0 {
		v := r.u8()
		if v <= last || v > genesisHints {
			r.fail("genesis extension %d after %d", v, last)
			return
		}
		last = v
		switch v {
		case genesisNames:
			for range n {
				if r.err != nil {
					break
				}
				g.Names = append(g.Names, string(r.blob(MaxNameBytes)))
			}
			if r.err == nil && !g.named() {
				r.fail("genesis names all empty")
			}
		case genesisClock:
			if g.Clock = r.u16(); r.err == nil && g.Clock == 0 {
				r.fail("a table clock of 0 s")
			}
		case genesisHints:
			g.Hints = true
		}
	}
}

// ParseGenesis decodes and validates a genesis body.
func ParseGenesis(body []byte) (*Genesis, error) {
	if len(body) > 0 && body[0] == genesisVersion2 {
		return parseV2(body)
	}
	r := newReader(tablelog.KindGenesis, body)
	g := &Genesis{Edition: engine.Edition(r.u8())}
	n := r.u8()
	if n > njetSpec.maxSeats {
		r.fail("%d seats", n)
	}
	for range n {
		if r.err != nil {
			break
		}
		g.Characters = append(g.Characters, engine.Character(r.u8()))
		g.Keys = append(g.Keys, r.identity())
	}
	g.FirstDealer = r.u8()
	g.Short = r.flag()
	g.Target = r.u16()
	g.Rounds = r.u8()
	return g.readEnd(r, n)
}

// marshalV2 encodes a validated genesis of a game but Njet: the version
// 2, the game, the variant flag and version, the bytes the game writes
// after them (The Game Extreme's assignment, so a log says by itself
// which card orders what), then the seats' keys, the nonce and the names
// as in a Njet genesis.
func (g *Genesis) marshalV2() []byte {
	w := &writer{b: []byte{genesisVersion2}}
	w.u8(int(g.Game))
	w.flag(g.Extreme)
	w.u8(g.Commands)
	if spec, _ := specOf(g.Game); spec.variantBytes != nil {
		w.raw(spec.variantBytes(g))
	}
	w.u8(len(g.Keys))
	for _, k := range g.Keys {
		w.raw(k[:])
	}
	w.raw(g.Nonce[:])
	g.writeNames(w)
	return w.bytes()
}

// parseV2 decodes and validates a genesis of version 2.
func parseV2(body []byte) (*Genesis, error) {
	r := &reader{b: body[1:], kind: tablelog.KindGenesis}
	g := &Genesis{Game: GameName(r.u8())}
	spec, err := specOf(g.Game)
	if r.err == nil && (err != nil || g.Game == GameNjet) {
		r.fail("game %v in a genesis of version %d", g.Game, genesisVersion2)
	}
	g.Extreme = r.flag()
	g.Commands = r.u8()
	if r.err == nil && spec.variantBytes != nil {
		want := spec.variantBytes(g)
		if got := r.take(len(want)); r.err == nil && string(got) != string(want) {
			return nil, fmt.Errorf("%w: the genesis of %v holds another variant than this program plays", tablelog.ErrMalformed, g.Game)
		}
	}
	n := r.u8()
	if r.err == nil && (n < spec.minSeats || n > spec.maxSeats) {
		r.fail("%d seats", n)
	}
	for range n {
		if r.err != nil {
			break
		}
		g.Keys = append(g.Keys, r.identity())
	}
	return g.readEnd(r, n)
}

// readEnd reads the end of every genesis, the nonce and the names of n
// seats, and validates g.
func (g *Genesis) readEnd(r *reader, n int) (*Genesis, error) {
	copy(g.Nonce[:], r.take(16))
	g.readNames(r, n)
	if err := r.finish(); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// TableIDOf returns the table id that a genesis body names: SHA-256 of a
// domain string and the body. A table id thus commits to its setup, and a
// log can be checked from its own first envelope.
func TableIDOf(genesisBody []byte) tablelog.TableID {
	return tablelog.DomainHash(genesisDomain, genesisBody)
}
