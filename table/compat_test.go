package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// The files in testdata/compat were written by the program as it stood
// before the protocol of both games became one core: exported logs of
// both games (takeovers, hand-backs, a cheat voted void, an abandoned
// game, withheld reveals) with what Verify said of each, and stores of a
// device in the middle of a game of each with the hand it held. They must
// read and verify the same for ever: a log, a store or a save written
// once stays good.
var writeCompat = flag.Bool("compat.write", false, "write the files of testdata/compat again (only with the code that first wrote them)")

const compatDir = "testdata/compat"

// compatSummary is what a test compares of a verified log.
type compatSummary struct {
	Table      string           `json:"table"`
	Envelopes  int              `json:"envelopes"`
	Over       bool             `json:"over"`
	Game       string           `json:"game"`
	Results    []compatRound    `json:"results,omitempty"`
	Voided     []compatFault    `json:"voided,omitempty"`
	Abandoned  *compatFault     `json:"abandoned,omitempty"`
	HandedBack []compatHandBack `json:"handedBack,omitempty"`
	Result     *compatOutcome   `json:"result,omitempty"`
	Unverified *compatFault     `json:"unverified,omitempty"`
	Claimed    *compatOutcome   `json:"claimed,omitempty"`
	Err        string           `json:"err,omitempty"`
}

type compatRound struct {
	Round  int   `json:"round"`
	Deal   int   `json:"deal"`
	Dealer int   `json:"dealer"`
	Points []int `json:"points"`
	Totals []int `json:"totals"`
}

type compatFault struct {
	Seq   uint64 `json:"seq"`
	Seat  int    `json:"seat"`
	Check string `json:"check"`
	Cheat bool   `json:"cheat"`
}

type compatHandBack struct {
	Seq  uint64 `json:"seq"`
	Seat int    `json:"seat"`
	Key  string `json:"key"`
}

type compatOutcome struct {
	CardsLeft int    `json:"cardsLeft"`
	Won       bool   `json:"won"`
	Broken    string `json:"broken"`
	Turns     int    `json:"turns"`
}

// compatStore is what a test compares of a stored game: the table, the
// length of its log and the hand of the device's seat.
type compatStore struct {
	Table string   `json:"table"`
	Next  uint64   `json:"next"`
	Seat  int      `json:"seat"`
	Key   string   `json:"key"`
	Hand  []string `json:"hand"`
}

func faultOf(v *Violation) *compatFault {
	if v == nil {
		return nil
	}
	return &compatFault{Seq: v.Seq, Seat: v.Seat, Check: v.Check, Cheat: errors.Is(v, ErrCheat)}
}

func outcomeOf(r *TheGameResult) *compatOutcome {
	if r == nil {
		return nil
	}
	return &compatOutcome{CardsLeft: r.Result.CardsLeft, Won: r.Result.Won, Broken: r.Result.Broken.String(), Turns: r.Turns}
}

// summarize verifies an export file and returns what compatSummary keeps.
func summarize(t *testing.T, file []byte) compatSummary {
	t.Helper()
	v, err := Verify(bytes.NewReader(file))
	if v == nil {
		t.Fatalf("verify: %v", err)
	}
	s := compatSummary{Table: hex.EncodeToString(v.Table[:]), Envelopes: v.Envelopes, Over: v.Over}
	if v.Genesis != nil {
		s.Game = v.Genesis.Game.String()
	}
	if err != nil {
		s.Err = err.Error()
	}
	for _, r := range v.Results {
		s.Results = append(s.Results, compatRound{Round: r.Round, Deal: int(r.Deal), Dealer: r.Dealer, Points: r.Points, Totals: r.Totals})
	}
	for _, x := range v.Voided {
		s.Voided = append(s.Voided, *faultOf(x))
	}
	s.Abandoned = faultOf(v.Abandoned)
	for _, h := range v.HandedBack {
		s.HandedBack = append(s.HandedBack, compatHandBack{Seq: h.Seq, Seat: h.Seat, Key: hex.EncodeToString(h.Key[:])})
	}
	s.Result, s.Claimed, s.Unverified = outcomeOf(v.TheGame), outcomeOf(v.Claimed), faultOf(v.Unverified)
	return s
}

// TestCompatLogs verifies every exported log of testdata/compat and
// compares the outcome with what the program that wrote it said.
func TestCompatLogs(t *testing.T) {
	if *writeCompat {
		writeCompatFiles(t)
	}
	files, err := filepath.Glob(filepath.Join(compatDir, "*.export"))
	if err != nil || len(files) < 6 {
		t.Fatalf("%d export files in %s: %v", len(files), compatDir, err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".export")
		t.Run(name, func(t *testing.T) {
			file, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want compatSummary
			readJSON(t, strings.TrimSuffix(path, ".export")+".want.json", &want)
			got := summarize(t, file)
			if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
				t.Errorf("verified\n%s\nwant\n%s", g, w)
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(compatDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(compatDir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeExport writes an export and the summary of its verification.
func writeExport(t *testing.T, name string, file []byte, check func(s compatSummary) error) {
	t.Helper()
	s := summarize(t, file)
	if err := check(s); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, mustJSON(t, s))
	}
	writeFile(t, name+".export", file)
	writeFile(t, name+".want.json", []byte(mustJSON(t, s)+"\n"))
}

func storeFileExport(t *testing.T, path string, table tablelog.TableID) []byte {
	t.Helper()
	st, err := tablelog.OpenStore(path, &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b bytes.Buffer
	if err := st.Export(&b, table); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// exportOf is the export file of envs.
func exportOf(t *testing.T, envs []*tablelog.Envelope) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := tablelog.WriteExport(&buf, envs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func hasKinds(s compatSummary, file []byte, kinds ...tablelog.Kind) error {
	_, envs, err := tablelog.ReadExport(bytes.NewReader(file))
	if err != nil {
		return err
	}
	for _, k := range kinds {
		if !slices.ContainsFunc(envs, func(e *tablelog.Envelope) bool { return e.Kind == k }) {
			return fmt.Errorf("no %v in the log", k)
		}
	}
	if s.Err != "" {
		return fmt.Errorf("verify: %s", s.Err)
	}
	return nil
}

// writeCompatFiles plays the games of testdata/compat and writes them.
func writeCompatFiles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()

	// A cheat voted void: a bad shuffle, two votes, a bot in its seat.
	d := newDriver(t, engine.Modern, 3, 2, 19)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == 1 })
	env := d.envelope(1)
	var m crypto.ShuffleMessage
	if err := parseCrypto(tablelog.KindShuffle, env.Body, &m); err != nil {
		t.Fatal(err)
	}
	m.Deck[3], m.Deck[4] = m.Deck[4], m.Deck[3]
	var err error
	if env.Body, err = cryptoBody(&m); err != nil {
		t.Fatal(err)
	}
	d.postAll(d.sign(1, env))
	for d.step() {
	}
	obs := d.logs[d.n]
	file := exportOf(t, obs.Range(0, obs.Next()))
	writeExport(t, "njet-cheat-botseat", file, func(s compatSummary) error {
		return hasKinds(s, file, tablelog.KindVoidVote, tablelog.KindBotSeat)
	})

	// A device gone, taken over, back again and handed its seat back.
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: 93, Net: lossy, VoidAfter: 20 * time.Second}
	ref := referenceLog(t, cfg)
	seq, _ := stepSeq(t, ref, 0, 2, tablelog.KindBlock)
	cfg.Silences = []Silence{{Seat: 2, AtSeq: seq - 1, ReturnAt: seq + 40}}
	cfg.Dir = t.TempDir()
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	file = storeFileExport(t, filepath.Join(cfg.Dir, "seat-0.db"), sp.Table())
	writeExport(t, "njet-takeover-handback", file, func(s compatSummary) error {
		return hasKinds(s, file, tablelog.KindVoidSilent, tablelog.KindSeatClaim)
	})

	// A two-seat game abandoned for the other seat's silence.
	cfg = SelfplayConfig{Edition: engine.Modern, Players: 2, Rounds: 2, Seed: 31, Net: lossy, VoidAfter: 20 * time.Second}
	ref = referenceLog(t, cfg)
	seq, _ = stepSeq(t, ref, 0, 1, tablelog.KindPlay)
	cfg.Silences = []Silence{{Seat: 1, AtSeq: seq - 1}}
	cfg.Dir = t.TempDir()
	if sp, err = newTestSelfplay(cfg); err != nil {
		t.Fatal(err)
	}
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	file = storeFileExport(t, filepath.Join(cfg.Dir, "seat-0.db"), sp.Table())
	writeExport(t, "njet-abandon", file, func(s compatSummary) error {
		return hasKinds(s, file, tablelog.KindAbandon)
	})

	// A seat silent at its reveal: a withheld reveal, the round dealt again.
	cfg = SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 2, Seed: 61, Net: lossy, VoidAfter: 20 * time.Second}
	ref = referenceLog(t, cfg)
	seq, seat := stepSeq(t, ref, 0, -1, tablelog.KindReveal)
	if next := ref[seq+1]; next.Kind == tablelog.KindReveal {
		seq, seat = next.Seq, int(next.Author)
	}
	arm := seq
	for arm > 0 && (int(ref[arm-1].Author) != seat || ref[arm-1].Kind != tablelog.KindReveal) {
		arm--
	}
	cfg.Silences = []Silence{{Seat: seat, AtSeq: arm, BeforePublish: true, Kind: tablelog.KindReveal}}
	cfg.Dir = t.TempDir()
	if sp, err = newTestSelfplay(cfg); err != nil {
		t.Fatal(err)
	}
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	file = storeFileExport(t, filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db", (seat+1)%4)), sp.Table())
	writeExport(t, "njet-withheld", file, func(s compatSummary) error {
		if !slices.ContainsFunc(s.Voided, func(f compatFault) bool { return f.Check == CheckWithheld }) {
			return errors.New("no withheld reveal")
		}
		return hasKinds(s, file, tablelog.KindVoidSilent)
	})

	// The Game: a device gone at its own turn, taken over, back again and
	// handed its seat back.
	leave := Leave{Seat: 1, ReturnAt: 1, When: playing(func(v thegame.View) bool {
		return v.Phase == thegame.PhasePlay && v.Turn == 1
	})}
	tc := theGameConfig(t, 3, false, 2101)
	tc.Leaves, tc.Net = []Leave{leave}, tablelog.NetConfig{Duplicate: 0.02}
	file = runExport(t, ctx, tc)
	writeExport(t, "thegame-takeover-handback", file, func(s compatSummary) error {
		return hasKinds(s, file, tablelog.KindVoidSilent, tablelog.KindSeatClaim)
	})

	// The Game Extreme at two seats, one device gone in the play.
	tc = theGameConfig(t, 2, true, 17)
	tc.Leaves = []Leave{{Seat: 1, When: playing(func(v thegame.View) bool { return v.Turn == 0 })}}
	tc.Net = tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
	file = runExport(t, ctx, tc)
	writeExport(t, "thegame-extreme-takeover", file, func(s compatSummary) error {
		return hasKinds(s, file, tablelog.KindVoidSilent)
	})

	// The Game at three seats, a reveal withheld after the play.
	tc = theGameConfig(t, 3, false, 901)
	tc.Leaves, tc.Net = []Leave{{Seat: 2, AtReveal: true}}, tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
	file = runExport(t, ctx, tc)
	writeExport(t, "thegame-withheld", file, func(s compatSummary) error {
		if s.Unverified == nil || s.Unverified.Check != CheckWithheld {
			return errors.New("no withheld reveal")
		}
		return hasKinds(s, file, tablelog.KindVoidSilent)
	})

	// The Game alone, to its end.
	file = runExport(t, ctx, theGameConfig(t, 1, true, 3))
	writeExport(t, "thegame-solo", file, func(s compatSummary) error { return hasKinds(s, file, tablelog.KindReveal) })

	writeCompatStores(t, ctx)
}

// runExport plays cfg to its end and returns seat 0's export.
func runExport(t *testing.T, ctx context.Context, cfg SelfplayConfig) []byte {
	t.Helper()
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return seatExport(t, sp, 0)
}

// errStop ends a selfplay where a compat store is taken.
var errStop = errors.New("stop here")

// writeCompatStores stops a game of each kind in its play and keeps the
// store of seat 0, with its key and the hand a peer replaying it holds.
func writeCompatStores(t *testing.T, ctx context.Context) {
	// Njet: stopped in the tricks of the first round.
	cfg := SelfplayConfig{Edition: engine.Classic, Players: 3, Rounds: 2, Seed: 7, Dir: t.TempDir()}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	go func() {
		for rctx.Err() == nil {
			time.Sleep(time.Millisecond)
			if p := sp.Peer(0); p != nil {
				if v := p.View(); v.Game.Phase == engine.PhaseTricks && len(v.Game.Tricks) == 1 {
					cancel()
				}
			}
		}
	}()
	if err := sp.Run(rctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v", err)
	}
	cancel()
	copyStore(t, filepath.Join(cfg.Dir, "seat-0.db"), "njet-seat0.store")
	s := compatStore{Table: sp.Table().String(), Seat: 0, Key: hex.EncodeToString(sp.SeatKey(0).Seed())}
	p, closeAll := compatPeer(t, "njet-seat0.store", sp.Table(), sp.Creator(), 0, sp.SeatKey(0))
	s.Next = p.Log().Next()
	for _, c := range p.View().Game.Hand.Cards(cfg.Edition) {
		s.Hand = append(s.Hand, c.String())
	}
	closeAll()
	if len(s.Hand) == 0 {
		t.Fatal("no hand in the stored Njet game")
	}
	writeFile(t, "njet-seat0.want.json", []byte(mustJSON(t, s)+"\n"))

	// The Game: stopped at seat 0's turn after a few turns.
	tc := theGameConfig(t, 3, true, 11)
	tc.Watch = func(seat int, p *Peer) error {
		if v := p.Game().TheGame().View(0); seat == 0 && v.Phase == thegame.PhasePlay && v.Turns >= 4 {
			return errStop
		}
		return nil
	}
	tg, err := newTestSelfplay(tc)
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Run(ctx); !errors.Is(err, errStop) {
		t.Fatalf("run: %v", err)
	}
	copyStore(t, filepath.Join(tc.Dir, "seat-0.db"), "thegame-seat0.store")
	key := tg.keys[0]
	ts := compatStore{Table: tg.Table().String(), Seat: 0, Key: hex.EncodeToString(key.Seed())}
	tp, closeAll := compatPeer(t, "thegame-seat0.store", tg.Table(), tg.ids[0], 0, key)
	ts.Next = tp.Log().Next()
	for _, c := range tp.Game().TheGame().View(0).Hand {
		ts.Hand = append(ts.Hand, fmt.Sprint(int(c)))
	}
	closeAll()
	if len(ts.Hand) == 0 {
		t.Fatal("no hand in the stored game of The Game")
	}
	writeFile(t, "thegame-seat0.want.json", []byte(mustJSON(t, ts)+"\n"))
}

func copyStore(t *testing.T, from, name string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, name, b)
}

// openCompatStore opens a copy of a store of testdata/compat and a
// MemNetwork endpoint for a peer over it; closeAll closes both.
func openCompatStore(t *testing.T, name string, table tablelog.TableID, key ed25519.PrivateKey) (*tablelog.Store, tablelog.Transport, func()) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(compatDir, name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := tablelog.OpenStore(path, &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	net, err := tablelog.NewMemNetwork(table, rand.New(rand.NewPCG(1, 2)), tablelog.NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := tablelog.IdentityOf(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	ep, err := net.Join(context.Background(), id, st)
	if err != nil {
		t.Fatal(err)
	}
	return st, ep, func() { ep.Close(); st.Close() }
}

func compatPeer(t *testing.T, name string, table tablelog.TableID, creator tablelog.Identity, seat int, key ed25519.PrivateKey) (*Peer, func()) {
	t.Helper()
	st, ep, closeAll := openCompatStore(t, name, table, key)
	p, err := NewPeer(PeerConfig{Table: table, Creator: creator, Seat: seat, Key: key, Store: st, Transport: ep,
		Bot: "random", NewPlayer: testPlayers})
	if err != nil {
		t.Fatal(err)
	}
	return p, closeAll
}

// TestCompatStores replays the stores of testdata/compat, each a device's
// store in the middle of a game, with a peer of its seat: the log and the
// seat's secrets read as they were written, so the peer holds the same
// hand.
func TestCompatStores(t *testing.T) {
	for _, name := range []string{"njet-seat0", "thegame-seat0"} {
		t.Run(name, func(t *testing.T) {
			var want compatStore
			readJSON(t, filepath.Join(compatDir, name+".want.json"), &want)
			id, err := hex.DecodeString(want.Table)
			seed, kerr := hex.DecodeString(want.Key)
			if err != nil || kerr != nil || len(id) != 32 || len(seed) != ed25519.SeedSize {
				t.Fatalf("bad table %q or key %q", want.Table, want.Key)
			}
			var table tablelog.TableID
			copy(table[:], id)
			key := ed25519.NewKeyFromSeed(seed)
			st, _, closeStore := openCompatStore(t, name+".store", table, key)
			envs, err := st.Envelopes(table, 0, 1)
			closeStore()
			if err != nil || len(envs) != 1 {
				t.Fatalf("no genesis: %v", err)
			}
			gen, err := ParseGenesis(envs[0].Body)
			if err != nil {
				t.Fatal(err)
			}
			var got compatStore
			got = compatStore{Table: want.Table, Seat: want.Seat, Key: want.Key}
			p, closeAll := compatPeer(t, name+".store", table, gen.Keys[0], want.Seat, key)
			defer closeAll()
			got.Next = p.Log().Next()
			if gen.Game == GameTheGame {
				for _, c := range p.Game().TheGame().View(want.Seat).Hand {
					got.Hand = append(got.Hand, fmt.Sprint(int(c)))
				}
			} else {
				for _, c := range p.View().Game.Hand.Cards(gen.Edition) {
					got.Hand = append(got.Hand, c.String())
				}
			}
			if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
				t.Errorf("replayed\n%s\nwant\n%s", g, w)
			}
		})
	}
}
