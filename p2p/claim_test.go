package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// logServer is a tablelog.RangeServer over a log the test sets: it stands for
// the store of a device, which holds what its Log accepted.
type logServer struct {
	mu   sync.Mutex
	envs [][]byte
}

func (s *logServer) set(envs ...[]byte) {
	s.mu.Lock()
	s.envs = envs
	s.mu.Unlock()
}

func (s *logServer) ServeRange(_ context.Context, _ tablelog.TableID, from, to uint64) ([][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if from >= uint64(len(s.envs)) {
		return nil, nil
	}
	return s.envs[from:min(to, uint64(len(s.envs)))], nil
}

// stranger is a device key outside the table.
func stranger(t *testing.T) (ed25519.PrivateKey, tablelog.Identity, peer.ID) {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := tablelog.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := PeerIDOf(id)
	if err != nil {
		t.Fatal(err)
	}
	return key, id, pid
}

// seatClaimEnvelope is a SeatClaim envelope at seq 1 by seat's bot key
// handing seat to claimant. Its approvals do not matter here: the roster
// trusts only what the device's log holds, and the log checks them.
func seatClaimEnvelope(t *testing.T, id tablelog.TableID, seat uint8, claimant tablelog.Identity, botKey ed25519.PrivateKey) []byte {
	t.Helper()
	body := append([]byte{table.BodyVersion, seat}, claimant[:]...)
	body = append(body, make([]byte, tablelog.SignatureSize)...)
	body = append(body, 0)
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: id, Seq: 1, Author: seat, Kind: tablelog.KindSeatClaim, Body: body}
	if err := env.Sign(botKey); err != nil {
		t.Fatal(err)
	}
	b, err := env.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func claimBytes(t *testing.T, id tablelog.TableID, seat uint8, key ed25519.PrivateKey) []byte {
	t.Helper()
	me, err := tablelog.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	c := &table.SeatClaimRequest{Table: id, Seat: seat, Key: me}
	if err := c.Sign(key); err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A device that is no member gets nothing onto the topic: neither
// envelopes nor claims nor approvals, not even a SeatClaim that hands it a
// seat while that envelope is only a message. Once the device's own log
// holds the SeatClaim, the claimant's envelopes for that seat pass; for
// any other seat, and from any other stranger, they are still dropped.
func TestValidatorAdmitsAClaimantOnlyFromTheLog(t *testing.T) {
	setup, keys, botKey := testSetup(t)
	r, err := newRoster(setup)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logServer{}
	genesis, err := setup.Genesis.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	logs.set(genesis)
	tb := &Table{id: setup.Table(), roster: r, server: logs, node: newTestNode(t)}
	id := setup.Table()
	pid0, _ := PeerIDOf(setup.Devices[0].ID)
	claimantKey, claimant, claimantPID := stranger(t)
	otherKey, _, otherPID := stranger(t)
	claimEnv := seatClaimEnvelope(t, id, 2, claimant, botKey)
	type check struct {
		name string
		from peer.ID
		data []byte
		want pubsub.ValidationResult
	}
	run := func(t *testing.T, checks []check) {
		t.Helper()
		for _, tc := range checks {
			t.Run(tc.name, func(t *testing.T) {
				tb.scanMu.Lock()
				tb.scannedAt = time.Time{} // as if the last look were long ago
				tb.scanMu.Unlock()
				if got := tb.check(tc.from, tc.data); got != tc.want {
					t.Errorf("check = %v, want %v", got, tc.want)
				}
			})
		}
	}
	t.Run("before the log hands the seat over", func(t *testing.T) {
		run(t, []check{
			{"the claimant's envelope", claimantPID, signed(t, id, 2, 2, claimantKey), pubsub.ValidationReject},
			{"the claimant's own claim", claimantPID, claimBytes(t, id, 2, claimantKey), pubsub.ValidationReject},
			{"the SeatClaim from the bot's host, as a message", pid0, claimEnv, pubsub.ValidationAccept},
			{"the claimant's envelope after that message", claimantPID, signed(t, id, 2, 2, claimantKey), pubsub.ValidationReject},
			{"a member relays the claim", pid0, claimBytes(t, id, 2, claimantKey), pubsub.ValidationAccept},
		})
	})
	logs.set(genesis, claimEnv)
	t.Run("once the log holds the SeatClaim", func(t *testing.T) {
		run(t, []check{
			{"the claimant's envelope for its seat", claimantPID, signed(t, id, 2, 2, claimantKey), pubsub.ValidationAccept},
			{"the claimant's envelope for another seat", claimantPID, signed(t, id, 1, 2, claimantKey), pubsub.ValidationReject},
			{"the bot's host still signs its old key", pid0, signed(t, id, 2, 2, botKey), pubsub.ValidationAccept},
			{"another stranger", otherPID, signed(t, id, 2, 2, otherKey), pubsub.ValidationReject},
			{"another stranger with the claimant's signature", otherPID, signed(t, id, 2, 2, claimantKey), pubsub.ValidationReject},
			{"a member with the claimant's key", pid0, signed(t, id, 2, 2, claimantKey), pubsub.ValidationReject},
		})
	})
	if !tb.roster.isMember(claimantPID) || tb.roster.isMember(otherPID) || tb.roster.deviceOfKey(claimant) != len(setup.Devices) {
		t.Errorf("members: claimant %v, other stranger %v", tb.roster.isMember(claimantPID), tb.roster.isMember(otherPID))
	}
	// A store rewound to another branch is read again from its start.
	logs.set(genesis, signed(t, id, 1, 1, keys[1]))
	tb.admitFromLog(context.Background(), true)
	if tb.scanned != 2 {
		t.Errorf("read up to seq %d after the rewind, want 2", tb.scanned)
	}
}

// A member relays a watcher's claim to the topic only when it is signed by
// the watcher's own key, for a seat of the table that the member's game
// says may be claimed, and while no other device claims that seat; it
// refuses the rest with a reason, and resets garbage.
func TestClaimRelay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	setup, keys, _ := testSetup(t)
	member, err := NewNode(NodeConfig{Key: keys[0], Listen: LoopbackListen, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer member.Close()
	tb, err := member.JoinTable(TableConfig{Setup: setup, Server: openTestStore(t, t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	ep, err := tb.Transport()
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	id := setup.Table()
	watcher, other := newTestNode(t), newTestNode(t)
	for _, n := range []*Node{watcher, other} {
		if err := n.Connect(ctx, peer.AddrInfo{ID: member.ID(), Addrs: member.Host().Addrs()}); err != nil {
			t.Fatal(err)
		}
	}
	claimOf := func(n *Node, seat uint8, tableID tablelog.TableID) *table.SeatClaimRequest {
		c := &table.SeatClaimRequest{Table: tableID, Seat: seat, Key: n.Identity()}
		if err := c.Sign(n.Key()); err != nil {
			t.Fatal(err)
		}
		return c
	}
	good := claimOf(watcher, 2, id)
	if err := watcher.Claim(ctx, member.ID(), good); !errors.Is(err, ErrClaimRefused) {
		t.Errorf("a claim to a device that plays no seat: %v, want ErrClaimRefused", err)
	}
	tb.SetClaimCheck(func(seat int) error {
		if seat != 2 {
			return fmt.Errorf("%w: seat %d is played by its own device", table.ErrNotClaimable, seat)
		}
		return nil
	})
	badSig := *good
	badSig.Sig[0] ^= 1
	for _, tc := range []struct {
		name string
		from *Node
		req  *table.SeatClaimRequest
	}{
		{"a seat played by a device that is there", watcher, claimOf(watcher, 1, id)},
		{"a bad signature", watcher, &badSig},
		{"signed by another device's key", other, good},
		{"no such seat", watcher, claimOf(watcher, 3, id)},
		{"another table", watcher, claimOf(watcher, 2, tablelog.TableID{7})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.from.Claim(ctx, member.ID(), tc.req); !errors.Is(err, ErrClaimRefused) {
				t.Errorf("%v, want ErrClaimRefused", err)
			}
		})
	}
	t.Run("garbage", func(t *testing.T) {
		s, err := watcher.Host().NewStream(ctx, member.ID(), ClaimProtocol)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Write([]byte("take my seat, please")); err != nil {
			t.Fatal(err)
		}
		if err := s.CloseWrite(); err != nil {
			t.Fatal(err)
		}
		if resp, err := io.ReadAll(s); err == nil && len(resp) > 0 {
			t.Errorf("answered %q to garbage", resp)
		}
	})
	if err := watcher.Claim(ctx, member.ID(), good); err != nil {
		t.Fatalf("a good claim: %v", err)
	}
	// The member published it: its own subscription gets it.
	select {
	case m := <-ep.Messages():
		c, err := table.ParseClaim(m.Data)
		if err != nil || *c != *good || m.From != member.Identity() {
			t.Errorf("the topic carried %v from %v (%v)", c, m.From, err)
		}
	case <-ctx.Done():
		t.Fatal("the claim never reached the topic")
	}
	if err := other.Claim(ctx, member.ID(), claimOf(other, 2, id)); !errors.Is(err, ErrClaimRefused) {
		t.Errorf("a second device's claim of the same seat: %v, want ErrClaimRefused", err)
	}
	if err := watcher.Claim(ctx, member.ID(), good); err != nil {
		t.Errorf("the same claim again: %v", err)
	}
}

// Setup.LobbyBots names the seats the host filled with bots in the lobby
// (their genesis keys are no member device's), which a watcher may claim,
// and no seat of a device, the host's own included.
func TestSetupLobbyBots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		name          string
		players, bots int
	}{{"two devices, two bots", 4, 2}, {"three devices, no bot", 3, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTestTable(t, ctx, tc.players, tc.bots, 1)
			var want []int
			for _, ls := range tt.seats[0][1:] {
				want = append(want, ls.Seat)
			}
			slices.Sort(want)
			if got := tt.setup.LobbyBots(); !slices.Equal(got, want) {
				t.Errorf("LobbyBots() = %v, want %v", got, want)
			}
			bad := &Setup{Genesis: tt.setup.Genesis, Devices: nil}
			if got := bad.LobbyBots(); got != nil {
				t.Errorf("a setup that does not check: LobbyBots() = %v, want none", got)
			}
		})
	}
}
