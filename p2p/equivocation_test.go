package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/internal/forge"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// R-LOG-7 over libp2p: the device of seat 1 signs its first envelope of a
// kind a second time (another signature of the same fields) and publishes
// both on the table's topic, so that devices take one or the other. Every
// device ends with one identical log, which names seat 1 for the
// equivocation on every device and in Verify; no honest seat is played by
// a bot, named silent or a cheat. In the Njet phase, during tricks, at
// the reveal, and at The Game during play, at three, four and five seats.
func TestEquivocationOverLibp2p(t *testing.T) {
	everyAttack(t, equivocateOverLibp2p)
}

// everyAttack runs attack at three, four and five seats in each place an
// equivocation is played: the Njet phase, a trick, the reveal and The
// Game's play.
func everyAttack(t *testing.T, attack func(t *testing.T, game table.GameName, kind tablelog.Kind, n int)) {
	for _, c := range []struct {
		name string
		game table.GameName
		kind tablelog.Kind
	}{
		{"njet phase", table.GameNjet, tablelog.KindBlock},
		{"trick", table.GameNjet, tablelog.KindPlay},
		{"reveal", table.GameNjet, tablelog.KindReveal},
		{"thegame play", table.GameTheGame, tablelog.KindPlay},
	} {
		for _, n := range []int{3, 4, 5} {
			t.Run(fmt.Sprintf("%s/players=%d", c.name, n), func(t *testing.T) {
				attack(t, c.game, c.kind, n)
			})
		}
	}
}

func equivocateOverLibp2p(t *testing.T, game table.GameName, kind tablelog.Kind, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	const cheater = 1
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
	setup, genesis, bot, g := oneRoundTable(t, game, nodes)
	peers := make([]*table.Peer, n)
	stores := make([]*tablelog.Store, n)
	errs := make([]error, n)
	var cheat *Endpoint
	logf := func(string, ...any) {}
	if testing.Verbose() {
		logf = t.Logf
	}
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
		if i == cheater {
			// A second endpoint of the cheater's device, through which it
			// publishes its second envelope.
			if cheat, err = tbl.Transport(); err != nil {
				t.Fatal(err)
			}
		}
		tick, poll := time.NewTicker(100*time.Millisecond), time.NewTicker(50*time.Millisecond)
		t.Cleanup(tick.Stop)
		t.Cleanup(poll.Stop)
		var first *tablelog.Envelope
		if i == 0 {
			first = genesis
		}
		peers[i], err = table.NewPeer(table.PeerConfig{Table: setup.Table(), Creator: ids[0], Genesis: first,
			Seat: i, Key: nd.Key(), Store: stores[i], Transport: ep, Peers: tbl.Members(i), Tick: tick.C,
			Poll: poll.C, Bot: bot, NewPlayer: g.NewPlayer, Logf: logf})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = peers[i].Run(runCtx)
		}()
	}
	// The cheater's second envelope: as soon as its log holds its first
	// envelope of the kind, the same fields signed again, published.
	rng := rand.NewChaCha8([32]byte{byte(n), byte(kind)})
	equivocated := false
	for !equivocated {
		for _, env := range peers[cheater].Log().Range(0, peers[cheater].Log().Next()) {
			if env.Kind != kind || int(env.Author) != cheater {
				continue
			}
			msg, err := env.SignedBytes()
			if err != nil {
				t.Fatal(err)
			}
			twin := env.Clone()
			if twin.Signature, err = forge.Sign(nodes[cheater].Key(), msg, rng); err != nil {
				t.Fatal(err)
			}
			b, err := twin.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if err := cheat.Publish(ctx, b); err != nil {
				t.Fatal(err)
			}
			equivocated = true
			break
		}
		if !equivocated {
			select {
			case <-ctx.Done():
				t.Fatalf("seat %d never posted a %v: %v", cheater, kind, ctx.Err())
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	awaitEvidence(t, ctx, peers, cheater)
	stop()
	wg.Wait()
	checkEvidence(t, peers, stores, setup, errs, cheater)
}

// equivocatorNamed reports whether vs names seat cheater for an
// equivocation.
func equivocatorNamed(vs []*table.Violation, cheater int) bool {
	return slices.ContainsFunc(vs, func(v *table.Violation) bool { return v.Seat == cheater && v.Check == table.CheckEquivocal })
}

// namedBy is what p's game holds against seats: the rounds voided and the
// violation pending.
func namedBy(p *table.Peer) []*table.Violation {
	all := p.Game().Voided()
	if v := p.Game().Violation(); v != nil {
		all = append(all, v)
	}
	return all
}

// awaitEvidence waits until every device is done, on one log that names
// the cheater (a device that finished the game before the second
// envelope reached it acts on it then).
func awaitEvidence(t *testing.T, ctx context.Context, peers []*table.Peer, cheater int) {
	t.Helper()
	for settled := false; !settled; {
		_, head := peers[0].Log().Head()
		settled = equivocatorNamed(namedBy(peers[0]), cheater)
		for _, p := range peers {
			_, h := p.Log().Head()
			settled = settled && p.Done() && h == head
		}
		if !settled {
			select {
			case <-ctx.Done():
				for i, p := range peers {
					next, h := p.Log().Head()
					t.Logf("device %d: %d %v done %v, named %v", i, next, h, p.Done(), namedBy(p))
				}
				t.Fatalf("the devices did not settle on one log: %v", ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// checkEvidence checks the end of a table where seat cheater equivocated:
// every device ran without error, names the cheater and no honest seat,
// plays every honest seat with its own device, and holds the same log,
// which Verify accepts naming the cheater and nobody else.
func checkEvidence(t *testing.T, peers []*table.Peer, stores []*tablelog.Store, setup *Setup, errs []error, cheater int) {
	t.Helper()
	n := len(peers)
	var exports [][]byte
	for i, p := range peers {
		if errs[i] != nil {
			t.Errorf("device %d: %v", i, errs[i])
		}
		all := namedBy(p)
		if !equivocatorNamed(all, cheater) {
			t.Errorf("device %d does not name seat %d: %v", i, cheater, all)
		}
		for _, v := range all {
			if v.Seat != cheater {
				t.Errorf("device %d names honest seat %d: %v", i, v.Seat, v)
			}
		}
		for s := range n {
			if s != cheater && p.Game().HostOf(s) >= 0 {
				t.Errorf("device %d: honest seat %d is played by a bot of seat %d", i, s, p.Game().HostOf(s))
			}
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
	all := v.Voided
	var viol *table.Violation
	if errors.As(err, &viol) {
		all = append(all, viol)
	} else if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !equivocatorNamed(all, cheater) {
		t.Errorf("Verify does not name seat %d: %v, %v", cheater, v.Voided, err)
	}
	for _, x := range all {
		if x.Seat != cheater {
			t.Errorf("Verify names honest seat %d: %v", x.Seat, x)
		}
	}
}

// oneRoundTable is the genesis and setup of a table of nodes playing game
// (Njet: Modern, one round), every seat a bot of the kind returned, and
// the game's registry entry.
func oneRoundTable(t *testing.T, game table.GameName, nodes []*Node) (*Setup, *tablelog.Envelope, string, *games.Game) {
	t.Helper()
	n := len(nodes)
	ids := make([]tablelog.Identity, n)
	for i, nd := range nodes {
		var err error
		if ids[i], err = tablelog.IdentityOf(nd.Key().Public().(ed25519.PublicKey)); err != nil {
			t.Fatal(err)
		}
	}
	gen := &table.Genesis{Game: game, Keys: ids}
	bot := "coop"
	if game == table.GameNjet {
		gen = &table.Genesis{Edition: engine.Modern, Characters: engine.Modern.Characters()[:n], Rounds: 1, Keys: ids}
		bot = "random"
	}
	body, err := gen.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	genesis := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := genesis.Sign(nodes[0].Key()); err != nil {
		t.Fatal(err)
	}
	setup := &Setup{Genesis: genesis}
	for i, nd := range nodes {
		setup.Devices = append(setup.Devices, Device{ID: ids[i], Addrs: nd.Host().Addrs()})
	}
	if _, err := setup.Check(); err != nil {
		t.Fatal(err)
	}
	g, err := games.ByName(game)
	if err != nil {
		t.Fatal(err)
	}
	return setup, genesis, bot, g
}
