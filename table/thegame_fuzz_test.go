package table

import (
	"bytes"
	"testing"

	"github.com/njetlan/njet/tablelog"
)

// FuzzTheGameApply offers a table of The Game, in the middle of a game,
// envelopes with any kind and body, signed by the seat entitled: the
// protocol refuses or halts, never panics, and a refusal changes nothing.
func FuzzTheGameApply(f *testing.F) {
	s, exports := playTheGame(f, 2, true, 11, nil)
	_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range envs[1:40] {
		f.Add(uint8(30), uint8(e.Kind), e.Body)
	}
	f.Fuzz(func(t *testing.T, at, k uint8, body []byte) {
		cut := 1 + int(at)%(len(envs)-1)
		g := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0]})
		log, err := tablelog.NewLog(tablelog.LogConfig{Table: s.Table(), Protocol: g})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range envs[:cut] {
			if _, err := log.Append(e); err != nil {
				t.Fatal(err)
			}
		}
		turn, err := g.Entitled(uint64(cut))
		if err != nil {
			return
		}
		next, prev := log.Head()
		e := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: s.Table(), Seq: next, Prev: prev, Author: turn.Seat, Kind: tablelog.Kind(k), Body: body}
		if e.Sign(s.keys[turn.Seat]) != nil {
			return // not an envelope at all (an unknown kind, a body too large)
		}
		before := g.Next()
		if _, err := log.Append(e); err != nil && g.Next() != before {
			t.Fatalf("a refused envelope moved the game from %d to %d", before, g.Next())
		}
	})
}
