package tablelog

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
	enc, err := MarshalSyncResponse([][]byte{{1, 2, 3}, {}, bytes.Repeat([]byte{9}, 300)})
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
