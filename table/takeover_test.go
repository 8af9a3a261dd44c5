package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// referenceLog plays a table of bots without any loss and returns its
// log: with the same seed, a table that loses a device plays exactly the
// same envelopes up to the loss, so the reference says at which seq each
// step comes.
func referenceLog(t *testing.T, cfg SelfplayConfig) []*tablelog.Envelope {
	t.Helper()
	cfg.Dir = t.TempDir()
	cfg.Silences, cfg.Absent = nil, nil
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := tablelog.OpenStore(filepath.Join(cfg.Dir, "seat-0.db"), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	next, err := st.Next(sp.Table())
	if err != nil {
		t.Fatal(err)
	}
	envs, err := st.Envelopes(sp.Table(), 0, next)
	if err != nil {
		t.Fatal(err)
	}
	return envs
}

// stepSeq returns the first seq, from seq from on, whose envelope has one
// of kinds (any seat when seat < 0).
func stepSeq(t *testing.T, envs []*tablelog.Envelope, from uint64, seat int, kinds ...tablelog.Kind) (uint64, int) {
	t.Helper()
	for _, env := range envs[from:] {
		if slices.Contains(kinds, env.Kind) && (seat < 0 || int(env.Author) == seat) {
			return env.Seq, int(env.Author)
		}
	}
	t.Fatalf("no %v by seat %d from seq %d in the reference log", kinds, seat, from)
	return 0, 0
}

// lossGame plays cfg to its end and checks what the devices still there
// end with, at a table of any game: the same log, the game over with its
// result (Njet: every round scored; The Game: an audited result), every
// gone seat (and only those) played by a bot hosted by a device still
// there, no view ever holding a card of a hand its device does not play,
// and an export that Verify accepts. It returns the verification.
func lossGame(t *testing.T, cfg SelfplayConfig, gone []int) *Verification {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if testing.Verbose() {
		cfg.Logf = t.Logf
	}
	// The views are checked whenever a log grows (as the run sees it)
	// and before each envelope a device posts (which no load can skip).
	var mu sync.Mutex
	leaks := 0
	check := func(seat int, p *Peer) {
		mu.Lock()
		defer mu.Unlock()
		leaks += leaveLeaks(t, p.Game(), seat)
		leaks += escrowLeaks(t, p.Game(), seat)
	}
	watch, posting := cfg.Watch, cfg.Posting
	cfg.Watch = func(seat int, p *Peer) error {
		check(seat, p)
		if watch != nil {
			return watch(seat, p)
		}
		return nil
	}
	cfg.Posting = func(seat int, p *Peer) {
		check(seat, p)
		if posting != nil {
			posting(seat, p)
		}
	}
	sp := runTable(t, cfg)
	mu.Lock()
	defer mu.Unlock()
	if leaks != 0 {
		t.Errorf("%d cards in views of hands the device does not play", leaks)
	}
	out := sp.Outcomes()
	var here []Outcome
	for seat := range cfg.Players {
		if !slices.Contains(gone, seat) {
			here = append(here, out[seat])
		}
	}
	for _, o := range here {
		if o.Violation != nil {
			t.Errorf("seat %d halted: %v", o.Seat, o.Violation)
		}
		if o.Head != here[0].Head || o.Next != here[0].Next {
			t.Errorf("seat %d ends at %d %v, seat %d at %d %v", o.Seat, o.Next, o.Head, here[0].Seat, here[0].Next, here[0].Head)
		}
		if o.BotHost != -1 {
			t.Errorf("seat %d, still there, is played by a bot of seat %d", o.Seat, o.BotHost)
		}
	}
	path := writeTemp(t, seatExport(t, sp, here[0].Seat))
	v, err := verifyFile(path)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	switch {
	case !v.Over:
		t.Errorf("verified a game not over")
	case cfg.Game == GameNjet && len(v.Results) != max(cfg.Rounds, 1):
		t.Errorf("verified %d rounds, want %d", len(v.Results), max(cfg.Rounds, 1))
	case cfg.Game == GameTheGame && v.TheGame == nil:
		t.Errorf("verified no audited result of The Game")
	}
	var voided []int
	for _, x := range v.Voided {
		if !errors.Is(x, ErrSilent) && !errors.Is(x, ErrWithheld) {
			t.Errorf("voided for a cheat: %v", x)
		}
		voided = append(voided, x.Seat)
	}
	for _, r := range v.Recovered {
		voided = append(voided, r.Seat)
	}
	if len(voided) == 0 {
		t.Errorf("no takeover recorded")
	}
	for _, s := range voided {
		if !slices.Contains(gone, s) {
			t.Errorf("seat %d, still there, was voided", s)
		}
	}
	obs := replayObserver(t, path)
	for _, s := range gone {
		if h := obs.HostOf(s); h < 0 || slices.Contains(gone, h) {
			t.Errorf("gone seat %d is hosted by %d", s, h)
		}
	}
	return v
}

// replayObserver replays an export into an observer game.
func replayObserver(t *testing.T, path string) *Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, envs, err := tablelog.ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := ParseGenesis(envs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	obs := NewGame(GameConfig{Table: id, Creator: gen.Keys[0]})
	l, err := tablelog.NewLog(tablelog.LogConfig{Table: id, Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range envs {
		if _, err := l.Append(env); err != nil {
			t.Fatal(err)
		}
	}
	return obs
}

// A device that vanishes for good at any step of the game — its
// acknowledgement, key setup, shuffle, deal, Njet phase, team choice,
// discard or pass, tricks, reveal, or between two rounds — is taken over
// by the devices still there: before the tricks the round is voided and
// dealt again without its keys, during the tricks and at the reveal its
// cards are recovered from its escrow and the round goes on; a bot hosted
// by the lowest voter plays its seat, and every remaining device ends
// with the same log, which Verify accepts.
func TestDeviceGoneAtEveryStep(t *testing.T) {
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 2, Seed: 61, Net: lossy, VoidAfter: 20 * time.Second}
	ref := referenceLog(t, cfg)
	// The first envelope of the second round: the key setup after the
	// first round's last reveal.
	var second uint64
	reveals := 0
	for _, env := range ref {
		if env.Kind == tablelog.KindReveal {
			if reveals++; reveals == cfg.Players {
				second = env.Seq + 1
				break
			}
		}
	}
	for _, tc := range []struct {
		name  string
		kinds []tablelog.Kind
		from  uint64
	}{
		{"key setup", []tablelog.Kind{tablelog.KindRoundKey}, 0},
		{"shuffle", []tablelog.Kind{tablelog.KindShuffle}, 0},
		{"deal", []tablelog.Kind{tablelog.KindDealTokens}, 0},
		{"Njet phase", []tablelog.Kind{tablelog.KindBlock}, 0},
		{"team choice", []tablelog.Kind{tablelog.KindTeam}, 0},
		{"discard or pass", []tablelog.Kind{tablelog.KindDiscardCommit, tablelog.KindPassCommit}, 0},
		{"tricks", []tablelog.Kind{tablelog.KindPlay}, 0},
		{"reveal", []tablelog.Kind{tablelog.KindReveal}, 0},
		{"between rounds", []tablelog.Kind{tablelog.KindRoundKey}, second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The seat that posts the step's second envelope (or the
			// first, for a step with one), so that the step is under way.
			seq, seat := stepSeq(t, ref, tc.from, -1, tc.kinds...)
			if next := ref[seq+1]; slices.Contains(tc.kinds, next.Kind) {
				seq, seat = next.Seq, int(next.Author)
			}
			c := cfg
			// Armed right after the seat's previous envelope of the same
			// kind, the cut comes inside its post at seq.
			arm := seq
			for arm > 0 && (int(ref[arm-1].Author) != seat || ref[arm-1].Kind != ref[seq].Kind) {
				arm--
			}
			c.Silences = []Silence{{Seat: seat, AtSeq: arm, BeforePublish: true, Kind: ref[seq].Kind}}
			v := lossGame(t, c, []int{seat})
			// During the tricks and at the reveal the seat's escrow keeps
			// the round: a recovery, neither a void nor a withheld
			// reveal (a loaded machine may make another seat slow enough
			// to be taken over too, which voids the round as before).
			if (tc.name == "reveal" || tc.name == "tricks") && !slices.ContainsFunc(v.Recovered, func(r Recovery) bool {
				return r.Seat == seat
			}) && !slices.ContainsFunc(v.Voided, func(x *Violation) bool { return x.Seat != seat }) {
				t.Errorf("silent at the %s: recovered %v, voided %v", tc.name, v.Recovered, v.Voided)
			}
			// A device cut off is gone, not refusing: never a withheld
			// reveal (a cheat).
			if slices.ContainsFunc(v.Voided, func(x *Violation) bool { return x.Check == CheckWithheld }) {
				t.Errorf("gone at the %s, recorded as a withheld reveal: %v", tc.name, v.Voided)
			}
		})
	}
	t.Run("acknowledgement", func(t *testing.T) {
		c := cfg
		c.Absent = []int{2}
		v := lossGame(t, c, []int{2})
		if v.Results[0].Deal != 1 {
			t.Errorf("the first deal was %d: a takeover before any deal voids none", v.Results[0].Deal)
		}
	})
	// The same at a table of The Game, where a takeover deals the cards
	// not yet played again from the public position.
	for i, tc := range []struct {
		name    string
		players int
		extreme bool
		leave   Leave
	}{
		{"The Game/shuffle", 3, true, Leave{Seat: 1, AtSeq: 7}},
		{"The Game/deal", 3, false, Leave{Seat: 2, AtSeq: 10}},
		{"The Game/acknowledgement", 4, false, Leave{Seat: 2, AtSeq: 1}},
		{"The Game/two seats", 2, true, Leave{Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Turn == 1 // seat 0 posts in it the tokens of seat 1's draw
		})}},
		{"The Game/own turn", 3, true, Leave{Seat: 1, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhasePlay && v.Turn == 1
		})}},
		{"The Game/another's turn", 4, false, Leave{Seat: 3, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhaseDraw && v.Turn == 1 // seat 3 posts the tokens of seat 1's draw
		})}},
		{"The Game/draw", 3, true, Leave{Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhaseDraw && v.Turn == 2
		})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := theGameConfig(t, tc.players, tc.extreme, uint64(500+i))
			c.Leaves, c.Net = []Leave{tc.leave}, tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
			lossGame(t, c, []int{tc.leave.Seat})
		})
	}
}

// The host (seat 0, the creator), two devices of five at once, a device
// hosting a bot, and all devices but one: the devices still there decide
// with the votes they have, the lowest voter decides, and every seat
// without a vote goes to its bot.
func TestDevicesGoneTogether(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		seed    uint64
		kind    tablelog.Kind
		gone    [][]int // seats that vanish together, group by group
	}{
		{"the host", 4, 71, tablelog.KindShuffle, [][]int{{0}}},
		{"two of five at once", 5, 72, tablelog.KindBlock, [][]int{{1, 3}}},
		{"the host and another at once", 5, 73, tablelog.KindPlay, [][]int{{0, 4}}},
		{"a device hosting a bot", 4, 74, tablelog.KindBlock, [][]int{{2}, {0}}},
		{"all but one", 3, 75, tablelog.KindPlay, [][]int{{1, 2}}},
		{"one by one to the last", 4, 76, tablelog.KindBlock, [][]int{{3}, {0}, {1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := SelfplayConfig{Edition: engine.Modern, Players: tc.players, Rounds: 2, Seed: tc.seed, Net: lossy,
				VoidAfter: 20 * time.Second}
			ref := referenceLog(t, cfg)
			var all []int
			from := uint64(0)
			for _, group := range tc.gone {
				seq, _ := stepSeq(t, ref, from, group[0], tc.kind, tablelog.KindPlay)
				for _, s := range group {
					cfg.Silences = append(cfg.Silences, Silence{Seat: s, AtSeq: seq})
				}
				all = append(all, group...)
				// The next group goes a round later (the table has
				// redealt by then, so the reference log no longer says
				// exactly when; any step of that round serves).
				from = seq + uint64(len(ref))/4
				from = min(from, uint64(len(ref))-1)
			}
			v := lossGame(t, cfg, all)
			if len(v.Voided) != len(tc.gone) {
				t.Errorf("%d takeovers, want %d: %v", len(v.Voided), len(tc.gone), v.Voided)
			}
		})
	}
	// The same at tables of The Game.
	for i, tc := range []struct {
		name    string
		players int
		extreme bool
		leaves  []Leave
	}{
		{"The Game/two of five", 5, true, []Leave{{Seat: 1, AtSeq: 40}, {Seat: 3, AtSeq: 40}}},
		{"The Game/all but one", 5, false, []Leave{{Seat: 0, AtSeq: 30}, {Seat: 1, AtSeq: 30}, {Seat: 3, AtSeq: 30}, {Seat: 4, AtSeq: 30}}},
		{"The Game/one after the other", 4, true, []Leave{{Seat: 2, AtSeq: 25}, {Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Turns >= 8
		})}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.players == 5 && tc.name != "The Game/two of five" {
				t.Log("one five-seat table of The Game is enough with -short")
				return
			}
			c := theGameConfig(t, tc.players, tc.extreme, uint64(510+i))
			c.Leaves, c.Net = tc.leaves, tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
			var gone []int
			for _, l := range tc.leaves {
				gone = append(gone, l.Seat)
			}
			lossGame(t, c, gone)
		})
	}
}

// The certificate of a takeover is checked by every log: a device takes
// all its seats with it, so a voter whose host did not vote, or a seat
// taken over whose host voted, is refused; the decider must be the
// lowest voter; every other seat without a vote is taken over in the same
// envelope.
func TestTakeoverCertificate(t *testing.T) {
	const silent = 2
	d := newDriver(t, engine.Classic, 4, 1, 81)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindBlock && seat == silent })
	all := votesAgainst(t, d, d.logs[d.n], silent) // seats 0, 1, 3
	for _, tc := range []struct {
		name   string
		author int
		votes  []*SilenceVote
		want   error
	}{
		{"decided by a seat without a vote", 3, all[:2], ErrVote},
		{"decided by the silent seat", silent, all, tablelog.ErrNotEntitled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := voidEnvelope(t, d, tc.author, silent, tc.votes)
			expectLogErr(t, d.postAll(env), tc.want)
		})
	}
	// One vote is a quorum when it is all the table has: seat 1 alone
	// takes seats 0, 2 and 3 over.
	env := voidEnvelope(t, d, 1, silent, all[1:2])
	d.mustPost(env)
	obs := d.observer()
	for _, s := range []int{0, 2, 3} {
		if h := obs.HostOf(s); h != 1 {
			t.Errorf("seat %d hosted by %d, want 1", s, h)
		}
	}
	if h := obs.HostOf(1); h != -1 {
		t.Errorf("the voter's seat hosted by %d", h)
	}
}

// The order between two takeovers at one seq (two deciders that did not
// hear of each other): more voters first, then the lower voters.
func TestCompareVoids(t *testing.T) {
	mk := func(voters ...uint8) *voidSilent {
		vs := &voidSilent{}
		for _, v := range voters {
			vs.votes = append(vs.votes, &SilenceVote{Voter: v})
		}
		return vs
	}
	for _, tc := range []struct {
		a, b *voidSilent
		want int
	}{
		{mk(0, 1, 3), mk(1, 3), -1},
		{mk(1, 3), mk(0, 1, 3), 1},
		{mk(0, 3), mk(1, 3), -1},
		{mk(1, 2), mk(0, 4), 1},
		{mk(0, 1), mk(0, 1), 0},
	} {
		t.Run(fmt.Sprint(tc.a.voters(), tc.b.voters()), func(t *testing.T) {
			if got := compareVoids(tc.a, tc.b); got*tc.want <= 0 && got != tc.want {
				t.Errorf("compare %v with %v: %d, want the sign of %d", tc.a.voters(), tc.b.voters(), got, tc.want)
			}
		})
	}
}

// A device cut off from the others, not gone, at a table of either game:
// both sides go on. The other devices together take its seat over; alone,
// it votes them out of its own log. When it comes back, the branches are
// compared at the first seq where they differ: the takeover with more
// votes wins, so the lone device drops its branch, follows the table and
// watches its seat played by the table's bot (or gets it back). Every log
// ends the same.
func TestPartitionedDeviceFollowsTheHeavierBranch(t *testing.T) {
	for _, game := range []struct {
		name string
		cut  int
		cfg  func(t *testing.T) SelfplayConfig
		// The device is cut inside its first post of kind from seq from
		// on: it holds an envelope nobody else has.
		kind tablelog.Kind
		from uint64
	}{
		{"Njet, in the Njet phase", 3, func(t *testing.T) SelfplayConfig {
			return SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 2, Seed: 91, Net: lossy, VoidAfter: 20 * time.Second}
		}, tablelog.KindBlock, 0},
		{"The Game, in the play", 2, func(t *testing.T) SelfplayConfig {
			cfg := theGameConfig(t, 3, false, 95)
			cfg.Net, cfg.VoidAfter = lossy, 20*time.Second
			return cfg
		}, tablelog.KindPlay, 20},
	} {
		t.Run(game.name, func(t *testing.T) {
			cut := game.cut
			lines := &logLines{}
			cfg := game.cfg(t)
			cfg.Logf = func(f string, a ...any) {
				lines.logf(f, a...)
				if testing.Verbose() && !strings.Contains(f, "range") && !strings.Contains(f, "rejected seq") {
					t.Logf(f, a...)
				}
			}
			ref := referenceLog(t, cfg)
			seq, _ := stepSeq(t, ref, game.from, cut, game.kind)
			cfg.Silences = []Silence{{Seat: cut, AtSeq: seq - 2, ReturnAt: seq + 60, BeforePublish: true, Kind: game.kind}}
			cfg.Dir = t.TempDir()
			sp, err := newTestSelfplay(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()

			if err := sp.Run(ctx); err != nil {
				t.Fatal(err)
			}
			out := sp.Outcomes()
			for _, o := range out {
				if o.Head != out[0].Head || o.Next != out[0].Next {
					t.Errorf("seat %d ends at %d %v, seat 0 at %d %v", o.Seat, o.Next, o.Head, out[0].Next, out[0].Head)
				}
			}
			if lines.count("went on without this device") == 0 {
				t.Errorf("the cut device never compared its branch with the table's")
			}
			if n := lines.count(fmt.Sprintf("seat %d votes to void the round", cut)); n == 0 {
				t.Logf("the cut device did not vote on its own side (the clock moved too little)")
			}
			path := filepath.Join(t.TempDir(), "log")
			if _, err := sp.Export(cut, path); err != nil {
				t.Fatal(err)
			}
			v, err := verifyFile(path)
			if err != nil || !v.Over {
				t.Fatalf("verify: %v", err)
			}
			// The table's bot plays the cut seat, or the device, back at the
			// table, claimed its seat and got it back at a deal.
			back := len(v.HandedBack) == 1 && v.HandedBack[0].Seat == cut && v.HandedBack[0].Key == sp.ids[cut]
			if out[cut].BotHost != 0 && !(out[cut].BotHost == -1 && back) {
				t.Errorf("the cut seat is hosted by %d (handed back %+v), want 0 or its own device", out[cut].BotHost, v.HandedBack)
			}
		})
	}
}

// A device cut off longer than the patience takes the other seats over in
// its own log and deals them again, storing round keys (and Njet's
// choices) for seats it hosts only there, at a table of either game.
// When it comes back — before it finished alone, or once both sides have
// finished their games (then it finds the other branch by asking the
// members for the end of their logs) — it follows the heavier branch, and
// the rewind drops those secrets with its envelopes: the table's branch
// reuses the same round numbers, and a stale secret for a seat it does not
// host there would fail the hosted key check and halt it. It ends with the
// table's log, which Verify accepts, its seat played by the table's bot,
// and its store replays without a violation after a restart; no device on
// the heavier side rewinds, and no view ever holds a card of a hand its
// device does not play.
func TestPartitionedDeviceTakesOverAloneThenFollows(t *testing.T) {
	// njet cuts a Njet device inside its post of kind: back 40 seqs after
	// the cut, before it could finish the game alone (a finished game
	// asks nobody for more, but a member's log: probe).
	njet := func(cut int, kind tablelog.Kind, seed uint64) func(t *testing.T) SelfplayConfig {
		return func(t *testing.T) SelfplayConfig {
			cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 3, Seed: seed, Net: lossy, VoidAfter: 20 * time.Second}
			ref := referenceLog(t, cfg)
			seq, _ := stepSeq(t, ref, 0, cut, kind)
			cfg.Silences = []Silence{{Seat: cut, AtSeq: seq - 2, ReturnAt: seq + 40, BeforePublish: true, Kind: kind, Alone: true}}
			return cfg
		}
	}
	// theGame cuts a device of The Game at seq at; returnAt 0 brings it
	// back only once the others are done, when both sides have finished
	// their games and the device finds the other branch by asking.
	theGame := func(players int, extreme bool, seed uint64, cut int, at, returnAt uint64) func(t *testing.T) SelfplayConfig {
		return func(t *testing.T) SelfplayConfig {
			cfg := theGameConfig(t, players, extreme, seed)
			if returnAt == 0 {
				returnAt = 1 << 30
			}
			cfg.Net = tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
			cfg.Silences = []Silence{{Seat: cut, AtSeq: at, ReturnAt: returnAt, Alone: true}}
			return cfg
		}
	}
	cases := []struct {
		name string
		cut  int
		cfg  func(t *testing.T) SelfplayConfig
	}{
		{"Njet phase, last seat", 3, njet(3, tablelog.KindBlock, 91)},
		{"tricks, middle seat", 1, njet(1, tablelog.KindPlay, 17)},
		{"The Game, three seats", 2, theGame(3, false, 900, 2, 40, 90)},
		{"The Game Extreme, five seats", 1, theGame(5, true, 901, 1, 60, 120)},
		{"The Game Extreme, both games over first", 1, theGame(3, true, 902, 1, 40, 0)},
		{"The Game, five seats, both games over first", 3, theGame(5, false, 903, 3, 60, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && strings.Contains(c.name, "five") {
				t.Log("the smaller tables are enough with -short")
				return
			}
			lines := &logLines{}
			cfg := c.cfg(t)
			cfg.Logf, cfg.Dir = lines.logf, t.TempDir()
			leaks := 0
			cfg.Watch = func(seat int, p *Peer) error {
				leaks += leaveLeaks(t, p.Game(), seat)
				return nil
			}
			sp, err := newTestSelfplay(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := sp.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if leaks != 0 {
				t.Errorf("%d cards in views of hands the device does not play", leaks)
			}
			out := sp.Outcomes()
			for _, o := range out {
				if o.Head != out[0].Head || o.Next != out[0].Next || o.Violation != nil {
					t.Errorf("seat %d ends at %d %v (violation %v), seat 0 at %d %v",
						o.Seat, o.Next, o.Head, o.Violation, out[0].Next, out[0].Head)
				}
			}

			if n := lines.count(fmt.Sprintf("seat %d votes to void the round", c.cut)); n == 0 {
				t.Errorf("the cut device never voted the others out on its own")
			}
			if k, end := droppedRange(lines, c.cut); end < k+10 {
				t.Errorf("the cut device dropped [%d, %d): it did not play on alone after its takeover", k, end)
			}
			for seat := range cfg.Players {
				if n := lines.count(fmt.Sprintf("seat %d: the table went on without this device", seat)); seat != c.cut && n != 0 {
					t.Errorf("seat %d, on the heavier side, rewound %d times", seat, n)
				}
			}
			path := filepath.Join(t.TempDir(), "log")
			if _, err := sp.Export(c.cut, path); err != nil {
				t.Fatal(err)
			}
			v, err := verifyFile(path)
			if err != nil || !v.Over {
				t.Fatalf("verify: %v", err)
			}
			// The table's bot plays the cut seat, or the device, back at
			// the table, claimed its seat and got it back.
			back := len(v.HandedBack) > 0 && v.HandedBack[0].Seat == c.cut && v.HandedBack[0].Key == sp.ids[c.cut]
			if out[c.cut].BotHost < 0 && !back {
				t.Errorf("the cut seat %d plays its own seat on the table's branch, not handed back", c.cut)
			}
			// A restart replays the store through a game that reads the
			// stored secrets: none of the dropped branch may be left.
			st, err := tablelog.OpenStore(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db", c.cut)), &tablelog.StoreOptions{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			game := NewGame(GameConfig{Table: sp.Table(), Creator: sp.ids[0], Vault: StoreVault{st, sp.Table()}})
			l, err := tablelog.NewLog(tablelog.LogConfig{Table: sp.Table(), Protocol: game})
			if err != nil {
				t.Fatal(err)
			}
			next, err := st.Next(sp.Table())
			if err != nil {
				t.Fatal(err)
			}
			envs, err := st.Envelopes(sp.Table(), 0, next)
			if err != nil {
				t.Fatal(err)
			}
			for _, env := range envs {
				if _, err := l.Append(env); err != nil {
					t.Fatalf("replay seq %d: %v", env.Seq, err)
				}
			}
			if v := game.Violation(); v != nil || !game.Over() {
				t.Errorf("the restarted store replays to violation %v, over %v", v, game.Over())
			}
		})
	}
}

// droppedRange returns the seqs [k, end) that seat's device dropped when it
// gave way to the table's branch (the first time), or zeros.
func droppedRange(lines *logLines, seat int) (uint64, uint64) {
	lines.mu.Lock()
	defer lines.mu.Unlock()
	prefix := fmt.Sprintf("table: seat %d: the table went on without this device", seat)
	for _, line := range lines.lines {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		var k, end uint64
		if i := strings.LastIndex(line, "["); i >= 0 {
			if _, err := fmt.Sscanf(line[i:], "[%d, %d)", &k, &end); err == nil {
				return k, end
			}
		}
	}
	return 0, 0
}

// TestVerifyForgedTakeover: Verify refuses a takeover whose certificate
// does not hold, at a table of any game: each forged VoidSilent replaces
// the real one, signed by the real decider.
func TestVerifyForgedTakeover(t *testing.T) {
	for _, game := range []struct {
		name string
		cfg  SelfplayConfig
	}{
		{"Njet", SelfplayConfig{Edition: engine.Classic, Players: 4, Rounds: 1, Seed: 77, Dir: t.TempDir(), VoidAfter: 10 * time.Second}},
		{"The Game", theGameConfig(t, 4, false, 77)},
	} {
		t.Run(game.name, func(t *testing.T) {
			cfg := game.cfg
			cfg.Leaves = []Leave{{Seat: 3, AtSeq: 30}}
			s, err := newTestSelfplay(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := s.Run(ctx); err != nil {
				t.Fatal(err)
			}
			x := seatExport(t, s, 0)
			_, envs, err := tablelog.ReadExport(bytes.NewReader(x))
			if err != nil {
				t.Fatal(err)
			}
			k := -1
			for i, e := range envs {
				if e.Kind == tablelog.KindVoidSilent {
					k = i
					break
				}
			}
			if k < 0 {
				t.Fatal("no takeover in the log")
			}
			real := envs[k]
			vs, err := parseVoidSilent(real.Body)
			if err != nil {
				t.Fatal(err)
			}
			vote := func(voter, silent int, seq uint64) *SilenceVote {
				v := &SilenceVote{Table: s.Table(), Seq: seq, Prev: real.Prev, Silent: uint8(silent), Voter: uint8(voter)}
				if err := v.Sign(s.keys[voter]); err != nil {
					t.Fatal(err)
				}
				return v
			}
			var bot tablelog.Identity
			bot[0] = 9
			cases := []struct {
				name   string
				author int
				body   func() ([]byte, error)
			}{
				{"the author did not vote", 0, func() ([]byte, error) {
					return voidSilentBody(vs.silent, []takenSeat{{seat: 0, bot: bot}, {seat: 3, bot: vs.taken[0].bot}}, vs.votes[1:])
				}},
				{"a vote for another seq", 0, func() ([]byte, error) {
					return voidSilentBody(vs.silent, vs.taken, []*SilenceVote{vote(0, 3, real.Seq+1), vs.votes[1], vs.votes[2]})
				}},
				{"a vote against another seat", 0, func() ([]byte, error) {
					return voidSilentBody(vs.silent, vs.taken, []*SilenceVote{vote(0, 2, real.Seq), vs.votes[1], vs.votes[2]})
				}},
				{"a seat without a vote not taken", 0, func() ([]byte, error) {
					return voidSilentBody(vs.silent, vs.taken, vs.votes[:2])
				}},
				{"a bot with a seated key", 0, func() ([]byte, error) {
					return voidSilentBody(vs.silent, []takenSeat{{seat: 3, bot: s.ids[1]}}, vs.votes)
				}},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					body, err := c.body()
					if err != nil {
						t.Fatal(err)
					}
					forged := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: s.Table(), Kind: tablelog.KindVoidSilent, Author: uint8(c.author), Body: body}
					log := append(append([]*tablelog.Envelope(nil), envs[:k]...), forged)
					_, err = Verify(bytes.NewReader(reseal(t, log, s.keys)))
					if !errors.Is(err, ErrVote) && !errors.Is(err, tablelog.ErrMalformed) {
						t.Fatalf("Verify: %v, want a refused takeover", err)
					}
				})
			}
			// The real takeover, resealed the same way, passes.
			log := append(append([]*tablelog.Envelope(nil), envs[:k]...), real)
			if _, err := Verify(bytes.NewReader(reseal(t, log, s.keys))); err != nil {
				t.Fatalf("Verify of the real takeover: %v", err)
			}
		})
	}
}
