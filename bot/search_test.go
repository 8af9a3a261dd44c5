package bot_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

var tables = []struct {
	e engine.Edition
	n int
}{{engine.Classic, 3}, {engine.Classic, 4}, {engine.Modern, 2}, {engine.Modern, 3}, {engine.Modern, 4}, {engine.Modern, 5}}

// recorder checks every action against the legal list, counts decisions
// by phase and keeps the actions chosen.
type recorder struct {
	bot.Player
	t       *testing.T
	phases  map[engine.Phase]int
	actions []engine.Action
}

func (r *recorder) Act(v *engine.View, legal []engine.Action) engine.Action {
	a := r.Player.Act(v, legal)
	if !slices.Contains(legal, a) {
		r.t.Fatalf("%s returned %+v, not one of %d legal actions in phase %s", r.Name(), a, len(legal), v.Phase)
	}
	if len(legal) > 1 {
		r.phases[v.Phase]++
	}
	r.actions = append(r.actions, a)
	return a
}

// TestSearchLegalInEveryPhase plays whole games with a small playout budget
// in every seat, at every table of both editions, and checks that every
// action is legal (R-NJET, R-TEAM, R-DISCARD, R-TRICK-2) and that every
// decision was searched over a deal that fits the seat's view.
func TestSearchLegalInEveryPhase(t *testing.T) {
	total := 0
	for _, tc := range tables {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.e)))
			phases := map[engine.Phase]int{}
			searches := make([]*bot.Search, tc.n)
			players := make([]bot.Player, tc.n)
			for s := range players {
				searches[s] = bot.NewSearch(rand.New(rand.NewPCG(rng.Uint64(), uint64(s))), 12)
				players[s] = &recorder{Player: searches[s], t: t, phases: phases}
			}
			games := 2
			if testing.Short() {
				games = 1
			}
			for range games {
				playGame(t, tc.e, tc.n, players, rng)
			}
			want := []engine.Phase{engine.PhaseNjet, engine.PhaseDiscard, engine.PhaseTricks}
			if tc.n > 2 {
				want = append(want, engine.PhaseTeams)
			}
			for _, ph := range want {
				if phases[ph] == 0 {
					t.Errorf("no decision in phase %s", ph)
				}
			}
			n := 0
			for s, p := range searches {
				st := p.Stats()
				if st.Fallbacks > 0 {
					t.Errorf("seat %d: %d of %d decisions found no deal fitting the view", s, st.Fallbacks, st.Decisions)
				}
				n += st.Decisions
			}
			t.Logf("%d decisions: %v", n, phases)
			total += n
		})
	}
	t.Logf("%d decisions in all", total)
}
