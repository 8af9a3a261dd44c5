package tablelog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func openStore(t *testing.T, path string) *Store {
	t.Helper()
	s, err := OpenStore(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStorePutAndReopen(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 6)
	path := filepath.Join(t.TempDir(), "njet.db")
	s := openStore(t, path)
	if err := s.Put(envs[:4]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(envs[3], envs[4]); err != nil { // seq 3 again: identical, skipped
		t.Fatal(err)
	}
	if err := s.PutSecret(f.table, "round-1/key", []byte("secret scalar")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMeta(f.table, "seat", []byte{2}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path)
	defer s.Close()
	next, err := s.Next(f.table)
	if err != nil || next != 5 {
		t.Fatalf("next %d, %v", next, err)
	}
	got, err := s.Envelopes(f.table, 0, 100)
	if err != nil || len(got) != 5 {
		t.Fatalf("%d envelopes, %v", len(got), err)
	}
	for i, e := range got {
		if e.Hash() != envs[i].Hash() {
			t.Fatalf("seq %d differs", i)
		}
	}
	if sec, err := s.Secret(f.table, "round-1/key"); err != nil || string(sec) != "secret scalar" {
		t.Fatalf("secret %q, %v", sec, err)
	}
	if m, err := s.Meta(f.table, "seat"); err != nil || !bytes.Equal(m, []byte{2}) {
		t.Fatalf("meta %v, %v", m, err)
	}
	if ids, err := s.Tables(); err != nil || len(ids) != 1 || ids[0] != f.table {
		t.Fatalf("tables %v, %v", ids, err)
	}
}

func TestStoreRejects(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 4)
	s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
	defer s.Close()
	if err := s.Put(envs[:2]...); err != nil {
		t.Fatal(err)
	}
	other := seal(t, f.privs[0], f.table, 1, envs[0].Hash(), 0, KindPlay, "other")
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"conflict", s.Put(other), ErrConflict},
		{"gap", s.Put(envs[3]), ErrGap},
		{"bad chain", s.Put(seal(t, f.privs[1], f.table, 2, Hash{7}, 1, KindPlay, "x")), ErrBadChain},
		{"all or nothing", s.Put(envs[2], envs[2], other), ErrConflict},
		{"nil", s.Put(nil), ErrMalformed},
		{"missing secret", func() error { _, err := s.Secret(f.table, "nope"); return err }(), ErrNotFound},
		{"missing table", func() error { _, err := s.Meta(TableID{9}, "seat"); return err }(), ErrNotFound},
		{"empty name", s.PutSecret(f.table, "", nil), ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Fatalf("got %v, want %v", tc.err, tc.want)
			}
		})
	}
	if next, _ := s.Next(f.table); next != 2 {
		t.Fatalf("a failed Put wrote something: next %d", next)
	}
}

func TestStoreServeRange(t *testing.T) {
	f := newFixture(t, 3, 1000)
	envs := f.chain(t, MaxRange+10)
	s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
	defer s.Close()
	if err := s.Put(envs...); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := s.ServeRange(ctx, f.table, 5, 1<<40)
	if err != nil || len(got) != MaxRange {
		t.Fatalf("%d, %v", len(got), err)
	}
	if e, err := ParseEnvelope(got[0]); err != nil || e.Seq != 5 {
		t.Fatal("first entry")
	}
	if got, err := s.ServeRange(ctx, f.table, uint64(len(envs)), 1<<40); err != nil || len(got) != 0 {
		t.Fatalf("past the end: %d, %v", len(got), err)
	}
	if got, err := s.ServeRange(ctx, TableID{5}, 0, 10); err != nil || len(got) != 0 {
		t.Fatalf("unknown table: %d, %v", len(got), err)
	}
	if _, err := s.ServeRange(ctx, f.table, 3, 3); !errors.Is(err, ErrMalformed) {
		t.Fatal(err)
	}
}

func TestStoreEvidence(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 2)
	ev := Evidence{Key: f.ids[0], First: envs[1], Second: seal(t, f.privs[0], f.table, 1, envs[0].Hash(), 0, KindPlay, "twin")}
	s := openStore(t, filepath.Join(t.TempDir(), "njet.db"))
	defer s.Close()
	for range 2 {
		if err := s.PutEvidence(f.table, ev); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Evidence(f.table)
	if err != nil || len(got) != 1 || got[0].Verify() != nil {
		t.Fatalf("%v, %v", got, err)
	}
}

// crashEnv names the store a crashing child process writes to.
const crashEnv = "NJET_TABLE_CRASH_STORE"

// TestMain runs the crashing child of TestStoreSurvivesCrash when the
// environment names its store, and the tests otherwise.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
		return
	}
	m.Run()
}

// crashChild stores envelopes one Put at a time, reports how far it got
// and kills itself, so the store is never closed. On a failure it prints
// it and dies without the report, which the parent test shows.
func crashChild(path string) {
	die := func() {
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Kill()
		}
		select {} // killed
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		die()
	}
	f := newFixture(childTB{fail: fail}, 3, 100)
	s, err := OpenStore(path, nil)
	if err != nil {
		fail(err)
	}
	for _, e := range f.chain(childTB{fail: fail}, 20) {
		if err := s.Put(e); err != nil {
			fail(err)
		}
	}
	if err := s.PutSecret(f.table, "round-1/key", []byte("k")); err != nil {
		fail(err)
	}
	if err := os.WriteFile(path+".done", []byte(strconv.Itoa(20)), 0o600); err != nil {
		fail(err)
	}
	die()
}

// childTB lets the crash child use the test fixtures outside a test.
type childTB struct {
	testing.TB
	fail func(error)
}

func (c childTB) Helper()                           {}
func (c childTB) Fatal(args ...any)                 { c.fail(errors.New(fmt.Sprint(args...))) }
func (c childTB) Fatalf(format string, args ...any) { c.fail(fmt.Errorf(format, args...)) }

func TestStoreSurvivesCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "njet.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Success() {
		t.Fatalf("the child should have been killed: %v\n%s", err, out)
	}
	done, err := os.ReadFile(path + ".done")
	if err != nil {
		t.Fatalf("the child did not finish writing: %v\n%s", err, out)
	}
	want, _ := strconv.Atoi(string(done))
	s := openStore(t, path)
	defer s.Close()
	f := newFixture(t, 3, 100)
	got, err := s.Envelopes(f.table, 0, 1000)
	if err != nil || len(got) != want {
		t.Fatalf("%d envelopes after the crash, want %d: %v", len(got), want, err)
	}
	l := f.newLog(t)
	mustAppend(t, l, got...)
	if sec, err := s.Secret(f.table, "round-1/key"); err != nil || string(sec) != "k" {
		t.Fatalf("secret %q, %v", sec, err)
	}
	// The store goes on from where it was.
	more := f.chain(t, want+1)
	if err := s.Put(more[want]); err != nil {
		t.Fatal(err)
	}
}

// A rewind drops, with the envelopes, what the peer stored for the branch
// it gives up: the round keys, choices and bot keys it wrote and its
// standing vote, written when the stored log was at or past the first
// dropped seq. Values written before stay; a value that a dropped write
// replaced comes back; values that belong to no branch (the device's seat
// keys) stay whenever they were written. A reopened store replays the
// same.
func TestStoreRewindDropsTheBranchSecrets(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 8)
	path := filepath.Join(t.TempDir(), "njet.db")
	s := openStore(t, path)
	put := func(upTo int, secrets, meta map[string]string) {
		t.Helper()
		if err := s.Put(envs[:upTo]...); err != nil {
			t.Fatal(err)
		}
		for name, v := range secrets {
			if err := s.PutSecret(f.table, name, []byte(v)); err != nil {
				t.Fatal(err)
			}
		}
		for name, v := range meta {
			if err := s.PutMeta(f.table, name, []byte(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Kept branch: seqs 0..3; the branch dropped from seq 4 on.
	put(3, map[string]string{"round-keys/1/2": "deal 1", "bot-key/0": "first bot"}, nil)
	put(4, map[string]string{"choice/1/2": "block"}, map[string]string{MetaSilenceVote: "vote at 4"})
	put(6, map[string]string{"round-keys/2/0": "taken over", "bot-key/0": "second bot", "choice/1/2": "again",
		"p2p/seat-key/2": "seat key"}, map[string]string{MetaSilenceVote: "vote at 6", "p2p/over": "1"})
	if err := s.Rewind(f.table, 4); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, secret, meta string // "" for none
	}{
		{name: "round-keys/1/2", secret: "deal 1"},
		{name: "bot-key/0", secret: "first bot"},
		{name: "round-keys/2/0"},
		{name: "choice/1/2"},
		{name: "p2p/seat-key/2", secret: "seat key"},
		{name: MetaSilenceVote},
		{name: "p2p/over", meta: "1"},
	}
	check := func(s *Store) {
		t.Helper()
		if next, err := s.Next(f.table); err != nil || next != 4 {
			t.Fatalf("next %d, %v; want 4", next, err)
		}
		for _, w := range want {
			t.Run(w.name, func(t *testing.T) {
				got, err := s.Secret(f.table, w.name)
				if w.secret == "" && !errors.Is(err, ErrNotFound) || w.secret != "" && (err != nil || string(got) != w.secret) {
					t.Errorf("secret %q, %v; want %q", got, err, w.secret)
				}
				got, err = s.Meta(f.table, w.name)
				if w.meta == "" && !errors.Is(err, ErrNotFound) || w.meta != "" && (err != nil || string(got) != w.meta) {
					t.Errorf("meta %q, %v; want %q", got, err, w.meta)
				}
			})
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path)
	defer s.Close()
	check(s)
}
