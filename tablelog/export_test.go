package tablelog

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"testing"
)

func exportOf(t *testing.T, envs []*Envelope) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteExport(&buf, envs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExportRoundTrip(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 12)
	src := openStore(t, filepath.Join(t.TempDir(), "a.db"))
	defer src.Close()
	if err := src.Put(envs...); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := src.Export(&buf, f.table); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), exportOf(t, envs)) {
		t.Fatal("Store.Export and WriteExport differ")
	}
	dst := openStore(t, filepath.Join(t.TempDir(), "b.db"))
	defer dst.Close()
	if err := dst.Put(envs[:5]...); err != nil { // a prefix it already had
		t.Fatal(err)
	}
	table, err := dst.Import(bytes.NewReader(buf.Bytes()))
	if err != nil || table != f.table {
		t.Fatalf("%v %v", table, err)
	}
	got, err := dst.Envelopes(f.table, 0, 100)
	if err != nil || len(got) != len(envs) {
		t.Fatalf("%d, %v", len(got), err)
	}
	l := f.newLog(t)
	mustAppend(t, l, got...)
	if err := src.Export(&buf, TableID{3}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown table: %v", err)
	}
}

// TestExportEveryByteMatters changes each byte of a small export in turn:
// every change is rejected and the store is left as it was.
func TestExportEveryByteMatters(t *testing.T) {
	f := newFixture(t, 2, 100)
	envs := f.chain(t, 3)
	good := exportOf(t, envs)
	s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
	defer s.Close()
	if err := s.Put(envs[0]); err != nil {
		t.Fatal(err)
	}
	for i := range good {
		for _, flip := range []byte{0x01, 0x80} {
			bad := bytes.Clone(good)
			bad[i] ^= flip
			if _, err := s.Import(bytes.NewReader(bad)); err == nil {
				t.Fatalf("byte %d ^ %#x accepted", i, flip)
			} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnknownVersion) {
				t.Fatalf("byte %d: unexpected error %v", i, err)
			}
		}
	}
	for _, n := range []int{0, 5, 9, 50, len(good) - 32, len(good) - 1} {
		if _, err := s.Import(bytes.NewReader(good[:n])); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
	if _, err := s.Import(bytes.NewReader(append(bytes.Clone(good), 0))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing byte: %v", err)
	}
	if next, _ := s.Next(f.table); next != 1 {
		t.Fatalf("a rejected import wrote: next %d", next)
	}
}

// TestExportForgeryNeedsTheKeys: a deliberate change with a recomputed
// digest passes the file checks but not the signatures.
func TestExportForgeryNeedsTheKeys(t *testing.T) {
	f := newFixture(t, 2, 100)
	envs := f.chain(t, 3)
	forged := envs[2].Clone()
	forged.Body = []byte("a better card")
	var buf bytes.Buffer
	if err := WriteExport(&buf, append(envs[:2:2], forged)); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	d := sha256.New()
	d.Write([]byte(exportDomain))
	d.Write(data[:len(data)-32])
	copy(data[len(data)-32:], d.Sum(nil))
	_, got, err := ReadExport(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	l := f.newLog(t)
	mustAppend(t, l, got[:2]...)
	if _, err := l.Append(got[2]); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("got %v", err)
	}
}

func TestWriteExportRejectsBrokenLogs(t *testing.T) {
	f := newFixture(t, 2, 100)
	envs := f.chain(t, 4)
	tests := []struct {
		name string
		envs []*Envelope
		want error
	}{
		{"empty", nil, ErrMalformed},
		{"no genesis", envs[1:], ErrGap},
		{"hole", []*Envelope{envs[0], envs[2]}, ErrGap},
		{"broken chain", []*Envelope{envs[0], seal(t, f.privs[0], f.table, 1, Hash{4}, 0, KindPlay, "x")}, ErrBadChain},
		{"two tables", []*Envelope{envs[0], seal(t, f.privs[0], TableID{8}, 1, envs[0].Hash(), 0, KindPlay, "x")}, ErrWrongTable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := WriteExport(&bytes.Buffer{}, tc.envs); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}
