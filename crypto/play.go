package crypto

import "io"

// PlayMessage opens a position for everyone: the holder publishes every
// seat's token for it, its own with a fresh proof and the others with the
// salts that open their sealed deals.
type PlayMessage struct {
	Seat     int
	Position int
	Openings []Opening // one per seat, in seat order
}

// Play builds the message with which holder s plays position pos, from the
// openings it received (OpenDeal or OpenForward).
func (r *Round) Play(s *Secrets, deck Deck, pos int, openings []Opening, rand io.Reader) (*PlayMessage, error) {
	all, err := r.fullSet(s, deck, pos, openings, rand)
	if err != nil {
		return nil, err
	}
	return &PlayMessage{Seat: s.seat, Position: pos, Openings: all}, nil
}

// VerifyPlay checks a play against the deck and the sealed messages of the
// round so far, and returns the card played. Failures name m.Seat.
func (r *Round) VerifyPlay(deck Deck, m *PlayMessage, log []Sealed) (int, error) {
	if m.Seat < 0 || m.Seat >= r.params.Parties {
		return 0, cheat(m.Seat, CheckParams, "seat %d at a table of %d", m.Seat, r.params.Parties)
	}
	if m.Position < 0 || m.Position >= r.params.Cards {
		return 0, cheat(m.Seat, CheckParams, "position %d", m.Position)
	}
	return r.checkOpenings(deck, m.Position, m.Seat, m.Openings, log)
}

const playMaxLen = 2 + 3 + MaxParties*openingLen

func (m *PlayMessage) wire(c codec) {
	c.seat(&m.Seat)
	c.bounded(&m.Position, "position", 0, MaxCards-1)
	list(c, &m.Openings, "token count", MinParties, MaxParties, (*Opening).wire)
}

// MarshalBinary encodes the message.
func (m *PlayMessage) MarshalBinary() ([]byte, error) {
	if len(m.Openings) < MinParties || len(m.Openings) > MaxParties {
		return nil, usageError("%d openings", len(m.Openings))
	}
	return encode(kindPlay, playMaxLen, m.wire), nil
}

// UnmarshalBinary decodes a message strictly.
func (m *PlayMessage) UnmarshalBinary(b []byte) error {
	return decodeInto(m, kindPlay, b, playMaxLen, (*PlayMessage).wire)
}
