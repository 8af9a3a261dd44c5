package table

import (
	"bytes"
	"testing"

	"github.com/njetlan/njet/thegame"
)

// FuzzTheGameBodies checks the decoders of a table of The Game: whatever
// decodes re-encodes to the same bytes, so each value has one encoding.
func FuzzTheGameBodies(f *testing.F) {
	for _, x := range []bool{false, true} {
		g := &Genesis{Game: GameTheGame, Keys: []Identity{{1}, {2}, {3}}, Extreme: x, Names: []string{"", "Zoë", ""}}
		if x {
			g.Commands = thegame.AssignmentVersion
		}
		if b, err := g.MarshalBinary(); err == nil {
			f.Add(uint8(KindGenesis), b)
		}
	}
	f.Add(uint8(KindSignal), signalBody(2, thegame.SignalGood))
	f.Add(uint8(KindTurnEnd), emptyBody())
	f.Add(uint8(KindStuck), emptyBody())
	f.Add(uint8(KindPlay), append(signalBody(1, 0)[:2], 0, 0))
	f.Fuzz(func(t *testing.T, k uint8, body []byte) {
		var again []byte
		var err error
		switch Kind(k) {
		case KindGenesis:
			var g *Genesis
			if g, err = ParseGenesis(body); err == nil {
				again, err = g.MarshalBinary()
			}
		case KindSignal:
			var pile int
			var s thegame.Signal
			if pile, s, err = parseSignal(body); err == nil {
				again = signalBody(pile, s)
			}
		case KindTurnEnd, KindStuck:
			if err = parseEmpty(Kind(k), body); err == nil {
				again = emptyBody()
			}
		case KindPlay:
			if pile, m, e := parsePlayBody(body); e == nil {
				again, err = playBody(pile, m)
			} else {
				err = e
			}
		default:
			return
		}
		if err != nil {
			return
		}
		if !bytes.Equal(again, body) {
			t.Fatalf("%v body %x re-encodes as %x", Kind(k), body, again)
		}
	})
}

// FuzzTheGameApply offers a table of The Game, in the middle of a game,
// envelopes with any kind and body, signed by the seat entitled: the
// protocol refuses or halts, never panics, and a refusal changes nothing.
func FuzzTheGameApply(f *testing.F) {
	s, exports := playTheGame(f, 2, true, 11, nil)
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range envs[1:40] {
		f.Add(uint8(30), uint8(e.Kind), e.Body)
	}
	f.Fuzz(func(t *testing.T, at, k uint8, body []byte) {
		cut := 1 + int(at)%(len(envs)-1)
		g := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0]})
		log, err := NewLog(LogConfig{Table: s.Table(), Protocol: g})
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
		e := &Envelope{Version: EnvelopeVersion, Table: s.Table(), Seq: next, Prev: prev, Author: turn.Seat, Kind: Kind(k), Body: body}
		if e.Sign(s.keys[turn.Seat]) != nil {
			return // not an envelope at all (an unknown kind, a body too large)
		}
		before := g.Next()
		if _, err := log.Append(e); err != nil && g.Next() != before {
			t.Fatalf("a refused envelope moved the game from %d to %d", before, g.Next())
		}
	})
}
