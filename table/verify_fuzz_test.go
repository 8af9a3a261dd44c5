package table

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// gameExport is a whole two-seat round played by bots, its export's
// envelopes and the seats' keys.
func gameExport(f *testing.F) (*Selfplay, []*tablelog.Envelope) {
	sp, _ := selfplay(f, SelfplayConfig{Edition: engine.Modern, Players: 2, Rounds: 1, Seed: 3})
	path := filepath.Join(f.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	_, envs, err := tablelog.ReadExport(bytes.NewReader(data))
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
		e.Author, e.Kind, e.Body = author%2, tablelog.Kind(kind), body
		if err := e.Sign(sp.SeatKey(int(e.Author))); err != nil {
			return // a body the envelope cannot carry
		}
		var buf bytes.Buffer
		if err := tablelog.WriteExport(&buf, append(envs[:i:i], e)); err != nil {
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
			if err := tablelog.WriteExport(&buf, envs[:i]); err != nil {
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
	if err := tablelog.WriteExport(&buf, envs[:6]); err != nil {
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
