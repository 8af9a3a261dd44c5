package lan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// claimTick is how often a watcher that claims a seat looks at the log
// and sends its claim again (gossip loses messages). A claim names the
// deal it opens, so at a table of bots that deals every fraction of a
// second it is signed again as often, or every one comes a deal late.
const claimTick = 200 * time.Millisecond

// claimRefusals is how many refusals in a row end a claim: a member
// whose log lags behind the watcher's may refuse once.
const claimRefusals = 3

// TakeSeat asks the table for seat, which a bot plays (one the table
// seated for a device gone, or one the host seated in the lobby), and
// waits until the log hands it to this device. The claim goes, signed
// with the device's key, to a member device (p2p.ClaimProtocol), which
// publishes it on the table's topic; the devices still at the table
// approve it (the device running a lobby bot consents for it), and the
// device playing the bot hands the seat over at the key setup of the next
// deal (docs/protocol.md). TakeSeat then
// records the log and the seat in the device's store and returns the
// table for Device.Play: from that deal on this device plays the seat, a
// bot of kind bot, or a person when bot is "". The watcher is done then:
// stop its Run. ctx bounds the wait, which lasts until the current round
// ends.
//
// It fails with ErrNotBotSeat for a seat no such bot plays, ErrSeatRefused
// when the table refuses or gives the seat to another device, ErrGameOver
// when the game ends first, and ctx's error when ctx ends.
func (w *Watcher) TakeSeat(ctx context.Context, seat int, kind string) (*Table, error) {
	g, err := games.ByName(w.gen.Game)
	if err != nil {
		return nil, fmt.Errorf("lan: %w", err)
	}
	if kind != "" {
		if err := g.CheckBot(kind); err != nil {
			return nil, fmt.Errorf("lan: unknown bot kind %q (%s)", kind, strings.Join(g.Kinds, ", "))
		}
	}
	if seat < 0 || seat >= w.gen.Players() {
		return nil, fmt.Errorf("%w: the table has seats 0 to %d", ErrNotBotSeat, w.gen.Players()-1)
	}
	key := w.node.Key()
	me := w.node.Identity()
	tick := time.NewTicker(claimTick)
	defer tick.Stop()
	refused := 0
	// The first answer of Watch holds at most one range of the log: catch
	// up before the seat is judged, or a takeover beyond that range is
	// not seen and the seat looks played by its own device.
	for w.follow(ctx) {
	}
	for !w.handedTo(seat, me) {
		if err := w.claimable(seat, me); err != nil {
			return nil, err
		}
		// A request names the deal it opens (the watched log's): one
		// signed for an earlier deal is refused as a replay.
		req := &table.SeatClaimRequest{Table: w.id, Deal: w.game.ClaimRound(), Seat: uint8(seat), Key: me}
		if err := req.Sign(key); err != nil {
			return nil, err
		}
		err := w.node.Claim(ctx, w.member().ID, req)
		switch {
		case err == nil:
			refused = 0
		case errors.Is(err, p2p.ErrClaimRefused):
			if refused++; refused >= claimRefusals {
				return nil, fmt.Errorf("%w: %w", ErrSeatRefused, err)
			}
			w.nextMember()
		case ctx.Err() == nil:
			w.nextMember()
		}
		for w.follow(ctx) {
		}
		if w.handedTo(seat, me) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
	// The log holds the SeatClaim: the device is a member of the table
	// from here on, and plays the seat from its store like any member.
	next := w.log.Next()
	if err := w.dev.store.Put(w.log.Range(0, next)...); err != nil {
		return nil, fmt.Errorf("lan: storing the table's log: %w", err)
	}
	seats := []p2p.LocalSeat{ownSeat(seat, key, kind)}
	if err := p2p.SaveTable(w.dev.store, w.setup, seats); err != nil {
		return nil, err
	}
	return &Table{setup: w.setup, seats: seats}, nil
}

// handedTo reports whether the log handed seat to the key me.
func (w *Watcher) handedTo(seat int, me tablelog.Identity) bool {
	return slices.ContainsFunc(w.game.HandedBack(), func(h table.HandBack) bool { return h.Seat == seat && h.Key == me })
}

// claimable says why seat cannot be claimed by me now, if it cannot.
func (w *Watcher) claimable(seat int, me tablelog.Identity) error {
	err := w.game.Claimable(seat)
	switch {
	case err == nil:
		return nil
	case w.handedTo(seat, me):
		return nil // the log moved on meanwhile, to this device's SeatClaim
	case errors.Is(err, table.ErrOver):
		return ErrGameOver
	}
	for _, h := range w.game.HandedBack() {
		if h.Seat == seat && h.Key != me {
			return fmt.Errorf("%w: the table gave seat %d to another device", ErrSeatRefused, seat)
		}
	}
	return fmt.Errorf("%w: %w", ErrNotBotSeat, err)
}
