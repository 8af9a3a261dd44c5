package lanapp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
	nseat "github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
	"github.com/njetlan/njet/ui"
)

// loopbackLAN is an app's LAN on 127.0.0.1 only.
func loopbackLAN(t *testing.T) *LAN {
	t.Helper()
	l := &LAN{Dir: t.TempDir(), Listen: []string{"/ip4/127.0.0.1/tcp/0"}}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestLANAppLobbyAndForeground: an app hosts, another joins by address;
// both lobbies show the players' names as they sit down and the host's
// bot; the host starts the table through the lobby's control; when the
// joining app comes back to the foreground its table redials the host at
// once; an app killed and opened again resumes the table.
func TestLANAppLobbyAndForeground(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host, joiner := loopbackLAN(t), loopbackLAN(t)
	if got := host.Strengths(); !slices.Contains(got, ui.BotEasy) || !slices.Contains(got, ui.BotNormal) {
		t.Fatalf("strengths %v", got)
	}
	hostNews, joinNews := make(chan ui.LobbyNews, 64), make(chan ui.LobbyNews, 64)
	type result struct {
		t   ui.LANTable
		err error
	}
	hosted := make(chan result, 1)
	go func() {
		tbl, err := host.Host(ctx, ui.LANHostConfig{Name: "Küche & Co", Game: "njet", Variant: "classic", Players: 4, Short: true,
			Bots: []ui.BotStrength{ui.BotEasy}, Player: "Anna"}, func(n ui.LobbyNews) { hostNews <- n })
		hosted <- result{tbl, err}
	}()
	var control ui.LobbyControl
	var addr string
	for control == nil {
		select {
		case n := <-hostNews:
			if n.Kind == ui.LobbyHosting {
				control = n.Control
				for _, a := range n.Addrs {
					addr = a.Addr
				}
			}
		case <-ctx.Done():
			t.Fatal("no lobby control")
		}
	}
	if addr == "" {
		t.Fatal("the host has no address")
	}
	joined := make(chan result, 1)
	go func() {
		tbl, err := joiner.Join(ctx, ui.JoinTo{Addr: addr}, "Зоя", func(n ui.LobbyNews) { joinNews <- n })
		joined <- result{tbl, err}
	}()
	until := func(ch chan ui.LobbyNews, what string, ok func(ui.LobbyNews) bool) {
		t.Helper()
		for {
			select {
			case n := <-ch:
				if n.Kind == ui.LobbyWaiting && ok(n) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("never saw %s", what)
			}
		}
	}
	seated := func(n ui.LobbyNews) bool {
		return slices.Equal(n.Players, []string{"Anna", "Зоя"}) && slices.Equal(n.Bots, []ui.BotStrength{ui.BotEasy}) && n.Wanted == 3
	}
	until(hostNews, "the joiner's name at the host", seated)
	until(joinNews, "the names and the bot at the joiner", seated)
	if err := control.Start(); err == nil {
		t.Fatal("a table with a free seat started")
	}
	if err := control.SetBots([]ui.BotStrength{ui.BotEasy, ui.BotNormal}); err != nil {
		t.Fatal(err)
	}
	until(joinNews, "the second bot", func(n ui.LobbyNews) bool {
		return slices.Equal(n.Bots, []ui.BotStrength{ui.BotEasy, ui.BotNormal}) && n.Seated == n.Wanted
	})
	if err := control.Start(); err != nil {
		t.Fatal(err)
	}
	h, j := <-hosted, <-joined
	if h.err != nil || j.err != nil {
		t.Fatalf("host %v, joiner %v", h.err, j.err)
	}
	defer h.t.Close()
	if want := []string{"Anna", "Зоя", "", ""}; !slices.Equal(h.t.Names(), want) || !slices.Equal(j.t.Names(), want) || h.t.ID() != j.t.ID() {
		t.Fatalf("host %s %q, joiner %s %q", h.t.ID(), h.t.Names(), j.t.ID(), j.t.Names())
	}
	for _, tbl := range []ui.LANTable{h.t, j.t} {
		if game, variant := tbl.Game(); game != "njet" || variant != "classic" {
			t.Errorf("Game() = %q, %q", game, variant)
		}
	}
	hd, err := host.device()
	if err != nil {
		t.Fatal(err)
	}
	jd, err := joiner.device()
	if err != nil {
		t.Fatal(err)
	}
	if err := hd.Node().Host().Network().ClosePeer(jd.ID()); err != nil {
		t.Fatal(err)
	}
	// The app comes back to the foreground: the game screen calls
	// Reconnect, which dials the host now rather than at the next redial.
	if err := j.t.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if len(jd.Node().Host().Network().ConnsToPeer(hd.ID())) == 0 {
		t.Fatal("not connected to the host after Reconnect")
	}
	// The phone kills the joining app; opened again, it resumes the table.
	if err := joiner.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := joiner.Resume()
	if err != nil || again == nil || again.ID() != j.t.ID() || !slices.Equal(again.Names(), j.t.Names()) {
		t.Fatalf("resume after a restart: %v, %v", again, err)
	}
}

// TestLANAppHostLeaves: leaving the host's lobby closes it; a joiner is
// then refused.
func TestLANAppHostLeaves(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := loopbackLAN(t)
	hctx, leave := context.WithCancel(ctx)
	news := make(chan ui.LobbyNews, 16)
	done := make(chan error, 1)
	go func() {
		_, err := host.Host(hctx, ui.LANHostConfig{Name: "T", Game: "njet", Variant: "classic", Players: 3}, func(n ui.LobbyNews) { news <- n })
		done <- err
	}()
	var addr string
	for addr == "" {
		select {
		case n := <-news:
			if n.Kind == ui.LobbyHosting && len(n.Addrs) > 0 {
				addr = n.Addrs[0].Addr
			}
		case <-ctx.Done():
			t.Fatal("the lobby did not open")
		}
	}
	leave()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("leaving the lobby: %v", err)
	}
	joiner := loopbackLAN(t)
	jctx, jcancel := context.WithTimeout(ctx, 15*time.Second)
	defer jcancel()
	_, err := joiner.Join(jctx, ui.JoinTo{Addr: addr}, "", nil)
	if !errors.Is(err, p2p.ErrRefused) && !errors.Is(err, tablelog.ErrUnreachable) {
		t.Fatalf("joining a closed lobby: %v", err)
	}
}

// TestLANAppTheGame: an app hosts a table of The Game Extreme with a bot
// of its own, starts it, and plays the person's seat through the
// TheGameSource the table screen reads, to the end; the table says which
// game it plays, and its log checks out.
func TestLANAppTheGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host := loopbackLAN(t)
	news := make(chan ui.LobbyNews, 64)
	type result struct {
		t   ui.LANTable
		err error
	}
	hosted := make(chan result, 1)
	go func() {
		tbl, err := host.Host(ctx, ui.LANHostConfig{Name: "Kitchen", Game: "thegame", Variant: "extreme", Players: 2,
			Bots: []ui.BotStrength{ui.BotNormal}, Player: "Anna"}, func(n ui.LobbyNews) { news <- n })
		hosted <- result{tbl, err}
	}()
	var control ui.LobbyControl
	for control == nil {
		select {
		case n := <-news:
			control = n.Control
		case <-ctx.Done():
			t.Fatal("no lobby control")
		}
	}
	if err := control.Start(); err != nil {
		t.Fatal(err)
	}
	h := <-hosted
	if h.err != nil {
		t.Fatal(h.err)
	}
	defer h.t.Close()
	tg, ok := h.t.(ui.TheGameLANTable)
	if !ok {
		t.Fatalf("%T plays no The Game", h.t)
	}
	if game, variant := tg.Game(); game != "thegame" || variant != "extreme" {
		t.Fatalf("Game() = %q, %q", game, variant)
	}
	var left thegame.Result
	person := func(ctx context.Context, src ui.TheGameSource) error {
		seat, ok := src.(*nseat.TheGameSeat)
		if !ok {
			return fmt.Errorf("the source is a %T", src)
		}
		for range 1 << 20 {
			if seat.Over() {
				left = seat.Result()
				return nil
			}
			if !seat.YourTurn() {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-seat.Changed():
				}
				continue
			}
			v := seat.View()
			if err := seat.Act(tgbot.Greedy{}.Act(&v)); err != nil {
				return err
			}
		}
		return errors.New("the game did not end")
	}
	var told []ui.GameNewsKind
	if err := tg.PlayTheGame(ctx, person, func(n ui.GameNews) { told = append(told, n.Kind) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(told, ui.NewsPlaying) || !slices.Contains(told, ui.NewsCatchingUp) {
		t.Errorf("news %v", told)
	}
	var log bytes.Buffer
	if err := h.t.ExportLog(&log); err != nil {
		t.Fatal(err)
	}
	v, err := table.Verify(&log)
	if err != nil || v.TheGame == nil || v.TheGame.Result.CardsLeft != left.CardsLeft || !v.TheGame.Config.Extreme {
		t.Fatalf("verify: %v, %+v; the seat saw %+v", err, v.TheGame, left)
	}
}
