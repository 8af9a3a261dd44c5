package p2p

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// SaveTable records in the store what a device needs to resume a table
// after a restart: the Setup, its seats with their bot kinds, and the
// keys of the bots it hosts (as secrets).
func SaveTable(store *tablelog.Store, setup *Setup, seats []LocalSeat) error {
	id := setup.Table()
	enc, err := setup.MarshalBinary()
	if err != nil {
		return err
	}
	var lines []string
	for _, s := range seats {
		lines = append(lines, fmt.Sprintf("%d %s", s.Seat, s.Bot))
		if err := store.PutSecret(id, "p2p/seat-key/"+strconv.Itoa(s.Seat), s.Key.Seed()); err != nil {
			return err
		}
	}
	if err := store.PutMeta(id, metaSeats, []byte(strings.Join(lines, "\n"))); err != nil {
		return err
	}
	return store.PutMeta(id, metaSetup, enc)
}

// MarkOver records that the table's game ended; LoadTable skips it.
func MarkOver(store *tablelog.Store, id tablelog.TableID) error {
	return store.PutMeta(id, metaOver, []byte{1})
}

// LoadTable returns the unfinished table in the store that the device
// (key) sits at, with its local seats, or nil when there is none.
func LoadTable(store *tablelog.Store, key ed25519.PrivateKey) (*Setup, []LocalSeat, error) {
	ids, err := store.Tables()
	if err != nil {
		return nil, nil, err
	}
	me, err := tablelog.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, nil, err
	}
	for _, id := range ids {
		if _, err := store.Meta(id, metaOver); err == nil {
			continue
		}
		enc, err := store.Meta(id, metaSetup)
		if errors.Is(err, tablelog.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		setup, err := ParseSetup(enc)
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: %s: the stored setup of table %v: %w", store.Path(), id, err)
		}
		gen, err := setup.Check()
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: %s: the stored setup of table %v: %w", store.Path(), id, err)
		}
		list, err := store.Meta(id, metaSeats)
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: %s: the seat list of table %v: %w", store.Path(), id, err)
		}
		g, err := games.ByName(gen.Game)
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: %s: the stored setup of table %v: %w", store.Path(), id, err)
		}
		seats, err := parseSeatList(list, len(gen.Keys), g)
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: %s: the seat list of table %v: %w", store.Path(), id, err)
		}
		claimed, err := claimedKeys(store, id)
		if err != nil {
			return nil, nil, err
		}
		// A seat's key is its genesis key, or the key of a device the log
		// handed the seat to (a watcher that took it).
		seatKey := func(seat int, key tablelog.Identity) bool {
			return gen.Keys[seat] == key || slices.Contains(claimed[seat], key)
		}
		for i, ls := range seats {
			seed, err := store.Secret(id, "p2p/seat-key/"+strconv.Itoa(ls.Seat))
			if err != nil || len(seed) != ed25519.SeedSize {
				return nil, nil, fmt.Errorf("%w: p2p: %s: the key of seat %d of table %v is missing or damaged", tablelog.ErrCorrupt, store.Path(), ls.Seat, id)
			}
			k := ed25519.NewKeyFromSeed(seed)
			if pub, _ := tablelog.IdentityOf(k.Public().(ed25519.PublicKey)); !seatKey(ls.Seat, pub) {
				return nil, nil, fmt.Errorf("%w: p2p: %s: the stored key of seat %d of table %v is neither its genesis key nor one the log handed it to", tablelog.ErrCorrupt, store.Path(), ls.Seat, id)
			}
			seats[i].Key = k
		}
		if len(seats) == 0 || !seatKey(seats[0].Seat, me) {
			continue
		}
		return setup, seats, nil
	}
	return nil, nil, nil
}

// parseSeatList reads a stored seat list, one "seat bot-kind" line per
// seat this device hosts, its own first: seats in [0, players), each once,
// written as SaveTable writes them, with a bot kind of the table's game
// (or, as a device that joined before it knew the game wrote it, of
// another game: the table's game then plays it at its strength).
func parseSeatList(list []byte, players int, g *games.Game) ([]LocalSeat, error) {
	lines := strings.Split(string(list), "\n")
	if len(lines) > players {
		return nil, fmt.Errorf("%w: %d seats at a table of %d", tablelog.ErrCorrupt, len(lines), players)
	}
	seen := make([]bool, players)
	seats := make([]LocalSeat, 0, len(lines))
	for i, line := range lines {
		f := strings.Split(line, " ")
		if len(f) != 2 {
			return nil, fmt.Errorf("%w: line %d %q is not \"seat bot-kind\"", tablelog.ErrCorrupt, i+1, line)
		}
		seat, err := strconv.Atoi(f[0])
		if err != nil || strconv.Itoa(seat) != f[0] || seat < 0 || seat >= players {
			return nil, fmt.Errorf("%w: line %d: seat %q is not one of 0 to %d", tablelog.ErrCorrupt, i+1, f[0], players-1)
		}
		if seen[seat] {
			return nil, fmt.Errorf("%w: line %d: seat %d is listed twice", tablelog.ErrCorrupt, i+1, seat)
		}
		seen[seat] = true
		if !knownBot(g, f[1]) {
			return nil, fmt.Errorf("%w: line %d: unknown bot kind %q", tablelog.ErrCorrupt, i+1, f[1])
		}
		seats = append(seats, LocalSeat{Seat: seat, Bot: f[1]})
	}
	return seats, nil
}

// knownBot reports whether kind is a bot kind of g, or of any game.
func knownBot(g *games.Game, kind string) bool {
	if g.CheckBot(kind) == nil {
		return true
	}
	for _, other := range games.All() {
		if other.CheckBot(kind) == nil {
			return true
		}
	}
	return false
}

// claimedKeys returns, per seat, the keys the stored log handed the seat to
// (SeatClaim envelopes; the store holds only what a Log accepted).
func claimedKeys(store *tablelog.Store, id tablelog.TableID) (map[int][]tablelog.Identity, error) {
	out := map[int][]tablelog.Identity{}
	next, err := store.Next(id)
	if err != nil || next == 0 {
		return out, err
	}
	envs, err := store.Envelopes(id, 0, next)
	if err != nil {
		return nil, err
	}
	for _, env := range envs {
		if env.Kind != tablelog.KindSeatClaim {
			continue
		}
		if seat, key, err := table.ClaimOf(env); err == nil {
			out[seat] = append(out[seat], key)
		}
	}
	return out, nil
}
