package table

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"
)

// TestTheGameWithheldReveal: a device silent at its reveal after the game
// of The Game is taken over by the others, and the table ends for every
// device still there with the same log: the game is over, its result not
// verified, the silent seat named (a cheat from three seats on, silent
// only at two), and Verify accepts the log and says the same. No view
// ever holds a card of a hand its device does not play.
func TestTheGameWithheldReveal(t *testing.T) {
	cases := []struct {
		name    string
		players int
		extreme bool
		seat    int
		check   string
		err     error
	}{
		{"last of three", 3, true, 2, CheckWithheld, ErrWithheld},
		{"first of four", 4, false, 0, CheckWithheld, ErrWithheld},
		{"two seats", 2, false, 1, CheckSilent, ErrSilent},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: c.players, Extreme: c.extreme, Seed: uint64(900 + i),
				Dir: t.TempDir(), Leaves: []TheGameLeave{{Seat: c.seat, AtReveal: true}}, Net: NetConfig{Drop: 0.02, Duplicate: 0.02}})
			if err != nil {
				t.Fatal(err)
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
			stay := -1
			for seat := range c.players {
				if seat == c.seat {
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
				g := s.Peer(seat).Game()
				w := g.Unverified()
				if !g.Over() || w == nil || w.Seat != c.seat || w.Check != c.check || !errors.Is(w, c.err) {
					t.Fatalf("seat %d: over %v, unverified %v", seat, g.Over(), w)
				}
				if _, ok := g.Result(); ok {
					t.Fatalf("seat %d has an audited result without seat %d's reveal", seat, c.seat)
				}
			}
			v, err := Verify(bytes.NewReader(first))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !v.Over || v.TheGame != nil || v.Unverified == nil || v.Claimed == nil {
				t.Fatalf("Verify: over %v, result %v, unverified %v, claimed %v", v.Over, v.TheGame, v.Unverified, v.Claimed)
			}
			if v.Unverified.Seat != c.seat || v.Unverified.Check != c.check {
				t.Fatalf("Verify names seat %d (%s), want seat %d (%s)", v.Unverified.Seat, v.Unverified.Check, c.seat, c.check)
			}
			if n := len(v.Voided); n != 1 || v.Voided[0].Check != c.check {
				t.Fatalf("Verify: voided %v", v.Voided)
			}
			claimed, ok := s.Peer(stay).Game().Claimed()
			if !ok || *v.Claimed != claimed {
				t.Fatalf("Verify claims %+v, the table %+v", v.Claimed, claimed)
			}
			t.Logf("%s: %d envelopes, %d turns, %d cards left (not verified)", c.name, v.Envelopes, claimed.Turns, claimed.Result.CardsLeft)
		})
	}
}
