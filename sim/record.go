package sim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/njetlan/njet/engine"
)

// ErrRecord is wrapped by every error about a malformed or inconsistent
// game record.
var ErrRecord = errors.New("sim: bad game record")

// Record is one round of one game in the public record format
// (docs/record.md). The field order is the key order on the wire.
type Record struct {
	Game       int           `json:"game"`
	Round      int           `json:"round"`
	Edition    string        `json:"edition"`
	Players    int           `json:"players"`
	Dealer     int           `json:"dealer"`
	Characters []string      `json:"characters"`
	Hands      [][]string    `json:"hands"`
	Unused     []string      `json:"unused"`
	Blocks     []RecordBlock `json:"blocks"`
	Rules      RecordRules   `json:"rules"`
	Teams      [][]int       `json:"teams"`
	Bonus      *int          `json:"bonus"`
	Discards   [][]string    `json:"discards"`
	Passes     []*string     `json:"passes"`
	Tricks     []RecordTrick `json:"tricks"`
	Score      RecordScore   `json:"score"`
	Totals     []int         `json:"totals"`
	// Target is the score that ends the game after the round in which a
	// seat's total reaches it; 0 (no key) when the game has a fixed number
	// of rounds.
	Target int `json:"target,omitempty"`
	// HouseRules names the rules the game follows that its edition's rule
	// sheet does not have (see HouseRuleTarget); no key when none.
	HouseRules []string `json:"houseRules,omitempty"`
	// Variant says how long the game lasts: VariantWhole, VariantShort or
	// VariantTarget. Records written before the key existed have none.
	Variant string `json:"variant,omitempty"`
	// Rounds is the number of rounds of a game of fixed length (whole or
	// short); no key in the target variant.
	Rounds int `json:"rounds,omitempty"`
	// Over is true on the round that ended the game, and only there: a
	// game whose records stop without it was cut short.
	Over bool `json:"over,omitempty"`
}

// The variants of Record.Variant.
const (
	VariantWhole  = "whole"  // the edition's full number of rounds
	VariantShort  = "short"  // the Classic short game
	VariantTarget = "target" // until a seat's total reaches Record.Target
)

// variantOf names the variant of a game under cfg.
func variantOf(cfg engine.Config) string {
	switch {
	case cfg.Target > 0:
		return VariantTarget
	case cfg.Short:
		return VariantShort
	}
	return VariantWhole
}

// HouseRuleTarget names, in Record.HouseRules, a Classic game played to a
// target score: only the Modern rules have that variant, so for Classic
// it is a house rule.
const HouseRuleTarget = "target"

// houseRules are the house rules of a game under cfg.
func houseRules(cfg engine.Config) []string {
	if cfg.Edition == engine.Classic && cfg.Target > 0 {
		return []string{HouseRuleTarget}
	}
	return nil
}

// RecordBlock is one Njet marker, in the order placed.
type RecordBlock struct {
	Seat  int    `json:"seat"`
	Row   string `json:"row"`
	Field string `json:"field"`
}

// RecordRules are the free fields at the end of the Njet phase.
type RecordRules struct {
	Start     string `json:"start"`
	StartSeat int    `json:"startSeat"`
	Discard   string `json:"discard"`
	Trump     string `json:"trump"`
	Super     string `json:"super"`
	Points    int    `json:"points"`
}

// RecordTrick is one trick in play order.
type RecordTrick struct {
	Leader int          `json:"leader"`
	Plays  []RecordPlay `json:"plays"`
	Winner int          `json:"winner"`
	Loot   []string     `json:"loot"`
}

// RecordPlay is one card played into a trick.
type RecordPlay struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// RecordScore is the result of the round.
type RecordScore struct {
	Tricks [2]int `json:"tricks"` // per team, the start player's team first
	Loot   [2]int `json:"loot"`   // per team
	Points []int  `json:"points"` // per seat, after doubling
}

// cardNames returns the record names of the cards of h, never nil.
func cardNames(e engine.Edition, h engine.Hand) []string {
	out := []string{}
	for _, c := range h.Cards(e) {
		out = append(out, c.String())
	}
	return out
}

// NewRecord builds the record of a finished round from the engine's history
// of it. cfg is the game's configuration. Every hand must be known.
func NewRecord(game int, cfg engine.Config, h engine.RoundHistory) (Record, error) {
	e, n := cfg.Edition, cfg.Players
	if len(h.Dealt) != n || len(h.Known) != n || len(h.Score.Points) != n || len(h.Totals) != n {
		return Record{}, fmt.Errorf("%w: round %d: history is not of %d seats", ErrRecord, h.Round, n)
	}
	chars := cfg.Characters
	if len(chars) != n {
		chars = e.Characters()[:n]
	}
	rec := Record{
		Game:       game,
		Round:      h.Round,
		Edition:    e.String(),
		Players:    n,
		Dealer:     h.Dealer,
		Characters: make([]string, n),
		Hands:      make([][]string, n),
		Unused:     cardNames(e, h.Unused),
		Blocks:     make([]RecordBlock, 0, len(h.Blocks)),
		Rules: RecordRules{
			Start:     h.Rules.Start.String(),
			StartSeat: h.Rules.StartSeat,
			Discard:   e.FieldName(engine.RowDiscard, h.Rules.Discard),
			Trump:     h.Rules.Trump.String(),
			Super:     "njet",
			Points:    h.Rules.Points,
		},
		Teams:    [][]int{append([]int{}, h.Teams[0]...), append([]int{}, h.Teams[1]...)},
		Discards: make([][]string, n),
		Passes:   make([]*string, n),
		Tricks:   make([]RecordTrick, 0, len(h.Tricks)),
		Score: RecordScore{
			Tricks: h.Score.Tricks,
			Loot:   h.Score.Loot,
			Points: append([]int{}, h.Score.Points...),
		},
		Totals:     append([]int{}, h.Totals...),
		Target:     max(cfg.Target, 0),
		HouseRules: houseRules(cfg),
		Variant:    variantOf(cfg),
		Rounds:     cfg.Rounds(),
	}
	rec.Over = rec.Rounds > 0 && h.Round >= rec.Rounds
	for _, t := range h.Totals {
		rec.Over = rec.Over || cfg.Target > 0 && t >= cfg.Target
	}
	if h.Rules.Super != engine.NoColour {
		rec.Rules.Super = h.Rules.Super.String()
	}
	if h.Bonus >= 0 {
		b := h.Bonus
		rec.Bonus = &b
	}
	for s := 0; s < n; s++ {
		if !h.Known[s] {
			return Record{}, fmt.Errorf("%w: round %d: the hand of seat %d is unknown", ErrRecord, h.Round, s)
		}
		rec.Characters[s] = chars[s].String()
		rec.Hands[s] = cardNames(e, h.Dealt[s])
		rec.Discards[s] = []string{}
		if s < len(h.Discards) {
			rec.Discards[s] = cardNames(e, h.Discards[s])
		}
		if s < len(h.Passes) && h.Passes[s] != engine.NoCard {
			name := h.Passes[s].String()
			rec.Passes[s] = &name
		}
	}
	for _, b := range h.Blocks {
		rec.Blocks = append(rec.Blocks, RecordBlock{Seat: b.Seat, Row: b.Row.String(), Field: e.FieldName(b.Row, b.Field)})
	}
	for _, t := range h.Tricks {
		rt := RecordTrick{Leader: t.Leader, Plays: make([]RecordPlay, 0, len(t.Plays)), Winner: t.Winner, Loot: []string{}}
		for _, p := range t.Plays {
			rt.Plays = append(rt.Plays, RecordPlay{Seat: p.Seat, Card: p.Card.String()})
		}
		for _, c := range t.Loot {
			rt.Loot = append(rt.Loot, c.String())
		}
		rec.Tricks = append(rec.Tricks, rt)
	}
	return rec, nil
}

// maxRecordLine bounds one record line; a Modern 5-player round is about 4 KB.
const maxRecordLine = 1 << 20

// ReadRecords parses records, one JSON object per line; blank lines are
// skipped. Unknown keys are ignored (docs/record.md, versioning), missing
// keys are not.
func ReadRecords(r io.Reader) ([]Record, error) {
	var recs []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxRecordLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(b, &keys); err != nil {
			return recs, fmt.Errorf("%w: line %d: %v", ErrRecord, line, err)
		}
		for _, k := range recordKeys {
			if _, ok := keys[k]; !ok {
				return recs, fmt.Errorf("%w: line %d: no key %q", ErrRecord, line, k)
			}
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return recs, fmt.Errorf("%w: line %d: %v", ErrRecord, line, err)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return recs, fmt.Errorf("%w: %v", ErrRecord, err)
	}
	return recs, nil
}

// recordKeys are the keys every record has, in order.
var recordKeys = []string{"game", "round", "edition", "players", "dealer", "characters", "hands", "unused",
	"blocks", "rules", "teams", "bonus", "discards", "passes", "tricks", "score", "totals"}

// checkHouseRules checks a record's target and house rules: a Classic game
// played to a target lists the house rule and no other game lists it, and
// a game keeps its target from round to round. Records without either key
// (a game of fixed length, or written before the keys existed) pass.
func checkHouseRules(rec *Record, e engine.Edition, prev *Record) error {
	if rec.Target < 0 {
		return fmt.Errorf("target %d", rec.Target)
	}
	if prev != nil && prev.Target != rec.Target {
		return fmt.Errorf("the target changes from %d to %d between rounds", prev.Target, rec.Target)
	}
	want := houseRules(engine.Config{Edition: e, Target: rec.Target})
	for _, name := range rec.HouseRules {
		if name != HouseRuleTarget {
			return fmt.Errorf("unknown house rule %q", name)
		}
	}
	if len(rec.HouseRules) != len(want) {
		if len(want) > 0 {
			return fmt.Errorf("a %s game played to %d does not list the house rule %q", e, rec.Target, HouseRuleTarget)
		}
		return fmt.Errorf("house rules %q in a %s game with target %d", rec.HouseRules, e, rec.Target)
	}
	return nil
}

// checkVariant checks a record's variant, its number of rounds and its end
// mark: the variant fits the edition and the target, the number of rounds
// is the one the rules give it, neither changes between rounds, no round
// follows the one marked over, and the mark is on the round that ended the
// game. Records without a variant (written before the key existed) carry
// neither a number of rounds nor a mark.
func checkVariant(rec *Record, e engine.Edition, prev *Record) error {
	if prev != nil && prev.Over {
		return fmt.Errorf("a round after the game ended in round %d", prev.Round)
	}
	if prev != nil && (prev.Variant != rec.Variant || prev.Rounds != rec.Rounds) {
		return fmt.Errorf("the variant changes from %q (%d rounds) to %q (%d rounds) between rounds", prev.Variant, prev.Rounds, rec.Variant, rec.Rounds)
	}
	cfg := engine.Config{Edition: e, Players: rec.Players, Target: rec.Target}
	switch rec.Variant {
	case "":
		if rec.Rounds != 0 || rec.Over {
			return errors.New("a number of rounds or an end mark without a variant")
		}
		return nil
	case VariantWhole:
	case VariantShort:
		if e != engine.Classic {
			return fmt.Errorf("the short game in the %s edition (only Classic has it)", e)
		}
		cfg.Short = true
	case VariantTarget:
	default:
		return fmt.Errorf("unknown variant %q", rec.Variant)
	}
	if (rec.Variant == VariantTarget) != (rec.Target > 0) {
		return fmt.Errorf("variant %q with target %d", rec.Variant, rec.Target)
	}
	if want := cfg.Rounds(); rec.Rounds != want {
		return fmt.Errorf("a %s game of %d players in the %s variant has %d rounds, the record says %d", e, rec.Players, rec.Variant, want, rec.Rounds)
	}
	if rec.Rounds > 0 && rec.Round > rec.Rounds {
		return fmt.Errorf("round %d of a game of %d rounds", rec.Round, rec.Rounds)
	}
	over := rec.Rounds > 0 && rec.Round == rec.Rounds
	for _, t := range rec.Totals {
		over = over || rec.Target > 0 && t >= rec.Target
	}
	if over != rec.Over {
		if over {
			return errors.New("the game ended with this round but the record is not marked over")
		}
		return errors.New("marked over, but the game goes on after this round")
	}
	return nil
}

// UnfinishedGames lists, in order, the games of recs whose records stop
// before the game ended: the last record of the game has a variant but is
// not marked over. Games written before records had a variant cannot be
// told apart and are not listed.
func UnfinishedGames(recs []Record) []int {
	var games []int
	for i := range recs {
		last := i+1 == len(recs) || recs[i+1].Game != recs[i].Game
		if last && recs[i].Variant != "" && !recs[i].Over {
			games = append(games, recs[i].Game)
		}
	}
	return games
}
