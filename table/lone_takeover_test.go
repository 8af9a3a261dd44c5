package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// loneTakeover is a seat that, right behind one of its own envelopes, posts
// a VoidSilent at the next seq against the seat entitled there, carrying
// its own vote alone: every other seat, without a vote, would go to bots
// the attacker hosts. It publishes the forged envelope before its own, in
// one burst, so that every other device holds it before the next seat can
// post.
type loneTakeover struct {
	t        *testing.T
	s        *Selfplay
	attacker int
	// when says at which of its own envelopes the attacker strikes.
	when func(env *tablelog.Envelope) bool

	mu     sync.Mutex
	posted *tablelog.Envelope // the forged takeover, once posted
}

// tamper is the attacker's hook after it signed env (Peer.tamper).
func (a *loneTakeover) tamper(env *tablelog.Envelope, key ed25519.PrivateKey) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.posted != nil || !a.when(env) {
		return
	}
	p := a.s.Peer(a.attacker)
	if p == nil {
		return
	}
	// The seat entitled after env, in a log that holds it.
	obs := NewGame(GameConfig{Table: a.s.table, Creator: a.s.ids[0]})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: a.s.table, Protocol: obs})
	if err != nil {
		a.t.Error(err)
		return
	}
	for _, e := range append(p.Log().Range(0, env.Seq), env) {
		if _, err := log.Append(e); err != nil {
			return // not at the head of the attacker's log
		}
	}
	turn, err := obs.Entitled(env.Seq + 1)
	if err != nil || int(turn.Seat) == a.attacker {
		return
	}
	vote := &SilenceVote{Table: a.s.table, Seq: env.Seq + 1, Prev: env.Hash(), Silent: turn.Seat, Voter: uint8(a.attacker)}
	if err := vote.Sign(key); err != nil {
		a.t.Error(err)
		return
	}
	var taken []takenSeat
	for s := range a.s.cfg.Players {
		if s != a.attacker {
			taken = append(taken, takenSeat{seat: s, bot: tablelog.Identity{0xa7, byte(s), byte(env.Seq)}})
		}
	}
	body, err := voidSilentBody(int(turn.Seat), taken, []*SilenceVote{vote})
	if err != nil {
		a.t.Error(err)
		return
	}
	forged := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: a.s.table, Seq: env.Seq + 1, Prev: env.Hash(),
		Author: uint8(a.attacker), Kind: tablelog.KindVoidSilent, Body: body}
	if err := forged.Sign(key); err != nil {
		a.t.Error(err)
		return
	}
	b, err := forged.MarshalBinary()
	if err != nil {
		a.t.Error(err)
		return
	}
	a.s.mu.Lock()
	r := a.s.seats[a.attacker]
	a.s.mu.Unlock()
	if err := r.tr.Publish(context.Background(), b); err != nil {
		a.t.Error(err)
		return
	}
	a.posted = forged
}

// TestLoneTakeoverRefused: at a table of three seats of either game a seat
// posts, in the same burst as one of its own envelopes, a takeover of the
// next seat to act carrying its own vote alone — during the play, and at
// the reveals after it. Every device's log refuses it (its guard: a device
// that is there is not gone, and no strict majority voted), the game goes
// on to its end as if it had never been posted, every device holds the
// same log, and Verify of it names nobody: no takeover, no withheld
// reveal, no cheat.
func TestLoneTakeoverRefused(t *testing.T) {
	const attacker = 0
	kindAt := func(k tablelog.Kind, from uint64) func(env *tablelog.Envelope) bool {
		return func(env *tablelog.Envelope) bool { return env.Kind == k && env.Seq >= from }
	}
	cases := []struct {
		name string
		cfg  SelfplayConfig
		when func(env *tablelog.Envelope) bool
	}{
		{"The Game, in the play", theGameConfig(t, 3, false, 61), kindAt(tablelog.KindTurnEnd, 20)},
		{"The Game Extreme, at the reveals", theGameConfig(t, 3, true, 62), kindAt(tablelog.KindReveal, 0)},
		{"Njet, in the tricks", SelfplayConfig{Edition: engine.Modern, Players: 3, Rounds: 1, Seed: 63,
			Dir: t.TempDir(), VoidAfter: 20 * time.Second}, kindAt(tablelog.KindPlay, 0)},
		{"Njet, at the reveal", SelfplayConfig{Edition: engine.Classic, Players: 3, Rounds: 1, Seed: 64,
			Dir: t.TempDir(), VoidAfter: 20 * time.Second}, kindAt(tablelog.KindReveal, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Net = tablelog.NetConfig{Duplicate: 0.02}
			s, err := newTestSelfplay(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			a := &loneTakeover{t: t, s: s, attacker: attacker, when: c.when}
			s.tamper = map[int]func(*tablelog.Envelope, ed25519.PrivateKey){attacker: a.tamper}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := s.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if a.posted == nil {
				t.Fatal("the attacker found no moment to post its takeover")
			}
			first := seatExport(t, s, 0)
			for seat := 1; seat < c.cfg.Players; seat++ {
				if !bytes.Equal(seatExport(t, s, seat), first) {
					t.Fatalf("seat %d's log differs from seat 0's", seat)
				}
			}
			for seat, o := range s.Outcomes() {
				if o.Violation != nil || len(o.Voided) != 0 || o.BotHost != -1 {
					t.Errorf("seat %d ends with violation %v, voided %v, bot host %d", seat, o.Violation, o.Voided, o.BotHost)
				}
			}
			_, envs, err := tablelog.ReadExport(bytes.NewReader(first))
			if err != nil {
				t.Fatal(err)
			}
			if at := envs[a.posted.Seq]; at.Hash() == a.posted.Hash() || at.Kind == tablelog.KindVoidSilent {
				t.Fatalf("the log holds a takeover at seq %d", a.posted.Seq)
			}
			v, err := Verify(bytes.NewReader(first))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !v.Over || len(v.Voided) != 0 || v.Unverified != nil || v.Abandoned != nil {
				t.Fatalf("Verify: over %v, voided %v, unverified %v, abandoned %v", v.Over, v.Voided, v.Unverified, v.Abandoned)
			}
			if c.cfg.Game == GameTheGame && v.TheGame == nil {
				t.Fatal("Verify: no audited result of The Game")
			}
		})
	}
}

// An observer without a guard, given the forged takeover at the head of
// an honest log, takes it: the guard is each device's own knowledge that
// it is there, which no log can hold. The refusal is the devices'.
func TestLoneTakeoverTakenWithoutAGuard(t *testing.T) {
	cfg := theGameConfig(t, 3, false, 65)
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := &loneTakeover{t: t, s: s, attacker: 0, when: func(env *tablelog.Envelope) bool { return env.Kind == tablelog.KindTurnEnd && env.Seq >= 20 }}
	s.tamper = map[int]func(*tablelog.Envelope, ed25519.PrivateKey){0: a.tamper}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if a.posted == nil {
		t.Fatal("no takeover posted")
	}
	_, envs, err := tablelog.ReadExport(bytes.NewReader(seatExport(t, s, 1)))
	if err != nil {
		t.Fatal(err)
	}
	observe := func(guard *tablelog.Identity) error {
		obs := NewGame(GameConfig{Table: s.table, Creator: s.ids[0]})
		log, err := tablelog.NewLog(tablelog.LogConfig{Table: s.table, Protocol: obs})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range envs[:a.posted.Seq] {
			if _, err := log.Append(e); err != nil {
				t.Fatal(err)
			}
		}
		obs.setGuard(guard)
		_, err = log.Append(a.posted)
		return err
	}
	if err := observe(nil); err != nil {
		t.Fatalf("an observer refused the forged takeover: %v", err)
	}
	if err := observe(&s.ids[1]); !errors.Is(err, ErrFenced) {
		t.Fatalf("a guarded log of seat 1: %v, want ErrFenced", err)
	}
}
