package lan

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// dialTimeout bounds reaching a host whose peer id is not known yet.
const dialTimeout = 15 * time.Second

// TableAd is a table as advertised on the LAN.
type TableAd = p2p.TableAd

// Table is a table this device sits at, ready to Play: its setup and the
// seats the device plays, its own first, then the bots it hosts. A hosted
// table also keeps its lobby open, so that a member that lost its
// connection gets the setup again, until Close.
type Table struct {
	setup *p2p.Setup
	seats []p2p.LocalSeat
	lobby *p2p.Lobby
}

// ID returns the table's id.
func (t *Table) ID() tablelog.TableID { return t.setup.Table() }

// Lobby returns the id people see for the table: the one it was
// advertised and joined under, which its genesis keeps (its Nonce). The
// table id proper (ID), a hash of the genesis, is for the software.
func (t *Table) Lobby() p2p.LobbyID {
	gen, err := t.setup.Check()
	if err != nil {
		return p2p.LobbyID{}
	}
	return p2p.LobbyID(gen.Nonce)
}

// Setup returns the table's setup: its genesis and member devices.
func (t *Table) Setup() *p2p.Setup { return t.setup }

// Seat returns the device's own seat.
func (t *Table) Seat() int { return t.seats[0].Seat }

// Names returns the players' names by seat, as the genesis fixes them
// ("" for a seat without one).
func (t *Table) Names() []string {
	gen, err := t.setup.Check()
	if err != nil {
		return nil
	}
	names := make([]string, gen.Players())
	for s := range names {
		names[s] = gen.Name(s)
	}
	return names
}

// Bot returns the kind of the bot that plays the device's own seat, or ""
// when a person plays it.
func (t *Table) Bot() string {
	if t.seats[0].Human {
		return ""
	}
	return t.seats[0].Bot
}

// Close closes a hosted table's lobby; it does nothing for other tables.
func (t *Table) Close() error {
	if t.lobby == nil {
		return nil
	}
	return t.lobby.Close()
}

// ownSeat is the device's own seat played by a person (bot "") or by a bot
// of kind bot. A person's seat keeps a bot kind for any bot the table
// seats with this device as host.
func ownSeat(seat int, key ed25519.PrivateKey, bot string) p2p.LocalSeat {
	if bot == "" {
		return p2p.LocalSeat{Seat: seat, Key: key, Bot: "heuristic", Human: true}
	}
	return p2p.LocalSeat{Seat: seat, Key: key, Bot: strings.ToLower(bot)}
}

// Resume returns the unfinished table in the store that the device sits
// at, or nil when there is none. bot says who plays the device's own seat
// this time: a bot of that kind, or a person when it is "" (the seat then
// keeps its stored bot kind).
func (d *Device) Resume(bot string) (*Table, error) {
	setup, seats, err := p2p.LoadTable(d.store, d.node.Key())
	if err != nil || setup == nil {
		return nil, err
	}
	own := ownSeat(seats[0].Seat, seats[0].Key, bot)
	if own.Human {
		own.Bot = seats[0].Bot
	}
	seats[0] = own
	return &Table{setup: setup, seats: seats}, nil
}

// Progress is what Host and Join report on their way to a table: one of
// NotAdvertised, Hosting, Waiting, Contacting, Looking and Found.
type Progress interface{ progress() }

// NotAdvertised: the hosted table is not advertised on the LAN, for Err;
// players can still join by join code or address.
type NotAdvertised struct{ Err error }

// Hosting: the lobby is open, and players reach it at Addrs.
type Hosting struct {
	ID   p2p.LobbyID
	Name string
	// Game and Variant are the game and its variant (games.Variant.ID).
	Game    table.GameName
	Variant string
	Players int
	Bots    int
	// Clock is the table's clock in seconds per move, 0 when it has none.
	Clock int
	Addrs []JoinAddr
}

// Waiting: Seated of the Wanted players have a seat. Players are their
// names in seat order, the host's first ("" for a player without a name),
// and Bots the kinds of the bots that take the seats after theirs ("" for
// a kind the host did not say). From a host that tells only counts,
// Players holds Seated empty names.
type Waiting struct {
	Seated, Wanted int
	Players        []string
	Bots           []string
	// Hints tells that the host allows hints at the table.
	Hints bool
}

// Contacting: Join dials the host at Addr.
type Contacting struct{ Addr multiaddr.Multiaddr }

// Looking: Join browses the LAN for a table.
type Looking struct{}

// Found: Join found Ad on the LAN and claims a seat there.
type Found struct{ Ad TableAd }

func (NotAdvertised) progress() {}
func (Hosting) progress()       {}
func (Waiting) progress()       {}
func (Contacting) progress()    {}
func (Looking) progress()       {}
func (Found) progress()         {}

// HostConfig describes the table Host offers.
type HostConfig struct {
	Name string
	// Game is the game the table plays (table.GameNjet if zero) and
	// Variant its variant (games.Variant.ID: Njet's edition, The Game's
	// base or Extreme; "" for the default).
	Game    table.GameName
	Variant string
	Players int
	// Bots is the number of seats this device fills with bots; the others
	// wait for players.
	Bots int
	// BotKinds, when not nil, are the kinds of the bots instead (Bots is
	// then its length); nil gives the Bots the game's normal bot.
	BotKinds []string
	// Short, Target and Rounds set a Njet game's length (p2p.LobbyConfig).
	Short  bool
	Target int
	Rounds int
	// Clock is the table's clock (p2p.LobbyConfig.Clock), in seconds; 0
	// has none.
	Clock int
	// Wait bounds the wait for players (0: until ctx ends).
	Wait time.Duration
	// Bot is the kind of the bot that plays the device's own seat, seat
	// 0; "" lets a person play it.
	Bot string
	// Player is the host's player name (table.CheckName), advertised with
	// the table and fixed in its genesis; "" for none.
	Player string
	// Hints allows hints at the table (table.Genesis.Hints): a person's
	// front end may then show the strong bot's move for their seat.
	Hints bool
}

// Host opens a lobby for the table cfg describes, advertises it on the
// LAN, waits for players, then starts the table (the device in seat 0,
// the joiners, then the bots) and records it in the store. progress, when
// not nil, hears how it goes, from Host's goroutine. The returned table's
// lobby stays open until its Close. OpenLobby lets the host change the
// bots and say when to start.
func (d *Device) Host(ctx context.Context, cfg HostConfig, progress func(Progress)) (_ *Table, err error) {
	h, err := d.OpenLobby(cfg, progress)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			h.Close()
		}
	}()
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if cfg.Wait > 0 {
		wctx, cancel = context.WithTimeout(ctx, cfg.Wait)
	}
	err = h.Watch(wctx, true, progress)
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, fmt.Errorf("%w: the free seats were not taken within %v", ErrNotFilled, cfg.Wait)
		}
		return nil, fmt.Errorf("%w: %w", ErrNotFilled, err)
	}
	return h.Start()
}

// JoinTarget says where Join finds the table: on the LAN (LANTarget, the
// zero JoinTarget: the first table with a free seat), or at its host's
// address (AddrTarget) or join code (CodeTarget), which need no multicast.
type JoinTarget struct {
	addr   multiaddr.Multiaddr
	host   peer.ID // "" when the address does not name it
	coded  bool    // the host's key must match prefix
	prefix [5]byte
	table  string // prefix of the table id, on the LAN
}

// LANTarget is the first table on the LAN with a free seat whose id starts
// with prefix ("": any).
func LANTarget(prefix string) JoinTarget { return JoinTarget{table: prefix} }

// AddrTarget is the host at addr: host:port, or a multiaddr (with /p2p or
// without).
func AddrTarget(addr string) (JoinTarget, error) {
	a, id, err := p2p.ParseAddr(addr)
	if err != nil {
		return JoinTarget{}, err
	}
	return JoinTarget{addr: a, host: id}, nil
}

// CodeTarget is the host whose join code is code.
func CodeTarget(code string) (JoinTarget, error) {
	a, prefix, err := p2p.ParseJoinCode(code)
	if err != nil {
		return JoinTarget{}, err
	}
	return JoinTarget{addr: a, coded: true, prefix: prefix}, nil
}

// Join finds the table target says, claims a seat, waits for the table to
// start and records it in the store. bot is the kind of the bot that plays
// the device's seat; "" lets a person play it. ctx bounds the whole wait;
// progress, when not nil, hears how it goes, from Join's goroutine. The
// seat has no player name; JoinAs gives one.
func (d *Device) Join(ctx context.Context, target JoinTarget, bot string, progress func(Progress)) (*Table, error) {
	return d.JoinAs(ctx, target, JoinConfig{Bot: bot}, progress)
}

// JoinConfig says who takes the seat Join claims.
type JoinConfig struct {
	// Bot is the kind of the bot that plays the device's seat; "" lets a
	// person play it.
	Bot string
	// Player is the player's name (table.CheckName), which travels with
	// the claim and is fixed in the table's genesis; "" for none.
	Player string
	// Find, when positive, bounds finding the table and getting a seat at
	// it. Once seated, the device waits for the host to start, however
	// long the host takes, until ctx ends or the host closes the table.
	Find time.Duration
}

// ErrNoSeat is wrapped by JoinAs when no seat was had within
// JoinConfig.Find.
var ErrNoSeat = errors.New("no seat at the table")

// JoinAs is Join for the player cfg names.
func (d *Device) JoinAs(ctx context.Context, target JoinTarget, cfg JoinConfig, progress func(Progress)) (*Table, error) {
	if _, err := table.CheckName(cfg.Player); err != nil {
		return nil, err
	}
	bot := cfg.Bot
	if progress == nil {
		progress = func(Progress) {}
	}
	// Until a seat is had, the search is bounded by cfg.Find; after that
	// only ctx bounds the wait for the start.
	seatedCtx, stopSeated := context.WithCancelCause(ctx)
	defer stopSeated(nil)
	var seated atomic.Bool
	if cfg.Find > 0 {
		t := time.AfterFunc(cfg.Find, func() {
			if !seated.Load() {
				stopSeated(errFindTime)
			}
		})
		defer t.Stop()
	}
	ctx = seatedCtx
	var info peer.AddrInfo
	var lobbyID p2p.LobbyID
	switch {
	case target.addr != nil && target.host != "":
		info = peer.AddrInfo{ID: target.host, Addrs: []multiaddr.Multiaddr{target.addr}}
	case target.addr != nil:
		progress(Contacting{Addr: target.addr})
		var accept func(peer.ID) bool
		if target.coded {
			accept = func(pid peer.ID) bool { return p2p.MatchesPrefix(pid, target.prefix) }
		}
		dctx, cancel := context.WithTimeout(ctx, dialTimeout)
		hostID, err := d.node.DialUnknown(dctx, target.addr, accept)
		cancel()
		if err != nil {
			return nil, late(ctx, ErrUnreachable, cfg.Find, err)
		}
		info = peer.AddrInfo{ID: hostID, Addrs: []multiaddr.Multiaddr{target.addr}}
	default:
		progress(Looking{})
		ad, err := FindTable(ctx, target.table)
		if err != nil {
			return nil, late(ctx, ErrNotFound, cfg.Find, err)
		}
		progress(Found{Ad: ad})
		info, lobbyID = ad.AddrInfo(), ad.ID
	}
	setup, seat, err := d.node.JoinLobby(ctx, info, lobbyID, cfg.Player, func(s p2p.LobbySeats) {
		seated.Store(true)
		progress(waitingOf(s))
	})
	if err != nil {
		if errors.Is(context.Cause(ctx), errFindTime) {
			return nil, fmt.Errorf("%w within %v", ErrNoSeat, cfg.Find)
		}
		return nil, err
	}
	seats := []p2p.LocalSeat{ownSeat(seat, d.node.Key(), bot)}
	if err := p2p.SaveTable(d.store, setup, seats); err != nil {
		return nil, err
	}
	return &Table{setup: setup, seats: seats}, nil
}

// browseFunc is p2p.Browse, or a test's stand-in.
type browseFunc func(ctx context.Context, found func([]p2p.TableAd)) error

// FindTable browses the LAN until a table with a free seat whose id starts
// with prefix (any case; "": any table) appears, or ctx ends (its error).
func FindTable(ctx context.Context, prefix string) (TableAd, error) {
	return findTable(ctx, prefix, p2p.Browse)
}

func findTable(ctx context.Context, prefix string, browse browseFunc) (TableAd, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var found *p2p.TableAd
	err := browse(ctx, func(list []p2p.TableAd) {
		for _, ad := range list {
			if found == nil && ad.Free > 0 && strings.HasPrefix(ad.ID.String(), strings.ToLower(prefix)) {
				found = &ad
				cancel()
			}
		}
	})
	if found != nil {
		return *found, nil
	}
	return p2p.TableAd{}, err
}

// TableList is what WatchTables reports: the tables on the LAN, sorted
// by name, and how they changed since the last report.
type TableList struct {
	Tables   []TableAd
	Appeared []TableAd // in Tables, and not in the last report
	Vanished []p2p.LobbyID
}

// WatchTables lists the tables advertised on the LAN until ctx ends, when
// it returns nil: found is called, from WatchTables' goroutine, at once
// and whenever a table appears, changes or vanishes.
func WatchTables(ctx context.Context, found func(TableList)) error {
	return watchTables(ctx, found, p2p.Browse)
}

func watchTables(ctx context.Context, found func(TableList), browse browseFunc) error {
	shown := map[p2p.LobbyID]bool{}
	err := browse(ctx, func(list []p2p.TableAd) {
		l := TableList{Tables: list}
		now := map[p2p.LobbyID]bool{}
		for _, ad := range list {
			now[ad.ID] = true
			if !shown[ad.ID] {
				l.Appeared = append(l.Appeared, ad)
			}
		}
		for id := range shown {
			if !now[id] {
				l.Vanished = append(l.Vanished, id)
			}
		}
		shown = now
		found(l)
	})
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// errFindTime ends a Join's search when JoinConfig.Find has passed.
var errFindTime = errors.New("lan: the time to find the table is up")

// late wraps err in sentinel, saying "within FIND" instead of a bare
// "context canceled" when the time to find the table ran out.
func late(ctx context.Context, sentinel error, find time.Duration, err error) error {
	if errors.Is(context.Cause(ctx), errFindTime) {
		return fmt.Errorf("%w within %v", sentinel, find)
	}
	return fmt.Errorf("%w: %w", sentinel, err)
}
