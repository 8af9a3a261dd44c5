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

// MarshalBinary encodes the message.
func (m *PlayMessage) MarshalBinary() ([]byte, error) {
	if len(m.Openings) < MinParties || len(m.Openings) > MaxParties {
		return nil, usageError("%d openings", len(m.Openings))
	}
	e := newEncoder(kindPlay, playMaxLen)
	e.u8(m.Seat)
	e.u8(m.Position)
	encodeOpenings(e, m.Openings)
	return e.bytes(), nil
}

// UnmarshalBinary decodes a message strictly.
func (m *PlayMessage) UnmarshalBinary(b []byte) error {
	d := newDecoder(kindPlay, b, playMaxLen)
	var q PlayMessage
	q.Seat = d.readSeat()
	q.Position = d.bounded("position", 0, MaxCards-1)
	q.Openings = decodeOpenings[Opening](d, "token count", MinParties, MaxParties)
	if err := d.finish(); err != nil {
		return err
	}
	*m = q
	return nil
}
