package table

import (
	"fmt"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// PeerView is what a UI shows of the table, whatever its game. A game's
// own view comes from its rules (Game.Njet, Game.TheGame); at a Njet table
// Game and Results hold the engine's view of the peer's seat and the
// audited rounds.
type PeerView struct {
	Game engine.View // at a Njet table, the engine's view for the peer's seat
	// Turn is the seat entitled to post next (-1 when nobody is), Kind
	// what it must post, and Since when the log last grew: "waiting for
	// seat Turn since Since".
	Turn  int
	Kind  tablelog.Kind
	Since time.Time
	// Silent is how long the log has not grown (by the peer's clock).
	Silent time.Duration
	// Present is set while the device of the seat entitled next (one the
	// table may take over) is there: it announces itself, and its person
	// may think as long as they like. Away is how long that device has
	// counted as away otherwise (gone, or refusing a step no person
	// chooses): the vote opens once it reaches Patience.
	Present bool
	Away    time.Duration
	// Heard is when this device last heard another device of the table
	// (its Presence or its vote), and Unheard how long ago that was, at a
	// table where at least two other devices play: a device that hears
	// none of several others for long is most likely the one cut off.
	// Both are zero with one other device (its silence and its leaving
	// look the same), and before any other device was heard.
	Heard   time.Time
	Unheard time.Duration
	// Results are the audited rounds of a Njet table; Violation what
	// halted the round.
	Results   []RoundResult
	Violation error
	Over      bool
	// Prompt is set while the peer's person must choose (Submit).
	Prompt *Prompt
	// ClockOuts counts the person's moves the peer's bot made since the
	// peer started, the table's clock having run out on them.
	ClockOuts int
	// CatchingUp is set while the peer, resumed, fetches what the other
	// members hold past its log before it posts again.
	CatchingUp bool
	// SecretsLost is set when this device lost its secrets for the deal
	// under way (a damaged store): its seat stays silent in that deal, and
	// the others void the round for the silence.
	SecretsLost bool
	// BotHost is -1 while the peer plays its own seat; once the table has
	// voided a round for it (silent, or caught cheating) and seated a bot
	// there, it is the seat whose peer hosts that bot, and this peer only
	// watches.
	BotHost int
	// Voided are the rounds the table voided, each with the seat at fault.
	Voided []*Violation
	// Recovered are the seats whose device left while their round went
	// on, their cards recovered from the escrow for the bot that plays
	// them now (Game.Recovered).
	Recovered []Recovery
	// Hosts names, per seat, the seat whose device plays it: itself, or
	// the host of its bot.
	Hosts []int
	// Abandoned, at a table of two, is why the game ended early (the last
	// of Voided): nobody wins, and the audited rounds' totals stand.
	Abandoned *Violation
	// Seq is the log's length: the seq the table waits for.
	Seq uint64
	// Patience is how long a seat's device may be away before a vote to
	// void the round is open; Voidable says it is open now (VoteVoid), with
	// Votes seen by this peer of at most Needed (every seat but the silent
	// one; the devices still there are enough, see docs/protocol.md), and
	// Voted when this peer's own vote is among them.
	Patience time.Duration
	Voidable bool
	Votes    int
	Needed   int
	Voted    bool
}

// Waiting describes whom the table waits for and how long, e.g.
// "waiting for seat 2 (Play) since 12:03:04 (45s)".
func (v PeerView) Waiting() string {
	switch {
	case v.Over:
		return "the game is over"
	case v.Violation != nil:
		return "halted: " + v.Violation.Error()
	case v.CatchingUp:
		return "catching up with the other devices"
	case v.Turn < 0:
		return "waiting for the log"
	}
	w := fmt.Sprintf("waiting for seat %d (%v) since %s", v.Turn, v.Kind, v.Since.Format(time.TimeOnly))
	if v.Silent >= time.Second {
		w += fmt.Sprintf(" (%v)", v.Silent.Round(time.Second))
	}
	if v.SecretsLost {
		w += "; this device lost its secrets for this round, so its seat stays silent until the table voids the round"
	}
	return w
}
