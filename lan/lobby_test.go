package lan

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/tablelog"
)

// TestStrengths: each strength maps to one bot kind of each game and
// back, and every strength is offered.
func TestStrengths(t *testing.T) {
	for _, g := range games.All() {
		for _, s := range Strengths() {
			if kind := g.Bots[s]; g.CheckBot(kind) != nil || StrengthOf(kind) == 0 {
				t.Errorf("%s: strength %d has kind %q, of strength %d", g.ID, s, kind, StrengthOf(kind))
			}
		}
	}
	for _, c := range []struct {
		s    Strength
		kind string
	}{{Easy, "random"}, {Normal, "heuristic"}, {Strong, "search"}, {Easy, "greedy"}, {Normal, "coop"}, {Strong, "expert"}} {
		if StrengthOf(c.kind) != c.s {
			t.Errorf("kind %q: strength %d, want %d", c.kind, StrengthOf(c.kind), c.s)
		}
	}
	if StrengthOf("nobody") != 0 {
		t.Error("a kind of no game has a strength")
	}
	if got := Strengths(); !slices.Equal(got, []Strength{Easy, Normal, Strong}) {
		t.Errorf("offered %v, want easy, normal and strong", got)
	}
}

// joinWhenOpen joins target as player, again while the host's lobby is
// not open yet, and sends the Waiting news it hears to waits.
func joinWhenOpen(ctx context.Context, d *Device, target JoinTarget, player string, waits chan<- Waiting) (*Table, error) {
	for {
		tbl, err := d.JoinAs(ctx, target, JoinConfig{Bot: "random", Player: player}, func(p Progress) {
			if w, ok := p.(Waiting); ok {
				waits <- w
			}
		})
		if !errors.Is(err, p2p.ErrRefused) && !errors.Is(err, tablelog.ErrUnreachable) {
			return tbl, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// untilWaiting reads waits until one that ok accepts.
func untilWaiting(t *testing.T, ctx context.Context, waits <-chan Waiting, what string, ok func(Waiting) bool) {
	t.Helper()
	for {
		select {
		case w := <-waits:
			if ok(w) {
				return
			}
		case <-ctx.Done():
			t.Fatalf("never saw %s", what)
		}
	}
}

// TestHostLobbyNamesAndBots: the host and the joiner see the seats fill
// with names (a non-Latin one too) as people sit down, and the bots the
// host adds; the host cannot seat a bot its device cannot play nor more
// bots than free seats; the table starts when the host says, with the bot
// of the kind chosen, and plays to the end; a member dropped on the way
// is reached again at once by Reconnect.
func TestHostLobbyNamesAndBots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	joiner, err := OpenDevice(t.TempDir(), loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer joiner.Close()
	if _, err := host.OpenLobby(HostConfig{Name: "T", Variant: "modern", Players: 3, BotKinds: []string{"nobody"}}, nil); err == nil {
		t.Fatal("a lobby opened with a bot nobody plays")
	}
	h, err := host.OpenLobby(HostConfig{Name: "T", Variant: "modern", Players: 3, Rounds: 1, Bot: "random", Player: "Anna"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hostWaits, joinWaits := make(chan Waiting, 64), make(chan Waiting, 64)
	watched := make(chan error, 1)
	go func() {
		watched <- h.Watch(ctx, false, func(p Progress) { hostWaits <- p.(Waiting) })
	}()
	target, err := AddrTarget(host.JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	type joined struct {
		t   *Table
		err error
	}
	jc := make(chan joined, 1)
	go func() {
		tbl, err := joinWhenOpen(ctx, joiner, target, "Зоя", joinWaits)
		jc <- joined{tbl, err}
	}()
	names := func(want ...string) func(Waiting) bool {
		return func(w Waiting) bool { return slices.Equal(w.Players, want) && w.Seated == len(want) }
	}
	untilWaiting(t, ctx, hostWaits, "the joiner's name at the host", names("Anna", "Зоя"))
	untilWaiting(t, ctx, joinWaits, "its own name at the joiner", names("Anna", "Зоя"))
	if err := h.SetBots([]string{"nobody"}); err == nil {
		t.Fatal("a bot nobody plays was seated")
	}
	if err := h.SetBots([]string{"random", "random"}); !errors.Is(err, p2p.ErrSeatsTaken) {
		t.Fatalf("two bots for one free seat: %v", err)
	}
	if err := h.SetBots([]string{"random"}); err != nil {
		t.Fatal(err)
	}
	withBot := func(w Waiting) bool { return w.Wanted == 2 && slices.Equal(w.Bots, []string{"random"}) }
	untilWaiting(t, ctx, hostWaits, "the bot at the host", withBot)
	untilWaiting(t, ctx, joinWaits, "the bot at the joiner", withBot)
	if s := h.Seats(); s.Seated != 2 || s.Wanted != 2 {
		t.Fatalf("seats %+v", s)
	}
	htbl, err := h.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer htbl.Close()
	if err := <-watched; err != nil {
		t.Fatalf("watching a lobby that started: %v", err)
	}
	j := <-jc
	if j.err != nil {
		t.Fatal(j.err)
	}
	if want := []string{"Anna", "Зоя", ""}; !slices.Equal(htbl.Names(), want) || !slices.Equal(j.t.Names(), want) {
		t.Fatalf("names: host %q, joiner %q, want %q", htbl.Names(), j.t.Names(), want)
	}
	if got := htbl.seats; len(got) != 2 || got[1].Seat != 2 || got[1].Bot != "random" {
		t.Fatalf("the host's seats %+v, want a random bot in seat 2", got)
	}
	if _, err := h.Start(); err == nil {
		t.Fatal("a table started twice")
	}
	if err := host.Node().Host().Network().ClosePeer(joiner.ID()); err != nil {
		t.Fatal(err)
	}
	if reached, err := joiner.Reconnect(ctx, j.t); err != nil || reached != 1 {
		t.Fatalf("reconnect: reached %d, %v", reached, err)
	}
	if len(joiner.Node().Host().Network().ConnsToPeer(host.ID())) == 0 {
		t.Fatal("no connection to the host after Reconnect")
	}
	done := make(chan Outcome, 1)
	go func() {
		out, err := host.Play(ctx, htbl, PlayConfig{Linger: 10 * time.Second}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	out, err := joiner.Play(ctx, j.t, PlayConfig{Linger: 10 * time.Second}, nil)
	if err != nil || !out.Over {
		t.Fatalf("joiner: %+v, %v", out, err)
	}
	if hout := <-done; !hout.Over || hout.Head != out.Head {
		t.Fatalf("host %+v, joiner %+v", hout, out)
	}
}
