package table

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// High card is a game that exists only in this test, to show what a new
// game costs: its rules (this file) and an entry in gameSpecs; the
// protocol, the peer, the selfplay and Verify are the ones Njet and The
// Game use. Two or three seats are dealt two cards each of twelve; in seat
// order each plays one card, twice round the table; the highest card
// played wins. A takeover deals the round again.

const gameHighCard GameName = 0xFF

const (
	highCardCards = 12
	highCardHand  = 2
)

func init() {
	gameSpecs[gameHighCard] = gameSpec{name: "highcard", rules: newHighCard, minSeats: 2, maxSeats: 3,
		validate: func(g *Genesis) error {
			if g.Extreme || g.Commands != 0 {
				return fmt.Errorf("%w: high card has no variant", tablelog.ErrMalformed)
			}
			return nil
		}}
}

// highCardPlayer is how high card asks a player: which of its cards, by
// value, to play.
type highCardPlayer interface {
	Pick(hand []int) int
}

// highCard is the rules of a table of high card.
type highCard struct {
	g      *Game
	holder []int       // per position: its seat, or -1
	played []bool      // per position
	known  map[int]int // per position: the card (1 to 12) this peer knows
	turn   int
	plays  int
	best   int // the highest card played, and its seat
	winner int
	over   bool
}

func newHighCard(g *Game) (rules, error) { return &highCard{g: g}, nil }

func (h *highCard) traits() traits { return traits{} }

func (h *highCard) deal() (string, int, []int) {
	h.holder = slices.Repeat([]int{-1}, highCardCards)
	h.played = make([]bool, highCardCards)
	h.known = map[int]int{}
	h.turn, h.plays, h.best, h.winner = 0, 0, 0, -1
	return fmt.Sprintf("highcard/%d", h.g.n), highCardCards, slices.Repeat([]int{highCardHand}, h.g.n)
}

func (h *highCard) keysName(r uint64, seat int) string {
	return fmt.Sprintf("highcard-keys/%d/%d", r, seat)
}

func (h *highCard) dealt() *Violation {
	g := h.g
	for s := range g.n {
		_, opens := g.opensFor(s)
		for p := g.handStart(s); p < g.handStart(s)+highCardHand; p++ {
			h.holder[p] = s
			if opens {
				i, v := g.openCard(s, p)
				if v != nil {
					return v
				}
				h.known[p] = i + 1
			}
		}
	}
	return nil
}

func (h *highCard) entitled() (int, []tablelog.Kind, error) {
	return h.turn, []tablelog.Kind{tablelog.KindPlay}, nil
}

func (h *highCard) apply(env *tablelog.Envelope) (*Violation, error) {
	var m crypto.PlayMessage
	if err := parseCrypto(tablelog.KindPlay, env.Body, &m); err != nil {
		return nil, err
	}
	seat := int(env.Author)
	if m.Seat != seat || m.Position < 0 || m.Position >= highCardCards || h.holder[m.Position] != seat || h.played[m.Position] {
		return violation(seat, CheckPosition, "position %d is not in the seat's hand", m.Position), nil
	}
	i, v := h.g.verifyPlay(seat, &m)
	if v != nil {
		return v, nil
	}
	h.played[m.Position], h.known[m.Position] = true, i+1
	if i+1 > h.best {
		h.best, h.winner = i+1, seat
	}
	h.plays++
	h.turn = (h.turn + 1) % h.g.n
	if h.plays == highCardHand*h.g.n {
		h.g.st = stReveal
	}
	return nil, nil
}

func (h *highCard) reveal(seat int, body []byte) (*crypto.Reveal, *Violation, error) {
	var m crypto.Reveal
	if err := parseCrypto(tablelog.KindReveal, body, &m); err != nil {
		return nil, nil, err
	}
	return &m, h.g.revealSecrets(seat, &m), nil
}

func (h *highCard) revealBody(_ int, sec *crypto.Secrets) ([]byte, error) {
	return cryptoBody(sec.Reveal())
}

func (h *highCard) audit() *Violation {
	rd := h.g.rd
	tr := &crypto.Transcript{Params: rd.params, Keys: rd.keys, Shuffles: rd.shuffles, Sealed: rd.sealed,
		Plays: rd.plays, Reveals: rd.reveals}
	if err := crypto.Audit(tr); err != nil {
		return cryptoViolation(-1, err)
	}
	h.over = true
	h.g.st = stOver
	return nil
}

func (h *highCard) lastDeal() bool { return true }

// void deals the round again, with the bots in the seats taken.
func (h *highCard) void(*Violation) {
	if h.g.st == stAcks || h.g.st == stOver {
		return
	}
	h.g.startRound()
}

func (h *highCard) redealable() bool { return true }

func (h *highCard) claimAt(seat int) bool {
	g := h.g
	return g.st == stKeys && g.rd != nil && len(g.rd.keys) == seat
}

func (h *highCard) claimRound() uint64 {
	if h.g.st == stKeys {
		return h.g.round
	}
	return h.g.round + 1
}

func (h *highCard) claimMark() uint64 { return h.g.round }

func (h *highCard) claimed(int) {}

// hand returns the cards of seat this peer knows and that are unplayed,
// with their positions.
func (h *highCard) hand(seat int) (cards, pos []int) {
	for p, c := range h.known {
		if h.holder[p] == seat && !h.played[p] {
			cards, pos = append(cards, c), append(pos, p)
		}
	}
	return cards, pos
}

func (h *highCard) draft(d *draft, seat int, rnd io.Reader, c chooser) error {
	cards, pos := h.hand(seat)
	pl, ok := c.player.(highCardPlayer)
	if !ok || len(cards) == 0 {
		return fmt.Errorf("table: seat %d cannot play high card (player %T, %d cards)", seat, c.player, len(cards))
	}
	i := slices.Index(cards, pl.Pick(slices.Clone(cards)))
	if i < 0 {
		return fmt.Errorf("table: seat %d picked a card it does not hold", seat)
	}
	sec, err := h.g.hosted(seat)
	if err != nil {
		return err
	}
	rd := h.g.rd
	m, err := rd.cr.Play(sec, rd.deck, pos[i], rd.openings[pos[i]], rnd)
	if err != nil {
		return err
	}
	d.kind = tablelog.KindPlay
	d.body, err = cryptoBody(m)
	return err
}

func (h *highCard) asks(int) (bool, bool) { return true, false }

func (h *highCard) checkMove(seat int, move any, now bool) error {
	c, ok := move.(int)
	cards, _ := h.hand(seat)
	if !ok || !now || !slices.Contains(cards, c) {
		return fmt.Errorf("%w: %v", ErrIllegalAction, move)
	}
	return nil
}

// lowFirst is a high card player: it keeps its highest card for last.
type lowFirst struct{}

func (lowFirst) Name() string                            { return "low-first" }
func (lowFirst) Pick(hand []int) int                     { return slices.Min(hand) }
func highCardPlayers(string, *rand.Rand) (Player, error) { return lowFirst{}, nil }

// TestHighCardTable plays whole tables of high card over a lossy network,
// one with a device gone in the play: the one protocol deals, opens,
// audits and takes the gone seat over for a game it knows only through
// its rules, every device ends with the same log, and Verify replays it.
func TestHighCardTable(t *testing.T) {
	cases := []struct {
		name    string
		players int
		leaves  []Leave
	}{
		{"two seats", 2, nil},
		{"three seats", 3, nil},
		{"a device gone in the play", 3, []Leave{{Seat: 2, When: func(g *Game) bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			h, ok := g.rules.(*highCard)
			return ok && g.st == stPlay && h.plays >= 1
		}}}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := SelfplayConfig{Game: gameHighCard, Players: c.players, Seed: uint64(700 + i), Dir: t.TempDir(),
				Bot: "low-first", NewPlayer: highCardPlayers, Leaves: c.leaves, VoidAfter: 10 * time.Second,
				Net: tablelog.NetConfig{Drop: 0.05, Duplicate: 0.05}}
			s, err := NewSelfplay(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := s.Run(ctx); err != nil {
				t.Fatal(err)
			}
			var first []byte
			for seat := range c.players {
				if slices.ContainsFunc(c.leaves, func(l Leave) bool { return l.Seat == seat }) {
					continue
				}
				x := seatExport(t, s, seat)
				if first == nil {
					first = x
				} else if !bytes.Equal(x, first) {
					t.Fatalf("seat %d's log differs", seat)
				}
			}
			v, err := Verify(bytes.NewReader(first))
			if err != nil || !v.Over || v.Genesis.Game != gameHighCard {
				t.Fatalf("Verify: %v, over %v", err, v != nil && v.Over)
			}
			if gone := len(c.leaves) > 0; gone != (len(v.Voided) > 0) {
				t.Fatalf("takeovers %v with %d devices gone", v.Voided, len(c.leaves))
			}
			obs := replayObserver(t, writeTemp(t, first))
			h := obs.rules.(*highCard)
			if !h.over || h.best < highCardHand*c.players || h.winner < 0 {
				t.Fatalf("the game ended with %d the best card, won by seat %d", h.best, h.winner)
			}
			t.Logf("%s: %d envelopes, card %d wins for seat %d, %d takeovers", c.name, v.Envelopes, h.best, h.winner, len(v.Voided))
		})
	}
}
