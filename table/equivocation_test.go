package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/forge"
	"github.com/njetlan/njet/tablelog"
)

// resign signs env again with another signature than crypto/ed25519's (a
// random nonce instead of the deterministic one): the same fields, a
// second envelope that verifies under the same key.
func resign(env *tablelog.Envelope, priv ed25519.PrivateKey, rng io.Reader) (*tablelog.Envelope, error) {
	msg, err := env.SignedBytes()
	if err != nil {
		return nil, err
	}
	out := env.Clone()
	if out.Signature, err = forge.Sign(priv, msg, rng); err != nil {
		return nil, err
	}
	return out, nil
}

// seededReader is an io.Reader of a seeded generator.
type seededReader struct{ r *rand.ChaCha8 }

func (s seededReader) Read(p []byte) (int, error) { return s.r.Read(p) }

func newSeededReader(seed uint64) io.Reader {
	var k [32]byte
	k[0], k[1] = byte(seed), byte(seed>>8)
	return seededReader{rand.NewChaCha8(k)}
}

// R-LOG-7: the evidence of an equivocation is an envelope of the log. Any
// other seat posts it at the seq, in the equivocator's place; every log
// checks the pair and names the equivocator, and refuses evidence that
// does not prove one.
func TestEquivocationEnvelopeChecked(t *testing.T) {
	d := newDriver(t, engine.Classic, 4, 1, 41)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindBlock })
	seat, _, _ := d.turn()
	accuser := (seat + 1) % d.n
	env := d.envelope(seat)
	twin, err := resign(env, d.sp.keys[seat], newSeededReader(1))
	if err != nil {
		t.Fatal(err)
	}
	if twin.Hash() == env.Hash() {
		t.Fatal("the second signature is the first")
	}
	seq, prev := d.logs[d.n].Head()
	post := func(author int, key ed25519.PrivateKey, body []byte) []error {
		e := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: uint8(author),
			Kind: tablelog.KindEquivocation, Body: body}
		if err := e.Sign(key); err != nil {
			t.Fatal(err)
		}
		return d.postAll(e)
	}
	bodyOf := func(a, b *tablelog.Envelope) []byte {
		body, err := equivocationBody(tablelog.Evidence{First: a, Second: b})
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	other := d.envelope(seat)
	other.Prev[0] ^= 1
	elsewhere := d.sign(seat, other)
	stranger := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	for _, tc := range []struct {
		name   string
		author int
		key    ed25519.PrivateKey
		body   []byte
		want   error
	}{
		{"the accused posting against itself", seat, d.sp.keys[seat], bodyOf(env, twin), tablelog.ErrRejected},
		{"a pair after different envelopes", accuser, d.sp.keys[accuser], bodyOf(env, elsewhere), tablelog.ErrRejected},
		{"one envelope twice", accuser, d.sp.keys[accuser], func() []byte {
			enc, _ := env.MarshalBinary()
			w := newWriter()
			for range 2 {
				w.b = append(w.b, byte(len(enc)>>24), byte(len(enc)>>16), byte(len(enc)>>8), byte(len(enc)))
				w.raw(enc)
			}
			return w.bytes()
		}(), tablelog.ErrRejected},
		{"a pair not signed by the seat", accuser, d.sp.keys[accuser], bodyOf(env, d.sign(accuser, twin.Clone())), tablelog.ErrRejected},
		{"evidence signed by a stranger", accuser, stranger, bodyOf(env, twin), tablelog.ErrBadSignature},
		{"a body cut short", accuser, d.sp.keys[accuser], bodyOf(env, twin)[:40], tablelog.ErrRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectLogErr(t, post(tc.author, tc.key, tc.body), tc.want)
		})
	}
	for i, err := range post(accuser, d.sp.keys[accuser], bodyOf(twin, env)) {
		if err != nil {
			t.Fatalf("log %d refused the evidence: %v", i, err)
		}
	}
	for i, v := range d.violations() {
		if v == nil || v.Seat != seat || v.Check != CheckEquivocal || !errors.Is(v, ErrCheat) || !errors.Is(v, tablelog.ErrEquivocation) {
			t.Errorf("game %d: %v, want seat %d named for equivocation", i, v, seat)
		}
	}
	// The equivocator's own envelope comes too late: the seq is taken.
	expectLogErr(t, d.postAll(env), tablelog.ErrNotEntitled)
	// The round is voted void and the equivocator's seat goes to a bot,
	// as for any cheat; it is never handed back.
	for range 8 {
		if !d.step() {
			break
		}
		if len(d.observer().Voided()) > 0 {
			break
		}
	}
	voided := d.observer().Voided()
	if len(voided) != 1 || voided[0].Seat != seat || voided[0].Check != CheckEquivocal {
		t.Fatalf("voided %v, want seat %d's equivocation", voided, seat)
	}
	if d.observer().HostOf(seat) < 0 || d.observer().Claimable(seat) == nil {
		t.Errorf("seat %d: host %d, claimable %v; want a bot that stays", seat, d.observer().HostOf(seat), d.observer().Claimable(seat))
	}
}

// A log holds a seat's envelope; another one by the seat at that seq,
// signed after another previous envelope, is a branch the log does not
// hold (a device that gave way signs again), not an equivocation.
func TestEquivocationNeedsOnePrevious(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 42)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindBlock })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	d.postAll(env)
	other := env.Clone()
	other.Prev[0] ^= 1
	expectLogErr(t, d.postAll(d.sign(seat, other)), tablelog.ErrBadChain)
	for i, l := range d.logs {
		if n := len(l.Evidence()); n != 0 {
			t.Errorf("log %d holds %d evidence", i, n)
		}
	}
	twin, err := resign(env, d.sp.keys[seat], newSeededReader(2))
	if err != nil {
		t.Fatal(err)
	}
	expectLogErr(t, d.postAll(twin), tablelog.ErrEquivocation)
}

func TestEquivocationBodyEncoding(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 43)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindShuffle })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	twin, err := resign(env, d.sp.keys[seat], newSeededReader(3))
	if err != nil {
		t.Fatal(err)
	}
	a, err := equivocationBody(tablelog.Evidence{First: env, Second: twin})
	if err != nil {
		t.Fatal(err)
	}
	b, err := equivocationBody(tablelog.Evidence{First: twin, Second: env})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatal("one pair, two encodings")
	}
	eq, err := parseEquivocation(a)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Equivocator(&tablelog.Envelope{Kind: tablelog.KindEquivocation, Body: a}); got != seat {
		t.Errorf("Equivocator = %d, want %d", got, seat)
	}
	if h := eq.a.Hash(); h != env.Hash() && h != twin.Hash() {
		t.Error("the parsed pair is not the encoded one")
	}
	for i := range len(a) {
		if _, err := parseEquivocation(a[:i]); err == nil {
			t.Fatalf("a body cut to %d bytes parsed", i)
		}
	}
	if _, err := parseEquivocation(append(slices.Clone(a), 0)); err == nil {
		t.Error("a trailing byte parsed")
	}
	huge := []byte{BodyVersion, 0xff, 0xff, 0xff, 0xff}
	if _, err := parseEquivocation(huge); !errors.Is(err, tablelog.ErrMalformed) {
		t.Errorf("a length past the body: %v", err)
	}
}

// equivocationCase is one attack of the selfplay tests: the game, the
// kind of the cheater's envelope that it signs twice.
type equivocationCase struct {
	name string
	game GameName
	kind tablelog.Kind
}

var equivocationCases = []equivocationCase{
	{"njet phase", GameNjet, tablelog.KindBlock},
	{"trick", GameNjet, tablelog.KindPlay},
	{"reveal", GameNjet, tablelog.KindReveal},
	{"thegame play", GameTheGame, tablelog.KindPlay},
}

// splitSelfplay sets up a table of players seats where seat cheater
// signs its first envelope of kind twice: the members below it get one,
// the members above it the other.
func splitSelfplay(t *testing.T, c equivocationCase, players, cheater int, seed uint64) *Selfplay {
	t.Helper()
	cfg := SelfplayConfig{Game: c.game, Edition: engine.Modern, Players: players, Rounds: 1, Seed: seed, Dir: t.TempDir()}
	if c.game == GameTheGame {
		cfg = theGameConfig(t, players, false, seed)
	}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := newSeededReader(seed)
	var second []tablelog.Identity
	for s := cheater + 1; s < players; s++ {
		second = append(second, sp.ids[s])
	}
	sp.split = map[int]*splitter{cheater: {
		match:  func(env *tablelog.Envelope) bool { return env.Kind == c.kind && int(env.Author) == cheater },
		other:  func(env *tablelog.Envelope) (*tablelog.Envelope, error) { return resign(env, sp.keys[cheater], rng) },
		second: second,
	}}
	return sp
}

// R-LOG-7: a seat that signs two envelopes at one seq and sends one to
// some devices and the other to the rest splits the table only until a
// device holds both: every device ends with one identical log, which
// names the equivocator (and Verify does), and no honest seat is hosted by
// a bot, recorded as silent or named a cheat. Played in the Njet phase,
// during tricks, at the reveal and at The Game during play, at three,
// four and five seats.
func TestEquivocationSplitConverges(t *testing.T) {
	for _, c := range equivocationCases {
		for _, players := range []int{3, 4, 5} {
			t.Run(fmt.Sprintf("%s/players=%d", c.name, players), func(t *testing.T) {
				const cheater = 1
				sp := splitSelfplay(t, c, players, cheater, uint64(70+players))
				lines := &logLines{}
				sp.cfg.Logf = lines.logf
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				stand := standings(ctx, sp)
				if err := sp.Run(ctx); err != nil {
					stand(t)
					lines.tail(t, 400)
					t.Fatal(err)
				}
				if !sp.split[cheater].done.Load() {
					t.Fatal("the cheater never equivocated")
				}
				checkEquivocation(t, sp, c, cheater)
				if t.Failed() {
					lines.tail(t, 300)
				}
			})
		}
	}
}

// checkEquivocation checks the end of a split table: one log everywhere,
// the equivocator named by every device and by Verify, every honest seat
// played by its own device and never named.
func checkEquivocation(t *testing.T, sp *Selfplay, c equivocationCase, cheater int) {
	t.Helper()
	out := sp.Outcomes()
	named := func(vs []*Violation) bool {
		return slices.ContainsFunc(vs, func(v *Violation) bool { return v.Seat == cheater && v.Check == CheckEquivocal })
	}
	for _, o := range out {
		if o.Head != out[0].Head || o.Next != out[0].Next {
			t.Errorf("seat %d ends at %d %v, seat 0 at %d %v", o.Seat, o.Next, o.Head, out[0].Next, out[0].Head)
		}
		all := o.Voided
		if o.Violation != nil {
			all = append(slices.Clone(all), o.Violation)
		}
		if !named(all) {
			t.Errorf("seat %d's device does not name seat %d: voided %v, violation %v", o.Seat, cheater, o.Voided, o.Violation)
		}
		for _, v := range all {
			if v.Seat != cheater {
				t.Errorf("seat %d's device names honest seat %d: %v", o.Seat, v.Seat, v)
			}
		}
		if o.Seat != cheater && o.BotHost >= 0 {
			t.Errorf("honest seat %d is played by a bot hosted by seat %d", o.Seat, o.BotHost)
		}
	}
	v, err := Verify(bytes.NewReader(seatExport(t, sp, 0)))
	all := v.Voided
	var viol *Violation
	if errors.As(err, &viol) {
		all = append(slices.Clone(all), viol)
	} else if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !named(all) {
		t.Errorf("Verify does not name seat %d: voided %v, %v", cheater, v.Voided, err)
	}
	for _, x := range all {
		if x.Seat != cheater {
			t.Errorf("Verify names honest seat %d: %v", x.Seat, x)
		}
	}
	if c.game == GameNjet && (err != nil || !v.Over) {
		t.Errorf("the Njet table did not go on to its end: over %v, %v", v.Over, err)
	}
}

// R-LOG-7, the split of the issue: the cheater keeps one envelope for
// itself and every other device, and gives the other only to seat 0,
// which is cut off right after. On the others' branch seat 0 is silent,
// and the cheater votes with them to take it over (a majority); when seat
// 0 comes back, its log holds the other envelope, so it posts the
// evidence instead of giving way, and every device takes that branch:
// seat 0 keeps its seat and its name, and the cheater is named.
//
// At the reveal the victim is seat 2, which reveals after the cheater: on
// the others' branch its silence there is a withheld reveal, a cheat, and
// the evidence clears its name too.
func TestEquivocationOutweighsTakeover(t *testing.T) {
	for _, c := range []struct {
		name   string
		kind   tablelog.Kind
		victim int
	}{{"njet phase", tablelog.KindBlock, 0}, {"reveal", tablelog.KindReveal, 2}} {
		for _, players := range []int{3, 4, 5} {
			t.Run(fmt.Sprintf("%s/players=%d", c.name, players), func(t *testing.T) {
				outweighTakeover(t, c.kind, c.victim, players)
			})
		}
	}
}

func outweighTakeover(t *testing.T, kind tablelog.Kind, victim, players int) {
	const cheater = 1
	seed := uint64(90 + players)
	cfg := SelfplayConfig{Edition: engine.Modern, Players: players, Rounds: 1, Seed: seed, Dir: t.TempDir(),
		VoidAfter: 10 * time.Second}
	if testing.Verbose() {
		cfg.Logf = t.Logf
	}
	sp, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := newSeededReader(seed)
	sp.split = map[int]*splitter{cheater: {
		match: func(env *tablelog.Envelope) bool { return env.Kind == kind && int(env.Author) == cheater },
		other: func(env *tablelog.Envelope) (*tablelog.Envelope, error) { return resign(env, sp.keys[cheater], rng) },
		isolated: func(seq uint64, other []byte) error {
			return sp.isolate(victim, cheater, other, seq+uint64(8*players))
		},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if !sp.split[cheater].done.Load() {
		t.Fatal("the cheater never equivocated")
	}
	checkEquivocation(t, sp, equivocationCase{game: GameNjet, kind: kind}, cheater)
	// The table went on without the victim: some device dropped that
	// branch for the evidence (a device restarted since counts afresh,
	// so the accusations are seen in the log, by checkEquivocation).
	rewound := 0
	for _, o := range sp.Outcomes() {
		rewound += o.Rewinds + o.Accusations
	}
	if rewound == 0 {
		t.Error("no device dropped a branch: the split was never acted on")
	}
}

// A failure of the checking software (a proof library whose transcript is
// laid out otherwise, crypto.ErrSoftware) halts the table on every device
// and names no seat: no vote, no bot, no cheat.
func TestSoftwareFaultBlamesNoSeat(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 44)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == 1 })
	layout := fmt.Errorf("%w: unexpected layout of the shuffle transcript", crypto.ErrSoftware)
	for _, g := range d.games {
		g.layoutFault = layout
	}
	env := d.envelope(1)
	for i, err := range d.postAll(env) {
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
	}
	for i, v := range d.violations() {
		switch {
		case v == nil:
			t.Fatalf("game %d did not halt", i)
		case v.Seat >= 0 || v.Check != CheckSoftware || errors.Is(v, ErrCheat) || !errors.Is(v, ErrSoftware) ||
			!errors.Is(v, crypto.ErrSoftware):
			t.Errorf("game %d: %+v, want the software named and no seat", i, v)
		case strings.Contains(v.Error(), "seat 1") || !strings.Contains(v.Error(), "software"):
			t.Errorf("game %d says %q", i, v.Error())
		}
		if !d.games[i].Stopped() {
			t.Errorf("game %d goes on to a vote", i)
		}
	}
	if _, _, err := d.turn(); !errors.Is(err, ErrHalted) {
		t.Errorf("after the fault: %v, want ErrHalted", err)
	}
	// The same error from any crypto check names no seat either.
	if v := cryptoViolation(2, fmt.Errorf("opening: %w", layout)); v.Seat != -1 || errors.Is(v, ErrCheat) {
		t.Errorf("cryptoViolation = %+v", v)
	}
}

// An equivocator that signs a second envelope for a seq of a deal the
// table finished long ago, with no takeover since, splits nothing: the
// evidence is kept but does not rewind the table. A second envelope in
// the deal under way does.
func TestEquivocationLateDoesNotRewind(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 2, 45)
	var early *tablelog.Envelope
	d.runUntil(func(seat int, k tablelog.Kind) bool {
		if k == tablelog.KindBlock && early == nil {
			early = d.envelope(seat)
			d.postAll(early)
			return false
		}
		return early != nil && k == tablelog.KindBlock && len(d.observer().Njet().Results()) == 1
	})
	l := d.logs[d.n]
	late, err := resign(early, d.sp.keys[early.Author], newSeededReader(4))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(late); !errors.Is(err, tablelog.ErrEquivocation) {
		t.Fatalf("%v, want the pair kept", err)
	}
	if ev, ok := pendingEquivocation(l, l.Evidence(), nil); ok {
		t.Errorf("evidence at seq %d of a finished deal would rewind the table to there", ev.First.Seq)
	}
	last, _ := l.Get(l.Next() - 1)
	recent, err := resign(last, d.sp.keys[last.Author], newSeededReader(5))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(recent); !errors.Is(err, tablelog.ErrEquivocation) {
		t.Fatalf("%v, want the pair kept", err)
	}
	if ev, ok := pendingEquivocation(l, l.Evidence(), nil); !ok || ev.First.Seq != last.Seq {
		t.Errorf("evidence in the deal under way: %v %v", ok, ev.First)
	}
	// Compared as branches: evidence at the early seq does not outweigh
	// the table's branch; at the recent one it does.
	evidenceAt := func(e, twin *tablelog.Envelope) *tablelog.Envelope {
		body, err := equivocationBody(tablelog.Evidence{First: e, Second: twin})
		if err != nil {
			t.Fatal(err)
		}
		accuser := (int(e.Author) + 1) % d.n
		return d.sign(accuser, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: e.Seq, Prev: e.Prev,
			Author: uint8(accuser), Kind: tablelog.KindEquivocation, Body: body})
	}
	if outweighs(evidenceAt(early, late), l.Range(early.Seq, l.Next()), d.n) {
		t.Error("evidence of a finished deal outweighs the table's branch")
	}
	if !outweighs(evidenceAt(last, recent), l.Range(last.Seq, l.Next()), d.n) {
		t.Error("evidence of the deal under way does not outweigh the branch that split")
	}
}
