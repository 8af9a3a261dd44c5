package lan

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/tablelog"
)

// cutAtLastOwn cuts the store file in dir inside the record of the last
// envelope seat posted, as a crash or a full disk would: the device loses
// that envelope (and all after it) but keeps its secrets, stored before.
// It reports the seq of the lost envelope.
func cutAtLastOwn(t *testing.T, dir string, id tablelog.TableID, seat int) uint64 {
	t.Helper()
	path := filepath.Join(dir, "njet.db")
	st, err := tablelog.OpenStore(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	next, err := st.Next(id)
	if err != nil {
		t.Fatal(err)
	}
	envs, err := st.Envelopes(id, 0, next)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var own *tablelog.Envelope
	for _, e := range envs {
		if int(e.Author) == seat {
			own = e
		}
	}
	if own == nil {
		t.Fatalf("seat %d posted nothing in %d envelopes", seat, next)
	}
	enc, err := own.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := bytes.Index(data, enc)
	if off < 0 {
		t.Fatalf("envelope %d is not in the file", own.Seq)
	}
	if err := os.Truncate(path, int64(off)); err != nil {
		t.Fatal(err)
	}
	return own.Seq
}

// A joining device stops in the middle of a round and its store is cut
// inside its own last envelope. Opened again, it tells the person what was
// lost, resumes its table, catches up by sync before it posts again (so it
// never signs a second envelope at that seq), and the game ends with the
// same log on both devices and no evidence of equivocation in either store.
func TestDamagedStoreRejoinsAndCatchesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	jdir := t.TempDir()
	joiner, err := OpenDevice(jdir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	target, err := AddrTarget(host.JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	hosted := make(chan *Table, 1)
	go func() {
		tbl, err := host.Host(ctx, HostConfig{Name: "T", Variant: "modern", Players: 3, Bots: 1, Rounds: 1,
			Bot: "random"}, nil)
		if err != nil {
			t.Error(err)
		}
		hosted <- tbl
	}()
	var joined *Table
	for joined == nil {
		joined, err = joiner.Join(ctx, target, "random", nil)
		if errors.Is(err, p2p.ErrRefused) || errors.Is(err, tablelog.ErrUnreachable) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	htbl := <-hosted
	if htbl == nil {
		t.FailNow()
	}
	defer htbl.Close()
	id, seat := joined.ID(), joined.Seat()
	done := make(chan Outcome, 1)
	go func() {
		out, err := host.Play(ctx, htbl, PlayConfig{Linger: 20 * time.Second}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()

	// The joiner plays until the first shuffle, then the device stops.
	jctx, stop := context.WithCancel(ctx)
	if _, err := joiner.Play(jctx, joined, PlayConfig{Linger: time.Second}, func(e Event) {
		if _, ok := e.(Shuffling); ok {
			stop()
		}
	}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("joiner's first play: %v", err)
	}
	stop()
	if err := errors.Join(joined.Close(), joiner.Close()); err != nil {
		t.Fatal(err)
	}
	lost := cutAtLastOwn(t, jdir, id, seat)

	joiner, err = OpenDevice(jdir, loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer joiner.Close()
	dmg := joiner.Damage()
	if dmg == nil {
		t.Fatal("a cut store opens without a word")
	}
	msg := dmg.String()
	if !strings.Contains(msg, "lost") || !strings.Contains(msg, "fetched again") || !strings.Contains(msg, id.String()[:8]) {
		t.Errorf("the message for the person: %s", msg)
	}
	if next, err := joiner.Store().Next(id); err != nil || next > lost {
		t.Fatalf("the store kept %d envelopes (%v), the cut was at seq %d", next, err, lost)
	}
	again, err := joiner.Resume("random")
	if err != nil || again == nil || again.ID() != id {
		t.Fatalf("resume after the damage: %v, %v", again, err)
	}
	defer again.Close()
	out, err := joiner.Play(ctx, again, PlayConfig{Linger: 10 * time.Second}, nil)
	if err != nil || !out.Over || out.Envelopes <= lost {
		t.Fatalf("joiner after the damage: %+v, %v", out, err)
	}
	if hout := <-done; !hout.Over || hout.Head != out.Head {
		t.Fatalf("host %+v, joiner %+v", hout, out)
	}
	for name, st := range map[string]*tablelog.Store{"host": host.Store(), "joiner": joiner.Store()} {
		if ev, err := st.Evidence(id); err != nil || len(ev) > 0 {
			t.Errorf("%s holds evidence of equivocation: %v, %v", name, ev, err)
		}
	}
}
