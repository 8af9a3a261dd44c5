// Package ui is the Njet app: a Fyne window on desktop and phone.
//
// App owns the window, the settings and a stack of screens. A Screen is a
// view with a lifetime: Start gets a context that ends when the screen leaves
// the stack, and Stop cancels what it started. Screens never decide anything
// about the game: legality, scoring and turn order come from the rules
// engines through package seat; a screen shows what a seat tells it and
// sends the person's choices back.
//
// The app is one shell with each game's screens in it. The shell is home
// (home.go), the LAN list, the host form and joining with a code
// (lanhome.go), the lobby (lobby.go, lanagain.go), fair play and checking a
// log (fairplay.go, checklog.go), settings, and saving and continuing the
// unfinished local game of each game (saves.go); the frames every game's
// screens share are the LAN table's (lantable.go) and the table's
// (tableframe.go). A game registers its screens by its ID in package games
// (games.go): Njet! (njet.go: newgame.go, rules.go, table.go and its
// widgets, gameover.go, langame.go), reading a seat.Seat, and The Game
// (thegame.go: thegame_setup.go, thegame_rules.go, thegame_table.go,
// thegame_over.go, thegame_lan.go), reading a TheGameSource (a
// seat.TheGameLocal or a LAN seat.TheGameSeat). The shell asks the
// registry and never names a game.
//
// The package never imports Fyne's app package, so its tests run in software
// with fyne.io/fyne/v2/test and CGO_ENABLED=0; package main creates the
// fyne.App and hands it to New.
package ui
