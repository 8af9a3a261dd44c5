package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/table"
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
	var ids []table.Identity
	for range n {
		nd := newTestNode(t)
		id, err := table.IdentityOf(nd.Key().Public().(ed25519.PublicKey))
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
	env := &table.Envelope{Version: table.EnvelopeVersion, Table: table.TableIDOf(body), Kind: table.KindGenesis, Body: body}
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
	peers := make([]*table.TheGamePeer, n)
	stores := make([]*table.Store, n)
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
		var genesis *table.Envelope
		if i == 0 {
			genesis = env
		}
		peers[i], err = table.NewTheGamePeer(table.TheGamePeerConfig{Table: setup.Table(), Creator: ids[0], Genesis: genesis,
			Seat: i, Key: nd.Key(), Store: stores[i], Transport: ep, Peers: tbl.Members(i), Tick: tick.C})
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
