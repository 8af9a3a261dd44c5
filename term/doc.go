// Package term is the terminal game: one person against bots, line by line.
//
// Play reads the person's choices from an io.Reader and writes everything
// to an io.Writer, so a game can be played in a terminal, through a pipe or
// from a test script. At each decision it shows the person's hand grouped
// by colour, the Njet board (free and blocked fields) or the round's rules,
// the trick under way, the teams and the choices, numbered. The person
// answers with a number or with a choice typed as shown ("block trump red",
// "partner 2", "discard red2 blue3", "red7"). Input that is not a choice is
// refused with a reason and asked again; the game state is never lost. The
// end of the input ends the game cleanly. Bots' moves are printed as they
// happen; round scores, running totals and the winner follow.
package term
