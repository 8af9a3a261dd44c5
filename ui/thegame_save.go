package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

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
// are written: errNoSave when there is none, seat.ErrBadSave wrapped when
// it cannot be continued.
func (a *App) SavedTheGame() (*seat.TheGameLocal, error) {
	a.saving.Wait()
	data, err := loadFile(a.storage(), theGameFile)
	if err != nil {
		return nil, err
	}
	return seat.ResumeTheGameLocal(data)
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
func (a *App) playTheGame(l *seat.TheGameLocal) {
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
func (a *App) keepTheGame(scr *TheGameScreen, l *seat.TheGameLocal) {
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
func (a *App) startTheGame(cfg seat.TheGameLocalConfig) error {
	l, err := seat.NewTheGameLocal(cfg)
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
func (a *App) SmokeTheGame(cfg seat.TheGameLocalConfig, done func(left int, rating thegame.Rating, err error)) error {
	l, err := seat.NewTheGameLocal(cfg)
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
