package ui

import (
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// tgw is a phrase of The Game's screens in the chosen language, from the
// words catalogue; args are name, value pairs for its placeholders.
func tgw(id string, args ...any) string { return say(words.TheGame(id, args...)) }

// tgn is a plural phrase of The Game for count n.
func tgn(id string, n int, args ...any) string { return say(words.TheGameCount(id, n, args...)) }

// tgCommandShort is a command's name, e.g. "Skull": the one name a card
// of the hand, a pile, a reason and the rules give it.
func tgCommandShort(k thegame.Command) string { return say(words.CommandName(k)) }

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

// TheGameWords are the words on The Game's buttons in the app's language,
// which a person (a test's, or the driver of the real window) looks for.
func TheGameWords() reach.TheGameWords {
	return reach.TheGameWords{
		End:  tgw("thegame.end-turn"),
		Done: tgw("thegame.over.done"),
		Yes:  tgw("thegame.warn.yes"),
		No:   tgw("thegame.warn.no"),
	}
}

// TheGameSetUpWords are the words on the way from the home screen to a
// table of The Game: home's button, the setup's Extreme check and its
// button that deals.
type TheGameSetUpWords struct {
	Play, Extreme, Deal string
	Table               reach.TheGameWords
	// Left is the game-over view's line of the cards left.
	Left func(n int) string
}

// TheGameWordsIn switches the process's words to language code and
// returns The Game's.
func TheGameWordsIn(code string) TheGameSetUpWords {
	setupLang(code)
	return theGameSetUpWords()
}

func theGameSetUpWords() TheGameSetUpWords {
	extreme, _ := tgChoiceParts(tgw("thegame.setup.extreme"))
	return TheGameSetUpWords{Play: tgw("thegame.home.play"), Extreme: extreme, Deal: tgw("thegame.setup.play"), Table: TheGameWords(),
		Left: func(n int) string { return tgn("thegame.over.left", n) }}
}
