package term

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/words"
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
	// Width is the width text is wrapped to; 0 asks the terminal behind the
	// output, then $COLUMNS, else 80.
	Width int
}

// maxLine bounds an input line.
const maxLine = 4096

// Play runs one game with the person in seat You reading in and writing out.
// It returns nil when the game ends, when the person quits and when the input
// ends; an error only for a bad Config, a failed write or a failed read.
//
// When a game ends the person is asked whether to play again: "yes" deals
// a new game with the same seats, bots and length from a fresh seed (drawn
// from the game's own seed, so a transcript stays reproducible).
func Play(cfg Config, in io.Reader, out io.Writer) error {
	r := bufio.NewReader(in)
	for {
		next, err := playOne(cfg, r, out)
		if err != nil || next == nil {
			return err
		}
		cfg.Seed = *next
	}
}

// playOne plays one game; it returns the seed of the next game when the
// person asked to play again.
func playOne(cfg Config, in *bufio.Reader, out io.Writer) (*uint64, error) {
	kind := cfg.Bot
	if kind == "" {
		kind = "heuristic"
	}
	width := cfg.Width
	if width <= 0 {
		width = widthOf(out)
	}
	l, err := seat.NewLocal(seat.LocalConfig{Edition: cfg.Edition, Players: cfg.Players, You: You, Bots: []string{kind},
		Seed: cfg.Seed, Short: cfg.Short, Target: cfg.Target})
	if err != nil {
		return nil, fmt.Errorf("term: %w", err)
	}
	s := &match{echo: cfg.Echo, l: l, in: in,
		screen: &screen{e: cfg.Edition, n: cfg.Players, you: You, others: "Bot", names: words.LocalNames(cfg.Players),
			target: cfg.Target, out: &printer{w: out, width: width}}}
	s.screen.view = func() engine.View { return s.last }
	if err := s.run(); err != nil {
		return nil, err
	}
	if s.out.err != nil || !s.again {
		return nil, s.out.err
	}
	// The next game's seed comes from this one's, so that a transcript
	// stays reproducible.
	next := rand.New(rand.NewPCG(cfg.Seed, againStream)).Uint64()
	s.out.say(words.NewGame())
	return &next, s.out.err
}

// againStream is the stream of a game's seed that draws the seed of the
// game played after it.
const againStream = 0x61676169

// askAgain asks whether to play again once the game is over; anything but
// "yes" (and the end of the input) leaves.
func (s *match) askAgain() error {
	s.out.say(words.PlayAgain())
	s.out.f("> ")
	text, err := readLine(s.in)
	if errors.Is(err, io.EOF) {
		s.out.f("\n")
		return nil
	} else if err != nil {
		return fmt.Errorf("term: read: %w", err)
	}
	if s.echo {
		s.out.f("%s\n", text)
	}
	switch normalise(text) {
	case "yes", "y", "again":
		s.again = true
	}
	return nil
}

// errQuit ends the game early: the person quit or the input ended.
var errQuit = errors.New("term: game left")

// match is one terminal game under way: the person's seat at a game
// against bots on this device (a seat.Local), told as text.
type match struct {
	*screen
	echo bool
	l    *seat.Local
	in   *bufio.Reader
	// last is the person's view after the last event.
	last engine.View
	// bot is the other seats' kind of bot.
	bot string
	// again is set when the person asked to play again at the end.
	again bool
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
	// names are the players' names by seat; a seat without one (or
	// beyond them) is called as others says.
	names []string
	// view returns the seat's view of the game now.
	view func() engine.View
	// rulesShown is set once the round's rules are on screen.
	rulesShown bool
	// target is the score that ends the game, 0 when its length is a
	// number of rounds (or not known, at a LAN table).
	target int
	out    *printer
}

// printer writes formatted text wrapped to a width and keeps the first
// write error.
type printer struct {
	w     io.Writer
	err   error
	width int  // 0: defaultWidth; negative: no wrapping
	mid   bool // the last write did not end its line
}

func (p *printer) f(format string, args ...any) {
	if p.err != nil {
		return
	}
	text := fmt.Sprintf(format, args...)
	width := p.width
	if width == 0 {
		width = defaultWidth
	}
	var b strings.Builder
	for text != "" {
		line, rest, nl := strings.Cut(text, "\n")
		if p.mid || width < 0 {
			b.WriteString(line) // the rest of a line begun by a prompt
		} else {
			b.WriteString(strings.Join(wrap(line, width), "\n"))
		}
		p.mid = !nl && line != ""
		if nl {
			b.WriteString("\n")
		}
		text = rest
	}
	_, p.err = io.WriteString(p.w, b.String())
}

// say writes messages, each on its own line.
func (p *printer) say(msgs ...words.Msg) {
	for _, m := range msgs {
		if m.ID != "" {
			p.f("%s\n", m)
		}
	}
}

// run plays the game to its end, telling each event of the seat as it
// comes and asking the person at each question.
func (s *match) run() error {
	ctx := context.Background()
	for s.out.err == nil {
		ev, err := s.l.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("term: %w", err)
		}
		switch ev := ev.(type) {
		case seat.Sync:
			s.last = ev.State.View
			for _, si := range ev.State.Seats {
				if si.Bot != "" {
					s.bot = si.Bot
					break
				}
			}
			s.out.say(words.Welcome(s.e, s.n, s.last.Characters[You], s.botKind()))
			if s.target > 0 {
				s.out.say(words.Target(s.e, s.target))
			}
			s.out.say(words.Answer())
		case seat.Dealt:
			s.last = ev.View
			s.rulesShown = false
			s.showRoundStart()
		case seat.YourTurn:
			s.last = ev.Prompt.View
			a, err := s.ask(ev.Prompt)
			if errors.Is(err, errQuit) {
				return s.l.Leave()
			} else if err != nil {
				return err
			}
			if err := s.l.Choose(ev.Prompt.Seq, a); err != nil {
				// The person only chooses from Legal, so this is an engine fault.
				return fmt.Errorf("term: %w", err)
			}
		case seat.Moved:
			before := s.last
			s.last = ev.View
			if a := ev.Action; a.Kind == engine.ActDiscard && a.Hidden {
				// The cards are another seat's; their number is not.
				s.out.say(words.Discarded(a.Seat, before.HandSizes[a.Seat]-ev.View.HandSizes[a.Seat], s.seats()))
			} else {
				s.out.say(words.Action(s.e, a, s.seats()))
			}
			s.tell(before, ev.View, ev.Action.Kind == engine.ActTeam)
		case seat.TrickWon:
			s.showTrickTaken(ev.Trick, ev.N, s.last.Rules)
		case seat.RoundOver:
			s.last = ev.View
			s.showScore(ev.Result)
			if ev.View.Phase == engine.PhaseGameOver {
				continue
			}
			if err := s.pause(); errors.Is(err, errQuit) {
				return s.l.Leave()
			} else if err != nil {
				return err
			}
		case seat.GameOver:
			s.showGameOver(ev)
			return s.askAgain()
		}
	}
	return s.out.err
}

// pause holds the round's result on screen until the person goes on to
// the next round; "score" shows the standings, "rules" how the game is
// played, "quit" leaves.
func (s *match) pause() error {
	for tries := 0; tries < maxTries; tries++ {
		s.out.say(words.Pause(s.last.Round + 1))
		s.out.f("> ")
		line, err := s.readAnswer()
		if err != nil {
			return err
		}
		switch line {
		case "quit", "exit", "q":
			s.out.say(words.Leave(s.last.Round))
			s.showStandings()
			return errQuit
		case "score":
			s.showStandings()
			continue
		case "rules":
			s.showRulesHelp()
			continue
		}
		return nil
	}
	return nil
}

// maxTries bounds the answers read at one pause.
const maxTries = 1000

// readAnswer reads and normalises one answer; the end of the input is
// errQuit, told to the person.
func (s *match) readAnswer() (string, error) {
	if s.out.err != nil {
		return "", s.out.err
	}
	text, err := readLine(s.in)
	if errors.Is(err, io.EOF) {
		s.out.f("\n")
		s.out.say(words.InputEnded(s.last.Round))
		return "", errQuit
	} else if err != nil {
		return "", fmt.Errorf("term: read: %w", err)
	}
	if s.echo {
		s.out.f("%s\n", text)
	}
	return normalise(text), nil
}

func (s *match) botKind() string {
	if s.bot == "" {
		return "no"
	}
	return s.bot
}

// who is how the words call a seat.
func (s *screen) who(seat int) words.Msg {
	switch {
	case seat == s.you && s.watching:
		return words.BotForYou()
	case seat == s.you:
		return words.You()
	case seat >= 0 && seat < len(s.names) && s.names[seat] != "":
		return words.Plain(s.names[seat])
	case s.others == "Seat":
		return words.SeatNumber(seat)
	}
	return words.Bot(seat)
}

// seats says who sits where, for the words.
func (s *screen) seats() words.Seats { return words.Seats{Players: s.n, Name: s.who} }

// name is how the text calls a seat.
func (s *screen) name(seat int) string { return s.who(seat).String() }

// whoLong adds the seat's character.
func (s *screen) whoLong(seat int) words.Msg {
	return words.WithCharacter(s.who(seat), s.e, s.view().Characters[seat])
}

// longName adds the seat's character.
func (s *screen) longName(seat int) string { return s.whoLong(seat).String() }

// tell shows what a step from before to after decided: the board and the
// rules when the Njet phase ends, the teams once formed (only the doubling
// when the step was the team choice, whose own words name the teams), a
// received card.
func (s *screen) tell(before, after engine.View, teamChosen bool) {
	if before.Phase == engine.PhaseNjet && after.Phase != engine.PhaseNjet {
		s.showFinalBoard(after)
		s.showRules(after.Rules)
	}
	if after.Phase > engine.PhaseTeams && before.Phase <= engine.PhaseTeams {
		if teamChosen {
			s.out.say(words.Doubling(after.Bonus, s.seats()))
		} else {
			s.showTeams(after)
		}
	}
	if before.Phase == engine.PhaseDiscard && after.Phase != engine.PhaseDiscard && after.Received != engine.NoCard && !s.watching {
		s.out.say(words.Received(after.Received, s.who((s.you+s.n-1)%s.n)))
	}
}

// showTrickTaken tells who took trick k, with which card, why and the loot.
func (s *screen) showTrickTaken(t engine.Trick, k int, r engine.Rules) {
	w := engine.TrickWin(engine.Trick{Leader: t.Leader, Plays: t.Plays}, r)
	s.out.f("  -> %s\n", words.TrickWon(s.who(t.Winner), k, w, t.Loot))
}

// choice is one numbered answer to a prompt.
type choice struct {
	label   string   // shown and accepted as typed
	hint    string   // shown after the label
	accepts []string // other typed forms, normalised
	action  engine.Action
	// closed marks a board field that cannot be blocked now: shown with
	// its number kept, refused with why.
	closed bool
	why    words.Msg
}

// cardWords joins a colour word and the value that follows it ("red 7" to
// "red7"), so that cards may be typed either way.
var cardWords = regexp.MustCompile(`\b(red|black|blue|green|yellow) (\d+)\b`)

// normalise lower-cases s, drops commas and collapses spaces.
func normalise(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(strings.NewReplacer(",", " ", "+", " ").Replace(s))), " ")
	return cardWords.ReplaceAllString(s, "$1$2")
}

// choices turns legal actions into numbered choices; actions that look the
// same to the person (equal 1s) are offered once.
func (s *screen) choices(legal []engine.Action) []choice {
	if len(legal) > 0 && legal[0].Kind == engine.ActBlock {
		return s.boardChoices(legal)
	}
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

// boardChoices numbers every field of the board in board order, so that
// a field keeps its number for the whole Njet phase: the fields that may
// be blocked now are choices, the others (blocked, or the last free field
// of their row, R-NJET-1) are kept closed with the reason.
func (s *screen) boardChoices(legal []engine.Action) []choice {
	v := s.view()
	seat := legal[0].Seat
	var out []choice
	for r := engine.Row(0); r < engine.NumRows; r++ {
		for f := engine.Field(0); int(f) < s.e.Fields(r); f++ {
			i := slices.IndexFunc(legal, func(a engine.Action) bool {
				return a.Kind == engine.ActBlock && a.Row == r && a.Field == f
			})
			a := engine.Action{Kind: engine.ActBlock, Seat: seat, Row: r, Field: f}
			if i >= 0 {
				a = legal[i]
			}
			c := s.describe(a)
			c.accepts = append(c.accepts, normalise(c.label))
			switch {
			case i >= 0:
			case v.Board.Blocked(r, f):
				c.closed, c.why = true, words.Blocked(s.e, r, f)
			default:
				c.closed, c.why = true, words.LastFree(s.e, r, f)
			}
			out = append(out, c)
		}
	}
	return out
}

// describe labels an action for the person.
func (s *screen) describe(a engine.Action) choice {
	c := choice{action: a}
	switch a.Kind {
	case engine.ActBlock:
		name := s.e.FieldName(a.Row, a.Field)
		c.label = words.Field(s.e, a.Row, a.Field).String()
		if a.Row == engine.RowStart {
			c.label = words.FieldHeld(s.e, a.Field, s.holder(s.view(), a.Field)).String()
			c.accepts = append(c.accepts, normalise(words.Field(s.e, a.Row, a.Field).String()))
		}
		row := a.Row.String()
		c.accepts = append(c.accepts, "block "+row+" "+name, row+" "+name,
			normalise("block "+row+" "+words.Field(s.e, a.Row, a.Field).String()))
	case engine.ActTeam:
		var seats []string
		for seat := 0; seat < s.n; seat++ {
			if a.Partners&(1<<seat) != 0 && seat != a.Seat {
				seats = append(seats, strconv.Itoa(seat))
			}
		}
		typed := "alone"
		switch len(seats) {
		case 1:
			typed = "partner " + seats[0]
		case 2:
			typed = "partners " + strings.Join(seats, " ")
		}
		if s.n == 5 {
			c.accepts = append(c.accepts, typed)
			typed += " bonus " + strconv.Itoa(a.Bonus)
		}
		c.accepts = append(c.accepts, typed)
		c.label = words.TeamChoice(a, s.seats()).String()
	case engine.ActDiscard:
		c.label = words.Cards(a.Cards[:]).String()
		names := cardList(a.Cards[:])
		c.accepts = append(c.accepts, names, "discard "+names)
		if a.Cards[1] != engine.NoCard {
			rev := a.Cards[1].String() + " " + a.Cards[0].String()
			c.accepts = append(c.accepts, rev, "discard "+rev)
		}
	case engine.ActPass:
		c.label = words.Card(a.Card).String()
		c.accepts = append(c.accepts, a.Card.String(), "pass "+a.Card.String())
	case engine.ActPlay:
		c.label = words.Card(a.Card).String()
		c.accepts = append(c.accepts, a.Card.String(), "play "+a.Card.String())
	default:
		c.label = a.Kind.String()
	}
	return c
}

// cardList names cards by their record names, skipping NoCard.
func cardList(cards []engine.Card) string {
	var names []string
	for _, c := range cards {
		if c != engine.NoCard {
			names = append(names, c.String())
		}
	}
	return strings.Join(names, " ")
}

// ask shows the situation and reads the person's choice among p's
// answers until it is one.
func (s *match) ask(p seat.Prompt) (engine.Action, error) {
	legal := p.Legal
	cs := s.choices(legal)
	s.showSituation(cs, false)
	for tries := 0; ; tries++ {
		s.out.f("> ")
		line, err := s.readAnswer()
		if err != nil {
			return engine.Action{}, err
		}
		switch line {
		case "quit", "exit", "q":
			s.out.say(words.Leave(s.last.Round))
			s.showStandings()
			return engine.Action{}, errQuit
		case "help", "?":
			s.showSituation(cs, true)
			continue
		case "hint":
			s.showHint(p)
			continue
		case "score":
			s.showStandings()
			s.showRoundSoFar()
			continue
		case "rules":
			s.showRulesHelp()
			continue
		}
		if a, ok := s.pick(line, legal, cs); ok {
			return a, nil
		}
	}
}

// showHint prints the strong bot's answer to the question p, from the
// seat's own view; the person still chooses.
func (s *screen) showHint(p seat.Prompt) {
	a, err := seat.Hint(p)
	if err != nil {
		s.out.say(words.NoHint())
		return
	}
	s.out.say(words.Hint(words.Action(s.e, a, s.seats())))
}

// pick returns the choice that a normalised answer names, or explains
// why it names none and reports false.
func (s *screen) pick(line string, legal []engine.Action, cs []choice) (engine.Action, bool) {
	if line == "" {
		s.out.f("Please choose: a number from 1 to %d, or a choice as shown.\n", len(cs))
		return engine.Action{}, false
	}
	if n, err := strconv.Atoi(line); err == nil {
		switch {
		case n < 1 || n > len(cs):
			s.out.f("%d is not a choice: pick a number from 1 to %d.\n", n, len(cs))
		case cs[n-1].closed:
			s.out.f("%d is not a choice now: %s.\n", n, cs[n-1].why)
		default:
			return cs[n-1].action, true
		}
		return engine.Action{}, false
	}
	// An open choice wins over a closed one typed alike ("red" names a
	// trump field and a supertrump field).
	var closed *choice
	for i, c := range cs {
		switch {
		case !slices.Contains(c.accepts, line):
		case !c.closed:
			return c.action, true
		case closed == nil:
			closed = &cs[i]
		}
	}
	if closed != nil {
		s.out.f("%q is not a choice now: %s.\n", line, closed.why)
		return engine.Action{}, false
	}
	shown := line
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	s.out.f("%q is not a choice now: %s.\n", shown, s.reason(line, legal))
	return engine.Action{}, false
}

// readLine reads one line without its line end. A line longer than maxLine
// is cut there (the rest is read and dropped), so no input can end the game
// but the end of the input. A last line without a line end still counts.
// typed is a line read from the input, or the error that ended it.
type typed struct {
	text string
	err  error
}

// readLines reads lines from in on a goroutine of its own, so that the
// table moves on while nobody types, and sends them, the last with the
// error that ended the input. The goroutine ends then, or at its next
// line once stop is called.
func readLines(in io.Reader) (lines <-chan typed, stop func()) {
	out := make(chan typed)
	done := make(chan struct{})
	go func() {
		r := bufio.NewReader(in)
		for {
			text, err := readLine(r)
			select {
			case out <- typed{text, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return out, func() { close(done) }
}

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
func (s *screen) reason(line string, legal []engine.Action) words.Msg {
	v := s.view()
	fields := strings.Fields(line)
	verb := fields[0]
	kind := engine.ActPlay
	cardsTyped := fields
	switch verb {
	case "discard":
		kind, cardsTyped = engine.ActDiscard, fields[1:]
	case "pass":
		kind, cardsTyped = engine.ActPass, fields[1:]
	case "play":
		cardsTyped = fields[1:]
	}
	var cards []engine.Card
	for _, f := range cardsTyped {
		c, err := engine.ParseCard(s.e, f, 0)
		if err != nil {
			cards = nil
			break
		}
		cards = append(cards, c)
	}
	if len(cards) > 0 {
		return s.cardReason(v, kind, verb, cards)
	}
	switch verb {
	case "block":
		return s.blockReason(v, fields[1:])
	case "alone":
		if v.Phase == engine.PhaseTeams && s.n >= 4 {
			return words.NotAlone(s.n)
		}
		fallthrough
	case "partner", "partners":
		if v.Phase != engine.PhaseTeams {
			return words.NotNow(engine.ActTeam, v.Phase)
		}
		return words.NamePartner(s.describe(legal[0]).accepts[0])
	}
	return words.NotAChoice()
}

// cardReason explains why cards typed to play, discard or pass (kind, as
// the verb typed said) are not a choice.
func (s *screen) cardReason(v engine.View, kind engine.Kind, verb string, cards []engine.Card) words.Msg {
	if v.Phase == engine.PhaseDiscard && verb != "discard" && verb != "pass" {
		kind = engine.ActDiscard
		if v.Rules.Discard == engine.PassLeft {
			kind = engine.ActPass
		}
	}
	switch {
	case v.Phase == engine.PhaseDiscard && kind == engine.ActDiscard && v.Rules.Discard == engine.PassLeft:
		return words.PassNotDiscard()
	case v.Phase == engine.PhaseDiscard && kind == engine.ActPass && v.Rules.Discard != engine.PassLeft:
		return words.DiscardNotPass()
	case kind == engine.ActPlay && v.Phase != engine.PhaseTricks,
		kind != engine.ActPlay && v.Phase != engine.PhaseDiscard:
		return words.NotNow(kind, v.Phase)
	}
	for _, c := range cards {
		if !holdsName(v, c.String()) {
			return words.NotHeld(c)
		}
	}
	switch kind {
	case engine.ActPlay:
		if len(v.Trick.Plays) > 0 {
			return words.MustFollow(engine.SuitOf(v.Trick.Plays[0].Card, v.Rules), v.Rules)
		}
	case engine.ActPass:
		if len(cards) != 1 {
			return words.DiscardCount(1)
		}
	case engine.ActDiscard:
		want := 1
		if v.Rules.Discard == engine.Discard2 {
			want = 2
		}
		switch {
		case len(cards) != want:
			return words.DiscardCount(want)
		case want == 2 && cards[0] == cards[1] && cards[0].Value() != 1:
			return words.SameCard()
		case v.Rules.Discard == engine.Discard1NoOnes && cards[0].Value() == 1:
			return words.NoOnes()
		}
	}
	return words.NotAChoice()
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
func (s *screen) blockReason(v engine.View, typed []string) words.Msg {
	if v.Phase != engine.PhaseNjet {
		return words.NotNow(engine.ActBlock, v.Phase)
	}
	if len(typed) != 2 {
		return words.BlockForm()
	}
	r, err := engine.ParseRow(typed[0])
	if err != nil {
		return words.NoRow(typed[0])
	}
	f, err := s.e.ParseField(r, typed[1])
	if err != nil {
		return words.NoField(s.e, r, typed[1])
	}
	if v.Board.Blocked(r, f) {
		return words.Blocked(s.e, r, f)
	}
	return words.LastFree(s.e, r, f)
}

// plural counts a thing in English: "1 round", "3 rounds".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
