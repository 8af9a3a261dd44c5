package table

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/forge"
	"github.com/njetlan/njet/tablelog"
)

// The last seat to shuffle posts a deck that is no permutation of its input
// (each of some positions becomes its card + 2 × another position's card)
// with a proof that kyber's verifier alone accepts. Every other peer halts
// at the shuffle step naming that seat, and Verify of the exported log
// names the shuffle check.
func TestCheatForgedShuffle(t *testing.T) {
	for _, tc := range []struct {
		edition engine.Edition
		players int
		seed    uint64
	}{
		{engine.Modern, 2, 31},
		{engine.Classic, 3, 32},
		{engine.Modern, 5, 33},
	} {
		t.Run(fmt.Sprintf("%v/players=%d", tc.edition, tc.players), func(t *testing.T) {
			last := tc.players - 1
			d := newDriver(t, tc.edition, tc.players, 1, tc.seed)
			d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == last })
			rd := d.observer().rd
			if len(rd.shuffles) != last {
				t.Fatalf("seat %d shuffles after %d passes, want the last pass", last, len(rd.shuffles))
			}
			env := d.envelope(last)
			var pairs []forge.Pair
			for u := range 6 {
				pairs = append(pairs, forge.Pair{U: u, V: u + 6})
			}
			m, err := forge.Shuffle(rd.cr, last, rd.deck, pairs)
			if err != nil {
				t.Fatal(err)
			}
			body, err := cryptoBody(m)
			if err != nil {
				t.Fatal(err)
			}
			env.Body = body
			for i, err := range d.postAll(d.sign(last, env)) {
				if err != nil {
					t.Fatalf("log %d refused the forgery instead of keeping it as evidence: %v", i, err)
				}
			}
			d.expectCaught(last, crypto.CheckShuffle.String())
			if got := len(d.observer().rd.shuffles); got != last {
				t.Errorf("the observer appended the forged shuffle: %d passes", got)
			}

			var buf bytes.Buffer
			next := d.logs[d.n].Next()
			if err := tablelog.WriteExport(&buf, d.logs[d.n].Range(0, next)); err != nil {
				t.Fatal(err)
			}
			_, err = Verify(&buf)
			var v *Violation
			if !errors.As(err, &v) || v.Seat != last || v.Check != crypto.CheckShuffle.String() {
				t.Fatalf("Verify: %v, want the shuffle check failed by seat %d", err, last)
			}
		})
	}
}
