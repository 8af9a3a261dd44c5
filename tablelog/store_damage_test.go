package tablelog

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withDeadline runs fn and fails the test if it has not returned in time,
// so that a hang fails instead of blocking.
func withDeadline(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("no answer in %v: a hang", d)
	}
}

// TestStoreDamaged damages a store in each way a phone's storage can and
// checks that opening it sets the file aside, says what was kept, and
// leaves a store that takes the rest of the log and reopens sound.
func TestStoreDamaged(t *testing.T) {
	f := newFixture(t, 3, 1000)
	envs := f.chain(t, 400)
	dir := t.TempDir()
	sound := filepath.Join(dir, "sound.db")
	s := openStore(t, sound)
	for _, e := range envs {
		if err := s.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutSecret(f.table, "round-1/key", []byte("k")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(sound)
	if err != nil {
		t.Fatal(err)
	}
	if len(orig) < 3*4096 {
		t.Fatalf("the sound store is only %d bytes", len(orig))
	}
	page := func(b []byte, n int, fill func([]byte)) []byte {
		b = bytes.Clone(b)
		fill(b[n*4096 : (n+1)*4096])
		return b
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		data  []byte
		empty bool // nothing can be kept
	}{
		{"truncated at 0", nil, true},
		{"truncated at 4 KiB", orig[:4096], false},
		{"truncated at 8 KiB", orig[:8192], false},
		{"truncated at 12 KiB", orig[:12288], false},
		{"truncated at half", orig[:len(orig)/2], false},
		{"truncated by 100 bytes", orig[:len(orig)-100], false},
		{"header cut", orig[:5], true},
		{"zeroed first page", page(orig, 0, func(p []byte) { clear(p) }), true},
		{"zeroed page", page(orig, 1, func(p []byte) { clear(p) }), false},
		{"random page", page(orig, 2, func(p []byte) {
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
		}), false},
		{"record length past the end", func() []byte {
			b := bytes.Clone(orig)
			binary.BigEndian.PutUint32(b[storeHead:], uint32(len(orig)))
			return b
		}(), true},
		{"record length beyond the limit", func() []byte {
			b := bytes.Clone(orig)
			binary.BigEndian.PutUint32(b[storeHead:], 0xffffffff)
			return b
		}(), true},
		{"another format", append([]byte("\x00\x00\x00\x00\x00\x00\x00\x00\xed\xda\x0c\xed"), orig[12:]...), true},
		{"a newer version", append([]byte(storeMagic+"\x09"), orig[storeHead:]...), true},
		{"one bit flipped", func() []byte {
			b := bytes.Clone(orig)
			b[len(b)/3] ^= 0x10
			return b
		}(), false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "njet.db")
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)
			withDeadline(t, 20*time.Second, func() {
				s, err := OpenStore(path, &StoreOptions{Now: func() time.Time { return now }})
				if err != nil {
					t.Errorf("open: %v", err)
					return
				}
				defer s.Close()
				d := s.Damage()
				if d == nil {
					t.Error("no damage reported")
					return
				}
				msg := d.String()
				if !strings.Contains(msg, filepath.Base(d.Aside)) || !strings.Contains(msg, "lost") {
					t.Errorf("the message does not say where the file is and what was lost: %s", msg)
				}
				if kept, err := os.ReadFile(d.Aside); err != nil || !bytes.Equal(kept, tc.data) {
					t.Errorf("the damaged file is not kept as it was: %v", err)
				}
				next, err := s.Next(f.table)
				if err != nil {
					t.Error(err)
					return
				}
				if tc.empty != (len(d.Kept) == 0) || (next > 0) != (len(d.Kept) == 1) {
					t.Errorf("kept %v, next %d", d.Kept, next)
				}
				if next > uint64(len(envs)) {
					t.Errorf("next %d", next)
					return
				}
				got, err := s.Envelopes(f.table, 0, next)
				if err != nil || uint64(len(got)) != next {
					t.Errorf("kept envelopes: %d, %v", len(got), err)
					return
				}
				for i, e := range got {
					if e.Hash() != envs[i].Hash() {
						t.Errorf("kept seq %d differs", i)
						return
					}
				}
				// The rest of the log, as a sync would bring it.
				if err := s.Put(envs[next:]...); err != nil {
					t.Errorf("put the rest: %v", err)
				}
			})
			withDeadline(t, 20*time.Second, func() {
				s, err := OpenStore(path, nil)
				if err != nil {
					t.Errorf("reopen: %v", err)
					return
				}
				defer s.Close()
				if d := s.Damage(); d != nil {
					t.Errorf("damage after the repair: %s", d)
				}
				if next, err := s.Next(f.table); err != nil || next != uint64(len(envs)) {
					t.Errorf("next %d, %v", next, err)
				}
			})
		})
	}
}

// TestStoreEmptyFileTells checks that an empty store file is not taken for a
// new store: the person is told that an unfinished table may be lost.
func TestStoreEmptyFileTells(t *testing.T) {
	path := filepath.Join(t.TempDir(), "njet.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, path)
	defer s.Close()
	d := s.Damage()
	if d == nil || !strings.Contains(d.String(), "was empty") || !strings.Contains(d.String(), "unfinished table") {
		t.Fatalf("damage %v", d)
	}
}

// TestStoreRewindSurvivesReopen checks that a rewound log reopens rewound
// and goes on from there.
func TestStoreRewindSurvivesReopen(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 10)
	path := filepath.Join(t.TempDir(), "njet.db")
	s := openStore(t, path)
	if err := s.Put(envs...); err != nil {
		t.Fatal(err)
	}
	if err := s.Rewind(f.table, 6); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(envs[6:8]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path)
	defer s.Close()
	if s.Damage() != nil {
		t.Fatal(s.Damage())
	}
	if next, _ := s.Next(f.table); next != 8 {
		t.Fatalf("next %d", next)
	}
	if err := s.Put(envs[8]); err != nil {
		t.Fatal(err)
	}
}

// TestStoreLocked checks that a second open of a store in use waits and
// then fails, instead of writing beside the first.
func TestStoreLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "njet.db")
	s := openStore(t, path)
	defer s.Close()
	if _, err := OpenStore(path, &StoreOptions{LockTimeout: 50 * time.Millisecond}); err == nil {
		t.Fatal("a second open of a held store succeeded")
	}
}
