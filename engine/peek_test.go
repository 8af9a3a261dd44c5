package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPeekAgreesWithView plays random games at every table and checks the
// allocation-free reads against what View and History report: hands, teams,
// the bonus seat, the trick under way (R-WIN: its winner so far) and the
// round's points (R-SCORE).
func TestPeekAgreesWithView(t *testing.T) {
	for _, su := range setups {
		t.Run(setupName(su.ed, su.players), func(t *testing.T) {
			r := rand.New(rand.NewPCG(17, uint64(su.players)))
			g := mustGame(t, Config{Edition: su.ed, Players: su.players})
			var buf []Action
			for steps := 0; g.Phase() != PhaseGameOver && steps < 20000; steps++ {
				_, buf = randomStep(t, g, r, buf)
				for s := 0; s < su.players; s++ {
					v := g.View(s)
					if g.Held(s) != v.Hand || g.TeamOf(s) != v.Team[s] {
						t.Fatalf("step %d seat %d: Held/TeamOf disagree with the view", steps, s)
					}
					if g.Phase() == PhaseRoundOver || g.Phase() == PhaseGameOver {
						if g.RoundPoints(s) != v.Score.Points[s] {
							t.Fatalf("step %d seat %d: RoundPoints %d, score %d", steps, s, g.RoundPoints(s), v.Score.Points[s])
						}
					} else if g.RoundPoints(s) != 0 {
						t.Fatalf("step %d: RoundPoints before the score", steps)
					}
				}
				if g.BonusSeat() != g.View(0).Bonus {
					t.Fatalf("step %d: BonusSeat %d, view %d", steps, g.BonusSeat(), g.View(0).Bonus)
				}
				ts := g.TrickState()
				tr := g.View(0).Trick
				if g.Phase() != PhaseTricks {
					if ts.Leader != -1 || ts.Winner != -1 || ts.Best != NoCard {
						t.Fatalf("step %d: a trick state outside trick play: %+v", steps, ts)
					}
					continue
				}
				if ts.Leader != tr.Leader || ts.Len != len(tr.Plays) {
					t.Fatalf("step %d: trick state %+v, trick %+v", steps, ts, tr)
				}
				if ts.Len == 0 {
					continue
				}
				w := TrickWin(tr, g.Rules())
				ones := 0
				for _, p := range tr.Plays {
					if p.Card.Value() == 1 {
						ones++
					}
				}
				if ts.Winner != w.Seat || ts.Best != w.Card || ts.Led != SuitOf(tr.Plays[0].Card, g.Rules()) || ts.Ones != ones {
					t.Fatalf("step %d: trick state %+v, want winner %d with %s, %d ones", steps, ts, w.Seat, w.Card, ones)
				}
			}
		})
	}
	if g := mustGame(t, Config{Edition: Classic, Players: 4}); g.Held(-1) != 0 || g.Held(4) != 0 || g.TeamOf(9) != -1 || g.RoundPoints(-2) != 0 {
		t.Fatal("a seat outside the table reads as something")
	}
}
