package main

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui"
	"github.com/njetlan/njet/ui/reach"
)

// playTheGame sets a game of The Game up from the home screen (the
// players, Extreme or not), plays it through with the widget tests'
// policy and goes home; it returns the cards left that the game-over view
// showed and the player.
func (p *person) playTheGame(players int, extreme bool, w ui.TheGameSetUpWords) (int, *reach.TheGame, error) {
	if err := p.waitFor("the home screen", func(s *reach.Screen) bool { return s.Name == "Home" }); err != nil {
		return 0, nil, err
	}
	if err := p.locate(); err != nil {
		return 0, nil, err
	}
	p.snap("home")
	if err := p.tapText(w.Play); err != nil {
		return 0, nil, err
	}
	if err := p.tapText(strconv.Itoa(players)); err != nil {
		return 0, nil, err
	}
	s, err := p.settle()
	if err != nil {
		return 0, nil, err
	}
	checks := s.Reachable(reach.Button(w.Extreme))
	if len(checks) == 0 {
		return 0, nil, fmt.Errorf("wants the check %q: nothing reachable like it on %s", w.Extreme, s.Name)
	}
	if checks[0].On != extreme {
		if err := p.tap("the Extreme check", checks[0]); err != nil {
			return 0, nil, err
		}
	}
	p.snap("setup")
	if err := p.tapText(w.Deal); err != nil {
		return 0, nil, err
	}
	policy := &reach.TheGame{Words: w.Table}
	left := -1
	for {
		s, err := p.settle()
		if err != nil {
			return 0, nil, err
		}
		if left < 0 && len(s.Reachable(reach.Button(w.Table.Done))) > 0 {
			p.snap("gameover")
			if left, err = readLeft(s, w.Left); err != nil {
				return 0, nil, err
			}
		}
		step, err := policy.Next(s)
		if err != nil {
			return 0, nil, err
		}
		switch step.Kind {
		case reach.Done:
			if s.Name != "Home" {
				return 0, nil, fmt.Errorf("after the game the app shows %s, not home", s.Name)
			}
			if left < 0 {
				return 0, nil, errors.New("the game ended without a game-over view")
			}
			return left, policy, nil
		case reach.Wait:
			if err := p.probe.change(time.Minute, p.deadline); err != nil {
				return 0, nil, fmt.Errorf("waiting for %s: %w", step.Want, err)
			}
			continue
		}
		switch {
		case step.Tap.Kind == "pile" && policy.Turns == 1:
			p.snap("table")
		case step.Tap.Text == w.Table.Yes || step.Tap.Text == w.Table.No:
			p.snap("warning")
		}
		if err := p.tap(step.Want, step.Tap); err != nil {
			return 0, nil, err
		}
	}
}

// readLeft reads the cards left off the game-over view: the line that
// says so for some number of cards.
func readLeft(s *reach.Screen, say func(n int) string) (int, error) {
	lines := s.Lines("")
	for n := range thegame.DeckSize + 1 {
		want := say(n)
		for _, l := range lines {
			if l == want {
				return n, nil
			}
		}
	}
	return 0, fmt.Errorf("the game-over view shows no line of the cards left: %q", lines)
}

// playTheGameLAN waits until home lists the LAN table of The Game join,
// takes a seat at it and plays with the widget tests' policy until the
// game-over view shows; it returns the cards left that it showed and the
// player. The app, in its probe mode with --lan-log, writes the log and
// quits once the table's play ends.
func (p *person) playTheGameLAN(join string, w ui.TheGameSetUpWords) (int, *reach.TheGame, error) {
	if err := p.waitFor("the home screen", func(s *reach.Screen) bool { return s.Name == "Home" }); err != nil {
		return 0, nil, err
	}
	if err := p.locate(); err != nil {
		return 0, nil, err
	}
	listed := func(s *reach.Screen) bool { return len(s.Reachable(reach.Button(join))) > 0 }
	if err := p.waitFor("the table "+join+" listed", listed); err != nil {
		return 0, nil, err
	}
	if err := p.tapText(join); err != nil {
		return 0, nil, err
	}
	policy := &reach.TheGame{Words: w.Table}
	for waits := 0; ; {
		s, err := p.settle()
		if err != nil {
			return 0, nil, err
		}
		if len(s.Reachable(reach.Button(w.Table.Done))) > 0 {
			p.snap("lan-gameover")
			left, err := readLeft(s, w.Left)
			return left, policy, err
		}
		step, err := policy.Next(s)
		if err != nil {
			return 0, nil, err
		}
		if step.Kind != reach.Tap {
			// A LAN table waits on other devices: a while, not forever.
			// The screen meanwhile, now and then.
			if waits++; waits%10 == 0 && waits <= 300 {
				p.snap(fmt.Sprintf("lan-wait-%d", waits/10))
			}
			if err := p.probe.change(3*time.Minute, p.deadline); err != nil {
				return 0, nil, fmt.Errorf("waiting for %s: %w", step.Want, err)
			}
			continue
		}
		if step.Tap.Kind == "pile" {
			// The table now and then, for a person to look at.
			p.snap(fmt.Sprintf("lan-table-%d", policy.Laid/10))
		}
		if err := p.tap(step.Want, step.Tap); err != nil {
			return 0, nil, err
		}
	}
}
