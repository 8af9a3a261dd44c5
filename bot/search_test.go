package bot_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

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

// TestSearchDeterministic checks that a seed and a playout budget fix every
// decision of the search: two games with equal seeds take the same actions.
func TestSearchDeterministic(t *testing.T) {
	for _, tc := range []struct {
		e engine.Edition
		n int
	}{{engine.Classic, 4}, {engine.Modern, 3}} {
		t.Run(fmt.Sprintf("%s%d", tc.e, tc.n), func(t *testing.T) {
			game := func() []engine.Action {
				var all []engine.Action
				players := make([]bot.Player, tc.n)
				recs := make([]*recorder, tc.n)
				for s := range players {
					recs[s] = &recorder{Player: bot.NewSearch(rand.New(rand.NewPCG(9, uint64(s))), 16), t: t, phases: map[engine.Phase]int{}}
					players[s] = recs[s]
				}
				playGame(t, tc.e, tc.n, players, rand.New(rand.NewPCG(3, 3)))
				for _, r := range recs {
					all = append(all, r.actions...)
				}
				return all
			}
			a, b := game(), game()
			if len(a) == 0 || !slices.Equal(a, b) {
				t.Fatalf("one seed, two games: %d and %d actions, equal %v", len(a), len(b), slices.Equal(a, b))
			}
		})
	}
}

func TestNewSearchLevels(t *testing.T) {
	for _, tc := range []struct {
		kind, name string
		ok         bool
	}{
		{"search", "search", true},
		{"Search", "search", true},
		{"search:quick", "search:quick", true},
		{"search:deep", "search:deep", true},
		{"search:normal", "search", true},
		{"search:500", "search:500", true},
		{"search:1920", "search:quick", true},
		{"search:15360", "search", true},
		{"search:7680", "search:7680", true},
		{"search:30720", "search:deep", true},
		{"search:0", "", false},
		{"search:-3", "", false},
		{"search:fast", "", false},
		{"search:", "search", true},
		{"searcher", "", false},
		{"search:99999999", "", false},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			p, err := bot.New(tc.kind, rand.New(rand.NewPCG(1, 1)))
			if !tc.ok {
				if !errors.Is(err, bot.ErrUnknownKind) {
					t.Fatalf("New(%q): %v, want ErrUnknownKind", tc.kind, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tc.kind, err)
			}
			if p.Name() != tc.name {
				t.Errorf("New(%q).Name() = %q, want %q", tc.kind, p.Name(), tc.name)
			}
		})
	}
}

// TestSearchTimeLimit gives the search a clock that advances 1ms at every
// reading and a limit of 5ms: it stops after a few deals instead of
// spending its whole budget, and still answers with a legal action.
func TestSearchTimeLimit(t *testing.T) {
	var clock time.Time
	now := func() time.Time {
		clock = clock.Add(time.Millisecond)
		return clock
	}
	p := bot.NewSearch(rand.New(rand.NewPCG(4, 4)), 100000)
	p.SetTimeLimit(5*time.Millisecond, now)
	rec := &recorder{Player: p, t: t, phases: map[engine.Phase]int{}}
	v, legal := openingBlock(t)
	rec.Act(&v, legal)
	if st := p.Stats(); st.Decisions != 1 || st.Worlds < 1 || st.Worlds > 6 {
		t.Fatalf("stats %+v: want one decision over 1 to 6 deals", st)
	}
}

// TestSearchHalving checks that a decision with many candidates spends its
// budget unevenly: the search drops the weaker half of the candidates stage
// by stage, so it plays out more deals than an even split would give and no
// more playouts than its budget.
func TestSearchHalving(t *testing.T) {
	const budget = 900
	p := bot.NewSearch(rand.New(rand.NewPCG(5, 5)), budget)
	rec := &recorder{Player: p, t: t, phases: map[engine.Phase]int{}}
	v, legal := openingBlock(t)
	if len(legal) < 9 {
		t.Fatalf("%d blocks, want a decision with at least 9", len(legal))
	}
	rec.Act(&v, legal)
	st := p.Stats()
	// Nine candidates: an even split gives each 100 deals; halving
	// (9, 5, 3, 2 candidates over four stages of 225 playouts) gives 256.
	if st.Playouts > budget || st.Worlds <= budget/9 {
		t.Fatalf("stats %+v: want at most %d playouts over more than %d deals", st, budget, budget/9)
	}
	t.Logf("%+v", st)
}

// openingBlock is the first decision of a Classic 4 round dealt from the
// unshuffled deck: a block, as its seat sees it, and the legal blocks.
func openingBlock(t *testing.T) (engine.View, []engine.Action) {
	t.Helper()
	g, err := engine.NewGame(engine.Config{Edition: engine.Classic, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.DealDeck(engine.Classic.Deck(4)); err != nil {
		t.Fatal(err)
	}
	s := g.Waiting()[0]
	return g.View(s), g.Legal(s)
}
