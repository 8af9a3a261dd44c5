package table

import (
	"fmt"

	"github.com/njetlan/njet/crypto"
)

// A sealed token that does not open, at a table of The Game
// (docs/protocol.md, "A sealed token that does not open"). A deal token of
// a starting hand and a draw token are both sealed to one seat (crypto
// SealDeal), so only that seat sees that one does not open. Its game notes
// the first such token and follows the table without that card; at the
// seat's next entitled moment, whatever it was to post, it posts a
// Complaint with its round secrets instead. Every log re-opens the token
// with them (judgeComplaint, shared with Njet) and halts the table naming
// the sender, or the complainer if the token opens.
//
// The next entitled moment, not the next seq: a Complaint at another
// seat's seq would race that seat's envelope, and the log lets one seat
// post at a time. Waiting is safe because nothing between needs the
// recipient's hand but its own turn, which is itself such a moment, and
// the moment always comes: a seat that holds cards is on turn again, or
// gives tokens for another seat's draw before, or the game ends first and
// the seat is due to reveal, where a Complaint takes the reveal's place.
// A takeover before it forgets the token with the round it voids.

// complainable reports whether the seat entitled now may post a Complaint
// instead of what it was to post: at a table of two seats or more, with no
// violation, from the deal of the round to the last reveal. Nobody else
// can tell whether the seat received a bad token, so every entitled seat
// may, as at a Njet table.
func (g *TheGame) complainable() bool {
	return g.gen != nil && g.halt == nil && g.n > 1 && g.cr != nil && g.st >= stDeal && g.st <= stReveal
}

// complaint returns the index in the round's sealed tokens of the first
// one to hosted seat that did not open, when the seat may complain now.
func (g *TheGame) complaint(seat int) (int, bool) {
	if !g.complainable() {
		return 0, false
	}
	i, bad := g.bad[seat]
	return i, bad
}

// noteBad records that the sealed token at index i of the round's tokens,
// addressed to hosted seat s, did not open; the first one stands.
func (g *TheGame) noteBad(s, i int) {
	if _, ok := g.bad[s]; !ok {
		g.bad[s] = i
	}
}

// opensFor reports whether the peer opens the cards dealt or drawn to
// seat s: it hosts the seat and no token to it has failed.
func (g *TheGame) opensFor(s int) (*crypto.Secrets, bool) {
	sec, hosted := g.secrets[s]
	_, bad := g.bad[s]
	return sec, hosted && !bad
}

// draftComplaintLocked builds the Complaint of hosted seat at seq, or
// returns nil when the seat has none to post; g.mu is held.
func (g *TheGame) draftComplaintLocked(seq uint64, seat int) (*draft, error) {
	i, bad := g.complaint(seat)
	if !bad {
		return nil, nil
	}
	sec, err := g.hostedSecrets(seat)
	if err != nil {
		return nil, err
	}
	return draftComplaint(seq, sec, &g.sealed[i])
}

// applyComplaint checks the author's complaint that a sealed token to it
// does not open, as at a Njet table: the token is re-opened with the round
// secrets the complaint reveals. The table halts either way, naming the
// sender of a token that does not open, or the complainer.
func (g *TheGame) applyComplaint(seat int, body []byte) (*Violation, error) {
	c, err := parseComplaint(body)
	if err != nil {
		return nil, err
	}
	if !g.complainable() {
		return nil, fmt.Errorf("%w: a complaint outside the round's deal and play", ErrMalformed)
	}
	return judgeComplaint(g.cr, g.deck, g.sealed, seat, c)
}
