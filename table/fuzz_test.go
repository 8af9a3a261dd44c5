package table

import (
	"bytes"
	"testing"
)

// Every decoder is fuzzed for the same property: whatever it accepts
// encodes back to exactly the input (the encodings are canonical).

func envelopeSeeds(f *testing.F) [][]byte {
	fx := newFixture(f, 3, 100)
	var out [][]byte
	for _, e := range fx.chain(f, 3) {
		enc, err := e.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, enc)
	}
	return out
}

func FuzzParseEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseEnvelope(data)
		if err != nil {
			return
		}
		enc, err := e.MarshalBinary()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParseEvidence(f *testing.F) {
	fx := newFixture(f, 3, 100)
	envs := fx.chain(f, 2)
	twin := seal(f, fx.privs[0], fx.table, 1, envs[0].Hash(), 0, KindPlay, "twin")
	enc, err := Evidence{Key: fx.ids[0], First: envs[1], Second: twin}.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := ParseEvidence(data)
		if err != nil {
			return
		}
		enc, err := ev.MarshalBinary()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParseSyncRequest(f *testing.F) {
	enc, err := SyncRequest{Table: TableID{1}, From: 2, To: 9}.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseSyncRequest(data)
		if err != nil {
			return
		}
		enc, err := r.MarshalBinary()
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParseSyncResponse(f *testing.F) {
	enc, err := MarshalSyncResponse(envelopeSeeds(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseSyncResponse(data)
		if err != nil {
			return
		}
		enc, err := MarshalSyncResponse(entries)
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzReadExport(f *testing.F) {
	fx := newFixture(f, 3, 100)
	var buf bytes.Buffer
	if err := WriteExport(&buf, fx.chain(f, 3)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		_, envs, err := ReadExport(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteExport(&out, envs); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

func FuzzParseVote(f *testing.F) {
	fx := newFixture(f, 3, 100)
	v := &SilenceVote{Table: fx.table, Seq: 7, Prev: Hash{3}, Silent: 2, Voter: 0}
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
	fx := newFixture(f, 3, 100)
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
	fx := newFixture(f, 3, 100)
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
