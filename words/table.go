package words

import (
	"github.com/njetlan/njet/engine"
)

// TeamChoice words one way the start player (in seat start) may form the
// teams, from the start player's side, for every player count: the
// partners, who plays alone and counts double (3 players), and with 5
// players the size of the team and who gets the x2 card. a is an ActTeam
// action from engine.Game.Legal.
func TeamChoice(a engine.Action, seats Seats) Msg {
	n := seats.Players
	var partners, others []Msg
	for s := 0; s < n; s++ {
		switch {
		case s == a.Seat:
		case a.Partners&(1<<s) != 0:
			partners = append(partners, seats.name(s))
		default:
			others = append(others, seats.name(s))
		}
	}
	switch {
	case n == 3 && len(partners) == 0:
		return msg("team.alone", "Others", List(others))
	case n == 3 && len(others) == 1:
		return msg("team.partner.three", "Partner", partners[0], "Solo", others[0])
	case n == 5 && len(partners) == 1 && a.Bonus == a.Seat:
		return msg("team.two.keep", "Partner", partners[0])
	case n == 5 && len(partners) == 1:
		return msg("team.two.give", "Partner", partners[0])
	case n == 5:
		return msg("team.three", "Partners", List(partners), "Bonus", seats.name(a.Bonus))
	case len(partners) == 1:
		return msg("team.partner.four", "Partner", partners[0], "Others", List(others))
	}
	return msg("reason.illegal-team")
}

// TeamHelp explains the team choice for a player count: who counts double,
// what the x2 card is, how many partners make which team. It is the empty
// Msg with 2 players, who play one against one without a choice.
func TeamHelp(players int) Msg {
	switch players {
	case 3:
		return msg("team.help.three")
	case 4:
		return msg("team.help.four")
	case 5:
		return msg("team.help.five")
	}
	return Msg{}
}

// Teams words the teams of a round once they are formed: the start
// player's team first, the start player marked. team holds each seat's
// team (0 the start player's), as in engine.View.
func Teams(team []int, start int, seats Seats) Msg {
	var mine, theirs []Msg
	for s, t := range team {
		m := seats.name(s)
		if s == start {
			mine = append([]Msg{msg("teams.start-player", "Seat", m)}, mine...)
			continue
		}
		switch t {
		case 0:
			mine = append(mine, m)
		case 1:
			theirs = append(theirs, m)
		}
	}
	return msg("teams.line", "Start", Join(mine, " + "), "Others", Join(theirs, " + "))
}

// Doubling says whose round score counts double, if anyone's (bonus is a
// seat or -1).
func Doubling(bonus int, seats Seats) Msg {
	if bonus < 0 {
		return Msg{}
	}
	who := seats.name(bonus)
	return msg(you("teams.double", who), "Seat", who)
}

// ScoreRule explains how a round is scored at points per trick and loot card.
func ScoreRule(points int) Msg {
	if points < 0 {
		return msg("score.rule.negative", "Value", points)
	}
	return msg("score.rule", "Value", points)
}

// DoublingRule explains why a seat's round score is doubled: the player
// alone (Classic, 3 players) or the holder of the x2 card (Modern 3 and 5
// players).
func DoublingRule(ed engine.Edition, bonus int, seats Seats) Msg {
	if bonus < 0 {
		return Msg{}
	}
	why := msg("score.why.bonus")
	if ed == engine.Classic {
		why = msg("score.why.solo")
	}
	who := seats.name(bonus)
	return msg(you("score.doubling", who), "Seat", who, "Why", why)
}

// Prompt says what the person must do now in view v (their turn).
func Prompt(v engine.View, seats Seats) Msg {
	switch v.Phase {
	case engine.PhaseNjet:
		return msg("prompt.block")
	case engine.PhaseTeams:
		return msg("prompt.teams")
	case engine.PhaseDiscard:
		switch v.Rules.Discard {
		case engine.PassLeft:
			return msg("prompt.pass", "To", seats.name(v.Seat+1))
		case engine.Discard2:
			return msg("prompt.discard.two")
		case engine.Discard1NoOnes:
			return msg("prompt.discard.one-not-one")
		}
		return msg("prompt.discard.one")
	case engine.PhaseTricks:
		if len(v.Trick.Plays) == 0 {
			return msg("prompt.lead")
		}
		return msg("prompt.play")
	}
	return Phase(v.Phase)
}

// Choices heads a list of choices.
func Choices() Msg { return msg("prompt.choices") }

// Answer explains how to answer a prompt.
func Answer() Msg { return msg("prompt.answer") }

// Pause asks the person to go on to round n.
func Pause(n int) Msg { return msg("prompt.pause", "N", n) }

// phaseIDs are the ids of the phases, by engine.Phase.
var phaseIDs = [...]string{"deal", "njet", "teams", "discard", "tricks", "round-over", "game-over"}

// Phase names a phase of the round: "the Njet phase".
func Phase(p engine.Phase) Msg {
	if int(p) >= len(phaseIDs) {
		return Plain("?")
	}
	return msg("phase." + phaseIDs[p])
}

// BoardTitle heads the Njet board, with its legend.
func BoardTitle() Msg { return msg("board.title", "Legend", msg("board.legend")) }

// BoardDecided marks a row with one free field left.
func BoardDecided() Msg { return msg("board.decided") }

// BoardFinal heads the board once the Njet phase is over.
func BoardFinal() Msg { return msg("board.final") }

// HandGroup is one colour of a hand: "red (trump): 1* 4 9". values are
// the shown values of the cards.
func HandGroup(c engine.Colour, trump bool, values string) Msg {
	if trump {
		return msg("hand.group.trump", "Colour", Colour(c), "Values", values)
	}
	return msg("hand.group", "Colour", Colour(c), "Values", values)
}

// Hand heads the person's hand of n cards, grouped by colour.
func Hand(n int, groups []Msg) Msg {
	return plural("hand.title", n, "Groups", Join(groups, " | "))
}

// SuperNote explains the mark of a supertrump in the hand.
func SuperNote() Msg { return msg("hand.super-note") }

// TrickUnderWay shows trick n of total: who played what so far, or that the
// person leads.
func TrickUnderWay(n, total int, plays []engine.Play, seats Seats) Msg {
	if len(plays) == 0 {
		return msg("trick.you-lead", "N", n, "Of", total)
	}
	var items []Msg
	for _, p := range plays {
		items = append(items, msg("trick.play", "Seat", seats.name(p.Seat), "Card", Card(p.Card)))
	}
	return msg("trick.under-way", "N", n, "Of", total, "Plays", Join(items, ", "))
}

// Tricks counts tricks: "3 tricks".
func Tricks(n int) Msg { return plural("score.tricks", n) }

// Loot counts loot cards: "1 loot card".
func Loot(n int) Msg { return plural("score.loot", n) }

// SoFar is the round so far for the person's team: tricks and loot.
func SoFar(mineTricks, mineLoot, theirTricks, theirLoot int) Msg {
	return msg("score.this-round",
		"Mine", msg("list.two", "A", Tricks(mineTricks), "B", Loot(mineLoot)),
		"Theirs", msg("list.two", "A", Tricks(theirTricks), "B", Loot(theirLoot)))
}

// NoTeams says the teams are not formed yet.
func NoTeams() Msg { return msg("score.no-teams") }

// RoundOver heads a round's result: "Round 2 over: 3 points per trick and
// loot card.".
func RoundOver(n, points int) Msg { return msg("score.round-over", "N", n, "Points", Points(points)) }

// TeamScore is one team's tricks and loot: "Bot 1 + Bot 3: 4 tricks, 1 loot card".
func TeamScore(members []Msg, tricks, loot int) Msg {
	return msg("score.team", "Team", Join(members, " + "), "Tricks", Tricks(tricks), "Loot", Loot(loot))
}

// ScoreColumns are the headings of the score table's columns.
func ScoreColumns() (round, total Msg) { return msg("score.round"), msg("score.total") }

// Doubled marks a doubled round score.
func Doubled() Msg { return msg("score.doubled") }

// Standings heads the running totals after rounds rounds (none scored
// yet when rounds is 0).
func Standings(rounds int) Msg {
	if rounds <= 0 {
		return msg("score.standings.none")
	}
	return msg("score.standings", "Rounds", plural("score.rounds", rounds))
}

// StandingLine is one seat's running total.
func StandingLine(seat Msg, points int) Msg { return msg("score.line", "Seat", seat, "Points", points) }

// Welcome opens a game against bots of a kind.
func Welcome(ed engine.Edition, players int, character engine.Character, botKind string) Msg {
	return msg("game.welcome", "Edition", Edition(ed), "Players", players, "Character", Character(ed, character),
		"Bots", plural("game.bots", players-1, "Kind", botKind))
}

// RoundStart opens round n of rounds (0: played to a target) dealt by dealer.
func RoundStart(n, rounds int, dealer Msg) Msg {
	if rounds <= 0 {
		return msg("game.round.open", "N", n, "Dealer", dealer)
	}
	return msg("game.round", "N", n, "Of", rounds, "Dealer", dealer)
}

// Target explains the target-score variant; in the Classic edition it is a
// house rule, the Modern rules know it.
func Target(ed engine.Edition, target int) Msg {
	if ed == engine.Classic {
		return msg("game.target.house", "Target", target)
	}
	return msg("game.target", "Target", target)
}

// GameOver heads the end of a game after rounds rounds.
func GameOver(rounds int) Msg { return plural("game.over", rounds) }

// Winners words the winners (seats, by name) of a game with their total.
func Winners(winners []Msg, points int) Msg {
	switch {
	case len(winners) == 1 && IsYou(winners[0]):
		return msg("game.win.you", "Points", points)
	case len(winners) == 1:
		return msg("game.win", "Seat", winners[0], "Points", points)
	}
	return msg("game.shared", "Points", points, "Seats", List(winners))
}

// Leave says the person left in round n; InputEnded that their input ran out.
func Leave(n int) Msg { return msg("game.leave", "N", n) }

// InputEnded says the input ended in round n.
func InputEnded(n int) Msg { return msg("game.input-ended", "N", n) }
