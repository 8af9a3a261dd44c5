package table

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// watcherKey is a key no seat of a driver's table holds.
func watcherKey(t *testing.T, name string) (ed25519.PrivateKey, tablelog.Identity) {
	t.Helper()
	seed := sha256.Sum256([]byte("njet/table/test-watcher/" + name))
	priv := ed25519.NewKeyFromSeed(seed[:])
	id, err := tablelog.IdentityOf(priv.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	return priv, id
}

// approvalBy is an approval of c for deal in the name of seat approver,
// signed by priv (the approver's key, or a forger's).
func approvalBy(t *testing.T, c *SeatClaimRequest, deal uint64, approver int, priv ed25519.PrivateKey) *SeatApproval {
	t.Helper()
	a := &SeatApproval{Table: c.Table, Deal: deal, Seat: c.Seat, Key: c.Key, Approver: uint8(approver)}
	if err := a.Sign(priv); err != nil {
		t.Fatal(err)
	}
	return a
}

// A bot seated from the lobby plays its seat with its own genesis key, so
// the log cannot tell it from a person: a claim of such a seat stands only
// with that key's consent (its own approval) besides the approval of every
// other seat its own device plays. A claim of a person's seat, which gives
// no consent, is refused; so is a forged consent. The genuine claim hands
// the seat to the watcher's key at the key setup of the next deal, the
// game ends with that key in the seat, and Verify accepts the log.
func TestLobbyBotSeatClaimedAtTheNextDeal(t *testing.T) {
	const lent, person = 3, 1
	d := newDriver(t, engine.Classic, 4, 3, 98)
	// An observer that knows the setup's lobby bots, as a member does.
	lobby := NewGame(GameConfig{Table: d.sp.table, Creator: d.sp.ids[0], LobbyBots: []int{lent}})
	lobbyLog, err := tablelog.NewLog(tablelog.LogConfig{Table: d.sp.table, Protocol: lobby})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lobbyLog.Append(d.sp.genesis); err != nil {
		t.Fatal(err)
	}
	d.logs = append(d.logs, lobbyLog) // postAll feeds it every envelope
	wPriv, wID := watcherKey(t, "lobby")

	d.runUntil(func(seat int, k tablelog.Kind) bool { return len(d.observer().Njet().Results()) == 1 })
	for _, tc := range []struct {
		seat int
		want error
	}{{0, ErrNotClaimable}, {person, ErrNotClaimable}, {2, ErrNotClaimable}, {lent, nil}} {
		if err := lobby.Claimable(tc.seat); !errors.Is(err, tc.want) {
			t.Errorf("Claimable(%d) = %v, want %v", tc.seat, err, tc.want)
		}
	}
	if err := d.observer().Claimable(lent); !errors.Is(err, ErrNotClaimable) {
		t.Errorf("a game that knows no lobby bots: Claimable(%d) = %v, want ErrNotClaimable", lent, err)
	}
	post := func(author int, key ed25519.PrivateKey, req *SeatClaimRequest, approvals []*SeatApproval) []error {
		seq, prev := d.logs[d.n].Head()
		env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: uint8(author),
			Kind: tablelog.KindSeatClaim, Body: seatClaimBody(req, approvals)}
		if err := env.Sign(key); err != nil {
			t.Fatal(err)
		}
		return d.postAll(env)
	}

	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindRoundKey && seat == person })
	deal := d.observer().Deal()
	claim := claimOf(t, d.sp.table, lent, wPriv, deal)
	grab := claimOf(t, d.sp.table, person, wPriv, deal)
	for _, tc := range []struct {
		name      string
		approvals []*SeatApproval
	}{
		{"a person's seat without its consent", approvalsOf(t, d, grab, deal, 0, 2, 3)},
		{"a person's seat with a consent the claimant signed", []*SeatApproval{
			approvalBy(t, grab, deal, 0, d.sp.keys[0]), approvalBy(t, grab, deal, person, wPriv),
			approvalBy(t, grab, deal, 2, d.sp.keys[2]), approvalBy(t, grab, deal, 3, d.sp.keys[3])}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectLogErr(t, post(person, d.sp.keys[person], grab, tc.approvals), ErrVote)
		})
	}

	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindRoundKey && seat == lent })
	if deal != d.observer().Deal() {
		t.Fatalf("deal %d, want %d", d.observer().Deal(), deal)
	}
	for _, tc := range []struct {
		name      string
		approvals []*SeatApproval
		want      error
	}{
		{"the lobby bot's consent missing", approvalsOf(t, d, claim, deal, 0, 1, 2), ErrVote},
		{"a consent the claimant signed", []*SeatApproval{
			approvalBy(t, claim, deal, 0, d.sp.keys[0]), approvalBy(t, claim, deal, 1, d.sp.keys[1]),
			approvalBy(t, claim, deal, 2, d.sp.keys[2]), approvalBy(t, claim, deal, lent, wPriv)}, ErrVote},
		{"a consent another seat signed", []*SeatApproval{
			approvalBy(t, claim, deal, 0, d.sp.keys[0]), approvalBy(t, claim, deal, 1, d.sp.keys[1]),
			approvalBy(t, claim, deal, 2, d.sp.keys[2]), approvalBy(t, claim, deal, lent, d.sp.keys[0])}, ErrVote},
		{"a person's approval missing", approvalsOf(t, d, claim, deal, 0, 2, 3), ErrVote},
		{"a consent for the last deal", approvalsOf(t, d, claim, deal-1, 0, 1, 2, 3), ErrVote},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectLogErr(t, post(lent, d.sp.keys[lent], claim, tc.approvals), tc.want)
		})
	}
	for i, err := range post(lent, d.sp.keys[lent], claim, approvalsOf(t, d, claim, deal, 0, 1, 2, 3)) {
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
	}
	if k := lobby.KeyOf(lent); k != wID {
		t.Fatalf("seat %d is played by %v, want the watcher's key", lent, k)
	}
	if err := lobby.Claimable(lent); !errors.Is(err, ErrNotClaimable) {
		t.Errorf("a lobby bot's seat handed over: Claimable = %v, want ErrNotClaimable", err)
	}
	// The seat's old key no longer plays it: its round key is refused.
	old := d.envelope(lent)
	expectLogErr(t, d.postAll(old), tablelog.ErrBadSignature)
	// A second watcher cannot take the seat from the first: its key turn
	// has passed.
	other, _ := watcherKey(t, "other")
	second := claimOf(t, d.sp.table, lent, other, deal)
	expectLogErr(t, post(lent, wPriv, second, approvalsOf(t, d, second, deal, 0, 1, 2)), tablelog.ErrNotEntitled)

	d.sp.keys[lent] = wPriv // the watcher's device plays the seat from here
	// Nor at the next deal: the seat is no lobby bot's now, and the first
	// watcher's key gives no consent.
	d.step()
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindRoundKey && seat == lent })
	if err := lobby.Claimable(lent); !errors.Is(err, ErrNotClaimable) {
		t.Errorf("the next deal: Claimable = %v, want ErrNotClaimable", err)
	}
	next := d.observer().Deal()
	expectLogErr(t, post(lent, wPriv, second, []*SeatApproval{
		approvalBy(t, second, next, 0, d.sp.keys[0]), approvalBy(t, second, next, 1, d.sp.keys[1]),
		approvalBy(t, second, next, 2, d.sp.keys[2]), approvalBy(t, second, next, lent, other)}), ErrVote)
	for d.step() {
	}
	obs := d.observer()
	if !obs.Over() || len(obs.Njet().Results()) != 3 || obs.Violation() != nil {
		t.Fatalf("over %v after %d rounds (%v)", obs.Over(), len(obs.Njet().Results()), obs.Violation())
	}
	v, err := verifyLog(t, d.logs[d.n])
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != lent || v.HandedBack[0].Key != wID {
		t.Errorf("handed back %+v", v.HandedBack)
	}
}

// Peers play the same: the device running a bot seated from the lobby
// lends it (PeerConfig.Lend), a watcher that joins mid-game claims it and
// gets it at the next deal, the lending peer posts nothing for the seat
// from then on, and every log ends the same and verifies. A watcher
// asking for a person's seat never gets it.
func TestWatcherTakesALobbyBotSeat(t *testing.T) {
	const lent, person = 3, 1
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: 99, VoidAfter: 20 * time.Second,
		LobbyBots: []int{lent}, Watchers: []Watcher{{Seat: lent, AtSeq: 30}, {Seat: person, AtSeq: 30}}}
	if testing.Verbose() {
		cfg.Logf = t.Logf
	}
	cfg.Dir = t.TempDir()
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	ws := sp.WatcherOutcomes()
	for _, o := range append(sp.Outcomes(), ws...) {
		if o.Head != ws[0].Head || o.Next != ws[0].Next || o.Violation != nil || len(o.Results) != 3 {
			t.Errorf("seat %d ends at %d %v after %d rounds (%v), the watcher at %d %v",
				o.Seat, o.Next, o.Head, len(o.Results), o.Violation, ws[0].Next, ws[0].Head)
		}
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
	if len(v.HandedBack) != 1 || v.HandedBack[0].Seat != lent || v.HandedBack[0].Key != id {
		t.Errorf("handed back %+v, want seat %d to watcher 0 only", v.HandedBack, lent)
	}
	if len(v.Voided) > 0 {
		t.Errorf("rounds voided: %v", v.Voided)
	}
}
