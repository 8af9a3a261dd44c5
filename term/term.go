package term

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/sim"
)

// You is the person's seat.
const You = 0

// Config sets up a terminal game.
type Config struct {
	Edition engine.Edition
	Players int
	// Seed makes the game reproducible: the first dealer, every deal and the
	// bots' choices come from it.
	Seed uint64
	// Bot is the kind (bot.New) of every other seat; empty means "heuristic".
	Bot string
	// Echo repeats each answer after reading it, so that a transcript of
	// input that was not typed at a terminal reads like a game played there.
	Echo bool
	// Short plays the Classic short game; Target, when positive, plays until
	// a seat reaches that total (engine.Config).
	Short  bool
	Target int
}

// maxLine bounds an input line.
const maxLine = 4096

// Play runs one game with the person in seat You reading in and writing out.
// It returns nil when the game ends, when the person quits and when the input
// ends; an error only for a bad Config, a failed write or a failed read.
func Play(cfg Config, in io.Reader, out io.Writer) error {
	kind := cfg.Bot
	if kind == "" {
		kind = "heuristic"
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6e6a6574))
	g, err := engine.NewGame(engine.Config{
		Edition:     cfg.Edition,
		Players:     cfg.Players,
		FirstDealer: rng.IntN(max(cfg.Players, 1)),
		Short:       cfg.Short,
		Target:      cfg.Target,
	})
	if err != nil {
		return fmt.Errorf("term: %w", err)
	}
	s := &match{echo: cfg.Echo, g: g, rng: rng, bots: make([]bot.Player, cfg.Players),
		screen: &screen{e: cfg.Edition, n: cfg.Players, you: You, others: "Bot", view: func() engine.View { return g.View(You) },
			out: &printer{w: out}}}
	for seat := range s.bots {
		if seat == You {
			continue
		}
		if s.bots[seat], err = bot.New(kind, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))); err != nil {
			return fmt.Errorf("term: %w", err)
		}
	}
	s.in = bufio.NewReader(in)
	if err := s.run(); err != nil {
		return err
	}
	return s.out.err
}

// errQuit ends the game early: the person quit or the input ended.
var errQuit = errors.New("term: game left")

// match is one terminal game under way.
type match struct {
	*screen
	echo bool
	g    *engine.Game
	rng  *rand.Rand
	bots []bot.Player // nil at You
	in   *bufio.Reader
}

// screen writes a seat's view of a game as text and reads the seat's
// choices from typed answers: what the local game and a LAN seat share.
type screen struct {
	e   engine.Edition
	n   int
	you int
	// watching is set once a bot hosted elsewhere plays the person's seat
	// (the table voided it): the person only watches from then on.
	watching bool
	// others is how the text calls the other seats: "Bot" or "Seat".
	others string
	// view returns the seat's view of the game now.
	view func() engine.View
	out  *printer
}

// printer writes formatted text and keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (s *match) run() error {
	s.out.f("Njet! %s edition, %d players. You are seat %d (%s); the others are %s bots.\n",
		s.e, s.n, You, s.g.View(You).Characters[You], s.botKind())
	s.out.f("Answer with the number of a choice or type it as shown; \"help\" lists the choices again, \"quit\" leaves.\n")
	for s.out.err == nil {
		switch s.g.Phase() {
		case engine.PhaseGameOver:
			s.showGameOver()
			return nil
		case engine.PhaseDeal, engine.PhaseRoundOver:
			if err := sim.Deal(s.g, s.rng); err != nil {
				return fmt.Errorf("term: %w", err)
			}
			s.showRoundStart()
			continue
		}
		waiting := s.g.Waiting()
		if len(waiting) == 0 {
			return fmt.Errorf("term: nobody to act in phase %s", s.g.Phase())
		}
		seat := waiting[0]
		for _, w := range waiting {
			if w != You {
				seat = w // bots act first in the simultaneous discard phase
				break
			}
		}
		legal := s.g.Legal(seat)
		if len(legal) == 0 {
			return fmt.Errorf("term: seat %d has no legal action in phase %s", seat, s.g.Phase())
		}
		var a engine.Action
		if seat == You {
			var err error
			if a, err = s.ask(legal); errors.Is(err, errQuit) {
				return nil
			} else if err != nil {
				return err
			}
		} else {
			v := s.g.View(seat)
			a = s.bots[seat].Act(&v, legal)
		}
		if err := s.apply(a); err != nil {
			return err
		}
	}
	return s.out.err
}

func (s *match) botKind() string {
	for _, b := range s.bots {
		if b != nil {
			return b.Name()
		}
	}
	return "no"
}

// verb conjugates a verb for a seat: "You play", "Bot 1 plays".
func (s *screen) verb(seat int, base string) string {
	if seat == s.you && !s.watching {
		return base
	}
	return base + "s"
}

// name is how the text calls a seat.
func (s *screen) name(seat int) string {
	if seat == s.you && s.watching {
		return "The bot in your seat"
	}
	if seat == s.you {
		return "You"
	}
	return s.others + " " + strconv.Itoa(seat)
}

// longName adds the seat's character.
func (s *screen) longName(seat int) string {
	return s.name(seat) + " (" + s.view().Characters[seat].String() + ")"
}

// apply applies a and prints what happened.
func (s *match) apply(a engine.Action) error {
	before := s.g.View(You)
	tricksBefore := len(s.g.History().Tricks)
	if err := s.g.Apply(a); err != nil {
		// Bots and the person only choose from Legal, so this is an engine fault.
		return fmt.Errorf("term: %s: %w", s.name(a.Seat), err)
	}
	after := s.g.View(You)
	who := s.name(a.Seat)
	switch a.Kind {
	case engine.ActBlock:
		s.out.f("%s %s %s: %s\n", who, s.verb(a.Seat, "block"), a.Row, s.e.FieldName(a.Row, a.Field))
	case engine.ActTeam:
		s.out.f("%s %s the teams.\n", who, s.verb(a.Seat, "form"))
	case engine.ActDiscard:
		if a.Seat == You {
			s.out.f("You discard %s.\n", cardList(a.Cards[:]))
		} else {
			s.out.f("%s discards %s.\n", who, plural(discardCount(a), "card"))
		}
	case engine.ActPass:
		if a.Seat == You {
			s.out.f("You pass %s to %s.\n", a.Card, s.name((You+1)%s.n))
		} else {
			s.out.f("%s passes a card to %s.\n", who, s.name((a.Seat+1)%s.n))
		}
	case engine.ActPlay:
		s.out.f("%s %s %s\n", who, s.verb(a.Seat, "play"), a.Card)
	}
	if before.Phase == engine.PhaseNjet && after.Phase != engine.PhaseNjet {
		s.showRules(after.Rules)
	}
	if after.Phase > engine.PhaseTeams && before.Phase <= engine.PhaseTeams {
		s.showTeams(after)
	}
	if before.Phase == engine.PhaseDiscard && after.Phase != engine.PhaseDiscard && after.Received != engine.NoCard {
		s.out.f("You received %s from %s.\n", after.Received, s.name((You+s.n-1)%s.n))
	}
	h := s.g.History()
	if len(h.Tricks) > tricksBefore {
		t := h.Tricks[len(h.Tricks)-1]
		s.out.f("  -> %s %s trick %d", s.name(t.Winner), s.verb(t.Winner, "take"), len(h.Tricks))
		if len(t.Loot) > 0 {
			s.out.f(" with loot %s", cardList(t.Loot))
		}
		s.out.f(".\n")
	}
	if after.Phase == engine.PhaseRoundOver || after.Phase == engine.PhaseGameOver {
		s.showScore(h)
	}
	return s.out.err
}

func discardCount(a engine.Action) int {
	if a.Cards[1] == engine.NoCard {
		return 1
	}
	return 2
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// cardList names cards, skipping NoCard.
func cardList(cards []engine.Card) string {
	var names []string
	for _, c := range cards {
		if c != engine.NoCard {
			names = append(names, c.String())
		}
	}
	return strings.Join(names, " ")
}

// choice is one numbered answer to a prompt.
type choice struct {
	label   string   // shown and accepted as typed
	hint    string   // shown after the label
	accepts []string // other typed forms, normalised
	action  engine.Action
}

// normalise lower-cases s, drops commas and collapses spaces.
func normalise(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, ",", " "))), " ")
}

// choices turns legal actions into numbered choices; actions that look the
// same to the person (equal 1s) are offered once.
func (s *screen) choices(legal []engine.Action) []choice {
	var out []choice
	seen := map[string]bool{}
	for _, a := range legal {
		c := s.describe(a)
		if seen[c.label] {
			continue
		}
		seen[c.label] = true
		c.accepts = append(c.accepts, normalise(c.label))
		out = append(out, c)
	}
	return out
}

// describe labels an action for the person.
func (s *screen) describe(a engine.Action) choice {
	c := choice{action: a}
	switch a.Kind {
	case engine.ActBlock:
		f := s.e.FieldName(a.Row, a.Field)
		c.label = "block " + a.Row.String() + " " + f
		if a.Row == engine.RowStart {
			for seat, ch := range s.view().Characters {
				if ch.String() == f {
					c.hint = s.name(seat)
				}
			}
		}
	case engine.ActTeam:
		var seats, names []string
		for seat := 0; seat < s.n; seat++ {
			if a.Partners&(1<<seat) != 0 && seat != a.Seat {
				seats = append(seats, strconv.Itoa(seat))
				names = append(names, s.longName(seat))
			}
		}
		switch len(seats) {
		case 0:
			c.label, c.hint = "alone", "play alone against the other two"
		case 1:
			c.label, c.hint = "partner "+seats[0], names[0]
		default:
			c.label, c.hint = "partners "+strings.Join(seats, " "), strings.Join(names, " and ")
		}
		if s.n == 5 {
			c.label += " bonus " + strconv.Itoa(a.Bonus)
			c.hint += "; bonus card to " + s.name(a.Bonus)
		}
	case engine.ActDiscard:
		cards := cardList(a.Cards[:])
		c.label = "discard " + cards
		c.accepts = append(c.accepts, cards)
		if a.Cards[1] != engine.NoCard {
			rev := a.Cards[1].String() + " " + a.Cards[0].String()
			c.accepts = append(c.accepts, rev, "discard "+rev)
		}
	case engine.ActPass:
		c.label = "pass " + a.Card.String()
		c.accepts = append(c.accepts, a.Card.String())
	case engine.ActPlay:
		c.label = a.Card.String()
		c.accepts = append(c.accepts, "play "+a.Card.String())
	default:
		c.label = a.Kind.String()
	}
	return c
}

// ask shows the situation and reads the person's choice until it is one.
func (s *match) ask(legal []engine.Action) (engine.Action, error) {
	cs := s.choices(legal)
	s.showSituation()
	s.showChoices(cs)
	for {
		s.out.f("> ")
		if s.out.err != nil {
			return engine.Action{}, s.out.err
		}
		text, err := readLine(s.in)
		if errors.Is(err, io.EOF) {
			s.out.f("\nInput ended: leaving the game in round %d.\n", s.g.Round())
			return engine.Action{}, errQuit
		} else if err != nil {
			return engine.Action{}, fmt.Errorf("term: read: %w", err)
		}
		if s.echo {
			s.out.f("%s\n", text)
		}
		line := normalise(text)
		switch line {
		case "quit", "exit", "q":
			s.out.f("You leave the game in round %d.\n", s.g.Round())
			return engine.Action{}, errQuit
		case "help", "?":
			s.showSituation()
			s.showChoices(cs)
			continue
		}
		if a, ok := s.pick(line, legal, cs); ok {
			return a, nil
		}
	}
}

// pick returns the choice that a normalised answer names, or explains
// why it names none and reports false.
func (s *screen) pick(line string, legal []engine.Action, cs []choice) (engine.Action, bool) {
	if line == "" {
		s.out.f("Please choose: a number from 1 to %d, or a choice as shown.\n", len(cs))
		return engine.Action{}, false
	}
	if n, err := strconv.Atoi(line); err == nil {
		if n >= 1 && n <= len(cs) {
			return cs[n-1].action, true
		}
		s.out.f("%d is not a choice: pick a number from 1 to %d.\n", n, len(cs))
		return engine.Action{}, false
	}
	for _, c := range cs {
		if slices.Contains(c.accepts, line) {
			return c.action, true
		}
	}
	shown := line
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	s.out.f("%q is not a choice now: %s\n", shown, s.reason(line, legal))
	return engine.Action{}, false
}

// readLine reads one line without its line end. A line longer than maxLine
// is cut there (the rest is read and dropped), so no input can end the game
// but the end of the input. A last line without a line end still counts.
func readLine(in *bufio.Reader) (string, error) {
	var line []byte
	for {
		chunk, err := in.ReadSlice('\n')
		line = append(line, chunk[:min(len(chunk), maxLine-len(line))]...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return string(line), nil
		case err != nil:
			return "", err
		}
		return strings.TrimRight(string(line), "\r\n"), nil
	}
}

// reason explains why a typed answer is not a choice.
func (s *screen) reason(line string, legal []engine.Action) string {
	v := s.view()
	word := strings.Fields(line)[0]
	if c, err := engine.ParseCard(s.e, strings.TrimPrefix(line, "play "), 0); err == nil {
		switch {
		case v.Phase != engine.PhaseTricks:
			return "this is not the time to play a card; type a number from the list."
		case !holdsName(v, c.String()):
			return "you do not hold " + c.String() + "."
		case len(v.Trick.Plays) > 0:
			return "you must follow the led suit (" + engine.SuitOf(v.Trick.Plays[0].Card, v.Rules).String() + ")."
		}
	}
	switch word {
	case "block":
		return s.blockReason(v, strings.Fields(line)[1:])
	case "partner", "partners", "alone":
		return "name a partner as listed, e.g. \"" + s.describe(legal[0]).label + "\"."
	}
	return "type a number from the list, or \"help\" to see it again."
}

// holdsName reports whether the seat's hand holds a card with that name.
func holdsName(v engine.View, name string) bool {
	for _, c := range v.Hand.Cards(v.Edition) {
		if c.String() == name {
			return true
		}
	}
	return false
}

// blockReason explains why "block ROW FIELD" is not a choice.
func (s *screen) blockReason(v engine.View, words []string) string {
	if v.Phase != engine.PhaseNjet {
		return "the Njet phase is over."
	}
	if len(words) != 2 {
		return "type \"block\", a row and a field, e.g. \"block trump red\"."
	}
	r, err := engine.ParseRow(words[0])
	if err != nil {
		return "there is no row " + strconv.Quote(words[0]) + "; the rows are start, discard, trump, super and points."
	}
	f, err := s.e.ParseField(r, words[1])
	if err != nil {
		var names []string
		for g := engine.Field(0); int(g) < s.e.Fields(r); g++ {
			names = append(names, s.e.FieldName(r, g))
		}
		return "the " + r.String() + " row has no field " + strconv.Quote(words[1]) + "; its fields are " + strings.Join(names, ", ") + "."
	}
	if v.Board.Blocked(r, f) {
		return r.String() + " " + words[1] + " is already blocked."
	}
	return r.String() + " " + words[1] + " is the last free field of its row, which cannot be blocked (R-NJET-1)."
}
