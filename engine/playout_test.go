package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRandomPlayouts plays random legal games over every edition and player
// count and checks the invariants after every action.
func TestRandomPlayouts(t *testing.T) {
	const roundsPerSetup = 1800 // 10,800 rounds in all
	const fullLegalCheck = 150  // rounds per setup where every legal action is tried
	for i, su := range setups {
		t.Run(setupName(su.ed, su.players), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 7))
			scratch := new(Game)
			var buf, all []Action
			rounds := 0
			for game := 0; rounds < roundsPerSetup; game++ {
				cfg := Config{Edition: su.ed, Players: su.players, FirstDealer: game % su.players}
				switch {
				case game%3 == 1 && su.ed == Classic:
					cfg.Short = true
				case game%3 == 2:
					cfg.Target = 60
				}
				g := mustGame(t, cfg)
				var totals [maxSeats]int
				for g.phase != PhaseGameOver {
					if g.phase != PhaseDeal && g.phase != PhaseRoundOver && rounds < fullLegalCheck {
						for _, s := range g.Waiting() {
							all = g.AppendLegal(all[:0], s)
							for _, a := range all {
								*scratch = *g
								if err := scratch.Apply(a); err != nil {
									t.Fatalf("legal %+v refused: %v", a, err)
								}
							}
						}
					}
					var a Action
					a, buf = randomStep(t, g, r, buf)
					if err := checkInvariants(g); err != nil {
						t.Fatalf("round %d after %+v: %v", g.round, a, err)
					}
					if g.rs.scored && (g.phase == PhaseRoundOver || g.phase == PhaseGameOver) && a.Kind == ActPlay {
						rounds++
						for s := 0; s < g.n; s++ {
							totals[s] += g.rs.points[s]
						}
						if !slices.Equal(totals[:g.n], g.Totals()) {
							t.Fatalf("totals %v, sum of rounds %v", g.Totals(), totals[:g.n])
						}
					}
				}
				if cfg.Target > 0 {
					if slices.Max(g.Totals()) < cfg.Target {
						t.Fatalf("game over below the target: %v", g.Totals())
					}
				} else if g.round != g.Rounds() {
					t.Fatalf("game over after %d of %d rounds", g.round, g.Rounds())
				}
				w := g.Winners()
				best := slices.Max(g.Totals())
				for s, tot := range g.Totals() {
					if (tot == best) != slices.Contains(w, s) {
						t.Fatalf("winners %v with totals %v", w, g.Totals())
					}
				}
			}
		})
	}
}

// observed turns an action of the fully known game into the action the
// engine of seat o receives: other seats' deals, discards and passes are
// hidden, except a pass to o itself.
func observed(a Action, o, players int) Action {
	if a.Seat == o {
		return a
	}
	switch a.Kind {
	case ActDeal, ActDiscard:
		return Action{Kind: a.Kind, Seat: a.Seat, Hidden: true, Cards: [2]Card{NoCard, NoCard}, Card: NoCard}
	case ActPass:
		if (a.Seat+1)%players != o {
			return Action{Kind: a.Kind, Seat: a.Seat, Hidden: true, Card: NoCard}
		}
	}
	return a
}

// revealOf is the truthful reveal of a round the engine fully knows.
func revealOf(g *Game) Reveal {
	h := g.History()
	return Reveal{Dealt: h.Dealt, Discards: h.Discards, Passes: h.Passes}
}

// roundActions plays one random round on g (which knows every hand) and
// returns its actions, deals included.
func roundActions(t *testing.T, g *Game, r *rand.Rand) []Action {
	t.Helper()
	if err := g.DealDeck(shuffled(r, g.ed, g.n)); err != nil {
		t.Fatal(err)
	}
	var acts []Action
	for s := 0; s < g.n; s++ {
		acts = append(acts, Action{Kind: ActDeal, Seat: s, Hand: g.rs.dealt[s]})
	}
	var buf []Action
	for g.phase != PhaseRoundOver && g.phase != PhaseGameOver {
		var a Action
		a, buf = randomStep(t, g, r, buf)
		acts = append(acts, a)
	}
	return acts
}

// TestHiddenReplay replays random games on the engine of every seat, which
// sees the other hands as hidden: it accepts the same actions, ends with the
// same scores, and the truthful reveal passes its audit.
func TestHiddenReplay(t *testing.T) {
	for i, su := range setups {
		t.Run(setupName(su.ed, su.players), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 11))
			cfg := Config{Edition: su.ed, Players: su.players, FirstDealer: i % su.players}
			for game := 0; game < 20; game++ {
				g := mustGame(t, cfg)
				obs := make([]*Game, su.players)
				for o := range obs {
					obs[o] = mustGame(t, cfg)
				}
				for g.phase != PhaseGameOver {
					acts := roundActions(t, g, r)
					if err := g.AuditRound(revealOf(g)); err != nil {
						t.Fatalf("full engine audit: %v", err)
					}
					for o, og := range obs {
						for _, a := range acts {
							if err := og.Apply(observed(a, o, su.players)); err != nil {
								t.Fatalf("seat %d engine refused %+v: %v", o, a, err)
							}
						}
						if og.phase != g.phase || !slices.Equal(og.Totals(), g.Totals()) {
							t.Fatalf("seat %d engine: %s %v, full engine %s %v", o, og.phase, og.Totals(), g.phase, g.Totals())
						}
						if v, w := og.View(o), g.View(o); v.Hand != w.Hand || v.Discarded != w.Discarded || v.Received != w.Received {
							t.Fatalf("seat %d sees its hand %v, full engine %v", o, v.Hand, w.Hand)
						}
						if err := og.AuditRound(revealOf(g)); err != nil {
							t.Fatalf("seat %d engine audit of the true reveal: %v", o, err)
						}
					}
				}
			}
		})
	}
}

func cloneReveal(r Reveal) Reveal {
	return Reveal{Dealt: slices.Clone(r.Dealt), Discards: slices.Clone(r.Discards), Passes: slices.Clone(r.Passes)}
}

func wantSeatError(t *testing.T, err error, seat int, sentinel error) {
	t.Helper()
	var se *SeatError
	if !errors.As(err, &se) || se.Seat != seat || !errors.Is(err, sentinel) {
		t.Fatalf("got %v, want seat %d: %v", err, seat, sentinel)
	}
}

// TestAuditTamperedReveal audits tampered reveals on the engine of seat 0,
// which saw the other hands hidden: each lie is caught and names its seat.
func TestAuditTamperedReveal(t *testing.T) {
	const o = 0
	found := map[string]bool{}
	r := rand.New(rand.NewPCG(3, 5))
	for _, su := range []struct {
		ed Edition
		n  int
	}{{Modern, 4}, {Modern, 3}, {Classic, 4}, {Modern, 5}} {
		cfg := Config{Edition: su.ed, Players: su.n}
		for game := 0; game < 30 && len(found) < 4; game++ {
			g := mustGame(t, cfg)
			og := mustGame(t, cfg)
			for g.phase != PhaseGameOver {
				acts := roundActions(t, g, r)
				for _, a := range acts {
					mustApply(t, og, observed(a, o, su.n))
				}
				truth := revealOf(g)
				if err := og.AuditRound(truth); err != nil {
					t.Fatalf("true reveal: %v", err)
				}
				tamperRound(t, og, truth, found)
			}
		}
	}
	for _, k := range []string{"own-hand", "swapped-deal", "renege", "discarded-one"} {
		if !found[k] {
			t.Errorf("no round allowed the %s tamper", k)
		}
	}
}

// tamperRound tries each kind of lie that the round allows.
func tamperRound(t *testing.T, og *Game, truth Reveal, found map[string]bool) {
	const o = 0
	rs := &og.rs
	n := og.n
	seatOf := func(i int) int { return (int(rs.leaders[i/n]) + i%n) % n }
	firstPlay := func(s int) int { // index of the first play of s
		for i := 0; i < rs.nplays; i++ {
			if seatOf(i) == s {
				return i
			}
		}
		return -1
	}

	t.Run("own-hand", func(t *testing.T) {
		lie := cloneReveal(truth)
		c := rs.plays[firstPlay(o)]
		var other Card = NoCard
		for s := 1; s < n && other == NoCard; s++ {
			for _, x := range lie.Dealt[s].Cards(og.ed) {
				other = x
				lie.Dealt[s] = lie.Dealt[s].Remove(x).Add(c)
				break
			}
		}
		lie.Dealt[o] = lie.Dealt[o].Remove(c).Add(other)
		wantSeatError(t, og.AuditRound(lie), o, ErrAudit)
		found["own-hand"] = true
	})

	// The start player (not seat o) leads trick 1 with a card it was
	// dealt; a reveal that swaps that card into another seat's hand names
	// the start player at its first play.
	x := int(rs.leaders[0])
	if p := rs.plays[0]; x != o && truth.Dealt[x].Has(p) {
		for i := rs.nplays - n; i < rs.nplays; i++ {
			y, q := seatOf(i), rs.plays[i]
			if y == x || y == o || !truth.Dealt[y].Has(q) {
				continue
			}
			t.Run("swapped-deal", func(t *testing.T) {
				lie := cloneReveal(truth)
				lie.Dealt[x] = lie.Dealt[x].Remove(p).Add(q)
				lie.Dealt[y] = lie.Dealt[y].Remove(q).Add(p)
				wantSeatError(t, og.AuditRound(lie), x, ErrAudit)
				found["swapped-deal"] = true
			})
			break
		}
	}

	rule := rs.rules.Discard
	for s := 1; s < n; s++ {
		switch rule {
		case Discard1, Discard2:
			// s discarded c of suit L and later showed a void in L: a reveal
			// claiming s kept c (and discarded a card it played after the
			// void) makes s a renegade.
			for _, c := range truth.Discards[s].Cards(og.ed) {
				l := og.suitOf(c)
				void := -1
				for i := 0; i < rs.nplays; i++ {
					if seatOf(i) == s && i%n != 0 && og.suitOf(rs.plays[i]) != og.suitOf(rs.plays[i/n*n]) &&
						og.suitOf(rs.plays[i/n*n]) == l {
						void = i
						break
					}
				}
				if void < 0 || void/n == rs.done-1 {
					continue
				}
				var e Card = NoCard
				for i := (void/n + 1) * n; i < rs.nplays; i++ {
					if seatOf(i) == s {
						e = rs.plays[i]
					}
				}
				t.Run("renege", func(t *testing.T) {
					lie := cloneReveal(truth)
					lie.Discards[s] = lie.Discards[s].Remove(c).Add(e)
					wantSeatError(t, og.AuditRound(lie), s, ErrMustFollow)
					found["renege"] = true
				})
				return
			}
		case Discard1NoOnes:
			for i := 0; i < rs.nplays; i++ {
				if c := rs.plays[i]; seatOf(i) == s && c.Value() == 1 && truth.Dealt[s].Has(c) && truth.Dealt[s]&^og.ones != 0 {
					t.Run("discarded-one", func(t *testing.T) {
						lie := cloneReveal(truth)
						lie.Discards[s] = HandOf(c)
						wantSeatError(t, og.AuditRound(lie), s, ErrIllegalDiscard)
						found["discarded-one"] = true
					})
					return
				}
			}
		}
	}
}
