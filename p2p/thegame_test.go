package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// TestTheGameLoopback plays a table of The Game Extreme on three devices
// over libp2p on loopback, each seat a coop bot: every device ends with
// the same log, which Verify accepts.
func TestTheGameLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	const n = 3
	var nodes []*Node
	var ids []tablelog.Identity
	for range n {
		nd := newTestNode(t)
		id, err := tablelog.IdentityOf(nd.Key().Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		nodes, ids = append(nodes, nd), append(ids, id)
	}
	gen := &table.Genesis{Game: table.GameTheGame, Extreme: true, Commands: thegame.AssignmentVersion, Keys: ids}
	body, err := gen.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := env.Sign(nodes[0].Key()); err != nil {
		t.Fatal(err)
	}
	setup := &Setup{Genesis: env}
	for i, nd := range nodes {
		setup.Devices = append(setup.Devices, Device{ID: ids[i], Addrs: nd.Host().Addrs()})
	}
	if _, err := setup.Check(); err != nil {
		t.Fatal(err)
	}
	peers := make([]*table.Peer, n)
	g, err := games.ByName(table.GameTheGame)
	if err != nil {
		t.Fatal(err)
	}
	stores := make([]*tablelog.Store, n)
	errs := make([]error, n)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for i, nd := range nodes {
		stores[i] = openTestStore(t, t.TempDir())
		tbl, err := nd.JoinTable(TableConfig{Setup: setup, Server: stores[i]})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tbl.Close() })
		ep, err := tbl.Transport()
		if err != nil {
			t.Fatal(err)
		}
		tick := time.NewTicker(100 * time.Millisecond)
		t.Cleanup(tick.Stop)
		var genesis *tablelog.Envelope
		if i == 0 {
			genesis = env
		}
		peers[i], err = table.NewPeer(table.PeerConfig{Table: setup.Table(), Creator: ids[0], Genesis: genesis,
			Seat: i, Key: nd.Key(), Store: stores[i], Transport: ep, Peers: tbl.Members(i), Tick: tick.C,
			Bot: "coop", NewPlayer: g.NewPlayer})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = peers[i].Run(runCtx)
		}()
	}
	for done := false; !done; {
		done = true
		for _, p := range peers {
			done = done && p.Done()
		}
		if !done {
			select {
			case <-ctx.Done():
				t.Fatalf("the game did not end: %v", ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	// Every device has the whole log once the last one has it.
	for synced := false; !synced; {
		synced = true
		for _, p := range peers {
			synced = synced && p.Log().Next() == peers[0].Log().Next()
		}
		if !synced {
			select {
			case <-ctx.Done():
				t.Fatalf("the logs did not converge: %v", ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	stop()
	wg.Wait()
	var exports [][]byte
	for i, p := range peers {
		if errs[i] != nil {
			t.Errorf("device %d: %v", i, errs[i])
		}
		if v := p.Game().Violation(); v != nil {
			t.Fatalf("device %d halted: %v", i, v)
		}
		var b bytes.Buffer
		if err := stores[i].Export(&b, setup.Table()); err != nil {
			t.Fatal(err)
		}
		exports = append(exports, b.Bytes())
	}
	for i := 1; i < n; i++ {
		if !bytes.Equal(exports[i], exports[0]) {
			t.Fatalf("device %d's log differs from device 0's", i)
		}
	}
	v, err := table.Verify(bytes.NewReader(exports[0]))
	if err != nil || v.TheGame == nil {
		t.Fatalf("Verify: %v (result %v)", err, v.TheGame)
	}
	t.Logf("%d envelopes, %d cards left", v.Envelopes, v.TheGame.Result.CardsLeft)
}

// TestTheGameAdvert: a table of The Game advertises the game and its
// variant in place of an edition, reads back the same, and is refused
// with a seat count The Game does not have.
func TestTheGameAdvert(t *testing.T) {
	id, err := peer.Decode("12D3KooWD6CxAPVs3QHpizWhCXfR4AC5EbFuBemT1uWxFFAuqsEw")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		players int
		extreme bool
	}{{1, false}, {3, true}, {5, false}} {
		variant := "base"
		if c.extreme {
			variant = "extreme"
		}
		a := TableAd{Name: "G", Game: table.GameTheGame, Variant: variant, Players: c.players, Free: 0, Peer: id}
		b, err := parseAd(a.txt(), nil, 4001)
		if err != nil || !sameAd(a, b) {
			t.Errorf("%+v reads back as %+v, %v", a, b, err)
		}
	}
	bad := TableAd{Name: "G", Game: table.GameTheGame, Variant: "base", Players: 6, Peer: id}
	if _, err := parseAd(bad.txt(), nil, 4001); err == nil {
		t.Error("an advert of The Game for 6 players was read")
	}
}
