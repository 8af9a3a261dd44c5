package p2p

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/njetlan/njet/table"
)

// SaveTable records in the store what a device needs to resume a table
// after a restart: the Setup, its seats with their bot kinds, and the
// keys of the bots it hosts (as secrets).
func SaveTable(store *table.Store, setup *Setup, seats []LocalSeat) error {
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
func MarkOver(store *table.Store, id table.TableID) error {
	return store.PutMeta(id, metaOver, []byte{1})
}

// LoadTable returns the unfinished table in the store that the device
// (key) sits at, with its local seats, or nil when there is none.
func LoadTable(store *table.Store, key ed25519.PrivateKey) (*Setup, []LocalSeat, error) {
	ids, err := store.Tables()
	if err != nil {
		return nil, nil, err
	}
	me, err := table.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, nil, err
	}
	for _, id := range ids {
		if _, err := store.Meta(id, metaOver); err == nil {
			continue
		}
		enc, err := store.Meta(id, metaSetup)
		if errors.Is(err, table.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		setup, err := ParseSetup(enc)
		if err != nil {
			return nil, nil, fmt.Errorf("p2p: stored setup of table %v: %w", id, err)
		}
		gen, err := setup.Check()
		if err != nil {
			return nil, nil, err
		}
		list, err := store.Meta(id, metaSeats)
		if err != nil {
			return nil, nil, err
		}
		var seats []LocalSeat
		for _, line := range strings.Split(string(list), "\n") {
			f := strings.Fields(line)
			if len(f) != 2 {
				return nil, nil, fmt.Errorf("%w: stored seat %q", table.ErrCorrupt, line)
			}
			seat, err := strconv.Atoi(f[0])
			if err != nil || seat < 0 || seat >= len(gen.Keys) {
				return nil, nil, fmt.Errorf("%w: stored seat %q", table.ErrCorrupt, line)
			}
			seed, err := store.Secret(id, "p2p/seat-key/"+f[0])
			if err != nil || len(seed) != ed25519.SeedSize {
				return nil, nil, fmt.Errorf("%w: the key of seat %d", table.ErrCorrupt, seat)
			}
			k := ed25519.NewKeyFromSeed(seed)
			if pub, _ := table.IdentityOf(k.Public().(ed25519.PublicKey)); pub != gen.Keys[seat] {
				return nil, nil, fmt.Errorf("%w: the stored key of seat %d is not its genesis key", table.ErrCorrupt, seat)
			}
			seats = append(seats, LocalSeat{Seat: seat, Key: k, Bot: f[1]})
		}
		if len(seats) == 0 || gen.Keys[seats[0].Seat] != me {
			continue
		}
		return setup, seats, nil
	}
	return nil, nil, nil
}
