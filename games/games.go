package games

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// ErrUnknown is wrapped by every look-up of a game, variant or bot kind
// this program does not know.
var ErrUnknown = errors.New("games: unknown")

// Strength is how well a bot plays, as a person chooses it.
type Strength uint8

// The strengths a person chooses from, weakest first.
const (
	Easy Strength = iota + 1
	Normal
	Strong
)

// Strengths lists the strengths, weakest first.
func Strengths() []Strength { return []Strength{Easy, Normal, Strong} }

// Game is one game this program plays.
type Game struct {
	// Name names the game in a genesis; ID on the command line, in saved
	// files and records ("njet", "thegame"); Title to a person.
	Name  table.GameName
	ID    string
	Title string
	// Variants are the game's variants, the default first.
	Variants []Variant
	// Bots are the bot kinds that play at each strength (Easy, Normal,
	// Strong), and Kinds every kind NewPlayer makes, by its plain name
	// (a kind may take a suffix, as "search:quick").
	Bots  map[Strength]string
	Kinds []string
	// NewPlayer makes the player of a kind for a seat of this game.
	NewPlayer table.NewPlayer
	// genesis writes the game's own fields of a genesis.
	genesis func(g *table.Genesis, v Variant, s Setup) error
	// variantOf reads them back.
	variantOf func(g *table.Genesis) string
}

// Variant is one variant of a game: Njet's Classic and Modern editions,
// The Game's base game and its Extreme.
type Variant struct {
	// ID names the variant ("classic", "modern", "base", "extreme"); Ad
	// is the word a LAN advert carries for it, which a program that knows
	// none of this game's variants refuses.
	ID string
	Ad string
	// Title is the variant's name to a person.
	Title string
	// MinPlayers and MaxPlayers bound its seats.
	MinPlayers, MaxPlayers int
}

// Setup is what a new table's genesis holds beyond its game and variant.
type Setup struct {
	// Keys are the seats' keys, the creator's first; Names the players'
	// names by seat (nil for none); Nonce makes the table id unique.
	Keys  []tablelog.Identity
	Names []string
	Nonce [16]byte
	// Rand draws what the game leaves to chance in its setup (Njet's
	// first dealer); nil draws from a fixed seed.
	Rand *rand.Rand
	// Short, Target and Rounds set a Njet game's length (table.Genesis);
	// other games have none of them.
	Short  bool
	Target int
	Rounds int
	// Hints allows hints at the table (table.Genesis.Hints).
	Hints bool
	// Clock is the table's clock (table.Genesis.Clock): the seconds a
	// person has for each move; 0 has none.
	Clock int
}

// registry holds the games, in the order a person is offered them.
var registry = []*Game{njet, theGame}

// All returns every game, in the order a person is offered them.
func All() []*Game { return slices.Clone(registry) }

// ByName returns the game a genesis names.
func ByName(name table.GameName) (*Game, error) {
	for _, g := range registry {
		if g.Name == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w game %v", ErrUnknown, name)
}

// ByID returns the game of an id as the command line spells it.
func ByID(id string) (*Game, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	for _, g := range registry {
		if g.ID == id {
			return g, nil
		}
	}
	var ids []string
	for _, g := range registry {
		ids = append(ids, g.ID)
	}
	return nil, fmt.Errorf("%w game %q (want one of %s)", ErrUnknown, id, strings.Join(ids, ", "))
}

// ByAd returns the game and variant of the word a LAN advert carries.
func ByAd(ad string) (*Game, Variant, error) {
	for _, g := range registry {
		for _, v := range g.Variants {
			if v.Ad == ad {
				return g, v, nil
			}
		}
	}
	return nil, Variant{}, fmt.Errorf("%w variant %q in an advert", ErrUnknown, ad)
}

// Of returns the game a genesis names and the variant it plays.
func Of(gen *table.Genesis) (*Game, Variant, error) {
	g, err := ByName(gen.Game)
	if err != nil {
		return nil, Variant{}, err
	}
	v, err := g.Variant(g.variantOf(gen))
	return g, v, err
}

// Variant returns the game's variant of an id; "" is the default.
func (g *Game) Variant(id string) (Variant, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" {
		return g.Variants[0], nil
	}
	for _, v := range g.Variants {
		if v.ID == id {
			return v, nil
		}
	}
	var ids []string
	for _, v := range g.Variants {
		ids = append(ids, v.ID)
	}
	return Variant{}, fmt.Errorf("%w variant %q of %s (want one of %s)", ErrUnknown, id, g.Title, strings.Join(ids, ", "))
}

// CheckPlayers checks that a variant seats players.
func (v Variant) CheckPlayers(players int) error {
	if players < v.MinPlayers || players > v.MaxPlayers {
		return fmt.Errorf("games: %s with %d players, want %d to %d", v.Title, players, v.MinPlayers, v.MaxPlayers)
	}
	return nil
}

// Genesis returns the genesis of a new table of the game's variant: its
// game and variant, the seats of s and, at a Njet table, the game's
// length. It is validated as the log will read it.
func (g *Game) Genesis(variant string, s Setup) (*table.Genesis, error) {
	v, err := g.Variant(variant)
	if err != nil {
		return nil, err
	}
	if err := v.CheckPlayers(len(s.Keys)); err != nil {
		return nil, err
	}
	if s.Rand == nil {
		s.Rand = rand.New(rand.NewPCG(0, 0))
	}
	gen := &table.Genesis{Game: g.Name, Keys: slices.Clone(s.Keys), Nonce: s.Nonce, Hints: s.Hints}
	if err := g.genesis(gen, v, s); err != nil {
		return nil, err
	}
	gen.Clock = s.Clock
	for _, name := range s.Names {
		if name != "" {
			gen.Names = slices.Clone(s.Names)
			break
		}
	}
	if err := gen.Validate(); err != nil {
		return nil, err
	}
	return gen, nil
}

// CheckBot checks that kind names a bot of the game.
func (g *Game) CheckBot(kind string) error {
	_, err := g.NewPlayer(kind, rand.New(rand.NewPCG(0, 0)))
	return err
}

// Bot returns the kind of the game's bot that plays a seat asked for with
// kind: kind itself when it is one of the game's, else the game's kind of
// the strength kind has in another game (a device that did not know the
// game when it chose, the app's strengths), else the game's normal bot.
func (g *Game) Bot(kind string) string {
	if g.CheckBot(kind) == nil {
		return strings.ToLower(strings.TrimSpace(kind))
	}
	if s := StrengthOf(kind); s != 0 {
		return g.Bots[s]
	}
	return g.Bots[Normal]
}

// StrengthOf returns the strength at which a bot kind of any game plays, or
// 0 for a kind no strength uses.
func StrengthOf(kind string) Strength {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if base, _, ok := strings.Cut(kind, ":"); ok {
		kind = base
	}
	for _, g := range registry {
		for _, s := range Strengths() {
			if g.Bots[s] == kind {
				return s
			}
		}
	}
	return 0
}
