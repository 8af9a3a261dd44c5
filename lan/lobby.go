package lan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
)

// Strength is how well a bot plays, as a person chooses it in a lobby:
// each game names the bot kind of each strength (games.Game.Bots).
type Strength = games.Strength

// The strengths a person chooses from.
const (
	Easy   = games.Easy
	Normal = games.Normal
	Strong = games.Strong
)

// Strengths returns the strengths a person chooses from, weakest first.
func Strengths() []Strength { return games.Strengths() }

// StrengthOf returns the strength at which a bot kind of any game plays,
// or 0 when no strength uses the kind.
func StrengthOf(kind string) Strength { return games.StrengthOf(kind) }

// HostLobby is a table this device hosts, before it starts: players sit
// down as they join, the host adds and removes bots, and Start writes the
// genesis once every seat is taken. It is advertised on the LAN until it
// starts or closes. Its methods may be called from any goroutine.
type HostLobby struct {
	d      *Device
	cfg    HostConfig
	lobby  *p2p.Lobby
	advert *p2p.Advert // nil when not advertised

	mu      sync.Mutex
	started bool
}

// OpenLobby opens a lobby for the table cfg describes (its bots of kind
// cfg.BotKinds, or cfg.Bots of the default kind) and advertises it on
// the LAN. progress, when not nil, hears NotAdvertised if the LAN cannot
// see it, then Hosting, from OpenLobby's goroutine. It ends with Start or
// Close.
func (d *Device) OpenLobby(cfg HostConfig, progress func(Progress)) (*HostLobby, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return nil, fmt.Errorf("lan: %w", err)
	}
	kinds := cfg.BotKinds
	if kinds == nil {
		kinds = make([]string, cfg.Bots)
		for i := range kinds {
			kinds[i] = g.Bots[games.Normal]
		}
	}
	if err := checkBots(g, kinds); err != nil {
		return nil, err
	}
	cfg.Bots, cfg.BotKinds = len(kinds), slices.Clone(kinds)
	lobby, err := d.node.OpenLobby(p2p.LobbyConfig{Name: cfg.Name, Game: cfg.Game, Variant: cfg.Variant,
		Players: cfg.Players, Bots: cfg.Bots, Short: cfg.Short, Target: cfg.Target, Rounds: cfg.Rounds, Clock: cfg.Clock, Player: cfg.Player, Hints: cfg.Hints})
	if err != nil {
		return nil, err
	}
	cfg.Variant = lobby.Config().Variant
	if err := lobby.SetBots(kinds); err != nil {
		return nil, errors.Join(err, lobby.Close())
	}
	h := &HostLobby{d: d, cfg: cfg, lobby: lobby}
	ad := p2p.TableAd{ID: lobby.ID(), Name: cfg.Name, Game: cfg.Game, Variant: cfg.Variant,
		Players: cfg.Players, Free: lobby.Free(), Host: lobby.Config().Player, Clock: cfg.Clock}
	if h.advert, err = d.node.Advertise(ad); err != nil {
		progress(NotAdvertised{Err: err})
		h.advert = nil
	}
	progress(Hosting{ID: lobby.ID(), Name: cfg.Name, Game: cfg.Game, Variant: cfg.Variant,
		Players: cfg.Players, Bots: cfg.Bots, Clock: cfg.Clock, Addrs: d.JoinAddrs()})
	return h, nil
}

// checkBots says why a lobby of game g cannot seat bots of kinds, or nil.
// A kind of another game is seated too: the table's game plays it at its
// strength (games.Game.Bot).
func checkBots(g *games.Game, kinds []string) error {
	for _, k := range kinds {
		if g.CheckBot(k) != nil && games.StrengthOf(k) == 0 {
			return fmt.Errorf("lan: no bot of kind %q here (kinds: %v)", k, g.Kinds)
		}
	}
	return nil
}

// SetBots seats bots of kinds after the people, in place of the bots so
// far: adding a bot takes a free seat, removing one frees a seat for a
// joiner (p2p.ErrSeatsTaken when the people leave too few).
func (h *HostLobby) SetBots(kinds []string) error {
	g, err := games.ByName(h.cfg.Game)
	if err != nil {
		return err
	}
	if err := checkBots(g, kinds); err != nil {
		return err
	}
	return h.lobby.SetBots(kinds)
}

// Game returns the game the lobby's table plays.
func (h *HostLobby) Game() table.GameName { return h.cfg.Game }

// Seats returns the lobby's seats as they are now.
func (h *HostLobby) Seats() Waiting { return waitingOf(h.lobby.Seats()) }

func waitingOf(s p2p.LobbySeats) Waiting {
	return Waiting{Seated: len(s.Players), Wanted: s.Wanted, Players: s.Players, Bots: s.Bots, Hints: s.Hints}
}

// Watch reports the lobby's seats as Waiting, at once and after every
// change, until ctx ends (its error), the lobby closes or starts, or,
// when untilFull, every seat is taken (nil). The advert's free seats
// follow.
func (h *HostLobby) Watch(ctx context.Context, untilFull bool, progress func(Progress)) error {
	return h.lobby.Watch(ctx, untilFull, func(s p2p.LobbySeats) {
		if h.advert != nil {
			h.advert.SetFree(s.Wanted - len(s.Players))
		}
		if progress != nil {
			progress(waitingOf(s))
		}
	})
}

// Start starts the table once every seat is taken: it writes the genesis
// (the host in seat 0, the joiners, then the bots), withdraws the advert
// and records the table in the store. The returned table keeps the lobby
// open for members that reconnect, until its Close.
func (h *HostLobby) Start() (*Table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started {
		return nil, fmt.Errorf("lan: the table has started")
	}
	kinds := h.lobby.Seats().Bots
	setup, botKeys, err := h.lobby.Start()
	if err != nil {
		return nil, err
	}
	h.started = true
	if h.advert != nil {
		h.advert.Close()
	}
	seats := []p2p.LocalSeat{ownSeat(0, h.d.node.Key(), h.cfg.Bot)}
	first := setupPlayers(setup) - len(kinds)
	for s := first; s < first+len(kinds); s++ {
		k, ok := botKeys[s]
		if !ok {
			return nil, fmt.Errorf("lan: no key for the bot in seat %d", s)
		}
		seats = append(seats, p2p.LocalSeat{Seat: s, Key: k, Bot: kinds[s-first]})
	}
	if err := p2p.SaveTable(h.d.store, setup, seats); err != nil {
		return nil, err
	}
	return &Table{setup: setup, seats: seats, lobby: h.lobby}, nil
}

// setupPlayers is the number of seats of a setup's genesis (0 if it does
// not check).
func setupPlayers(s *p2p.Setup) int {
	gen, err := s.Check()
	if err != nil {
		return 0
	}
	return gen.Players()
}

// Close closes the lobby unless the table started (the table's Close
// does then), and withdraws the advert.
func (h *HostLobby) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.advert != nil {
		h.advert.Close()
	}
	if h.started {
		return nil
	}
	return h.lobby.Close()
}
