package seat

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	tgsim "github.com/njetlan/njet/thegame/sim"
)

// TestHintNjet: at every kind of question of Njet! (block, team, discard,
// pass, card), the hint is one of the legal answers and the one the
// strong bot (search) gives from the prompt's view, the seat's own. The
// person then plays a random legal answer, so the game moves on.
func TestHintNjet(t *testing.T) {
	seen := map[engine.Kind]int{}
	for _, cfg := range []LocalConfig{
		{Edition: engine.Modern, Players: 3, Seed: 5, Bots: []string{"random"}},
		{Edition: engine.Classic, Players: 4, Seed: 6, Bots: []string{"random"}},
	} {
		l, err := NewLocal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, 9))
		for len(seen) < 5 {
			ev, err := l.Next(context.Background())
			if err != nil {
				break
			}
			yt, ok := ev.(YourTurn)
			if !ok {
				continue
			}
			p := yt.Prompt
			if seen[p.Kind] == 0 {
				seen[p.Kind]++
				h, err := Hint(p)
				if err != nil {
					t.Fatalf("%s hint: %v", p.Kind, err)
				}
				if !slices.Contains(p.Legal, h) {
					t.Fatalf("%s hint %+v is not legal", p.Kind, h)
				}
				v := p.View
				want := bot.NewSearch(rand.New(rand.NewPCG(p.Seq, uint64(p.View.Seat))), bot.DefaultPlayouts).Act(&v, p.Legal)
				if h != want {
					t.Fatalf("%s hint %+v, the strong bot plays %+v", p.Kind, h, want)
				}
				if again, _ := Hint(p); again != h {
					t.Fatalf("the same question hinted %+v, then %+v", h, again)
				}
			}
			if err := l.Choose(p.Seq, p.Legal[rng.IntN(len(p.Legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, k := range []engine.Kind{engine.ActBlock, engine.ActTeam, engine.ActDiscard, engine.ActPass, engine.ActPlay} {
		if seen[k] == 0 {
			t.Errorf("no hint at a question of kind %s", k)
		}
	}
	if _, err := Hint(Prompt{}); !errors.Is(err, ErrNoHint) {
		t.Errorf("a hint without legal answers: %v", err)
	}
}

// TestHintTheGame: on the seat's turn of The Game the hint is the strong
// bot's (the registry's) move from the seat's view, a card that fits its pile or
// the end of the turn; off its turn there is none.
func TestHintTheGame(t *testing.T) {
	g, err := thegame.NewGame(thegame.Config{Players: 3, Extreme: true})
	if err != nil {
		t.Fatal(err)
	}
	deck := tgsim.Shuffle(rand.New(rand.NewPCG(4, 2)))
	kinds := map[thegame.Kind]int{}
	for range 400 {
		if err := g.Feed(deck); err != nil {
			t.Fatal(err)
		}
		if g.Phase() != thegame.PhasePlay {
			break
		}
		on := g.Turn()
		off := g.View((on + 1) % 3)
		if _, err := TheGameHint(off); !errors.Is(err, ErrNoHint) {
			t.Fatalf("a hint off the seat's turn: %v", err)
		}
		v := g.View(on)
		h, err := TheGameHint(v)
		if err != nil {
			t.Fatal(err)
		}
		w := v
		strong, err := games.ByName(table.GameTheGame)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := strong.NewPlayer(strong.Bots[games.Strong], rand.New(rand.NewPCG(uint64(v.Turns), uint64(v.Seat))))
		if err != nil {
			t.Fatal(err)
		}
		want := pl.(tgbot.Player).Act(&w)
		if h != want {
			t.Fatalf("hint %+v, the strong bot plays %+v", h, want)
		}
		kinds[h.Kind]++
		if err := g.Apply(h); err != nil {
			t.Fatalf("the hint %+v is refused: %v", h, err)
		}
	}
	if kinds[thegame.ActPlay] == 0 || kinds[thegame.ActEnd] == 0 {
		t.Fatalf("hints of each kind: %v", kinds)
	}
}
