package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// An unfinished local game of The Game is kept in a file of its own beside
// Njet's local.json, so that either game can be continued whatever the
// other does. The save holds what makes the game again: the configuration
// with its seed (the order of the deck) and every move told so far; the
// draws follow from the rules. Resuming replays the moves through the
// engine, so a save that breaks a rule is refused like any other bad input.

// theGameSaveFormat is the version of the save's layout.
const theGameSaveFormat = 1

// maxTheGameMoves bounds the moves a save may hold: a whole game lays 98
// cards, ends at most as many turns and gives a few signals in each.
const maxTheGameMoves = 4096

// ErrBadTheGameSave is wrapped by ResumeTheGameLocal for a save that cannot
// be read or does not replay.
var ErrBadTheGameSave = errors.New("ui: bad save of The Game")

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

// Config is the game's configuration.
func (l *TheGameLocal) Config() TheGameConfig {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cfg
}

// Over reports whether the game has ended; the app then removes its save.
func (l *TheGameLocal) Over() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Phase() == thegame.PhaseOver
}

// Save writes the game down as it is now: its configuration and every move
// made so far, the person's last play included even before the table has
// told it.
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
	return json.Marshal(s)
}

// History is the moves told so far, oldest first.
func (l *TheGameLocal) History() []thegame.Action {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]thegame.Action(nil), l.moves[:l.told]...)
}

// ResumeTheGameLocal makes the game of a save again: the same deal from the
// seed, then every saved move through the engine. Every move counts as
// told; the bots go on from there.
func ResumeTheGameLocal(data []byte) (*TheGameLocal, error) {
	var s tgSaved
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadTheGameSave, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one save", ErrBadTheGameSave)
	}
	switch {
	case s.Format != theGameSaveFormat:
		return nil, fmt.Errorf("%w: format %d, want %d", ErrBadTheGameSave, s.Format, theGameSaveFormat)
	case s.Variant != "base" && s.Variant != "extreme":
		return nil, fmt.Errorf("%w: variant %q", ErrBadTheGameSave, s.Variant)
	case s.Variant == "extreme" && s.Assignment != thegame.AssignmentVersion:
		return nil, fmt.Errorf("%w: command assignment %d, this app knows %d", ErrBadTheGameSave, s.Assignment, thegame.AssignmentVersion)
	case len(s.Moves) > maxTheGameMoves:
		return nil, fmt.Errorf("%w: %d moves, at most %d", ErrBadTheGameSave, len(s.Moves), maxTheGameMoves)
	}
	cfg := TheGameConfig{Players: s.Players, Extreme: s.Variant == "extreme", Bot: s.Bot, Seed: s.Seed}
	l, err := NewTheGameLocal(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadTheGameSave, err)
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
			return nil, fmt.Errorf("%w: move %d: %w", ErrBadTheGameSave, i+1, err)
		}
		l.moves = append(l.moves, a)
	}
	if l.g.Phase() == thegame.PhaseOver {
		return nil, fmt.Errorf("%w: the game is over", ErrBadTheGameSave)
	}
	if s.Talked < -1 || s.Talked > l.g.Turns() {
		return nil, fmt.Errorf("%w: signals of turn %d, the game is at turn %d", ErrBadTheGameSave, s.Talked, l.g.Turns())
	}
	l.told, l.talked = len(l.moves), s.Talked
	return l, nil
}

// setAside moves the save dir/name to dir/aside, replacing an older one,
// so that a save that cannot be continued is neither offered again nor
// lost.
func setAside(dir, name, aside string) error {
	err := os.Rename(filepath.Join(dir, name), filepath.Join(dir, aside))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("setting the saved game aside: %w", err)
	}
	return nil
}

// SaveTheGame writes the local game of The Game g so that it resumes after
// the app closes, as SaveLocal does for Njet: off the UI goroutine, g
// staying the game saved on exit, a failed save shown as an error.
func (a *App) SaveTheGame(g Saver) {
	a.saveMu.Lock()
	a.tgLive = g
	gen := a.tgGen
	a.saveMu.Unlock()
	a.saving.Add(1)
	go func() {
		defer a.saving.Done()
		a.saveMu.Lock()
		defer a.saveMu.Unlock()
		if gen != a.tgGen {
			return // cleared since: the game is over or left
		}
		if err := saveFile(a.storage(), theGameFile, g); err != nil {
			a.do(func() { a.ShowError(err) })
		}
	}()
}

// ClearTheGame removes the saved game of The Game (at game over, when the
// person leaves it or starts another); saves still under way are dropped.
func (a *App) ClearTheGame() {
	a.saveMu.Lock()
	a.tgLive = nil
	a.tgGen++
	err := clearFile(a.storage(), theGameFile)
	a.saveMu.Unlock()
	if err != nil {
		a.ShowError(err)
	}
}

// SavedTheGame reads the saved game of The Game once the saves under way
// are written: errNoSave when there is none, ErrBadTheGameSave wrapped when
// it cannot be continued.
func (a *App) SavedTheGame() (*TheGameLocal, error) {
	a.saving.Wait()
	data, err := loadFile(a.storage(), theGameFile)
	if err != nil {
		return nil, err
	}
	return ResumeTheGameLocal(data)
}

// hasTheGameSave reports whether a save of The Game lies in the storage,
// readable or not.
func (a *App) hasTheGameSave() bool {
	a.saving.Wait()
	_, err := os.Stat(filepath.Join(a.storage(), theGameFile))
	return err == nil
}

// playTheGame sits the person down at l over a fresh home screen: the game
// is saved after every move and its save removed once it is over.
func (a *App) playTheGame(l *TheGameLocal) {
	a.saveMu.Lock()
	a.tgLive = l
	a.saveMu.Unlock()
	a.Reset(NewHome(a))
	scr := NewTheGameScreen(a, l, tgSeatNames(a, l.Config().Players))
	a.keepTheGame(scr, l)
	a.Push(scr)
}

// keepTheGame has scr save l after every move and remove the save once
// the game is over or the person leaves it.
func (a *App) keepTheGame(scr *TheGameScreen, l *TheGameLocal) {
	scr.onMove = func() { a.SaveTheGame(l) }
	scr.onOver = a.ClearTheGame
	scr.onLeave = a.ClearTheGame
	scr.onAgain = func() {
		cfg := l.Config()
		seed, err := freshSeed()
		if err == nil {
			cfg.Seed = seed
			err = a.startTheGame(cfg)
		}
		if err != nil {
			a.ShowError(err)
		}
	}
	scr.offerHints()
}

// startTheGame begins a new local game of The Game, replacing a saved one.
func (a *App) startTheGame(cfg TheGameConfig) error {
	l, err := NewTheGameLocal(cfg)
	if err != nil {
		return err
	}
	a.ClearTheGame()
	a.SaveTheGame(l)
	a.playTheGame(l)
	return nil
}

// resumeTheGame sits the person down again at the saved game of The Game.
// A save that cannot be continued is set aside, so that home stops
// offering it, and the error says so.
func (a *App) resumeTheGame() error {
	l, err := a.SavedTheGame()
	if err == nil {
		a.playTheGame(l)
		return nil
	}
	a.saveMu.Lock()
	a.tgLive = nil
	a.tgGen++
	aerr := setAside(a.storage(), theGameFile, theGameAside)
	a.saveMu.Unlock()
	a.Reset(NewHome(a))
	return errors.Join(fmt.Errorf("%s: %w", tgw("thegame.resume.bad"), err), aerr)
}

// SmokeTheGame starts a local game of The Game of cfg whose person's seat
// is played by the table screen's own taps, a cooperative bot choosing
// them, without saving. Once the game-over view has been up for a moment,
// done gets the result the view shows, on the UI goroutine: the line it
// reads, and an error when that disagrees with the engine's result.
func (a *App) SmokeTheGame(cfg TheGameConfig, done func(left int, rating thegame.Rating, err error)) error {
	l, err := NewTheGameLocal(cfg)
	if err != nil {
		return err
	}
	person, err := tgbot.New("coop", true)
	if err != nil {
		return err
	}
	// The smoke game writes no save and leaves a saved one alone.
	a.saveMu.Lock()
	a.tgLive = nil
	a.saveMu.Unlock()
	scr := NewTheGameScreen(a, l, tgSeatNames(a, cfg.Players))
	scr.auto = person
	var once, started sync.Once
	scr.onOver = func() {
		time.AfterFunc(smokeHold, func() {
			a.do(func() {
				once.Do(func() {
					r := l.Result()
					var err error
					if want := tgn("thegame.over.left", r.CardsLeft); scr.gameOver.Left.Text != want {
						err = fmt.Errorf("ui: the game-over view says %q, the engine %q", scr.gameOver.Left.Text, want)
					}
					done(r.CardsLeft, r.Rating(), err)
				})
			})
		})
	}
	scr.onFail = func(err error) {
		once.Do(func() { done(0, thegame.RatingLost, err) })
	}
	// The table starts once the app runs: before, a driver runs the work
	// handed to it at once on the caller's goroutine, the pump's included.
	a.fy.Lifecycle().SetOnStarted(func() {
		started.Do(func() {
			a.Reset(NewHome(a))
			a.Push(scr)
		})
	})
	return nil
}
