package p2p

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/njetlan/njet/tablelog"
)

// seatsSeen collects what a joiner hears of the lobby's seats.
type seatsSeen chan LobbySeats

func (c seatsSeen) hear(s LobbySeats) { c <- s }

// until waits for seats that ok accepts, or fails the test at ctx's end.
func (c seatsSeen) until(t *testing.T, ctx context.Context, what string, ok func(LobbySeats) bool) LobbySeats {
	t.Helper()
	for {
		select {
		case s := <-c:
			if ok(s) {
				return s
			}
		case <-ctx.Done():
			t.Fatalf("the joiner never saw %s", what)
		}
	}
}

func sameSeats(players []string, wanted int, bots []string) func(LobbySeats) bool {
	return func(s LobbySeats) bool {
		return slices.Equal(s.Players, players) && s.Wanted == wanted && slices.Equal(s.Bots, bots)
	}
}

// TestLobbySeatsReachJoiners: every joiner sees the seats fill with the
// players' names as people sit down, in any script, and the bots the host
// adds and removes; the host cannot seat more bots than there are free
// seats, and the table starts with the bots last.
func TestLobbySeatsReachJoiners(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	host := newTestNode(t)
	lobby, err := host.OpenLobby(LobbyConfig{Name: "seats", Variant: "classic", Players: 4, Player: "Anna"})
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Close()
	info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	type joined struct {
		seat int
		err  error
	}
	join := func(name string, seen seatsSeen) chan joined {
		out := make(chan joined, 1)
		n := newTestNode(t)
		go func() {
			_, seat, err := n.JoinLobby(ctx, info, lobby.ID(), name, seen.hear)
			out <- joined{seat, err}
		}()
		return out
	}
	boris, li := make(seatsSeen, 64), make(seatsSeen, 64)
	bDone := join("Борис", boris)
	boris.until(t, ctx, "its own name", sameSeats([]string{"Anna", "Борис"}, 4, []string{}))
	if err := lobby.SetBots([]string{"random"}); err != nil {
		t.Fatal(err)
	}
	boris.until(t, ctx, "the bot", sameSeats([]string{"Anna", "Борис"}, 3, []string{"random"}))
	lDone := join("李雷", li)
	for _, c := range []seatsSeen{boris, li} {
		c.until(t, ctx, "the third player", sameSeats([]string{"Anna", "Борис", "李雷"}, 3, []string{"random"}))
	}
	// Without the bot, a fourth player sits down and leaves again:
	// everyone sees it.
	if err := lobby.SetBots(nil); err != nil {
		t.Fatal(err)
	}
	zoeCtx, zoeLeaves := context.WithCancel(ctx)
	zoe, zoeDone := make(seatsSeen, 64), make(chan error, 1)
	go func() {
		_, _, err := newTestNode(t).JoinLobby(zoeCtx, info, lobby.ID(), "Zoë", zoe.hear)
		zoeDone <- err
	}()
	for _, c := range []seatsSeen{boris, li} {
		c.until(t, ctx, "the fourth player", sameSeats([]string{"Anna", "Борис", "李雷", "Zoë"}, 4, []string{}))
	}
	zoeLeaves()
	if err := <-zoeDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("leaving the lobby: %v", err)
	}
	li.until(t, ctx, "the fourth player leave", sameSeats([]string{"Anna", "Борис", "李雷"}, 4, []string{}))
	if err := lobby.SetBots([]string{"random"}); err != nil {
		t.Fatal(err)
	}
	// Changes that come faster than the joiner reads may reach it as one.
	li.until(t, ctx, "the bot again", sameSeats([]string{"Anna", "Борис", "李雷"}, 3, []string{"random"}))
	if err := lobby.SetBots([]string{"random", "heuristic"}); !errors.Is(err, ErrSeatsTaken) {
		t.Fatalf("two bots at a table with one free seat: %v, want ErrSeatsTaken", err)
	}
	if err := lobby.SetBots([]string{strings.Repeat("x", MaxBotKind+1)}); err == nil {
		t.Fatal("an overlong bot kind was taken")
	}
	if err := lobby.SetBots(nil); err != nil {
		t.Fatal(err)
	}
	li.until(t, ctx, "the bot leave", sameSeats([]string{"Anna", "Борис", "李雷"}, 4, []string{}))
	if _, _, err := lobby.Start(); err == nil {
		t.Fatal("a table with a free seat started")
	}
	if err := lobby.SetBots([]string{"heuristic"}); err != nil {
		t.Fatal(err)
	}
	if s := lobby.Seats(); !s.Full() {
		t.Fatalf("seats %+v are not full", s)
	}
	setup, bots, err := lobby.Start()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]chan joined{"Борис": bDone, "李雷": lDone} {
		if j := <-c; j.err != nil {
			t.Fatalf("%s: %v", name, j.err)
		}
	}
	gen, err := setup.Check()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Anna", "Борис", "李雷", ""}; !slices.Equal(gen.Names, want) {
		t.Fatalf("genesis names %q, want %q", gen.Names, want)
	}
	if _, ok := bots[3]; len(bots) != 1 || !ok {
		t.Fatalf("bots at seats %v, want seat 3", slices.Collect(func(yield func(int) bool) {
			for s := range bots {
				if !yield(s) {
					return
				}
			}
		}))
	}
	if err := lobby.SetBots(nil); err == nil {
		t.Fatal("bots changed after the start")
	}
}

// TestParseSeats: a seats message reads back as written; a broken one, or
// one with a name the genesis would refuse, is malformed.
func TestParseSeats(t *testing.T) {
	good := []LobbySeats{
		{Players: []string{"Anna"}, Wanted: 2, Bots: []string{}},
		{Players: []string{"Анна", "", "李雷"}, Wanted: 4, Bots: []string{"random"}},
		{Players: []string{""}, Wanted: 1, Bots: []string{"heuristic", "search", ""}},
	}
	for _, s := range good {
		t.Run("good", func(t *testing.T) {
			got, err := parseSeats(encodeSeats(s))
			if err != nil || !slices.Equal(got.Players, s.Players) || got.Wanted != s.Wanted || !slices.Equal(got.Bots, s.Bots) {
				t.Fatalf("parseSeats(encodeSeats(%+v)) = %+v, %v", s, got, err)
			}
		})
	}
	ok := encodeSeats(LobbySeats{Players: []string{"Anna", "Ben"}, Wanted: 3, Bots: []string{"random"}})
	bad := []struct {
		name string
		msg  []byte
	}{
		{"empty", nil},
		{"header only", ok[:2]},
		{"other version", append([]byte{lobbyVersion + 1}, ok[1:]...)},
		{"cut name", ok[:len(ok)-9]},
		{"cut kind", ok[:len(ok)-1]},
		{"trailing byte", append(slices.Clone(ok), 0)},
		{"no players", encodeSeats(LobbySeats{Wanted: 2})},
		{"more players than seats", encodeSeats(LobbySeats{Players: []string{"a", "b", "c"}, Wanted: 2})},
		{"control character", encodeSeats(LobbySeats{Players: []string{"An\x1bna"}, Wanted: 2})},
		{"untrimmed name", encodeSeats(LobbySeats{Players: []string{" Anna"}, Wanted: 2})},
		{"too long name", encodeSeats(LobbySeats{Players: []string{strings.Repeat("a", 25)}, Wanted: 2})},
		{"bot kind with a control character", encodeSeats(LobbySeats{Players: []string{"a"}, Wanted: 1, Bots: []string{"ran\x1bdom"}})},
		{"too many seats", encodeSeats(LobbySeats{Players: []string{"a"}, Wanted: 10, Bots: make([]string, 10)})},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if s, err := parseSeats(c.msg); !errors.Is(err, tablelog.ErrMalformed) {
				t.Fatalf("parseSeats = %+v, %v; want ErrMalformed", s, err)
			}
		})
	}
}

// FuzzParseSeats: whatever a host sends, reading it returns seats or an
// error, and seats read back encode to the same bytes.
func FuzzParseSeats(f *testing.F) {
	f.Add(encodeSeats(LobbySeats{Players: []string{"Anna", "Борис"}, Wanted: 3, Bots: []string{"random"}}))
	f.Add([]byte{lobbyVersion, msgSeats, 2, 1, 0, 0})
	f.Fuzz(func(t *testing.T, msg []byte) {
		s, err := parseSeats(msg)
		if err != nil {
			return
		}
		if again := encodeSeats(s); !bytes.Equal(again, msg) {
			t.Fatalf("seats %+v encode to %x, read from %x", s, again, msg)
		}
	})
}
