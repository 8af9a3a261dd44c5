// Package cli is njet's command line: one set of commands for every game
// (play, host, join, watch, sim, verify, tables and the tools), each a
// function with its own flag.FlagSet listed in commands, and the app's
// hidden test modes. Adding a command means writing one such function and
// one line there; a game is chosen by --game on the commands that start
// one, and join and watch play whatever game the table plays.
//
// The parts: cli.go runs a command line and holds the flag helpers;
// game.go the flags that choose a game and its bots, checked through the
// registry of games; play.go play, selfplay and verify; sim.go sim; duel.go
// duel; lan.go host, join, watch and tables over package lan, the
// person's seat played by package term; appmode.go the app's flags and
// hidden test modes (the probe, the smoke games), the window itself being
// the root package's.
package cli
