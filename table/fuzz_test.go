package table

import (
	"bytes"
	"testing"

	"github.com/njetlan/njet/tablelog"
)

// Every decoder is fuzzed for the same property: whatever it accepts
// encodes back to exactly the input (the encodings are canonical).

func FuzzParseVote(f *testing.F) {
	fx := newFixture(f, 3)
	v := &SilenceVote{Table: fx.table, Seq: 7, Prev: tablelog.Hash{3}, Silent: 2, Voter: 0}
	if err := v.Sign(fx.privs[0]); err != nil {
		f.Fatal(err)
	}
	enc, err := v.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	v.Why = AbsenceRefused
	if err := v.Sign(fx.privs[0]); err != nil {
		f.Fatal(err)
	}
	if enc, err = v.MarshalBinary(); err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVote(data)
		if err != nil {
			return
		}
		enc, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParsePresence(f *testing.F) {
	fx := newFixture(f, 3)
	a := &Presence{Table: fx.table, Seat: 2, Beat: 1 << 40, Head: 9}
	if err := a.Sign(fx.privs[2]); err != nil {
		f.Fatal(err)
	}
	enc, err := a.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParsePresence(data)
		if err != nil {
			return
		}
		enc, err := a.MarshalBinary()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParseVoidSilent(f *testing.F) {
	fx := newFixture(f, 3)
	var votes []*SilenceVote
	for _, voter := range []uint8{0, 1} {
		v := &SilenceVote{Table: fx.table, Seq: 7, Silent: 2, Voter: voter}
		if err := v.Sign(fx.privs[voter]); err != nil {
			f.Fatal(err)
		}
		votes = append(votes, v)
	}
	body, err := voidSilentBody(2, []takenSeat{{seat: 2, bot: fx.ids[2]}}, votes)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(body)
	old, err := (&voidSilent{silent: 2, taken: []takenSeat{{seat: 2, bot: fx.ids[2]}}, votes: votes, v1: true}).encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(old)
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := parseVoidSilent(data)
		if err != nil {
			return
		}
		enc, err := vs.encode()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}
