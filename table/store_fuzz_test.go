package table

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
)

// storeSeed returns the bytes of a sound store holding every kind of
// record.
func storeSeed(f *testing.F) []byte {
	fx := newFixture(f, 3, 100)
	envs := fx.chain(f, 12)
	path := filepath.Join(f.TempDir(), "seed.db")
	s, err := OpenStore(path, &StoreOptions{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	ev := Evidence{Key: fx.ids[0], First: envs[3], Second: seal(f, fx.privs[0], fx.table, 3, envs[2].Hash(), 0, KindPlay, "twin")}
	for _, err := range []error{
		s.Put(envs[:6]...), s.PutSecret(fx.table, "round-1/key", []byte("k")),
		s.PutMeta(fx.table, "p2p/seats", []byte("0 heuristic")), s.PutEvidence(fx.table, ev),
		s.rewind(fx.table, 4), s.Put(envs[4:12]...), s.Close(),
	} {
		if err != nil {
			f.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// FuzzOpenStore opens any bytes as a store file: the open succeeds (a
// damaged file is set aside), every stored envelope reads back, and the
// repaired file reopens sound with the same logs.
func FuzzOpenStore(f *testing.F) {
	seed := storeSeed(f)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{})
	f.Add([]byte(storeMagic + "\x01\x00\x00\x00\x05"))
	now := func() time.Time { return time.Unix(1, 0) }
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "njet.db")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := OpenStore(path, &StoreOptions{Now: now})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		ids, _ := s.Tables()
		nexts := map[TableID]uint64{}
		for _, id := range ids {
			next, err := s.Next(id)
			if err != nil {
				t.Fatal(err)
			}
			envs, err := s.Envelopes(id, 0, next)
			if err != nil || uint64(len(envs)) != next {
				t.Fatalf("table %v: %d of %d envelopes: %v", id, len(envs), next, err)
			}
			if _, err := s.Evidence(id); err != nil {
				t.Fatal(err)
			}
			nexts[id] = next
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = OpenStore(path, &StoreOptions{Now: now})
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		defer s.Close()
		if d := s.Damage(); d != nil {
			t.Fatalf("the repaired store is damaged: %s", d)
		}
		for id, want := range nexts {
			if next, _ := s.Next(id); next != want {
				t.Fatalf("table %v: next %d after reopening, was %d", id, next, want)
			}
		}
	})
}

// gameExport is a whole two-seat round played by bots, its export's
// envelopes and the seats' keys.
func gameExport(f *testing.F) (*Selfplay, []*Envelope) {
	sp, _ := selfplay(f, SelfplayConfig{Edition: engine.Modern, Players: 2, Rounds: 1, Seed: 3})
	path := filepath.Join(f.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	_, envs, err := ReadExport(bytes.NewReader(data))
	if err != nil {
		f.Fatal(err)
	}
	return sp, envs
}

// FuzzVerifyResigned runs exports through the whole verify path: a real
// game's log cut after seq at, whose last envelope gets the fuzzer's
// author, kind and body and is signed again with that seat's key, so the
// fuzzer reaches the game's rules and proofs rather than the signature
// check. Verify returns an error or a verification, never panics, and the
// untouched prefix verifies.
func FuzzVerifyResigned(f *testing.F) {
	sp, envs := gameExport(f)
	for _, at := range []int{0, 1, 2, 5, len(envs) / 2, len(envs) - 1} {
		e := envs[at]
		f.Add(uint16(at), e.Author, uint8(e.Kind), e.Body)
	}
	f.Fuzz(func(t *testing.T, at uint16, author, kind uint8, body []byte) {
		i := int(at) % len(envs)
		e := envs[i].Clone()
		e.Author, e.Kind, e.Body = author%2, Kind(kind), body
		if err := e.Sign(sp.SeatKey(int(e.Author))); err != nil {
			return // a body the envelope cannot carry
		}
		var buf bytes.Buffer
		if err := WriteExport(&buf, append(envs[:i:i], e)); err != nil {
			t.Fatalf("export: %v", err)
		}
		v, err := VerifyReader(bytes.NewReader(buf.Bytes()), func(int64, int64) {})
		if err == nil && v == nil {
			t.Fatal("no verification and no error")
		}
		if err == nil && v.Envelopes != i+1 {
			t.Fatalf("verified %d envelopes of %d", v.Envelopes, i+1)
		}
		if i > 0 {
			buf.Reset()
			if err := WriteExport(&buf, envs[:i]); err != nil {
				t.Fatal(err)
			}
			if _, err := VerifyReader(&buf, nil); err != nil {
				var viol *Violation
				if !errors.As(err, &viol) {
					t.Fatalf("the untouched prefix of %d fails: %v", i, err)
				}
			}
		}
	})
}

// FuzzVerifyReader runs any bytes through the streaming verify path.
func FuzzVerifyReader(f *testing.F) {
	_, envs := gameExport(f)
	var buf bytes.Buffer
	if err := WriteExport(&buf, envs[:6]); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := VerifyReader(bytes.NewReader(data), nil)
		if err == nil && v == nil {
			t.Fatal("no verification and no error")
		}
		if err == io.EOF {
			t.Fatal("io.EOF leaked out of the reader")
		}
	})
}
