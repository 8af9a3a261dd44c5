package ui

import (
	"context"
	"errors"
	"slices"

	"github.com/njetlan/njet/words"
)

// A LAN table may offer more than LANTable: whether its host allowed
// hints, and playing it again. They are interfaces of their own, so that
// a table without them (an older fake) still plays.

// hintsTable is a table that says whether its host allowed hints.
type hintsTable interface {
	// Hints reports whether the host allowed hints (the genesis says so).
	Hints() bool
}

// againTable is a table that can be played again.
type againTable interface {
	// Again sits the device at the table that plays this one again, with
	// the same seats and names and a fresh deal, once every person's
	// device has asked; news hears the seats fill (LobbyWaiting). It ends
	// with ctx (the person no longer waits).
	Again(ctx context.Context, news func(LobbyNews)) (LANTable, error)
}

// errNoAgain is the error of a table that cannot be played again.
var errNoAgain = errors.New("ui: this table cannot be played again")

// hintsAllowed reports whether the host of t allowed hints.
func hintsAllowed(t LANTable) bool {
	h, ok := t.(hintsTable)
	return ok && h.Hints()
}

// canPlayAgain reports whether t can be played again.
func canPlayAgain(t LANTable) bool {
	_, ok := t.(againTable)
	return ok
}

// playAgain asks t's devices to play it again.
func playAgain(ctx context.Context, t LANTable, news func(LobbyNews)) (LANTable, error) {
	a, ok := t.(againTable)
	if !ok {
		return nil, errNoAgain
	}
	return a.Again(ctx, news)
}

// NewAgain is the lobby of the table that plays t again: it waits for the
// other people of t, says whom it waits for, and the game screen follows
// once everybody is back. Leave stops waiting; nobody is forced.
func NewAgain(a *App, t LANTable) *Lobby {
	l := newLobbyTitled(a, nil, JoinTo{}, "", tr("again.play", "Play again"))
	l.again = t
	l.status.SetText(tr("again.lobby.asking", "Asking the others to play again…"))
	return l
}

// againStatus says whom the table played again waits for: the people of
// the old table not seated yet.
func (l *Lobby) againStatus(n LobbyNews) string {
	if n.Seated >= n.Wanted {
		return tr("again.lobby.starting", "Everybody is back: the new game starts.")
	}
	seated := slices.Clone(n.Players)
	var missing []words.Msg
	names := l.again.Names()
	for s := range min(n.Wanted, len(names)) {
		if i := slices.Index(seated, names[s]); i >= 0 {
			seated[i] = "\x00" // each seated name answers for one seat
			continue
		}
		name := names[s]
		if name == "" {
			name = tr("lan.game.seat", "seat {{.N}}", map[string]any{"N": s + 1})
		}
		missing = append(missing, words.Plain(name))
	}
	return tr("again.lobby.waiting", "Waiting for {{.Names}} to play again. Leave if you do not want to wait.",
		map[string]any{"Names": say(words.List(missing))})
}

// showHints says whether the host allows hints at the table.
func (l *Lobby) showHints(n LobbyNews) {
	text := tr("again.lobby.no-hints", "No hints at this table.")
	if n.Hints {
		text = tr("again.lobby.hints", "Hints are allowed at this table.")
	}
	l.hints.SetText(text)
	l.hints.Show()
}
