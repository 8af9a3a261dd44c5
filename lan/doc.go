// Package lan runs this device's part of a Njet table on the LAN, for any
// front end: the command line, or a graphical one. It prints nothing;
// progress and events reach the caller as typed values through callbacks,
// and the caller words them.
//
// The flows:
//
//   - OpenDevice (device.go) loads the device's identity from its data
//     directory, opens its store there and starts its p2p.Node. JoinAddrs
//     lists the addresses, with their join codes, where others reach it.
//   - Resume (table.go) finds the unfinished table the store holds, so that
//     a restarted device (or a person who left) plays on.
//   - Host opens a lobby, advertises it on the LAN (mDNS), waits for
//     players, starts the table and records it in the store. OpenLobby
//     (lobby.go) does the same a step at a time for a front end whose host
//     adds and removes bots (of a Strength, each played by one bot kind)
//     and says when to start; Waiting tells everyone the seated players'
//     names and the bots. Join finds a
//     table on the LAN (FindTable), or reaches its host by address or join
//     code (AddrTarget, CodeTarget), takes a seat and records it.
//     WatchTables lists the tables advertised on the LAN as they come
//     and go.
//   - Watch (watch.go) follows a table under way without a seat, from a
//     member device's address or join code; TakeSeat (takeseat.go) asks
//     the table for a seat a bot plays (one the host seated in the lobby,
//     or one the table seated when a device left) and, once the log hands
//     it over, returns the Table that Play plays.
//   - Reconnect (device.go) dials a table's other devices at once, for a
//     device back from the background.
//   - Play (play.go) runs the device's seats to the end of the game: a
//     bot's, or a person's through a Person function the front end gives,
//     at a table of any game (the terminal's are term.PlayLAN and
//     term.PlayTheGameLAN): it reads and moves the game's seat,
//     PersonSeat.NjetSeat or PersonSeat.TheGameSeat. Export writes the
//     table's log to a file and MarkOver records that the game ended.
//
// Imports flow down: lan uses p2p, table and engine, never a front end.
package lan
