package tablelog

import "strconv"

// Kind says what an envelope's body is. The enum is append-only: a number,
// once given a meaning, keeps it forever, and 0 is never valid. The bodies
// (except where docs/protocol.md says otherwise) are defined by the protocol
// layer.
type Kind uint8

// The kinds. docs/protocol.md describes each.
const (
	// KindGenesis is the table's setup (seats and their keys, characters,
	// edition, first dealer), signed by the creator at seq 0.
	KindGenesis Kind = 1
	// KindAck is a seated player's acknowledgement of the genesis.
	KindAck Kind = 2
	// KindRoundKey is a seat's per-round public key with its proof of
	// knowledge.
	KindRoundKey Kind = 3
	// KindShuffle is one seat's re-randomised, permuted deck with the proof
	// of a correct shuffle.
	KindShuffle Kind = 4
	// KindDealTokens is one seat's decryption tokens for the positions dealt
	// to the other seats, encrypted to each recipient, with proofs.
	KindDealTokens Kind = 5
	// KindBlock is a block placed on the Njet board.
	KindBlock Kind = 6
	// KindTeam is a team choice.
	KindTeam Kind = 7
	// KindDiscardCommit is a hidden commitment to a discard.
	KindDiscardCommit Kind = 8
	// KindPassCommit is a hidden commitment to a passed card, with what the
	// neighbour needs to open it.
	KindPassCommit Kind = 9
	// KindPlay is a card played to a trick, with every token that opens it.
	KindPlay Kind = 10
	// KindReveal is a seat's post-round reveal: discard openings and its
	// round secrets, so anyone can re-run every check.
	KindReveal Kind = 11
	// KindVoidVote is a seat's vote to void the round (after a fault or a
	// proven cheat).
	KindVoidVote Kind = 12
	// KindBotSeat puts a bot in a seat for the rest of the game, naming the
	// hosting peer and the bot's key.
	KindBotSeat Kind = 13
	// KindVoidSilent voids the round of a seat that stays silent: posted
	// by the decider in the silent seat's place, with the other seats'
	// signed votes as its certificate, it puts a bot hosted by the decider
	// in the silent seat for the rest of the game.
	KindVoidSilent Kind = 14
	// KindAbandon ends the game of a two-seat table whose other seat stays
	// silent: with one opponent left, no seat is ever handed to a bot its
	// opponent hosts. It names the silent seat and decides no winner.
	KindAbandon Kind = 15
	// KindComplaint is a seat's complaint that a sealed message addressed to
	// it does not open: it names the message and reveals the seat's round
	// secrets, so that every log re-opens the message and names either its
	// sender or, if it opens, the complainer.
	KindComplaint Kind = 16
	// KindSeatClaim hands a bot-played seat to a claimant's key at the
	// start of a deal: the device that played it before the table took it
	// over, back again, or a watcher. The bot's host posts it at the bot's
	// key turn, with the claimant's signed request and the approval of
	// every seat still played by its own device.
	KindSeatClaim Kind = 17
	// KindSignal is a seat's signal on a pile at a table of The Game.
	KindSignal Kind = 18
	// KindTurnEnd ends the turn of the seat on turn at a table of The
	// Game.
	KindTurnEnd Kind = 19
	// KindStuck is posted by the seat on turn at a table of The Game when
	// its hand cannot complete the turn: the game ends (the reveals after
	// it prove the hand).
	KindStuck Kind = 20
	// KindRecovery is a seat's part of the recovery of a seat whose device
	// is gone during the tricks of a Njet deal with an escrow: its
	// decryption token and its recovery token for each position the gone
	// seat still holds, sealed to the device that now plays the seat.
	KindRecovery Kind = 21
	// KindRecoveredPlay is a card of a recovered seat played to a trick by
	// the device that now plays it: every other seat's token and recovery
	// token for the position, which everyone checks.
	KindRecoveredPlay Kind = 22
	// KindEquivocation is the evidence that a seat signed two different
	// envelopes at one seq with the same previous envelope, posted at
	// that seq in the equivocator's place by any other seat: the round is
	// voided and the equivocator's seat handled as a cheater's.
	KindEquivocation Kind = 23

	// kindEnd is one past the last kind; append new kinds above it.
	kindEnd Kind = 24
)

var kindNames = [...]string{
	KindGenesis:       "Genesis",
	KindAck:           "Ack",
	KindRoundKey:      "RoundKey",
	KindShuffle:       "Shuffle",
	KindDealTokens:    "DealTokens",
	KindBlock:         "Block",
	KindTeam:          "Team",
	KindDiscardCommit: "DiscardCommit",
	KindPassCommit:    "PassCommit",
	KindPlay:          "Play",
	KindReveal:        "Reveal",
	KindVoidVote:      "VoidVote",
	KindBotSeat:       "BotSeat",
	KindVoidSilent:    "VoidSilent",
	KindAbandon:       "Abandon",
	KindComplaint:     "Complaint",
	KindSeatClaim:     "SeatClaim",
	KindSignal:        "Signal",
	KindTurnEnd:       "TurnEnd",
	KindStuck:         "Stuck",
	KindRecovery:      "Recovery",
	KindRecoveredPlay: "RecoveredPlay",
	KindEquivocation:  "Equivocation",
}

// Valid reports whether k is a kind this code knows.
func (k Kind) Valid() bool { return k > 0 && k < kindEnd }

// String returns the kind's name, or "Kind(n)" for an unknown number.
func (k Kind) String() string {
	if k.Valid() {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}
