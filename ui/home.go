package ui

import (
	"context"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Home is the first screen: the app's name, then the ways to play (each
// game's part: continue its unfinished game, set up a new one against
// bots; the LAN comes after the first game), then the rules and the
// settings.
type Home struct {
	app  *App
	view fyne.CanvasObject

	// Games are the games' parts, in the registry's order; Rules and
	// Settings are the screen's other buttons, for tests.
	Games           []*GameSection
	Rules, Settings *widget.Button
	// LAN is the part for tables on the network; nil without a LAN.
	LAN *lanSection
}

// NewHome makes the home screen.
func NewHome(a *App) *Home {
	h := &Home{app: a}
	h.Rules = widget.NewButtonWithIcon(tr("home.rules", "Rules"), theme.QuestionIcon(), func() {
		a.Push(gameUIs[0].rules(a))
	})
	h.Settings = widget.NewButtonWithIcon(tr("home.settings", "Settings"), theme.SettingsIcon(), func() {
		a.Push(NewSettings(a))
	})
	for _, g := range gameUIs {
		h.Games = append(h.Games, newGameSection(a, g))
	}

	logo := canvas.NewImageFromResource(Icon())
	logo.FillMode = canvas.ImageFillContain
	logo.SetMinSize(fyne.NewSize(88, 88))
	title := widget.NewLabelWithStyle(appName, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	// The tagline is in the regular face: a face of its own (italic) costs
	// the app its font data a second time.
	tagline := widget.NewLabelWithStyle(tr("home.tagline", "The card game where everyone says no"), fyne.TextAlignCenter, fyne.TextStyle{})
	tagline.Wrapping = fyne.TextWrapWord

	greeting := widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{})
	if name := a.PlayerName(); name != "" {
		greeting.SetText(tr("home.hello", "Hello, {{.Name}}!", map[string]any{"Name": name}))
	} else {
		greeting.Hide()
	}

	more := section(tr("home.more", "More"), h.Rules, h.Settings)
	intro := container.NewVBox(layoutSpacer(12), container.NewCenter(logo), title, tagline, greeting, layoutSpacer(8), h.Games[0].view)
	var lan fyne.CanvasObject = layoutSpacer(0)
	if a.env.LAN != nil {
		h.LAN = newLANSection(a)
		// The tables nearby come right after the app's own game: at a
		// real table they are what the phone is opened for, and on a
		// phone's first screen.
		lan = container.NewVBox(layoutSpacer(8), h.LAN.view)
	}
	parts := []fyne.CanvasObject{intro, lan}
	for _, g := range h.Games[1:] {
		parts = append(parts, container.NewVBox(layoutSpacer(8), g.view))
	}
	parts = append(parts, container.NewVBox(layoutSpacer(8), more, layoutSpacer(24)))
	h.view = container.NewVScroll(container.New(&homeLayout{}, parts...))
	return h
}

// Game is the part of the game id, or nil.
func (h *Home) Game(id string) *GameSection {
	for i, g := range gameUIs {
		if g.id == id {
			return h.Games[i]
		}
	}
	return nil
}

// GameSection is a game's part of the home screen: its name, what kind of
// game it is, and the buttons to continue its unfinished local game and
// to set up a new one against bots. The game names its saved game (on
// Continue, and in a line above it when it says more); Continue is
// hidden without one.
type GameSection struct {
	// Continue, Saved and New are the section's controls, for tests.
	Continue, New *widget.Button
	Saved         *widget.Label
	view          fyne.CanvasObject
}

func newGameSection(a *App, g *gameUI) *GameSection {
	s := &GameSection{}
	s.New = widget.NewButtonWithIcon(g.newLabel(), theme.ContentAddIcon(), func() { a.Push(g.setup(a)) })
	s.New.Importance = widget.HighImportance
	s.Continue = widget.NewButtonWithIcon("", theme.MediaPlayIcon(), func() {
		if err := a.resumeLocal(g); err != nil {
			a.ShowError(err)
		}
	})
	s.Saved = widget.NewLabel("")
	s.Saved.Wrapping = fyne.TextWrapWord
	s.Saved.Hide()
	head := widget.NewLabelWithStyle(g.title(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.SizeName = theme.SizeNameSubHeadingText
	parts := []fyne.CanvasObject{head}
	if about := g.about(); about != "" {
		l := widget.NewLabel(about)
		l.Wrapping = fyne.TextWrapWord
		parts = append(parts, l)
	}
	s.view = container.NewVBox(append(parts, s.Saved, s.Continue, s.New)...)
	if !a.HasSavedGame(g.id) {
		s.Continue.Hide()
		return s
	}
	s.Continue.Importance = widget.HighImportance
	s.New.Importance = widget.MediumImportance
	// A save kept though it cannot be read (data nil) is offered too:
	// the tap says why it cannot be continued.
	data, err := a.savedGame(g.id)
	if err != nil {
		data = nil
	}
	label, line := g.describe(a, data)
	s.Continue.SetText(label)
	if line != "" {
		s.Saved.SetText(line)
		s.Saved.Show()
	}
	return s
}

// View is the home screen's content.
func (h *Home) View() fyne.CanvasObject { return h.view }

// Start watches the LAN for tables, when the app has one.
func (h *Home) Start(ctx context.Context) {
	if h.LAN != nil {
		h.LAN.start(ctx)
	}
}

// Stop does nothing.
func (h *Home) Stop() {}

// section is a titled group of full-width buttons.
func section(title string, buttons ...fyne.CanvasObject) fyne.CanvasObject {
	head := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.SizeName = theme.SizeNameSubHeadingText
	objs := append([]fyne.CanvasObject{head}, buttons...)
	return container.NewVBox(objs...)
}

// layoutSpacer is empty space h units high.
func layoutSpacer(h float32) fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(1, h))
	return r
}

// homeLayout places the home screen's parts: the app's own game, the
// LAN, the other games, then the rules and settings. Where the window is
// wide enough they go in two columns, alternately (Njet! and The Game on
// the left, the LAN and the rest on the right), so that a desktop shows
// every way to play and the settings without scrolling; on a phone, one
// under the other in one centred column.
type homeLayout struct {
	last float32 // the width of the last layout
}

const (
	// homeColumn is the widest each column grows, homeGap the space
	// between the columns.
	homeColumn = 460
	homeGap    = 48
)

// wide reports whether the parts go in two columns at width w.
func (l *homeLayout) wide(w float32) bool { return w >= 2*320+homeGap+2*theme.Padding() }

// columns splits the parts into the two columns.
func columns(objs []fyne.CanvasObject) (left, right []fyne.CanvasObject) {
	for i, o := range objs {
		if i%2 == 0 {
			left = append(left, o)
		} else {
			right = append(right, o)
		}
	}
	return left, right
}

func (l *homeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.last = size.Width
	pad := theme.Padding()
	stack := func(objs []fyne.CanvasObject, x, w float32) {
		y := float32(0)
		for _, o := range objs {
			h := o.MinSize().Height
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(w, h))
			y += h
		}
	}
	if l.wide(size.Width) {
		w := min(homeColumn, (size.Width-homeGap-2*pad)/2)
		x := (size.Width - 2*w - homeGap) / 2
		left, right := columns(objs)
		stack(left, x, w)
		stack(right, x+w+homeGap, w)
		return
	}
	w := min(maxColumn, size.Width-2*pad)
	stack(objs, (size.Width-w)/2, w)
}

func (l *homeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	height := func(objs []fyne.CanvasObject) (s fyne.Size) {
		for _, o := range objs {
			m := o.MinSize()
			s.Width = max(s.Width, m.Width)
			s.Height += m.Height
		}
		return s
	}
	s := height(objs)
	if l.wide(l.last) {
		left, right := columns(objs)
		a, b := height(left), height(right)
		s = fyne.NewSize(max(a.Width, b.Width), max(a.Height, b.Height))
	}
	return s.Add(fyne.NewSize(2*theme.Padding(), 0))
}
