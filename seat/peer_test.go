package seat

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/table"
)

// peerTestTimeout only stops a hung test; nothing is asserted about time.
const peerTestTimeout = 2 * time.Minute

// lanTable is a table of peers over table's in-memory network on a clock
// that stands still (so no seat is ever silent): the person's seat is a
// human's (PeerConfig.Human), the others are bots.
type lanTable struct {
	*memtable.Table
	changed <-chan struct{} // the person's peer's events
}

// peerPatience is every peer's patience with a silent seat; the bots
// vote to void the round once a seat has been silent that long.
const peerPatience = 5 * time.Second

func newLANTable(t *testing.T, e engine.Edition, players, rounds, you int, names []string) *lanTable {
	t.Helper()
	gen := &table.Genesis{Edition: e, Characters: e.Characters()[:players], Rounds: rounds, Names: names}
	return newLANTableOf(t, lanTableConfig{gen: gen, players: players, you: you, newPlayer: njetPlayers(t), bot: "random"})
}

// lanTableConfig is a table of newLANTableOf: gen is its genesis but for
// its keys, newPlayer the game's players, bot the kind of every seat but
// the person's; with heartbeat every device announces itself on every
// tick (PeerConfig.Heartbeat), as on a LAN, so that a person who thinks
// is waited for.
type lanTableConfig struct {
	gen          *table.Genesis
	players, you int
	newPlayer    table.NewPlayer
	bot          string
	heartbeat    bool
}

// newLANTableOf is newLANTable of any game.
func newLANTableOf(t *testing.T, cfg lanTableConfig) *lanTable {
	t.Helper()
	mt := memtable.New(t, memtable.Config{Genesis: cfg.gen, Players: cfg.players, Human: func(s int) bool { return s == cfg.you },
		Bot: cfg.bot, NewPlayer: cfg.newPlayer, Heartbeat: cfg.heartbeat, Patience: peerPatience, VoidAfter: peerPatience, Seed: 6})
	return &lanTable{Table: mt, changed: mt.Changed(cfg.you)}
}

// TestPeerSeatContract plays whole LAN games through a PeerSeat and checks
// the contract every Seat keeps (playThrough), and that its GameOver
// agrees with every peer's audited results.
func TestPeerSeatContract(t *testing.T) {
	cases := []struct {
		name            string
		ed              engine.Edition
		players, rounds int
		you             int
	}{
		{"classic-3p", engine.Classic, 3, 2, 1},
		{"modern-4p-pass", engine.Modern, 4, 2, 0},
		{"modern-2p", engine.Modern, 2, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lt := newLANTable(t, c.ed, c.players, c.rounds, c.you, nil)
			s, err := NewPeerSeat(lt.Peers[c.you], c.you, PeerSeatConfig{Changed: lt.changed, Rounds: c.rounds})
			if err != nil {
				t.Fatal(err)
			}
			over := playThroughWithin(t, s, c.you)
			for seat, p := range lt.Peers {
				// The other peers may still be catching up with the end.
				deadline := time.Now().Add(peerTestTimeout)
				for !p.Game().Over() && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
				results := p.Game().Njet().Results()
				if len(results) != c.rounds {
					t.Fatalf("seat %d: %d rounds audited, want %d", seat, len(results), c.rounds)
				}
				if got := results[len(results)-1].Totals; !equalInts(got, over.Totals) {
					t.Fatalf("seat %d: totals %v, the seat's GameOver %v", seat, got, over.Totals)
				}
			}
		})
	}
}

// playThroughWithin is playThrough bounded by peerTestTimeout.
func playThroughWithin(t *testing.T, s Seat, you int) GameOver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	return playThroughCtx(t, ctx, s, you, nil)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPeerSeatEvents checks what the person learns at a named Modern
// table: a Sync first that names the seats from the genesis, the others'
// discards and passes hidden, the rules and teams once per deal, an
// audit after every round, and io.EOF after GameOver.
func TestPeerSeatEvents(t *testing.T) {
	const you = 2
	names := []string{"Анна", "李雷", "Zoë", ""}
	lt := newLANTable(t, engine.Modern, 4, 1, you, names)
	s, err := NewPeerSeat(lt.Peers[you], you, PeerSeatConfig{Changed: lt.changed, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	counts := map[string]int{}
	for i := range maxEvents {
		ev, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev := ev.(type) {
		case Sync:
			counts["sync"]++
			if i == 0 {
				for seat, si := range ev.State.Seats {
					if si.Name != names[seat] || (si.Who == You) != (seat == you) || !ev.State.Audited {
						t.Fatalf("seat %d: %+v", seat, si)
					}
				}
			}
		case YourTurn:
			if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
				t.Fatal(err)
			}
			// A second answer finds the first still being posted, or the
			// question gone: either way it is withdrawn.
			if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil && !errors.Is(err, ErrWithdrawn) {
				t.Fatalf("answering twice: %v", err)
			}
		case Moved:
			a := ev.Action
			secret := a.Kind == engine.ActDiscard || a.Kind == engine.ActPass
			if secret && a.Seat != you && (!a.Hidden || a.Card != engine.NoCard || a.Cards[0] != engine.NoCard) {
				t.Fatalf("seat %d's %s is shown: %+v", a.Seat, a.Kind, a)
			}
			if a.Seat == you && a.Hidden {
				t.Fatalf("the person's own %s comes hidden", a.Kind)
			}
			counts["moved"]++
		case RulesSet:
			counts["rules"]++
		case TeamsSet:
			counts["teams"]++
		case RoundOver:
			counts["rounds"]++
			r := ev.Result
			if len(r.Teams[0])+len(r.Teams[1]) != 4 {
				t.Fatalf("round %d teams %v", r.Round, r.Teams)
			}
		case Audited:
			counts["audited"]++
		case GameOver:
			counts["over"]++
		}
	}
	if counts["sync"] != 1 || counts["rounds"] != 1 || counts["audited"] != 1 || counts["over"] != 1 ||
		counts["rules"] != 1 || counts["teams"] != 1 {
		t.Fatalf("events told: %v", counts)
	}
	if _, err := s.Next(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after GameOver: %v", err)
	}
}

// TestPeerSeatRefuses: a stale question, an illegal answer and a vote
// when nobody is silent are refused with reasons; Leave ends a waiting
// Next.
func TestPeerSeatRefuses(t *testing.T) {
	const you = 0
	lt := newLANTable(t, engine.Classic, 3, 1, you, nil)
	s, err := NewPeerSeat(lt.Peers[you], you, PeerSeatConfig{Changed: lt.changed})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	var p Prompt
	for range maxEvents {
		ev, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if y, ok := ev.(YourTurn); ok {
			p = y.Prompt
			break
		}
	}
	if p.Seq == 0 {
		t.Fatal("no question")
	}
	if err := s.Choose(p.Seq+1, p.Legal[0]); !errors.Is(err, ErrWithdrawn) {
		t.Fatalf("a stale question: %v", err)
	}
	wrong := engine.Action{Kind: engine.ActPlay, Seat: you, Card: 3}
	if err := s.Choose(p.Seq, wrong); !errors.Is(err, ErrIllegal) {
		t.Fatalf("an illegal answer: %v", err)
	}
	if err := s.VoteVoid(); !errors.Is(err, ErrCannotVote) {
		t.Fatalf("a vote on the person's own turn: %v", err)
	}
	if err := s.Choose(p.Seq, p.Legal[0]); err != nil {
		t.Fatalf("the open question after refusals: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := s.Next(ctx); err != nil {
				done <- err
				return
			}
		}
	}()
	if err := s.Leave(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrLeft) {
		t.Fatalf("Next after Leave: %v", err)
	}
	if err := s.Choose(p.Seq, p.Legal[0]); !errors.Is(err, ErrLeft) {
		t.Fatalf("Choose after Leave: %v", err)
	}
}

// TestPeerSeatTakenOverForSilence: the person stays silent when asked to
// play a card; the other seats' bots vote, a bot hosted by another seat
// takes the person's seat and plays on with its cards from the escrow (the
// round is kept), and the seat tells it in order: the round kept for the
// person's seat, the person watching, the question withdrawn, and no
// question after that, to the end of the game.
func TestPeerSeatTakenOverForSilence(t *testing.T) {
	const you = 1
	s, sp := newSilentPerson(t, you, 1)
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	var order []string
	for range maxEvents {
		ev, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev := ev.(type) {
		case YourTurn:
			if len(order) > 0 {
				t.Fatalf("a question after %v", order)
			}
			h := sp.holdPlay(ev.Prompt)
			if h == 0 {
				if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
					t.Fatal(err)
				}
			}
		case Withdrawn:
			if ev.Seq != sp.held() {
				t.Fatalf("question %d withdrawn, %d was held", ev.Seq, sp.held())
			}
			order = append(order, "withdrawn")
		case RoundVoided:
			if ev.Fault == nil || ev.Fault.Seat != you || ev.BotHost < 0 || ev.BotHost == you {
				t.Fatalf("voided: %+v", ev)
			}
			order = append(order, "voided")
		case RoundKept:
			if ev.Seat != you || ev.Host < 0 || ev.Host == you {
				t.Fatalf("kept: %+v", ev)
			}
			order = append(order, "kept")
		case Watching:
			if ev.BotHost < 0 || ev.BotHost == you {
				t.Fatalf("watching: %+v", ev)
			}
			order = append(order, "watching")
		case GameOver:
			order = append(order, "over")
		}
	}
	if want := "kept watching withdrawn over"; strings.Join(order, " ") != want {
		t.Fatalf("told %v, want %s", order, want)
	}
	if err := s.Choose(sp.held(), engine.Action{Kind: engine.ActPlay, Seat: you}); !errors.Is(err, ErrWithdrawn) {
		t.Fatalf("an answer to the withdrawn question: %v", err)
	}
}

// njetPlayers is the players' factory of Njet from the registry of games.
func njetPlayers(t testing.TB) table.NewPlayer { return memtable.Players(t, table.GameNjet) }

// TestPeerSeatHandedBackIsAskedAgain: the person stays silent in the
// first round and a bot takes the seat over; the device is still there,
// so at the next deal the table hands the seat back to it. From then on
// the person is asked again, and each question stays open until answered
// (none withdrawn), to the end of the game.
func TestPeerSeatHandedBackIsAskedAgain(t *testing.T) {
	const you = 1
	s, sp := newSilentPerson(t, you, 2)
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	watched, answered, over := false, 0, false
	for range maxEvents {
		ev, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after the watch (%v) and %d answers: %v", watched, answered, err)
		}
		switch ev := ev.(type) {
		case YourTurn:
			h := sp.holdPlay(ev.Prompt)
			if h == ev.Prompt.Seq {
				continue // left unanswered
			}
			if err := s.Choose(ev.Prompt.Seq, ev.Prompt.Legal[0]); err != nil {
				t.Fatal(err)
			}
			if watched {
				answered++
			}
		case Withdrawn:
			if ev.Seq != sp.held() {
				t.Fatalf("question %d withdrawn (the held one was %d): the seat was handed back", ev.Seq, sp.held())
			}
		case Watching:
			watched = true
		case GameOver:
			over = true
		}
	}
	if !watched || !over {
		t.Fatalf("watched %v, over %v", watched, over)
	}
	if answered == 0 {
		t.Fatal("the person was never asked once the seat was handed back")
	}
}

// silentPerson is a Classic table of three whose person leaves their first
// question to play a card unanswered: the table's clock moves one second a
// tick only while the table waits for that question, so the others vote
// and a bot takes the seat over.
type silentPerson struct {
	mu sync.Mutex
	q  uint64 // the question held, or 0
}

// newSilentPerson starts the table of rounds rounds and returns the
// person's seat (you) and what it holds.
func newSilentPerson(t *testing.T, you, rounds int) (*PeerSeat, *silentPerson) {
	t.Helper()
	lt := newLANTable(t, engine.Classic, 3, rounds, you, nil)
	s, err := NewPeerSeat(lt.Peers[you], you, PeerSeatConfig{Changed: lt.changed, Rounds: rounds})
	if err != nil {
		t.Fatal(err)
	}
	sp := &silentPerson{}
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if v, h := lt.Peers[you].View(), sp.held(); h != 0 && v.Seq == h && v.Turn == you {
				lt.Clock.Add(time.Second)
			}
		}
	}()
	return s, sp
}

// holdPlay holds p if it is the person's first question to play a card,
// and returns the question held.
func (sp *silentPerson) holdPlay(p Prompt) uint64 {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.q == 0 && p.Kind == engine.ActPlay {
		sp.q = p.Seq
	}
	return sp.q
}

// held is the question held, or 0.
func (sp *silentPerson) held() uint64 {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.q
}
