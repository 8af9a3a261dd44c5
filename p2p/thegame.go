package p2p

import (
	"fmt"
	"time"

	"github.com/njetlan/njet/table"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// addTheGame builds the local seats of a table of The Game: a
// table.TheGamePeer per seat, each over its own Endpoint. A person's seat
// (Human) posts the moves its person submits (table.TheGamePeer.Submit);
// a bot plays every other seat, and a seat whose Bot is not a kind of
// thegame/bot (a Njet kind, as a device that joined without knowing the
// game passes) is played by "coop" rather than left silent, which would
// stall the table. The seats watch for silence as a Njet table's bots do
// (Patience, VoidAfter, Grace): a device gone for good is taken over.
func (s *Session) addTheGame(gen *table.Genesis) error {
	for _, ls := range s.cfg.Seats {
		if ls.Seat < 0 || ls.Seat >= len(gen.Keys) {
			return fmt.Errorf("p2p: no seat %d", ls.Seat)
		}
		kind := theGameKind(ls.Bot, ls.Human)
		ep, err := s.tbl.Transport()
		if err != nil {
			return err
		}
		s.eps = append(s.eps, ep)
		tick := time.NewTicker(s.cfg.Tick)
		s.ticks = append(s.ticks, tick)
		var genesis *table.Envelope
		if ls.Seat == 0 {
			genesis = s.cfg.Setup.Genesis
		}
		p, err := table.NewTheGamePeer(table.TheGamePeerConfig{Table: s.tbl.id, Creator: gen.Keys[0], Genesis: genesis,
			Seat: ls.Seat, Key: ls.Key, Store: s.cfg.Store, Transport: ep, Peers: s.tbl.Members(ls.Seat), Bot: kind,
			Person: ls.Human, Tick: tick.C, Logf: s.cfg.Logf, Patience: s.cfg.Patience, VoidAfter: s.cfg.VoidAfter, Grace: s.cfg.Grace})
		if err != nil {
			return err
		}
		s.games[ls.Seat] = p
	}
	return nil
}

// TheGamePeer returns the peer of a local seat at a table of The Game, or
// nil.
func (s *Session) TheGamePeer(seat int) *table.TheGamePeer { return s.games[seat] }

// theGameKind is the bot of The Game that plays a seat asked for with a
// Njet bot kind (a device, or the app's strengths, choose by those): the
// random bot's seat gets the greedy one, the stronger kinds the
// cooperative one; a kind of thegame/bot stays itself, and a person's seat
// (whose bot moves only for the protocol's steps) or an unknown kind gets
// "coop".
func theGameKind(kind string, human bool) string {
	switch {
	case human:
		return "coop"
	case kind == "random":
		return "greedy"
	}
	if _, err := tgbot.New(kind, true); err != nil {
		return "coop"
	}
	return kind
}
