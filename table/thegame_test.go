package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// playTheGame runs a table of The Game to its end and returns the
// selfplay and every seat's export. watch sees every peer whenever its log
// grows.
func playTheGame(t testing.TB, players int, extreme bool, seed uint64, watch func(int, *Peer) error) (*Selfplay, [][]byte) {
	t.Helper()
	cfg := theGameConfig(t, players, extreme, seed)
	cfg.Net, cfg.Watch = tablelog.NetConfig{Drop: 0.05, Duplicate: 0.05}, watch
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var exports [][]byte
	for seat := range players {
		exports = append(exports, seatExport(t, s, seat))
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
			watch := func(seat int, p *Peer) error {
				leaks += viewLeaks(t, p.Game(), seat)
				return nil
			}
			_, exports := playTheGame(t, c.players, c.extreme, uint64(100+i), watch)
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
			want, ok := replayObserver(t, writeTemp(t, exports[0])).TheGame().Result()
			if !ok || *v.TheGame != want {
				t.Fatalf("Verify found %+v, the table %+v", *v.TheGame, want)
			}
			if v.Genesis.Game != GameTheGame || v.Genesis.Extreme != c.extreme || v.Genesis.Players() != c.players {
				t.Fatalf("genesis %+v", v.Genesis)
			}
			kinds := kindCounts(t, exports[0])
			if c.players > 1 && kinds[tablelog.KindSignal] == 0 {
				t.Error("the coop bots gave no signal")
			}
			if r := v.TheGame.Result; r.Won != (kinds[tablelog.KindStuck] == 0) || r.Won && r.CardsLeft != 0 {
				t.Errorf("result %+v after %d Stuck", r, kinds[tablelog.KindStuck])
			}
			if kinds[tablelog.KindComplaint] != 0 {
				t.Errorf("%d complaints in an honest game", kinds[tablelog.KindComplaint])
			}
			if kinds[tablelog.KindReveal] != c.players || kinds[tablelog.KindShuffle] != c.players || kinds[tablelog.KindRoundKey] != c.players {
				t.Errorf("kinds in the log: %v", kinds)
			}
			t.Logf("%s: %d envelopes, %d turns, %d cards left, won %v, broken %v", name, v.Envelopes,
				v.TheGame.Turns, v.TheGame.Result.CardsLeft, v.TheGame.Result.Won, v.TheGame.Result.Broken)
		})
	}
}

// kindCounts counts the envelopes of each kind in an export.
func kindCounts(t testing.TB, export []byte) map[tablelog.Kind]int {
	t.Helper()
	_, envs, err := tablelog.ReadExport(bytes.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	out := map[tablelog.Kind]int{}
	for _, e := range envs {
		out[e.Kind]++
	}
	return out
}

// viewLeaks checks seat's view on its own peer and every other seat's view
// there: the seat sees only its own hand, and another seat's view on this
// peer holds no card at all. It also checks that the peer knows no card
// outside its hand but the played ones. It returns the number of leaks.
func viewLeaks(t *testing.T, game *Game, seat int) int {
	t.Helper()
	game.mu.Lock()
	defer game.mu.Unlock()
	g, ok := game.rules.(*TheGame)
	if !ok {
		return 0
	}
	leaks := 0
	for p, c := range g.known {
		if !g.played[p] && g.holder[p] != seat {
			t.Errorf("seat %d's peer knows card %s at position %d of seat %d", seat, c, p, g.holder[p])
			leaks++
		}
	}
	for s := range game.n {
		v := g.view(s)
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

// reseal renumbers envs, chains them again and signs each with its
// author's key: a log as the seats themselves could have signed it.
func reseal(t *testing.T, envs []*tablelog.Envelope, keys []ed25519.PrivateKey) []byte {
	t.Helper()
	var prev tablelog.Hash
	for i, e := range envs {
		e.Seq, e.Prev = uint64(i), prev
		if err := e.Sign(keys[e.Author]); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash()
	}
	var b bytes.Buffer
	if err := tablelog.WriteExport(&b, envs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTheGameVerifyTampered: a log of The Game that was changed, or in
// which a seat cheated with its own key, is refused with an error that
// names the check and, for a cheat, the seat.
func TestTheGameVerifyTampered(t *testing.T) {
	s, exports := playTheGame(t, 3, true, 7, nil)
	_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	// The public record of the game, read by an observer.
	game := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0]})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: s.Table(), Protocol: game})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	obs := game.TheGame()
	var firstPlay, latePlay, misfit, misfitPile int
	piles := startPilesOf()
	for _, a := range obs.record {
		if a.kind != tablelog.KindPlay {
			continue
		}
		if firstPlay == 0 {
			firstPlay = int(a.seq)
		}
		if a.seat == int(envs[firstPlay].Author) && a.pos >= 3*6 {
			latePlay = int(a.seq)
		}
		for q := range thegame.NumPiles {
			if ok, _ := piles[q].Fits(a.card); !ok && misfit == 0 {
				misfit, misfitPile = int(a.seq), q
			}
		}
		piles[a.pile].Top = int(a.card)
	}
	// The first envelope of a seat on turn while a no-talking card lies on
	// top: a signal there breaks G-X6.
	muted := 0
	piles = startPilesOf()
	for i, a := range obs.record {
		if a.kind == tablelog.KindPlay {
			piles[a.pile].Top, piles[a.pile].Cmd = int(a.card), thegame.CommandOf(a.card)
		}
		q := thegame.Position{Piles: piles, Extreme: true}
		if muted == 0 && q.InForce(thegame.CmdSilence) && i+1 < len(obs.record) && !obs.record[i+1].draw {
			muted = int(obs.record[i+1].seq)
		}
	}
	if firstPlay == 0 || latePlay == 0 || misfit == 0 || muted == 0 {
		t.Fatalf("the game has no plays to tamper with: %d %d %d %d", firstPlay, latePlay, misfit, muted)
	}
	reveals := func(es []*tablelog.Envelope) []*tablelog.Envelope {
		for _, e := range envs {
			if e.Kind == tablelog.KindReveal {
				es = append(es, e.Clone())
			}
		}
		return es
	}
	clone := func(n int) []*tablelog.Envelope {
		out := make([]*tablelog.Envelope, n)
		for i := range out {
			out[i] = envs[i].Clone()
		}
		return out
	}
	cases := []struct {
		name  string
		log   func() []byte
		want  error
		check string // the Violation's check, when a seat cheated
	}{
		{"a byte of a play flipped", func() []byte {
			b := bytes.Clone(exports[0])
			enc, err := envs[firstPlay].MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			b[bytes.Index(b, enc)+100] ^= 1
			return b
		}, tablelog.ErrBadSignature, ""},
		{"a seat posts out of turn", func() []byte {
			es := clone(firstPlay + 1)
			es[firstPlay].Author = (es[firstPlay].Author + 1) % 3
			return reseal(t, es, s.keys)
		}, tablelog.ErrNotEntitled, ""},
		{"a card the seat does not hold", func() []byte {
			es := clone(firstPlay + 1)
			es[firstPlay].Body = bytes.Clone(envs[latePlay].Body)
			return reseal(t, es, s.keys)
		}, ErrCheat, CheckPosition},
		{"a card on a pile it does not fit", func() []byte {
			es := clone(misfit + 1)
			es[misfit].Body[1] = byte(misfitPile)
			return reseal(t, es, s.keys)
		}, ErrCheat, CheckGameRules},
		{"G-X6 a signal under no talking", func() []byte {
			es := clone(muted + 1)
			es[muted].Kind, es[muted].Body = tablelog.KindSignal, signalBody(0, thegame.SignalMine)
			return reseal(t, es, s.keys)
		}, ErrCheat, CheckGameRules},
		{"a turn ended before its minimum", func() []byte {
			es := clone(firstPlay + 1)
			es[firstPlay].Kind, es[firstPlay].Body = tablelog.KindTurnEnd, emptyBody()
			return reseal(t, es, s.keys)
		}, ErrCheat, CheckGameRules},
		{"stuck with a hand that could play", func() []byte {
			es := clone(firstPlay + 1)
			es[firstPlay].Kind, es[firstPlay].Body = tablelog.KindStuck, emptyBody()
			return reseal(t, reveals(es), s.keys)
		}, ErrCheat, CheckStuck},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Verify(bytes.NewReader(c.log()))
			if !errors.Is(err, c.want) {
				t.Fatalf("Verify: %v, want %v", err, c.want)
			}
			if c.check != "" {
				var v *Violation
				if !errors.As(err, &v) || v.Check != c.check {
					t.Fatalf("Verify: %v, want the %q check", err, c.check)
				}
			}
			t.Logf("refused: %v", err)
		})
	}
}

// TestTheGameGenesis: the genesis names the game, the variant and the
// command assignment, round-trips, and is checked on read with clear
// errors; a Njet genesis keeps its encoding.
func TestTheGameGenesis(t *testing.T) {
	keys := make([]tablelog.Identity, 6)
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
		{"shared key", &Genesis{Game: GameTheGame, Keys: []tablelog.Identity{keys[0], keys[0]}}},
		{"unknown assignment", func() *Genesis { g := good(2, true); g.Commands = 2; return g }()},
		{"base game with an assignment", func() *Genesis { g := good(2, false); g.Commands = 1; return g }()},
		{"Njet fields", func() *Genesis { g := good(2, false); g.Target = 5; return g }()},
		{"unknown game", func() *Genesis { g := good(2, false); g.Game = 9; return g }()},
	}
	for _, c := range bad {
		t.Run("refused/"+c.name, func(t *testing.T) {
			if _, err := c.gen.MarshalBinary(); !errors.Is(err, tablelog.ErrMalformed) {
				t.Fatalf("got %v, want tablelog.ErrMalformed", err)
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
			if _, err := ParseGenesis(x); !errors.Is(err, tablelog.ErrMalformed) {
				t.Fatalf("got %v, want tablelog.ErrMalformed", err)
			}
		})
	}
	t.Run("trailing byte", func(t *testing.T) {
		if _, err := ParseGenesis(append(bytes.Clone(b), 0)); !errors.Is(err, tablelog.ErrMalformed) {
			t.Fatalf("got %v, want tablelog.ErrMalformed", err)
		}
	})
}
