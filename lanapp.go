//go:build !nogui

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/njetlan/njet/lan"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui"
)

// lanApp is the app's LAN (ui.LAN) over package lan: the device opens on
// first use, with its data in dir under the app's storage.
type lanApp struct {
	dir string
	mu  sync.Mutex
	dev *lan.Device
}

// device opens the device once.
func (l *lanApp) device() (*lan.Device, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dev != nil {
		return l.dev, nil
	}
	d, err := lan.OpenDevice(l.dir, nil)
	if err != nil {
		return nil, err
	}
	l.dev = d
	return d, nil
}

// Close closes the device if it was opened.
func (l *lanApp) Close() error {
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
	return ui.LANTableAd{ID: a.ID.String(), Name: a.Name, Edition: a.Edition, Players: a.Players, Free: a.Free, Host: a.Host}
}

func (l *lanApp) Watch(ctx context.Context, found func([]ui.LANTableAd)) error {
	return lan.WatchTables(ctx, func(list lan.TableList) {
		ads := make([]ui.LANTableAd, len(list.Tables))
		for i, a := range list.Tables {
			ads[i] = adOf(a)
		}
		found(ads)
	})
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
			news(ui.LobbyNews{Kind: ui.LobbyNotAdvertised, Err: p.Err})
		case lan.Waiting:
			news(ui.LobbyNews{Kind: ui.LobbyWaiting, Seated: p.Seated, Wanted: p.Wanted})
		case lan.Contacting:
			news(ui.LobbyNews{Kind: ui.LobbyContacting})
		case lan.Looking:
			news(ui.LobbyNews{Kind: ui.LobbyLooking})
		case lan.Found:
			news(ui.LobbyNews{Kind: ui.LobbyFound, Table: adOf(p.Ad)})
		}
	}
}

func (l *lanApp) Host(ctx context.Context, cfg ui.LANHostConfig, news func(ui.LobbyNews)) (ui.LANTable, error) {
	d, err := l.device()
	if err != nil {
		return nil, err
	}
	t, err := d.Host(ctx, lan.HostConfig{Name: cfg.Name, Edition: cfg.Edition, Players: cfg.Players, Bots: cfg.Bots,
		Short: cfg.Short, Target: cfg.Target, Player: cfg.Player}, lobbyNews(news))
	if err != nil {
		return nil, err
	}
	return &lanTable{dev: d, t: t}, nil
}

func (l *lanApp) Join(ctx context.Context, to ui.JoinTo, player string, news func(ui.LobbyNews)) (ui.LANTable, error) {
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

func (l *lanApp) CheckCode(code string) error {
	_, err := lan.CodeTarget(code)
	return err
}

func (l *lanApp) Resume() (ui.LANTable, error) {
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

func (t *lanTable) ExportLog(w io.Writer) error { return t.dev.Store().Export(w, t.t.ID()) }

func (t *lanTable) Play(ctx context.Context, person func(context.Context, seat.Seat) error, news func(ui.GameNews)) error {
	out, err := t.dev.Play(ctx, t.t, lan.PlayConfig{Person: func(ctx context.Context, ps lan.PersonSeat) error {
		s, err := ps.NewSeat()
		if err != nil {
			return err
		}
		err = person(ctx, s)
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
