package words

import (
	"github.com/njetlan/njet/engine"
)

// RulesHelp says how the game is played, short and in the player's words:
// the Njet board, the teams for this number of players, discards, tricks
// (with the reading the game follows when a player cannot follow suit:
// trumping is allowed, never required), loot, scoring and the end of the
// game. rounds is the length of the game; target, when positive, the
// score that ends it instead, named a house rule in the Classic edition.
// Each Msg is one paragraph.
func RulesHelp(ed engine.Edition, players, rounds, target int) []Msg {
	modern := ed == engine.Modern
	pick := func(classic, mod string) Msg {
		if modern {
			return msg(mod)
		}
		return msg(classic)
	}
	out := []Msg{
		msg("rules.help.title", "Edition", Edition(ed), "Players", players),
		pick("rules.help.board.classic", "rules.help.board.modern"),
	}
	switch players {
	case 2:
		out = append(out, msg("rules.help.teams.two"))
	case 3:
		out = append(out, pick("rules.help.teams.three.classic", "rules.help.teams.three.modern"))
	case 4:
		out = append(out, msg("rules.help.teams.four"))
	case 5:
		out = append(out, msg("rules.help.teams.five"))
	}
	out = append(out,
		pick("rules.help.discard.classic", "rules.help.discard.modern"),
		msg("rules.help.tricks"),
		TrumpReading(),
		msg("rules.help.win"),
		msg("rules.help.loot"),
		msg("rules.help.score"))
	if modern {
		out = append(out, msg("rules.help.negative"))
	}
	if target > 0 {
		out = append(out, Target(ed, target))
	} else if rounds > 0 {
		out = append(out, msg("rules.help.rounds", "Rounds", rounds))
	}
	return append(out, msg("rules.help.win-game"))
}

// TrumpReading says what a player who cannot follow suit may do: play any
// card; trumping is allowed, never required (R-TRICK-2). The rule sheets
// differ here, and the sentence says which reading the game follows.
func TrumpReading() Msg { return msg("rules.help.trump") }
