package engine

import (
	"math/rand/v2"
	"testing"
)

// FuzzApply decodes a stream of actions from bytes: mostly legal choices,
// some raw actions with arbitrary fields. Apply must never panic, must
// accept every action Legal lists, and the invariants must hold after every
// accepted action.
func FuzzApply(f *testing.F) {
	for i := range 8 {
		r := rand.New(rand.NewPCG(uint64(i), 99))
		b := make([]byte, 400+300*i)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		b[0] = byte(i)
		f.Add(b)
	}
	legalOnly := make([]byte, 1500)
	for j := range legalOnly {
		legalOnly[j] = byte(1 + 4*j)
	}
	f.Add(legalOnly)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		su := setups[int(data[0])%len(setups)]
		cfg := Config{Edition: su.ed, Players: su.players, FirstDealer: int(data[1]) % su.players}
		if data[1]&0x80 != 0 {
			cfg.Target = 40
		}
		g, err := NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		data = data[2:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		var buf []Action
		deals := uint64(0)
		for len(data) > 0 && g.Phase() != PhaseGameOver {
			op := next()
			var a Action
			switch {
			case (g.phase == PhaseDeal || g.phase == PhaseRoundOver) && op%8 != 0:
				deals++
				r := rand.New(rand.NewPCG(deals, uint64(op)))
				err := g.DealDeck(shuffled(r, g.ed, g.n))
				if g.phase == PhaseDeal && g.rs.dealtSet != 0 && err == nil {
					t.Fatal("DealDeck accepted after a partial deal")
				}
				if err == nil {
					if err := checkInvariants(g); err != nil {
						t.Fatal(err)
					}
				}
				continue
			case op%4 != 0:
				w := g.Waiting()
				if len(w) == 0 {
					continue
				}
				seat := w[int(next())%len(w)]
				buf = g.AppendLegal(buf[:0], seat)
				if len(buf) == 0 {
					if g.phase != PhaseDeal && g.phase != PhaseRoundOver && int(g.rs.dealtKnown) == 1<<g.n-1 {
						t.Fatalf("seat %d is awaited in %s but has no legal action", seat, g.phase)
					}
					continue
				}
				a = buf[int(next())%len(buf)]
				if err := g.Apply(a); err != nil {
					t.Fatalf("legal %+v refused: %v", a, err)
				}
			default:
				a = Action{
					Kind:     Kind(next() % 8),
					Seat:     int(next()%7) - 1,
					Row:      Row(next() % 6),
					Field:    Field(next() % 6),
					Partners: next(),
					Bonus:    int(next()%7) - 1,
					Cards:    [2]Card{Card(next()), Card(next())},
					Card:     Card(next()),
					Hand:     Hand(uint64(next())<<56 | uint64(next())<<40 | uint64(next())<<8 | uint64(next())),
					Hidden:   op&0x80 != 0,
				}
				before := g.Clone()
				if err := g.Apply(a); err != nil {
					if !sameGame(g, before) {
						t.Fatalf("rejected %+v (%v) changed the game", a, err)
					}
					continue
				}
			}
			if err := checkInvariants(g); err != nil {
				t.Fatalf("after %+v: %v", a, err)
			}
		}
	})
}

// sameGame compares two games; Game holds no pointers but the nil
// Characters slice of its config.
func sameGame(a, b *Game) bool {
	x, y := *a, *b
	return x.rs == y.rs && x.totals == y.totals && x.phase == y.phase && x.round == y.round && x.dealer == y.dealer
}
