package ui

import (
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/words"
)

// tgw is a phrase of The Game's screens in the chosen language, from the
// words catalogue; args are name, value pairs for its placeholders.
func tgw(id string, args ...any) string { return say(words.TheGame(id, args...)) }

// tgn is a plural phrase of The Game for count n.
func tgn(id string, n int, args ...any) string { return say(words.TheGameCount(id, n, args...)) }

// tgCommandShort is a command's short name, e.g. "Skull".
func tgCommandShort(k thegame.Command) string { return say(words.CommandName(k)) }

// tgCommandTag is a command as a card of the hand shows it.
func tgCommandTag(k thegame.Command) string { return say(words.CommandTag(k)) }

// tgCommandRule says what a command orders.
func tgCommandRule(k thegame.Command) string { return say(words.CommandRule(k)) }

// tgCommandCards lists the cards of a command.
func tgCommandCards(k thegame.Command) string { return say(words.CommandCards(k)) }

// tgSignalText is a signal in full.
func tgSignalText(s thegame.Signal) string { return say(words.Signal(s)) }

// tgSignalShort is a signal as a pile shows it.
func tgSignalShort(s thegame.Signal) string { return say(words.SignalShort(s)) }

// tgRatingText is the verdict on a result.
func tgRatingText(r thegame.Rating) string { return say(words.Rating(r)) }
