package table

import (
	"fmt"
	"io"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// draft builds the body that hosted seat must post at seq at a table of
// The Game; pl chooses the seat's plays and signals. It changes no state:
// the envelope takes effect when the log applies it.
func (g *TheGame) draft(seq uint64, seat int, rnd io.Reader, pl tgbot.Player) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	who, kinds, err := g.turnLocked()
	if err != nil {
		return nil, err
	}
	if who != seat {
		return nil, fmt.Errorf("table: seat %d is not entitled at seq %d", seat, seq)
	}
	// A token to the seat did not open: its turn is taken by the
	// complaint, whatever it was to post.
	if d, err := g.draftComplaintLocked(seq, seat); d != nil || err != nil {
		return d, err
	}
	d := &draft{seq: seq, kind: kinds[0], secrets: map[string][]byte{}}
	switch d.kind {
	case KindAck:
		d.body = ackBody(g.genHash)
	case KindRoundKey:
		s, err := crypto.NewSecrets(seat, rnd)
		if err != nil {
			return nil, err
		}
		b, err := s.MarshalBinary()
		if err != nil {
			return nil, err
		}
		km, err := s.KeyMessage(g.params, rnd)
		if err != nil {
			return nil, err
		}
		d.secrets[theGameKeysName(g.round, seat)] = b
		if d.body, err = cryptoBody(km); err != nil {
			return nil, err
		}
	case KindShuffle:
		m, err := g.cr.Shuffle(seat, g.deck, rnd)
		if err != nil {
			return nil, err
		}
		if d.body, err = cryptoBody(m); err != nil {
			return nil, err
		}
	case KindDealTokens:
		sec, err := g.hostedSecrets(seat)
		if err != nil {
			return nil, err
		}
		to, pos := g.tokenOrder(seat)
		sealed := make([]*crypto.Sealed, len(to))
		for i := range to {
			if sealed[i], err = g.cr.Deal(sec, g.deck, pos[i], to[i], rnd); err != nil {
				return nil, err
			}
		}
		if d.body, err = dealBody(sealed); err != nil {
			return nil, err
		}
	case KindReveal:
		sec, err := g.hostedSecrets(seat)
		if err != nil {
			return nil, err
		}
		if d.body, err = cryptoBody(sec.Reveal()); err != nil {
			return nil, err
		}
	case KindPlay:
		if err := g.draftTurn(d, seat, rnd, pl); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("table: cannot draft %v at a table of The Game", d.kind)
	}
	return d, nil
}

func (g *TheGame) hostedSecrets(seat int) (*crypto.Secrets, error) {
	sec, ok := g.secrets[seat]
	if !ok {
		return nil, fmt.Errorf("%w: no round secrets for seat %d", ErrSecretsLost, seat)
	}
	return sec, nil
}

// draftTurn chooses the next envelope of the seat on turn. The seat knows
// its hand, so it says what the rules decide from it: Stuck when the turn
// cannot be played (G-B6, G-X2), TurnEnd when nothing more fits; otherwise
// the player plays a card, or gives its signals and ends the turn.
func (g *TheGame) draftTurn(d *draft, seat int, rnd io.Reader, pl tgbot.Player) error {
	q := g.pos
	q.Hand = g.handOf(seat)
	switch {
	case q.Played == 0 && !q.CanPlayMin(), q.Played > 0 && !q.Feasible():
		d.kind, d.body = KindStuck, emptyBody()
		return nil
	case q.Played > 0 && !q.CanPlayAny():
		d.kind, d.body = KindTurnEnd, emptyBody()
		return nil
	}
	v := g.viewLocked(seat)
	a := pl.Act(&v)
	switch a.Kind {
	case thegame.ActPlay:
		if err := q.CheckPlay(a.Card, a.Pile); err != nil {
			return fmt.Errorf("table: the player of seat %d chose %v: %w", seat, a, err)
		}
		return g.draftPlay(d, seat, a.Card, a.Pile, rnd)
	case thegame.ActEnd:
		if !q.CanEnd() {
			return fmt.Errorf("table: the player of seat %d ends a turn that may not end", seat)
		}
		if !v.Muted {
			for _, s := range pl.Talk(&v) {
				if s.Kind == thegame.ActSignal && s.Pile >= 0 && s.Pile < thegame.NumPiles && v.Signals[seat][s.Pile] != s.Signal {
					d.kind, d.body = KindSignal, signalBody(s.Pile, s.Signal)
					return nil
				}
			}
		}
		d.kind, d.body = KindTurnEnd, emptyBody()
		return nil
	}
	return fmt.Errorf("table: the player of seat %d has no move", seat)
}

// draftPlay opens card c of the seat's hand to everyone, for pile.
func (g *TheGame) draftPlay(d *draft, seat int, c thegame.Card, pile int, rnd io.Reader) error {
	sec, err := g.hostedSecrets(seat)
	if err != nil {
		return err
	}
	pos := -1
	for p, k := range g.known {
		if k == c && g.holder[p] == seat && !g.played[p] {
			pos = p
		}
	}
	if pos < 0 {
		return fmt.Errorf("table: seat %d holds %s at no position", seat, c)
	}
	m, err := g.cr.Play(sec, g.deck, pos, g.openings[pos], rnd)
	if err != nil {
		return err
	}
	d.kind = KindPlay
	d.body, err = playBody(pile, m)
	return err
}
