package lan

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// Playing a table again: once a game is over, every device that wants to
// play again calls Again. The host opens a lobby kept for the table's
// devices (p2p.LobbyConfig.Seats) under an id every member can work out
// from the old table's (AgainID), with the same game, variant, length,
// hints, clock, names and bots; each other device claims its seat there with its
// name, so the people sit where they sat. The new table starts once every
// person's device has claimed: a fresh genesis (new nonce, first dealer
// and bot keys), so a fresh deal. A device that does not call Again is
// not forced: the others wait in the lobby, seeing who is seated, and
// leave by ending their context (the host's Close of the lobby refuses
// the waiting joiners).

// AgainID returns the lobby id of the table that plays table id again.
// It is a hash of the old table's id, so that every member knows it
// without a message.
func AgainID(id tablelog.TableID) p2p.LobbyID {
	h := sha256.Sum256(append([]byte("njet play again/1\x00"), id[:]...))
	var l p2p.LobbyID
	copy(l[:], h[:])
	return l
}

// againRetry is how often a joiner asks the host's lobby again while it
// is not open yet.
const againRetry = 500 * time.Millisecond

// Again sits this device at the table that plays t again, and returns it
// once it starts, ready to Play. The host (seat 0's device) opens its
// lobby, reporting Waiting as the others sit down; another device claims
// its old seat there, trying again until the host has opened it. ctx
// bounds the wait: a device that no longer wants to wait ends it. The
// host calls it only after its own game is over, so that it no longer
// serves the old table's lobby.
func (d *Device) Again(ctx context.Context, t *Table, progress func(Progress)) (*Table, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	gen, err := t.setup.Check()
	if err != nil {
		return nil, err
	}
	host := t.setup.Devices[0].ID
	if host == d.node.Identity() {
		return d.hostAgain(ctx, t, gen, progress)
	}
	pid, err := p2p.PeerIDOf(host)
	if err != nil {
		return nil, err
	}
	info := peer.AddrInfo{ID: pid, Addrs: t.setup.Devices[0].Addrs}
	seat := t.Seat()
	for {
		setup, got, err := d.node.JoinLobby(ctx, info, AgainID(t.ID()), gen.Name(seat), func(s p2p.LobbySeats) {
			progress(waitingOf(s))
		})
		if err == nil {
			seats := []p2p.LocalSeat{ownSeat(got, d.node.Key(), t.Bot())}
			if err := p2p.SaveTable(d.store, setup, seats); err != nil {
				return nil, err
			}
			return &Table{setup: setup, seats: seats}, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotFilled, ctx.Err())
		}
		// Refused (the host's lobby is not open yet, or it closed) or
		// not reached: try again until ctx ends.
		if !errors.Is(err, p2p.ErrRefused) && !errors.Is(err, tablelog.ErrUnreachable) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrNotFilled, ctx.Err())
		case <-time.After(againRetry):
		}
	}
}

// hostAgain opens the lobby of the table that plays t again and starts
// it once every person's device has claimed its seat.
func (d *Device) hostAgain(ctx context.Context, t *Table, gen *table.Genesis, progress func(Progress)) (*Table, error) {
	g, v, err := games.Of(gen)
	if err != nil {
		return nil, err
	}
	if err := t.Close(); err != nil {
		return nil, err
	}
	// The people's devices by seat after the host's; every other seat was
	// a bot this device hosted, and is a bot of the same kind again.
	people := map[tablelog.Identity]bool{}
	for _, dv := range t.setup.Devices[1:] {
		people[dv.ID] = true
	}
	var kept []tablelog.Identity
	for s := 1; s < gen.Players(); s++ {
		if people[gen.Keys[s]] {
			kept = append(kept, gen.Keys[s])
		}
	}
	var kinds []string
	for _, ls := range t.seats[1:] {
		kinds = append(kinds, ls.Bot)
	}
	if 1+len(kept)+len(kinds) != gen.Players() {
		return nil, fmt.Errorf("lan: the table's seats cannot be kept: %d people and %d bots at %d seats", 1+len(kept), len(kinds), gen.Players())
	}
	lobby, err := d.node.OpenLobby(p2p.LobbyConfig{ID: AgainID(t.ID()), Game: g.Name, Variant: v.ID, Players: gen.Players(),
		Bots: len(kinds), Short: gen.Short, Target: gen.Target, Rounds: gen.Rounds, Clock: gen.Clock, Player: gen.Name(0), Hints: gen.Hints, Seats: kept})
	if err != nil {
		return nil, err
	}
	if err := lobby.SetBots(kinds); err != nil {
		return nil, errors.Join(err, lobby.Close())
	}
	h := &HostLobby{d: d, cfg: HostConfig{Game: g.Name, Variant: v.ID, Players: gen.Players(), Bots: len(kinds), BotKinds: kinds,
		Short: gen.Short, Target: gen.Target, Rounds: gen.Rounds, Clock: gen.Clock, Bot: t.Bot(), Player: gen.Name(0), Hints: gen.Hints}, lobby: lobby}
	if err := h.Watch(ctx, true, progress); err != nil {
		return nil, errors.Join(fmt.Errorf("%w: %w", ErrNotFilled, err), h.Close())
	}
	return h.Start()
}

// Hints reports whether the host allowed hints at the table.
func (t *Table) Hints() bool {
	gen, err := t.setup.Check()
	return err == nil && gen.Hints
}

// Again follows the table that plays the watched one again, once its game
// is over: it asks the member devices, in turn, for the table they play
// until one answers with the table whose lobby is AgainID of this one,
// created by the same host, and returns its watcher (Run follows it). ctx
// bounds the wait; the table may never be played again.
func (w *Watcher) Again(ctx context.Context) (*Watcher, error) {
	if !w.game.Over() {
		return nil, fmt.Errorf("lan: the watched game is not over")
	}
	want := AgainID(w.id)
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	for {
		m := w.member()
		setup, envs, err := w.node.Watch(ctx, m.ID, tablelog.TableID{}, 0, tablelog.MaxRange)
		if err == nil {
			gen, cerr := setup.Check()
			if cerr == nil && p2p.LobbyID(gen.Nonce) == want && setup.Devices[0].ID == w.setup.Devices[0].ID {
				return newWatcher(w.dev, setup, m, envs, w.now)
			}
		} else if ctx.Err() == nil {
			w.nextMember()
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrNotFilled, ctx.Err())
		case <-tick.C:
		}
	}
}
