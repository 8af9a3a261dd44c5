package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/seatkeys"
	"github.com/njetlan/njet/tablelog"
)

// A Presence and a vote that says why encode, parse and verify; a vote of
// version 1 still parses as one that says nothing; damaged ones are
// refused with the error of their fault.
func TestPresenceAndVoteWire(t *testing.T) {
	fx := newFixture(t, 3)
	a := &Presence{Table: fx.table, Seat: 1, Beat: 77, Head: 12}
	if err := a.Sign(fx.privs[1]); err != nil {
		t.Fatal(err)
	}
	b, err := a.MarshalBinary()
	if err != nil || len(b) != PresenceSize || !IsPresence(b) || !IsSideMessage(b) {
		t.Fatalf("presence: %d bytes, err %v", len(b), err)
	}
	got, err := ParsePresence(b)
	if err != nil || *got != *a || got.Verify(fx.ids[1]) != nil || got.Verify(fx.ids[0]) == nil {
		t.Fatalf("parsed %+v, err %v", got, err)
	}
	bad := bytes.Clone(b)
	bad[1] = 9
	for _, c := range []struct {
		name string
		data []byte
		err  error
	}{{"short", b[:PresenceSize-1], tablelog.ErrMalformed}, {"version", bad, tablelog.ErrUnknownVersion}} {
		if _, err := ParsePresence(c.data); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
	for _, why := range []Absence{AbsenceUnstated, AbsenceGone, AbsenceRefused} {
		v := &SilenceVote{Table: fx.table, Seq: 7, Prev: tablelog.Hash{3}, Silent: 2, Voter: 0, Why: why}
		if err := v.Sign(fx.privs[0]); err != nil {
			t.Fatal(err)
		}
		enc, err := v.MarshalBinary()
		want := VoteSizeWhy
		if why == AbsenceUnstated {
			want = VoteSize
		}
		if err != nil || len(enc) != want {
			t.Fatalf("%v: %d bytes, err %v", why, len(enc), err)
		}
		got, err := ParseVote(enc)
		if err != nil || *got != *v || got.Verify(fx.ids[0]) != nil {
			t.Fatalf("%v: parsed %+v, err %v", why, got, err)
		}
		if why != AbsenceUnstated {
			// The reason is signed: another one does not verify.
			enc[VoteSizeWhy-tablelog.SignatureSize-1] ^= 3
			if got, err := ParseVote(enc); err == nil && got.Verify(fx.ids[0]) == nil {
				t.Errorf("%v: a changed reason verifies", why)
			}
			enc[VoteSizeWhy-tablelog.SignatureSize-1] = 0
			if _, err := ParseVote(enc); !errors.Is(err, tablelog.ErrMalformed) {
				t.Errorf("%v: a version 2 vote without a reason: %v", why, err)
			}
		}
	}
	if err := (&SilenceVote{Silent: 1, Voter: 0, Why: absenceEnd}).Sign(fx.privs[0]); !errors.Is(err, tablelog.ErrMalformed) {
		t.Errorf("a vote with an unknown reason: %v", err)
	}
}

// A person who thinks over a move for ten minutes, on a device that is
// there (it announces itself), is waited for: no vote, no void, no bot.
// Then the person moves and the game goes on to its end like any other,
// with one log that Verify accepts.
func TestPresenceThinkingPersonIsWaitedFor(t *testing.T) {
	const human, think = 1, 10 * time.Minute
	cfg := njetConfig(t, 3, 1, 71)
	// A patience of a minute: on the selfplay's clock, a second a tick
	// while the table waits, a device there announces itself many times
	// within it even on a loaded machine.
	cfg.VoidAfter = time.Minute
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sp.human = map[int]bool{human: true}
	sp.slow = map[int]func(*Peer) bool{human: func(p *Peer) bool { return p.View().Prompt != nil }}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var (
		wg          sync.WaitGroup
		thought     time.Duration
		present     int
		away, voted []string
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var start time.Time
		for ctx.Err() == nil {
			p := sp.Peer(human)
			if p == nil || !sleepCtx(ctx, time.Millisecond) {
				continue
			}
			if p.Game().Over() {
				return
			}
			pr := p.View().Prompt
			if pr == nil {
				continue
			}
			if start.IsZero() {
				start = sp.now()
			}
			if thought == 0 {
				if sp.now().Sub(start) < think {
					for seat := range 3 {
						o := sp.Peer(seat)
						if seat == human || o == nil {
							continue
						}
						switch v := o.View(); {
						case v.Turn != human:
						case v.Present && !v.Voidable:
							present++
						default:
							away = append(away, v.Away.String())
						}
						if err := o.VoteVoid(); err == nil {
							voted = append(voted, fmt.Sprintf("seat %d", seat))
						}
					}
					continue
				}
				thought = sp.now().Sub(start)
			}
			// The same question is seen again until the move reaches the
			// log: its second answer waits for the first. An answer to a
			// question the log has passed since it was read is checked
			// against the next one and may be refused; nothing else may.
			if err := p.Submit(pr.Legal[0]); err != nil && !errors.Is(err, engine.ErrNotYourTurn) && !errors.Is(err, ErrMovePending) && p.Game().Next() == pr.Seq {
				t.Errorf("submit: %v", err)
			}
		}
	}()
	err = sp.Run(ctx)
	cancel()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if thought < think || present == 0 || len(away) > 0 || len(voted) > 0 {
		t.Fatalf("thought %v; the others saw the device there %d times, away %v, voted %v", thought, present, away, voted)
	}
	for _, o := range sp.Outcomes() {
		if len(o.Voided) != 0 || o.BotHost >= 0 || len(o.Results) != 1 {
			t.Errorf("seat %d: voided %v, bot host %d, results %+v", o.Seat, o.Voided, o.BotHost, o.Results)
		}
	}
	log := sameLog(t, sp, seatsBut(3))
	if v, err := Verify(bytes.NewReader(log)); err != nil || !v.Over || len(v.Voided) != 0 {
		t.Fatalf("Verify: %v, %+v", err, v)
	}
}

// A device that is there but slow at its reveal (a busy processor: three
// patiences, less than the refusal time) is not taken over and never
// recorded as having withheld it; the game ends with the rounds audited.
// A device gone in the play, at the same table, is taken over, its vote
// certificate saying it is gone, and never recorded as a cheat.
func TestPresenceBusyRevealIsNoCheat(t *testing.T) {
	const busy, gone = 2, 3
	cfg := njetConfig(t, 4, 2, 72)
	// A patience of a minute: on the selfplay's clock, a second a tick
	// while the table waits, a device there announces itself many times
	// within it even on a loaded machine.
	cfg.VoidAfter = time.Minute
	cfg.Silences = []Silence{{Seat: gone, AtSeq: 30}}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		started = map[uint64]time.Time{}
		waited  time.Duration
	)
	slowReveal := func(seq uint64) bool {
		mu.Lock()
		defer mu.Unlock()
		at, ok := started[seq]
		if !ok {
			at = sp.now()
			started[seq] = at
		}
		waited = max(waited, sp.now().Sub(at))
		return waited < 3*cfg.VoidAfter
	}
	sp.slow = map[int]func(*Peer) bool{busy: func(p *Peer) bool { return p.View().Kind == tablelog.KindReveal }}
	sp.stall = map[int]func(*Game, tablelog.Kind) bool{busy: func(g *Game, k tablelog.Kind) bool {
		if k != tablelog.KindReveal {
			return false
		}
		return slowReveal(g.Next())
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if waited < 3*cfg.VoidAfter {
		t.Fatalf("the reveal was slow for %v only", waited)
	}
	log := sameLog(t, sp, seatsBut(4, gone))
	v, err := Verify(bytes.NewReader(log))
	if err != nil || !v.Over {
		t.Fatalf("Verify: %v", err)
	}
	// The gone seat's round goes on from its escrow or is dealt again;
	// either way it is named silent at most, and nobody is named a
	// cheat.
	for _, x := range v.Voided {
		if x.Seat != gone || x.Check != CheckSilent || errors.Is(x, ErrCheat) {
			t.Fatalf("voided %v", v.Voided)
		}
	}
	if obs := replayObserver(t, writeTemp(t, log)); obs.HostOf(gone) < 0 || obs.HostOf(busy) >= 0 {
		t.Fatalf("seat %d hosted by %d, seat %d by %d", gone, obs.HostOf(gone), busy, obs.HostOf(busy))
	}
	takeovers := 0
	_, envs, err := tablelog.ReadExport(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range envs {
		if env.Kind != tablelog.KindVoidSilent {
			continue
		}
		takeovers++
		vs, err := parseVoidSilent(env.Body)
		if err != nil {
			t.Fatal(err)
		}
		for _, vote := range vs.votes {
			if vote.Why != AbsenceGone || int(vote.Silent) != gone {
				t.Errorf("a vote of seat %d against seat %d says %v", vote.Voter, vote.Silent, vote.Why)
			}
		}
	}
	if takeovers != 1 {
		t.Errorf("%d takeovers, want the gone seat's", takeovers)
	}
}

// The table's clock is a genesis extension: a genesis without one encodes
// as before clocks existed, one with a clock reads back the same, after
// the names or alone, and a damaged or out-of-range clock is refused.
func TestGenesisClock(t *testing.T) {
	_, ids := seatkeys.New[tablelog.Identity](5, 3)
	base := Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Keys: ids, Rounds: 1}
	plain, err := base.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		names []string
	}{{"alone", nil}, {"after the names", []string{"Ada", "", "Bo"}}} {
		g := base
		g.Names, g.Clock = c.names, 90
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if c.names == nil && !bytes.Equal(b[:len(plain)], plain) {
			t.Errorf("%s: the clock changed the bytes before it", c.name)
		}
		got, err := ParseGenesis(b)
		if err != nil || got.Clock != 90 || len(got.Names) != len(c.names) {
			t.Fatalf("%s: %+v, %v", c.name, got, err)
		}
	}
	if got, err := ParseGenesis(plain); err != nil || got.Clock != 0 {
		t.Fatalf("without a clock: %+v, %v", got, err)
	}
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"a clock of 0 s", append(bytes.Clone(plain), genesisClock, 0, 0)},
		{"a truncated clock", append(bytes.Clone(plain), genesisClock, 1)},
		{"the clock before the names", append(bytes.Clone(plain), genesisClock, 0, 9, genesisNames, 0, 1, 'A', 0, 0, 0, 0)},
		{"an unknown extension", append(bytes.Clone(plain), 9, 0, 9)},
		{"a clock too long", append(bytes.Clone(plain), genesisClock, 0xff, 0xff)},
	} {
		if _, err := ParseGenesis(c.body); !errors.Is(err, tablelog.ErrMalformed) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	g := base
	g.Clock = MaxClock + 1
	if _, err := g.MarshalBinary(); !errors.Is(err, tablelog.ErrMalformed) {
		t.Errorf("a clock of %d s: %v", g.Clock, err)
	}
}

// At a table with a clock, a person who never moves keeps the seat: each
// time the clock runs out (by the peer's clock) the device's own bot
// moves for them, nobody votes, and the game ends with no round voided
// and no bot seated. At Njet! and at The Game alike.
func TestTableClockMovesForThePerson(t *testing.T) {
	for _, game := range []struct {
		name string
		cfg  func(t *testing.T) SelfplayConfig
	}{
		{"njet", func(t *testing.T) SelfplayConfig { return njetConfig(t, 3, 1, 73) }},
		{"thegame", func(t *testing.T) SelfplayConfig { return theGameConfig(t, 3, false, 73) }},
	} {
		t.Run(game.name, func(t *testing.T) { testTableClock(t, game.cfg(t)) })
	}
}

func testTableClock(t *testing.T, cfg SelfplayConfig) {
	const human, clock = 1, 30
	// A patience of a minute: on the selfplay's clock, a second a tick
	// while the table waits, a device there announces itself many times
	// within it even on a loaded machine.
	cfg.VoidAfter, cfg.Clock = time.Minute, clock
	cfg.Logf = t.Logf
	var (
		mu      sync.Mutex
		asked   = map[uint64]time.Time{}
		left    = map[uint64]time.Duration{} // the time left when last seen open
		deadOff []string
		outs    int // the person's peer's ClockOuts, last seen
	)
	cfg.Watch = func(seat int, p *Peer) error {
		if seat == human {
			n := p.View().ClockOuts
			mu.Lock()
			outs = n
			mu.Unlock()
		}
		return nil
	}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sp.human = map[int]bool{human: true}
	sp.slow = map[int]func(*Peer) bool{human: func(p *Peer) bool {
		pr := p.View().Prompt
		if pr == nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		if _, ok := asked[pr.Seq]; !ok {
			asked[pr.Seq] = sp.now()
			// Seen here a few ticks after it was asked, at most.
			if left := pr.Until.Sub(sp.now()); left > clock*time.Second || left < (clock-3)*time.Second {
				deadOff = append(deadOff, fmt.Sprintf("seq %d: %v left when first seen, the clock is %d s", pr.Seq, left, clock))
			}
		}
		left[pr.Seq] = pr.Until.Sub(sp.now())
		return true
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 || len(deadOff) > 0 {
		t.Fatalf("%d questions; deadlines off: %v", len(asked), deadOff)
	}
	if outs != len(asked) {
		// Every question ran out, and the peer counted each once.
		t.Errorf("the peer counted %d moves of its bot out of time, for %d questions", outs, len(asked))
	}
	// The question was last seen open a few ticks before its clock ran
	// out (the selfplay's clock moves a second a tick while the table
	// waits), or a little after: the bot moved neither early nor late.
	for seq, l := range left {
		if l > 3*time.Second || l < -5*time.Second {
			t.Errorf("seq %d: the question was last seen open with %v left, the clock is %d s", seq, l, clock)
		}
	}
	for _, o := range sp.Outcomes() {
		if len(o.Voided) != 0 || o.BotHost >= 0 || cfg.Game == GameNjet && len(o.Results) != 1 {
			t.Errorf("seat %d: voided %v, bot host %d, results %+v", o.Seat, o.Voided, o.BotHost, o.Results)
		}
	}
	log := sameLog(t, sp, seatsBut(3))
	v, err := Verify(bytes.NewReader(log))
	if err != nil || !v.Over || len(v.Voided) != 0 {
		t.Fatalf("Verify: %v, %+v", err, v)
	}
}
