package table

import (
	"fmt"
	"io"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// draft is an envelope body a hosted seat is about to post, with the
// secrets that must be stored before it is sent.
type draft struct {
	seq     uint64
	kind    tablelog.Kind
	body    []byte
	secrets map[string][]byte
}

// draft builds the body that hosted seat must post at seq, its moves
// chosen by c. It changes no state: the envelope takes effect when the
// log applies it. It returns nil while a person has not chosen.
func (g *Game) draft(seq uint64, seat int, rnd io.Reader, c chooser) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draftLocked(seq, seat, rnd, c)
}

// draftLocked is draft with g.mu held.
func (g *Game) draftLocked(seq uint64, seat int, rnd io.Reader, c chooser) (*draft, error) {
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	who, kinds, err := g.turn()
	if err != nil {
		return nil, err
	}
	if who != seat {
		return nil, fmt.Errorf("table: seat %d is not entitled at seq %d", seat, seq)
	}
	if i, bad := g.complaint(seat); bad {
		// A sealed message to the seat did not open: its turn is taken by
		// the complaint, whatever it was to post.
		sec, err := g.hosted(g.complainer(seat))
		if err != nil {
			return nil, err
		}
		return draftComplaint(seq, sec, &g.rd.sealed[i])
	}
	d := &draft{seq: seq, kind: kinds[0], secrets: map[string][]byte{}}
	switch {
	case d.kind == tablelog.KindAck:
		d.body = ackBody(g.genHash)
	case d.kind == tablelog.KindRoundKey:
		err = g.draftKey(d, seat, rnd)
	case d.kind == tablelog.KindShuffle:
		var m *crypto.ShuffleMessage
		if m, err = g.rd.cr.Shuffle(seat, g.rd.deck, rnd); err == nil {
			d.body, err = cryptoBody(m)
		}
	case d.kind == tablelog.KindDealTokens && g.st == stDeal:
		err = g.draftDeal(d, seat, rnd)
	case d.kind == tablelog.KindRecovery:
		err = g.draftRecovery(d, seat, rnd)
	case d.kind == tablelog.KindReveal:
		var sec *crypto.Secrets
		if sec, err = g.hosted(seat); err == nil {
			d.body, err = g.rules.revealBody(seat, sec)
		}
	case d.kind == tablelog.KindVoidVote:
		d.body = voteBody(g.halt.Seq)
	case d.kind == tablelog.KindBotSeat:
		var id tablelog.Identity
		if id, err = d.botKey(g.halt.Seat, rnd); err == nil {
			d.body = botSeatBody(g.halt.Seat, id)
		}
	case g.st == stPlay:
		d.kind = 0
		if err = g.rules.draft(d, seat, rnd, c); err == nil && d.kind == 0 {
			return nil, nil // the person has not chosen yet
		}
	default:
		err = fmt.Errorf("table: cannot draft %v", d.kind)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// draftKey draws the seat's round secrets for the crypto round under way:
// the secrets to store first, and the key message with its proof.
func (g *Game) draftKey(d *draft, seat int, rnd io.Reader) error {
	s, err := crypto.NewSecrets(seat, rnd)
	if err != nil {
		return err
	}
	b, err := s.MarshalBinary()
	if err != nil {
		return err
	}
	km, err := s.KeyMessage(g.rd.params, rnd)
	if err != nil {
		return err
	}
	d.secrets[g.rules.keysName(g.round, seat)] = b
	d.body, err = cryptoBody(km)
	return err
}

// asks reports whether hosted seat's envelope at seq may carry its
// person's move (the seat is entitled in the play, no violation pending,
// no complaint to post first), and whether the rules could decide it
// alone now.
func (g *Game) asks(seq uint64, seat int) (asks, alone bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.asksLocked(seq, seat)
}

func (g *Game) asksLocked(seq uint64, seat int) (bool, bool) {
	if seq != g.next || g.st != stPlay || g.halt != nil {
		return false, false
	}
	if who, kinds, err := g.turn(); err != nil || who != seat || kinds[0] == tablelog.KindRecovery {
		return false, false
	}
	if _, bad := g.complaint(seat); bad {
		return false, false
	}
	return g.rules.asks(seat)
}

// checkMove checks a person's move for seat at seq (see rules.checkMove);
// now tells whether the seat may move at all.
func (g *Game) checkMove(seq uint64, seat int, move any, now bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.rules == nil {
		return fmt.Errorf("%w: before the genesis", ErrIllegalAction)
	}
	return g.rules.checkMove(seat, move, now && seq == g.next)
}

// ownMove is the part of checkMove every game shares: move is the game's
// own action type A, the seat may move now, and the action is the seat's
// (seatOf). notTurn is the game's "not your turn".
func ownMove[A any](seat int, move any, now bool, seatOf func(A) int, notTurn error) (A, error) {
	a, ok := move.(A)
	switch {
	case !ok:
		return a, fmt.Errorf("%w: a %T where the game takes a %T", ErrIllegalAction, move, a)
	case !now:
		return a, fmt.Errorf("%w: seat %d has nothing to choose now", notTurn, seat)
	case seatOf(a) != seat:
		return a, fmt.Errorf("%w: a move for seat %d submitted by seat %d", notTurn, seatOf(a), seat)
	}
	return a, nil
}
