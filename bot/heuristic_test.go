package bot_test

import (
	"math/rand/v2"
	"testing"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

func cards(t *testing.T, names ...string) []engine.Card {
	t.Helper()
	h, err := engine.ParseHand(engine.Classic, names)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]engine.Card, 0, len(names))
	// ParseHand gives repeated 1s distinct copies; keep the given order.
	for _, n := range names {
		for _, c := range h.Cards(engine.Classic) {
			if c.String() == n {
				out = append(out, c)
				h = h.Remove(c)
				break
			}
		}
	}
	return out
}

// trickView is a Classic 4-player view of seat 3 in trick play: seats 1 and
// 3 against 0 and 2, trump blue, no supertrump, 3 points.
func trickView(t *testing.T, hand []string, plays ...string) *engine.View {
	t.Helper()
	v := &engine.View{
		Edition:    engine.Classic,
		Players:    4,
		Seat:       3,
		Round:      1,
		Rounds:     8,
		Phase:      engine.PhaseTricks,
		Characters: engine.Classic.Characters(),
		Rules:      engine.Rules{Start: engine.Bear, StartSeat: 0, Trump: engine.Blue, Super: engine.NoColour, Points: 3},
		Team:       []int{0, 1, 0, 1},
		Bonus:      -1,
		Hand:       engine.HandOf(cards(t, hand...)...),
		HandSizes:  []int{10, 10, 10, 10},
		Passed:     engine.NoCard,
		Received:   engine.NoCard,
		Turn:       3,
	}
	leader := (3 - len(plays) + 4) % 4
	v.Trick = engine.Trick{Leader: leader, Winner: -1}
	for i, c := range cards(t, plays...) {
		v.Trick.Plays = append(v.Trick.Plays, engine.Play{Seat: (leader + i) % 4, Card: c})
	}
	return v
}

// playsOf lists the legal plays among hand: the led suit if held, else all.
func playsOf(v *engine.View) []engine.Action {
	var legal []engine.Action
	hand := v.Hand.Cards(v.Edition)
	follow := false
	if len(v.Trick.Plays) > 0 {
		led := engine.SuitOf(v.Trick.Plays[0].Card, v.Rules)
		for _, c := range hand {
			follow = follow || engine.SuitOf(c, v.Rules) == led
		}
		for _, c := range hand {
			if !follow || engine.SuitOf(c, v.Rules) == led {
				legal = append(legal, engine.Action{Kind: engine.ActPlay, Seat: v.Seat, Card: c})
			}
		}
		return legal
	}
	for _, c := range hand {
		legal = append(legal, engine.Action{Kind: engine.ActPlay, Seat: v.Seat, Card: c})
	}
	return legal
}

func TestHeuristicTrickPlay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hand  []string
		plays []string // from the leader; seat 3 plays next
		want  string
	}{
		// Seat 2 (an opponent) played a 1: whoever wins the trick gains it.
		{"R-LOOT takes a trick holding loot", []string{"red9", "red4", "green5"}, []string{"red8", "red3", "red1"}, "red9"},
		{"R-LOOT ruffs a trick holding loot", []string{"blue3", "blue8", "green5"}, []string{"red8", "red3", "red1"}, "blue3"},
		{"wins last as cheaply as it can", []string{"red9", "red7", "red2"}, []string{"red3", "red4", "red6"}, "red7"},
		{"follows low when it cannot win", []string{"red2", "red6", "red7"}, []string{"red8", "red3", "red9"}, "red2"},
		{"R-LOOT gives no 1 away when it cannot win", []string{"red1", "red5", "red7"}, []string{"red8", "red3", "red9"}, "red5"},
		{"does not overtake its partner", []string{"red9", "red4", "green5"}, []string{"red2", "red8", "red3"}, "red4"},
		{"sheds a 1 on its partner's trick", []string{"green1", "green7", "black9"}, []string{"red2", "red9", "red3"}, "green1"},
		{"leads its master", []string{"green9", "green3", "red4", "red5"}, nil, "green9"},
		{"never leads a side 1", []string{"green1", "red4"}, nil, "red4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := trickView(t, tc.hand, tc.plays...)
			p := bot.NewHeuristic(rand.New(rand.NewPCG(1, 1)))
			got := p.Act(v, playsOf(v))
			if got.Card.String() != tc.want {
				t.Fatalf("played %s, want %s", got.Card, tc.want)
			}
		})
	}
}

// njetView is a Classic 4-player view of seat 0 at the start of the Njet
// phase with the given hand.
func njetView(t *testing.T, hand ...string) *engine.View {
	t.Helper()
	return &engine.View{
		Edition:    engine.Classic,
		Players:    4,
		Seat:       0,
		Round:      1,
		Phase:      engine.PhaseNjet,
		Characters: engine.Classic.Characters(),
		Team:       []int{-1, -1, -1, -1},
		Bonus:      -1,
		Hand:       engine.HandOf(cards(t, hand...)...),
		HandSizes:  []int{10, 10, 10, 10},
		Passed:     engine.NoCard,
		Received:   engine.NoCard,
		Turn:       0,
	}
}

func blocks(row engine.Row) []engine.Action {
	var out []engine.Action
	for f := 0; f < engine.Classic.Fields(row); f++ {
		out = append(out, engine.Action{Kind: engine.ActBlock, Seat: 0, Row: row, Field: engine.Field(f)})
	}
	return out
}

var (
	strongHand = []string{"red9", "red8", "red7", "red6", "red5", "black9", "black8", "blue9", "green9", "green8"}
	weakHand   = []string{"red2", "red3", "black2", "black3", "black4", "blue2", "blue3", "blue4", "green2", "green3"}
)

func TestHeuristicNjet(t *testing.T) {
	for _, tc := range []struct {
		name string
		hand []string
		row  engine.Row
		want string
	}{
		{"R-NJET blocks a trump colour it is weak in", strongHand, engine.RowTrump, "blue"},
		{"R-NJET blocks low points when strong", strongHand, engine.RowPoints, "1"},
		{"R-NJET blocks high points when weak", weakHand, engine.RowPoints, "4"},
		{"R-NJET blocks another start player when strong", strongHand, engine.RowStart, "!bear"},
		{"R-NJET keeps the supertrump of its 1s", []string{"green1", "green1", "red2", "red3", "black2", "black3", "blue2", "blue3", "blue4", "green2"}, engine.RowSuper, "!green"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := njetView(t, tc.hand...)
			p := bot.NewHeuristic(rand.New(rand.NewPCG(1, 1)))
			a := p.Act(v, blocks(tc.row))
			got := engine.Classic.FieldName(a.Row, a.Field)
			if tc.want[0] == '!' {
				if got == tc.want[1:] {
					t.Fatalf("blocked %s %s", a.Row, got)
				}
				return
			}
			if got != tc.want {
				t.Fatalf("blocked %s %s, want %s", a.Row, got, tc.want)
			}
		})
	}
}

func TestHeuristicDiscardKeepsTrumps(t *testing.T) {
	v := trickView(t, []string{"blue2", "blue9", "red1", "red8", "green3", "green9", "black4", "black6", "black7", "black8"})
	v.Phase = engine.PhaseDiscard
	v.Rules.Discard = engine.Discard2
	hand := v.Hand.Cards(engine.Classic)
	var legal []engine.Action
	for i := range hand {
		for j := i + 1; j < len(hand); j++ {
			legal = append(legal, engine.Action{Kind: engine.ActDiscard, Seat: 3, Cards: [2]engine.Card{hand[i], hand[j]}})
		}
	}
	a := bot.NewHeuristic(rand.New(rand.NewPCG(1, 1))).Act(v, legal)
	got := map[string]bool{a.Cards[0].String(): true, a.Cards[1].String(): true}
	if !got["red1"] || !got["green3"] {
		t.Fatalf("discarded %s %s, want red1 (a side 1) and green3 (a low short side card)", a.Cards[0], a.Cards[1])
	}
}

// TestHeuristicReadsVoids checks that the heuristic uses the voids the
// seats have shown (R-TRICK-2: a seat that did not follow a suit holds none
// of it) in its play. Seat 3 plays with seat 1 against seats 0 and 2;
// trump is blue.
func TestHeuristicReadsVoids(t *testing.T) {
	const red, green, blue = 1 << engine.Red, 1 << engine.Green, 1 << engine.Blue
	for _, tc := range []struct {
		name  string
		hand  []string
		plays []string
		voids []uint8 // per seat
		want  string
	}{
		{"R-TRICK-2 leads its master with no void shown", []string{"green9", "green3", "red4", "red5"}, nil,
			nil, "green9"},
		{"R-TRICK-2 does not lead a suit an opponent may trump", []string{"green9", "green3", "red4", "red5"}, nil,
			[]uint8{green, 0, 0, 0}, "red4"},
		{"R-TRICK-2 leads its master when the void opponent has no trump either", []string{"green9", "green3", "red4", "red5"}, nil,
			[]uint8{green | blue, 0, 0, 0}, "green9"},
		{"R-TRICK-2 leads low into its partner's void", []string{"green3", "red9", "red4"}, nil,
			[]uint8{0, green, 0, 0}, "green3"},
		{"R-TRICK-2 without voids leads the master", []string{"green3", "red9", "red4"}, nil,
			nil, "red9"},
		{"R-TRICK-2 wins cheaply when the opponent after it can neither follow nor trump", []string{"red9", "red7"}, []string{"red3"},
			[]uint8{red | blue, 0, 0, 0}, "red7"},
		{"R-TRICK-2 wins safely when the opponent after it may follow", []string{"red9", "red7"}, []string{"red3"},
			nil, "red9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := trickView(t, tc.hand, tc.plays...)
			if tc.voids != nil {
				v.Voids = tc.voids
			}
			p := bot.NewHeuristic(rand.New(rand.NewPCG(1, 1)))
			got := p.Act(v, playsOf(v))
			if got.Card.String() != tc.want {
				t.Fatalf("played %s, want %s", got.Card, tc.want)
			}
		})
	}
}
