package ui

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// trace tells Env.Trace, when set, that what happened at at.
func (a *App) trace(what string, at time.Time) {
	if a.env.Trace != nil {
		a.env.Trace(what, at)
	}
}

// SmokeLANHost hosts the table cfg describes by the same taps as a person:
// the home screen's "Host a table", the host form filled in, its button;
// the lobby's start button as soon as every seat is taken; then the game
// plays itself through the table screen's controls. done hears the table
// and how its Play ended, from Play's goroutine. cfg.Player is the
// person's name from the settings.
func (a *App) SmokeLANHost(cfg LANHostConfig, done func(LANTable, error)) error {
	if a.env.LAN == nil {
		return errNoLAN
	}
	a.smokeLAN = done
	home := NewHome(a)
	a.Reset(home)
	if home.LAN == nil {
		return errNoLAN
	}
	home.LAN.Host.OnTapped()
	f, ok := a.Top().(*HostForm)
	if !ok {
		return errors.New("ui: the host form did not open")
	}
	f.Name.SetText(cfg.Name)
	f.Edition.SetSelected(editionName(cfg.Edition))
	f.Players.SetSelected(strconv.Itoa(cfg.Players))
	f.Bots.SetSelected(strconv.Itoa(len(cfg.Bots)))
	f.Short.SetChecked(cfg.Short)
	if cfg.Target > 0 {
		f.Target.SetText(strconv.Itoa(cfg.Target))
	}
	f.Open.OnTapped()
	if f.Problem.Visible() {
		return fmt.Errorf("ui: the host form: %s", f.Problem.Text)
	}
	l, ok := a.Top().(*Lobby)
	if !ok {
		return errors.New("ui: the lobby did not open")
	}
	l.OnFull = func() {
		if !l.StartGame.Disabled() {
			l.StartGame.OnTapped()
		}
	}
	return nil
}

// SmokeLANJoin waits on the home screen until the LAN lists a table named
// name with a free seat, taps it, and plays the game by itself as
// SmokeLANHost does.
func (a *App) SmokeLANJoin(name string, done func(LANTable, error)) error {
	if a.env.LAN == nil {
		return errNoLAN
	}
	a.smokeLAN, a.smokeJoin = done, name
	a.Reset(NewHome(a))
	return nil
}
