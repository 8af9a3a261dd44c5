package p2p

import (
	"context"
	"crypto/ed25519"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// noRanges is a RangeServer with an empty log.
type noRanges struct{}

func (noRanges) ServeRange(context.Context, tablelog.TableID, uint64, uint64) ([][]byte, error) {
	return nil, nil
}

// BenchmarkEnvelopeLatency measures the time from publishing an envelope
// to its delivery at every other peer: 4 devices on loopback, one table,
// after the mesh has formed. It reports the 50th and 99th percentiles
// over every (envelope, receiver) pair.
func BenchmarkEnvelopeLatency(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const peers = 4
	var nodes []*Node
	var ids []tablelog.Identity
	for range peers {
		n := newTestNode(b)
		nodes, ids = append(nodes, n), append(ids, n.Identity())
	}
	gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:peers], Keys: ids}
	body, err := gen.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	genesis := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := genesis.Sign(nodes[0].Key()); err != nil {
		b.Fatal(err)
	}
	setup := &Setup{Genesis: genesis}
	for _, n := range nodes {
		setup.Devices = append(setup.Devices, Device{ID: n.Identity(), Addrs: n.Host().Addrs()})
	}
	type arrival struct {
		seq      uint64
		receiver int
		at       time.Time
	}
	arrivals := make(chan arrival, 1024)
	var eps []*Endpoint
	for i, n := range nodes {
		tb, err := n.JoinTable(TableConfig{Setup: setup, Server: noRanges{}, Redial: 200 * time.Millisecond})
		if err != nil {
			b.Fatal(err)
		}
		defer tb.Close()
		ep, err := tb.Transport()
		if err != nil {
			b.Fatal(err)
		}
		eps = append(eps, ep)
		go func() {
			for m := range ep.Messages() {
				at := time.Now()
				env, err := tablelog.ParseEnvelope(m.Data)
				if err != nil {
					continue
				}
				select {
				case arrivals <- arrival{env.Seq, i, at}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	seq := uint64(0)
	// publish sends envelope seq from device i and waits until the three
	// others have it; it returns the three latencies.
	publish := func(i int, wait time.Duration) []time.Duration {
		seq++
		env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: setup.Table(), Seq: seq, Author: uint8(i),
			Kind: tablelog.KindAck, Body: []byte{table.BodyVersion}}
		if err := env.Sign(ed25519.PrivateKey(nodes[i].Key())); err != nil {
			b.Fatal(err)
		}
		data, err := env.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := eps[i].Publish(ctx, data); err != nil {
			b.Fatal(err)
		}
		var out []time.Duration
		timeout := time.After(wait)
		for len(out) < peers-1 {
			select {
			case a := <-arrivals:
				if a.seq == seq && a.receiver != i {
					out = append(out, a.at.Sub(start))
				}
			case <-timeout:
				return nil
			case <-ctx.Done():
				b.Fatal(ctx.Err())
			}
		}
		return out
	}
	// Warm up until the mesh delivers from every device.
	for i := 0; i < peers; {
		if publish(i, 2*time.Second) != nil {
			i++
		} else if ctx.Err() != nil {
			b.Fatal("the mesh did not form")
		}
	}
	var lat []time.Duration
	b.ResetTimer()
	for n := range b.N {
		got := publish(n%peers, 10*time.Second)
		if got == nil {
			b.Fatalf("envelope %d was not delivered to every peer", seq)
		}
		lat = append(lat, got...)
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	for _, ep := range eps {
		ep.Close()
	}
}
