package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"io"
	"testing"

	"github.com/libp2p/go-libp2p"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// testSetup builds a setup of two devices and a bot hosted by the first.
func testSetup(t *testing.T) (*Setup, []ed25519.PrivateKey, ed25519.PrivateKey) {
	t.Helper()
	var keys []ed25519.PrivateKey
	var ids []tablelog.Identity
	for range 3 {
		_, k, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		keys, ids = append(keys, k), append(ids, id)
	}
	gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Keys: ids}
	body, err := gen.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := env.Sign(keys[0]); err != nil {
		t.Fatal(err)
	}
	return &Setup{Genesis: env, Devices: []Device{{ID: ids[0]}, {ID: ids[1]}}}, keys[:2], keys[2]
}

func signed(t *testing.T, id tablelog.TableID, author uint8, seq uint64, key ed25519.PrivateKey) []byte {
	t.Helper()
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: id, Seq: seq, Author: author, Kind: tablelog.KindAck,
		Body: []byte{table.BodyVersion}}
	if err := env.Sign(key); err != nil {
		t.Fatal(err)
	}
	b, err := env.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidatorRejectsHostileInput(t *testing.T) {
	setup, keys, botKey := testSetup(t)
	r, err := newRoster(setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{id: setup.Table(), roster: r}
	pid0, _ := PeerIDOf(setup.Devices[0].ID)
	pid1, _ := PeerIDOf(setup.Devices[1].ID)
	_, strangerKey, _ := ed25519.GenerateKey(nil)
	strangerID, _ := tablelog.IdentityOf(strangerKey.Public().(ed25519.PublicKey))
	stranger, _ := PeerIDOf(strangerID)
	id := setup.Table()
	other := id
	other[0] ^= 1
	genesis, _ := setup.Genesis.MarshalBinary()
	tampered := signed(t, id, 1, 1, keys[1])
	tampered[len(tampered)-1] ^= 1
	for _, tc := range []struct {
		name string
		from peer.ID
		data []byte
		want pubsub.ValidationResult
	}{
		{"genesis from the creator", pid0, genesis, pubsub.ValidationAccept},
		{"own seat", pid1, signed(t, id, 1, 1, keys[1]), pubsub.ValidationAccept},
		{"hosted bot seat from its host", pid0, signed(t, id, 2, 1, botKey), pubsub.ValidationAccept},
		{"bot seat from another device", pid1, signed(t, id, 2, 1, botKey), pubsub.ValidationReject},
		{"another device's seat", pid0, signed(t, id, 1, 1, keys[1]), pubsub.ValidationReject},
		{"author claims a seat it does not sign for", pid1, signed(t, id, 0, 1, keys[1]), pubsub.ValidationReject},
		{"garbage", pid1, []byte("hello, table"), pubsub.ValidationReject},
		{"empty", pid1, nil, pubsub.ValidationReject},
		{"oversized", pid1, bytes.Repeat([]byte{1}, tablelog.MaxEnvelopeSize+1), pubsub.ValidationReject},
		{"bad signature", pid1, tampered, pubsub.ValidationReject},
		{"valid envelope for another table", pid1, signed(t, other, 1, 1, keys[1]), pubsub.ValidationReject},
		{"peer without a seat", stranger, signed(t, id, 1, 1, strangerKey), pubsub.ValidationReject},
		{"no seat 7", pid1, signed(t, id, 7, 1, keys[1]), pubsub.ValidationReject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tb.check(tc.from, tc.data); got != tc.want {
				t.Errorf("check = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSyncStreamRejectsHostileInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	tt := newTestTable(t, ctx, 3, 1, 1)
	heads := tt.play(t, ctx, nil)
	if err := sameHeads(heads); err != nil {
		t.Fatal(err)
	}
	// The game is over and its sessions closed; serve the log again from
	// device 0 and knock at it.
	host := tt.nodes[0]
	tb, err := host.JoinTable(TableConfig{Setup: tt.setup, Server: tt.stores[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rogue := newTestNode(t)
	info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	if err := rogue.Connect(ctx, info); err != nil {
		t.Fatal(err)
	}
	ask := func(n *Node, req []byte) ([]byte, error) {
		s, err := n.Host().NewStream(ctx, host.ID(), SyncProtocol)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		if _, err := s.Write(req); err != nil {
			return nil, err
		}
		if err := s.CloseWrite(); err != nil {
			return nil, err
		}
		return io.ReadAll(io.LimitReader(s, maxSyncResponse+1))
	}
	good, _ := tablelog.SyncRequest{Table: tt.setup.Table(), From: 0, To: 4}.MarshalBinary()
	otherTable, _ := tablelog.SyncRequest{Table: tablelog.TableID{1}, From: 0, To: 4}.MarshalBinary()
	for _, tc := range []struct {
		name string
		req  []byte
	}{
		{"garbage", []byte("GET / HTTP/1.1\r\n\r\n")},
		{"oversized", bytes.Repeat([]byte{tablelog.SyncVersion}, 1<<20)},
		{"empty range", append(good[:tablelog.SyncRequestSize-8:tablelog.SyncRequestSize-8], make([]byte, 8)...)},
		{"another table", otherTable},
		{"valid, from a peer without a seat", good},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := ask(rogue, tc.req)
			if err == nil && len(resp) > 0 {
				t.Fatalf("answered %d bytes", len(resp))
			}
		})
	}
	// A flood of requests, bounded in count, changes nothing for members.
	for range 64 {
		ask(rogue, good)
	}
	resp, err := ask(tt.nodes[1], good)
	if err != nil {
		t.Fatal(err)
	}
	envs, err := tablelog.ParseSyncResponse(resp)
	if err != nil || len(envs) != 4 {
		t.Fatalf("member got %d envelopes, err %v", len(envs), err)
	}
	if tb.Stats.SyncServed.Load() != 1 || tb.Stats.SyncRefused.Load() == 0 {
		t.Errorf("served %d, refused %d", tb.Stats.SyncServed.Load(), tb.Stats.SyncRefused.Load())
	}
}

// TestGameSurvivesHostileTopic floods the table's topic, during a game,
// with garbage, oversized messages, envelopes signed by a device without a
// seat and valid envelopes of another table; the game ends as usual.
func TestGameSurvivesHostileTopic(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	tt := newTestTable(t, ctx, 4, 1, 1)
	// The rogue runs a plain gossipsub router: no validator, no filter.
	_, rogueKey, _ := ed25519.GenerateKey(nil)
	sk, err := lcrypto.UnmarshalEd25519PrivateKey(rogueKey)
	if err != nil {
		t.Fatal(err)
	}
	rogue, err := libp2p.New(libp2p.Identity(sk), libp2p.ListenAddrStrings(LoopbackListen...))
	if err != nil {
		t.Fatal(err)
	}
	defer rogue.Close()
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	ps, err := pubsub.NewGossipSub(rctx, rogue)
	if err != nil {
		t.Fatal(err)
	}
	topic, err := ps.Join(TopicName(tt.setup.Table()))
	if err != nil {
		t.Fatal(err)
	}
	defer topic.Close()
	for _, n := range tt.nodes {
		if err := rogue.Connect(ctx, peer.AddrInfo{ID: n.ID(), Addrs: n.Host().Addrs()}); err != nil {
			t.Fatal(err)
		}
	}
	_, strangerKey, _ := ed25519.GenerateKey(nil)
	other := tt.setup.Table()
	other[0] ^= 1
	junk := [][]byte{
		[]byte("garbage"),
		bytes.Repeat([]byte{0xff}, tablelog.MaxEnvelopeSize+100),
		signed(t, tt.setup.Table(), 1, 1, rogueKey),
		signed(t, tt.setup.Table(), 2, 3, strangerKey),
		signed(t, other, 0, 0, rogueKey),
	}
	var rejected int64
	heads := tt.play(t, ctx, func(sessions []*Session) {
		for i := range 200 {
			msg := append(bytes.Clone(junk[i%len(junk)]), byte(i))
			if err := topic.Publish(ctx, msg); err != nil {
				t.Logf("rogue publish: %v", err)
			}
		}
		for _, s := range sessions {
			rejected += s.Table().Stats.Rejected.Load()
		}
	})
	if err := sameHeads(heads); err != nil {
		t.Fatal(err)
	}
	t.Logf("the members' validators rejected %d rogue messages", rejected)
}

func vote(t *testing.T, id tablelog.TableID, silent, voter uint8, key ed25519.PrivateKey) []byte {
	t.Helper()
	v := &table.SilenceVote{Table: id, Seq: 9, Prev: tablelog.Hash{7}, Silent: silent, Voter: voter}
	if err := v.Sign(key); err != nil {
		t.Fatal(err)
	}
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SilenceVotes pass the validator by the envelopes' rule: the voter seat
// must be held by the signed sender, and the vote must verify under its
// key. Whether a vote fits the log is the Peer's business.
func TestValidatorVotes(t *testing.T) {
	setup, keys, botKey := testSetup(t)
	r, err := newRoster(setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{id: setup.Table(), roster: r}
	pid0, _ := PeerIDOf(setup.Devices[0].ID)
	pid1, _ := PeerIDOf(setup.Devices[1].ID)
	_, strangerKey, _ := ed25519.GenerateKey(nil)
	strangerID, _ := tablelog.IdentityOf(strangerKey.Public().(ed25519.PublicKey))
	stranger, _ := PeerIDOf(strangerID)
	id := setup.Table()
	other := id
	other[0] ^= 1
	tampered := vote(t, id, 0, 1, keys[1])
	tampered[len(tampered)-1] ^= 1
	long := append(vote(t, id, 0, 1, keys[1]), 0)
	for _, tc := range []struct {
		name string
		from peer.ID
		data []byte
		want pubsub.ValidationResult
	}{
		{"own seat", pid1, vote(t, id, 0, 1, keys[1]), pubsub.ValidationAccept},
		{"creator's seat", pid0, vote(t, id, 1, 0, keys[0]), pubsub.ValidationAccept},
		{"hosted bot seat from its host", pid0, vote(t, id, 1, 2, botKey), pubsub.ValidationAccept},
		{"bot seat from another device", pid1, vote(t, id, 0, 2, botKey), pubsub.ValidationReject},
		{"another device's seat", pid0, vote(t, id, 2, 1, keys[1]), pubsub.ValidationReject},
		{"voter claims a seat it does not sign for", pid1, vote(t, id, 2, 0, keys[1]), pubsub.ValidationReject},
		{"bad signature", pid1, tampered, pubsub.ValidationReject},
		{"another table", pid1, vote(t, other, 0, 1, keys[1]), pubsub.ValidationReject},
		{"peer without a seat", stranger, vote(t, id, 0, 1, strangerKey), pubsub.ValidationReject},
		{"no seat 7", pid1, vote(t, id, 0, 7, keys[1]), pubsub.ValidationReject},
		{"against no seat 7", pid1, vote(t, id, 7, 1, keys[1]), pubsub.ValidationReject},
		{"garbage with the vote tag", pid1, []byte{table.VoteTag, 1, 2, 3}, pubsub.ValidationReject},
		{"trailing byte", pid1, long, pubsub.ValidationReject},
		{"unknown vote version", pid1, append([]byte{table.VoteTag, 9}, vote(t, id, 0, 1, keys[1])[2:]...), pubsub.ValidationReject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tb.check(tc.from, tc.data); got != tc.want {
				t.Errorf("check = %v, want %v", got, tc.want)
			}
		})
	}
}

// presence signs a Presence of seat with key.
func presence(t *testing.T, id tablelog.TableID, seat uint8, key ed25519.PrivateKey) []byte {
	t.Helper()
	a := &table.Presence{Table: id, Seat: seat, Beat: 5, Head: 9}
	if err := a.Sign(key); err != nil {
		t.Fatal(err)
	}
	b, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A device's Presence passes the validator only from the device that
// holds the announced seat's key, for this table, strictly encoded: no
// device can keep another one looking alive.
func TestValidatorPresence(t *testing.T) {
	setup, keys, botKey := testSetup(t)
	r, err := newRoster(setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{id: setup.Table(), roster: r}
	pid0, _ := PeerIDOf(setup.Devices[0].ID)
	pid1, _ := PeerIDOf(setup.Devices[1].ID)
	id := setup.Table()
	other := id
	other[0] ^= 1
	tampered := presence(t, id, 1, keys[1])
	tampered[len(tampered)-1] ^= 1
	for _, tc := range []struct {
		name string
		from peer.ID
		data []byte
		want pubsub.ValidationResult
	}{
		{"own seat", pid1, presence(t, id, 1, keys[1]), pubsub.ValidationAccept},
		{"creator's seat", pid0, presence(t, id, 0, keys[0]), pubsub.ValidationAccept},
		{"another device's seat, relayed as its own", pid0, presence(t, id, 1, keys[1]), pubsub.ValidationReject},
		{"another device's seat, signed by this one", pid0, presence(t, id, 1, keys[0]), pubsub.ValidationReject},
		{"bot seat from another device", pid1, presence(t, id, 2, botKey), pubsub.ValidationReject},
		{"bad signature", pid1, tampered, pubsub.ValidationReject},
		{"another table", pid1, presence(t, other, 1, keys[1]), pubsub.ValidationReject},
		{"no seat 7", pid1, presence(t, id, 7, keys[1]), pubsub.ValidationReject},
		{"trailing byte", pid1, append(presence(t, id, 1, keys[1]), 0), pubsub.ValidationReject},
		{"garbage with the presence tag", pid1, []byte{table.PresenceTag, 1, 2}, pubsub.ValidationReject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tb.check(tc.from, tc.data); got != tc.want {
				t.Errorf("check = %v, want %v", got, tc.want)
			}
		})
	}
}
