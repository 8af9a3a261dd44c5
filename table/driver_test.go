package table

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// mapVault is a Vault in memory.
type mapVault struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (v *mapVault) Secret(name string) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	b, ok := v.m[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", tablelog.ErrNotFound, name)
	}
	return b, nil
}

func (v *mapVault) put(name string, b []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.m[name] = b
}

// chooseFunc chooses a Njet seat's action; tests steer the choices with
// it.
type chooseFunc func(seat int, v *engine.View, legal []engine.Action) engine.Action

// seatPlayer is the Njet player of one seat whose choices a chooseFunc
// makes.
type seatPlayer struct {
	seat   int
	choose chooseFunc
}

func (p seatPlayer) Name() string { return "test" }

func (p seatPlayer) Act(v *engine.View, legal []engine.Action) engine.Action {
	return p.choose(p.seat, v, legal)
}

// driver plays a table synchronously without a network: one Game and Log
// per seat (each knowing only its own seat's secrets) plus an observer, and
// every envelope goes to every log at once. Tests use it to inject cheats.
type driver struct {
	t       testing.TB
	sp      *Selfplay
	n       int
	seed    uint64
	games   []*Game // games[n] is the observer
	logs    []*tablelog.Log
	vaults  []*mapVault
	choose  []chooseFunc
	lenient []bool // seat's chooser may pick illegal actions
}

func newDriver(t testing.TB, e engine.Edition, players, rounds int, seed uint64) *driver {
	t.Helper()
	sp, err := newTestSelfplay(SelfplayConfig{Edition: e, Players: players, Rounds: rounds, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{t: t, sp: sp, n: players, seed: seed, lenient: make([]bool, players)}
	for s := 0; s <= players; s++ {
		cfg := GameConfig{Table: sp.table, Creator: sp.ids[0]}
		if s < players {
			v := &mapVault{m: map[string][]byte{}}
			d.vaults = append(d.vaults, v)
			cfg.Vault = v
			b := bot.NewRandom(rand.New(rand.NewPCG(seed, uint64(s))))
			d.choose = append(d.choose, func(_ int, v *engine.View, legal []engine.Action) engine.Action { return b.Act(v, legal) })
		}
		g := NewGame(cfg)
		l, err := tablelog.NewLog(tablelog.LogConfig{Table: sp.table, Protocol: g})
		if err != nil {
			t.Fatal(err)
		}
		d.games, d.logs = append(d.games, g), append(d.logs, l)
	}
	d.postAll(sp.genesis)
	return d
}

// observer is the game that holds no secrets.
func (d *driver) observer() *Game { return d.games[d.n] }

// turn is the seat and kind entitled next.
func (d *driver) turn() (int, tablelog.Kind, error) {
	next := d.logs[d.n].Next()
	t, err := d.observer().Entitled(next)
	if err != nil {
		return -1, 0, err
	}
	return int(t.Seat), t.Kinds[0], nil
}

// envelope drafts and signs what seat must post next, storing its secrets.
func (d *driver) envelope(seat int) *tablelog.Envelope {
	d.t.Helper()
	seq, prev := d.logs[seat].Head()
	var key [32]byte
	h := sha256.New()
	fmt.Fprintf(h, "driver %d %d", d.seed, seat)
	h.Write(binary.BigEndian.AppendUint64(nil, seq))
	h.Sum(key[:0])
	host := seat
	if h := d.observer().HostOf(seat); h >= 0 {
		host = h
	}
	g := d.games[host]
	g.mu.Lock()
	dr, err := g.draftLocked(seq, seat, rand.NewChaCha8(key),
		chooser{player: seatPlayer{seat: seat, choose: d.choose[host]}, strict: host != seat || !d.lenient[seat]})
	g.mu.Unlock()
	if err != nil {
		d.t.Fatalf("draft seq %d seat %d: %v", seq, seat, err)
	}
	for name, b := range dr.secrets {
		d.vaults[host].put(name, b)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
		Author: uint8(seat), Kind: dr.kind, Body: dr.body}
	if host != seat {
		b, err := d.vaults[host].Secret(botKeyName(seat))
		if err != nil {
			d.t.Fatal(err)
		}
		if err := env.Sign(ed25519.NewKeyFromSeed(b)); err != nil {
			d.t.Fatal(err)
		}
		return env
	}
	return d.sign(seat, env)
}

func (d *driver) sign(seat int, env *tablelog.Envelope) *tablelog.Envelope {
	d.t.Helper()
	if err := env.Sign(d.sp.keys[seat]); err != nil {
		d.t.Fatal(err)
	}
	return env
}

// postAll offers env to every log and returns each log's error.
func (d *driver) postAll(env *tablelog.Envelope) []error {
	errs := make([]error, len(d.logs))
	for i, l := range d.logs {
		_, errs[i] = l.Append(env)
	}
	return errs
}

// step posts the next envelope of the entitled seat; it reports false when
// nobody may post.
func (d *driver) step() bool {
	d.t.Helper()
	seat, _, err := d.turn()
	if err != nil {
		return false
	}
	for i, err := range d.postAll(d.envelope(seat)) {
		if err != nil {
			d.t.Fatalf("log %d refused seat %d's envelope: %v", i, seat, err)
		}
	}
	return true
}

// runUntil steps until stop says so (checked before each step); it fails
// the test if the game ends first.
func (d *driver) runUntil(stop func(seat int, kind tablelog.Kind) bool) {
	d.t.Helper()
	for range 5000 {
		seat, kind, err := d.turn()
		if err != nil {
			d.t.Fatalf("the game stopped before the cheat: %v", err)
		}
		if stop(seat, kind) {
			return
		}
		d.step()
	}
	d.t.Fatal("no end in sight")
}

// violations returns the violation each game (observer last) holds.
func (d *driver) violations() []*Violation {
	out := make([]*Violation, len(d.games))
	for i, g := range d.games {
		out[i] = g.Violation()
	}
	return out
}

// expectCaught checks that every game but the cheater's own names the
// cheater and one of the checks.
func (d *driver) expectCaught(cheater int, checks ...string) {
	d.t.Helper()
	for i, v := range d.violations() {
		if i == cheater {
			continue
		}
		if v == nil {
			d.t.Errorf("game %d did not catch the cheat", i)
			continue
		}
		ok := false
		for _, c := range checks {
			ok = ok || v.Check == c
		}
		if v.Seat != cheater || !ok || !errors.Is(v, ErrCheat) {
			d.t.Errorf("game %d: %v; want seat %d and a check in %q", i, v, cheater, checks)
		}
	}
}
