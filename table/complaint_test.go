package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// The Complaint over the network, at a table of each game: a sealed token
// that does not open halts no device alone; its recipient posts a
// Complaint at its next entitled moment, every device re-opens the token
// with the secrets it reveals and names the sender (or the complainer,
// if it opens), and Verify names the same. Njet then votes the round void
// and seats a bot for the cheater; a cheat ends a table of The Game.

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
func spoilToken(t *testing.T, s *Selfplay, sender, victim int, draw bool, how string, out *spoiledToken) func(*draft) {
	done := false
	return func(d *draft) {
		if done || d.kind != tablelog.KindDealTokens {
			return
		}
		sealed, escrow, err := parseDealTokens(d.body)
		if err != nil || len(sealed) == 0 {
			t.Errorf("seat %d drafted tokens %d, %v", sender, len(sealed), err)
			return
		}
		g := s.Peer(sender).Game()
		g.mu.Lock()
		isDraw := g.st == stPlay
		g.mu.Unlock()
		if isDraw != draw {
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
			initial, err := crypto.InitialDeck(g.rd.params)
			var bad *crypto.Sealed
			if err == nil {
				bad, err = g.rd.cr.Deal(g.rd.secrets[sender], initial, m.Position, m.To, rand.NewChaCha8([32]byte{9}))
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
		body, err := dealEscrowBody(sealed, escrow)
		if err != nil {
			t.Errorf("re-encode the tokens: %v", err)
			return
		}
		d.body, done = body, true
		*out = spoiledToken{seq: d.seq, victim: m.To}
	}
}

// runUntilEnd plays s until every device is done and returns every
// seat's export.
func runUntilEnd(t *testing.T, s *Selfplay) [][]byte {
	t.Helper()
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var exports [][]byte
	for seat := range s.cfg.Players {
		exports = append(exports, seatExport(t, s, seat))
	}
	return exports
}

// namedBy returns the cheat a device's table named: the violation that
// halted it (a game whose cheats end the table), or the first cheat its
// table voted void.
func namedBy(o Outcome) *Violation {
	if o.Violation != nil {
		return o.Violation
	}
	for _, v := range o.Voided {
		if errors.Is(v, ErrCheat) {
			return v
		}
	}
	return nil
}

// expectNamedByComplaint checks that every device of s named seat for
// check at the same seq, the Complaint of seat complainer: a game whose
// cheats end the table halted there, and no device posted after it; any
// other voted the round void and played on. Every log is the same, and
// Verify names the same seat, check and seq.
func expectNamedByComplaint(t *testing.T, s *Selfplay, exports [][]byte, complainer, seat int, check string) *Violation {
	t.Helper()
	halts := s.cfg.Game == GameTheGame
	var first *Violation
	for dev, o := range s.Outcomes() {
		v := namedBy(o)
		if v == nil || v.Seat != seat || v.Check != check || v.Private || !errors.Is(v, ErrCheat) {
			t.Fatalf("device %d's table: %v, want seat %d named for the %q check", dev, v, seat, check)
		}
		if first == nil {
			first = v
		} else if v.Seq != first.Seq {
			t.Fatalf("device %d named it at seq %d, device 0 at %d", dev, v.Seq, first.Seq)
		}
		if next := o.Next; halts && next != v.Seq+1 {
			t.Fatalf("device %d's log grew to %d after the halt at %d", dev, next, v.Seq)
		}
		if !bytes.Equal(exports[dev], exports[0]) {
			t.Fatalf("device %d's log differs from device 0's", dev)
		}
	}
	_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	if e := envs[first.Seq]; e.Kind != tablelog.KindComplaint || int(e.Author) != complainer {
		t.Fatalf("the table named it at %v of seat %d, want seat %d's Complaint", e.Kind, e.Author, complainer)
	}
	v, err := Verify(bytes.NewReader(exports[0]))
	var vv *Violation
	switch {
	case halts && (!errors.As(err, &vv) || vv.Seat != seat || vv.Check != check || vv.Seq != first.Seq):
		t.Fatalf("Verify: %v, want %v", err, first)
	case !halts && (err != nil || !v.Over || len(v.Voided) != 1 || v.Voided[0].Seq != first.Seq || v.Voided[0].Seat != seat):
		t.Fatalf("Verify: %v, voided %v; want %v voted void", err, v.Voided, first)
	}
	return first
}

// A sealed token that does not open — a deal token of a starting hand, or
// a draw token of The Game — names its sender on every device, whoever
// receives it, a person's seat too.
func TestComplaintOverTheNetwork(t *testing.T) {
	classic := func(seed uint64) SelfplayConfig {
		return SelfplayConfig{Edition: engine.Classic, Players: 4, Rounds: 1, Seed: seed, Dir: t.TempDir(), Net: lossy}
	}
	cases := []struct {
		name           string
		cfg            SelfplayConfig
		sender, victim int
		draw           bool
		how            string
		person         bool // the victim is a person's seat (Njet: it answers every prompt)
		// atTurn: the victim's next entitled moment is a turn of its own
		// in the play, whose place the complaint takes.
		atTurn bool
	}{
		{"Njet, deal token to a bot", classic(55), 3, 1, false, "ciphertext", false, false},
		{"Njet, deal token to a person", classic(55), 3, 1, false, "ciphertext", true, false},
		// Seat 0 plays first: its first turn comes right after the deal.
		{"The Game, deal token to the first player", theGameConfig(t, 3, false, 150), 2, 0, false, "ciphertext", false, true},
		// Seat 2 still owes its deal tokens: it complains in their place.
		{"The Game, deal token to a later dealer", theGameConfig(t, 3, true, 151), 0, 2, false, "token proof", false, false},
		// Seat 0 drew; it complains instead of its tokens for seat 1's draw.
		{"The Game, draw token", theGameConfig(t, 3, false, 152), 1, 0, true, "commitment", false, false},
		{"The Game, draw token at two seats", theGameConfig(t, 2, true, 153), 1, 0, true, "token proof", false, false},
		{"The Game, deal token at five seats", theGameConfig(t, 5, false, 154), 3, 1, false, "ciphertext", false, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.name, c.how), func(t *testing.T) {
			if c.cfg.Game == GameTheGame && c.name != "The Game, draw token" {
				c.cfg.Net = tablelog.NetConfig{Drop: 0.05, Duplicate: 0.05}
			}
			s, err := newTestSelfplay(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.human = map[int]bool{c.victim: c.person}
			var spoiled spoiledToken
			s.alter = map[int]func(*draft){c.sender: spoilToken(t, s, c.sender, c.victim, c.draw, c.how, &spoiled)}
			ctx, cancel := context.WithCancel(context.Background())
			answered := make(chan struct{})
			go func() {
				defer close(answered)
				if c.person {
					answerPrompts(ctx, s, c.victim)
				}
			}()
			exports := runUntilEnd(t, s)
			cancel()
			<-answered
			if spoiled.seq == 0 || spoiled.victim != c.victim {
				t.Fatalf("the sender spoiled %+v, want a token to seat %d", spoiled, c.victim)
			}
			v := expectNamedByComplaint(t, s, exports, c.victim, c.sender, c.how)
			if v.Seq <= spoiled.seq {
				t.Fatalf("the complaint at seq %d, the spoiled tokens at %d", v.Seq, spoiled.seq)
			}
			// The complaint came at the victim's next entitled moment:
			// every envelope between is another seat's.
			_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range envs[spoiled.seq+1 : v.Seq] {
				if int(e.Author) == c.victim {
					t.Fatalf("seat %d posted %v at seq %d before its complaint", c.victim, e.Kind, e.Seq)
				}
			}
			obs := replayGame(t, s.Table(), s.ids[0], envs[:v.Seq])
			turn, err := obs.Entitled(v.Seq)
			if err != nil {
				t.Fatal(err)
			}
			if atTurn := c.cfg.Game == GameTheGame && slices.Contains(turn.Kinds, tablelog.KindPlay); atTurn != c.atTurn {
				t.Errorf("the complaint took the place of %v, want a turn: %v", turn.Kinds, c.atTurn)
			}
			if c.cfg.Game == GameNjet {
				// The table voted the round void, seated a bot for the
				// sender, and the victim played on.
				out := s.Outcomes()
				if out[c.victim].BotHost != -1 || out[c.sender].BotHost < 0 {
					t.Errorf("victim's bot host %d, sender's %d", out[c.victim].BotHost, out[c.sender].BotHost)
				}
			}
		})
	}
}

// falseComplaint returns a draft hook for seat liar of s: at its first
// move in the play it complains, with its true round secrets, of the deal
// token from seat from, which opened.
func falseComplaint(t *testing.T, s *Selfplay, liar, from int) func(*draft) {
	done := false
	return func(d *draft) {
		g := s.Peer(liar).Game()
		g.mu.Lock()
		inPlay := g.st == stPlay && d.kind != tablelog.KindDealTokens
		g.mu.Unlock()
		if done || !inPlay {
			return
		}
		g.mu.Lock()
		i := slices.IndexFunc(g.rd.sealed, func(m crypto.Sealed) bool { return m.From == from && m.To == liar })
		var body []byte
		err := fmt.Errorf("no token from seat %d to seat %d", from, liar)
		if i >= 0 {
			m := g.rd.sealed[i]
			body, err = complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: g.rd.secrets[liar].Reveal()})
		}
		g.mu.Unlock()
		if err != nil {
			t.Errorf("the false complaint: %v", err)
			return
		}
		d.kind, d.body, done = tablelog.KindComplaint, body, true
	}
}

// A Complaint about a token that opens names the complainer, on every
// device and in Verify, at a table of each game; a Complaint that names no
// token of the author, or comes out of turn, is refused, and one with
// secrets that are not the author's names the author.
func TestFalseComplaintNamesTheComplainer(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  SelfplayConfig
	}{
		{"Njet", SelfplayConfig{Edition: engine.Classic, Players: 3, Rounds: 1, Seed: 54, Dir: t.TempDir()}},
		{"The Game", theGameConfig(t, 3, false, 170)},
	} {
		t.Run(c.name, func(t *testing.T) { falseComplaintNamesTheComplainer(t, c.cfg) })
	}
}

func falseComplaintNamesTheComplainer(t *testing.T, cfg SelfplayConfig) {
	const liar, from = 1, 2
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.alter = map[int]func(*draft){liar: falseComplaint(t, s, liar, from)}
	exports := runUntilEnd(t, s)
	v := expectNamedByComplaint(t, s, exports, liar, liar, CheckComplaint)
	if !errors.Is(v, ErrFalseComplaint) {
		t.Fatalf("violation %v, want ErrFalseComplaint", v)
	}

	_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseComplaint(envs[v.Seq].Body)
	if err != nil {
		t.Fatal(err)
	}
	// Variants of the complaint, signed by the seats, at its seq.
	withBody := func(author int, edit func(c *complaint)) func() []*tablelog.Envelope {
		return func() []*tablelog.Envelope {
			out := make([]*tablelog.Envelope, v.Seq+1)
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
		envs  func() []*tablelog.Envelope
		want  error
		seat  int    // the seat named, when a Violation
		check string // its check
	}{
		{"about a token to another seat", withBody(liar, func(c *complaint) { c.from = liar }), tablelog.ErrRejected, 0, ""},
		{"about a forward it did not receive", withBody(liar, func(c *complaint) { c.kind = crypto.SealForward }), tablelog.ErrRejected, 0, ""},
		{"out of turn", withBody(from, func(*complaint) {}), tablelog.ErrNotEntitled, 0, ""},
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

// replayGame returns an observer's Game after envs, at a table of any
// game.
func replayGame(t *testing.T, table tablelog.TableID, creator tablelog.Identity, envs []*tablelog.Envelope) *Game {
	t.Helper()
	obs := NewGame(GameConfig{Table: table, Creator: creator})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: table, Protocol: obs})
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

// A Complaint may take the place of a reveal after the game (at The Game
// a seat whose draw failed may find the game over before its next turn;
// at Njet the reveals follow each round): there too it is re-checked,
// here with secrets that open the token, so the complainer is named.
func TestComplaintAtTheReveal(t *testing.T) {
	const liar, from = 1, 0
	for _, game := range []struct {
		name string
		play func(t *testing.T) (*Selfplay, []byte)
		// reveal reads the crypto reveal out of a reveal's body.
		reveal func(body []byte) (*crypto.Reveal, error)
	}{
		{"Njet", func(t *testing.T) (*Selfplay, []byte) {
			s := runTable(t, SelfplayConfig{Edition: engine.Classic, Players: 3, Rounds: 1, Seed: 190, Dir: t.TempDir()})
			return s, seatExport(t, s, 0)
		}, func(body []byte) (*crypto.Reveal, error) {
			rv, _, err := parseReveal(body)
			return rv, err
		}},
		{"The Game", func(t *testing.T) (*Selfplay, []byte) {
			s, exports := playTheGame(t, 2, false, 190, nil)
			return s, exports[0]
		}, func(body []byte) (*crypto.Reveal, error) {
			rv := new(crypto.Reveal)
			return rv, parseCrypto(tablelog.KindReveal, body, rv)
		}},
	} {
		t.Run(game.name, func(t *testing.T) {
			s, export := game.play(t)
			_, envs, err := tablelog.ReadExport(bytes.NewReader(export))
			if err != nil {
				t.Fatal(err)
			}
			r := slices.IndexFunc(envs, func(e *tablelog.Envelope) bool { return e.Kind == tablelog.KindReveal && int(e.Author) == liar })
			if r < 0 {
				t.Fatal("no reveal of the liar")
			}
			reveal, err := game.reveal(envs[r].Body)
			if err != nil {
				t.Fatal(err)
			}
			obs := replayGame(t, s.Table(), s.ids[0], envs[:r])
			i := slices.IndexFunc(obs.rd.sealed, func(m crypto.Sealed) bool { return m.From == from && m.To == liar })
			if i < 0 {
				t.Fatal("no token sealed to the liar")
			}
			m := obs.rd.sealed[i]
			body, err := complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: reveal})
			if err != nil {
				t.Fatal(err)
			}
			out := make([]*tablelog.Envelope, r+1)
			for j := range out {
				out[j] = envs[j].Clone()
			}
			out[r].Kind, out[r].Body = tablelog.KindComplaint, body
			_, err = Verify(bytes.NewReader(reseal(t, out, s.keys)))
			var v *Violation
			if !errors.As(err, &v) || v.Seat != liar || v.Check != CheckComplaint || v.Seq != uint64(r) || !errors.Is(err, ErrFalseComplaint) {
				t.Fatalf("Verify: %v, want seat %d's false complaint at seq %d", err, liar, r)
			}
		})
	}
}
