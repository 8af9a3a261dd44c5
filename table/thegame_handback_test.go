package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

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
	cfg.Net = NetConfig{Duplicate: 0.02}
	return cfg
}

// playHandBack plays a table of three coop bots where seat 1's device
// leaves at its own turn, is taken over, comes back (restarted from its
// store) once the longest log has reached returnAt, and gets its seat back.
// Every look at a log checks that no peer knows a card of a hand its
// device does not play (leaveLeaks): after the hand-back, the former host
// of the bot knows nothing of the hand the device plays.
func playHandBack(t *testing.T, extreme bool, seed, returnAt uint64) (*Selfplay, string) {
	t.Helper()
	lines := &logLines{}
	cfg := handBackConfig(t, extreme, seed, returnAt)
	cfg.Logf = lines.logf
	leaks := 0
	cfg.Watch = func(seat int, p *Peer) error {
		leaks += leaveLeaks(t, p.Game(), seat)
		return nil
	}
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := cfg.Dir
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		// Where each device stood, for the failure's diagnosis.
		for seat, p := range s.peerList() {
			if p == nil {
				continue
			}
			next, _ := p.Log().Head()
			turn, terr := p.Game().Entitled(next)
			t.Logf("seat %d: log at %d, entitled %+v (%v), seat played by %d, catching up %v, done %v", seat, next,
				turn.Kinds, terr, p.Game().PeerOf(handBackSeat), p.CatchingUp(), p.Done())
		}
		lines.mu.Lock()
		for _, l := range lines.lines[max(0, len(lines.lines)-20):] {
			t.Log(l)
		}
		lines.mu.Unlock()
		t.Fatal(err)
	}
	if leaks != 0 {
		t.Fatalf("%d cards in views of hands the device does not play", leaks)
	}
	if s.Returns() != 1 {
		t.Fatalf("%d devices came back, want 1", s.Returns())
	}
	if lines.count(fmt.Sprintf("hands seat %d back", handBackSeat)) == 0 {
		t.Error("no hand-back posted")
	}
	return s, dir
}

// TestTheGameHandBackRefused: a log of The Game refuses a SeatClaim that
// does not hold, with a clear error, and loses nothing by it: the forged
// claim is offered at the real claim's seq, refused, and the real one then
// goes on to a log that Verify accepts.
func TestTheGameHandBackRefused(t *testing.T) {
	s, dir := playHandBack(t, true, 2102, 1)
	x := seatExport(t, s, 0)
	_, envs, err := ReadExport(bytes.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, e := range envs {
		if e.Kind == KindSeatClaim {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no SeatClaim in the log")
	}
	real := envs[k]
	claim, err := parseSeatClaim(s.Table(), 0, real.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Replay up to the claim through an observer's log.
	obs := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0]})
	log, err := NewLog(LogConfig{Table: s.Table(), Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs[:k] {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	host := obs.PeerOf(handBackSeat)
	if host == handBackSeat {
		t.Fatal("the seat is not a bot's before the claim")
	}
	// The bot's key, stored by its host's device before the takeover.
	st, err := OpenStore(filepath.Join(dir, fmt.Sprintf("seat-%d.db", host)), &StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	seed, err := st.Secret(s.Table(), botKeyName(handBackSeat))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	botKey := ed25519.NewKeyFromSeed(seed)
	round := obs.ClaimRound()
	approvers := obs.Approvers(handBackSeat)
	if len(approvers) != 2 || len(claim.approvals) != 2 {
		t.Fatalf("approvers %v, %d approvals in the claim", approvers, len(claim.approvals))
	}
	approval := func(seat uint8, key Identity, signer ed25519.PrivateKey, deal uint64) *SeatApproval {
		a := &SeatApproval{Table: s.Table(), Deal: deal, Seat: seat, Key: key, Approver: uint8(approvers[0])}
		if err := a.Sign(signer); err != nil {
			t.Fatal(err)
		}
		return a
	}
	stranger := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	strangerID, err := IdentityOf(stranger.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		author int
		signer ed25519.PrivateKey
		body   func() []byte
		want   error
	}{
		{"a forged request", handBackSeat, botKey, func() []byte {
			req := claim.req
			req.Sig[0] ^= 1
			return seatClaimBody(&req, claim.approvals)
		}, ErrVote},
		{"a missing approval", handBackSeat, botKey, func() []byte {
			return seatClaimBody(&claim.req, claim.approvals[1:])
		}, ErrVote},
		{"an approval signed by the claimant", handBackSeat, botKey, func() []byte {
			a := approval(uint8(handBackSeat), claim.req.Key, s.keys[handBackSeat], round)
			return seatClaimBody(&claim.req, append([]*SeatApproval{a}, claim.approvals[1:]...))
		}, ErrVote},
		{"an approval for another round", handBackSeat, botKey, func() []byte {
			a := approval(uint8(handBackSeat), claim.req.Key, s.keys[approvers[0]], round+1)
			return seatClaimBody(&claim.req, append([]*SeatApproval{a}, claim.approvals[1:]...))
		}, ErrVote},
		{"a key that never held the seat", handBackSeat, botKey, func() []byte {
			req := SeatClaimRequest{Table: s.Table(), Deal: round, Seat: handBackSeat, Key: strangerID}
			if err := req.Sign(stranger); err != nil {
				t.Fatal(err)
			}
			var as []*SeatApproval
			for _, ap := range approvers {
				a := &SeatApproval{Table: s.Table(), Deal: round, Seat: handBackSeat, Key: strangerID, Approver: uint8(ap)}
				if err := a.Sign(s.keys[ap]); err != nil {
					t.Fatal(err)
				}
				as = append(as, a)
			}
			return seatClaimBody(&req, as)
		}, ErrVote},
		{"a seat its own device plays", host, s.keys[host], func() []byte {
			req := SeatClaimRequest{Table: s.Table(), Deal: round, Seat: uint8(host), Key: s.ids[host]}
			if err := req.Sign(s.keys[host]); err != nil {
				t.Fatal(err)
			}
			return seatClaimBody(&req, nil)
		}, ErrNotEntitled},
		{"the bot's turn claiming its host's seat", handBackSeat, botKey, func() []byte {
			req := SeatClaimRequest{Table: s.Table(), Deal: round, Seat: uint8(host), Key: s.ids[host]}
			if err := req.Sign(s.keys[host]); err != nil {
				t.Fatal(err)
			}
			return seatClaimBody(&req, nil)
		}, ErrVote},
	}
	next, prev := log.Head()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forged := &Envelope{Version: EnvelopeVersion, Table: s.Table(), Seq: next, Prev: prev,
				Author: uint8(c.author), Kind: KindSeatClaim, Body: c.body()}
			if err := forged.Sign(c.signer); err != nil {
				t.Fatal(err)
			}
			if _, err := log.Append(forged); !errors.Is(err, c.want) {
				t.Fatalf("Append: %v, want %v", err, c.want)
			}
			if n, h := log.Head(); n != next || h != prev {
				t.Fatalf("the refused claim moved the log to %d", n)
			}
			if obs.PeerOf(handBackSeat) != host || obs.KeyOf(handBackSeat) == s.ids[handBackSeat] {
				t.Fatal("the refused claim changed who plays the seat")
			}
		})
	}
	// A person's device back at the seat is not asked for a move while the
	// bot plays it, and a move it submits is refused.
	person := personAt(t, s, envs[:k])
	if person.YourTurn() {
		t.Error("a person's seat that a bot plays is asked for a move")
	}
	if err := person.Submit(thegame.Action{Kind: thegame.ActEnd, Seat: handBackSeat}); !errors.Is(err, thegame.ErrNotYourTurn) {
		t.Errorf("Submit while a bot plays the seat: %v, want %v", err, thegame.ErrNotYourTurn)
	}
	if err := obs.Claimable(host); !errors.Is(err, ErrNotClaimable) {
		t.Errorf("Claimable of the host's own seat: %v, want %v", err, ErrNotClaimable)
	}
	// Nothing lost: the real claim and the rest of the log follow.
	for _, e := range envs[k:] {
		if _, err := log.Append(e); err != nil {
			t.Fatalf("seq %d after the refusals: %v", e.Seq, err)
		}
	}
	if got := obs.HandedBack(); len(got) != 1 || got[0].Seq != real.Seq {
		t.Fatalf("handed back %+v, want the real claim at seq %d", got, real.Seq)
	}
	if !obs.Over() {
		t.Fatal("the replayed game is not over")
	}
	if err := obs.Claimable(handBackSeat); !errors.Is(err, ErrOver) {
		t.Errorf("Claimable once the game is over: %v, want %v", err, ErrOver)
	}
}

// personAt returns a person's peer at the hand-back seat whose log holds
// envs.
func personAt(t *testing.T, s *Selfplay, envs []*Envelope) *Peer {
	t.Helper()
	st, err := OpenStore(filepath.Join(t.TempDir(), "person.db"), &StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	net, err := NewMemNetwork(s.Table(), rand.New(rand.NewPCG(3, 3)), NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ep, err := net.Join(ctx, s.ids[handBackSeat], st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close() })
	p, err := NewPeer(PeerConfig{Table: s.Table(), Creator: s.ids[0], Seat: handBackSeat,
		Key: s.keys[handBackSeat], Store: st, Transport: ep, Human: true, Bot: "coop", NewPlayer: testPlayers})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		if _, err := p.Log().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return p
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
	var ids []Identity
	for i := range 4 {
		k := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, ed25519.SeedSize))
		id, err := IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		keys, ids = append(keys, k), append(ids, id)
	}
	var tid TableID
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
			round: 2, keys: []Identity{ids[0], ids[3], ids[2]}, botHost: map[int]int{1: 0}, handable: map[int]bool{1: true}}
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
				p.receiveSide(Received{Data: m})
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
