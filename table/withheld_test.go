package table

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/njetlan/njet/tablelog"
)

// A device that stays at the table (it announces itself) but never posts
// its reveal after the play is taken over by the others, and every device
// ends with the same log, which Verify accepts and reads the same. At a
// table of The Game the silence is recorded as a withheld reveal, a cheat
// (from three seats on; at two, where the one other seat could vote right
// after its own reveal, the seat is named silent only), and a device that
// leaves there instead is gone, not a cheat: its seat is named silent;
// the game ends with its result not verified. At a Njet table the seat's
// secret comes from its escrow and the round is audited as any other,
// with a bot in the seat. No view ever holds a card of a hand its device
// does not play.
func TestWithheldReveal(t *testing.T) {
	cases := []struct {
		name  string
		cfg   SelfplayConfig
		seat  int
		stays bool // the device stays at the table and refuses
		check string
		err   error
	}{
		{"Njet, three seats", njetConfig(t, 3, 1, 58), 2, true, "", nil},
		{"Njet, first of four", njetConfig(t, 4, 1, 59), 0, true, "", nil},
		{"Njet, three seats, the device leaves", njetConfig(t, 3, 1, 58), 2, false, "", nil},
		{"The Game, last of three", theGameConfig(t, 3, true, 900), 2, true, CheckWithheld, ErrWithheld},
		{"The Game, first of four", theGameConfig(t, 4, false, 901), 0, true, CheckWithheld, ErrWithheld},
		{"The Game, last of three, the device leaves", theGameConfig(t, 3, true, 900), 2, false, CheckSilent, ErrSilent},
		{"The Game, first of four, the device leaves", theGameConfig(t, 4, false, 901), 0, false, CheckSilent, ErrSilent},
		{"The Game, two seats, the device leaves", theGameConfig(t, 2, false, 902), 1, false, CheckSilent, ErrSilent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Net = tablelog.NetConfig{Drop: 0.02, Duplicate: 0.02}
			if !c.stays {
				c.cfg.Leaves = []Leave{{Seat: c.seat, AtReveal: true}}
			}
			leaks := 0
			c.cfg.Watch = func(seat int, p *Peer) error {
				if seat != c.seat {
					leaks += leaveLeaks(t, p.Game(), seat)
				}
				return nil
			}
			s := runPrepared(t, c.cfg, func(s *Selfplay) {
				if c.stays {
					refuseReveal(s, c.seat)
				}
			})
			if leaks != 0 {
				t.Fatalf("%d cards in views of hands the device does not play", leaks)
			}
			present := seatsBut(c.cfg.Players, c.seat)
			if c.stays {
				present = seatsBut(c.cfg.Players)
			}
			log := sameLog(t, s, present)
			v, err := Verify(bytes.NewReader(log))
			if err != nil || !v.Over {
				t.Fatalf("Verify: %v, over %v", err, v != nil && v.Over)
			}
			obs := replayObserver(t, writeTemp(t, log))
			if c.cfg.Game == GameNjet {
				// One seat taken over at a Njet table of three or more is
				// played on from its escrow: its secret is rebuilt from
				// the others' reveals and the round is audited and
				// counts, with a bot in the seat. Nobody is named.
				if len(v.Voided) != 0 || len(v.Results) != 1 || v.Results[0].Deal != 1 || obs.HostOf(c.seat) < 0 {
					t.Errorf("voided %v, results %+v, seat %d hosted by %d", v.Voided, v.Results, c.seat, obs.HostOf(c.seat))
				}
				return
			}
			if n := len(v.Voided); n != 1 || v.Voided[0].Seat != c.seat || v.Voided[0].Check != c.check || !errors.Is(v.Voided[0], c.err) {
				t.Fatalf("Verify: voided %v", v.Voided)
			}
			switch c.cfg.Game {
			case GameTheGame:
				if v.TheGame != nil || v.Unverified == nil || v.Claimed == nil || v.Unverified.Seat != c.seat || v.Unverified.Check != c.check {
					t.Fatalf("Verify: result %v, unverified %v, claimed %v", v.TheGame, v.Unverified, v.Claimed)
				}
				tg := obs.TheGame()
				if _, ok := tg.Result(); ok {
					t.Fatalf("an audited result without seat %d's reveal", c.seat)
				}
				if claimed, ok := tg.Claimed(); !ok || *v.Claimed != claimed {
					t.Fatalf("Verify claims %+v, the table %+v", v.Claimed, claimed)
				}
			}
		})
	}
}

// refuseReveal makes seat's device stay at the table, announcing itself,
// and never post its reveal: the clock runs while the table waits for it.
func refuseReveal(s *Selfplay, seat int) {
	s.slow = map[int]func(*Peer) bool{seat: func(p *Peer) bool { return p.View().Kind == tablelog.KindReveal }}
	s.stall = map[int]func(*Game, tablelog.Kind) bool{seat: func(_ *Game, k tablelog.Kind) bool { return k == tablelog.KindReveal }}
}

// runPrepared is runTable with the selfplay set up by prepare first.
func runPrepared(t *testing.T, cfg SelfplayConfig, prepare func(s *Selfplay)) *Selfplay {
	t.Helper()
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	prepare(s)
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}
