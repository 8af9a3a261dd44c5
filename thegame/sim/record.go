package sim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/njetlan/njet/thegame"
)

// RecordFormat is the version of the record format (docs/thegame-record.md).
const RecordFormat = 1

// ErrBadRecord is wrapped by ReadRecords and CheckRecords for a record that
// cannot be read or does not replay.
var ErrBadRecord = errors.New("sim: bad game record")

// Record is one game of The Game, everything included: the deck order, the
// actions in order and the result.
type Record struct {
	Format     int          `json:"format"`
	Game       int          `json:"game"`
	Players    int          `json:"players"`
	Variant    string       `json:"variant"`
	Assignment int          `json:"assignment,omitempty"`
	Bots       []string     `json:"bots"`
	Signals    bool         `json:"signals"`
	Deck       []int        `json:"deck"`
	Actions    []RecordStep `json:"actions"`
	Result     RecordResult `json:"result"`
}

// RecordStep is one action of a record. Draws are not listed: the deck
// order and the rules decide them.
type RecordStep struct {
	Seat   int    `json:"seat"`
	Act    string `json:"act"`
	Card   int    `json:"card,omitempty"`
	Pile   *int   `json:"pile,omitempty"`
	Signal string `json:"signal,omitempty"`
}

// RecordResult is how the game ended.
type RecordResult struct {
	CardsLeft int    `json:"cardsLeft"`
	Won       bool   `json:"won"`
	Broken    string `json:"broken"`
	Rating    string `json:"rating"`
}

var ratingNames = map[thegame.Rating]string{
	thegame.RatingWon: "won", thegame.RatingExcellent: "excellent", thegame.RatingPlayOn: "play-on", thegame.RatingLost: "lost",
}

func variantName(extreme bool) string {
	if extreme {
		return "extreme"
	}
	return "base"
}

func newRecord(game int, cfg thegame.Config, kind string, signals bool, deck []thegame.Card) *Record {
	r := &Record{Format: RecordFormat, Game: game, Players: cfg.Players, Variant: variantName(cfg.Extreme),
		Signals: signals, Actions: []RecordStep{}}
	if cfg.Extreme {
		r.Assignment = thegame.AssignmentVersion
	}
	for range cfg.Players {
		r.Bots = append(r.Bots, kind)
	}
	for _, c := range deck {
		r.Deck = append(r.Deck, int(c))
	}
	return r
}

func (r *Record) add(a thegame.Action) {
	st := RecordStep{Seat: a.Seat, Act: a.Kind.String()}
	switch a.Kind {
	case thegame.ActPlay:
		st.Card, st.Pile = int(a.Card), &a.Pile
	case thegame.ActSignal:
		st.Pile, st.Signal = &a.Pile, a.Signal.String()
	}
	r.Actions = append(r.Actions, st)
}

func (r *Record) finish(res thegame.Result) { r.Result = resultOf(res) }

func resultOf(res thegame.Result) RecordResult {
	return RecordResult{CardsLeft: res.CardsLeft, Won: res.Won, Broken: res.Broken.String(), Rating: ratingNames[res.Rating()]}
}

func (r *Record) write(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadRecords reads records, one JSON object per line; blank lines are
// skipped.
func ReadRecords(rd io.Reader) ([]Record, error) {
	var recs []Record
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var r Record
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadRecord, line, err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	return recs, nil
}

// Replay plays a record's actions again on a new game and returns it.
func (r *Record) Replay() (*thegame.Game, error) {
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("%w: format %d, want %d", ErrBadRecord, r.Format, RecordFormat)
	}
	if r.Variant != "base" && r.Variant != "extreme" {
		return nil, fmt.Errorf("%w: variant %q", ErrBadRecord, r.Variant)
	}
	extreme := r.Variant == "extreme"
	if extreme && r.Assignment != thegame.AssignmentVersion {
		return nil, fmt.Errorf("%w: command assignment %d, this program knows %d", ErrBadRecord, r.Assignment, thegame.AssignmentVersion)
	}
	g, err := thegame.NewGame(thegame.Config{Players: r.Players, Extreme: extreme})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if len(r.Deck) != thegame.DeckSize {
		return nil, fmt.Errorf("%w: a deck of %d cards", ErrBadRecord, len(r.Deck))
	}
	deck := make([]thegame.Card, len(r.Deck))
	var seen thegame.Cards
	for i, c := range r.Deck {
		card := thegame.Card(c)
		if c < 0 || c > 255 || !card.Valid() || seen.Has(card) {
			return nil, fmt.Errorf("%w: deck position %d holds %d", ErrBadRecord, i, c)
		}
		seen = seen.Add(card)
		deck[i] = card
	}
	for i, st := range r.Actions {
		if err := g.Feed(deck); err != nil {
			return nil, fmt.Errorf("%w: before action %d: %v", ErrBadRecord, i, err)
		}
		a, err := st.action()
		if err != nil {
			return nil, fmt.Errorf("%w: action %d: %v", ErrBadRecord, i, err)
		}
		if err := g.Apply(a); err != nil {
			return nil, fmt.Errorf("%w: action %d (%s): %v", ErrBadRecord, i, a, err)
		}
	}
	if err := g.Feed(deck); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	return g, nil
}

func (st RecordStep) action() (thegame.Action, error) {
	a := thegame.Action{Seat: st.Seat}
	pile := func() (int, error) {
		if st.Pile == nil {
			return 0, fmt.Errorf("%s without a pile", st.Act)
		}
		return *st.Pile, nil
	}
	var err error
	switch st.Act {
	case "play":
		a.Kind = thegame.ActPlay
		if st.Card < 0 || st.Card > 255 {
			return a, fmt.Errorf("card %d", st.Card)
		}
		a.Card = thegame.Card(st.Card)
		a.Pile, err = pile()
	case "end":
		a.Kind = thegame.ActEnd
	case "signal":
		a.Kind = thegame.ActSignal
		if a.Pile, err = pile(); err == nil {
			a.Signal, err = thegame.ParseSignal(st.Signal)
		}
	default:
		err = fmt.Errorf("unknown act %q", st.Act)
	}
	return a, err
}

// CheckRecords replays every record and compares its result with the one
// written down; games must be complete.
func CheckRecords(recs []Record) error {
	for _, r := range recs {
		g, err := r.Replay()
		if err != nil {
			return fmt.Errorf("game %d: %w", r.Game, err)
		}
		if g.Phase() != thegame.PhaseOver {
			return fmt.Errorf("%w: game %d does not end", ErrBadRecord, r.Game)
		}
		if got := resultOf(g.Result()); got != r.Result {
			return fmt.Errorf("%w: game %d ends %+v, the record says %+v", ErrBadRecord, r.Game, got, r.Result)
		}
	}
	return nil
}
