package ui

import (
	"context"
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
	app  *App
	view fyne.CanvasObject

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
	s.Play = widget.NewButtonWithIcon(tgw("thegame.setup.play"), theme.MediaPlayIcon(), s.start)
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
	bottom := container.New(columnLayout{}, container.NewPadded(s.Play))
	s.view = a.page(tgw("thegame.setup.title"), container.NewBorder(nil, bottom, nil, nil, column(form)))
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

// start remembers the choices and sits down at the table.
func (s *TheGameSetup) start() {
	cfg, err := s.Config()
	if err != nil {
		s.app.ShowError(err)
		return
	}
	pr := s.app.Prefs().p
	pr.SetInt(keyTGPlayers, cfg.Players)
	pr.SetString(keyTGBot, cfg.Bot)
	pr.SetBool(keyTGExtreme, cfg.Extreme)
	if err := s.app.startTheGame(cfg); err != nil {
		s.app.ShowError(err)
	}
}

// tgSeatNames are the names at a table of p: the person's, then the bots'.
func tgSeatNames(a *App, p int) []string {
	return append([]string{a.PlayerName()}, botNames[:p-1]...)
}

// View is the screen's content.
func (s *TheGameSetup) View() fyne.CanvasObject { return s.view }

// Start does nothing.
func (s *TheGameSetup) Start(context.Context) {}

// Stop does nothing.
func (s *TheGameSetup) Stop() {}

// theGameSection is the home screen's part for The Game: its name, what
// kind of game it is, and the button to its setup.
func (h *Home) theGameSection() fyne.CanvasObject {
	h.TheGame = widget.NewButtonWithIcon(tgw("thegame.home.play"), theme.ContentAddIcon(), func() {
		h.app.Push(NewTheGameSetup(h.app))
	})
	h.TheGame.Importance = widget.HighImportance
	head := widget.NewLabelWithStyle(tgw("thegame.home.title"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.SizeName = theme.SizeNameSubHeadingText
	about := widget.NewLabel(tgw("thegame.home.tagline"))
	about.Wrapping = fyne.TextWrapWord
	h.TheGameContinue = widget.NewButtonWithIcon(tgw("thegame.home.unreadable"), theme.MediaPlayIcon(), func() {
		if err := h.app.resumeTheGame(); err != nil {
			h.app.ShowError(err)
		}
	})
	h.TheGameSaved = widget.NewLabel("")
	h.TheGameSaved.Wrapping = fyne.TextWrapWord
	h.TheGameSaved.Hide()
	if !h.app.hasTheGameSave() {
		h.TheGameContinue.Hide()
		return container.NewVBox(head, about, h.TheGame)
	}
	// The saved game is named by what the person chose and how far it
	// went; one that cannot be read is still offered, and the tap says why
	// it cannot be continued.
	h.TheGameContinue.Importance = widget.HighImportance
	h.TheGame.Importance = widget.MediumImportance
	if l, err := h.app.SavedTheGame(); err == nil {
		cfg := l.Config()
		variant := tgw("thegame.home.base")
		if cfg.Extreme {
			variant = tgw("thegame.home.extreme")
		}
		h.TheGameContinue.SetText(tgn("thegame.home.continue", cfg.Players, "Variant", variant))
		v := l.View()
		left := v.DrawPile
		for _, n := range v.HandSizes {
			left += n
		}
		h.TheGameSaved.SetText(tgn("thegame.home.saved", left))
		h.TheGameSaved.Show()
	}
	return container.NewVBox(head, about, h.TheGameSaved, h.TheGameContinue, h.TheGame)
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
