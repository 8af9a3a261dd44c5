package tablelog

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestMemNetworkDelivers(t *testing.T) {
	ids := []Identity{{1}, {2}, {3}}
	n, err := NewMemNetwork(TableID{1}, rand.New(rand.NewPCG(1, 2)), NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var eps []*MemEndpoint
	for _, id := range ids {
		ep, err := n.Join(ctx, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		eps = append(eps, ep)
	}
	if _, err := n.Join(ctx, ids[0], nil); err == nil {
		t.Fatal("joined twice")
	}
	for i := range 10 {
		if err := eps[0].Publish(ctx, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, ep := range eps[1:] {
		seen := map[byte]bool{}
		for range 10 {
			m := <-ep.Messages()
			if m.From != ids[0] {
				t.Fatal("wrong sender")
			}
			seen[m.Data[0]] = true
		}
		if len(seen) != 10 {
			t.Fatalf("%d distinct messages", len(seen))
		}
	}
	n.Disconnect(ids[1])
	if err := eps[0].Publish(ctx, []byte("lost")); err != nil {
		t.Fatal(err)
	}
	if m := <-eps[2].Messages(); string(m.Data) != "lost" {
		t.Fatal("the connected member should receive it")
	}
	for _, ep := range eps {
		if err := ep.Close(); err != nil {
			t.Fatal(err)
		}
		for range ep.Messages() {
			t.Fatal("a disconnected member received a message")
		}
	}
	if err := eps[0].Publish(ctx, nil); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
}

// seq is a RangeServer of one table that holds the envelopes 0..n-1 as
// one byte each.
type seq struct {
	table TableID
	n     uint64
}

func (s seq) ServeRange(ctx context.Context, table TableID, from, to uint64) ([][]byte, error) {
	if table != s.table {
		return nil, nil
	}
	var out [][]byte
	for i := from; i < min(to, s.n); i++ {
		out = append(out, []byte{byte(i)})
	}
	return out, nil
}

func TestMemNetworkFetch(t *testing.T) {
	ids := []Identity{{1}, {2}}
	tid := TableID{7}
	s := seq{tid, 5}
	n, err := NewMemNetwork(tid, rand.New(rand.NewPCG(3, 4)), NetConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	server, err := n.Join(ctx, ids[0], s)
	if err != nil {
		t.Fatal(err)
	}
	client, err := n.Join(ctx, ids[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.Fetch(ctx, ids[0], 2, 10)
	if err != nil || len(got) != 3 || got[0][0] != 2 || got[2][0] != 4 {
		t.Fatalf("%v, %v", got, err)
	}
	if _, err := server.Fetch(ctx, ids[1], 0, 1); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("a member without a server: %v", err)
	}
	n.Disconnect(ids[0])
	if _, err := client.Fetch(ctx, ids[0], 0, 1); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("disconnected target: %v", err)
	}
	n.Reconnect(ids[0])
	n.Disconnect(ids[1])
	if _, err := client.Fetch(ctx, ids[0], 0, 1); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("disconnected caller: %v", err)
	}
	n.Reconnect(ids[1])
	if _, err := client.Fetch(ctx, ids[0], 0, 1); err != nil {
		t.Fatal(err)
	}
	// Ending the context stops the endpoints and closes their channels.
	cancel()
	for _, ep := range []*MemEndpoint{server, client} {
		for range ep.Messages() {
		}
		if err := ep.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := n.Join(context.Background(), ids[0], s); err != nil {
		t.Fatalf("rejoin after the context ended: %v", err)
	}
	if _, err := NewMemNetwork(tid, nil, NetConfig{}); err == nil {
		t.Fatal("no generator")
	}
	if _, err := NewMemNetwork(tid, rand.New(rand.NewPCG(1, 1)), NetConfig{Drop: 2}); err == nil {
		t.Fatal("probability 2")
	}
}
