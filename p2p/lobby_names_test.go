package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// TestLobbyNames: each joiner's player name travels with its claim, the
// lobby shows the names as seats fill, and the genesis fixes them by seat,
// in any script.
func TestLobbyNames(t *testing.T) {
	cases := []struct {
		name    string
		host    string
		joiners []string
		want    []string // by seat; nil: the genesis has no names
	}{
		{"non-Latin", "Анна", []string{"李雷", "Zoë"}, []string{"Анна", "李雷", "Zoë"}},
		{"trimmed and partly empty", " Anna ", []string{"", "  "}, []string{"Anna", "", ""}},
		{"nobody named", "", []string{"", ""}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			host := newTestNode(t)
			lobby, err := host.OpenLobby(LobbyConfig{Name: "names", Variant: "classic", Players: 3, Player: c.host})
			if err != nil {
				t.Fatal(err)
			}
			defer lobby.Close()
			info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
			seats := make([]int, len(c.joiners))
			errs := make([]error, len(c.joiners))
			var wg sync.WaitGroup
			for i, name := range c.joiners {
				n := newTestNode(t)
				// One at a time, so the seats follow the joiners' order.
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, seats[i], errs[i] = n.JoinLobby(ctx, info, lobby.ID(), name, nil)
				}()
				if err := waitSeated(ctx, lobby, 2+i); err != nil {
					t.Fatal(err)
				}
			}
			players := lobby.Players()
			setup, _, err := lobby.Start()
			if err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("joiner %d: %v", i, err)
				}
			}
			gen, err := setup.Check()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(gen.Names, c.want) {
				t.Fatalf("genesis names %q, want %q", gen.Names, c.want)
			}
			for s := range 3 {
				want := ""
				if c.want != nil {
					want = c.want[s]
				}
				if players[s] != want || gen.Name(s) != want {
					t.Fatalf("seat %d: lobby %q, genesis %q, want %q", s, players[s], gen.Name(s), want)
				}
			}
		})
	}
}

// waitSeated waits until the lobby has seated n, or ctx ends.
func waitSeated(ctx context.Context, l *Lobby, n int) error {
	for {
		l.mu.Lock()
		seated, ch := 1+len(l.claims), l.changed
		l.mu.Unlock()
		if seated >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// TestLobbyRefusesBadNames: a name that table.CheckName refuses is
// refused by the joiner before it claims, and by the host when a claim
// carries one anyway, with the reason.
func TestLobbyRefusesBadNames(t *testing.T) {
	bad := []struct{ name, player string }{
		{"too long", strings.Repeat("x", 25)},
		{"too many bytes", strings.Repeat("李", 22)},
		{"control character", "An\x1b[2Jna"},
		{"newline", "Anna\nBob"},
		{"invalid UTF-8", "Anna\xff"},
	}
	t.Run("joiner", func(t *testing.T) {
		n := newTestNode(t)
		for _, c := range bad {
			t.Run(c.name, func(t *testing.T) {
				_, _, err := n.JoinLobby(context.Background(), peer.AddrInfo{ID: n.ID()}, LobbyID{}, c.player, nil)
				if !errors.Is(err, table.ErrBadName) {
					t.Fatalf("JoinLobby: %v, want ErrBadName", err)
				}
			})
		}
	})
	t.Run("host", func(t *testing.T) {
		hostKey, joinerKey := newKey(t), newKey(t)
		hostID, err := tablelog.IdentityOf(hostKey.Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		joinerID, err := tablelog.IdentityOf(joinerKey.Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		joiner, err := PeerIDOf(joinerID)
		if err != nil {
			t.Fatal(err)
		}
		id := LobbyID{9}
		for _, c := range bad {
			t.Run(c.name, func(t *testing.T) {
				l := &Lobby{n: &Node{id: hostID}, changed: make(chan struct{}),
					cfg: LobbyConfig{ID: id, Variant: "classic", Players: 3}}
				claim := append(append([]byte{lobbyVersion, msgClaim}, id[:]...), c.player...)
				s := &claimStream{conn: claimConn{remote: joiner}, in: bytes.NewReader(frame(claim...))}
				serr := l.serve(s)
				if !errors.Is(serr, ErrRefused) || !errors.Is(serr, table.ErrBadName) {
					t.Fatalf("serve: %v, want a refusal for the name", serr)
				}
				reply, err := readFrame(&s.out)
				if err != nil || len(reply) < 2 || reply[1] != msgRefuse || !strings.Contains(string(reply[2:]), "player name") {
					t.Fatalf("answered %q, %v", reply, err)
				}
				if seated, _ := l.Seated(); seated != 1 {
					t.Fatalf("%d seats taken", seated)
				}
			})
		}
	})
	t.Run("host's own", func(t *testing.T) {
		n := newTestNode(t)
		if _, err := n.OpenLobby(LobbyConfig{Variant: "classic", Players: 3, Player: "Anna\x00"}); !errors.Is(err, table.ErrBadName) {
			t.Fatalf("OpenLobby: %v, want ErrBadName", err)
		}
	})
}
