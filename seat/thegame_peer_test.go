package seat

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
)

// TestTheGameSeatTellsTheHand: at a LAN table of The Game, the person's
// seat tells when their cards were dealt or drawn and no move follows
// (ViewChanged), so that a screen shows the hand at once: at the deal,
// while the table waits for a person to play first, Next does not wait
// for that move; after the person's turn, once they drew, the hand last
// told is the hand they hold.
func TestTheGameSeatTellsTheHand(t *testing.T) {
	const you, players = 0, 3
	g, err := games.ByName(table.GameTheGame)
	if err != nil {
		t.Fatal(err)
	}
	// Every seat is a person's: nobody moves but when the test moves
	// for them, and nobody is voted out (the clock stands still).
	lt := memtable.New(t, memtable.Config{Genesis: &table.Genesis{Game: table.GameTheGame}, Players: players,
		Human: func(int) bool { return true }, Bot: "coop", NewPlayer: g.NewPlayer, Heartbeat: true,
		Patience: time.Hour, VoidAfter: time.Hour, Seed: 9})
	changed := lt.Changed(you)
	s, err := NewTheGameSeat(lt.Peers[you], nil, changed)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTestTimeout)
	defer cancel()
	until := func(what string, ok func() bool) { t.Helper(); waitSeat(ctx, t, changed, what, ok) }
	// next is Next, given a while: what it returned, or that it waits.
	next := func() (told bool, err error) {
		nctx, ncancel := context.WithTimeout(ctx, 3*time.Second)
		defer ncancel()
		_, err = s.Next(nctx)
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return false, nil
		}
		return true, err
	}
	until("the deal", func() bool {
		v := s.View()
		return v.Phase == thegame.PhasePlay && len(v.Hand) == 6
	})
	if told, err := next(); !told || !errors.As(err, new(*ViewChanged)) {
		t.Fatalf("after the deal, with no move made, Next told %v (told: %v), want the hand", err, told)
	}
	if told, err := next(); told {
		t.Fatalf("with nothing new, Next told %v", err)
	}

	// The seats on turn play their least turn, until the person has
	// played one; the next seat's person then thinks.
	for played := false; !played; {
		v := lt.Peers[you].Game().TheGame().View(you)
		turn := v.Turn
		tv := lt.Peers[turn].Game().TheGame().View(turn)
		pos := tv.Position()
		for n := 0; n < pos.Min(); n++ {
			a, ok := aPlay(&pos, tv.Hand, turn)
			if !ok {
				t.Fatalf("seat %d holds %v and cannot play", turn, tv.Hand)
			}
			if err := lt.Peers[turn].Submit(a); err != nil {
				t.Fatalf("seat %d plays %v: %v", turn, a, err)
			}
			pos.Play(a.Card, a.Pile)
			tv.Hand = slices.DeleteFunc(slices.Clone(tv.Hand), func(c thegame.Card) bool { return c == a.Card })
			until("the play", func() bool { return slices.Contains(s.Moves(0), a) })
		}
		if err := lt.Peers[turn].Submit(thegame.Action{Kind: thegame.ActEnd, Seat: turn}); err != nil {
			t.Fatalf("seat %d ends its turn: %v", turn, err)
		}
		played = turn == you
		until("the next turn", func() bool {
			v := s.View()
			return v.Phase == thegame.PhasePlay && v.Turn != turn
		})
	}
	until("the person's draw", func() bool { return len(s.View().Hand) == 6 })
	var last []thegame.Card
	for {
		told, err := next()
		if !told {
			break
		}
		if err != nil && !errors.As(err, new(*ViewChanged)) {
			t.Fatalf("Next after the turns: %v", err)
		}
		last = s.View().Hand
	}
	if now := s.View().Hand; !slices.Equal(last, now) || len(now) != 6 {
		t.Fatalf("Next waits with the hand %v last told, the person holds %v", last, now)
	}
}

// waitSeat waits until ok holds, looking again whenever changed says the
// table may have moved on and every 20 ms; it fails the test with what
// when ctx ends first.
func waitSeat(ctx context.Context, t *testing.T, changed <-chan struct{}, what string, ok func() bool) {
	t.Helper()
	for !ok() {
		select {
		case <-ctx.Done():
			t.Fatalf("%s: %v", what, ctx.Err())
		case <-changed:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// aPlay is a card of hand that seat may play now, on the first pile that
// takes it.
func aPlay(pos *thegame.Position, hand []thegame.Card, seat int) (thegame.Action, bool) {
	for _, c := range hand {
		for pile := range thegame.NumPiles {
			if pos.CanPlay(c, pile) {
				return thegame.Action{Kind: thegame.ActPlay, Seat: seat, Card: c, Pile: pile}, true
			}
		}
	}
	return thegame.Action{}, false
}
