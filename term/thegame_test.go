package term

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	tgsim "github.com/njetlan/njet/thegame/sim"
)

// scriptFor plays the solo game of seed with the greedy bot and returns
// the person's input that plays the same moves, and the result.
func scriptFor(t *testing.T, seed uint64) (string, thegame.Result) {
	t.Helper()
	g, err := thegame.NewGame(thegame.Config{Players: 1})
	if err != nil {
		t.Fatal(err)
	}
	deck := tgsim.Shuffle(rand.New(rand.NewPCG(seed, 0x7467)))
	var in strings.Builder
	for range 1000 {
		if err := g.Feed(deck); err != nil {
			t.Fatal(err)
		}
		if g.Phase() == thegame.PhaseOver {
			return in.String(), g.Result()
		}
		v := g.View(0)
		a := tgbot.Greedy{}.Act(&v)
		if _, lose := g.Warning(a); lose {
			fmt.Fprintf(&in, "%d %d\nyes\n", a.Card, a.Pile+1)
		} else if a.Kind == thegame.ActPlay {
			fmt.Fprintf(&in, "%d %d\n", a.Card, a.Pile+1)
		} else {
			in.WriteString("end\n")
		}
		if err := g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game does not end")
	return "", thegame.Result{}
}

func TestPlayTheGameWholeSoloGame(t *testing.T) {
	script, res := scriptFor(t, 11)
	var out bytes.Buffer
	if err := PlayTheGame(TheGameConfig{Players: 1, Seed: 11, Echo: true}, strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := fmt.Sprintf("The game is over. Cards left: %d.", res.CardsLeft)
	if !strings.Contains(text, want) || !strings.Contains(text, capitalise(res.Rating().Words())) {
		t.Fatalf("the transcript does not end with %q:\n%s", want, text[max(0, len(text)-600):])
	}
	if strings.Contains(text, "Not possible") || strings.Contains(text, "Type a card") {
		t.Fatalf("a scripted move was refused:\n%s", text)
	}
}

func TestPlayTheGameRefusesAndExplains(t *testing.T) {
	cases := []struct {
		name, input string
		want        []string
	}{
		{"help and rules", "help\nrules\nquit\n", []string{"CARD PILE", "backwards trick", "You left the game."}},
		{"no such card", "150 1\n", []string{"There is no card 150"}},
		{"bad pile", "37 9\n", []string{"Type a card and a pile"}},
		{"not in hand", "2 1\n3 1\n4 1\n5 1\n", []string{"Nothing is lost"}},
		{"end too early", "end\n", []string{"Not yet: the turn has not played enough cards"}},
		{"signal", "mine 2\nshow\n", []string{`You: "please leave this pile to me"`}},
		{"signal without a pile", "good\n", []string{"Say which pile"}},
		{"the input ends", "", []string{"Your turn (0 laid, at least 2)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := PlayTheGame(TheGameConfig{Players: 3, Seed: 2}, strings.NewReader(tc.input), &out); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in:\n%s", w, out.String())
				}
			}
		})
	}
	if err := PlayTheGame(TheGameConfig{Players: 6}, strings.NewReader(""), &bytes.Buffer{}); err == nil {
		t.Error("six players accepted")
	}
}

func TestPlayTheGameExtremeShowsCommands(t *testing.T) {
	var out bytes.Buffer
	if err := PlayTheGame(TheGameConfig{Players: 4, Extreme: true, Seed: 3}, strings.NewReader("rules\nquit\n"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "The Game Extreme, 4 players: you are seat 0, the others are bots.") || !strings.Contains(out.String(), "(") {
		t.Fatalf("transcript:\n%s", out.String())
	}
}

// TestTheGameShowsCommandsInForceInWords plays an Extreme game with bots in
// every seat until a command is in force, then shows the table.
func TestTheGameShowsCommandsInForceInWords(t *testing.T) {
	g, err := thegame.NewGame(thegame.Config{Players: 2, Extreme: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printf := func(format string, args ...any) { fmt.Fprintf(&out, format, args...) }
	deck := tgsim.Shuffle(rand.New(rand.NewPCG(4, 4)))
	players := []tgbot.Player{tgbot.NewCoop(true), tgbot.NewCoop(true)}
	for range 500 {
		if err := g.Feed(deck); err != nil {
			t.Fatal(err)
		}
		if g.Phase() == thegame.PhaseOver {
			break
		}
		if v := g.View(You); len(v.InForce) > 0 {
			showTheGame(printf, v, seatName)
			for _, k := range v.InForce {
				if !strings.Contains(out.String(), commandWords[k]) {
					t.Errorf("%s in force, not shown in words:\n%s", k, out.String())
				}
			}
			if !strings.Contains(out.String(), "In force:") {
				t.Errorf("no commands in force:\n%s", out.String())
			}
			return
		}
		v := g.View(g.Turn())
		if err := g.Apply(players[g.Turn()].Act(&v)); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no command came into force")
}
