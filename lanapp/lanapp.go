package lanapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/lan"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui"
)

// LAN is the app's LAN (ui.LAN) over package lan: the device opens on
// first use, with its data in Dir under the app's storage, listening on
// Listen (nil: every interface). Browsing and hosting hold the platform's
// multicast lock (Lock; nil where the system needs none) while they run.
type LAN struct {
	Dir    string
	Listen []string
	Lock   func() (release func(), err error)

	mu  sync.Mutex
	dev *lan.Device
}

var _ ui.LAN = (*LAN)(nil)

// lock takes the multicast lock, if the platform has one.
func (l *LAN) lock() (release func(), err error) {
	if l.Lock == nil {
		return func() {}, nil
	}
	return l.Lock()
}

// device opens the device once.
func (l *LAN) device() (*lan.Device, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dev != nil {
		return l.dev, nil
	}
	d, err := lan.OpenDevice(l.Dir, l.Listen)
	if err != nil {
		return nil, err
	}
	l.dev = d
	return d, nil
}

// Close closes the device if it was opened.
func (l *LAN) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dev == nil {
		return nil
	}
	err := l.dev.Close()
	l.dev = nil
	return err
}

func adOf(a lan.TableAd) ui.LANTableAd {
	ad := ui.LANTableAd{ID: a.ID.String(), Name: a.Name, Variant: a.Variant, Players: a.Players, Free: a.Free, Host: a.Host, Clock: a.Clock}
	if g, err := games.ByName(a.Game); err == nil {
		ad.Game = g.ID
	}
	return ad
}

func (l *LAN) Watch(ctx context.Context, found func([]ui.LANTableAd)) error {
	release, lockErr := l.lock()
	defer release()
	err := lan.WatchTables(ctx, func(list lan.TableList) {
		ads := make([]ui.LANTableAd, len(list.Tables))
		for i, a := range list.Tables {
			ads[i] = adOf(a)
		}
		found(ads)
	})
	err = noNetwork(err)
	if err != nil && lockErr != nil {
		// Without the lock the system may drop the answers: say both.
		return errors.Join(err, lockErr)
	}
	return err
}

// strengths maps the app's bot strengths to package lan's; each game
// names the bot kind of each (games.Game.Bots).
var strengths = []struct {
	ui  ui.BotStrength
	lan lan.Strength
}{{ui.BotEasy, lan.Easy}, {ui.BotNormal, lan.Normal}, {ui.BotStrong, lan.Strong}}

func (l *LAN) Strengths() []ui.BotStrength {
	var out []ui.BotStrength
	for _, s := range lan.Strengths() {
		for _, m := range strengths {
			if m.lan == s {
				out = append(out, m.ui)
			}
		}
	}
	return out
}

// uiStrength is the strength of a bot kind, 0 for a kind of no strength.
func uiStrength(kind string) ui.BotStrength {
	for _, s := range strengths {
		if s.lan == lan.StrengthOf(kind) {
			return s.ui
		}
	}
	return 0
}

// botKindsOf are the bot kinds of game g at the strengths.
func botKindsOf(g *games.Game, bots []ui.BotStrength) ([]string, error) {
	kinds := make([]string, 0, len(bots))
	for _, b := range bots {
		kind := ""
		for _, s := range strengths {
			if s.ui == b {
				kind = g.Bots[s.lan]
			}
		}
		if kind == "" {
			return nil, fmt.Errorf("njet: no bot of strength %d", b)
		}
		kinds = append(kinds, kind)
	}
	return kinds, nil
}

// lobbyNews turns lan's progress into the lobby's news.
func lobbyNews(news func(ui.LobbyNews)) func(lan.Progress) {
	return func(p lan.Progress) {
		switch p := p.(type) {
		case lan.Hosting:
			n := ui.LobbyNews{Kind: ui.LobbyHosting}
			for _, a := range p.Addrs {
				n.Addrs = append(n.Addrs, ui.LANAddr{Code: a.Code, Addr: a.Addr.String()})
			}
			news(n)
		case lan.NotAdvertised:
			news(ui.LobbyNews{Kind: ui.LobbyNotAdvertised, Err: noNetwork(p.Err)})
		case lan.Waiting:
			n := ui.LobbyNews{Kind: ui.LobbyWaiting, Seated: p.Seated, Wanted: p.Wanted, Players: p.Players, Hints: p.Hints}
			for _, k := range p.Bots {
				n.Bots = append(n.Bots, uiStrength(k))
			}
			news(n)
		case lan.Contacting:
			news(ui.LobbyNews{Kind: ui.LobbyContacting})
		case lan.Looking:
			news(ui.LobbyNews{Kind: ui.LobbyLooking})
		case lan.Found:
			news(ui.LobbyNews{Kind: ui.LobbyFound, Table: adOf(p.Ad)})
		}
	}
}

func (l *LAN) Host(ctx context.Context, cfg ui.LANHostConfig, news func(ui.LobbyNews)) (ui.LANTable, error) {
	d, err := l.device()
	if err != nil {
		return nil, err
	}
	g, err := games.ByID(cfg.Game)
	if err != nil {
		return nil, err
	}
	game, variant := g.Name, cfg.Variant
	kinds, err := botKindsOf(g, cfg.Bots)
	if err != nil {
		return nil, err
	}
	release, lockErr := l.lock()
	defer release()
	// OpenLobby tells Hosting before it returns the lobby the control
	// needs: its news wait until then.
	var opening []lan.Progress
	h, err := d.OpenLobby(lan.HostConfig{Name: cfg.Name, Game: game, Variant: variant, Players: cfg.Players, BotKinds: kinds,
		Short: cfg.Short, Target: cfg.Target, Clock: cfg.Clock, Player: cfg.Player, Hints: cfg.Hints}, func(p lan.Progress) { opening = append(opening, p) })
	if err != nil {
		return nil, err
	}
	c := &hostControl{h: h, started: make(chan *lan.Table, 1)}
	tell := lobbyNews(news)
	for _, p := range opening {
		if n, ok := p.(lan.NotAdvertised); ok && lockErr != nil {
			p = lan.NotAdvertised{Err: errors.Join(n.Err, lockErr)}
		}
		if hosting, ok := p.(lan.Hosting); ok {
			n := ui.LobbyNews{Kind: ui.LobbyHosting, Control: c}
			for _, a := range hosting.Addrs {
				n.Addrs = append(n.Addrs, ui.LANAddr{Code: a.Code, Addr: a.Addr.String()})
			}
			news(n)
			continue
		}
		tell(p)
	}
	wctx, stop := context.WithCancel(ctx)
	watched := make(chan error, 1)
	go func() { watched <- h.Watch(wctx, false, tell) }()
	select {
	case t := <-c.started:
		stop()
		<-watched
		return &lanTable{dev: d, t: t}, nil
	case <-ctx.Done():
		stop()
		<-watched
	case err = <-watched:
		stop()
		if err == nil { // the lobby started: its table is on the way
			select {
			case t := <-c.started:
				return &lanTable{dev: d, t: t}, nil
			case <-ctx.Done():
			}
		}
	}
	select {
	case t := <-c.started: // started as the wait ended: the store keeps it
		return nil, errors.Join(ctx.Err(), err, t.Close())
	default:
	}
	return nil, errors.Join(ctx.Err(), err, h.Close())
}

// hostControl is the host's ui.LobbyControl over a lan.HostLobby.
type hostControl struct {
	h       *lan.HostLobby
	started chan *lan.Table
}

func (c *hostControl) SetBots(bots []ui.BotStrength) error {
	g, err := games.ByName(c.h.Game())
	if err != nil {
		return err
	}
	kinds, err := botKindsOf(g, bots)
	if err != nil {
		return err
	}
	return c.h.SetBots(kinds)
}

func (c *hostControl) Start() error {
	t, err := c.h.Start()
	if err != nil {
		return err
	}
	c.started <- t
	return nil
}

func (l *LAN) Join(ctx context.Context, to ui.JoinTo, player string, news func(ui.LobbyNews)) (ui.LANTable, error) {
	d, err := l.device()
	if err != nil {
		return nil, err
	}
	var target lan.JoinTarget
	switch {
	case to.Code != "":
		target, err = lan.CodeTarget(to.Code)
	case to.Addr != "":
		target, err = lan.AddrTarget(to.Addr)
	default:
		target = lan.LANTarget(to.Table)
	}
	if err != nil {
		return nil, err
	}
	t, err := d.JoinAs(ctx, target, lan.JoinConfig{Player: player}, lobbyNews(news))
	if err != nil {
		return nil, err
	}
	return &lanTable{dev: d, t: t}, nil
}

func (l *LAN) CheckCode(code string) error {
	_, err := lan.CodeTarget(code)
	return err
}

func (l *LAN) Resume() (ui.LANTable, error) {
	d, err := l.device()
	if err != nil {
		return nil, err
	}
	t, err := d.Resume("")
	if err != nil || t == nil {
		return nil, err
	}
	return &lanTable{dev: d, t: t}, nil
}

// lanTable is a ui.LANTable over a lan.Table.
type lanTable struct {
	dev *lan.Device
	t   *lan.Table
}

func (t *lanTable) ID() string      { return t.t.ID().String() }
func (t *lanTable) Names() []string { return t.t.Names() }
func (t *lanTable) Close() error    { return t.t.Close() }

// Hints reports whether the host allowed hints at the table.
func (t *lanTable) Hints() bool { return t.t.Hints() }

// Again sits the device at the table that plays this one again.
func (t *lanTable) Again(ctx context.Context, news func(ui.LobbyNews)) (ui.LANTable, error) {
	nt, err := t.dev.Again(ctx, t.t, lobbyNews(news))
	if err != nil {
		return nil, err
	}
	return &lanTable{dev: t.dev, t: nt}, nil
}

func (t *lanTable) ExportLog(w io.Writer) error { return t.dev.Store().Export(w, t.t.ID()) }

func (t *lanTable) Reconnect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, reconnectTimeout)
	defer cancel()
	_, err := t.dev.Reconnect(ctx, t.t)
	return err
}

// reconnectTimeout bounds the app's dialling when it comes back; the
// table keeps redialling by itself afterwards.
const reconnectTimeout = 10 * time.Second

// Game is the game and variant of the table, as its genesis says.
func (t *lanTable) Game() (game, variant string) {
	gen, err := t.t.Setup().Check()
	if err != nil {
		return "", ""
	}
	g, v, err := games.Of(gen)
	if err != nil {
		return "", ""
	}
	return g.ID, v.ID
}

// PlayNjet plays a table of Njet!: the person plays their seat on the
// app's table screen through the seat's seat.Seat.
func (t *lanTable) PlayNjet(ctx context.Context, person func(context.Context, seat.Seat) error, news func(ui.GameNews)) error {
	return t.play(ctx, seatAs(func(ps lan.PersonSeat) (seat.Seat, error) { return ps.NjetSeat() }, person), news)
}

// PlayTheGame plays a table of The Game: the person plays their seat on
// The Game's table screen through the seat's seat.TheGameSeat.
func (t *lanTable) PlayTheGame(ctx context.Context, person func(context.Context, ui.TheGameSource) error, news func(ui.GameNews)) error {
	return t.play(ctx, seatAs(func(ps lan.PersonSeat) (ui.TheGameSource, error) { return ps.TheGameSeat() }, person), news)
}

// seatAs hands person the table's seat in the form its game's screen
// plays, as open makes it.
func seatAs[S any](open func(lan.PersonSeat) (S, error), person func(context.Context, S) error) lan.Person {
	return func(ctx context.Context, ps lan.PersonSeat) error {
		s, err := open(ps)
		if err != nil {
			return err
		}
		return person(ctx, s)
	}
}

// play plays the table, the person's seat by person whatever the game,
// and tells the screens the table's news; a person who leaves leaves the
// table (lan.ErrLeft), and a game that ended is marked over.
func (t *lanTable) play(ctx context.Context, person lan.Person, news func(ui.GameNews)) error {
	out, err := t.dev.Play(ctx, t.t, lan.PlayConfig{Person: func(ctx context.Context, ps lan.PersonSeat) error {
		err := person(ctx, ps)
		if errors.Is(err, seat.ErrLeft) {
			return fmt.Errorf("%w: %w", lan.ErrLeft, err)
		}
		return err
	}}, func(e lan.Event) {
		switch e := e.(type) {
		case lan.Playing:
			news(ui.GameNews{Kind: ui.NewsPlaying})
		case lan.Shuffling:
			news(ui.GameNews{Kind: ui.NewsShuffling})
		case lan.Violation:
			news(ui.GameNews{Kind: ui.NewsViolation, Err: e.Err})
		case lan.CatchingUp:
			news(ui.GameNews{Kind: ui.NewsCatchingUp})
		}
	})
	if err == nil && out.Over {
		err = t.dev.MarkOver(t.t.ID())
	}
	return err
}

var (
	_ ui.NjetLANTable    = (*lanTable)(nil)
	_ ui.TheGameLANTable = (*lanTable)(nil)
)

// noNetwork marks err as the app's ui.ErrNoNetwork when the device is on
// no network (lan.ErrNoNetwork), so that the screens say so in the
// person's words; any other err is returned as it is.
func noNetwork(err error) error {
	if errors.Is(err, lan.ErrNoNetwork) {
		return fmt.Errorf("%w: %w", ui.ErrNoNetwork, err)
	}
	return err
}
