// Package games is the one registry of the games this program plays: for
// each, its name in a genesis (table.GameName) and on the command line,
// its title, its variants (Njet's editions, The Game's base and Extreme)
// with their player counts and their word on a LAN advert, its bots by
// strength, the player factory a table's peers need (table.NewPlayer),
// and the genesis of a new table. Discovery, the lobby, the LAN commands,
// the saved seat lists and the records ask it "which game", never a game
// name of their own.
//
// It sits above package table and the bot packages, and below p2p, lan and
// the front ends: table imports no bot, and p2p and lan no rules engine,
// because this package answers for them.
package games
