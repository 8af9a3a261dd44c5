// Package seat is the seam between a game and a front end: a Seat is one
// person's place at a table, whether the other seats are bots on the same
// device or peers on the LAN.
//
// A front end reads Events from Next, in order and none dropped, and answers
// a YourTurn with Choose. The first event is always a Sync that carries the
// whole State, so a front end can draw the table at once, also when it joins
// a game half way or resumes a saved one. After that each event tells one
// change: a deal, a move, the rules of the round, the teams, a received
// card, a won trick, a scored round, the end of the game. Moved, Dealt and
// RoundOver carry the person's engine.View after the change, so a front end
// never needs rules of its own to draw the table.
//
// Local is the Seat of a game against bots on one device. It runs no
// goroutines: Next advances the bots until an event is ready and blocks only
// while it waits for the person. Save and ResumeLocal keep an unfinished
// game across restarts.
//
// PeerSeat is the Seat of a person at a LAN table (lan.PersonSeat.NjetSeat
// makes one). It runs no goroutines either: the table's peer moves the
// game on, and Next reads the envelopes its log gained (whose authors and
// kinds give the order and who moved) and the peer's view (which gives
// the cards). A device that catches up many envelopes at once cannot be
// told them move by move: it gets a Sync again.
//
// The Game has its own pair of seats, since its moves and views are its
// own: TheGameLocal (thegame_local.go, its save in thegame_save.go) is a
// game against bots on one device, TheGameSeat a person's seat at a LAN
// table. Both give the person's thegame.View, tell every move in order
// through Next, warn before a losing play and take the person's moves
// with Act; the app's table and the terminal play either.
//
// The events Turn (with the LAN fields), Audited, Halted, RoundVoided,
// RoundKept and Watching belong to LAN games; a Local seat sends Turn without them and
// never the others.
package seat
