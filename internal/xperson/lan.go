package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/njetlan/njet/ui"
	"github.com/njetlan/njet/ui/reach"
)

// playLAN hosts the table host, or joins the table join, and plays it
// until the game-over view shows; it returns the rounds played.
func (p *person) playLAN(host, join string, g game, w ui.SetUpWords) (int, error) {
	if err := p.waitFor("the home screen", func(s *reach.Screen) bool { return s.Name == "Home" }); err != nil {
		return 0, err
	}
	if err := p.locate(); err != nil {
		return 0, err
	}
	if host != "" {
		if err := p.host(host, g, w); err != nil {
			return 0, err
		}
	} else {
		listed := func(s *reach.Screen) bool { return len(s.Reachable(reach.Button(join))) > 0 }
		if err := p.waitFor("the table "+join+" listed", listed); err != nil {
			return 0, err
		}
		if err := p.tapText(join); err != nil {
			return 0, err
		}
	}
	policy := &reach.Njet{Words: w.Table, Rand: rand.New(rand.NewPCG(g.seed, 2))}
	for waits := 0; ; {
		s, err := p.settle()
		if err != nil {
			return 0, err
		}
		if len(s.Reachable(reach.Button(w.Table.Done))) > 0 {
			// The game is over; the app writes the log and quits once
			// the table's play ends, for the others too.
			p.snap("lan-gameover")
			return policy.Rounds, nil
		}
		step, err := policy.Next(s)
		if err != nil {
			return 0, err
		}
		if step.Kind != reach.Tap {
			// A LAN table waits on other devices: a while, not forever.
			// The screen meanwhile, now and then.
			if waits++; waits%10 == 0 && waits <= 300 {
				p.snap(fmt.Sprintf("lan-wait-%d", waits/10))
			}
			if err := p.probe.change(3*time.Minute, p.deadline); err != nil {
				return 0, fmt.Errorf("waiting for %s: %w", step.Want, err)
			}
			continue
		}
		if step.Want == "a card of the hand" && policy.Rounds == 1 {
			p.snap("lan-round2-hand")
		}
		if err := p.tap(step.Want, step.Tap); err != nil {
			return 0, err
		}
	}
}

// host fills the host form in for a table of g named name, without bots,
// opens it and starts the game once the lobby's seats are full.
func (p *person) host(name string, g game, w ui.SetUpWords) error {
	l := w.LAN
	if err := p.tapText(l.Host); err != nil {
		return err
	}
	if err := p.fill("the table's name", p.fieldOf(l.Name, "entry"), name); err != nil {
		return err
	}
	if err := p.tapText(w.Edition[g.edition]); err != nil {
		return err
	}
	if err := p.choose(l.Players, strconv.Itoa(g.players)); err != nil {
		return err
	}
	if err := p.choose(l.Bots, "0"); err != nil {
		return err
	}
	if g.short {
		s, err := p.settle()
		if err != nil {
			return err
		}
		if cs := s.Find(reach.Button(l.Short)); len(cs) == 0 || !cs[0].On {
			if err := p.tapText(l.Short); err != nil {
				return err
			}
		}
	}
	p.snap("lan-host")
	if err := p.tapText(l.Open); err != nil {
		return err
	}
	start := func(s *reach.Screen) bool { return len(s.Reachable(reach.Button(l.Start))) > 0 }
	if err := p.waitFor("the lobby's start", start); err != nil {
		return err
	}
	p.snap("lan-lobby")
	return p.tapText(l.Start)
}

// choose picks option in the select of the label: the select, then
// the option in its menu.
func (p *person) choose(label, option string) error {
	s, err := p.settle()
	if err != nil {
		return err
	}
	if cs := s.Find(p.fieldOf(label, "select")); len(cs) > 0 && cs[0].Text == option {
		return nil // chosen already
	}
	if err := p.tapFound("the choice of "+label, p.fieldOf(label, "select")); err != nil {
		return err
	}
	return p.tapText(option)
}

// fieldOf matches the controls of kind that a form shows for label: on
// the label's line (the form side by side) or right under it (the form
// one under the other, on a narrow screen).
func (p *person) fieldOf(label, kind string) func(reach.Control) bool {
	return func(c reach.Control) bool {
		if c.Kind != kind || p.screen == nil {
			return false
		}
		for _, t := range p.screen.Texts {
			if t.Text != label {
				continue
			}
			y := t.Rect.Y + t.Rect.H/2
			beside := y >= c.Rect.Y && y <= c.Rect.Y+c.Rect.H
			gap := c.Rect.Y - (t.Rect.Y + t.Rect.H)
			under := gap >= -t.Rect.H/2 && gap <= t.Rect.H &&
				c.Rect.X < t.Rect.X+t.Rect.W && t.Rect.X < c.Rect.X+c.Rect.W
			if beside || under {
				return true
			}
		}
		return false
	}
}
