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

// Home is the first screen: the game's name, then the ways to play
// (continue the unfinished game, a new game of Njet! against bots, The Game
// against bots; the LAN comes here too), then the rules and the settings.
type Home struct {
	app  *App
	view fyne.CanvasObject

	// Continue and NewGame are the screen's buttons, for tests; TheGame
	// sets up a game of The Game.
	Continue, NewGame, TheGame, Rules, Settings *widget.Button
	// TheGameContinue resumes the saved game of The Game, which
	// TheGameSaved describes; both are hidden without one.
	TheGameContinue *widget.Button
	TheGameSaved    *widget.Label
	// LAN is the part for tables on the network; nil without a LAN.
	LAN *lanSection
}

// NewHome makes the home screen.
func NewHome(a *App) *Home {
	h := &Home{app: a}
	h.Continue = widget.NewButtonWithIcon(tr("home.continue", "Continue the game"), theme.MediaPlayIcon(), h.resume)
	h.NewGame = widget.NewButtonWithIcon(tr("home.new", "New game against bots"), theme.ContentAddIcon(), func() {
		a.Push(NewNewGame(a))
	})
	h.Rules = widget.NewButtonWithIcon(tr("home.rules", "Rules"), theme.QuestionIcon(), func() {
		a.Push(NewRules(a))
	})
	h.Settings = widget.NewButtonWithIcon(tr("home.settings", "Settings"), theme.SettingsIcon(), func() {
		a.Push(NewSettings(a))
	})
	saved := a.HasSavedGame()
	if saved {
		h.Continue.Importance = widget.HighImportance
	} else {
		h.Continue.Hide()
		h.NewGame.Importance = widget.HighImportance
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

	play := section(tr("home.play", "Njet!"), h.Continue, h.NewGame)
	more := section(tr("home.more", "More"), h.Rules, h.Settings)
	intro := container.NewVBox(layoutSpacer(12), container.NewCenter(logo), title, tagline, greeting, layoutSpacer(8), play)
	var lan fyne.CanvasObject = layoutSpacer(0)
	if a.env.LAN != nil {
		h.LAN = newLANSection(a)
		// The tables nearby come right after Njet!: at a real table they are
		// what the phone is opened for, and on a phone's first screen.
		lan = container.NewVBox(layoutSpacer(8), h.LAN.view)
	}
	h.view = container.NewVScroll(container.New(&homeLayout{}, intro, lan,
		container.NewVBox(layoutSpacer(8), h.theGameSection()), container.NewVBox(layoutSpacer(8), more, layoutSpacer(24))))
	return h
}

// resume loads the saved game and sits down at it again.
func (h *Home) resume() {
	if err := resumeLocal(h.app); err != nil {
		h.app.ShowError(err)
	}
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

// homeLayout places the home screen's parts: Njet!, the LAN, The Game,
// then the rules and settings. Where the window is wide enough they go in
// two columns, Njet! and The Game on the left, the LAN and the rest on the
// right, so that a desktop shows every way to play and the settings
// without scrolling; on a phone, one under the other in one centred
// column.
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
