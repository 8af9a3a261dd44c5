// Package sim plays whole games of The Game with bots in every seat.
//
// Play drives one game from the deal to its end, taking the draws from a
// deck order and asking each seat's bot.Player for its actions and, between
// turns, for its signals. Run plays a seeded batch and sums it up: the mean
// number of cards left and the win rate, each with a 95% interval. With
// Config.Record set it writes one JSON line per game in the public format of
// docs/thegame-record.md; ReadRecords and CheckRecords read such a file and
// replay every game against the rules.
//
// Everything is reproducible: the games of a Run depend only on its Config.
package sim
