package table

import (
	"fmt"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// The Complaint, alike at every game's table (docs/protocol.md,
// "Complaint: a bad sealed message names its sender"). A sealed message (a
// deal token, a draw token of The Game, a Njet forward) can be checked by
// its recipient alone. The recipient answers one that does not open with a Complaint at
// its own next turn, carrying its round secrets, so that every log can
// re-open the message and name whoever is at fault: the sender if it does
// not open, the complainer if it does.

// draftComplaint builds the Complaint a hosted seat with secrets sec posts
// about the sealed message m addressed to it.
func draftComplaint(seq uint64, sec *crypto.Secrets, m *crypto.Sealed) (*draft, error) {
	body, err := complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: sec.Reveal()})
	if err != nil {
		return nil, err
	}
	return &draft{seq: seq, kind: tablelog.KindComplaint, body: body, secrets: map[string][]byte{}}, nil
}

// judgeComplaint re-opens the sealed message that seat complains of, with
// the round secrets the complaint reveals, among the round's sealed
// messages in log order. A complaint that names no message addressed to
// its author is refused (ErrMalformed). Otherwise it returns the
// violation that halts the table: the complainer's when the secrets are
// not its own or do not match its round key, the sender's (the check that
// failed: ciphertext, commitment, token proof, …) when the message does
// not open, and the complainer's (CheckComplaint, ErrFalseComplaint) when
// it opens.
func judgeComplaint(rd *cryptoRound, seat int, c *complaint) (*Violation, error) {
	cr, deck, sealed := rd.cr, rd.deck, rd.sealed
	i := slices.IndexFunc(sealed, func(m crypto.Sealed) bool {
		return m.Kind == c.kind && m.From == c.from && m.To == seat && m.Position == c.pos
	})
	if i < 0 {
		return nil, fmt.Errorf("%w: seat %d complains of no sealed message it received (kind %d from seat %d, position %d)",
			tablelog.ErrMalformed, seat, c.kind, c.from, c.pos)
	}
	if c.reveal.Seat != seat {
		return violation(seat, CheckStructure, "a complaint with the secrets of seat %d", c.reveal.Seat), nil
	}
	sec, err := cr.Secrets(c.reveal)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	m := &sealed[i]
	switch m.Kind {
	case crypto.SealDeal:
		_, err = cr.OpenDeal(sec, deck, m)
	case crypto.SealEscrow:
		_, err = cr.OpenEscrow(sec, rd.escrows[m.From])
	case crypto.SealRecovery:
		_, err = cr.OpenRecovery(sec, rd.escrows[rd.gone], deck, m)
	default:
		_, _, err = cr.OpenForward(sec, deck, m, sealed[:i])
	}
	if err != nil {
		v := cryptoViolation(m.From, err)
		v.Err = fmt.Errorf("on the complaint of seat %d: %w", seat, v.Err)
		return v, nil
	}
	return violation(seat, CheckComplaint, "%w: the sealed message from seat %d for position %d",
		ErrFalseComplaint, m.From, m.Position), nil
}
