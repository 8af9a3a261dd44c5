// Package words turns the game into a player's words: actions, board
// fields, the rules of a round, trick results, team choices, scores,
// prompts and the reasons a move is refused. Every front end says the
// game through it, so the terminal and the app word it alike.
//
// Each phrase is a Msg: a stable dotted id (never shown to a player), the
// English template with {{.Name}} placeholders, and its arguments. Msg.String
// renders the English text, which the terminal prints. The app renders the
// same Msg in the player's language: Translations holds go-i18n JSON files
// (translations/game.en.json, game.de.json, game.fr.json) for fyne's lang
// package, and Msg.Data resolves the nested messages among the arguments
// (a card inside a sentence, a colour inside a card) through the app's own
// lookup before the template is filled.
//
// Plural messages carry Count and have "one" and "other" forms in every
// file. The English catalogue in catalogue.go is the source of the English
// file; a test keeps the three files and every constructor in step.
//
// The Game has a catalogue of its own (thegame.go, every id under
// "thegame.", files translations/thegame.*.json): its commands, signals,
// ratings and the words of its screens.
//
// The package uses the standard library and the two rules engines (engine,
// thegame) only, so the terminal and the Android build stay light.
package words
