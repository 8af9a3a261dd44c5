package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// spoiledToken is what a sender's draft hook did: the seq of the
// DealTokens it spoiled and the seat the spoiled token was sealed to.
type spoiledToken struct {
	seq    uint64
	victim int
}

// spoilToken returns a draft hook for seat sender of s that spoils one
// sealed token in the first DealTokens it posts of the deal (draw false:
// the token to seat victim) or of a draw (draw true: the first drawn
// position, to the drawer), in the way how names: "ciphertext",
// "commitment", or "token proof" (a token well sealed but computed on the
// deck before the shuffles, so that it opens and its proof fails).
func spoilToken(t *testing.T, s *TheGameSelfplay, sender, victim int, draw bool, how string, out *spoiledToken) func(*draft) {
	done := false
	return func(d *draft) {
		if done || d.kind != KindDealTokens {
			return
		}
		sealed, err := parseDeal(d.body)
		if err != nil || len(sealed) == 0 {
			t.Errorf("seat %d drafted tokens %d, %v", sender, len(sealed), err)
			return
		}
		n := s.cfg.Players
		if isDraw := sealed[0].Position >= n*thegame.HandSize(n); isDraw != draw {
			return
		}
		i := 0
		if !draw {
			i = slices.IndexFunc(sealed, func(m crypto.Sealed) bool { return m.To == victim })
		}
		m := &sealed[i]
		switch how {
		case "ciphertext":
			m.Ciphertext[len(m.Ciphertext)-1] ^= 1
		case "commitment":
			m.Commitment[0] ^= 1
		case "token proof":
			g := s.Peer(sender).Game()
			g.mu.Lock()
			initial, err := crypto.InitialDeck(g.params)
			var bad *crypto.Sealed
			if err == nil {
				bad, err = g.cr.Deal(g.secrets[sender], initial, m.Position, m.To, rand.NewChaCha8([32]byte{9}))
			}
			g.mu.Unlock()
			if err != nil {
				t.Errorf("a token on the first deck: %v", err)
				return
			}
			*m = *bad
		default:
			t.Errorf("no way %q to spoil a token", how)
			return
		}
		ptrs := make([]*crypto.Sealed, len(sealed))
		for j := range sealed {
			ptrs[j] = &sealed[j]
		}
		body, err := dealBody(ptrs)
		if err != nil {
			t.Errorf("re-encode the tokens: %v", err)
			return
		}
		d.body, done = body, true
		*out = spoiledToken{seq: d.seq, victim: m.To}
	}
}

// runTheGameUntilHalt plays s until every device is done and returns
// every seat's export.
func runTheGameUntilHalt(t *testing.T, s *TheGameSelfplay) [][]byte {
	t.Helper()
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var exports [][]byte
	for seat := range s.cfg.Players {
		b, err := s.Export(seat)
		if err != nil {
			t.Fatal(err)
		}
		exports = append(exports, b)
	}
	return exports
}

// expectNamedByComplaint checks that every device of s halted at the
// same seq, the Complaint of seat complainer, with seat named for check;
// that no device posted after it; that every log is the same; and that
// Verify names the same seat, check and seq.
func expectNamedByComplaint(t *testing.T, s *TheGameSelfplay, exports [][]byte, complainer, seat int, check string) *Violation {
	t.Helper()
	var first *Violation
	for dev := range s.cfg.Players {
		v := s.Peer(dev).Game().Violation()
		if v == nil || v.Seat != seat || v.Check != check || v.Private || !errors.Is(v, ErrCheat) {
			t.Fatalf("device %d's table: %v, want seat %d named for the %q check", dev, v, seat, check)
		}
		if first == nil {
			first = v
		} else if v.Seq != first.Seq {
			t.Fatalf("device %d halted at seq %d, device 0 at %d", dev, v.Seq, first.Seq)
		}
		if next := s.Peer(dev).Log().Next(); next != v.Seq+1 {
			t.Fatalf("device %d's log grew to %d after the halt at %d", dev, next, v.Seq)
		}
		if !bytes.Equal(exports[dev], exports[0]) {
			t.Fatalf("device %d's log differs from device 0's", dev)
		}
	}
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	if e := envs[first.Seq]; e.Kind != KindComplaint || int(e.Author) != complainer {
		t.Fatalf("the table halted at %v of seat %d, want seat %d's Complaint", e.Kind, e.Author, complainer)
	}
	_, err = Verify(bytes.NewReader(exports[0]))
	var vv *Violation
	if !errors.As(err, &vv) || vv.Seat != seat || vv.Check != check || vv.Seq != first.Seq {
		t.Fatalf("Verify: %v, want %v", err, first)
	}
	return first
}

// A sealed token of The Game that does not open — a deal token of a
// starting hand, or a draw token — halts no device alone: its recipient
// posts a Complaint at its next entitled moment, every device re-opens
// the token with the secrets it reveals and halts with the sender named,
// and Verify names the same.
func TestTheGameComplaintNamesTheSender(t *testing.T) {
	cases := []struct {
		name            string
		players         int
		extreme         bool
		sender, victim  int
		draw            bool
		how             string
		net             NetConfig
		complainsAtTurn bool // the victim's next entitled moment is its turn
	}{
		// Seat 0 plays first: its first turn comes right after the deal.
		{"deal token to the first player", 3, false, 2, 0, false, "ciphertext", NetConfig{}, true},
		// Seat 2 still owes its deal tokens: it complains in their place.
		{"deal token to a later dealer", 3, true, 0, 2, false, "token proof", NetConfig{Drop: 0.05, Duplicate: 0.05}, false},
		// Seat 0 drew; it complains instead of its tokens for seat 1's draw.
		{"draw token", 3, false, 1, 0, true, "commitment", NetConfig{}, false},
		{"draw token at two seats", 2, true, 1, 0, true, "token proof", NetConfig{Drop: 0.05}, false},
		{"deal token at five seats", 5, false, 3, 1, false, "ciphertext", NetConfig{}, false},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.name, c.how), func(t *testing.T) {
			s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: c.players, Extreme: c.extreme, Seed: uint64(150 + i),
				Dir: t.TempDir(), Net: c.net})
			if err != nil {
				t.Fatal(err)
			}
			var spoiled spoiledToken
			s.tamper = map[int]func(*draft){c.sender: spoilToken(t, s, c.sender, c.victim, c.draw, c.how, &spoiled)}
			exports := runTheGameUntilHalt(t, s)
			if spoiled.seq == 0 || spoiled.victim != c.victim {
				t.Fatalf("the sender spoiled %+v, want a token to seat %d", spoiled, c.victim)
			}
			v := expectNamedByComplaint(t, s, exports, c.victim, c.sender, c.how)
			if v.Seq <= spoiled.seq {
				t.Fatalf("the complaint at seq %d, the spoiled tokens at %d", v.Seq, spoiled.seq)
			}
			// The complaint came at the victim's next entitled moment:
			// every envelope between is another seat's.
			_, envs, err := ReadExport(bytes.NewReader(exports[0]))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range envs[spoiled.seq+1 : v.Seq] {
				if int(e.Author) == c.victim {
					t.Fatalf("seat %d posted %v at seq %d before its complaint", c.victim, e.Kind, e.Seq)
				}
			}
			obs := replayTheGame(t, s.Table(), s.ids[0], envs[:v.Seq])
			turn, err := obs.Entitled(v.Seq)
			if err != nil {
				t.Fatal(err)
			}
			if atTurn := slices.Contains(turn.Kinds, KindPlay); atTurn != c.complainsAtTurn {
				t.Errorf("the complaint took the place of %v, want a turn: %v", turn.Kinds, c.complainsAtTurn)
			}
		})
	}
}

// replayTheGame returns an observer's TheGame after envs.
func replayTheGame(t *testing.T, table TableID, creator Identity, envs []*Envelope) *TheGame {
	t.Helper()
	obs := NewTheGame(GameConfig{Table: table, Creator: creator})
	log, err := NewLog(LogConfig{Table: table, Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return obs
}

// falseComplaint returns a draft hook for seat liar of s: at its first
// turn in play it complains, with its true round secrets, of the deal
// token from seat from, which opened.
func falseComplaint(t *testing.T, s *TheGameSelfplay, liar, from int) func(*draft) {
	done := false
	return func(d *draft) {
		if done || d.kind != KindPlay && d.kind != KindStuck {
			return
		}
		g := s.Peer(liar).Game()
		g.mu.Lock()
		i := slices.IndexFunc(g.sealed, func(m crypto.Sealed) bool { return m.From == from && m.To == liar })
		var body []byte
		err := fmt.Errorf("no token from seat %d to seat %d", from, liar)
		if i >= 0 {
			m := g.sealed[i]
			body, err = complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: g.secrets[liar].Reveal()})
		}
		g.mu.Unlock()
		if err != nil {
			t.Errorf("the false complaint: %v", err)
			return
		}
		d.kind, d.body, done = KindComplaint, body, true
	}
}

// A Complaint about a token that opens names the complainer, on every
// device and in Verify; a Complaint that names no token of the author, or
// comes out of turn, is refused, and one with secrets that are not the
// author's names the author.
func TestTheGameFalseComplaintNamesTheComplainer(t *testing.T) {
	const liar, from = 1, 2
	s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: 3, Seed: 170, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s.tamper = map[int]func(*draft){liar: falseComplaint(t, s, liar, from)}
	exports := runTheGameUntilHalt(t, s)
	v := expectNamedByComplaint(t, s, exports, liar, liar, CheckComplaint)
	if !errors.Is(v, ErrFalseComplaint) {
		t.Fatalf("violation %v, want ErrFalseComplaint", v)
	}

	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseComplaint(envs[v.Seq].Body)
	if err != nil {
		t.Fatal(err)
	}
	// Variants of the complaint, signed by the seats, at its seq.
	withBody := func(author int, edit func(c *complaint)) func() []*Envelope {
		return func() []*Envelope {
			out := make([]*Envelope, v.Seq+1)
			for i := range out {
				out[i] = envs[i].Clone()
			}
			x := *c
			r := *c.reveal
			x.reveal = &r
			edit(&x)
			b, err := complaintBody(&x)
			if err != nil {
				t.Fatal(err)
			}
			out[v.Seq].Author, out[v.Seq].Body = uint8(author), b
			return out
		}
	}
	cases := []struct {
		name  string
		envs  func() []*Envelope
		want  error
		seat  int    // the seat named, when a Violation
		check string // its check
	}{
		{"about a token to another seat", withBody(liar, func(c *complaint) { c.from = liar }), ErrRejected, 0, ""},
		{"about a forward, which The Game has not", withBody(liar, func(c *complaint) { c.kind = crypto.SealForward }), ErrRejected, 0, ""},
		{"out of turn", withBody(from, func(*complaint) {}), ErrNotEntitled, 0, ""},
		{"with another seat's secrets", withBody(liar, func(c *complaint) { c.reveal.Seat = from }), ErrCheat, liar, CheckStructure},
		{"with secrets that are not the seat's", withBody(liar, func(c *complaint) { c.reveal.HPKESeed[0] ^= 1 }), ErrCheat, liar, "reveal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(bytes.NewReader(reseal(t, tc.envs(), s.keys)))
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify: %v, want %v", err, tc.want)
			}
			if tc.check != "" {
				var vv *Violation
				if !errors.As(err, &vv) || vv.Seat != tc.seat || vv.Check != tc.check {
					t.Fatalf("Verify: %v, want seat %d named for the %q check", err, tc.seat, tc.check)
				}
			}
		})
	}
}

// A person's seat complains as a bot's does: the Complaint takes its turn
// whatever move the person handed in, and the table counts the turn as
// one the seat owes without its person. Until then the seat's game
// follows the table without the hand the token was part of.
func TestTheGameComplaintTakesAPersonsTurn(t *testing.T) {
	const sender, victim = 2, 0
	dir := t.TempDir()
	s, err := NewTheGameSelfplay(TheGameSelfplayConfig{Players: 3, Seed: 180, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var spoiled spoiledToken
	s.tamper = map[int]func(*draft){sender: spoilToken(t, s, sender, victim, false, "ciphertext", &spoiled)}
	exports := runTheGameUntilHalt(t, s)
	v := expectNamedByComplaint(t, s, exports, victim, sender, "ciphertext")
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	// The victim's device again, as it was just before its complaint.
	store, err := OpenStore(filepath.Join(dir, fmt.Sprintf("thegame-seat-%d.db", victim)), &StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g := NewTheGame(GameConfig{Table: s.Table(), Creator: s.ids[0], Vault: StoreVault{Store: store, Table: s.Table()}})
	log, err := NewLog(LogConfig{Table: s.Table(), Protocol: g})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs[:v.Seq] {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	view := g.View(victim)
	if view.Phase != thegame.PhasePlay || view.Turn != victim || len(view.Hand) != 0 || view.HandSizes[victim] != thegame.HandSize(3) {
		t.Fatalf("the victim's view: phase %v, turn %d, hand %v, hand sizes %v", view.Phase, view.Turn, view.Hand, view.HandSizes)
	}
	if !g.seatOwes(v.Seq, victim) {
		t.Error("the complaint is not a step the seat owes without its person")
	}
	pl, err := tgbot.New("greedy", false)
	if err != nil {
		t.Fatal(err)
	}
	moves := []struct {
		name string
		a    *thegame.Action
	}{
		{"no move yet", nil},
		{"a card handed in", &thegame.Action{Kind: thegame.ActPlay, Seat: victim, Card: 50, Pile: 0}},
		{"a signal handed in", &thegame.Action{Kind: thegame.ActSignal, Seat: victim, Pile: 1, Signal: thegame.SignalMine}},
	}
	for _, m := range moves {
		t.Run(m.name, func(t *testing.T) {
			d, err := g.draftPerson(v.Seq, victim, rand.NewChaCha8([32]byte{1}), m.a, pl)
			if err != nil || d == nil || d.kind != KindComplaint || !bytes.Equal(d.body, envs[v.Seq].Body) {
				t.Fatalf("draft %+v, %v; want the complaint the log holds", d, err)
			}
		})
	}
}

// A Complaint may take the place of a reveal after the game (a seat whose
// draw failed may find the game over before its next turn): there too it
// is re-checked, here with secrets that open the token, so the
// complainer is named.
func TestTheGameComplaintAtTheReveal(t *testing.T) {
	const players, liar, from = 2, 1, 0
	s, exports := playTheGame(t, players, false, 190, nil)
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	r := slices.IndexFunc(envs, func(e *Envelope) bool { return e.Kind == KindReveal && int(e.Author) == liar })
	if r < 0 {
		t.Fatal("no reveal of the liar")
	}
	var reveal crypto.Reveal
	if err := parseCrypto(KindReveal, envs[r].Body, &reveal); err != nil {
		t.Fatal(err)
	}
	obs := replayTheGame(t, s.Table(), s.ids[0], envs[:r])
	i := slices.IndexFunc(obs.sealed, func(m crypto.Sealed) bool { return m.From == from && m.To == liar })
	m := obs.sealed[i]
	body, err := complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: &reveal})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*Envelope, r+1)
	for j := range out {
		out[j] = envs[j].Clone()
	}
	out[r].Kind, out[r].Body = KindComplaint, body
	_, err = Verify(bytes.NewReader(reseal(t, out, s.keys)))
	var v *Violation
	if !errors.As(err, &v) || v.Seat != liar || v.Check != CheckComplaint || v.Seq != uint64(r) || !errors.Is(err, ErrFalseComplaint) {
		t.Fatalf("Verify: %v, want seat %d's false complaint at seq %d", err, liar, r)
	}
}
