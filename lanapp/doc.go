// Package lanapp is the app's LAN: it answers package ui's LAN interfaces
// (ui.LAN, ui.LANTable, ui.LobbyControl) with package lan's device, so
// that the screens know nothing of devices, stores or the network. The
// platform's multicast lock comes in from the app (LAN.Lock).
//
// LAN browses, hosts, joins and resumes; hostControl is a host's lobby
// control; lanTable plays a table of either game, the person's seat given
// to the screen as a seat.Seat (Njet!) or a seat.TheGameSeat (The Game).
package lanapp
