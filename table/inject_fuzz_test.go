package table

import (
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// FuzzLiveLogInject plays a three-seat game some steps into a round, then
// offers every seat's log and the observer's the fuzzer's envelope at the
// next seq, signed by the seat it names. Every log answers alike; an
// envelope they refuse changes no log, and the game then goes on as if it
// had never been sent.
func FuzzLiveLogInject(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint8(tablelog.KindPlay), []byte{})
	f.Add(uint8(3), uint8(0), uint8(tablelog.KindShuffle), []byte{1, 2, 3})
	f.Add(uint8(20), uint8(2), uint8(tablelog.KindPlay), []byte{0, 0, 0, 0})
	f.Add(uint8(40), uint8(1), uint8(tablelog.KindGenesis), []byte("x"))
	f.Fuzz(func(t *testing.T, steps, author, kind uint8, body []byte) {
		d := newDriver(t, engine.Classic, 3, 1, 7)
		for range int(steps) % 48 {
			if !d.step() {
				return
			}
		}
		heads := make([]tablelog.Hash, len(d.logs))
		for i, l := range d.logs {
			_, heads[i] = l.Head()
		}
		seq, prev := d.logs[0].Head()
		e := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
			Author: author % 3, Kind: tablelog.Kind(kind), Body: body}
		if err := e.Sign(d.sp.keys[e.Author]); err != nil {
			return
		}
		errs := d.postAll(e)
		for i, err := range errs {
			if (err == nil) != (errs[0] == nil) {
				t.Fatalf("log 0 answers %v, log %d answers %v", errs[0], i, err)
			}
		}
		if errs[0] == nil {
			for i, l := range d.logs {
				if next, head := l.Head(); next != seq+1 || head != e.Hash() {
					t.Fatalf("log %d did not take the envelope all logs accepted", i)
				}
			}
			return
		}
		for i, l := range d.logs {
			if next, head := l.Head(); next != seq || head != heads[i] {
				t.Fatalf("log %d changed on a refused envelope (%v)", i, errs[0])
			}
		}
		d.step() // fails the test if the logs refuse the rightful next envelope
	})
}
