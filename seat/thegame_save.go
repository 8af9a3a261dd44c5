package seat

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/njetlan/njet/thegame"
)

// A save of a local game of The Game holds what makes the game again: the
// configuration with its seed (the order of the deck) and every move told
// so far; the draws follow from the rules. Resuming replays the moves
// through the engine, so a save that breaks a rule is refused like any
// other bad input. The layout is the app's since its first release
// (testdata/thegame-*.json are saves it wrote): it changes only with
// theGameSaveFormat.

// theGameSaveFormat is the version of the save's layout.
const theGameSaveFormat = 1

// maxTheGameMoves bounds the moves a save may hold: a whole game lays 98
// cards, ends at most as many turns and gives a few signals in each.
const maxTheGameMoves = 4096

// tgSaved is the save of a local game of The Game.
type tgSaved struct {
	Format     int      `json:"format"`
	Players    int      `json:"players"`
	Variant    string   `json:"variant"` // "base" or "extreme"
	Assignment int      `json:"assignment,omitempty"`
	Bot        string   `json:"bot"`
	Seed       uint64   `json:"seed"`
	Talked     int      `json:"talked"` // the turn after whose start the bots last signalled
	Moves      []tgStep `json:"moves"`
}

// tgStep is one move of the save, in the words of the game's records
// (docs/thegame-record.md): "play" with card and pile, "end", "signal" with
// pile and signal.
type tgStep struct {
	Seat   int    `json:"seat"`
	Act    string `json:"act"`
	Card   int    `json:"card,omitempty"`
	Pile   int    `json:"pile,omitempty"`
	Signal string `json:"signal,omitempty"`
}

func tgStepOf(a thegame.Action) tgStep {
	st := tgStep{Seat: a.Seat, Act: a.Kind.String()}
	switch a.Kind {
	case thegame.ActPlay:
		st.Card, st.Pile = int(a.Card), a.Pile
	case thegame.ActSignal:
		st.Pile, st.Signal = a.Pile, a.Signal.String()
	}
	return st
}

func (st tgStep) action() (thegame.Action, error) {
	a := thegame.Action{Seat: st.Seat, Pile: st.Pile}
	switch st.Act {
	case "play":
		if st.Card < int(thegame.MinCard) || st.Card > int(thegame.MaxCard) {
			return a, fmt.Errorf("no card %d", st.Card)
		}
		a.Kind, a.Card = thegame.ActPlay, thegame.Card(st.Card)
	case "end":
		a.Kind = thegame.ActEnd
	case "signal":
		sig, err := thegame.ParseSignal(st.Signal)
		if err != nil {
			return a, err
		}
		a.Kind, a.Signal = thegame.ActSignal, sig
	default:
		return a, fmt.Errorf("unknown move %q", st.Act)
	}
	return a, nil
}

// Save writes the game down as it is now: its configuration and every move
// made so far, the person's last play included even before it is told.
// ResumeTheGameLocal reads it back.
func (l *TheGameLocal) Save() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := tgSaved{Format: theGameSaveFormat, Players: l.cfg.Players, Variant: "base",
		Bot: l.cfg.Bot, Seed: l.cfg.Seed, Talked: l.talked, Moves: make([]tgStep, 0, len(l.moves))}
	if l.cfg.Extreme {
		s.Variant, s.Assignment = "extreme", thegame.AssignmentVersion
	}
	for _, a := range l.moves {
		s.Moves = append(s.Moves, tgStepOf(a))
	}
	return encodeSave(s)
}

// ResumeTheGameLocal makes the game of a save again: the same deal from the
// seed, then every saved move through the engine. Every move counts as
// told; the bots go on from there. A save that cannot be read, does not
// replay or holds a game already over gives an error wrapping ErrBadSave.
func ResumeTheGameLocal(data []byte) (*TheGameLocal, error) {
	if err := checkSaveSize(data); err != nil {
		return nil, err
	}
	var s tgSaved
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSave, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one save", ErrBadSave)
	}
	switch {
	case s.Format != theGameSaveFormat:
		return nil, fmt.Errorf("%w: format %d, want %d", ErrBadSave, s.Format, theGameSaveFormat)
	case s.Variant != "base" && s.Variant != "extreme":
		return nil, fmt.Errorf("%w: variant %q", ErrBadSave, s.Variant)
	case s.Variant == "extreme" && s.Assignment != thegame.AssignmentVersion:
		return nil, fmt.Errorf("%w: command assignment %d, this app knows %d", ErrBadSave, s.Assignment, thegame.AssignmentVersion)
	case len(s.Moves) > maxTheGameMoves:
		return nil, fmt.Errorf("%w: %d moves, at most %d", ErrBadSave, len(s.Moves), maxTheGameMoves)
	}
	cfg := TheGameLocalConfig{Players: s.Players, Extreme: s.Variant == "extreme", Bot: s.Bot, Seed: s.Seed}
	l, err := NewTheGameLocal(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	for i, st := range s.Moves {
		a, err := st.action()
		if err == nil {
			err = l.g.Apply(a)
		}
		if err == nil {
			err = l.g.Feed(l.deck)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: move %d: %w", ErrBadSave, i+1, err)
		}
		l.moves = append(l.moves, a)
	}
	if l.g.Phase() == thegame.PhaseOver {
		return nil, fmt.Errorf("%w: the game is over", ErrBadSave)
	}
	if s.Talked < -1 || s.Talked > l.g.Turns() {
		return nil, fmt.Errorf("%w: signals of turn %d, the game is at turn %d", ErrBadSave, s.Talked, l.g.Turns())
	}
	l.told, l.talked = len(l.moves), s.Talked
	return l, nil
}
