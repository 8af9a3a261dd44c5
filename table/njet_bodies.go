package table

import (
	"encoding/binary"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// The bodies of a Njet table's own kinds: Block, Team, DiscardCommit,
// PassCommit, Play (a crypto body) and its Reveal, with the hidden choice
// they commit to and open.

const choiceDomain = "njet/table/v1/choice\x00"

// choice is a seat's hidden discard or pass: the deck positions it chose
// and the salt of its commitment.
type choice struct {
	Positions []int
	Salt      [32]byte
}

// commitment is the hash a DiscardCommit or PassCommit publishes.
func (c *choice) commitment(table tablelog.TableID, deal uint64, seat int, kind tablelog.Kind) [32]byte {
	positions := []byte{byte(seat), byte(kind), byte(len(c.Positions))}
	for _, p := range c.Positions {
		positions = append(positions, byte(p))
	}
	return tablelog.DomainHash(choiceDomain, table[:], binary.BigEndian.AppendUint64(nil, deal), positions, c.Salt[:])
}

func (c *choice) encode(w *writer) {
	w.u8(len(c.Positions))
	for _, p := range c.Positions {
		w.u8(p)
	}
	if len(c.Positions) > 0 {
		w.raw(c.Salt[:])
	}
}

func (c *choice) decode(r *reader) {
	n := r.u8()
	if n > 2 {
		r.fail("%d chosen positions", n)
		return
	}
	c.Positions = nil
	for range n {
		c.Positions = append(c.Positions, r.u8())
	}
	if n == 2 && c.Positions[0] >= c.Positions[1] {
		r.fail("positions not in increasing order")
	}
	if n > 0 {
		copy(c.Salt[:], r.take(32))
	}
}

func blockBody(row engine.Row, field engine.Field) []byte {
	w := newWriter()
	w.u8(int(row))
	w.u8(int(field))
	return w.bytes()
}

func parseBlock(body []byte) (engine.Row, engine.Field, error) {
	r := newReader(tablelog.KindBlock, body)
	row, field := engine.Row(r.u8()), engine.Field(r.u8())
	return row, field, r.finish()
}

// teamBody encodes a team choice; the bonus seat is 0xFF for none.
func teamBody(partners uint8, bonus int) []byte {
	w := newWriter()
	w.u8(int(partners))
	if bonus < 0 {
		bonus = 0xFF
	}
	w.u8(bonus)
	return w.bytes()
}

func parseTeam(body []byte) (uint8, int, error) {
	r := newReader(tablelog.KindTeam, body)
	partners, bonus := uint8(r.u8()), r.u8()
	if bonus == 0xFF {
		bonus = -1
	}
	return partners, bonus, r.finish()
}

func commitBody(c [32]byte, forward *crypto.Sealed) ([]byte, error) {
	w := newWriter()
	w.raw(c[:])
	if forward != nil {
		if err := w.marshal(forward); err != nil {
			return nil, err
		}
	}
	return w.bytes(), nil
}

func parseCommit(kind tablelog.Kind, body []byte) ([32]byte, *crypto.Sealed, error) {
	r := newReader(kind, body)
	var c [32]byte
	copy(c[:], r.take(32))
	var fwd *crypto.Sealed
	if kind == tablelog.KindPassCommit {
		fwd = new(crypto.Sealed)
		r.unmarshal(fwd, maxSealedSize)
	}
	return c, fwd, r.finish()
}

func revealBody(rv *crypto.Reveal, c *choice) ([]byte, error) {
	w := newWriter()
	if err := w.marshal(rv); err != nil {
		return nil, err
	}
	c.encode(w)
	return w.bytes(), nil
}

func parseReveal(body []byte) (*crypto.Reveal, *choice, error) {
	r := newReader(tablelog.KindReveal, body)
	rv := new(crypto.Reveal)
	r.unmarshal(rv, 256)
	c := new(choice)
	c.decode(r)
	return rv, c, r.finish()
}
