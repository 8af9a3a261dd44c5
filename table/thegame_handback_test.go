package table

import (
	"bytes"
	"crypto/ed25519"
	"testing"

	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// handBackSeat is the seat whose device leaves and comes back in the
// hand-back tests.
const handBackSeat = 1

// handBackConfig is a table of three coop bots where seat 1's device
// leaves at its own turn and comes back once the longest log has reached
// returnAt and the table has taken its seat over.
func handBackConfig(t *testing.T, extreme bool, seed, returnAt uint64) SelfplayConfig {
	cfg := theGameConfig(t, 3, extreme, seed)
	cfg.Leaves = []Leave{{Seat: handBackSeat, ReturnAt: returnAt, When: playing(func(v thegame.View) bool {
		return v.Phase == thegame.PhasePlay && v.Turn == handBackSeat
	})}}
	cfg.Net = tablelog.NetConfig{Duplicate: 0.02}
	return cfg
}

// TestTheGameSeatChangesHandsOncePerTurn: a seat handed back, and taken
// over again before it played a card of that turn, cannot be handed back
// again until its next turn.
func TestTheGameSeatChangesHandsOncePerTurn(t *testing.T) {
	g := &Game{gen: &Genesis{Game: GameTheGame}, n: 3, st: stPlay, botHost: map[int]int{1: 0},
		handable: map[int]bool{1: true}, changedAt: map[int]uint64{}}
	tg := &TheGame{g: g, phase: thegame.PhasePlay, turn: 1, turns: 9}
	g.rules = tg
	if !g.claimable(1) {
		t.Fatal("a bot's seat at the start of its turn cannot be handed back")
	}
	g.changedAt[1] = 9
	if g.claimable(1) {
		t.Fatal("a seat handed back at this turn can be handed back again")
	}
	tg.turns = 12
	if !g.claimable(1) {
		t.Fatal("a seat handed back at an earlier turn cannot be handed back")
	}
	tg.pos.Played = 1
	if g.claimable(1) {
		t.Fatal("a seat that played a card of its turn can be handed back")
	}
}

// TestTheGameClaimKept: a peer at a table of The Game keeps a seat claim
// only from the key the genesis gave the seat, only while a bot plays the
// seat, and an approval only from a seat still played by its own device,
// for the round a claim would open.
func TestTheGameClaimKept(t *testing.T) {
	var keys []ed25519.PrivateKey
	var ids []tablelog.Identity
	for i := range 4 {
		k := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, ed25519.SeedSize))
		id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		keys, ids = append(keys, k), append(ids, id)
	}
	var tid tablelog.TableID
	tid[0] = 1
	claim := func(seat int, signer int, deal ...uint64) []byte {
		req := &SeatClaimRequest{Table: tid, Deal: 3, Seat: uint8(seat), Key: ids[signer]}
		if len(deal) > 0 {
			req.Deal = deal[0]
		}
		if err := req.Sign(keys[signer]); err != nil {
			t.Fatal(err)
		}
		b, err := req.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	approval := func(approver int, round uint64) []byte {
		a := &SeatApproval{Table: tid, Deal: round, Seat: 1, Key: ids[1], Approver: uint8(approver)}
		if err := a.Sign(keys[approver]); err != nil {
			t.Fatal(err)
		}
		b, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Seats 0 to 2; a bot hosted by seat 0 plays seat 1 in round 2; the
	// fourth key is a stranger's.
	newPeer := func() *Peer {
		g := &Game{cfg: GameConfig{Table: tid}, gen: &Genesis{Game: GameTheGame, Keys: ids[:3]}, n: 3, st: stPlay,
			round: 2, keys: []tablelog.Identity{ids[0], ids[3], ids[2]}, botHost: map[int]int{1: 0}, handable: map[int]bool{1: true}}
		g.rules = &TheGame{g: g}
		p := &Peer{cfg: PeerConfig{Table: tid}, game: g, wake: make(chan struct{}, 1)}
		return p
	}
	cases := []struct {
		name      string
		messages  [][]byte
		claims    int
		approvals int
	}{
		{"the seat's own device", [][]byte{claim(1, 1)}, 1, 0},
		{"the seat's own device for the round under way (a replay)", [][]byte{claim(1, 1, 2)}, 0, 0},
		{"a stranger's key", [][]byte{claim(1, 3)}, 0, 0},
		{"another seat's key", [][]byte{claim(1, 2)}, 0, 0},
		{"a seat its own device plays", [][]byte{claim(2, 2)}, 0, 0},
		{"approvals of seats 0 and 2", [][]byte{claim(1, 1), approval(0, 3), approval(2, 3)}, 1, 2},
		{"an approval for the round under way", [][]byte{claim(1, 1), approval(2, 2)}, 1, 0},
		{"an approval by the claimed seat", [][]byte{claim(1, 1), approval(1, 3)}, 1, 0},
		{"a stranger's claim after the device's", [][]byte{claim(1, 1), approval(2, 3), claim(1, 3)}, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPeer()
			for _, m := range c.messages {
				p.receiveSide(tablelog.Received{Data: m})
			}
			held := p.book.all()
			if len(held) != c.claims {
				t.Fatalf("%d claims kept, want %d", len(held), c.claims)
			}
			if c.claims == 0 {
				return
			}
			if held[0].Key != ids[1] {
				t.Fatalf("the claim kept is by %v, want the seat's genesis key", held[0].Key)
			}
			p.book.mu.Lock()
			n := len(p.book.approvals[1])
			p.book.mu.Unlock()
			if n != c.approvals {
				t.Fatalf("%d approvals kept, want %d", n, c.approvals)
			}
		})
	}
}
