package table

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/njetlan/njet/thegame"
)

// leaveLeaks counts the cards seat's peer knows, or shows in a view, that
// belong to a hand its device does not play: its own seat's, or a bot
// seat it hosts after a takeover.
func leaveLeaks(t *testing.T, g *TheGame, seat int) int {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil {
		return 0
	}
	mine := func(s int) bool { return s >= 0 && g.peerOf(s) == seat }
	leaks := 0
	for p, c := range g.known {
		if !g.played[p] && !mine(g.holder[p]) {
			t.Errorf("seat %d's peer knows card %s at position %d of seat %d", seat, c, p, g.holder[p])
			leaks++
		}
	}
	for s := range g.n {
		v := g.viewLocked(s)
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
func playing(pred func(v thegame.View) bool) func(v thegame.View) bool {
	return func(v thegame.View) bool {
		return (v.Phase == thegame.PhasePlay || v.Phase == thegame.PhaseDraw) && v.Turns >= 3 && pred(v)
	}
}

// TestTheGameLeave: devices of a table of The Game leave for good at every
// step (the shuffle, the deal, their own turn, another's turn, a draw, two
// at once, all but one). The devices still there take their seats over
// with bots, the cards not yet played are dealt again, and the game ends
// with a result; every remaining device holds the same log, Verify
// accepts it, and no view ever holds a card of a hand its device does not
// play.
func TestTheGameLeave(t *testing.T) {
	cases := []struct {
		name    string
		players int
		extreme bool
		leaves  []TheGameLeave
	}{
		{"shuffle", 3, true, []TheGameLeave{{Seat: 1, AtSeq: 7}}},
		{"deal", 3, false, []TheGameLeave{{Seat: 2, AtSeq: 10}}},
		{"acknowledgement", 4, false, []TheGameLeave{{Seat: 2, AtSeq: 1}}},
		{"two seats", 2, true, []TheGameLeave{{Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhasePlay && v.Turn == 1
		})}}},
		{"own turn", 3, true, []TheGameLeave{{Seat: 1, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhasePlay && v.Turn == 1
		})}}},
		{"another's turn", 4, false, []TheGameLeave{{Seat: 3, When: playing(func(v thegame.View) bool {
			// A turn's first card is down for a few ms only: the leave
			// looks at the table every tick, so any moment of seat 1's
			// play will do.
			return v.Phase == thegame.PhasePlay && v.Turn == 1
		})}}},
		{"draw", 3, true, []TheGameLeave{{Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Phase == thegame.PhaseDraw && v.Turn == 2
		})}}},
		{"two of five", 5, true, []TheGameLeave{{Seat: 1, AtSeq: 40}, {Seat: 3, AtSeq: 40}}},
		{"all but one", 5, false, []TheGameLeave{{Seat: 0, AtSeq: 30}, {Seat: 1, AtSeq: 30}, {Seat: 3, AtSeq: 30}, {Seat: 4, AtSeq: 30}}},
		{"one after the other", 4, true, []TheGameLeave{{Seat: 2, AtSeq: 25}, {Seat: 0, When: playing(func(v thegame.View) bool {
			return v.Turns >= 8
		})}}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.players == 5 && c.name != "two of five" {
				t.Log("one five-seat table is enough with -short")
				return
			}
			s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: c.players, Extreme: c.extreme, Seed: uint64(500 + i),
				Dir: t.TempDir(), Leaves: c.leaves, Net: NetConfig{Drop: 0.02, Duplicate: 0.02}})
			if err != nil {
				t.Fatal(err)
			}
			gone := map[int]bool{}
			for _, l := range c.leaves {
				gone[l.Seat] = true
			}
			leaks := 0
			watch := func(seat int, p *TheGamePeer) error {
				leaks += leaveLeaks(t, p.Game(), seat)
				return nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := s.Run(ctx, watch); err != nil {
				t.Fatal(err)
			}
			if leaks != 0 {
				t.Fatalf("%d cards in views of hands the device does not play", leaks)
			}
			var first []byte
			var stay int
			for seat := range c.players {
				if gone[seat] {
					continue
				}
				x, err := s.Export(seat)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first, stay = x, seat
				} else if !bytes.Equal(x, first) {
					t.Fatalf("seat %d's log differs from seat %d's", seat, stay)
				}
			}
			v, err := Verify(bytes.NewReader(first))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !v.Over || v.TheGame == nil {
				t.Fatalf("Verify: over %v, result %v", v.Over, v.TheGame)
			}
			want, ok := s.Peer(stay).Game().Result()
			if !ok || *v.TheGame != want {
				t.Fatalf("Verify found %+v, the table %+v", v.TheGame, want)
			}
			takeovers := s.Peer(stay).Game().Takeovers()
			if len(takeovers) == 0 {
				t.Fatal("no takeover in the log")
			}
			for seat := range gone {
				if h := s.Peer(stay).Game().PeerOf(seat); gone[h] {
					t.Errorf("seat %d is played by seat %d's device, which left", seat, h)
				}
			}
			t.Logf("%s: %d takeovers, %d envelopes, %d turns, %d cards left, won %v", c.name, len(takeovers),
				v.Envelopes, v.TheGame.Turns, v.TheGame.Result.CardsLeft, v.TheGame.Result.Won)
		})
	}
}

// TestTheGameVerifyForgedTakeover: Verify refuses a takeover at a table of
// The Game whose certificate does not hold: each forged VoidSilent replaces
// the real one, signed by the real decider.
func TestTheGameVerifyForgedTakeover(t *testing.T) {
	s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: 4, Seed: 77, Dir: t.TempDir(),
		Leaves: []TheGameLeave{{Seat: 3, AtSeq: 30}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	x, err := s.Export(0)
	if err != nil {
		t.Fatal(err)
	}
	_, envs, err := ReadExport(bytes.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, e := range envs {
		if e.Kind == KindVoidSilent {
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
	var bot Identity
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
			forged := &Envelope{Version: EnvelopeVersion, Table: s.Table(), Kind: KindVoidSilent, Author: uint8(c.author), Body: body}
			log := append(append([]*Envelope(nil), envs[:k]...), forged)
			_, err = Verify(bytes.NewReader(reseal(t, log, s.keys)))
			if !errors.Is(err, ErrVote) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("Verify: %v, want a refused takeover", err)
			}
		})
	}
	// The real takeover, resealed the same way, passes.
	log := append(append([]*Envelope(nil), envs[:k]...), real)
	if _, err := Verify(bytes.NewReader(reseal(t, log, s.keys))); err != nil {
		t.Fatalf("Verify of the real takeover: %v", err)
	}
}
