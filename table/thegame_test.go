package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/njetlan/njet/thegame"
)

// playTheGame runs a table of The Game to its end and returns the
// selfplay and every seat's export. watch sees every peer whenever its log
// grows.
func playTheGame(t *testing.T, players int, extreme bool, seed uint64, watch func(int, *TheGamePeer) error) (*TheGameSelfplay, [][]byte) {
	t.Helper()
	s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: players, Extreme: extreme, Seed: seed, Dir: t.TempDir(),
		Net: NetConfig{Drop: 0.05, Duplicate: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Run(ctx, watch); err != nil {
		t.Fatal(err)
	}
	var exports [][]byte
	for seat := range players {
		b, err := s.Export(seat)
		if err != nil {
			t.Fatal(err)
		}
		exports = append(exports, b)
	}
	return s, exports
}

// TestTheGameTable plays tables of The Game with coop bots at 1, 3 and 5
// seats, base and Extreme: every seat ends with the same log, Verify
// accepts it and finds the result every seat's table found, and no seat's
// view ever holds a card of another hand or of the draw pile.
func TestTheGameTable(t *testing.T) {
	cases := []struct {
		players int
		extreme bool
	}{{1, false}, {3, false}, {5, false}, {1, true}, {3, true}, {5, true}}
	for i, c := range cases {
		name := fmt.Sprintf("players=%d/extreme=%v", c.players, c.extreme)
		t.Run(name, func(t *testing.T) {
			if testing.Short() && c.players == 5 && !c.extreme {
				t.Log("one five-seat game is enough with -short")
				return
			}
			leaks := 0
			watch := func(seat int, p *TheGamePeer) error {
				leaks += viewLeaks(t, p.Game(), seat)
				return nil
			}
			s, exports := playTheGame(t, c.players, c.extreme, uint64(100+i), watch)
			if leaks != 0 {
				t.Fatalf("%d cards in views that the seat does not hold", leaks)
			}
			for seat := 1; seat < c.players; seat++ {
				if !bytes.Equal(exports[seat], exports[0]) {
					t.Fatalf("seat %d's log differs from seat 0's", seat)
				}
			}
			v, err := Verify(bytes.NewReader(exports[0]))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !v.Over || v.TheGame == nil {
				t.Fatalf("Verify: over %v, result %v", v.Over, v.TheGame)
			}
			want, ok := s.Peer(0).Game().Result()
			if !ok || *v.TheGame != want {
				t.Fatalf("Verify found %+v, the table %+v", *v.TheGame, want)
			}
			if v.Genesis.Game != GameTheGame || v.Genesis.Extreme != c.extreme || v.Genesis.Players() != c.players {
				t.Fatalf("genesis %+v", v.Genesis)
			}
			t.Logf("%s: %d envelopes, %d turns, %d cards left, won %v, broken %v", name, v.Envelopes,
				v.TheGame.Turns, v.TheGame.Result.CardsLeft, v.TheGame.Result.Won, v.TheGame.Result.Broken)
		})
	}
}

// viewLeaks checks seat's view on its own peer and every other seat's view
// there: the seat sees only its own hand, and another seat's view on this
// peer holds no card at all. It also checks that the peer knows no card
// outside its hand but the played ones. It returns the number of leaks.
func viewLeaks(t *testing.T, g *TheGame, seat int) int {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	leaks := 0
	for p, c := range g.known {
		if !g.played[p] && g.holder[p] != seat {
			t.Errorf("seat %d's peer knows card %s at position %d of seat %d", seat, c, p, g.holder[p])
			leaks++
		}
	}
	if g.gen == nil {
		return leaks
	}
	for s := range g.n {
		v := g.viewLocked(s)
		for _, c := range v.Hand {
			held := false
			for p, k := range g.known {
				if k == c && g.holder[p] == s && !g.played[p] {
					held = true
				}
			}
			if s != seat || !held {
				t.Errorf("the view of seat %d on seat %d's peer holds %s", s, seat, c)
				leaks++
			}
		}
	}
	return leaks
}

// TestTheGameVerifyTampered: a log of The Game changed after the fact is
// refused with a clear error, wherever the change is.
func TestTheGameVerifyTampered(t *testing.T) {
	_, exports := playTheGame(t, 3, true, 7, nil)
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	find := func(k Kind) int {
		for i, e := range envs {
			if e.Kind == k {
				return i
			}
		}
		t.Fatalf("no %v in the log", k)
		return 0
	}
	cases := []struct {
		name   string
		change func([]*Envelope) []*Envelope
		want   error
	}{
		{"a byte of a play", func(es []*Envelope) []*Envelope {
			i := find(KindPlay)
			es[i].Body[len(es[i].Body)-1] ^= 1
			return es
		}, ErrBadSignature},
		{"the last envelope dropped", func(es []*Envelope) []*Envelope { return es[:len(es)-1] }, nil},
		{"two envelopes swapped", func(es []*Envelope) []*Envelope {
			i := find(KindPlay)
			es[i], es[i+1] = es[i+1], es[i]
			return es
		}, ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es := make([]*Envelope, len(envs))
			for i, e := range envs {
				es[i] = e.Clone()
			}
			es = c.change(es)
			var b bytes.Buffer
			if err := WriteExport(&b, es); err != nil {
				// A change the writer refuses is refused too.
				if c.want != nil && !errors.Is(err, c.want) {
					t.Fatalf("WriteExport: %v, want %v", err, c.want)
				}
				return
			}
			v, err := Verify(&b)
			if c.want == nil {
				// A log cut short verifies as far as it goes but is not over.
				if err != nil || v.Over || v.TheGame != nil {
					t.Fatalf("cut log: over %v, err %v", v.Over, err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("Verify: %v, want %v", err, c.want)
			}
		})
	}
}

// TestTheGameGenesis: the genesis names the game, the variant and the
// command assignment, round-trips, and is checked on read with clear
// errors; a Njet genesis keeps its encoding.
func TestTheGameGenesis(t *testing.T) {
	keys := make([]Identity, 6)
	for i := range keys {
		keys[i][0] = byte(i + 1)
	}
	good := func(n int, extreme bool) *Genesis {
		g := &Genesis{Game: GameTheGame, Keys: keys[:n], Extreme: extreme}
		if extreme {
			g.Commands = thegame.AssignmentVersion
		}
		return g
	}
	for _, n := range []int{1, 2, 5} {
		for _, x := range []bool{false, true} {
			t.Run(fmt.Sprintf("round trip/players=%d/extreme=%v", n, x), func(t *testing.T) {
				g := good(n, x)
				g.Names = make([]string, n)
				g.Names[0] = "Ada"
				b, err := g.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				back, err := ParseGenesis(b)
				if err != nil {
					t.Fatal(err)
				}
				b2, err := back.MarshalBinary()
				if err != nil || !bytes.Equal(b, b2) || back.Game != GameTheGame || back.Extreme != x || back.Players() != n {
					t.Fatalf("round trip: %+v, %v", back, err)
				}
			})
		}
	}
	bad := []struct {
		name string
		gen  *Genesis
	}{
		{"no seat", &Genesis{Game: GameTheGame}},
		{"six seats", good(6, false)},
		{"shared key", &Genesis{Game: GameTheGame, Keys: []Identity{keys[0], keys[0]}}},
		{"unknown assignment", func() *Genesis { g := good(2, true); g.Commands = 2; return g }()},
		{"base game with an assignment", func() *Genesis { g := good(2, false); g.Commands = 1; return g }()},
		{"Njet fields", func() *Genesis { g := good(2, false); g.Target = 5; return g }()},
		{"unknown game", func() *Genesis { g := good(2, false); g.Game = 9; return g }()},
	}
	for _, c := range bad {
		t.Run("refused/"+c.name, func(t *testing.T) {
			if _, err := c.gen.MarshalBinary(); !errors.Is(err, ErrMalformed) {
				t.Fatalf("got %v, want ErrMalformed", err)
			}
		})
	}
	// Bytes changed on the wire.
	b, err := good(3, true).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	wire := []struct {
		name string
		at   int
		to   byte
	}{
		{"game byte", 1, 0},
		{"assignment version", 3, 7},
		{"a command card", 4, 5},
		{"seat count", 4 + 28, 0},
	}
	for _, c := range wire {
		t.Run("wire/"+c.name, func(t *testing.T) {
			x := bytes.Clone(b)
			x[c.at] = c.to
			if _, err := ParseGenesis(x); !errors.Is(err, ErrMalformed) {
				t.Fatalf("got %v, want ErrMalformed", err)
			}
		})
	}
	t.Run("trailing byte", func(t *testing.T) {
		if _, err := ParseGenesis(append(bytes.Clone(b), 0)); !errors.Is(err, ErrMalformed) {
			t.Fatalf("got %v, want ErrMalformed", err)
		}
	})
}
