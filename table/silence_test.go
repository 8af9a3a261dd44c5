package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// votesAgainst signs a vote against silent at the head of log from every
// other seat of the driver's table.
func votesAgainst(t *testing.T, d *driver, log *tablelog.Log, silent int) []*SilenceVote {
	t.Helper()
	seq, prev := log.Head()
	var out []*SilenceVote
	for s := range d.n {
		if s == silent {
			continue
		}
		v := &SilenceVote{Table: d.sp.table, Seq: seq, Prev: prev, Silent: uint8(silent), Voter: uint8(s)}
		if err := v.Sign(d.sp.keys[s]); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// voidEnvelope is the decider's VoidSilent with the given certificate,
// built without the decider's own checks (to forge bad ones).
func voidEnvelope(t *testing.T, d *driver, author, silent int, votes []*SilenceVote) *tablelog.Envelope {
	t.Helper()
	seq, prev := d.logs[d.n].Head()
	voted := map[uint8]bool{}
	for _, v := range votes {
		voted[v.Voter] = true
	}
	var taken []takenSeat
	for s := range d.n {
		if !voted[uint8(s)] {
			taken = append(taken, takenSeat{seat: s, bot: tablelog.Identity{0xb0, byte(seq), byte(s)}})
		}
	}
	body, err := voidSilentBody(silent, taken, votes)
	if err != nil {
		t.Fatal(err)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: uint8(author),
		Kind: tablelog.KindVoidSilent, Body: body}
	return d.sign(author, env)
}

func TestSilenceVoteEncoding(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 30)
	v := votesAgainst(t, d, d.logs[0], 2)[0]
	b, err := v.MarshalBinary()
	if err != nil || len(b) != VoteSize || !IsVote(b) {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	got, err := ParseVote(b)
	if err != nil || !reflect.DeepEqual(got, v) || got.Verify(d.sp.ids[0]) != nil {
		t.Fatalf("%+v, %v", got, err)
	}
	if IsVote(append([]byte{tablelog.EnvelopeVersion}, b[1:]...)) {
		t.Fatal("an envelope's first byte taken for a vote")
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"short", b[:VoteSize-1], tablelog.ErrMalformed},
		{"long", append(bytes.Clone(b), 0), tablelog.ErrMalformed},
		{"tag", append([]byte{1}, b[1:]...), tablelog.ErrMalformed},
		{"version", append([]byte{VoteTag, 3}, b[2:]...), tablelog.ErrUnknownVersion},
		{"version 2 without its reason byte", append([]byte{VoteTag, VoteVersionWhy}, b[2:]...), tablelog.ErrMalformed},
		{"against itself", func() []byte { c := bytes.Clone(b); c[2+32+8+32] = c[2+32+8+32+1]; return c }(), tablelog.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseVote(tc.data); !errors.Is(err, tc.want) {
				t.Fatalf("%v, want %v", err, tc.want)
			}
		})
	}
	if err := got.Verify(d.sp.ids[1]); !errors.Is(err, tablelog.ErrBadSignature) {
		t.Fatalf("seat 0's vote verified under seat 1's key: %v", err)
	}
}

// A VoidSilent whose certificate is not exactly one valid vote from each
// other seat, for this table, seq and previous envelope, is refused by
// every log, and so is one posted by another seat than the decider.
func TestVoidSilentForgedCertificate(t *testing.T) {
	const silent, dec = 2, 0
	d := newDriver(t, engine.Classic, 4, 1, 31)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindBlock && seat == silent })
	resign := func(v *SilenceVote, by int) *SilenceVote {
		c := *v
		if err := c.Sign(d.sp.keys[by]); err != nil {
			t.Fatal(err)
		}
		return &c
	}
	for _, tc := range []struct {
		name   string
		author int
		votes  func(vs []*SilenceVote) []*SilenceVote
		want   error
	}{
		{"signed by the wrong key", dec, func(vs []*SilenceVote) []*SilenceVote {
			vs[1] = resign(vs[1], 3)
			return vs
		}, ErrVote},
		{"vote for another seq", dec, func(vs []*SilenceVote) []*SilenceVote {
			vs[2].Seq++
			vs[2] = resign(vs[2], int(vs[2].Voter))
			return vs
		}, ErrVote},
		{"vote for another table", dec, func(vs []*SilenceVote) []*SilenceVote {
			vs[0].Table[0] ^= 1
			vs[0] = resign(vs[0], int(vs[0].Voter))
			return vs
		}, ErrVote},
		{"vote on another log", dec, func(vs []*SilenceVote) []*SilenceVote {
			vs[0].Prev[0] ^= 1
			vs[0] = resign(vs[0], int(vs[0].Voter))
			return vs
		}, ErrVote},

		{"vote twice", dec, func(vs []*SilenceVote) []*SilenceVote { vs[2] = vs[1]; return vs }, ErrVote},
		{"against another seat", dec, func(vs []*SilenceVote) []*SilenceVote {
			for i, v := range vs {
				v.Silent = 1
				if v.Voter == 1 {
					v.Voter = 2
				}
				vs[i] = resign(v, int(v.Voter))
			}
			return vs
		}, ErrVote},
		{"not a voter", 3, func(vs []*SilenceVote) []*SilenceVote { return vs[:2] }, ErrVote},
		{"votes out of order", dec, func(vs []*SilenceVote) []*SilenceVote { vs[0], vs[1] = vs[1], vs[0]; return vs }, ErrVote},
		{"no vote", dec, func(vs []*SilenceVote) []*SilenceVote { return nil }, ErrVote},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := voidEnvelope(t, d, tc.author, silent, tc.votes(votesAgainst(t, d, d.logs[d.n], silent)))
			expectLogErr(t, d.postAll(env), tc.want)
		})
	}
	// A seat without a vote goes to a bot too: a certificate that leaves
	// one out of the seats taken over, or takes over a voter, is refused.
	for _, tc := range []struct {
		name  string
		taken []int
	}{
		{"a seat without a vote kept", []int{silent}},
		{"a voter taken over", []int{1, silent, 3}},
		{"taken seats out of order", []int{3, silent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, prev := d.logs[d.n].Head()
			var taken []takenSeat
			for _, s := range tc.taken {
				taken = append(taken, takenSeat{seat: s, bot: tablelog.Identity{0xb1, byte(s)}})
			}
			body, err := voidSilentBody(silent, taken, votesAgainst(t, d, d.logs[d.n], silent)[:2])
			if err != nil {
				t.Fatal(err)
			}
			env := d.sign(dec, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: dec,
				Kind: tablelog.KindVoidSilent, Body: body})
			for i, err := range d.postAll(env) {
				if !errors.Is(err, ErrVote) && !errors.Is(err, tablelog.ErrRejected) {
					t.Fatalf("log %d: %v", i, err)
				}
			}
		})
	}
	// The genuine certificate is accepted by every log.
	env := voidEnvelope(t, d, dec, silent, votesAgainst(t, d, d.logs[d.n], silent))
	for i, err := range d.postAll(env) {
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
	}
	if v := d.observer().Voided(); len(v) != 1 || v[0].Seat != silent || v[0].Check != CheckSilent ||
		!errors.Is(v[0], ErrSilent) || errors.Is(v[0], ErrCheat) {
		t.Fatalf("voided %v", v)
	}
}

// The whole path in the synchronous driver: the seat falls silent at its
// first play, the others vote, the decider posts the void, and the game
// goes on to its end with a bot in the silent seat hosted by the decider.
// Without an escrow the round is dealt again; with one it goes on, the
// bot playing the seat's recovered cards.
func TestVoidSilentSeatsABot(t *testing.T) {
	t.Run("without an escrow", func(t *testing.T) { voidSilentSeatsABot(t, false) })
	t.Run("with an escrow", func(t *testing.T) { voidSilentSeatsABot(t, true) })
}

func voidSilentSeatsABot(t *testing.T, escrow bool) {
	const silent, dec = 1, 0
	d := newDriver(t, engine.Modern, 3, 2, 32)
	for _, g := range d.games {
		g.noEscrow = !escrow
	}
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindPlay && seat == silent })
	game := d.games[dec]
	seq, prev := d.logs[dec].Head()
	dr, err := game.draftVoidSilent(seq, prev, votesAgainst(t, d, d.logs[dec], silent), d.rand(seq))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range dr.secrets {
		d.vaults[dec].put(name, b)
	}
	env := d.sign(dec, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: dec,
		Kind: dr.kind, Body: dr.body})
	for i, err := range d.postAll(env) {
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
	}
	for d.step() {
	}
	obs := d.observer()
	if !obs.Over() || len(obs.Njet().Results()) != 2 || obs.HostOf(silent) != dec {
		t.Fatalf("over %v, %d rounds, bot host %d", obs.Over(), len(obs.Njet().Results()), obs.HostOf(silent))
	}
	want := uint64(2)
	if escrow {
		want = 1
		if r := obs.Recovered(); len(r) != 1 || r[0].Seat != silent || r[0].Host != dec || len(obs.Voided()) != 0 {
			t.Errorf("recovered %v, voided %v", r, obs.Voided())
		}
	}
	if r := obs.Njet().Results()[0]; r.Deal != want {
		t.Errorf("the first audited round was deal %d, want %d", r.Deal, want)
	}
	for i, l := range d.logs {
		if _, h := l.Head(); h != hashOf(d.logs[d.n]) {
			t.Errorf("log %d ends elsewhere", i)
		}
	}
}

func hashOf(l *tablelog.Log) tablelog.Hash {
	_, h := l.Head()
	return h
}

// rand is the driver's randomness for a draft at seq.
func (d *driver) rand(seq uint64) *randReader {
	return &randReader{seed: d.seed ^ seq}
}

type randReader struct{ seed uint64 }

func (r *randReader) Read(b []byte) (int, error) {
	for i := range b {
		r.seed = r.seed*6364136223846793005 + 1442695040888963407
		b[i] = byte(r.seed >> 56)
	}
	return len(b), nil
}

// The race: the silent seat's envelope reaches one peer that had not voted
// (so no certificate can be complete), while the voters, fenced by their
// votes, refuse it from anyone but the decider. The decider takes it; the
// voters take it from the decider's log; nobody forks. In the second case
// the decider holds every vote but the envelope reaches it first: its log
// wins, the void it can no longer post is refused, everyone follows it.
func TestVoidSilentRace(t *testing.T) {
	const silent, dec, voter, late = 2, 0, 1, 3
	for _, tc := range []struct {
		name      string
		lateVotes bool // the late peer voted before the envelope came
	}{
		{"envelope reaches a peer that never voted", false},
		{"envelope reaches the decider before the void", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, engine.Classic, 4, 1, 33)
			d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindPlay && seat == silent })
			seq, _ := d.logs[d.n].Head()
			votes := votesAgainst(t, d, d.logs[d.n], silent)
			env := d.envelope(silent)
			if _, err := d.logs[silent].Append(env); err != nil {
				t.Fatal(err)
			}
			// Every voter but the decider fences its game with its vote.
			for _, s := range []int{voter, late} {
				if s == late && !tc.lateVotes {
					continue
				}
				if !d.games[s].setFence(seq, silent) {
					t.Fatalf("seat %d could not vote", s)
				}
			}
			if !tc.lateVotes {
				// The late peer takes the envelope first: it can no longer
				// vote, so the certificate stays incomplete.
				if _, err := d.logs[late].Append(env); err != nil {
					t.Fatal(err)
				}
				if err := d.games[late].CheckVote(votes[2], env.Prev); !errors.Is(err, ErrVote) {
					t.Fatalf("a vote for a seq the late peer passed: %v", err)
				}
			}
			// The envelope, relayed, reaches the fenced voter and the decider.
			if _, err := d.logs[voter].Append(env); !errors.Is(err, ErrFenced) {
				t.Fatalf("a fenced voter took the silent seat's envelope: %v", err)
			}
			if _, err := d.logs[dec].Append(env); err != nil {
				t.Fatalf("the decider refused the envelope: %v", err)
			}
			if tc.lateVotes {
				void := voidEnvelope(t, d, dec, silent, votes)
				if _, err := d.logs[dec].Append(void); !errors.Is(err, tablelog.ErrNotEntitled) {
					t.Fatalf("the decider's void after the envelope: %v", err)
				}
			}
			// The fenced voters ask the decider, whose log holds it.
			held, ok := d.logs[dec].Get(seq)
			if !ok || held.Hash() != env.Hash() {
				t.Fatal("the decider's log does not hold the envelope")
			}
			for _, s := range []int{voter, late, d.n} {
				if s == late && !tc.lateVotes {
					continue
				}
				d.games[s].allowFenced(seq, held.Hash())
				if _, err := d.logs[s].Append(held); err != nil {
					t.Fatalf("log %d: %v", s, err)
				}
			}
			for d.step() {
			}
			for i, l := range d.logs {
				if hashOf(l) != hashOf(d.logs[dec]) {
					t.Errorf("log %d forked", i)
				}
			}
			if !d.observer().Over() || len(d.observer().Voided()) != 0 {
				t.Errorf("over %v, voided %v", d.observer().Over(), d.observer().Voided())
			}
		})
	}
}

// silentGame plays a table over the network in which a seat's peer is cut
// off mid-round; the others vote, the decider voids the round and hosts a
// bot in the seat, and the game goes on to its end.
func silentGame(t *testing.T, silence Silence) (*Selfplay, []Outcome, *logLines) {
	t.Helper()
	lines := &logLines{}
	sp, err := newTestSelfplay(SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 1, Seed: 41, Dir: t.TempDir(),
		Net: lossy, Silences: []Silence{silence}, VoidAfter: 20 * time.Second, Logf: lines.logf})
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return sp, sp.Outcomes(), lines
}

// logLines collects a selfplay's reports.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// tail logs the last n lines.
func (l *logLines) tail(t *testing.T, n int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines[max(0, len(l.lines)-n):] {
		t.Log(line)
	}
}

func (l *logLines) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

func checkSilentGame(t *testing.T, sp *Selfplay, out []Outcome, silent int, seats []int) {
	t.Helper()
	var agreeing []Outcome
	for _, s := range seats {
		agreeing = append(agreeing, out[s])
	}
	agree(t, agreeing, 1)
	for _, o := range agreeing {
		if o.BotHost != -1 && o.Seat != silent {
			t.Errorf("seat %d replaced by a bot", o.Seat)
		}
		if len(o.Voided) != 1 || o.Voided[0].Seat != silent || o.Voided[0].Check != CheckSilent {
			t.Errorf("seat %d voided %v", o.Seat, o.Voided)
		}
	}
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(seats[0], path); err != nil {
		t.Fatal(err)
	}
	v, err := verifyFile(path)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !v.Over || len(v.Voided) != 1 || v.Voided[0].Seat != silent || v.Results[0].Deal != 2 {
		t.Errorf("verified over %v, voided %v, results %+v", v.Over, v.Voided, v.Results)
	}
}

func TestSilentSeatVoidedOverTheNetwork(t *testing.T) {
	const silent = 2
	sp, out, _ := silentGame(t, Silence{Seat: silent, AtSeq: 20})
	checkSilentGame(t, sp, out, silent, []int{0, 1, 3})
	if out[0].Results[0].Deal != 2 {
		t.Errorf("results %+v", out[0].Results)
	}
}

// The silent seat's peer kept running on its own, posting its turn into
// its store; it comes back after the void, drops what the table superseded
// and follows the table as a spectator of its seat: no fork.
func TestSilentSeatComesBack(t *testing.T) {
	const silent = 2
	sp, out, lines := silentGame(t, Silence{Seat: silent, AtSeq: 20, ReturnAt: 60, BeforePublish: true})
	checkSilentGame(t, sp, out, silent, []int{0, 1, 2, 3})
	if lines.count("went on without this device from seq") != 1 {
		t.Errorf("the silent seat did not drop its superseded envelope exactly once")
	}
	if out[silent].BotHost != 0 {
		t.Errorf("the silent seat's peer sees its seat hosted by %d, want 0", out[silent].BotHost)
	}
}

func verifyFile(path string) (*Verification, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Verify(f)
}

// Silence is measured from the moment the log's head last moved, whoever
// moved it: a decider whose own posts follow its void must not find the
// next seat silent since before them. A head at the same seq after another
// envelope (the peer gave way to another branch and reached that seq
// again) is a new head too: the seat entitled there on the new branch has
// not been silent since the peer waited at that seq on the dropped one.
func TestSilenceMeasuredFromTheHead(t *testing.T) {
	now := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	p := &Peer{cfg: PeerConfig{Now: func() time.Time { return now }}}
	// The heads: the envelope at seq 12 of a branch the peer dropped, the
	// one at seq 12 of the branch it took, and a later one.
	dropped, taken, later := tablelog.Hash{1}, tablelog.Hash{2}, tablelog.Hash{3}
	start := p.waitingSince(dropped)
	now = now.Add(time.Minute)
	if got := p.waitingSince(dropped); !got.Equal(start) {
		t.Errorf("head unchanged: waiting since %v, want %v", got, start)
	}
	if got := p.waitingSince(taken); !got.Equal(now) {
		t.Errorf("seq 13 after another envelope at 12: waiting since %v, want %v", got, now)
	}
	now = now.Add(time.Minute)
	if got := p.waitingSince(later); !got.Equal(now) {
		t.Errorf("head moved on from 13: waiting since %v, want %v", got, now)
	}
}
