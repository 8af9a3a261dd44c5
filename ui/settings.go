package ui

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Settings is the screen of the person's settings: their name, the
// language, the theme and the bots' pace. Every change is kept at once.
type Settings struct {
	app *App
	staticScreen

	// The controls, for tests.
	Name     *widget.Entry
	Language *widget.Select
	Theme    *widget.RadioGroup
	Pace     *widget.Select
}

// languageNames are the languages by code, each in its own words.
var languageNames = map[string]string{"en": "English", "de": "Deutsch", "fr": "Français"}

// themeChoices are the offered themes with their names.
var themeChoices = []struct{ id, key, english string }{
	{ThemeSystem, "settings.theme.system", "System"},
	{ThemeLight, "settings.theme.light", "Light"},
	{ThemeDark, "settings.theme.dark", "Dark"},
}

// NewSettings makes the settings screen.
func NewSettings(a *App) *Settings {
	s := &Settings{app: a}
	p := a.Prefs()

	s.Name = widget.NewEntry()
	s.Name.SetPlaceHolder(tr("seat.you", "You"))
	s.Name.SetText(p.Name())
	s.Name.Validator = func(v string) error { return checkName(v) }
	s.Name.OnChanged = func(v string) {
		if checkName(v) == nil {
			_ = p.SetName(v) // checked just above
		}
	}

	system := tr("settings.lang.system", "As the system")
	langOpts := []string{system, languageNames["en"], languageNames["de"], languageNames["fr"]}
	s.Language = widget.NewSelect(langOpts, nil)
	s.Language.SetSelected(system)
	if code := p.Language(); code != "" {
		s.Language.SetSelected(languageNames[code])
	}
	s.Language.OnChanged = func(v string) {
		code := ""
		for c, n := range languageNames {
			if n == v {
				code = c
			}
		}
		if code == p.Language() {
			return
		}
		if err := p.SetLanguage(code); err != nil {
			a.ShowError(err)
			return
		}
		a.relanguage()
	}

	themes := themeChoices
	var themeOpts []string
	for _, t := range themes {
		themeOpts = append(themeOpts, tr(t.key, t.english))
	}
	s.Theme = widget.NewRadioGroup(themeOpts, nil)
	s.Theme.Required = true
	for i, t := range themes {
		if t.id == p.Theme() {
			s.Theme.SetSelected(themeOpts[i])
		}
	}
	s.Theme.OnChanged = func(v string) {
		for i, t := range themes {
			if themeOpts[i] == v {
				if err := p.SetTheme(t.id); err != nil {
					a.ShowError(err)
					return
				}
				a.applyTheme(t.id)
			}
		}
	}

	paceNames := []string{
		tr("settings.pace.fast", "Fast"),
		tr("settings.pace.normal", "Normal"),
		tr("settings.pace.slow", "Slow"),
		tr("settings.pace.slowest", "Very slow"),
	}
	s.Pace = widget.NewSelect(paceNames, nil)
	for i, d := range paces {
		if d == p.Pace() {
			s.Pace.SetSelected(paceNames[i])
		}
	}
	s.Pace.OnChanged = func(v string) {
		for i, n := range paceNames {
			if n == v {
				if err := p.SetPace(paces[i]); err != nil {
					a.ShowError(err)
				}
			}
		}
	}

	form := container.NewVBox(
		field(tr("settings.name", "Your name"), s.Name),
		field(tr("settings.lang", "Language"), s.Language),
		field(tr("settings.theme", "Theme"), newFlexRadio(s.Theme)),
		field(tr("settings.pace", "Pace of the bots"), s.Pace),
		layoutSpacer(16),
	)
	s.view = a.page(tr("settings.title", "Settings"), column(form))
	return s
}

// checkName says what is wrong with a name, if anything.
func checkName(v string) error {
	var p Prefs
	return p.checkName(v)
}

// applyTheme draws the app in theme t from now on.
func (a *App) applyTheme(t string) {
	a.theme = newAppTheme(t)
	a.fy.Settings().SetTheme(a.theme)
}

// relanguage loads the chosen language and builds the screens again when
// only home and settings are open; a game underway keeps its words until
// its table is shown again.
func (a *App) relanguage() {
	setupLang(a.prefs.Language())
	for _, e := range a.stack {
		switch e.screen.(type) {
		case *Home, *Settings:
		default:
			return
		}
	}
	a.Reset(NewHome(a))
	a.Push(NewSettings(a))
}
