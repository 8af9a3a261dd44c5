package seat

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/njetlan/njet/engine"
)

// saveVersion is the version of the saved-game format.
const saveVersion = 1

// maxSave bounds a saved game; a whole Modern game is well under 100 KB.
const maxSave = 4 << 20

// savedGame is a local game on disk: the configuration, the generators'
// states, every deck dealt and every move after the deals. Replaying the
// decks and moves through the engine rebuilds the game; the generators
// continue from where they were, so a resumed game goes on as it would have.
type savedGame struct {
	Version int             `json:"version"`
	Config  LocalConfig     `json:"config"`
	Deals   []byte          `json:"deals"` // the deal generator's state
	Bots    [][]byte        `json:"bots"`  // per seat, null at the person's
	Decks   [][]engine.Card `json:"decks"`
	Actions []engine.Action `json:"actions"`
}

// Save returns the game as it stands: its configuration, every deck and
// every move so far. ResumeLocal reads it back.
func (l *Local) Save() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sg := savedGame{Version: saveVersion, Config: l.cfg, Decks: l.decks, Actions: l.actions,
		Bots: make([][]byte, len(l.botSrc))}
	var err error
	if sg.Deals, err = l.src.MarshalBinary(); err != nil {
		return nil, fmt.Errorf("seat: save: %w", err)
	}
	for s, src := range l.botSrc {
		if src == nil {
			continue
		}
		if sg.Bots[s], err = src.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("seat: save: %w", err)
		}
	}
	return encodeSave(sg)
}

// encodeSave writes a save of either game.
func encodeSave(v any) ([]byte, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("seat: save: %w", err)
	}
	return out, nil
}

// checkSaveSize refuses input larger than any save of either game before
// it is decoded.
func checkSaveSize(saved []byte) error {
	if len(saved) > maxSave {
		return fmt.Errorf("%w: %d bytes", ErrBadSave, len(saved))
	}
	return nil
}

// ResumeLocal rebuilds a game from Save's output. Its first event is a Sync
// of the game as it stood. Input that is not a saved game, or one whose
// moves the engine refuses, gives an error wrapping ErrBadSave.
func ResumeLocal(saved []byte) (*Local, error) {
	if err := checkSaveSize(saved); err != nil {
		return nil, err
	}
	var sg savedGame
	if err := json.Unmarshal(saved, &sg); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	if sg.Version != saveVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrBadSave, sg.Version, saveVersion)
	}
	l, err := newLocal(sg.Config)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	if err := l.src.UnmarshalBinary(sg.Deals); err != nil {
		return nil, fmt.Errorf("%w: deal generator: %w", ErrBadSave, err)
	}
	if len(sg.Bots) != sg.Config.Players {
		return nil, fmt.Errorf("%w: %d bot generators for %d seats", ErrBadSave, len(sg.Bots), sg.Config.Players)
	}
	for s := range l.botSrc {
		if s == sg.Config.You {
			continue
		}
		l.botSrc[s] = &rand.PCG{}
		if err := l.botSrc[s].UnmarshalBinary(sg.Bots[s]); err != nil {
			return nil, fmt.Errorf("%w: seat %d's generator: %w", ErrBadSave, s, err)
		}
	}
	if err := l.makeBots(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	// The first dealer is not stored: it is the first draw of the seed's
	// generator, as in NewLocal.
	first := rand.New(rand.NewPCG(sg.Config.Seed, 0x6e6a6574)).IntN(sg.Config.Players)
	g, err := engine.NewGame(engine.Config{
		Edition: sg.Config.Edition, Players: sg.Config.Players, FirstDealer: first,
		Short: sg.Config.Short, Target: sg.Config.Target,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	l.g = g
	decks, actions := sg.Decks, sg.Actions
	for range len(sg.Decks) + len(sg.Actions) + 1 {
		switch g.Phase() {
		case engine.PhaseGameOver:
			if len(decks)+len(actions) > 0 {
				return nil, fmt.Errorf("%w: moves after the end of the game", ErrBadSave)
			}
		case engine.PhaseDeal, engine.PhaseRoundOver:
			if len(decks) == 0 {
				break
			}
			if err := g.DealDeck(decks[0]); err != nil {
				return nil, fmt.Errorf("%w: deal %d: %w", ErrBadSave, len(l.decks)+1, err)
			}
			l.decks = append(l.decks, decks[0])
			decks = decks[1:]
			l.seq++
			continue
		default:
			if len(actions) == 0 {
				break
			}
			if err := l.apply(actions[0]); err != nil {
				return nil, fmt.Errorf("%w: move %d: %w", ErrBadSave, len(l.actions)+1, err)
			}
			actions = actions[1:]
			continue
		}
		break
	}
	if len(decks)+len(actions) > 0 {
		return nil, fmt.Errorf("%w: %d decks and %d moves left over", ErrBadSave, len(decks), len(actions))
	}
	l.queue = nil // the replay's events are told by the first Sync
	return l, nil
}
