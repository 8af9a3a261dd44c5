package table

import (
	"context"

	tgbot "github.com/njetlan/njet/thegame/bot"
)

// A partition at a table of The Game (docs/protocol.md, "The Game on the
// table", "Why no fork"): two voters that could not hear each other for
// longer than the grace may each have decided a takeover, and a device cut
// off longer than the patience may have taken the others over alone. When
// the branches meet, a TheGamePeer weighs them as a Njet Peer does (the
// comparison in fork.go is the same code), and the device on the lighter
// branch rewinds to the first difference and follows the table.

// rejected hears of an envelope the log refused (the replica's
// goroutine): see forkWatch.refused.
func (p *TheGamePeer) rejected(from Identity, env *Envelope, _ error) {
	game, log := p.Game(), p.Log()
	next := log.Next()
	if game.Genesis() == nil || next < 2 {
		return
	}
	p.forks.refused(next, from, env)
	select {
	case p.diverged <- struct{}{}:
	default:
	}
}

// branches returns the peer's comparison of branches.
func (p *TheGamePeer) branches() branches {
	n := 0
	if gen := p.Game().Genesis(); gen != nil {
		n = gen.Players()
	}
	return branches{table: p.cfg.Table, store: p.cfg.Store, transport: p.cfg.Transport, members: p.cfg.Peers,
		players: n, observer: func() Protocol { return NewTheGame(GameConfig{Table: p.cfg.Table, Creator: p.cfg.Creator}) }}
}

// probeFork, once the game is over, asks the members at most every
// probeEvery for the end of their logs (branches.probe): a device that
// finished the game alone while cut off hears of no envelope it would
// refuse, as the others, finished too, post nothing more.
func (p *TheGamePeer) probeFork(ctx context.Context) {
	if !p.Game().Over() || !p.forks.probeDue() {
		return
	}
	if d, ok := p.branches().probe(ctx, p.Log()); ok {
		p.forks.found(d.from, d.seq)
	}
}

// checkDiverged compares the peer's log with member d.from's
// (branches.compare). When the member's branch outweighs its own, the
// peer stops its replica with stop, drops its envelopes from the first
// difference on, and with them the secrets, bot keys and standing vote it
// stored for them (Store.rewind), replays what is left, takes the member's
// branch and what follows it while the member answers (with outer, the
// context of Run: stop cancels the replica's), and reports true. Its seat
// may be played by a bot of another device on that branch: it then only
// follows the table.
func (p *TheGamePeer) checkDiverged(ctx, outer context.Context, d *divergence, stop func(error) error) (bool, error) {
	log := p.Log()
	next := log.Next()
	k, theirs, ok, err := p.branches().compare(ctx, d, log)
	if err != nil {
		return false, nil // the member did not answer: the next refusal asks again
	}
	if !ok {
		p.forks.checked(next)
		return false, nil
	}
	if err := stop(nil); err != nil {
		return true, err
	}
	if p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: the table went on without this device from seq %d; dropping its envelopes [%d, %d)",
			p.cfg.Seat, k, k, next)
	}
	if err := p.cfg.Store.rewind(p.cfg.Table, k); err != nil {
		return true, err
	}
	// The players of the dropped branch remember its cards; the votes
	// and silence it saw name envelopes that are gone.
	pl, err := tgbot.New(p.cfg.Bot, !p.cfg.Silent)
	if err != nil {
		return true, err
	}
	p.mu.Lock()
	p.player, p.bots, p.silence = pl, map[int]tgbot.Player{}, silenceState{}
	p.rewinds++
	p.mu.Unlock()
	if err := p.open(seedFrom(p.rand)); err != nil {
		return true, err
	}
	game, replica := p.Game(), p.rep()
	for _, env := range theirs {
		// The peer chose this branch: its own standing vote, if one
		// survived the rewind, does not keep the branch's envelope out.
		game.allowFenced(env.Seq, env.Hash())
		if err := replica.appendAndPersist(env); err != nil {
			return true, err
		}
	}
	takeRest(outer, p.cfg.Transport, d.from, replica)
	return true, errRewound
}
