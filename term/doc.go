// Package term is the terminal game: one person against bots, line by line,
// or a person's seat at a table on the LAN.
//
// Play reads the person's choices from an io.Reader and writes everything
// to an io.Writer, so a game can be played in a terminal, through a pipe or
// from a test script. At each decision it shows the person's hand grouped
// by colour, the Njet board (free and blocked fields) or the round's rules,
// the trick under way, the teams and the choices, numbered. During the
// Njet phase every field of the board keeps its number for the whole
// phase; a field that cannot be blocked now shows no number and is refused
// with the reason. The person answers with a number or with a choice typed
// as shown ("block trump red", "partner 2", "discard red2 blue3", "red7");
// "help" shows the table again, "score" the standings and "rules" how the
// game is played, in the words package's sentences (the reading of the
// trump rule included). Text is wrapped to the terminal's width, in both
// the local and the LAN game. Input that is not a choice is
// refused with a reason and asked again; the game state is never lost. The
// end of the input ends the game cleanly. Bots' moves are printed as they
// happen; round scores, running totals and the winner follow. The game is
// the local seat of package seat (seat.Local, as the app plays it), which
// deals and runs the bots; Play tells its events and answers its
// questions.
//
// PlayTheGame (thegame.go) is the terminal game of The Game, with or
// without its Extreme commands: the person in seat 0 and cooperative bots in
// the other seats, played through the local seat of package seat
// (seat.TheGameLocal, as the app plays it), which runs the bots and the
// deck. It shows the four piles numbered 1 to 4 with their
// direction, top card and backwards-trick target, the signals on them, the
// commands in force in words and the hand with the cards that fit marked;
// the person types a card and a pile, "end", or a signal. A move the rules
// refuse is explained and nothing is lost; a card that would end the game
// is played only after a yes. PlayTheGameLAN (thegame_lan.go) plays a
// person's seat at a LAN table of The Game with the same screen and
// commands, telling every seat's moves as the log brings them.
//
// PlayLAN (lan.go) plays a person's seat at a LAN table through its
// table.Peer, with the same rendering and answer parsing (the screen type):
// it shows the other seats' moves as the log brings them, asks when the
// peer prompts, hands the choice to Submit, tells whom the table waits for
// and offers the vote to void the round of a silent seat. Its input is read
// by a goroutine, so the table moves on while nobody types.
package term
