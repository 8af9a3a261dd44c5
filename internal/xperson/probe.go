package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/njetlan/njet/ui/reach"
)

// probe follows the lines the app's probe appends to its file.
type probe struct {
	f       *os.File
	r       *bufio.Reader
	partial []byte
	last    *reach.Screen
	seen    int       // lines read
	at      time.Time // when the last line was read
}

// openProbe opens the probe's file once the app has made it.
func openProbe(name string, deadline time.Time) (*probe, error) {
	for {
		f, err := os.Open(name)
		if err == nil {
			return &probe{f: f, r: bufio.NewReaderSize(f, 1<<20)}, nil
		}
		if time.Now().After(deadline) || !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("the probe: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// poll reads the lines written since the last poll.
func (p *probe) poll() error {
	for {
		b, err := p.r.ReadBytes('\n')
		p.partial = append(p.partial, b...)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("the probe: %w", err)
		}
		line := bytes.TrimSpace(p.partial)
		p.partial = p.partial[:0]
		s, err := reach.ReadScreen(line)
		if err != nil {
			return err
		}
		p.last, p.seen, p.at = s, p.seen+1, time.Now()
	}
}

// still waits for a screen and then until no new one has come for quiet.
func (p *probe) still(quiet time.Duration, deadline time.Time) (*reach.Screen, error) {
	for {
		if err := p.poll(); err != nil {
			return nil, err
		}
		if p.last != nil && time.Since(p.at) >= quiet {
			return p.last, nil
		}
		if time.Now().After(deadline) {
			return nil, errors.New("out of time")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// change waits for a screen other than the last one.
func (p *probe) change(limit time.Duration, deadline time.Time) error {
	return p.changeSince(p.seen, limit, deadline)
}

// changeSince waits until more than n screens have been read.
func (p *probe) changeSince(n int, limit time.Duration, deadline time.Time) error {
	end := time.Now().Add(limit)
	for {
		if err := p.poll(); err != nil {
			return err
		}
		if p.seen > n {
			return nil
		}
		if time.Now().After(end) || time.Now().After(deadline) {
			return fmt.Errorf("the screen did not change for %v", limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
