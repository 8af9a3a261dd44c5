// Package sim plays whole games of Njet! with bots in every seat.
//
// Deal shuffles the edition's deck with a seeded random source and deals it;
// Play drives one game from the first deal to PhaseGameOver, asking each
// seat's bot.Player for its actions and handing every finished round's
// engine.RoundHistory to a callback. Run plays many games and returns a
// Summary (average scores per bot kind); with Config.Record set it also
// writes game records, one JSON object per round and line, in the public
// format described in docs/record.md (Record, NewRecord, ReadRecords).
// CheckRecords re-checks records against the rules, so a record written by
// any program can be validated.
//
// Everything is reproducible: the games of a Run depend only on its Config,
// never on the clock.
package sim
