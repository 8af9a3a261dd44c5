package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/thegame"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/bot"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// seatKeys makes n deterministic seat keys from seed.
func seatKeys(t testing.TB, seed uint64, n int) ([]ed25519.PrivateKey, []Identity) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x6e6a6574))
	privs := make([]ed25519.PrivateKey, n)
	ids := make([]Identity, n)
	for i := range n {
		var s [ed25519.SeedSize]byte
		for j := range s {
			s[j] = byte(rng.Uint32())
		}
		privs[i] = ed25519.NewKeyFromSeed(s[:])
		id, err := IdentityOf(privs[i].Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	return privs, ids
}

// roundRobin is a toy protocol: seat 0 posts the genesis, then the posters
// take turns with Play (or Ack) envelopes until limit; a body starting with
// "bad" is refused.
type roundRobin struct {
	seats   []Identity
	posters []uint8
	limit   uint64

	mu      sync.Mutex
	applied int
}

func (p *roundRobin) Entitled(seq uint64) (Turn, error) {
	if seq >= p.limit {
		return Turn{}, fmt.Errorf("the game is over at %d", p.limit)
	}
	if seq == 0 {
		return Turn{Seat: 0, Key: p.seats[0], Kinds: []Kind{KindGenesis}}, nil
	}
	s := p.posters[(seq-1)%uint64(len(p.posters))]
	return Turn{Seat: s, Key: p.seats[s], Kinds: []Kind{KindPlay, KindAck}}, nil
}

func (p *roundRobin) Apply(env *Envelope) error {
	if len(env.Body) >= 3 && string(env.Body[:3]) == "bad" {
		return fmt.Errorf("body refused")
	}
	p.mu.Lock()
	p.applied++
	p.mu.Unlock()
	return nil
}

// seal builds and signs an envelope.
func seal(t testing.TB, priv ed25519.PrivateKey, table TableID, seq uint64, prev Hash, author uint8, kind Kind, body string) *Envelope {
	t.Helper()
	e := &Envelope{Version: EnvelopeVersion, Table: table, Seq: seq, Prev: prev, Author: author, Kind: kind, Body: []byte(body)}
	if err := e.Sign(priv); err != nil {
		t.Fatal(err)
	}
	return e
}

// fixture is a table of n seats with a round-robin protocol.
type fixture struct {
	table TableID
	privs []ed25519.PrivateKey
	ids   []Identity
	proto *roundRobin
}

func newFixture(t testing.TB, n int, limit uint64) *fixture {
	t.Helper()
	privs, ids := seatKeys(t, 1, n)
	posters := make([]uint8, n)
	for i := range posters {
		posters[i] = uint8(i)
	}
	return &fixture{
		table: TableID{0x4e, 0x6a, 0x65, 0x74},
		privs: privs,
		ids:   ids,
		proto: &roundRobin{seats: ids, posters: posters, limit: limit},
	}
}

func (f *fixture) newLog(t testing.TB) *Log {
	t.Helper()
	l, err := NewLog(LogConfig{Table: f.table, Protocol: &roundRobin{seats: f.proto.seats, posters: f.proto.posters, limit: f.proto.limit}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// seatAt returns the seat entitled at seq.
func (f *fixture) seatAt(seq uint64) uint8 {
	turn, _ := f.proto.Entitled(seq)
	return turn.Seat
}

// chain builds a valid log of n envelopes.
func (f *fixture) chain(t testing.TB, n int) []*Envelope {
	t.Helper()
	var out []*Envelope
	var prev Hash
	for seq := range uint64(n) {
		kind := KindPlay
		if seq == 0 {
			kind = KindGenesis
		}
		s := f.seatAt(seq)
		e := seal(t, f.privs[s], f.table, seq, prev, s, kind, fmt.Sprintf("body %d", seq))
		prev = e.Hash()
		out = append(out, e)
	}
	return out
}

// testPlayers makes the players of both games as a registry of games
// does: a Njet bot of package bot, or a bot of The Game.
func testPlayers(kind string, rng *rand.Rand) (Player, error) {
	if p, err := bot.New(kind, rng); err == nil {
		return p, nil
	}
	return tgbot.New(kind, true)
}

// newTestSelfplay is NewSelfplay with the test players and each game's
// usual bot when cfg names none.
func newTestSelfplay(cfg SelfplayConfig) (*Selfplay, error) {
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = testPlayers
	}
	if cfg.Bot == "" {
		cfg.Bot = "random"
		if cfg.Game == GameTheGame {
			cfg.Bot = "coop"
		}
	}
	return NewSelfplay(cfg)
}

// theGameConfig is a table of The Game of coop bots whose devices are
// taken over ten seconds after they fall silent.
func theGameConfig(t testing.TB, players int, extreme bool, seed uint64) SelfplayConfig {
	return SelfplayConfig{Game: GameTheGame, Players: players, Extreme: extreme, Seed: seed, Dir: t.TempDir(),
		VoidAfter: 10 * time.Second}
}

// seatExport returns the export of seat's log after a selfplay's Run.
func seatExport(t testing.TB, s *Selfplay, seat int) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("seat-%d.export", seat))
	if _, err := s.Export(seat, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// peerList returns the seats' peers as they run now (a device that comes
// back gets a new one; a device gone has none).
func (s *Selfplay) peerList() []*Peer {
	out := make([]*Peer, s.cfg.Players)
	for seat := range out {
		out[seat] = s.Peer(seat)
	}
	return out
}

// writeTemp writes b to a file of its own and returns its path.
func writeTemp(t testing.TB, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// storeBytes returns the export of table's log in store.
func storeBytes(t testing.TB, store *Store, table TableID) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := store.Export(&b, table); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// theGameKeysName names the stored round secrets of a hosted seat of The
// Game in round r.
func theGameKeysName(r uint64, seat int) string { return (&TheGame{}).keysName(r, seat) }

// njetConfig is a table of Njet (Modern) of random bots whose devices are
// taken over twenty seconds after they fall silent.
func njetConfig(t testing.TB, players, rounds int, seed uint64) SelfplayConfig {
	return SelfplayConfig{Edition: engine.Modern, Players: players, Rounds: rounds, Seed: seed, Dir: t.TempDir(),
		VoidAfter: 20 * time.Second}
}

// runTable plays cfg to its end (the deadline only stops a hung test)
// and returns the selfplay.
func runTable(t *testing.T, cfg SelfplayConfig) *Selfplay {
	t.Helper()
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

// sameLog checks that the seats of present all end with one log and
// returns its export.
func sameLog(t *testing.T, s *Selfplay, present []int) []byte {
	t.Helper()
	var first []byte
	for _, seat := range present {
		x := seatExport(t, s, seat)
		if first == nil {
			first = x
		} else if !bytes.Equal(x, first) {
			t.Fatalf("seat %d's log differs from seat %d's", seat, present[0])
		}
	}
	return first
}

// seatsBut lists the seats of a table of n but those of gone.
func seatsBut(n int, gone ...int) []int {
	var out []int
	for s := range n {
		if !slices.Contains(gone, s) {
			out = append(out, s)
		}
	}
	return out
}

// leaveLeaks counts the cards seat's peer knows, or shows in a view, that
// belong to a hand its device does not play: its own seat's, or a bot
// seat it hosts after a takeover.
func leaveLeaks(t *testing.T, g *Game, seat int) int {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	tg, ok := g.rules.(*TheGame)
	if !ok {
		return 0
	}
	mine := func(s int) bool { return s >= 0 && g.peerOf(s) == seat }
	leaks := 0
	for p, c := range tg.known {
		if !tg.played[p] && !mine(tg.holder[p]) {
			t.Errorf("seat %d's peer knows card %s at position %d of seat %d", seat, c, p, tg.holder[p])
			leaks++
		}
	}
	for s := range g.n {
		v := tg.view(s)
		if len(v.Hand) > 0 && !mine(s) {
			t.Errorf("the view of seat %d on seat %d's peer holds %v", s, seat, v.Hand)
			leaks++
		}
		if len(v.Hand) > 0 && len(v.Hand) != v.HandSizes[s] {
			t.Errorf("the view of seat %d holds %d cards, its hand %d", s, len(v.Hand), v.HandSizes[s])
			leaks++
		}
	}
	return leaks
}

// playing returns a When that holds once the play has begun and pred
// holds of the public view.
func playing(pred func(v thegame.View) bool) func(g *Game) bool {
	return func(g *Game) bool {
		v := g.TheGame().View(0)
		return (v.Phase == thegame.PhasePlay || v.Phase == thegame.PhaseDraw) && v.Turns >= 3 && pred(v)
	}
}

// standings records, every fifth of a second while ctx lasts, where each
// device of sp stands; the function it returns logs the last record, for
// the diagnosis of a table that did not finish.
func standings(ctx context.Context, sp *Selfplay) func(t *testing.T) {
	var mu sync.Mutex
	last := make([]string, sp.cfg.Players)
	go func() {
		for ctx.Err() == nil {
			time.Sleep(200 * time.Millisecond)
			for seat := range sp.cfg.Players {
				p := sp.Peer(seat)
				if p == nil {
					continue
				}
				v := p.View()
				next, head := p.Log().Head()
				turn, err := p.Game().Entitled(next)
				line := fmt.Sprintf("seat %d: log at %d (%x), entitled %d %v (%v), present %v, away %v, votes %d, bot host %d, voided %v, violation %v, catching up %v, done %v, clock %v",
					seat, next, head[:4], turn.Seat, turn.Kinds, err, v.Present, v.Away, v.Votes, v.BotHost, v.Voided, v.Violation, v.CatchingUp, p.Done(), sp.now())
				mu.Lock()
				last[seat] = line
				mu.Unlock()
			}
		}
	}()
	return func(t *testing.T) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		for _, l := range last {
			t.Log(l)
		}
	}
}
