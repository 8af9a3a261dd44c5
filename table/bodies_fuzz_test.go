package table

import (
	"bytes"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
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
		if err != nil || kind == KindBlock {
			break
		}
		env := d3.envelope(seat)
		if kind == KindDealTokens {
			f.Add(njetBody, uint8(env.Kind), env.Body)
			f.Add(njetBody, uint8(KindRecovery), env.Body)
		}
		d3.postAll(env)
	}
	if g, err := ParseGenesis(d.sp.genesis.Body); err == nil {
		g.Names = []string{"Анна", "Zoë"}
		if b, err := g.MarshalBinary(); err == nil {
			f.Add(njetBody, uint8(KindGenesis), b)
		}
	}
	f.Add(njetBody, uint8(KindVoidVote), voteBody(7))
	f.Add(njetBody, uint8(KindBotSeat), botSeatBody(1, Identity{1}))
	f.Add(njetBody, uint8(KindAbandon), abandonBody(1))
	if b, err := complaintBody(&complaint{kind: crypto.SealDeal, from: 1, pos: 7, reveal: &crypto.Reveal{Seat: 0}}); err == nil {
		f.Add(njetBody, uint8(KindComplaint), b)
	}
	for _, x := range []bool{false, true} {
		g := &Genesis{Game: GameTheGame, Keys: []Identity{{1}, {2}, {3}}, Extreme: x, Names: []string{"", "Zoë", ""}}
		if x {
			g.Commands = thegame.AssignmentVersion
		}
		if b, err := g.MarshalBinary(); err == nil {
			f.Add(theGameBody, uint8(KindGenesis), b)
		}
	}
	f.Add(theGameBody, uint8(KindSignal), signalBody(2, thegame.SignalGood))
	f.Add(theGameBody, uint8(KindTurnEnd), emptyBody())
	f.Add(theGameBody, uint8(KindStuck), emptyBody())
	f.Add(theGameBody, uint8(KindPlay), append(signalBody(1, 0)[:2], 0, 0))
	if last, ok := d.logs[d.n].Get(d.logs[d.n].Next() - 1); ok {
		twin := last.Clone()
		twin.Signature[0] ^= 1 // the decoder reads no signature
		if b, err := equivocationBody(Evidence{First: last, Second: twin}); err == nil {
			f.Add(njetBody, uint8(KindEquivocation), b)
		}
	}
	f.Fuzz(func(t *testing.T, game, k uint8, body []byte) {
		var again []byte
		var err error
		switch Kind(k) {
		case KindGenesis:
			var g *Genesis
			if g, err = ParseGenesis(body); err == nil {
				again, err = g.MarshalBinary()
			}
		case KindAck:
			var h Hash
			if h, err = parseAck(body); err == nil {
				again = ackBody(h)
			}
		case KindBlock:
			if r, fl, e := parseBlock(body); e == nil {
				again = blockBody(r, fl)
			} else {
				err = e
			}
		case KindTeam:
			if p, b, e := parseTeam(body); e == nil {
				again = teamBody(p, b)
			} else {
				err = e
			}
		case KindDiscardCommit, KindPassCommit:
			if c, fwd, e := parseCommit(Kind(k), body); e == nil {
				again, err = commitBody(c, fwd)
			} else {
				err = e
			}
		case KindReveal:
			if rv, ch, e := parseReveal(body); e == nil {
				again, err = revealBody(rv, ch)
			} else {
				err = e
			}
		case KindVoidVote:
			var seq uint64
			if seq, err = parseVote(body); err == nil {
				again = voteBody(seq)
			}
		case KindBotSeat:
			if s, key, e := parseBotSeat(body); e == nil {
				again = botSeatBody(s, key)
			} else {
				err = e
			}
		case KindAbandon:
			var s int
			if s, err = parseAbandon(body); err == nil {
				again = abandonBody(s)
			}
		case KindComplaint:
			var c *complaint
			if c, err = parseComplaint(body); err == nil {
				again, err = complaintBody(c)
			}
		case KindEquivocation:
			var eq *equivocation
			if eq, err = parseEquivocation(body); err == nil {
				again, err = equivocationBody(Evidence{First: eq.b, Second: eq.a})
			}
		case KindDealTokens:
			if sealed, escrow, e := parseDealTokens(body); e == nil {
				again, err = dealEscrowBody(sealed, escrow)
			} else {
				err = e
			}
		case KindRecovery:
			if sealed, _, e := parseSealed(KindRecovery, body, false); e == nil {
				again, err = dealEscrowBody(sealed, nil)
			} else {
				err = e
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
			t.Fatalf("kind %v: %x decodes and re-encodes as %x", Kind(k), body, again)
		}
	})
}
