package table

import (
	"bytes"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// The games whose bodies FuzzBodies decodes: a kind that means another
// body at each game (KindPlay) is read as the input's game says.
const (
	njetBody uint8 = iota
	theGameBody
)

// FuzzBodies checks every body decoder of every game: whatever decodes
// re-encodes to the same bytes, so each value has one encoding.
func FuzzBodies(f *testing.F) {
	d := newDriver(f, engine.Modern, 2, 1, 1)
	for range 200 {
		seat, _, err := d.turn()
		if err != nil {
			break
		}
		env := d.envelope(seat)
		f.Add(njetBody, uint8(env.Kind), env.Body)
		d.postAll(env)
	}
	// A deal of three seats carries escrows.
	d3 := newDriver(f, engine.Modern, 3, 1, 2)
	for range 30 {
		seat, kind, err := d3.turn()
		if err != nil || kind == tablelog.KindBlock {
			break
		}
		env := d3.envelope(seat)
		if kind == tablelog.KindDealTokens {
			f.Add(njetBody, uint8(env.Kind), env.Body)
			f.Add(njetBody, uint8(tablelog.KindRecovery), env.Body)
		}
		d3.postAll(env)
	}
	if g, err := ParseGenesis(d.sp.genesis.Body); err == nil {
		g.Names = []string{"Анна", "Zoë"}
		if b, err := g.MarshalBinary(); err == nil {
			f.Add(njetBody, uint8(tablelog.KindGenesis), b)
		}
	}
	f.Add(njetBody, uint8(tablelog.KindVoidVote), voteBody(7))
	f.Add(njetBody, uint8(tablelog.KindBotSeat), botSeatBody(1, tablelog.Identity{1}))
	f.Add(njetBody, uint8(tablelog.KindAbandon), abandonBody(1))
	if b, err := complaintBody(&complaint{kind: crypto.SealDeal, from: 1, pos: 7, reveal: &crypto.Reveal{Seat: 0}}); err == nil {
		f.Add(njetBody, uint8(tablelog.KindComplaint), b)
	}
	for _, x := range []bool{false, true} {
		g := &Genesis{Game: GameTheGame, Keys: []tablelog.Identity{{1}, {2}, {3}}, Extreme: x, Names: []string{"", "Zoë", ""}}
		if x {
			g.Commands = thegame.AssignmentVersion
		}
		if b, err := g.MarshalBinary(); err == nil {
			f.Add(theGameBody, uint8(tablelog.KindGenesis), b)
		}
	}
	f.Add(theGameBody, uint8(tablelog.KindSignal), signalBody(2, thegame.SignalGood))
	f.Add(theGameBody, uint8(tablelog.KindTurnEnd), emptyBody())
	f.Add(theGameBody, uint8(tablelog.KindStuck), emptyBody())
	f.Add(theGameBody, uint8(tablelog.KindPlay), append(signalBody(1, 0)[:2], 0, 0))
	if last, ok := d.logs[d.n].Get(d.logs[d.n].Next() - 1); ok {
		twin := last.Clone()
		twin.Signature[0] ^= 1 // the decoder reads no signature
		if b, err := equivocationBody(tablelog.Evidence{First: last, Second: twin}); err == nil {
			f.Add(njetBody, uint8(tablelog.KindEquivocation), b)
		}
	}
	f.Fuzz(func(t *testing.T, game, k uint8, body []byte) {
		var again []byte
		var err error
		switch tablelog.Kind(k) {
		case tablelog.KindGenesis:
			var g *Genesis
			if g, err = ParseGenesis(body); err == nil {
				again, err = g.MarshalBinary()
			}
		case tablelog.KindAck:
			var h tablelog.Hash
			if h, err = parseAck(body); err == nil {
				again = ackBody(h)
			}
		case tablelog.KindBlock:
			if r, fl, e := parseBlock(body); e == nil {
				again = blockBody(r, fl)
			} else {
				err = e
			}
		case tablelog.KindTeam:
			if p, b, e := parseTeam(body); e == nil {
				again = teamBody(p, b)
			} else {
				err = e
			}
		case tablelog.KindDiscardCommit, tablelog.KindPassCommit:
			if c, fwd, e := parseCommit(tablelog.Kind(k), body); e == nil {
				again, err = commitBody(c, fwd)
			} else {
				err = e
			}
		case tablelog.KindReveal:
			if rv, ch, e := parseReveal(body); e == nil {
				again, err = revealBody(rv, ch)
			} else {
				err = e
			}
		case tablelog.KindVoidVote:
			var seq uint64
			if seq, err = parseVote(body); err == nil {
				again = voteBody(seq)
			}
		case tablelog.KindBotSeat:
			if s, key, e := parseBotSeat(body); e == nil {
				again = botSeatBody(s, key)
			} else {
				err = e
			}
		case tablelog.KindAbandon:
			var s int
			if s, err = parseAbandon(body); err == nil {
				again = abandonBody(s)
			}
		case tablelog.KindComplaint:
			var c *complaint
			if c, err = parseComplaint(body); err == nil {
				again, err = complaintBody(c)
			}
		case tablelog.KindEquivocation:
			var eq *equivocation
			if eq, err = parseEquivocation(body); err == nil {
				again, err = equivocationBody(tablelog.Evidence{First: eq.b, Second: eq.a})
			}
		case tablelog.KindDealTokens:
			if sealed, escrow, e := parseDealTokens(body); e == nil {
				again, err = dealEscrowBody(sealed, escrow)
			} else {
				err = e
			}
		case tablelog.KindRecovery:
			if sealed, _, e := parseSealed(tablelog.KindRecovery, body, false); e == nil {
				again, err = dealEscrowBody(sealed, nil)
			} else {
				err = e
			}
		case tablelog.KindSignal:
			var pile int
			var s thegame.Signal
			if pile, s, err = parseSignal(body); err == nil {
				again = signalBody(pile, s)
			}
		case tablelog.KindTurnEnd, tablelog.KindStuck:
			if err = parseEmpty(tablelog.Kind(k), body); err == nil {
				again = emptyBody()
			}
		case tablelog.KindPlay:
			if game != theGameBody {
				return // Njet's play is a crypto message, not re-encoded here
			}
			if pile, m, e := parsePlayBody(body); e == nil {
				again, err = playBody(pile, m)
			} else {
				err = e
			}
		default:
			return
		}
		if err == nil && !bytes.Equal(again, body) {
			t.Fatalf("kind %v: %x decodes and re-encodes as %x", tablelog.Kind(k), body, again)
		}
	})
}
