package tablelog

import (
	"os"
	"path/filepath"
	"testing"
	"time"
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
		s.Rewind(fx.table, 4), s.Put(envs[4:12]...), s.Close(),
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
