package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/seatkeys"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"

	"github.com/njetlan/njet/bot"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// fixture is a table of n seats and their keys.
type fixture struct {
	table tablelog.TableID
	privs []ed25519.PrivateKey
	ids   []tablelog.Identity
}

func newFixture(t testing.TB, n int) *fixture {
	t.Helper()
	privs, ids := seatkeys.New[tablelog.Identity](1, n)
	return &fixture{table: tablelog.TableID{0x4e, 0x6a, 0x65, 0x74}, privs: privs, ids: ids}
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
func storeBytes(t testing.TB, store *tablelog.Store, table tablelog.TableID) []byte {
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
