package lan

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
	nseat "github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// theGameTable hosts a table of The Game on devices[0], whose seat a
// person plays (hostBot ""), and seats the other devices, whose bots play
// coop, by address on loopback.
func theGameTable(ctx context.Context, t *testing.T, n int, extreme bool, hostBot string) ([]*Device, []*Table) {
	t.Helper()
	var devices []*Device
	for range n {
		d, err := OpenDevice(t.TempDir(), loopback)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		devices = append(devices, d)
	}
	target, err := AddrTarget(devices[0].JoinAddrs()[0].Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	hosted := make(chan *Table, 1)
	go func() {
		tbl, err := devices[0].Host(ctx, HostConfig{Name: "G", Game: table.GameTheGame, Variant: variantOf(extreme), Players: n,
			Bot: hostBot, Player: "Ada"}, nil)
		if err != nil {
			t.Error(err)
		}
		hosted <- tbl
	}()
	tables := make([]*Table, n)
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tables[i] == nil && ctx.Err() == nil {
				tbl, err := devices[i].Join(ctx, target, "coop", nil)
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
		t.Cleanup(func() { tbl.Close() })
	}
	return devices, tables
}

// sameSeat reports whether two views of the person's seat agree on what a
// refused move could have changed.
func sameSeat(a, b thegame.View) bool {
	return a.Piles == b.Piles && a.PlayedThisTurn == b.PlayedThisTurn && a.DrawPile == b.DrawPile &&
		len(a.Hand) == len(b.Hand) && a.Turns == b.Turns
}

// TestTheGamePersonSeat: a person's seat at a LAN table of The Game,
// driven by the test through TheGameSeat, plays a whole game with two bot
// devices on loopback. Moves the rules refuse (a card not in the hand, a
// card that fits no pile, an end before the minimum, a move out of turn)
// come back as errors wrapping the engine's sentinels and change nothing;
// every device ends with the same log, which Verify accepts.
func TestTheGamePersonSeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	devices, tables := theGameTable(ctx, t, 3, false, "")
	var (
		refused  = map[string]error{}
		played   int
		told     []thegame.Action
		outOfTrn error
	)
	person := func(ctx context.Context, seat *nseat.TheGameSeat) error {
		if seat.You() != 0 || seat.Name(0) != "Ada" {
			t.Errorf("seat %d named %q", seat.You(), seat.Name(0))
		}
		greedy := tgbot.Greedy{}
		for range 1 << 20 {
			for _, m := range seat.Moves(len(told)) {
				told = append(told, m)
			}
			if seat.Over() {
				return nil
			}
			if !seat.YourTurn() {
				if w, ok := seat.Waiting(); outOfTrn == nil && ok && w != 0 && seat.View().Phase == thegame.PhasePlay {
					outOfTrn = seat.Act(thegame.Action{Kind: thegame.ActEnd, Seat: 0})
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-seat.Changed():
				}
				continue
			}
			v := seat.View()
			pos := v.Position()
			var misfit thegame.Action
			for _, c := range v.Hand {
				for pile := range thegame.NumPiles {
					if !pos.CanPlay(c, pile) {
						misfit = thegame.Action{Kind: thegame.ActPlay, Seat: 0, Card: c, Pile: pile}
					}
				}
			}
			if len(refused) == 0 && v.PlayedThisTurn == 0 && misfit.Kind == thegame.ActPlay {
				var missing thegame.Card
				for c := thegame.Card(2); c <= 99; c++ {
					if !slices.Contains(v.Hand, c) && !v.Played.Has(c) {
						missing = c
						break
					}
				}
				refused["not in hand"] = seat.Act(thegame.Action{Kind: thegame.ActPlay, Seat: 0, Card: missing, Pile: 0})
				refused["misfit"] = seat.Act(misfit)
				refused["end too soon"] = seat.Act(thegame.Action{Kind: thegame.ActEnd, Seat: 0})
				refused["other seat"] = seat.Act(thegame.Action{Kind: thegame.ActEnd, Seat: 1})
				refused["no pile"] = seat.Act(thegame.Action{Kind: thegame.ActSignal, Seat: 0, Pile: 7})
				if after := seat.View(); !sameSeat(v, after) || !seat.YourTurn() {
					t.Errorf("a refused move changed the seat: %+v then %+v", v, after)
				}
			}
			a := greedy.Act(&v)
			if a.Kind == thegame.ActPlay {
				played++
			}
			if err := seat.Act(a); err != nil {
				t.Errorf("the greedy move %v: %v", a, err)
				return err
			}
		}
		return errors.New("the game did not end")
	}
	outs := make([]Outcome, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range devices {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := PlayConfig{Linger: 10 * time.Second}
			if i == 0 {
				cfg.Person = func(ctx context.Context, ps PersonSeat) error {
					if ps.Game != table.GameTheGame {
						t.Errorf("the person's seat is at %v", ps.Game)
					}
					s, err := ps.TheGameSeat()
					if err != nil {
						return err
					}
					return person(ctx, s)
				}
			}
			outs[i], errs[i] = devices[i].Play(ctx, tables[i], cfg, func(e Event) {
				if p, ok := e.(Playing); ok && (i == 0) != (p.Bot == "") {
					t.Errorf("device %d: seat %d played by %q", i, p.Seat, p.Bot)
				}
			})
		}()
	}
	wg.Wait()
	for name, want := range map[string]error{"not in hand": thegame.ErrNotInHand, "misfit": thegame.ErrIllegalPlay,
		"end too soon": thegame.ErrTooFew, "other seat": thegame.ErrNotYourTurn, "no pile": thegame.ErrBadAction} {
		t.Run("refused/"+name, func(t *testing.T) {
			if !errors.Is(refused[name], want) {
				t.Errorf("got %v, want %v", refused[name], want)
			}
		})
	}
	if !errors.Is(outOfTrn, thegame.ErrNotYourTurn) {
		t.Errorf("a move out of turn: %v", outOfTrn)
	}
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
		if !bytes.Equal(logs[i], logs[0]) {
			t.Fatalf("device %d's log differs from the host's", i)
		}
	}
	v, err := table.Verify(bytes.NewReader(logs[0]))
	if err != nil || v.TheGame == nil || *v.TheGame != *outs[0].TheGame {
		t.Fatalf("Verify: %v, %+v; the devices found %+v", err, v.TheGame, outs[0].TheGame)
	}
	var mine int
	for _, m := range told {
		if m.Seat == 0 && m.Kind == thegame.ActPlay {
			mine++
		}
	}
	if played == 0 || mine != played {
		t.Errorf("the person played %d cards, the log tells %d", played, mine)
	}
	t.Logf("%d envelopes, %d cards left, the person laid %d", v.Envelopes, v.TheGame.Result.CardsLeft, played)
}

// variantOf is The Game's variant: Extreme or the base game.
func variantOf(extreme bool) string {
	if extreme {
		return "extreme"
	}
	return "base"
}
