package ui

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/thegame"
)

// The preferences of the setup of The Game: the last choices made on it.
const (
	keyTGPlayers = "thegame.players"
	keyTGBot     = "thegame.bot"
	keyTGExtreme = "thegame.extreme"
)

// tgBotKinds are the bots offered for The Game: easy is the greedy bot,
// strong the expert that plans its turns, prices every unplayed card by the
// piles it still fits, and signals.
var tgBotKinds = []struct{ id, kind string }{
	{"thegame.bot.easy", "greedy"},
	{"thegame.bot.strong", "expert"},
}

// TheGameSetup is the screen that sets up a game of The Game against bots
// on this device: the number of players, the bots' strength, Extreme.
type TheGameSetup struct {
	app *App
	staticScreen

	// The form's controls, for tests.
	Players, Bots *widget.RadioGroup
	Extreme       *widget.Check
	Play, Rules   *widget.Button

	botsField fyne.CanvasObject
}

// NewTheGameSetup makes the setup screen with the last choices made on it.
func NewTheGameSetup(a *App) *TheGameSetup {
	s := &TheGameSetup{app: a}
	pr := a.Prefs().p
	var counts []string
	for n := thegame.MinPlayers; n <= thegame.MaxPlayers; n++ {
		counts = append(counts, strconv.Itoa(n))
	}
	s.Players = widget.NewRadioGroup(counts, s.playersChanged)
	s.Players.Horizontal = true
	s.Players.Required = true
	// A choice's name goes beside its box and what it means under the
	// choices, where it wraps: a box's own text does not, and the whole
	// phrase is wider than the narrowest phones in German and French.
	var kinds []string
	for _, k := range tgBotKinds {
		name, _ := tgChoiceParts(tgw(k.id))
		kinds = append(kinds, name)
	}
	botNote := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	botNote.Wrapping = fyne.TextWrapWord
	s.Bots = widget.NewRadioGroup(kinds, func(sel string) {
		for _, k := range tgBotKinds {
			if name, note := tgChoiceParts(tgw(k.id)); name == sel {
				botNote.SetText(note)
			}
		}
	})
	s.Bots.Required = true
	s.Bots.Horizontal = true
	s.Bots.SetSelected(kinds[1])
	if pr.String(keyTGBot) == tgBotKinds[0].kind {
		s.Bots.SetSelected(kinds[0])
	}
	extremeName, extremeWhat := tgChoiceParts(tgw("thegame.setup.extreme"))
	s.Extreme = widget.NewCheck(extremeName, nil)
	s.Extreme.SetChecked(pr.Bool(keyTGExtreme))
	s.Play = widget.NewButtonWithIcon(tgw("thegame.setup.play"), theme.MediaPlayIcon(), nil)
	s.Play.Importance = widget.HighImportance
	s.Rules = widget.NewButtonWithIcon(tgw("thegame.rules"), theme.QuestionIcon(), func() {
		a.Push(NewTheGameRules(a))
	})

	players := pr.IntWithFallback(keyTGPlayers, 3)
	if players < thegame.MinPlayers || players > thegame.MaxPlayers {
		players = 3
	}
	intro := widget.NewLabel(tgw("thegame.setup.intro"))
	intro.Wrapping = fyne.TextWrapWord
	extremeNote := widget.NewLabelWithStyle(strings.TrimSpace(extremeWhat+" "+tgw("thegame.setup.extreme-note")),
		fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	extremeNote.Wrapping = fyne.TextWrapWord
	s.botsField = field(tgw("thegame.setup.bots"), container.NewVBox(s.Bots, botNote))
	form := container.NewVBox(
		intro,
		field(tgw("thegame.setup.players"), s.Players),
		s.botsField,
		field(tgw("thegame.setup.variant"), container.NewVBox(s.Extreme, extremeNote)),
		s.Rules,
		layoutSpacer(8),
	)
	s.Players.SetSelected(strconv.Itoa(players))
	s.view = a.formPage(tgw("thegame.setup.title"), form, s.Play, s.deal)
	return s
}

func (s *TheGameSetup) playersChanged(string) {
	if s.botsField == nil {
		return
	}
	if s.players() > 1 {
		s.botsField.Show()
	} else {
		s.botsField.Hide()
	}
}

// players is the chosen number of players.
func (s *TheGameSetup) players() int {
	n, err := strconv.Atoi(s.Players.Selected)
	if err != nil {
		return 3
	}
	return n
}

// Config is the game the form describes, with a fresh seed.
func (s *TheGameSetup) Config() (seat.TheGameLocalConfig, error) {
	cfg := seat.TheGameLocalConfig{Players: s.players(), Extreme: s.Extreme.Checked, Bot: tgBotKinds[1].kind}
	for _, k := range tgBotKinds {
		if name, _ := tgChoiceParts(tgw(k.id)); s.Bots.Selected == name {
			cfg.Bot = k.kind
		}
	}
	if s.app.tgSeed != nil {
		cfg.Seed = s.app.tgSeed()
		return cfg, nil
	}
	seed, err := freshSeed()
	if err != nil {
		return cfg, err
	}
	cfg.Seed = seed
	return cfg, nil
}

// deal remembers the choices and sits down at the table.
func (s *TheGameSetup) deal() error {
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	pr := s.app.Prefs().p
	pr.SetInt(keyTGPlayers, cfg.Players)
	pr.SetString(keyTGBot, cfg.Bot)
	pr.SetBool(keyTGExtreme, cfg.Extreme)
	return s.app.startTheGame(cfg)
}

// tgChoiceParts splits a choice's words, "Name: what it means", into the
// name and the meaning, the meaning capitalised as a sentence; words
// without a colon are all name.
func tgChoiceParts(s string) (name, note string) {
	name, note, ok := strings.Cut(s, ":")
	if !ok {
		return strings.TrimSpace(s), ""
	}
	note = strings.TrimSpace(note)
	if r, size := utf8.DecodeRuneInString(note); size > 0 {
		note = string(unicode.ToUpper(r)) + note[size:]
		if !strings.HasSuffix(note, ".") {
			note += "."
		}
	}
	return strings.TrimSpace(name), note
}
