package ui

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
)

// againGameTable is a LAN table of a local game whose host allowed hints
// or not, and that plays again once back is closed, after telling that
// two of three people are back.
type againGameTable struct {
	gameTable
	hints bool
	back  chan struct{}
	next  *againGameTable
}

func (g *againGameTable) Hints() bool { return g.hints }

func (g *againGameTable) Again(ctx context.Context, news func(LobbyNews)) (LANTable, error) {
	news(LobbyNews{Kind: LobbyWaiting, Seated: 2, Wanted: 3, Players: []string{"Anna", "Ben"}, Hints: g.hints})
	select {
	case <-g.back:
		return g.next, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// newAgainGameTable is such a table of a short game dealt from seed.
func newAgainGameTable(t *testing.T, names []string, seed uint64, hints bool) *againGameTable {
	t.Helper()
	l, err := seat.NewLocal(seat.LocalConfig{Edition: engine.Modern, Players: 3, Names: names, Seed: seed, Target: 1})
	if err != nil {
		t.Fatal(err)
	}
	fs := &frozenSeat{Seat: l, stop: func(seat.Event) bool { return false }, stopped: make(chan struct{})}
	return &againGameTable{gameTable: gameTable{names: names, seat: fs}, hints: hints, back: make(chan struct{})}
}

// TestPersonLANHintsAndPlayAgain: at a LAN table the Hint button is there
// only when the host allowed hints. At the end the person taps "Play
// again": the lobby of the table played again says whom it waits for
// (Cleo), and once everybody is back the new game's table follows and the
// person plays its first moves.
func TestPersonLANHintsAndPlayAgain(t *testing.T) {
	names := []string{"Anna", "Ben", "Cleo"}
	for _, hints := range []bool{false, true} {
		name := "no-hints"
		if hints {
			name = "hints"
		}
		t.Run(name, func(t *testing.T) {
			pa := newPersonAppWith(t, "en", fyne.NewSize(360, 740), func(e *Env) { e.LAN = newFakeLAN() })
			first := newAgainGameTable(t, names, 31, hints)
			first.next = newAgainGameTable(t, names, 32, hints)
			pa.u.Push(NewLANGame(pa.u, first))
			player := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(31, 3))}
			hint := reach.Button(tr("again.hint.button", "Hint"))
			again := reach.Button(tr("again.play", "Play again"))
			looked := false
			for {
				pa.p.Settle()
				s := pa.p.Look()
				if len(s.Reachable(again)) > 0 {
					break
				}
				g := pa.u.Top().(*LANGame)
				if g.table != nil && g.table.model.prompt != nil && !looked {
					looked = true
					if got := len(s.Reachable(hint)) > 0; got != hints {
						t.Fatalf("hints allowed %v, Hint button %v", hints, got)
					}
					if hints {
						pa.hintOnScreen(g.table)
					}
				}
				if !pa.p.Step(player) {
					t.Fatal("the person left before the game-over view")
				}
			}
			if !looked {
				t.Fatal("the person was never asked")
			}
			pa.p.Tap("Play again", again)
			lobby, ok := pa.u.Top().(*Lobby)
			if !ok {
				t.Fatalf("Play again shows %s", pa.screen())
			}
			pa.waitFor("whom the table waits for", func() bool { return strings.Contains(lobby.Status(), "Cleo") })
			if st := lobby.Status(); !strings.Contains(st, "Waiting for Cleo") || strings.Contains(st, "Ben") {
				t.Fatalf("the lobby says %q", st)
			}
			if hints {
				screenshot(t, "lan-again-phone", pa.u.Window())
			}
			if !pa.p.Sees(tr("lan.lobby.leave", "Leave")) {
				t.Fatal("no way to leave the wait")
			}
			close(first.back)
			pa.waitFor("the new table", func() bool {
				g, ok := pa.u.Top().(*LANGame)
				return ok && g.lan == first.next && g.table != nil && g.table.model.prompt != nil
			})
			fresh := &reach.Njet{Words: NjetWords(), Rand: rand.New(rand.NewPCG(32, 3))}
			for range 3 {
				pa.p.Settle()
				if !pa.p.Step(fresh) {
					t.Fatal("the new game ended at once")
				}
			}
		})
	}
}
