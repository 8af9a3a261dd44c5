package p2p

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/njetlan/njet/tablelog"
)

// TestParseSeatsHints: a seats message tells joiners that the host allows
// hints with one flag byte after the bots, sent only when set, so a table
// without hints sends what older joiners read.
func TestParseSeatsHints(t *testing.T) {
	s := LobbySeats{Players: []string{"Anna", "Ben"}, Wanted: 3, Bots: []string{"random"}}
	plain := encodeSeats(s)
	s.Hints = true
	flagged := encodeSeats(s)
	if !slices.Equal(flagged, append(slices.Clone(plain), seatsHints)) {
		t.Fatalf("with hints %x, without %x", flagged, plain)
	}
	for _, c := range []struct {
		msg   []byte
		hints bool
	}{{plain, false}, {flagged, true}} {
		got, err := parseSeats(c.msg)
		if err != nil || got.Hints != c.hints || !slices.Equal(got.Players, s.Players) {
			t.Fatalf("parseSeats(%x) = %+v, %v", c.msg, got, err)
		}
	}
	if _, err := parseSeats(append(slices.Clone(flagged), seatsHints)); !errors.Is(err, tablelog.ErrMalformed) {
		t.Fatalf("the flag twice: %v", err)
	}
}

// TestLobbyKeepsSeats: a lobby kept for a table's players (a table played
// again) refuses any other device, seats the kept ones in their order
// whatever the order of their claims, and writes the host's hints into
// the genesis; its seats cannot be changed into others.
func TestLobbyKeepsSeats(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	host, ben, cleo, stranger := newTestNode(t), newTestNode(t), newTestNode(t), newTestNode(t)
	kept := []tablelog.Identity{ben.Identity(), cleo.Identity()}
	for _, bad := range []LobbyConfig{
		{Variant: "modern", Players: 4, Bots: 0, Seats: kept},
		{Variant: "modern", Players: 4, Bots: 1, Seats: []tablelog.Identity{ben.Identity(), ben.Identity()}},
		{Variant: "modern", Players: 4, Bots: 1, Seats: []tablelog.Identity{host.Identity(), ben.Identity()}},
	} {
		if l, err := host.OpenLobby(bad); err == nil {
			l.Close()
			t.Fatalf("a lobby opened with %d seats kept and %d bots at %d", len(bad.Seats), bad.Bots, bad.Players)
		}
	}
	lobby, err := host.OpenLobby(LobbyConfig{Variant: "modern", Players: 4, Bots: 1, Player: "Anna", Hints: true, Seats: kept})
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Close()
	if err := lobby.SetBots([]string{"random"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.SetBots(nil); !errors.Is(err, ErrSeatsTaken) {
		t.Fatalf("a kept lobby freed a seat for a stranger: %v", err)
	}
	info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	if _, _, err := stranger.JoinLobby(ctx, info, lobby.ID(), "Zoë", nil); !errors.Is(err, ErrRefused) {
		t.Fatalf("a stranger at a kept table: %v, want ErrRefused", err)
	}
	type joined struct {
		setup *Setup
		seat  int
		err   error
	}
	join := func(n *Node, name string, seen seatsSeen) chan joined {
		out := make(chan joined, 1)
		go func() {
			s, seat, err := n.JoinLobby(ctx, info, lobby.ID(), name, seen.hear)
			out <- joined{s, seat, err}
		}()
		return out
	}
	cSeen, bSeen := make(seatsSeen, 64), make(seatsSeen, 64)
	cDone := join(cleo, "Cleo", cSeen)
	cSeen.until(t, ctx, "Cleo seated", func(s LobbySeats) bool { return slices.Equal(s.Players, []string{"Anna", "Cleo"}) && s.Hints })
	bDone := join(ben, "Ben", bSeen)
	bSeen.until(t, ctx, "Ben seated before Cleo", func(s LobbySeats) bool { return slices.Equal(s.Players, []string{"Anna", "Ben", "Cleo"}) })
	setup, _, err := lobby.Start()
	if err != nil {
		t.Fatal(err)
	}
	gen, err := setup.Check()
	if err != nil {
		t.Fatal(err)
	}
	if !gen.Hints || gen.Keys[1] != ben.Identity() || gen.Keys[2] != cleo.Identity() || gen.Name(1) != "Ben" || gen.Name(2) != "Cleo" {
		t.Fatalf("genesis: hints %v, names %q", gen.Hints, gen.Names)
	}
	for want, c := range map[int]chan joined{1: bDone, 2: cDone} {
		if j := <-c; j.err != nil || j.seat != want {
			t.Fatalf("seat %d: %d, %v", want, j.seat, j.err)
		}
	}
}
