package term

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/words"
)

// TheGameConfig sets up a terminal game of The Game.
type TheGameConfig struct {
	Players int
	Extreme bool
	// Seed makes the game reproducible: the deck order comes from it.
	Seed uint64
	// Bot is the kind (thegame/bot.New) of every other seat; empty means
	// "coop".
	Bot string
	// Echo repeats each answer after reading it (see Config.Echo).
	Echo bool
}

// PlayTheGame runs one game of The Game with the person in seat You and
// bots in the other seats. It returns nil when the game ends, when the
// person quits and when the input ends; an error for a bad config, a failed
// write or a failed read.
//
// At the end the person is asked whether to play again: "yes" deals a new
// game with the same seats and bots from a fresh seed (drawn from the
// game's seed, so a transcript stays reproducible).
func PlayTheGame(cfg TheGameConfig, in io.Reader, out io.Writer) error {
	r := bufio.NewReader(in)
	for {
		again, err := playTheGame(cfg, r, out)
		if err != nil || !again {
			return err
		}
		cfg.Seed = rand.New(rand.NewPCG(cfg.Seed, 0x61676e)).Uint64()
		fmt.Fprintf(out, "%s\n", words.NewGame())
	}
}

// playTheGame plays one game; it reports whether the person asked to
// play again.
func playTheGame(cfg TheGameConfig, in *bufio.Reader, out io.Writer) (bool, error) {
	kind := cfg.Bot
	if kind == "" {
		kind = "coop"
	}
	l, err := seat.NewTheGameLocal(seat.TheGameLocalConfig{Players: cfg.Players, Extreme: cfg.Extreme, Bot: kind, Seed: cfg.Seed})
	if err != nil {
		return false, fmt.Errorf("term: %w", err)
	}
	m := &tgMatch{l: l, echo: cfg.Echo, in: in, out: out}
	err = m.run()
	if errors.Is(err, errQuit) {
		err = nil
	}
	if err == nil {
		err = m.werr
	}
	return m.again && err == nil, err
}

// tgMatch is a terminal game of The Game under way: the person's seat at
// the local game l, which runs the bots and the deck.
type tgMatch struct {
	l     *seat.TheGameLocal
	echo  bool
	in    *bufio.Reader
	out   io.Writer
	werr  error
	shown int  // the turn whose table was last shown
	again bool // the person asked to play again at the end
}

func (m *tgMatch) printf(format string, args ...any) {
	if m.werr == nil {
		_, m.werr = fmt.Fprintf(m.out, format, args...)
	}
}

// seatName names a seat for the text: the bots by the names the app gives
// them too.
func seatName(s int) string {
	if s == You {
		return "You"
	}
	if s-1 < len(words.BotNames) {
		return words.BotNames[s-1]
	}
	return "Bot " + strconv.Itoa(s)
}

var commandWords = map[thegame.Command]string{
	thegame.CmdStop:    "stop: the turn ends at once",
	thegame.CmdSkull:   "skull: cover it in this turn, or the game is lost",
	thegame.CmdThree:   "3!: exactly three cards this turn, a stop only as the third",
	thegame.CmdSilence: "no talking: no signals",
	thegame.CmdNoTrick: "no backwards trick",
	thegame.CmdOnePile: "one pile: every card of a turn on the same pile",
	thegame.CmdDrawOne: "draw one: draw only one card after the turn",
}

var signalWords = map[thegame.Signal]string{
	thegame.SignalMine: "please leave this pile to me",
	thegame.SignalGood: "I can play well here",
}

// cardText shows a card with its command in the Extreme game.
func (m *tgMatch) cardText(c int) string { return theGameCard(c, m.l.Config().Extreme) }

// theGameCard shows card c, with its command in the Extreme game.
func theGameCard(c int, extreme bool) string {
	s := strconv.Itoa(c)
	if extreme {
		if k := thegame.CommandOf(thegame.Card(c)); k != thegame.CmdNone {
			s += "(" + k.String() + ")"
		}
	}
	return s
}

// pileName is how a pile is called: piles are numbered 1 to 4 on screen.
func pileName(i int) string {
	if i < 2 {
		return fmt.Sprintf("pile %d (rising)", i+1)
	}
	return fmt.Sprintf("pile %d (falling)", i+1)
}

// show prints the table as the person sees it.
func (m *tgMatch) show() { showTheGame(m.printf, m.l.View(), seatName) }

// showTheGame prints the table of The Game as view v shows it: the piles
// with their direction, top card, backwards-trick target and signals, the
// draw pile and hand sizes, the commands in force, and v's hand with the
// cards that fit somewhere marked; name names a seat.
func showTheGame(printf func(string, ...any), v thegame.View, name func(int) string) {
	printf("\n")
	for i, p := range v.Piles {
		arrow, trick := "up  ", p.Top-10
		if !p.Up {
			arrow, trick = "down", p.Top+10
		}
		line := fmt.Sprintf("  %d %s top %-10s", i+1, arrow, theGameCard(p.Top, v.Extreme))
		if trick >= 2 && trick <= 99 {
			line += fmt.Sprintf(" trick: %d", trick)
		}
		var sig []string
		for s := range v.Signals {
			if k := v.Signals[s][i]; k != thegame.SignalNone {
				sig = append(sig, fmt.Sprintf("%s: %q", name(s), signalWords[k]))
			}
		}
		if len(sig) > 0 {
			line += "   signals: " + strings.Join(sig, "; ")
			if v.Muted {
				line += " (greyed out)"
			}
		}
		printf("%s\n", line)
	}
	printf("Draw pile: %d cards. Hands:", v.DrawPile)
	for s, n := range v.HandSizes {
		printf(" %s %d", name(s), n)
	}
	printf("\n")
	if len(v.InForce) > 0 {
		printf("In force:\n")
		for _, k := range v.InForce {
			printf("  - %s\n", commandWords[k])
		}
	}
	var hand []string
	pos := v.Position()
	for _, c := range v.Hand {
		t := theGameCard(int(c), v.Extreme)
		fits := false
		for pile := range thegame.NumPiles {
			fits = fits || pos.CanPlay(c, pile)
		}
		if fits {
			t += "*"
		}
		hand = append(hand, t)
	}
	printf("Your hand: %s   (* fits a pile now)\n", strings.Join(hand, " "))
}

const tgHelp = `Type:
  CARD PILE      lay a card on a pile, e.g. "37 2" (piles 1 to 4)
  end            end your turn (after the minimum: 2 cards, 1 once the draw pile is empty)
  mine PILE      signal "please leave this pile to me"
  good PILE      signal "I can play well here"
  clear PILE     take your signal off a pile
  show           show the table again
  hint           the move a strong bot would make in your place
  rules          the rules in short
  quit           leave the game
`

const tgRules = `The Game: everybody plays together against the deck. Piles 1 and 2 rise
from 1, piles 3 and 4 fall from 100. Lay at least two cards a turn (one once
the draw pile is empty), then draw back up. A card exactly 10 back (lower on a
rising pile, higher on a falling one) always fits: the backwards trick. The
game ends when the player on turn cannot lay the minimum; the fewer cards
left, the better, and all 98 laid beats the game. Signals are the only talk:
never a number. In the Extreme game some cards carry commands, shown in
brackets after the number; docs/thegame-rules.md has them all.
`

func (m *tgMatch) run() error {
	cfg := m.l.Config()
	variant := "The Game"
	if cfg.Extreme {
		variant = "The Game Extreme"
	}
	who := "1 player: you"
	switch cfg.Players {
	case 1:
	case 2:
		who = "2 players: you are seat 0, the other is a bot"
	default:
		who = fmt.Sprintf("%d players: you are seat 0, the others are bots", cfg.Players)
	}
	m.printf("%s, %s. Type \"help\" for the commands.\n", variant, who)
	m.shown = -1
	for range 100000 {
		a, ok, err := m.l.TryNext()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("term: %w", err)
		}
		if ok {
			m.tell(a)
			continue
		}
		if err := m.personStep(); err != nil {
			return err
		}
	}
	r := m.l.Result()
	m.printf("\nThe game is over. Cards left: %d.\n", r.CardsLeft)
	if r.Broken != thegame.CmdNone {
		m.printf("The command %q could not be kept.\n", r.Broken.String())
	}
	m.printf("%s\n", capitalise(r.Rating().Words()))
	m.printf("%s\n> ", words.PlayAgain())
	ans, err := m.read()
	if err != nil {
		return err
	}
	switch strings.ToLower(ans) {
	case "yes", "y", "again":
		m.again = true
	}
	return nil
}

// theGameHint says the strong bot's move for the seat of v.
func theGameHint(v thegame.View) string {
	a, err := seat.TheGameHint(v)
	switch {
	case err != nil:
		return words.NoHint().String()
	case a.Kind == thegame.ActEnd:
		return words.Hint(words.Plain("end your turn")).String()
	}
	return words.Hint(words.Plain(fmt.Sprintf("lay %d on pile %d", a.Card, a.Pile+1))).String()
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tell prints another seat's move as the game tells it: a bot's signal
// (not its signal taken off), card or end of turn. The person's own moves
// are not repeated.
func (m *tgMatch) tell(a thegame.Action) {
	if a.Seat == You {
		return
	}
	switch a.Kind {
	case thegame.ActSignal:
		if a.Signal != thegame.SignalNone {
			m.printf("%s signals on %s: %q\n", seatName(a.Seat), pileName(a.Pile), signalWords[a.Signal])
		}
	case thegame.ActPlay:
		m.printf("%s lays %s on %s.\n", seatName(a.Seat), m.cardText(int(a.Card)), pileName(a.Pile))
	case thegame.ActEnd:
		m.printf("%s ends the turn.\n", seatName(a.Seat))
	}
}

// personStep asks the person for one action and applies it.
func (m *tgMatch) personStep() error {
	v := m.l.View()
	if m.shown != v.Turns {
		m.shown = v.Turns
		m.show()
	}
	pos := v.Position()
	m.printf("Your turn (%d laid, at least %d): ", pos.Played, pos.Min())
	line, err := m.read()
	if err != nil {
		return err
	}
	in := parseTheGame(line, You)
	switch in.word {
	case "":
		return nil
	case "quit":
		m.printf("You left the game.\n")
		return errQuit
	case "help":
		m.printf("%s", tgHelp)
		return nil
	case "rules":
		m.printf("%s", tgRules)
		return nil
	case "show":
		m.show()
		return nil
	case "hint":
		m.printf("%s\n", theGameHint(m.l.View()))
		return nil
	case "bad":
		m.printf("%s\n", in.msg)
		return nil
	}
	a := in.action
	switch a.Kind {
	case thegame.ActEnd:
		if err := m.l.Act(a); err != nil {
			m.printf("Not yet: %s.\n", reason(err))
		}
		return nil
	case thegame.ActSignal:
		if err := m.l.Act(a); err != nil {
			m.printf("No signal: %s.\n", reason(err))
		}
		return nil
	}
	if err := pos.CheckPlay(a.Card, a.Pile); err != nil {
		m.printf("Not possible: %s. Nothing is lost: choose again.\n", reason(err))
		return nil
	}
	if k, lose := m.l.Warning(a); lose {
		m.printf("%s", theGameWarning(k))
		ans, err := m.read()
		if err != nil {
			return err
		}
		if a := strings.ToLower(strings.TrimSpace(ans)); a != "yes" && a != "y" {
			return nil
		}
	}
	if err := m.l.Act(a); err != nil {
		m.printf("Not possible: %s.\n", reason(err))
		return nil
	}
	if v := m.l.View(); v.Phase != thegame.PhasePlay || v.Turn != You {
		m.printf("Your turn is over.\n")
	}
	return nil
}

// theGameWarning asks whether to lay a card after which the game is lost
// because command k (or the turn itself, for CmdNone) cannot be kept.
func theGameWarning(k thegame.Command) string {
	why := "you could not finish your turn"
	if k != thegame.CmdNone {
		why = fmt.Sprintf("the command %q could not be kept", k.String())
	}
	return fmt.Sprintf("Careful: after this card %s and the game ends. Lay it anyway? (yes/no) ", why)
}

// tgInput is a line the person typed at The Game: a word ("quit",
// "help", "rules", "show"; "bad" with msg for a line that says nothing
// playable; "" for an empty line), or "move" with the action.
type tgInput struct {
	word   string
	msg    string
	action thegame.Action
}

// parseTheGame reads a line typed by the person in seat you.
func parseTheGame(line string, you int) tgInput {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return tgInput{}
	}
	switch f[0] {
	case "quit", "q":
		return tgInput{word: "quit"}
	case "help", "?":
		return tgInput{word: "help"}
	case "hint":
		return tgInput{word: "hint"}
	case "rules", "show":
		return tgInput{word: f[0]}
	case "end", "e":
		return tgInput{word: "move", action: thegame.Action{Kind: thegame.ActEnd, Seat: you}}
	case "mine", "good", "clear":
		sig := map[string]thegame.Signal{"mine": thegame.SignalMine, "good": thegame.SignalGood, "clear": thegame.SignalNone}[f[0]]
		pile, ok := pileArg(f)
		if !ok {
			return tgInput{word: "bad", msg: fmt.Sprintf("Say which pile, 1 to 4, e.g. %q.", f[0]+" 2")}
		}
		return tgInput{word: "move", action: thegame.Action{Kind: thegame.ActSignal, Seat: you, Pile: pile, Signal: sig}}
	}
	c, err := strconv.Atoi(f[0])
	pile, ok := pileArg(f)
	if err != nil || !ok || len(f) != 2 {
		return tgInput{word: "bad", msg: "Type a card and a pile, e.g. \"37 2\", or \"help\"."}
	}
	if c < 2 || c > 99 {
		return tgInput{word: "bad", msg: fmt.Sprintf("There is no card %d: the cards are 2 to 99.", c)}
	}
	return tgInput{word: "move", action: thegame.Action{Kind: thegame.ActPlay, Seat: you, Card: thegame.Card(c), Pile: pile}}
}

// pileArg reads the pile number (1 to 4) in f[1].
func pileArg(f []string) (int, bool) {
	if len(f) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > thegame.NumPiles {
		return 0, false
	}
	return n - 1, true
}

// reason is an engine error without its package prefix.
func reason(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, "thegame: "); i >= 0 {
		s = s[i+len("thegame: "):]
	}
	return s
}

// read reads one line of input; the end of the input quits the game.
func (m *tgMatch) read() (string, error) {
	line, err := m.in.ReadString('\n')
	if len(line) > maxLine {
		line = line[:maxLine]
	}
	if err != nil && line == "" {
		if errors.Is(err, io.EOF) {
			m.printf("\n")
			return "", errQuit
		}
		return "", fmt.Errorf("term: %w", err)
	}
	line = strings.TrimSpace(line)
	if m.echo {
		m.printf("%s\n", line)
	}
	return line, nil
}
