package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// claimOf is a request to play seat with priv's key from deal on.
func claimOf(t *testing.T, table tablelog.TableID, seat int, priv ed25519.PrivateKey, deal uint64) *SeatClaimRequest {
	t.Helper()
	id, err := tablelog.IdentityOf(priv.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	c := &SeatClaimRequest{Table: table, Deal: deal, Seat: uint8(seat), Key: id}
	if err := c.Sign(priv); err != nil {
		t.Fatal(err)
	}
	return c
}

// approvalsOf signs an approval of c for deal by each of the seats.
func approvalsOf(t *testing.T, d *driver, c *SeatClaimRequest, deal uint64, seats ...int) []*SeatApproval {
	t.Helper()
	var out []*SeatApproval
	for _, s := range seats {
		a := &SeatApproval{Table: c.Table, Deal: deal, Seat: c.Seat, Key: c.Key, Approver: uint8(s)}
		if err := a.Sign(d.sp.keys[s]); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func TestClaimEncoding(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 95)
	c := claimOf(t, d.sp.table, 2, d.sp.keys[2], 4)
	b, err := c.MarshalBinary()
	if err != nil || len(b) != ClaimSize || !IsClaim(b) || !IsSideMessage(b) {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	got, err := ParseClaim(b)
	if err != nil || !reflect.DeepEqual(got, c) || got.Verify() != nil {
		t.Fatalf("%+v, %v", got, err)
	}
	a := approvalsOf(t, d, c, 4, 0)[0]
	ab, err := a.MarshalBinary()
	if err != nil || len(ab) != ApprovalSize || !IsApproval(ab) || !IsSideMessage(ab) {
		t.Fatalf("%d bytes, %v", len(ab), err)
	}
	gotA, err := ParseApproval(ab)
	if err != nil || !reflect.DeepEqual(gotA, a) || gotA.Verify(d.sp.ids[0]) != nil {
		t.Fatalf("%+v, %v", gotA, err)
	}
	for _, tc := range []struct {
		name  string
		parse func([]byte) error
		data  []byte
		want  error
	}{
		{"claim short", func(b []byte) error { _, err := ParseClaim(b); return err }, b[:ClaimSize-1], tablelog.ErrMalformed},
		{"claim tag", func(b []byte) error { _, err := ParseClaim(b); return err }, append([]byte{VoteTag}, b[1:]...), tablelog.ErrMalformed},
		{"claim version", func(b []byte) error { _, err := ParseClaim(b); return err }, append([]byte{ClaimTag, 9}, b[2:]...), tablelog.ErrUnknownVersion},
		{"approval long", func(b []byte) error { _, err := ParseApproval(b); return err }, append(bytes.Clone(ab), 0), tablelog.ErrMalformed},
		{"approval tag", func(b []byte) error { _, err := ParseApproval(b); return err }, append([]byte{ClaimTag}, ab[1:]...), tablelog.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.parse(tc.data); !errors.Is(err, tc.want) {
				t.Fatalf("%v, want %v", err, tc.want)
			}
		})
	}
	// The claimed seat's own approval is its consent: it encodes and
	// verifies under the seat's key like any other.
	consent := approvalsOf(t, d, c, 4, 2)[0]
	cb, err := consent.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseApproval(cb); err != nil || !reflect.DeepEqual(got, consent) || got.Verify(d.sp.ids[2]) != nil {
		t.Fatalf("consent %+v, %v", got, err)
	}
	c.Key[0] ^= 1
	if err := c.Verify(); !errors.Is(err, tablelog.ErrBadSignature) {
		t.Fatalf("a claim for another key verified: %v", err)
	}
}

func FuzzParseSeatClaim(f *testing.F) {
	fx := newFixture(f, 3)
	req := &SeatClaimRequest{Table: fx.table, Seat: 1, Key: fx.ids[1]}
	if err := req.Sign(fx.privs[1]); err != nil {
		f.Fatal(err)
	}
	a := &SeatApproval{Table: fx.table, Deal: 3, Seat: 1, Key: fx.ids[1], Approver: 0}
	if err := a.Sign(fx.privs[0]); err != nil {
		f.Fatal(err)
	}
	f.Add(seatClaimBody(req, []*SeatApproval{a}))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseSeatClaim(fx.table, 3, data)
		if err != nil {
			return
		}
		if enc := seatClaimBody(&c.req, c.approvals); !bytes.Equal(enc, data) {
			t.Fatalf("re-encoding differs")
		}
	})
}

// A SeatClaim is entitled only at a bot's key turn and is checked by every
// log: the request signed by the new key, which no seat holds, and one
// approval for this deal from every seat still played by its own device,
// in seat order. The genuine one hands the seat back; the game goes on to
// its end with the claimant's key in the seat.
func TestSeatClaimChecked(t *testing.T) {
	const gone, dec = 2, 0
	d := newDriver(t, engine.Classic, 4, 2, 96)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindBlock && seat == gone })
	seq, prev := d.logs[dec].Head()
	dr, err := d.games[dec].draftVoidSilent(seq, prev, votesAgainst(t, d, d.logs[dec], gone), d.rand(seq))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range dr.secrets {
		d.vaults[dec].put(name, b)
	}
	d.mustPost(d.sign(dec, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: dec,
		Kind: dr.kind, Body: dr.body}))
	botSeed, err := d.vaults[dec].Secret(botKeyName(gone))
	if err != nil {
		t.Fatal(err)
	}
	botKey := ed25519.NewKeyFromSeed(botSeed)
	post := func(author int, key ed25519.PrivateKey, req *SeatClaimRequest, approvals []*SeatApproval) []error {
		seq, prev := d.logs[d.n].Head()
		env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: uint8(author),
			Kind: tablelog.KindSeatClaim, Body: seatClaimBody(req, approvals)}
		if err := env.Sign(key); err != nil {
			t.Fatal(err)
		}
		return d.postAll(env)
	}
	deal := d.observer().Deal()
	back := claimOf(t, d.sp.table, gone, d.sp.keys[gone], deal)
	// Seat 0's key turn: it hosts the bot of the seat gone, so it cannot
	// be claimed at all.
	expectLogErr(t, post(0, d.sp.keys[0], claimOf(t, d.sp.table, 0, d.sp.keys[gone], deal), approvalsOf(t, d, back, deal, 1, 3)), tablelog.ErrNotEntitled)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindRoundKey && seat == gone })
	for _, tc := range []struct {
		name      string
		req       *SeatClaimRequest
		approvals []*SeatApproval
		want      error
	}{
		{"an approval missing", back, approvalsOf(t, d, back, deal, 0, 1), ErrVote},
		{"approvals out of order", back, approvalsOf(t, d, back, deal, 1, 0, 3), ErrVote},
		{"approvals for another deal", back, approvalsOf(t, d, back, deal+1, 0, 1, 3), ErrVote},
		{"a request signed by another key", func() *SeatClaimRequest {
			c := *back
			c.Sig = claimOf(t, d.sp.table, gone, d.sp.keys[1], deal).Sig
			return &c
		}(), approvalsOf(t, d, back, deal, 0, 1, 3), ErrVote},
		// A request signed for an earlier deal, replayed with approvals
		// of this one: its signature does not cover this deal.
		{"a request replayed from an earlier deal", claimOf(t, d.sp.table, gone, d.sp.keys[gone], deal-1),
			approvalsOf(t, d, back, deal, 0, 1, 3), ErrVote},
		{"a key already seated", claimOf(t, d.sp.table, gone, d.sp.keys[1], deal),
			approvalsOf(t, d, claimOf(t, d.sp.table, gone, d.sp.keys[1], deal), deal, 0, 1, 3), tablelog.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectLogErr(t, post(gone, botKey, tc.req, tc.approvals), tc.want)
		})
	}
	for i, err := range post(gone, botKey, back, approvalsOf(t, d, back, deal, 0, 1, 3)) {
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
	}
	obs := d.observer()
	if h := obs.HostOf(gone); h != -1 {
		t.Fatalf("the seat is still hosted by %d", h)
	}
	for d.step() {
	}
	if !obs.Over() || len(obs.Njet().Results()) != 2 {
		t.Fatalf("over %v after %d rounds", obs.Over(), len(obs.Njet().Results()))
	}
	v, err := verifyLog(t, d.logs[d.n])
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != gone || v.HandedBack[0].Key != d.sp.ids[gone] {
		t.Errorf("handed back %+v", v.HandedBack)
	}
}

// A watcher joins while the table plays, after a device left for good and
// a bot took its seat over. Until the next deal starts it only watches:
// its view never holds a card of any hand. Then the bot's host hands it
// the seat (SeatClaim with the approval of every device still there), it
// plays the seat to the end, and its log ends as everyone's, which Verify
// accepts.
func TestWatcherTakesASeatAtTheNextDeal(t *testing.T) {
	const gone = 2
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: 97, VoidAfter: 20 * time.Second}
	if testing.Verbose() {
		cfg.Logf = t.Logf
	}
	ref := referenceLog(t, cfg)
	seq, _ := stepSeq(t, ref, 0, gone, tablelog.KindBlock)
	cfg.Silences = []Silence{{Seat: gone, AtSeq: seq - 1}}
	cfg.Watchers = []Watcher{{Seat: gone, AtSeq: seq + 30}}
	cfg.Dir = t.TempDir()
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Look at the watcher's view while the table plays.
	var (
		looks, seen int
		seenHand    []engine.Card
	)
	lookDone := make(chan struct{})
	go func() {
		defer close(lookDone)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			w := sp.Watcher(0)
			if w == nil {
				continue
			}
			v := w.View()
			if v.BotHost < 0 {
				if looks > 0 {
					return // the seat is the watcher's now
				}
				continue // not caught up yet
			}
			looks++
			if cards := v.Game.Hand.Cards(v.Game.Edition); len(cards) > 0 {
				seen++
				seenHand = cards
			}
		}
	}()
	err = sp.Run(ctx)
	cancel()
	<-lookDone
	if err != nil {
		t.Fatal(err)
	}
	if looks == 0 || seen > 0 {
		t.Errorf("the watcher looked %d times and saw a hand %d times (%v)", looks, seen, seenHand)
	}
	w := sp.WatcherOutcomes()[0]
	out := sp.Outcomes()
	for _, o := range []Outcome{out[0], out[1], out[3], w} {
		if o.Head != w.Head || o.Next != w.Next || o.Violation != nil {
			t.Errorf("seat %d ends at %d %v (%v), the watcher at %d %v", o.Seat, o.Next, o.Head, o.Violation, w.Next, w.Head)
		}
	}
	if w.BotHost != -1 {
		t.Errorf("the watcher's seat is played by a bot of seat %d at the end", w.BotHost)
	}
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		t.Fatal(err)
	}
	v, err := verifyFile(path)
	if err != nil || !v.Over {
		t.Fatalf("verify: %v", err)
	}
	id, err := tablelog.IdentityOf(sp.WatcherKey(0).Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	// The seat goes to the watcher at the next deal. On a loaded machine
	// the new member may be silent long enough to be taken over once
	// more and claim the seat again at a later deal: every hand-over is
	// still the watcher's.
	if len(v.HandedBack) == 0 {
		t.Errorf("the seat was never handed to the watcher")
	}
	for _, h := range v.HandedBack {
		if h.Seat != gone || h.Key != id {
			t.Errorf("handed back %+v, want seat %d to the watcher", h, gone)
		}
	}
}

// Claimable says which seats a watcher may ask for: a seat taken over for
// silence while its bot plays; never a seat played by its own device, a
// cheater's seat, a seat the table lacks, or any seat once the game is over.
func TestClaimable(t *testing.T) {
	t.Run("silent seat", func(t *testing.T) {
		const gone, dec = 2, 0
		d := newDriver(t, engine.Classic, 4, 1, 96)
		d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindBlock && seat == gone })
		seq, prev := d.logs[dec].Head()
		dr, err := d.games[dec].draftVoidSilent(seq, prev, votesAgainst(t, d, d.logs[dec], gone), d.rand(seq))
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range dr.secrets {
			d.vaults[dec].put(name, b)
		}
		d.mustPost(d.sign(dec, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: dec,
			Kind: dr.kind, Body: dr.body}))
		obs := d.observer()
		for _, tc := range []struct {
			seat int
			want error
		}{{gone, nil}, {0, ErrNotClaimable}, {3, ErrNotClaimable}, {4, ErrNotClaimable}, {-1, ErrNotClaimable}} {
			if err := obs.Claimable(tc.seat); !errors.Is(err, tc.want) {
				t.Errorf("Claimable(%d) = %v, want %v", tc.seat, err, tc.want)
			}
		}
		for d.step() {
		}
		if err := obs.Claimable(gone); !obs.Over() || !errors.Is(err, ErrOver) {
			t.Errorf("over %v: Claimable = %v, want ErrOver", obs.Over(), err)
		}
	})
	t.Run("cheater's seat", func(t *testing.T) {
		const cheater = 1
		d := newDriver(t, engine.Modern, 3, 2, 19)
		d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == cheater })
		env := d.envelope(cheater)
		env.Body = append([]byte(nil), env.Body...)
		env.Body[len(env.Body)-1] ^= 1
		d.postAll(d.sign(cheater, env))
		if d.observer().Violation() == nil {
			t.Fatal("the bad shuffle was not caught")
		}
		d.runUntil(func(int, tablelog.Kind) bool { return d.observer().HostOf(cheater) >= 0 })
		if h := d.observer().HostOf(cheater); h < 0 {
			t.Fatalf("no bot plays the cheater's seat")
		}
		if err := d.observer().Claimable(cheater); !errors.Is(err, ErrNotClaimable) {
			t.Errorf("Claimable(cheater) = %v, want ErrNotClaimable", err)
		}
	})
}

// A device silent until the table took its seat over comes back from its
// store, catches up, claims its seat and gets it back where its game lets
// a seat change hands — a Njet seat at the key setup of the next deal, a
// seat of The Game at the start of its next turn, the cards not yet
// played dealt again — and plays it to the end. Every device ends with
// the same log; Verify accepts it and records the takeover and the
// hand-over to the seat's own key; after the SeatClaim the seat's
// envelopes are the device's own, signed with its key.
func TestSeatHandedBack(t *testing.T) {
	cases := []struct {
		name string
		seat int
		cfg  func(t *testing.T) SelfplayConfig
	}{
		{"Njet, at the next deal", 2, func(t *testing.T) SelfplayConfig {
			cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: 93, Net: lossy, VoidAfter: 20 * time.Second}
			ref := referenceLog(t, cfg)
			seq, _ := stepSeq(t, ref, 0, 2, tablelog.KindBlock)
			cfg.Silences = []Silence{{Seat: 2, AtSeq: seq - 1, ReturnAt: seq + 40}}
			cfg.Dir = t.TempDir()
			return cfg
		}},
		{"The Game, at its next turn", handBackSeat, func(t *testing.T) SelfplayConfig {
			return handBackConfig(t, false, 2101, 1)
		}},
		{"The Game Extreme, at its next turn", handBackSeat, func(t *testing.T) SelfplayConfig {
			return handBackConfig(t, true, 2102, 1)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg(t)
			lines := &logLines{}
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
			if cfg.Game == GameTheGame {
				patientFor(s, c.seat)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := s.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if leaks != 0 {
				t.Fatalf("%d cards in views of hands the device does not play", leaks)
			}
			if lines.count(fmt.Sprintf("hands seat %d back", c.seat)) == 0 {
				t.Error("no hand-back posted")
			}
			log := sameLog(t, s, seatsBut(cfg.Players))
			for _, o := range s.Outcomes() {
				if o.BotHost != -1 {
					t.Errorf("seat %d ends played by a bot of seat %d", o.Seat, o.BotHost)
				}
			}
			v, err := Verify(bytes.NewReader(log))
			if err != nil || !v.Over {
				t.Fatalf("Verify: %v", err)
			}
			if len(v.Voided) == 0 || v.Voided[0].Seat != c.seat {
				t.Errorf("takeovers %v, want seat %d taken over first", v.Voided, c.seat)
			}
			if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != c.seat || v.HandedBack[0].Key != s.ids[c.seat] {
				t.Fatalf("handed back %+v, want seat %d to its own key", v.HandedBack, c.seat)
			}
			// After the SeatClaim the seat posts with its own key: its
			// round key, then its moves.
			_, envs, err := tablelog.ReadExport(bytes.NewReader(log))
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[tablelog.Kind]int{}
			for _, e := range envs[v.HandedBack[0].Seq+1:] {
				if int(e.Author) != c.seat {
					continue
				}
				if err := e.Verify(s.ids[c.seat]); err != nil {
					t.Fatalf("seq %d of seat %d after the hand-back: %v", e.Seq, c.seat, err)
				}
				kinds[e.Kind]++
			}
			if kinds[tablelog.KindRoundKey] == 0 || kinds[tablelog.KindShuffle] == 0 || kinds[tablelog.KindPlay] == 0 {
				t.Errorf("after the hand-back the seat posted %v, want a round key, a shuffle and plays", kinds)
			}
			if cfg.Game == GameTheGame {
				everyMoveTold(t, s.Creator(), envs)
			}
		})
	}
}

// patientFor makes the devices of s that host seat's bot wait, at the
// start of seat's turn, for the claim of seat's device once it is back:
// bots play The Game faster than a device restarted from its store
// catches up, and the seat can change hands only while enough cards are
// left to deal again. A table of people gives it that time.
func patientFor(s *Selfplay, seat int) {
	s.stall = map[int]func(*Game, tablelog.Kind) bool{}
	for host := range s.cfg.Players {
		if host == seat {
			continue
		}
		s.stall[host] = func(g *Game, k tablelog.Kind) bool {
			p := s.Peer(host)
			if p == nil || s.Returns() == 0 || g.PeerOf(seat) == seat || g.PeerOf(seat) != g.PeerOf(host) {
				return false
			}
			turn, err := g.Entitled(g.Next())
			if err != nil || int(turn.Seat) != seat || !slices.Contains(turn.Kinds, tablelog.KindSeatClaim) {
				return false
			}
			req, _ := p.book.approved(uint8(seat), g.Approvers(seat), g.ClaimRound())
			return req == nil
		}
	}
}

// playHandBack plays cfg, a table where seat's device leaves, is taken
// over, comes back (restarted from its store) and gets its seat back.
// Every look at a log checks that no peer knows a card of a hand its
// device does not play (leaveLeaks): after the hand-back, the former host
// of the bot knows nothing of the hand the device plays.
func playHandBack(t *testing.T, cfg SelfplayConfig, seat int) (*Selfplay, string) {
	t.Helper()
	lines := &logLines{}
	cfg.Logf = lines.logf
	leaks := 0
	cfg.Watch = func(at int, p *Peer) error {
		leaks += leaveLeaks(t, p.Game(), at)
		return nil
	}
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Game == GameTheGame {
		patientFor(s, seat)
	}
	dir := cfg.Dir
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		// Where each device stood, for the failure's diagnosis.
		for at, p := range s.peerList() {
			if p == nil {
				continue
			}
			next, _ := p.Log().Head()
			turn, terr := p.Game().Entitled(next)
			t.Logf("seat %d: log at %d, entitled %+v (%v), seat played by %d, catching up %v, done %v", at, next,
				turn.Kinds, terr, p.Game().PeerOf(seat), p.CatchingUp(), p.Done())
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
	if lines.count(fmt.Sprintf("hands seat %d back", seat)) == 0 {
		t.Error("no hand-back posted")
	}
	return s, dir
}

// TestHandBackRefused: a log of any game refuses a SeatClaim that does
// not hold, with a clear error, and loses nothing by it: the forged claim
// is offered at the real claim's seq, refused, and the real one then goes
// on to a log that Verify accepts.
func TestHandBackRefused(t *testing.T) {
	for _, game := range []struct {
		name string
		seat int
		cfg  func(t *testing.T) SelfplayConfig
		// move is a move of the seat's person, refused with notYours
		// while a bot plays the seat.
		move     any
		notYours error
		// ownKeyOnly: only the genesis key may claim the seat back (a
		// table's traits); at Njet a watcher's key may take a bot's seat
		// (TestWatcherTakesASeatAtTheNextDeal), so a stranger's claim is
		// no forgery there.
		ownKeyOnly bool
	}{
		{"Njet", 2, func(t *testing.T) SelfplayConfig {
			return SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: 93, Dir: t.TempDir(),
				VoidAfter: 20 * time.Second, Leaves: []Leave{{Seat: 2, AtSeq: 30, ReturnAt: 1}}}
		}, engine.Action{Kind: engine.ActBlock, Seat: 2}, engine.ErrNotYourTurn, false},
		{"The Game Extreme", handBackSeat, func(t *testing.T) SelfplayConfig { return handBackConfig(t, true, 2102, 1) },
			thegame.Action{Kind: thegame.ActEnd, Seat: handBackSeat}, thegame.ErrNotYourTurn, true},
	} {
		t.Run(game.name, func(t *testing.T) {
			handBackRefused(t, game.cfg(t), game.seat, game.move, game.notYours, game.ownKeyOnly)
		})
	}
}

// handBackRefused plays cfg, where seat's device leaves and comes back,
// and offers forged claims of the seat at the real claim's seq; a claim by
// a key that never held the seat is one when ownKeyOnly.
func handBackRefused(t *testing.T, cfg SelfplayConfig, seat int, move any, notYours error, ownKeyOnly bool) {
	s, dir := playHandBack(t, cfg, seat)
	x := seatExport(t, s, 0)
	_, envs, err := tablelog.ReadExport(bytes.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, e := range envs {
		if e.Kind == tablelog.KindSeatClaim {
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
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: s.Table(), Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs[:k] {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	host := obs.PeerOf(seat)
	if host == seat {
		t.Fatal("the seat is not a bot's before the claim")
	}
	// The bot's key, stored by its host's device before the takeover.
	st, err := tablelog.OpenStore(filepath.Join(dir, fmt.Sprintf("seat-%d.db", host)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	seed, err := st.Secret(s.Table(), botKeyName(seat))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	botKey := ed25519.NewKeyFromSeed(seed)
	round := obs.ClaimRound()
	approvers := obs.Approvers(seat)
	if len(approvers) != cfg.Players-1 || len(claim.approvals) != len(approvers) {
		t.Fatalf("approvers %v, %d approvals in the claim", approvers, len(claim.approvals))
	}
	approval := func(seat uint8, key tablelog.Identity, signer ed25519.PrivateKey, deal uint64) *SeatApproval {
		a := &SeatApproval{Table: s.Table(), Deal: deal, Seat: seat, Key: key, Approver: uint8(approvers[0])}
		if err := a.Sign(signer); err != nil {
			t.Fatal(err)
		}
		return a
	}
	stranger := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	strangerID, err := tablelog.IdentityOf(stranger.Public().(ed25519.PublicKey))
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
		{"a forged request", seat, botKey, func() []byte {
			req := claim.req
			req.Sig[0] ^= 1
			return seatClaimBody(&req, claim.approvals)
		}, ErrVote},
		{"a missing approval", seat, botKey, func() []byte {
			return seatClaimBody(&claim.req, claim.approvals[1:])
		}, ErrVote},
		{"an approval signed by the claimant", seat, botKey, func() []byte {
			a := approval(uint8(seat), claim.req.Key, s.keys[seat], round)
			return seatClaimBody(&claim.req, append([]*SeatApproval{a}, claim.approvals[1:]...))
		}, ErrVote},
		{"an approval for another round", seat, botKey, func() []byte {
			a := approval(uint8(seat), claim.req.Key, s.keys[approvers[0]], round+1)
			return seatClaimBody(&claim.req, append([]*SeatApproval{a}, claim.approvals[1:]...))
		}, ErrVote},
		{"a key that never held the seat", seat, botKey, func() []byte {
			if !ownKeyOnly {
				return nil
			}
			req := SeatClaimRequest{Table: s.Table(), Deal: round, Seat: uint8(seat), Key: strangerID}
			if err := req.Sign(stranger); err != nil {
				t.Fatal(err)
			}
			var as []*SeatApproval
			for _, ap := range approvers {
				a := &SeatApproval{Table: s.Table(), Deal: round, Seat: uint8(seat), Key: strangerID, Approver: uint8(ap)}
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
		}, tablelog.ErrNotEntitled},
		{"the bot's turn claiming its host's seat", seat, botKey, func() []byte {
			req := SeatClaimRequest{Table: s.Table(), Deal: round, Seat: uint8(host), Key: s.ids[host]}
			if err := req.Sign(s.keys[host]); err != nil {
				t.Fatal(err)
			}
			return seatClaimBody(&req, nil)
		}, ErrVote},
	}
	next, prev := log.Head()
	for _, c := range cases {
		body := c.body()
		if body == nil {
			continue // no forgery at this game
		}
		t.Run(c.name, func(t *testing.T) {
			forged := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: s.Table(), Seq: next, Prev: prev,
				Author: uint8(c.author), Kind: tablelog.KindSeatClaim, Body: body}
			if err := forged.Sign(c.signer); err != nil {
				t.Fatal(err)
			}
			if _, err := log.Append(forged); !errors.Is(err, c.want) {
				t.Fatalf("Append: %v, want %v", err, c.want)
			}
			if n, h := log.Head(); n != next || h != prev {
				t.Fatalf("the refused claim moved the log to %d", n)
			}
			if obs.PeerOf(seat) != host || obs.KeyOf(seat) == s.ids[seat] {
				t.Fatal("the refused claim changed who plays the seat")
			}
		})
	}
	// A person's device back at the seat is not asked for a move while the
	// bot plays it, and a move it submits is refused.
	person := personAt(t, s, seat, envs[:k])
	if person.YourTurn() {
		t.Error("a person's seat that a bot plays is asked for a move")
	}
	if err := person.Submit(move); !errors.Is(err, notYours) {
		t.Errorf("Submit while a bot plays the seat: %v, want %v", err, notYours)
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
	if err := obs.Claimable(seat); !errors.Is(err, ErrOver) {
		t.Errorf("Claimable once the game is over: %v, want %v", err, ErrOver)
	}
}

// personAt returns a person's peer at seat whose log holds envs.
func personAt(t *testing.T, s *Selfplay, seat int, envs []*tablelog.Envelope) *Peer {
	t.Helper()
	st, err := tablelog.OpenStore(filepath.Join(t.TempDir(), "person.db"), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	net, err := tablelog.NewMemNetwork(s.Table(), rand.New(rand.NewPCG(3, 3)), tablelog.NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ep, err := net.Join(ctx, s.ids[seat], st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close() })
	p, err := NewPeer(PeerConfig{Table: s.Table(), Creator: s.ids[0], Seat: seat,
		Key: s.keys[seat], Store: st, Transport: ep, Human: true, Bot: s.cfg.Bot, NewPlayer: testPlayers})
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

// everyMoveTold checks that a game of The Game replayed from a log tells
// every play of it among its moves, those before a redeal too, in the
// log's order.
func everyMoveTold(t *testing.T, creator tablelog.Identity, envs []*tablelog.Envelope) {
	t.Helper()
	g := NewGame(GameConfig{Table: envs[0].Table, Creator: creator})
	var plays []int
	for _, e := range envs {
		if err := g.Apply(e); err != nil {
			t.Fatalf("seq %d: %v", e.Seq, err)
		}
		if e.Kind == tablelog.KindPlay {
			plays = append(plays, int(e.Author))
		}
	}
	var told []int
	for _, m := range g.TheGame().Moves(0) {
		if m.Kind == thegame.ActPlay {
			told = append(told, m.Seat)
		}
	}
	if !slices.Equal(told, plays) {
		t.Errorf("the game tells %d plays, the log holds %d", len(told), len(plays))
	}
}
