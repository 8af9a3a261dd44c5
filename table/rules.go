package table

import (
	"io"
	"math/rand/v2"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
)

// rules are what a game adds to the protocol core (Game): the cards of a
// deal, whose turn it is in the play and which kinds the seat may post,
// what a move does, what a hosted seat's player chooses, what the audit
// after the reveals checks, and what a takeover or a hand-back does to the
// round in progress. The core does everything else, alike for every game:
// genesis, acknowledgements, round keys, shuffles, the deal tokens and
// their complaints, the reveals, votes on a cheat, takeovers of devices
// gone, hand-backs, fences and guards.
//
// Every method is called with the Game's lock held, and may use the
// Game's state (the seats, the crypto round in g.rd) and its helpers
// (takeTokens, openCard, draftTokens). The rules of a game hold a pointer
// to their Game; newRules builds them at the genesis.
type rules interface {
	// traits are the game's answers to the core's few policy questions.
	traits() traits
	// deal starts the crypto round g.round: the id of its deck, its
	// number of cards, and the size of each seat's hand, dealt in seat
	// order from position 0; the rest of the deck, if any, stays for
	// later (The Game's draws).
	deal() (deckID string, cards int, hands []int)
	// keysName names the stored round secrets of a hosted seat in crypto
	// round r.
	keysName(r uint64, seat int) string
	// dealt is told that every seat has posted its deal tokens: the play
	// begins (g.st is stPlay).
	dealt() *Violation
	// entitled returns who posts next during the play, and the kinds.
	entitled() (seat int, kinds []tablelog.Kind, err error)
	// apply applies an envelope of the play; a decoded body that breaks a
	// check returns a Violation, one that does not decode an error.
	apply(env *tablelog.Envelope) (*Violation, error)
	// reveal decodes and checks a seat's Reveal; revealBody encodes the
	// Reveal of hosted seat with its round secrets.
	reveal(seat int, body []byte) (*crypto.Reveal, *Violation, error)
	revealBody(seat int, sec *crypto.Secrets) ([]byte, error)
	// audit checks the round once every seat has revealed and, when it
	// passes, records it and goes on: the next deal (g.startRound) or the
	// end (g.st = stOver).
	audit() *Violation
	// lastDeal reports whether no deal follows the one under way.
	lastDeal() bool
	// void undoes what the hidden part of the play gave away once the
	// seats of a takeover (or of a cheat voted void) have their bots: v
	// is what the log records of it. The rules deal again (g.startRound),
	// or end the game.
	void(v *Violation)
	// redealable reports whether a takeover can still deal again.
	redealable() bool
	// claimAt reports whether seat's envelope at the head may be a
	// SeatClaim instead; claimRound is the crypto round that the claim
	// posted next opens (its approvals name it); claimMark tells two
	// points of the game apart, so that a seat changes hands once at one
	// point; claimed is told that the seat changed hands.
	claimAt(seat int) bool
	claimRound() uint64
	claimMark() uint64
	claimed(seat int)
	// draft fills d (its kind too) with the play's envelope of hosted seat,
	// chosen by c; a person who has not chosen yet leaves d.kind 0.
	draft(d *draft, seat int, rnd io.Reader, c chooser) error
	// asks reports whether hosted seat's next envelope may carry its
	// person's move, and whether the rules could decide it alone now
	// (then a person need not be waited for).
	asks(seat int) (asks, alone bool)
	// checkMove checks a person's move for seat at the head: its type is
	// the game's own, and now tells whether the seat may move at all (if
	// not, the rules answer with their own "not your turn").
	checkMove(seat int, move any, now bool) error
}

// traits are the policy of a game's table where the games differ.
type traits struct {
	// cheatHalts: a cheat ends the table. Without it the others vote the
	// round void and a bot takes the cheater's seat (VoidVote, BotSeat).
	cheatHalts bool
	// abandonAtTwo: at a table of two, the other seat of a silent one
	// ends the game (Abandon) rather than take it over: a competitive
	// game never hands a seat to a bot its only opponent hosts.
	abandonAtTwo bool
	// genesisClaims: only the key the genesis gave a seat may claim it
	// back; no watcher takes a seat.
	genesisClaims bool
}

// chooser is who chooses a hosted seat's moves in a draft: its player (a
// bot), or its person, whose move may not have come yet (nil).
type chooser struct {
	player Player
	person bool
	move   any
	// strict makes a player's choice one of the legal ones; tests turn it
	// off to play cheats.
	strict bool
}

// Player chooses the moves of a seat that a peer plays with a bot. Each
// game's rules ask it through an interface of that game's own (a Njet
// player's Act takes the engine's view and legal actions, a player of The
// Game acts and gives signals); Name is the kind it was made as.
type Player interface {
	Name() string
}

// NewPlayer makes a player of a kind for one seat, drawing its choices
// from rng. A registry of games gives the one of each game (package
// games); the table imports no player.
type NewPlayer func(kind string, rng *rand.Rand) (Player, error)

// newRules builds the rules of the game a genesis names.
func newRules(g *Game) (rules, error) {
	spec, err := specOf(g.gen.Game)
	if err != nil {
		return nil, err
	}
	return spec.rules(g)
}
