package table

import (
	"fmt"
	"io"

	"github.com/njetlan/njet/tablelog"
)

// Verification is the outcome of Verify: the table's setup and every
// audited round.
type Verification struct {
	Table   tablelog.TableID
	Genesis *Genesis
	Results []RoundResult
	// Envelopes is the length of the log; Over tells whether the game ended.
	Envelopes int
	Over      bool
	// Voided are the violations whose rounds the table voided (and whose
	// seats it gave to bots); the log holds them as evidence.
	Voided []*Violation
	// Recovered are the takeovers that kept their round: the seat's
	// cards recovered from its escrow and played on by a bot (see
	// Game.Recovered). They void nothing, so they are not in Voided.
	Recovered []Recovery
	// Abandoned is why a two-seat game ended early, or nil (see
	// Game.Abandoned); it is also listed in Voided.
	Abandoned *Violation
	// HandedBack are the seats the table handed from a bot to a claimant
	// (SeatClaim), in order.
	HandedBack []HandBack
	// TheGame is the audited result of a table of The Game (see
	// TheGame.Result), nil for Njet or before the reveals.
	TheGame *TheGameResult
	// Unverified, at a table of The Game that ended without its audit
	// because a seat stayed silent at its reveal, names that seat (see
	// TheGame.Unverified); Claimed is then the public result, not
	// audited, and TheGame is nil.
	Unverified *Violation
	Claimed    *TheGameResult
}

// Verify re-checks an exported log offline, as an observer: the file's
// framing and digest, the genesis against the table id, and then every
// envelope through a Log and a Game with no secrets — entitlement,
// signatures, the chain, every proof, every rule of the game the genesis
// names and, after the reveals, the full audit (at a Njet table
// crypto.Audit and the engine's audit of discards, passes, reneges and
// scores each round; at a table of The Game crypto.Audit and the replay of
// the whole game). It returns the rounds verified and the first
// failure, if any: an error wrapping a Log sentinel, or a *Violation naming
// the seat and the check that the log leaves unresolved (a violation the
// table voided is reported in Voided instead).
func Verify(r io.Reader) (*Verification, error) { return VerifyReader(r, nil) }

// VerifyReader is Verify reading the file as a stream: each envelope is
// checked as soon as it is read (its signature and the rules before the
// next one is read), so the first failure is reported without reading the
// rest, and memory stays bounded by the game, not by the file. The digest,
// which covers the whole file, is checked at the end. progress, if not
// nil, is called after each envelope with the envelopes and bytes read so
// far; it should return quickly.
func VerifyReader(r io.Reader, progress func(envelopes, bytes int64)) (*Verification, error) {
	x, err := tablelog.NewExportReader(r)
	if err != nil {
		return nil, err
	}
	table := x.Table()
	v := &Verification{Table: table}
	var game *Game
	var log *tablelog.Log
	for {
		e, err := x.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return v, err
		}
		if log == nil {
			if game, log, err = verifyGenesis(v, e); err != nil {
				return v, err
			}
		}
		_, err = log.Append(e)
		v.Results = game.Njet().Results()
		if err != nil {
			return v, fmt.Errorf("seq %d (%v by seat %d): %w", e.Seq, e.Kind, e.Author, err)
		}
		v.Envelopes++
		if progress != nil {
			progress(int64(v.Envelopes), x.Bytes())
		}
	}
	if game == nil {
		return v, fmt.Errorf("%w: an export without envelopes", tablelog.ErrCorrupt)
	}
	v.Over, v.Voided, v.Abandoned = game.Over(), game.Voided(), game.Abandoned()
	v.HandedBack, v.Recovered = game.HandedBack(), game.Recovered()
	if tg := game.TheGame(); tg != nil {
		if r, ok := tg.Result(); ok {
			v.TheGame = &r
		}
		if w := tg.Unverified(); w != nil {
			v.Unverified = w
			if r, ok := tg.Claimed(); ok {
				v.Claimed = &r
			}
		}
	}
	if viol := game.Violation(); viol != nil {
		return v, viol
	}
	return v, nil
}

// verifyGenesis checks the first envelope of an export against its table
// id and returns the observer's Game and Log.
func verifyGenesis(v *Verification, e *tablelog.Envelope) (*Game, *tablelog.Log, error) {
	if e.Kind != tablelog.KindGenesis {
		return nil, nil, fmt.Errorf("%w: the log does not start with a genesis", tablelog.ErrCorrupt)
	}
	gen, err := ParseGenesis(e.Body)
	if err != nil {
		return nil, nil, err
	}
	if TableIDOf(e.Body) != v.Table {
		return nil, nil, fmt.Errorf("%w: the genesis does not hash to the table id", tablelog.ErrWrongTable)
	}
	v.Genesis = gen
	game := NewGame(GameConfig{Table: v.Table, Creator: gen.Keys[0]})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: v.Table, Protocol: game})
	if err != nil {
		return nil, nil, err
	}
	return game, log, nil
}
