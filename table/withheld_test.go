package table

import (
	"bytes"
	"errors"
	"testing"
)

// A device that leaves instead of posting its reveal after the play is
// taken over by the others, and every device still there ends with the
// same log, which Verify accepts and reads the same: the silence is
// recorded as a withheld reveal, a cheat (from three seats on; at two,
// where the one other seat could vote right after its own reveal, the
// seat is named silent only). Njet deals the withheld round again with a
// bot in the seat, and the withheld deal counts for nobody; a game of The
// Game ends with its result not verified. No view ever holds a card of a
// hand its device does not play.
func TestWithheldReveal(t *testing.T) {
	cases := []struct {
		name  string
		cfg   SelfplayConfig
		seat  int
		check string
		err   error
	}{
		{"Njet, three seats", njetConfig(t, 3, 1, 58), 2, CheckWithheld, ErrWithheld},
		{"Njet, first of four", njetConfig(t, 4, 1, 59), 0, CheckWithheld, ErrWithheld},
		{"The Game, last of three", theGameConfig(t, 3, true, 900), 2, CheckWithheld, ErrWithheld},
		{"The Game, first of four", theGameConfig(t, 4, false, 901), 0, CheckWithheld, ErrWithheld},
		{"The Game, two seats", theGameConfig(t, 2, false, 902), 1, CheckSilent, ErrSilent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Leaves, c.cfg.Net = []Leave{{Seat: c.seat, AtReveal: true}}, NetConfig{Drop: 0.02, Duplicate: 0.02}
			leaks := 0
			c.cfg.Watch = func(seat int, p *Peer) error {
				leaks += leaveLeaks(t, p.Game(), seat)
				return nil
			}
			s := runTable(t, c.cfg)
			if leaks != 0 {
				t.Fatalf("%d cards in views of hands the device does not play", leaks)
			}
			log := sameLog(t, s, seatsBut(c.cfg.Players, c.seat))
			v, err := Verify(bytes.NewReader(log))
			if err != nil || !v.Over {
				t.Fatalf("Verify: %v, over %v", err, v != nil && v.Over)
			}
			if n := len(v.Voided); n != 1 || v.Voided[0].Seat != c.seat || v.Voided[0].Check != c.check || !errors.Is(v.Voided[0], c.err) {
				t.Fatalf("Verify: voided %v", v.Voided)
			}
			obs := replayObserver(t, writeTemp(t, log))
			switch c.cfg.Game {
			case GameNjet:
				// The round was dealt again with a bot in the seat: the
				// first audited round is the redeal.
				if len(v.Results) != 1 || v.Results[0].Deal != 2 || obs.HostOf(c.seat) < 0 {
					t.Errorf("results %+v, seat %d hosted by %d", v.Results, c.seat, obs.HostOf(c.seat))
				}
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
