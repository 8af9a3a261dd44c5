package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Each game keeps its unfinished local game in a file of its own in the
// app's storage (gameUI.save), so that either game can be continued
// whatever the other does. The game being played is saved after every
// choice, off the UI goroutine, and again when the app leaves the
// foreground or stops; it is removed once the game is over, when the
// person leaves it or starts another. One mechanism serves every game:
// the games differ only in their files and in what a save that cannot be
// continued becomes.

// localSave is one game's save: its files, the game being played (saved
// on exit) and a count of clears, so that a save from before one is
// dropped.
type localSave struct {
	saveFiles
	live Saver
	gen  int
}

// maxSave bounds the size of a save file that is read back.
const maxSave = 4 << 20

// errNoSave says there is no unfinished local game.
var errNoSave = errors.New("no saved game")

// newSaves are the saves of the registered games.
func newSaves() map[string]*localSave {
	saves := make(map[string]*localSave, len(gameUIs))
	for _, g := range gameUIs {
		saves[g.id] = &localSave{saveFiles: g.save}
	}
	return saves
}

// SaveLocal writes g, the local game of the game id, so that it resumes
// after the app closes; call it after every choice. The writing runs off
// the UI goroutine; g stays the game saved on exit too. A failed save
// shows an error and the game goes on.
func (a *App) SaveLocal(id string, g Saver) {
	a.saveMu.Lock()
	s := a.saves[id]
	s.live = g
	gen := s.gen
	a.saveMu.Unlock()
	a.saving.Add(1)
	go func() {
		defer a.saving.Done()
		a.saveMu.Lock()
		defer a.saveMu.Unlock()
		if gen != s.gen {
			return // cleared since: the game is over, left or replaced
		}
		// g.Save reads the game as it is now, so saves that run late still
		// write the latest state.
		if err := saveFile(a.storage(), s.file, g); err != nil {
			a.do(func() { a.ShowError(err) })
		}
	}()
}

// ClearLocal removes the saved local game of the game id (at game over,
// when the person leaves it or starts another); saves still under way are
// dropped.
func (a *App) ClearLocal(id string) {
	a.saveMu.Lock()
	s := a.saves[id]
	s.live = nil
	s.gen++
	err := clearFile(a.storage(), s.file)
	a.saveMu.Unlock()
	if err != nil {
		a.ShowError(err)
	}
}

// HasSavedGame reports whether an unfinished local game of the game id is
// saved, once the saves under way are written: one that reads back, or,
// for a game that sets damaged saves aside, any that lies there.
func (a *App) HasSavedGame(id string) bool {
	a.saving.Wait()
	s := a.saves[id]
	if s.aside != "" {
		_, err := os.Stat(filepath.Join(a.storage(), s.file))
		return err == nil
	}
	_, err := loadFile(a.storage(), s.file)
	return err == nil
}

// savedGame reads the saved game of the game id once the saves under way
// are written, or errNoSave.
func (a *App) savedGame(id string) ([]byte, error) {
	a.saving.Wait()
	return loadFile(a.storage(), a.saves[id].file)
}

// saveLive writes the games being played at once (on exit or background).
func (a *App) saveLive() {
	a.saving.Wait()
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	for _, g := range gameUIs {
		if s := a.saves[g.id]; s.live != nil {
			_ = saveFile(a.storage(), s.file, s.live) // nowhere left to tell on exit
		}
	}
}

// setLive makes g the game of the game id saved on exit, without saving
// it now (nil: none, as a smoke game has).
func (a *App) setLive(id string, g Saver) {
	a.saveMu.Lock()
	a.saves[id].live = g
	a.saveMu.Unlock()
}

// startLocal begins the new local game g of the game id, replacing a saved
// one: it is saved at once and play sits the person down at it.
func (a *App) startLocal(id string, g Saver, play func()) {
	a.ClearLocal(id)
	a.SaveLocal(id, g)
	play()
}

// sitDown shows the table scr of the local game g of the game id over a
// fresh home screen, g being the game saved on exit.
func (a *App) sitDown(id string, g Saver, scr Screen) {
	a.setLive(id, g)
	a.Reset(NewHome(a))
	a.Push(scr)
}

// resumeLocal sits the person down again at the saved game of g. A save
// that cannot be continued is set aside or removed, as the game keeps
// them, so that home stops offering it, and the error says so.
func (a *App) resumeLocal(g *gameUI) error {
	data, err := a.savedGame(g.id)
	if err == nil {
		if err = g.resume(a, data); err == nil {
			return nil
		}
	}
	a.saveMu.Lock()
	s := a.saves[g.id]
	s.live = nil
	s.gen++
	var derr error
	if s.aside != "" {
		derr = setAside(a.storage(), s.file, s.aside)
	} else {
		derr = clearFile(a.storage(), s.file)
	}
	a.saveMu.Unlock()
	a.Reset(NewHome(a))
	return errors.Join(fmt.Errorf("%s: %w", g.badSave(), err), derr)
}

// saveFile writes g's save to dir/name through a temporary file, so that
// a crash never leaves half a file. A game that says it is over
// (seat.Local.Over) is not saved but removed: a choice's save can come
// after the game has ended.
func saveFile(dir, name string, g Saver) error {
	if o, ok := g.(interface{ Over() bool }); ok && o.Over() {
		return clearFile(dir, name)
	}
	data, err := g.Save()
	if err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name()) // the error below is the one that matters
		return fmt.Errorf("saving the game: %w", werr)
	}
	return nil
}

// loadFile reads the saved game dir/name, or errNoSave.
func loadFile(dir, name string) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoSave
	}
	if err != nil {
		return nil, fmt.Errorf("reading the saved game: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSave+1))
	if err != nil {
		return nil, fmt.Errorf("reading the saved game: %w", err)
	}
	if len(data) > maxSave {
		return nil, fmt.Errorf("reading the saved game: larger than %d bytes", maxSave)
	}
	if len(data) == 0 {
		return nil, errNoSave
	}
	return data, nil
}

// clearFile removes the saved game dir/name; a missing file is fine.
func clearFile(dir, name string) error {
	err := os.Remove(filepath.Join(dir, name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the saved game: %w", err)
	}
	return nil
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
