package table

import (
	"fmt"
	"io"
)

// Verification is the outcome of Verify: the table's setup and every
// audited round.
type Verification struct {
	Table   TableID
	Genesis *Genesis
	Results []RoundResult
	// Envelopes is the length of the log; Over tells whether the game ended.
	Envelopes int
	Over      bool
	// Voided are the violations whose rounds the table voided (and whose
	// seats it gave to bots); the log holds them as evidence.
	Voided []*Violation
	// Abandoned is why a two-seat game ended early, or nil (see
	// Game.Abandoned); it is also listed in Voided.
	Abandoned *Violation
}

// Verify re-checks an exported log offline, as an observer: the file's
// framing and digest, the genesis against the table id, and then every
// envelope through a Log and a Game with no secrets — entitlement,
// signatures, the chain, every proof, every rule and, at each round's end,
// the full audit (crypto.Audit and the engine's audit of discards, passes,
// reneges and scores). It returns the rounds verified and the first
// failure, if any: an error wrapping a Log sentinel, or a *Violation naming
// the seat and the check that the log leaves unresolved (a violation the
// table voided is reported in Voided instead).
func Verify(r io.Reader) (*Verification, error) {
	table, envs, err := ReadExport(r)
	if err != nil {
		return nil, err
	}
	v := &Verification{Table: table}
	if envs[0].Kind != KindGenesis {
		return v, fmt.Errorf("%w: the log does not start with a genesis", ErrCorrupt)
	}
	gen, err := ParseGenesis(envs[0].Body)
	if err != nil {
		return v, err
	}
	if TableIDOf(envs[0].Body) != table {
		return v, fmt.Errorf("%w: the genesis does not hash to the table id", ErrWrongTable)
	}
	v.Genesis = gen
	game := NewGame(GameConfig{Table: table, Creator: gen.Keys[0]})
	log, err := NewLog(LogConfig{Table: table, Protocol: game})
	if err != nil {
		return v, err
	}
	for _, e := range envs {
		_, err := log.Append(e)
		v.Results = game.Results()
		if err != nil {
			return v, fmt.Errorf("seq %d (%v by seat %d): %w", e.Seq, e.Kind, e.Author, err)
		}
		v.Envelopes++
	}
	v.Over, v.Voided, v.Abandoned = game.Over(), game.Voided(), game.Abandoned()
	if viol := game.Violation(); viol != nil {
		return v, viol
	}
	return v, nil
}
