package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// lanSection is the home screen's part for the LAN: the tables seen on
// the network as they appear and vanish (tap one to join), hosting, joining
// with a code, and continuing an unfinished LAN table.
type lanSection struct {
	app  *App
	lan  LAN
	view fyne.CanvasObject

	list   *fyne.Container // one button per table
	empty  *widget.Label   // "no tables yet"
	ads    []LANTableAd
	listed map[string]bool // the ids of the tables listed so far
	resume LANTable

	// Continue, Host, Code and Check are the section's buttons, for tests.
	Continue, Host, Code, Check *widget.Button
}

func newLANSection(a *App) *lanSection {
	l := &lanSection{app: a, lan: a.env.LAN, listed: map[string]bool{}}
	l.Continue = widget.NewButtonWithIcon(tr("lan.continue", "Continue the LAN table"), theme.MediaPlayIcon(), func() {
		if l.resume != nil {
			a.Push(NewLANTable(a, l.resume))
		}
	})
	l.Continue.Importance = widget.HighImportance
	l.Continue.Hide()
	l.Host = widget.NewButtonWithIcon(tr("lan.host", "Host a table"), theme.ContentAddIcon(), func() {
		a.Push(NewHostForm(a))
	})
	l.Code = widget.NewButtonWithIcon(tr("lan.join-code", "Join with a code"), theme.LoginIcon(), func() {
		a.Push(NewJoinCode(a))
	})
	l.Check = widget.NewButtonWithIcon(tr("checklog.title", "Check a log"), theme.DocumentIcon(), func() {
		a.Push(NewCheckLog(a))
	})
	l.empty = widget.NewLabel(tr("lan.looking", "Looking for tables on this network…"))
	l.empty.Wrapping = fyne.TextWrapWord
	l.list = container.NewVBox()
	l.view = section(tr("lan.title", "On this network"), l.Continue, l.empty, l.list, l.Host, l.Code, l.Check)
	return l
}

// start looks for an unfinished table and watches the LAN until ctx ends.
func (l *lanSection) start(ctx context.Context) {
	go func() {
		t, err := l.lan.Resume()
		l.app.do(func() {
			if err != nil {
				l.app.ShowError(err)
				return
			}
			if t != nil {
				l.resume = t
				l.Continue.Show()
			}
		})
	}()
	go l.watch(ctx)
}

// noNetworkRetry is how often the home screen looks again for a network
// while the device is on none (a variable for tests).
var noNetworkRetry = 3 * time.Second

// watch lists the tables until ctx ends. While the device is on no
// network it says so and looks again every noNetworkRetry: the tables
// show once the person turns Wi-Fi on.
func (l *lanSection) watch(ctx context.Context) {
	for ctx.Err() == nil {
		err := l.lan.Watch(ctx, func(ads []LANTableAd) {
			l.app.do(func() { l.show(ads) })
		})
		if err == nil || ctx.Err() != nil {
			return
		}
		if !errors.Is(err, ErrNoNetwork) {
			l.app.do(func() {
				l.empty.SetText(tr("lan.watch-failed", "Cannot look for tables here: {{.Err}}. Join with a code instead.",
					map[string]any{"Err": err.Error()}))
				l.empty.Show()
			})
			return
		}
		l.app.do(func() {
			l.empty.SetText(tr("lan.no-network", "This device is on no network: connect it to the Wi-Fi the others use, and their tables show up here."))
			l.empty.Show()
		})
		select {
		case <-ctx.Done():
		case <-time.After(noNetworkRetry):
		}
	}
}

// show lists the tables.
func (l *lanSection) show(ads []LANTableAd) {
	l.ads = ads
	objs := make([]fyne.CanvasObject, 0, len(ads))
	for _, ad := range ads {
		b := widget.NewButton(ad.Name, func() {
			l.app.trace("tap "+ad.Name, l.app.Now())
			l.app.Push(NewJoining(l.app, JoinTo{Table: ad.ID}, ad.Name))
		})
		if !l.listed[ad.ID] {
			l.listed[ad.ID] = true
			l.app.trace("listed "+ad.Name, l.app.Now())
		}
		b.Alignment = widget.ButtonAlignLeading
		if ad.Free <= 0 {
			b.Disable()
		}
		line := widget.NewLabel(adLine(ad))
		line.Wrapping = fyne.TextWrapWord
		objs = append(objs, container.NewVBox(b, line))
	}
	l.list.Objects = objs
	l.list.Refresh()
	if len(ads) == 0 {
		l.empty.SetText(tr("lan.looking", "Looking for tables on this network…"))
		l.empty.Show()
	} else {
		l.empty.Hide()
	}
	l.app.body.Refresh() // the section grew or shrank: the page lays out again
}

// Tables are the tables the section lists, for tests.
func (l *lanSection) Tables() []string {
	out := make([]string, len(l.list.Objects))
	for i, o := range l.list.Objects {
		out[i] = o.(*fyne.Container).Objects[1].(*widget.Label).Text
	}
	return out
}

// gameName names the game of a table by its variant: Njet!'s edition, or
// The Game and whether Extreme.
func gameName(game, variant string) string { return gameByID(game).variantName(variant) }

// adLine is a table in one line: its name as typed, the game (edition), the
// players, the free seats, the host's name and the table's clock.
func adLine(ad LANTableAd) string {
	line := tr("lan.ad", "{{.Name}} · {{.Edition}} · {{.Players}} players · {{.Free}} free",
		map[string]any{"Name": ad.Name, "Edition": gameName(ad.Game, ad.Variant), "Players": ad.Players, "Free": ad.Free})
	if ad.Host != "" {
		line += " · " + tr("lan.ad-host", "hosted by {{.Host}}", map[string]any{"Host": ad.Host})
	}
	if ad.Clock > 0 {
		line += " · " + clockPerMove(ad.Clock)
	}
	return line
}

// HostForm asks for the table a person hosts: its name, the game, the
// players, how many seats bots fill and how strong they are, and the
// chosen game's own choices (Njet!'s edition, short game and target
// score, The Game's Extreme), which that game puts on the form
// (gameUI.host): the form shows the chosen game's fields alone.
type HostForm struct {
	app *App
	staticScreen

	// The form's fields and its button, for tests; own is the chosen
	// game's part.
	Name     *widget.Entry
	Game     *widget.RadioGroup
	Players  *widget.Select
	Bots     *widget.Select
	Strength *widget.Select
	Hints    *widget.Check
	// Clock is the table's clock per move, off by default.
	Clock   *widget.Select
	Open    *widget.Button
	Problem *widget.Label
	own     hostPart

	// form holds the form, made again when the game changes.
	form *fyne.Container
}

// hostPart is a game's own part of the host form: its rows, shown above
// the players (head) and below the bots' strength (tail), and how it
// reads them.
type hostPart struct {
	head, tail []*widget.FormItem
	// config reads the game's choices into cfg, or says why they cannot
	// make a table.
	config func(cfg *LANHostConfig) error
	// fields are the game's widgets, for tests.
	fields any
}

// NewHostForm makes the host form.
func NewHostForm(a *App) *HostForm {
	f := &HostForm{app: a}
	f.Name = widget.NewEntry()
	f.Name.SetPlaceHolder(tr("lan.host.name-hint", "Kitchen"))
	if n := a.PlayerName(); n != "" {
		f.Name.SetText(tr("lan.host.name-default", "{{.Name}}'s table", map[string]any{"Name": n}))
	}
	f.Players = widget.NewSelect(nil, func(string) { f.botsChoices() })
	f.Bots = widget.NewSelect(nil, nil)
	f.Strength = widget.NewSelect(nil, nil)
	for _, st := range f.strengths() {
		f.Strength.Options = append(f.Strength.Options, strengthName(st))
	}
	if n := len(f.Strength.Options); n > 0 {
		f.Strength.SetSelectedIndex(min(1, n-1))
	}
	f.Clock = widget.NewSelect(nil, nil)
	for _, c := range clockChoices {
		f.Clock.Options = append(f.Clock.Options, clockName(c))
	}
	f.Clock.SetSelectedIndex(0)
	var titles []string
	for _, g := range gameUIs {
		titles = append(titles, g.title())
	}
	// One under the other: side by side they are wider than a phone's
	// form.
	f.Game = widget.NewRadioGroup(titles, nil)
	f.Game.Required = true
	f.Game.SetSelected(titles[0])
	f.Game.OnChanged = func(string) { f.gameChoices() }
	f.Hints = widget.NewCheck(tr("again.lobby.allow-hints", "Allow hints"), nil)
	f.Problem = widget.NewLabel("")
	f.Problem.Wrapping = fyne.TextWrapWord
	f.Problem.Importance = widget.DangerImportance
	f.Problem.Hide()
	f.Open = widget.NewButtonWithIcon(tr("lan.host.open", "Open the table"), theme.ConfirmIcon(), f.open)
	f.Open.Importance = widget.HighImportance
	f.form = container.NewStack()
	f.gameChoices()
	f.view = a.page(tr("lan.host", "Host a table"), column(container.NewVBox(f.form, f.Problem, f.Open)))
	return f
}

// gameChoices puts the chosen game's part on the form, its fields new,
// and lays the form out again.
func (f *HostForm) gameChoices() {
	f.own = f.game().host(f)
	items := []*widget.FormItem{
		widget.NewFormItem(tr("lan.host.name", "Table name"), f.Name),
		widget.NewFormItem(tr("lan.host.game", "Game"), f.Game),
	}
	items = append(items, f.own.head...)
	items = append(items,
		widget.NewFormItem(tr("newgame.players", "Players"), f.Players),
		widget.NewFormItem(tr("lan.host.bots", "Seats for bots"), f.Bots),
		widget.NewFormItem(tr("lan.host.strength", "Bots play"), f.Strength))
	items = append(items, f.own.tail...)
	items = append(items,
		widget.NewFormItem(tr("again.hint.button", "Hint"), f.Hints),
		widget.NewFormItem(tr("lan.host.clock", "Clock per move"), f.Clock))
	f.form.Objects = []fyne.CanvasObject{newFitForm(items...)}
	f.form.Refresh()
}

// strengths are the bot strengths the device offers.
func (f *HostForm) strengths() []BotStrength {
	if f.app.env.LAN == nil {
		return nil
	}
	return f.app.env.LAN.Strengths()
}

// game is the game the form hosts.
func (f *HostForm) game() *gameUI {
	for _, g := range gameUIs {
		if g.title() == f.Game.Selected {
			return g
		}
	}
	return gameUIs[0]
}

// playerChoices offers from min to max players, first players.
func (f *HostForm) playerChoices(minPlayers, maxPlayers, players int) {
	var opts []string
	for n := minPlayers; n <= maxPlayers; n++ {
		opts = append(opts, strconv.Itoa(n))
	}
	f.Players.Options = opts
	f.Players.SetSelected(strconv.Itoa(players))
}

// botsChoices offers 0 to players-1 bots: the host's own seat is a
// person's.
func (f *HostForm) botsChoices() {
	n, err := strconv.Atoi(f.Players.Selected)
	if err != nil {
		return
	}
	opts := make([]string, n)
	for i := range opts {
		opts[i] = strconv.Itoa(i)
	}
	f.Bots.Options = opts
	if i := f.Bots.SelectedIndex(); i < 0 || i >= n {
		f.Bots.SetSelected("0")
	} else {
		f.Bots.Refresh()
	}
}

// Config reads the form: the table to host, or why it cannot be.
func (f *HostForm) Config() (LANHostConfig, error) {
	g := f.game()
	cfg := LANHostConfig{Game: g.id, Player: f.app.PlayerName(), Hints: f.Hints.Checked}
	cfg.Name = strings.TrimSpace(f.Name.Text)
	if cfg.Name == "" {
		return cfg, fmt.Errorf("%s", tr("lan.host.no-name", "Give the table a name."))
	}
	var err error
	if cfg.Players, err = strconv.Atoi(f.Players.Selected); err != nil {
		return cfg, fmt.Errorf("%s", tr("lan.host.no-players", "Choose the number of players."))
	}
	bots, err := strconv.Atoi(f.Bots.Selected)
	if err != nil || bots < 0 || bots >= cfg.Players {
		return cfg, fmt.Errorf("%s", tr("lan.host.bad-bots", "Choose how many seats bots take."))
	}
	strengths := f.strengths()
	i := f.Strength.SelectedIndex()
	if bots > 0 && (i < 0 || i >= len(strengths)) {
		return cfg, fmt.Errorf("%s", tr("lan.host.bad-strength", "Choose how well the bots play."))
	}
	for range bots {
		cfg.Bots = append(cfg.Bots, strengths[i])
	}
	if err := f.own.config(&cfg); err != nil {
		return cfg, err
	}
	if i := f.Clock.SelectedIndex(); i > 0 && i < len(clockChoices) {
		cfg.Clock = clockChoices[i]
	}
	return cfg, nil
}

// clockChoices are the table clocks a host chooses from, in seconds: none
// first, the default.
var clockChoices = []int{0, 30, 60, 120, 300}

// clockName names a table clock: in minutes when whole ones, else in
// seconds (a table hosted from the command line may have any clock).
func clockName(secs int) string {
	switch {
	case secs == 0:
		return tr("lan.host.clock-off", "Off: take your time")
	case secs < 60 || secs%60 != 0:
		return tr("lan.host.clock-secs", "{{.N}} s", map[string]any{"N": secs})
	}
	return tr("lan.host.clock-mins", "{{.N}} min", map[string]any{"N": secs / 60})
}

// clockPerMove says that a table has a clock of secs, which a person
// reads before joining it and in its lobby.
func clockPerMove(secs int) string {
	return tr("lan.ad-clock", "{{.Clock}} per move", map[string]any{"Clock": clockName(secs)})
}

// open opens the lobby.
func (f *HostForm) open() {
	cfg, err := f.Config()
	if err != nil {
		f.Problem.SetText(err.Error())
		f.Problem.Show()
		return
	}
	f.Problem.Hide()
	f.app.Push(NewHosting(f.app, cfg))
}

// JoinCode asks for a host's join code (or address), for networks where
// tables cannot be seen.
type JoinCode struct {
	app *App
	staticScreen

	// The field, its button and the reason a code is refused, for tests.
	Code    *widget.Entry
	Join    *widget.Button
	Problem *widget.Label
}

// NewJoinCode makes the join-with-a-code screen.
func NewJoinCode(a *App) *JoinCode {
	j := &JoinCode{app: a}
	j.Code = widget.NewEntry()
	j.Code.SetPlaceHolder("ABCDEF-GHIJKL-MNOPQR")
	j.Code.OnSubmitted = func(string) { j.join() }
	j.Join = widget.NewButtonWithIcon(tr("lan.code.join", "Sit down"), theme.LoginIcon(), j.join)
	j.Join.Importance = widget.HighImportance
	j.Problem = widget.NewLabel("")
	j.Problem.Wrapping = fyne.TextWrapWord
	j.Problem.Importance = widget.DangerImportance
	j.Problem.Hide()
	help := widget.NewLabel(tr("lan.code.help", "The host's screen shows the code in large letters. A code works even where this network hides tables; an address such as 192.168.1.20:4001 works too."))
	help.Wrapping = fyne.TextWrapWord
	j.view = a.page(tr("lan.join-code", "Join with a code"), column(container.NewVBox(help, j.Code, j.Problem, j.Join)))
	return j
}

// join checks the code and goes to the lobby.
func (j *JoinCode) join() {
	text := strings.TrimSpace(j.Code.Text)
	if text == "" {
		j.Problem.SetText(tr("lan.code.empty", "Type the code the host's screen shows."))
		j.Problem.Show()
		return
	}
	to := JoinTo{Code: strings.ToUpper(text)}
	if strings.ContainsAny(text, ".:/") {
		to = JoinTo{Addr: text}
	}
	if to.Code != "" {
		if err := j.app.env.LAN.CheckCode(to.Code); err != nil {
			j.Problem.SetText(tr("lan.code.bad", "This is not a join code: {{.Err}}", map[string]any{"Err": err.Error()}))
			j.Problem.Show()
			return
		}
	}
	j.Problem.Hide()
	j.app.Push(NewJoining(j.app, to, text))
}
