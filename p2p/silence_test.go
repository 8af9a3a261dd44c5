package p2p

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// A joiner's device is cut off (its node closed) when the table waits for
// its play; the other seats vote over gossipsub, the decider (the host's
// seat 0) hosts a bot in the silent seat, which plays on with the seat's
// cards recovered from its escrow (the round is kept, not voided), and the
// remaining devices finish the game with the same log, which verifies.
func TestSilentDeviceTakenOverLibp2p(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	tt := newTestTable(t, ctx, 4, 1, 1)
	// The seat of device 2 is a person's who answers every prompt until
	// asked for a play; then the device is cut off.
	const cutDev = 2
	tt.seats[cutDev][0].Human = true
	silent := tt.seats[cutDev][0].Seat
	clock := memtable.NewClock()
	const voidAfter = 5 * time.Second
	sessions := make([]*Session, len(tt.nodes))
	for i, n := range tt.nodes {
		s, err := n.NewSession(SessionConfig{Setup: tt.setup, Store: tt.stores[i], Seats: tt.seats[i],
			Tick: 100 * time.Millisecond, Poll: 50 * time.Millisecond, Linger: 2 * time.Second,
			Now: clock.Now, Patience: voidAfter, VoidAfter: voidAfter})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = s
	}
	cutCtx, cut := context.WithCancel(ctx)
	defer cut()
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i != cutDev {
				errs[i] = s.Run(ctx, nil)
				return
			}
			errs[i] = s.Run(cutCtx, nil)
			if errs[i] == context.Canceled {
				errs[i] = nil
			}
			if err := s.Close(); err != nil {
				t.Error(err)
			}
			if err := tt.nodes[i].Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	// Answer the person's prompts but the first play, then cut the device
	// off; move the clock while every remaining seat waits for the silent
	// one. The pace is not asserted, only the outcome.
	person := sessions[cutDev].Peer(silent)
	answered := map[uint64]bool{}
	live := []*table.Peer{}
	for i, s := range sessions {
		if i != cutDev {
			for _, ls := range tt.seats[i] {
				live = append(live, s.Peer(ls.Seat))
			}
		}
	}
	clockDone := make(chan struct{})
	go func() {
		defer close(clockDone)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if cutCtx.Err() == nil {
				if pr := person.View().Prompt; pr != nil && pr.Kind == tablelog.KindPlay {
					cut()
				} else if pr != nil && !answered[pr.Seq] {
					answered[pr.Seq] = true
					if err := person.Submit(pr.Legal[0]); err != nil {
						t.Errorf("submit: %v", err)
					}
				}
				continue
			}
			waiting := true
			for _, p := range live {
				v := p.View()
				waiting = waiting && v.Turn == silent && p.Game().HostOf(silent) < 0
			}
			if waiting {
				clock.Add(time.Second)
			}
		}
	}()
	wg.Wait()
	cancel()
	<-clockDone
	var heads []tablelog.Hash
	var exports [][]byte
	for i, s := range sessions {
		if i == cutDev {
			continue
		}
		if errs[i] != nil {
			t.Errorf("device %d: %v", i, errs[i])
		}
		p := s.Peer(tt.seats[i][0].Seat)
		v := p.View()
		if rec := p.Game().Recovered(); !v.Over || len(v.Voided) != 0 || len(rec) != 1 || rec[0].Seat != silent {
			t.Errorf("device %d: over %v, voided %v, recovered %v (%s)", i, v.Over, v.Voided, rec, v.Waiting())
		}
		if h := p.Game().HostOf(silent); h != 0 {
			t.Errorf("device %d: the silent seat %d is hosted by %d, want 0", i, silent, h)
		}
		_, head := p.Log().Head()
		heads = append(heads, head)
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		var buf bytes.Buffer
		if err := tt.stores[i].Export(&buf, tt.setup.Table()); err != nil {
			t.Fatal(err)
		}
		exports = append(exports, buf.Bytes())
	}
	if err := sameHeads(heads); err != nil {
		t.Fatal(err)
	}
	for i, b := range exports {
		v, err := table.Verify(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("export %d: %v", i, err)
		}
		if !v.Over || len(v.Voided) != 0 || len(v.Recovered) != 1 || v.Recovered[0].Seat != silent || len(v.Results) != 1 || v.Results[0].Deal != 1 {
			t.Errorf("export %d: over %v, voided %v, recovered %v, results %+v", i, v.Over, v.Voided, v.Recovered, v.Results)
		}
	}
}
