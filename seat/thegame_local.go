package seat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	tgsim "github.com/njetlan/njet/thegame/sim"
)

// TheGameLocalConfig sets up a local game of The Game against bots.
type TheGameLocalConfig struct {
	Players int    // 1 to 5; the person sits in seat 0
	Extreme bool   // play with the command cards
	Bot     string // the bots' kind for thegame/bot.New: "greedy", "coop" or "expert"
	Seed    uint64 // the order of the deck comes from it
}

// errTheGameStall is returned when a bot finds nothing to do in its turn,
// which the engine's rules never allow; it ends the reading of the game.
var errTheGameStall = errors.New("seat: a bot of The Game found no move")

// TheGameLocal is a game of The Game on this device: the person in seat 0,
// bots in the others, the draws from a deck shuffled from the seed. It
// offers what TheGameSeat offers at a LAN table (the view, the moves, the
// warnings), with the bots and the deck on this device. Its methods may be
// called from any goroutine; one reader calls Next or TryNext.
type TheGameLocal struct {
	mu      sync.Mutex
	cfg     TheGameLocalConfig
	g       *thegame.Game
	deck    []thegame.Card
	bots    []tgbot.Player // nil at the person's seat
	moves   []thegame.Action
	told    int
	talked  int           // the turn after whose start the bots last signalled
	changed chan struct{} // the person acted
	waiting bool          // Next waits for the person
}

// NewTheGameLocal starts a local game: the deck is shuffled and dealt. A
// bad configuration gives an error wrapping ErrBadConfig.
func NewTheGameLocal(cfg TheGameLocalConfig) (*TheGameLocal, error) {
	g, err := thegame.NewGame(thegame.Config{Players: cfg.Players, Extreme: cfg.Extreme})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	if _, err := tgbot.New(cfg.Bot, true); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err) // even alone: a bad kind is a bad config
	}
	l := &TheGameLocal{cfg: cfg, g: g, deck: tgsim.Shuffle(rand.New(rand.NewPCG(cfg.Seed, 0x7467))),
		bots: make([]tgbot.Player, cfg.Players), talked: -1, changed: make(chan struct{}, 1)}
	for s := 1; s < cfg.Players; s++ {
		if l.bots[s], err = tgbot.New(cfg.Bot, true); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
		}
	}
	if err := l.g.Feed(l.deck); err != nil {
		return nil, fmt.Errorf("seat: %w", err)
	}
	return l, nil
}

// You is seat 0.
func (l *TheGameLocal) You() int { return 0 }

// View is the person's view.
func (l *TheGameLocal) View() thegame.View {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.View(0)
}

// Result is the game's result, meaningful once it is over.
func (l *TheGameLocal) Result() thegame.Result {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Result()
}

// Warning asks the engine whether a would lose the game, and the command
// that could not be kept.
func (l *TheGameLocal) Warning(a thegame.Action) (thegame.Command, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Warning(a)
}

// Act applies the person's play, end of turn or signal: it must be seat
// 0's. A refused action changes nothing; the error wraps the engine's
// sentinel.
func (l *TheGameLocal) Act(a thegame.Action) error {
	if a.Seat != 0 {
		return fmt.Errorf("%w: seat %d is not the person's", thegame.ErrNotYourTurn, a.Seat)
	}
	if a.Kind == thegame.ActDraw {
		return fmt.Errorf("%w: the draws are the table's", thegame.ErrBadAction)
	}
	l.mu.Lock()
	err := l.g.Apply(a)
	if err == nil {
		l.moves = append(l.moves, a)
		err = l.g.Feed(l.deck)
	}
	l.mu.Unlock()
	if err == nil {
		select {
		case l.changed <- struct{}{}:
		default:
		}
	}
	return err
}

// Next tells the next move of the game, the person's own included; between
// them it draws for the seats and lets the bots signal and play. It waits
// only for the person. It returns io.EOF once the game is over and every
// move has been told, and ctx's error when ctx ends.
func (l *TheGameLocal) Next(ctx context.Context) (thegame.Action, error) {
	for range 10 * thegame.DeckSize * thegame.MaxPlayers {
		a, ok, err := l.TryNext()
		if ok || err != nil {
			return a, err
		}
		select {
		case <-l.changed:
		case <-ctx.Done():
			return thegame.Action{}, ctx.Err()
		}
	}
	return thegame.Action{}, errTheGameStall
}

// TryNext is Next without the wait: ok is false, with no error, when the
// person is to act (a front end that reads its person on the same
// goroutine asks them then).
func (l *TheGameLocal) TryNext() (a thegame.Action, ok bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok, err = l.advance()
	l.waiting = !ok && err == nil
	return a, ok, err
}

// advance returns the next untold move, making one if a bot is to act;
// ok is false when the person is to act. l.mu is held.
func (l *TheGameLocal) advance() (thegame.Action, bool, error) {
	for range 2 * thegame.MaxPlayers * thegame.NumPiles {
		if l.told < len(l.moves) {
			l.told++
			return l.moves[l.told-1], true, nil
		}
		if l.g.Phase() == thegame.PhaseOver {
			return thegame.Action{}, false, io.EOF
		}
		if l.talked != l.g.Turns() {
			l.talked = l.g.Turns()
			l.botsTalk()
			continue
		}
		s := l.g.Turn()
		if s == 0 {
			return thegame.Action{}, false, nil
		}
		v := l.g.View(s)
		a := l.bots[s].Act(&v)
		if err := l.g.Apply(a); err != nil {
			return thegame.Action{}, false, fmt.Errorf("%w: seat %d: %w", errTheGameStall, s, err)
		}
		l.moves = append(l.moves, a)
		if err := l.g.Feed(l.deck); err != nil {
			return thegame.Action{}, false, err
		}
	}
	return thegame.Action{}, false, errTheGameStall
}

// botsTalk lets each bot put or clear its signals once a turn.
func (l *TheGameLocal) botsTalk() {
	for s, b := range l.bots {
		if b == nil || !l.g.CanSignal() {
			continue
		}
		v := l.g.View(s)
		for _, a := range b.Talk(&v) {
			// A signal already on the pile is not news: it is not told.
			same := a.Pile >= 0 && a.Pile < thegame.NumPiles && l.g.Signals(s)[a.Pile] == a.Signal
			if l.g.Apply(a) == nil && !same {
				l.moves = append(l.moves, a)
			}
		}
	}
}

// Idle reports whether Next has told every move and waits for the person.
func (l *TheGameLocal) Idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting && l.told == len(l.moves)
}

// Config is the game's configuration.
func (l *TheGameLocal) Config() TheGameLocalConfig {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cfg
}

// Over reports whether the game has ended; a front end then removes its
// save.
func (l *TheGameLocal) Over() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Phase() == thegame.PhaseOver
}

// History is the moves told so far, oldest first.
func (l *TheGameLocal) History() []thegame.Action {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]thegame.Action(nil), l.moves[:l.told]...)
}
