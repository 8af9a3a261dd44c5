package words

import (
	"fmt"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
)

// TestRulesHelpR_TRICK_2 words the rules help of both editions for every
// player count, to a fixed length and to a target: every phrase in every
// language, the trump reading (you may trump, never must), and the target
// named a house rule in Classic only.
func TestRulesHelpR_TRICK_2(t *testing.T) {
	for _, ed := range []engine.Edition{engine.Classic, engine.Modern} {
		for players := ed.MinPlayers(); players <= ed.MaxPlayers(); players++ {
			for _, target := range []int{0, 100} {
				t.Run(fmt.Sprintf("%s%d/target%d", ed, players, target), func(t *testing.T) {
					help := RulesHelp(ed, players, 8, target)
					var text []string
					for _, m := range help {
						checkSaid(t, m)
						text = append(text, m.String())
					}
					all := strings.Join(text, "\n")
					for _, want := range []string{
						fmt.Sprintf("with %d players", players),
						"you may trump, but you never have to",
						"This game follows the German reading.",
						"If you hold a card of the led suit, you must play one.",
						"the last supertrump played",
					} {
						if !strings.Contains(all, want) {
							t.Errorf("no %q in:\n%s", want, all)
						}
					}
					house := strings.Contains(all, "House rule")
					switch {
					case target > 0 && ed == engine.Classic && !house:
						t.Errorf("a Classic target is not named a house rule:\n%s", all)
					case (target == 0 || ed == engine.Modern) && house:
						t.Errorf("a house rule where there is none:\n%s", all)
					case target == 0 && !strings.Contains(all, "The game lasts 8 rounds."):
						t.Errorf("no length of the game:\n%s", all)
					}
				})
			}
		}
	}
}

// TestTrumpReadingInEveryLanguage: the reading is said in German and
// French too, as "may", never "must".
func TestTrumpReadingInEveryLanguage(t *testing.T) {
	for l, want := range map[string]string{
		"en": "you may trump, but you never have to",
		"de": "Du darfst trumpfen, musst aber nie",
		"fr": "vous pouvez couper, sans jamais y être obligé",
	} {
		if got := TrumpReading().Say(translator(t, l)); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", l, got, want)
		}
	}
}
