package ui

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// NewGame is the screen that sets up a game against bots on this device:
// the edition, the number of players, each bot's strength, the length of
// the game and, for a game to replay, its seed.
type NewGame struct {
	app *App
	staticScreen

	// The form's controls, for tests.
	Edition, Players, Length *widget.RadioGroup
	Bots                     []*widget.RadioGroup // one per other seat
	Target, Seed             *widget.Entry
	Play                     *widget.Button
	// HouseRule says, in Classic, that a target score is a house rule:
	// the Classic rules know only the whole and the short game.
	HouseRule *widget.Label

	edition engine.Edition
	players int
	bots    *fyne.Container
	lengths []length // the options Length shows, in order
}

// length is one choice of how long the game lasts.
type length uint8

const (
	lengthWhole length = iota
	lengthShort
	lengthTarget
)

// botNames name the other seats, in seat order after the person's.
var botNames = words.BotNames

// botLevels are the offered bot strengths and the bot kinds behind them.
var botLevels = []struct {
	key, english, kind string
}{
	{"newgame.bot.easy", "Easy", "random"},
	{"newgame.bot.normal", "Normal", "heuristic"},
	{"newgame.bot.strong", "Strong", "search"},
}

// defaultTarget is the target score first offered.
const defaultTarget = 100

// NewNewGame makes the new-game screen with the last choices made on it.
func NewNewGame(a *App) *NewGame {
	n := &NewGame{app: a, edition: engine.Classic, players: 4}
	pr := a.Prefs().p
	if pr.String(keyEdition) == engine.Modern.String() {
		n.edition = engine.Modern
	}
	n.players = pr.IntWithFallback(keyPlayers, 4)
	if n.players < n.edition.MinPlayers() || n.players > n.edition.MaxPlayers() {
		n.players = 4
	}

	n.Edition = widget.NewRadioGroup([]string{editionName(engine.Classic), editionName(engine.Modern)}, n.editionChanged)
	n.Edition.Horizontal = true
	n.Edition.Required = true
	n.Players = widget.NewRadioGroup(nil, n.playersChanged)
	n.Players.Horizontal = true
	n.Players.Required = true
	// Each bot's name above its three strengths: beside them the row would
	// not fit a phone's width.
	n.bots = container.NewVBox()
	n.Length = widget.NewRadioGroup(nil, n.lengthChanged)
	n.Length.Required = true
	n.HouseRule = widget.NewLabel(tr("newgame.length.target.note", "In Classic, the target score is a house rule."))
	n.HouseRule.Wrapping = fyne.TextWrapWord
	n.HouseRule.Importance = widget.LowImportance
	n.Target = widget.NewEntry()
	n.Target.SetText(strconv.Itoa(pr.IntWithFallback(keyTarget, defaultTarget)))
	n.Target.Validator = func(s string) error { _, err := parseTarget(s); return err }
	n.Seed = widget.NewEntry()
	n.Seed.SetPlaceHolder(tr("newgame.seed.random", "random"))
	n.Seed.Validator = func(s string) error { _, _, err := parseSeed(s); return err }
	n.Play = widget.NewButtonWithIcon(tr("newgame.play", "Deal the cards"), theme.MediaPlayIcon(), nil)
	n.Play.Importance = widget.HighImportance

	n.Edition.SetSelected(editionName(n.edition))
	form := container.NewVBox(
		field(tr("newgame.edition", "Edition"), newFlexRadio(n.Edition)),
		field(tr("newgame.players", "Players"), newFlexRadio(n.Players)),
		field(tr("newgame.bots", "Bots"), n.bots),
		field(tr("newgame.length", "Length of the game"), container.NewVBox(n.Length, n.HouseRule, n.Target)),
		field(tr("newgame.seed", "Seed (to replay a game)"), n.Seed),
		layoutSpacer(8),
	)
	n.view = a.formPage(tr("newgame.title", "New game"), form, n.Play, n.deal)
	return n
}

// field is a labelled part of a form.
// It is a region named by its label (package reach), so that a person
// finds the control under the label they read.
func field(label string, control fyne.CanvasObject) fyne.CanvasObject {
	l := widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Wrapping = fyne.TextWrapWord // a long label must not widen a small window's form
	return container.New(reach.Named(label, layout.NewVBoxLayout()), l, control)
}

// editionName is an edition's name on screen.
func editionName(e engine.Edition) string {
	if e == engine.Modern {
		return tr("edition.modern", "Modern")
	}
	return tr("edition.classic", "Classic")
}

func (n *NewGame) editionChanged(s string) {
	if s == editionName(engine.Modern) {
		n.edition = engine.Modern
	} else {
		n.edition = engine.Classic
	}
	var opts []string
	for p := n.edition.MinPlayers(); p <= n.edition.MaxPlayers(); p++ {
		opts = append(opts, strconv.Itoa(p))
	}
	n.Players.Options = opts
	if n.players < n.edition.MinPlayers() || n.players > n.edition.MaxPlayers() {
		n.players = 4
	}
	n.Players.Selected = ""
	n.Players.SetSelected(strconv.Itoa(n.players))
}

func (n *NewGame) playersChanged(s string) {
	p, err := strconv.Atoi(s)
	if err != nil {
		return // Required keeps a choice; nothing to change
	}
	n.players = p
	kinds := strings.Split(n.app.Prefs().p.String(keyBots), ",")
	n.Bots = nil
	n.bots.Objects = nil
	var levels []string
	for _, l := range botLevels {
		levels = append(levels, tr(l.key, l.english))
	}
	for i := 0; i < p-1; i++ {
		r := widget.NewRadioGroup(levels, nil)
		r.Required = true
		r.SetSelected(levels[1])
		for j, l := range botLevels {
			if i < len(kinds) && kinds[i] == l.kind {
				r.SetSelected(levels[j])
			}
		}
		name := widget.NewLabel(botNames[i])
		n.Bots = append(n.Bots, r)
		n.bots.Add(name)
		n.bots.Add(newFlexRadio(r))
	}
	n.bots.Refresh()
	n.refreshLengths()
}

// refreshLengths offers the lengths the edition has, with the number of
// rounds each plays (from the engine).
func (n *NewGame) refreshLengths() {
	old := n.length()
	n.lengths = []length{lengthWhole}
	opts := []string{tr("newgame.length.whole", "Whole game: {{.Rounds}} rounds", map[string]any{"Rounds": n.rounds(false)})}
	if n.edition == engine.Classic {
		n.lengths = append(n.lengths, lengthShort)
		opts = append(opts, tr("newgame.length.short", "Short game: {{.Rounds}} rounds", map[string]any{"Rounds": n.rounds(true)}))
	}
	n.lengths = append(n.lengths, lengthTarget)
	opts = append(opts, tr("newgame.length.target", "Up to a target score"))
	show(n.HouseRule, n.edition == engine.Classic)
	n.Length.Options = opts
	want := 0
	for i, l := range n.lengths {
		if l == old {
			want = i
		}
	}
	if n.Length.Selected == "" {
		saved := length(n.app.Prefs().p.IntWithFallback(keyLength, 0))
		for i, l := range n.lengths {
			if l == saved {
				want = i
			}
		}
	}
	n.Length.Selected = ""
	n.Length.SetSelected(opts[want])
}

// rounds is the number of rounds of a whole or short game at this table.
func (n *NewGame) rounds(short bool) int {
	g, err := engine.NewGame(engine.Config{Edition: n.edition, Players: n.players, Short: short})
	if err != nil {
		return 0
	}
	return g.Rounds()
}

// length is the chosen length.
func (n *NewGame) length() length {
	for i, o := range n.Length.Options {
		if o == n.Length.Selected && i < len(n.lengths) {
			return n.lengths[i]
		}
	}
	return lengthWhole
}

func (n *NewGame) lengthChanged(string) {
	if n.length() == lengthTarget {
		n.Target.Show()
	} else {
		n.Target.Hide()
	}
}

// parseTarget reads a target score.
func parseTarget(s string) (int, error) {
	t, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || t < 1 || t > 1000 {
		return 0, errors.New(tr("newgame.target.bad", "A target score is a number from 1 to 1000"))
	}
	return t, nil
}

// parseSeed reads an optional seed: ok is false when none was given.
func parseSeed(s string) (seed uint64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	seed, err = strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false, errors.New(tr("newgame.seed.bad", "A seed is a whole number, or nothing for a random game"))
	}
	return seed, true, nil
}

// Config is the game the form describes, with the person in seat 0.
func (n *NewGame) Config() (seat.LocalConfig, error) {
	cfg := seat.LocalConfig{Edition: n.edition, Players: n.players, Names: seatNames(n.app, n.players)}
	for _, r := range n.Bots {
		kind := botLevels[1].kind
		for _, l := range botLevels {
			if r.Selected == tr(l.key, l.english) {
				kind = l.kind
			}
		}
		cfg.Bots = append(cfg.Bots, kind)
	}
	switch n.length() {
	case lengthShort:
		cfg.Short = true
	case lengthTarget:
		t, err := parseTarget(n.Target.Text)
		if err != nil {
			return cfg, err
		}
		cfg.Target = t
	}
	seed, ok, err := parseSeed(n.Seed.Text)
	if err != nil {
		return cfg, err
	}
	if !ok {
		if seed, err = freshSeed(); err != nil {
			return cfg, err
		}
	}
	cfg.Seed = seed
	return cfg, nil
}

// seatNames are the names at a table of p: the person's from the
// settings, then the bots'. Without a name in the settings the person's
// is empty: the table then says "You" in the language of the moment, so a
// save does not keep the word of the language it was made in.
func seatNames(a *App, p int) []string {
	return append([]string{a.PlayerName()}, botNames[:p-1]...)
}

// youWords are "You" in each language, as saves made before the person's
// name was left empty hold it.
var youWords = []string{"You", "Du", "Vous"}

// namesOf are the names a game's table shows: a saved word for "you" in
// the person's seat is dropped, so that the table says it in the
// language of the moment.
func namesOf(cfg seat.LocalConfig) []string {
	names := slices.Clone(cfg.Names)
	if cfg.You >= 0 && cfg.You < len(names) && slices.Contains(youWords, names[cfg.You]) {
		names[cfg.You] = ""
	}
	return names
}

// freshSeed draws the seed of a game nobody asked to replay.
func freshSeed() (uint64, error) {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("no random seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// deal remembers the choices and sits the person down at the new game.
func (n *NewGame) deal() error {
	cfg, err := n.Config()
	if err != nil {
		return err
	}
	pr := n.app.Prefs().p
	pr.SetString(keyEdition, cfg.Edition.String())
	pr.SetInt(keyPlayers, cfg.Players)
	pr.SetString(keyBots, strings.Join(cfg.Bots, ","))
	pr.SetInt(keyLength, int(n.length()))
	if cfg.Target > 0 {
		pr.SetInt(keyTarget, cfg.Target)
	}
	return startNjet(n.app, cfg)
}
