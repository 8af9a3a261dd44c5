package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// lossy is the network of the whole-game tests.
var lossy = tablelog.NetConfig{Drop: 0.1, Duplicate: 0.1, FetchFail: 0.1}

// selfplay runs a table to its end and returns the peers' outcomes.
func selfplay(t testing.TB, cfg SelfplayConfig) (*Selfplay, []Outcome) {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return sp, sp.Outcomes()
}

// agree checks that every peer ends with the same log, the same audited
// rounds and no violation.
func agree(t *testing.T, out []Outcome, rounds int) {
	t.Helper()
	for _, o := range out {
		if o.Violation != nil {
			t.Errorf("seat %d halted: %v", o.Seat, o.Violation)
		}
		if o.Head != out[0].Head || o.Next != out[0].Next {
			t.Errorf("seat %d ends at %d %v, seat 0 at %d %v", o.Seat, o.Next, o.Head, out[0].Next, out[0].Head)
		}
		if !reflect.DeepEqual(o.Results, out[0].Results) {
			t.Errorf("seat %d scored %+v, seat 0 %+v", o.Seat, o.Results, out[0].Results)
		}
	}
	if len(out[0].Results) != rounds {
		t.Errorf("%d rounds audited, want %d", len(out[0].Results), rounds)
	}
}

// Whole games for every edition and player count over a network that
// drops, duplicates and reorders: every peer ends with the same log and
// scores, and the export verifies.
func TestWholeGames(t *testing.T) {
	for _, tc := range []struct {
		e       engine.Edition
		players int
	}{
		{engine.Classic, 3}, {engine.Classic, 4},
		{engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5},
	} {
		t.Run(fmt.Sprintf("%s/players=%d", tc.e, tc.players), func(t *testing.T) {
			// The edition's whole game (R-END); -short plays two rounds.
			g, err := engine.NewGame(engine.Config{Edition: tc.e, Players: tc.players})
			if err != nil {
				t.Fatal(err)
			}
			rounds, limit := g.Rounds(), 0
			if testing.Short() {
				rounds, limit = 2, 2
			}
			sp, out := selfplay(t, SelfplayConfig{Edition: tc.e, Players: tc.players, Rounds: limit,
				Seed: uint64(tc.players) * 7, Net: lossy})
			agree(t, out, rounds)
			path := filepath.Join(t.TempDir(), "log")
			if _, err := sp.Export(tc.players-1, path); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			v, err := Verify(f)
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !v.Over || !reflect.DeepEqual(v.Results, out[0].Results) {
				t.Errorf("verify: over %v, results %+v", v.Over, v.Results)
			}
		})
	}
}

// A full game, to its last round by the edition's rules (R-END), on a
// perfect network.
func TestWholeGameToTheEnd(t *testing.T) {
	_, out := selfplay(t, SelfplayConfig{Edition: engine.Classic, Players: 3, Short: true, Seed: 5})
	agree(t, out, 3)
}

// Peers are stopped and restarted from their stores at seeded random
// points, some of them between storing their own envelope and publishing
// it. The table ends exactly as without the crashes: every draw is derived
// from the seeds and the seq, so the scores match a run without crashes.
func TestCrashRestart(t *testing.T) {
	runs := []struct {
		e       engine.Edition
		players int
		seed    uint64
	}{
		{engine.Modern, 4, 9}, {engine.Classic, 3, 10}, {engine.Modern, 5, 11},
		{engine.Classic, 4, 12}, {engine.Modern, 2, 13}, {engine.Modern, 3, 14},
	}
	if testing.Short() {
		runs = runs[:2]
	}
	for _, run := range runs {
		t.Run(fmt.Sprintf("%s/players=%d/seed=%d", run.e, run.players, run.seed), func(t *testing.T) {
			cfg := SelfplayConfig{Edition: run.e, Players: run.players, Rounds: 1, Seed: run.seed, Net: lossy}
			_, calm := selfplay(t, cfg)
			agree(t, calm, 1)
			rng := rand.New(rand.NewPCG(run.seed, 9))
			for i := range 6 {
				cfg.Crashes = append(cfg.Crashes, Crash{Seat: rng.IntN(run.players),
					AtSeq: 1 + rng.Uint64N(calm[0].Next-2), BeforePublish: i%2 == 1})
			}
			sp, out := selfplay(t, cfg)
			agree(t, out, 1)
			// A peer armed to die inside its next post may have posted its last
			// envelope already; the plain stops always happen.
			if sp.Restarts() < len(cfg.Crashes)/2 {
				t.Errorf("%d restarts, want at least %d", sp.Restarts(), len(cfg.Crashes)/2)
			}
			if !reflect.DeepEqual(out[0].Results, calm[0].Results) {
				t.Errorf("with crashes %+v, without %+v", out[0].Results, calm[0].Results)
			}
		})
	}
}

// njet verify rejects a log with any single byte changed: a dense sample of
// positions through the whole file, and every byte of the last envelope
// with the export digest made to match again (so the signature must catch it).
func TestVerifyRejectsAnyChangedByte(t *testing.T) {
	sp, _ := selfplay(t, SelfplayConfig{Edition: engine.Modern, Players: 2, Rounds: 1, Seed: 3})
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(bytes.NewReader(data)); err != nil {
		t.Fatalf("untouched export: %v", err)
	}
	changed := make([]byte, len(data))
	step := max(1, len(data)/600)
	for i := 0; i < len(data); i += step {
		copy(changed, data)
		changed[i] ^= 0x01
		if _, err := Verify(bytes.NewReader(changed)); err == nil {
			t.Fatalf("byte %d changed and the log verifies", i)
		}
	}
	_, envs, err := tablelog.ReadExport(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	last, err := envs[len(envs)-1].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for i := range last {
		e, err := tablelog.ParseEnvelope(append([]byte(nil), last...))
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := e.MarshalBinary()
		enc[i] ^= 0x01
		e2, err := tablelog.ParseEnvelope(enc)
		if err != nil {
			continue // the framing itself catches it
		}
		var buf bytes.Buffer
		if err := tablelog.WriteExport(&buf, append(envs[:len(envs)-1:len(envs)-1], e2)); err != nil {
			continue // the chain or the table id catches it
		}
		if _, err := Verify(&buf); err == nil {
			t.Fatalf("byte %d of the last envelope changed and the log verifies", i)
		}
	}
}

// A silent seat is reported as "waiting for seat X since T", with T from
// the injected clock.
func TestWaitingForSilentSeat(t *testing.T) {
	clock := time.Date(2026, 5, 1, 20, 15, 30, 0, time.UTC)
	_, p := waitingPeer(t, SelfplayConfig{Edition: engine.Classic, Players: 3, Seed: 4}, func() time.Time { return clock })
	want := "waiting for seat 1 (Ack) since 20:15:30"
	if got := p.View().Waiting(); got != want {
		t.Errorf("Waiting() = %q, want %q", got, want)
	}
}

func BenchmarkRound(b *testing.B) {
	for _, players := range []int{5} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			start := time.Now()
			for i := range b.N {
				_, out := selfplay(b, SelfplayConfig{Edition: engine.Modern, Players: players, Rounds: 1, Seed: uint64(i)})
				if len(out[0].Results) != 1 {
					b.Fatal("no round")
				}
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/round")
		})
	}
}

// badFirstShuffle makes a peer a cheater: its first shuffle swaps two
// cards of the deck, which its proof does not cover.
func badFirstShuffle(t *testing.T) func(*tablelog.Envelope, ed25519.PrivateKey) {
	cheated := false
	return func(env *tablelog.Envelope, key ed25519.PrivateKey) {
		if env.Kind != tablelog.KindShuffle || cheated {
			return
		}
		cheated = true
		var m crypto.ShuffleMessage
		if err := parseCrypto(tablelog.KindShuffle, env.Body, &m); err != nil {
			t.Error(err)
			return
		}
		m.Deck[0], m.Deck[1] = m.Deck[1], m.Deck[0]
		body, err := cryptoBody(&m)
		if err != nil {
			t.Error(err)
			return
		}
		env.Body = body
		if err := env.Sign(key); err != nil {
			t.Error(err)
		}
	}
}

// A device whose seat cheats with its own key — a bad shuffle, or at The
// Game a turn ended before its minimum — is caught by every other device
// over the network, at the same seq, and Verify names it the same. At a
// Njet table the others vote the round void, seat 0 hosts a bot in the
// cheater's seat and the game goes on to its end with the round dealt
// again; a cheat ends a table of The Game, and nobody posts after it.
func TestCheatOverTheNetwork(t *testing.T) {
	earlyEnd := func(d *draft) {
		if d.kind == tablelog.KindPlay {
			d.kind, d.body = tablelog.KindTurnEnd, emptyBody()
		}
	}
	for _, c := range []struct {
		name    string
		cfg     SelfplayConfig
		cheater int
		shuffle bool // the cheat is a bad shuffle; else the draft hook cheats
		alter   func(*draft)
		check   string
	}{
		{"Njet, a bad shuffle", SelfplayConfig{Edition: engine.Classic, Players: 4, Rounds: 1, Seed: 21, Dir: t.TempDir(), Net: lossy},
			2, true, nil, crypto.CheckShuffle.String()},
		{"The Game, a bad shuffle", theGameConfig(t, 3, true, 22), 2, true, nil, crypto.CheckShuffle.String()},
		{"The Game, a turn ended too soon", theGameConfig(t, 3, false, 21), 1, false, earlyEnd, CheckGameRules},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp, err := newTestSelfplay(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if c.shuffle {
				sp.tamper = map[int]func(*tablelog.Envelope, ed25519.PrivateKey){c.cheater: badFirstShuffle(t)}
			} else {
				sp.alter = map[int]func(*draft){c.cheater: c.alter}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := sp.Run(ctx); err != nil {
				t.Fatal(err)
			}
			var at uint64
			for seat, o := range sp.Outcomes() {
				v := namedBy(o)
				if seat == c.cheater && c.cfg.Game == GameTheGame {
					continue // its own table took what it posted
				}
				if v == nil || v.Seat != c.cheater || v.Check != c.check || !errors.Is(v, ErrCheat) {
					t.Fatalf("seat %d's table: %v, want seat %d named for the %q check", seat, v, c.cheater, c.check)
				}
				if at != 0 && v.Seq != at {
					t.Fatalf("seat %d named it at seq %d, another seat at %d", seat, v.Seq, at)
				}
				at = v.Seq
				if c.cfg.Game == GameTheGame && o.Next != at+1 {
					t.Fatalf("seat %d's log grew to %d after the cheat at %d", seat, o.Next, at)
				}
			}
			v, err := Verify(bytes.NewReader(seatExport(t, sp, 0)))
			switch c.cfg.Game {
			case GameNjet:
				agree(t, sp.Outcomes(), 1)
				if err != nil || !v.Over || len(v.Results) != 1 || v.Results[0].Deal != 2 || len(v.Voided) != 1 || v.Voided[0].Seat != c.cheater {
					t.Errorf("verified %+v: %v", v, err)
				}
				if h := replayObserver(t, writeTemp(t, seatExport(t, sp, 0))).HostOf(c.cheater); h < 0 {
					t.Errorf("the cheater's seat is played by its own device")
				}
			case GameTheGame:
				var vv *Violation
				if !errors.As(err, &vv) || vv.Seat != c.cheater || vv.Seq != at {
					t.Fatalf("Verify: %v, want the cheat at seq %d", err, at)
				}
			}
		})
	}
}

// A device that vanishes while the others vote on a cheat: the devices
// still there take its seat and the cheater's over in one VoidSilent and
// finish the game over the network with one log, which Verify accepts;
// the cheat is the only voided round.
func TestPeersVoteOnACheatWithoutAVanishedVoter(t *testing.T) {
	// The host cheats in the first shuffle (seq 8); seat 1, the first to
	// vote, is cut off inside that vote, before anyone receives it.
	const cheater, gone = 0, 1
	sp, err := newTestSelfplay(SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 1, Seed: 25, Dir: t.TempDir(), Net: lossy,
		VoidAfter: 20 * time.Second,
		// The cheater's device stays halted (its guard refuses the
		// takeover of its seat by a minority): it is cut off too once
		// the vote is under way, as a device the table no longer waits for.
		Silences: []Silence{{Seat: gone, AtSeq: 8, BeforePublish: true, Kind: tablelog.KindVoidVote}, {Seat: cheater, AtSeq: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	sp.tamper = map[int]func(*tablelog.Envelope, ed25519.PrivateKey){cheater: badFirstShuffle(t)}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	out := sp.Outcomes()
	if o := out[3]; o.Violation != nil || out[2].Violation != nil || o.Head != out[2].Head || o.Next != out[2].Next {
		t.Errorf("seats 2 and 3: violations %v, %v; they end at %d and %d", out[2].Violation, o.Violation, out[2].Next, o.Next)
	}
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(2, path); err != nil {
		t.Fatal(err)
	}
	v, err := verifyFile(path)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !v.Over || len(v.Results) != 1 || len(v.Voided) != 1 || v.Voided[0].Seat != cheater || errors.Is(v.Voided[0], ErrSilent) {
		t.Errorf("verified over %v, %d rounds, voided %v", v.Over, len(v.Results), v.Voided)
	}
	// The vote ended in a takeover, not in the BotSeat of a whole vote.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, envs, err := tablelog.ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[tablelog.Kind]int{}
	for _, e := range envs {
		kinds[e.Kind]++
	}
	if kinds[tablelog.KindVoidSilent] != 1 || kinds[tablelog.KindBotSeat] != 0 || kinds[tablelog.KindVoidVote] != 0 {
		t.Errorf("%d VoidSilent, %d BotSeat, %d VoidVote: want 1, 0, 0", kinds[tablelog.KindVoidSilent], kinds[tablelog.KindBotSeat], kinds[tablelog.KindVoidVote])
	}
}
