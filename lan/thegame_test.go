package lan

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// TestTheGameThreeDevices hosts a table of The Game Extreme and joins two
// more devices by address, on loopback; bots play every seat (the joiners
// ask for a Njet bot and for a person's seat, and coop plays both). Every
// device ends
// with the same log, and Verify accepts it with the result the devices
// found.
func TestTheGameThreeDevices(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var devices []*Device
	for range 3 {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		devices = append(devices, d)
	}
	target, err := AddrTarget(devices[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	hosted := make(chan *Table, 1)
	var hosting Hosting
	go func() {
		tbl, err := devices[0].Host(ctx, HostConfig{Name: "G", Game: table.GameTheGame, Variant: "extreme", Players: 3,
			Bot: "coop"}, func(p Progress) {
			if h, ok := p.(Hosting); ok {
				hosting = h
			}
		})
		if err != nil {
			t.Error(err)
		}
		hosted <- tbl
	}()
	tables := make([]*Table, 3)
	var wg sync.WaitGroup
	for i := 1; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tables[i] == nil && ctx.Err() == nil {
				// Device 1 asks for the Njet random bot, which plays as
				// The Game's greedy one; device 2 for a person's seat,
				// which coop plays without a front end.
				kind := "random"
				if i == 2 {
					kind = ""
				}
				tbl, err := devices[i].Join(ctx, target, kind, nil)
				// The host's lobby may not be open yet.
				if errors.Is(err, p2p.ErrRefused) || errors.Is(err, tablelog.ErrUnreachable) {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				tables[i] = tbl
			}
		}()
	}
	wg.Wait()
	tables[0] = <-hosted
	for i, tbl := range tables {
		if tbl == nil {
			t.Fatalf("device %d has no table", i)
		}
		defer tbl.Close()
	}
	if hosting.Game != table.GameTheGame || hosting.Variant != "extreme" || hosting.Players != 3 {
		t.Errorf("hosting %+v", hosting)
	}
	outs := make([]Outcome, 3)
	errs := make([]error, 3)
	for i := range devices {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = devices[i].Play(ctx, tables[i], PlayConfig{Linger: 10 * time.Second}, func(e Event) {
				want := "coop"
				if i == 1 {
					want = "greedy"
				}
				if p, ok := e.(Playing); ok && p.Bot != want {
					t.Errorf("device %d: seat %d played by %q, want %q", i, p.Seat, p.Bot, want)
				}
			})
		}()
	}
	wg.Wait()
	var logs [][]byte
	for i, d := range devices {
		if errs[i] != nil || !outs[i].Over || outs[i].TheGame == nil {
			t.Fatalf("device %d: %+v, %v", i, outs[i], errs[i])
		}
		path := filepath.Join(t.TempDir(), "g.njetlog")
		if err := d.Export(tables[i].ID(), path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, b)
	}
	for i := 1; i < 3; i++ {
		if !bytes.Equal(logs[i], logs[0]) || outs[i].Head != outs[0].Head {
			t.Fatalf("device %d's log differs from the host's", i)
		}
	}
	v, err := table.Verify(bytes.NewReader(logs[0]))
	if err != nil || v.TheGame == nil || *v.TheGame != *outs[0].TheGame {
		t.Fatalf("Verify: %v, %+v; the devices found %+v", err, v.TheGame, outs[0].TheGame)
	}
	t.Logf("%d envelopes, %d cards left", v.Envelopes, v.TheGame.Result.CardsLeft)
}
