package ui

import (
	"context"
	"errors"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Lobby is the wait before a LAN table starts, for the host and for a
// joiner: the seats fill with names as people sit down, the host's join
// code shows large with its address, the host adds and removes bots and
// starts the game once every seat is taken, and anyone can leave. When the
// table starts the game screen takes the lobby's place.
type Lobby struct {
	app  *App
	host *LANHostConfig // nil for a joiner
	to   JoinTo
	name string

	view   fyne.CanvasObject
	status *widget.Label
	// warn says, for as long as the lobby is open, that the LAN does not
	// see the table.
	warn   *widget.Label
	game   *widget.Label // the game the table plays
	code   *canvas.Text
	addr   *widget.Label
	seats  *fyne.Container
	hostUI *fyne.Container // the host's bot and start controls
	addRow *fyne.Container // the strength of a bot to add, and its button

	// Leave, AddBot and StartGame are the lobby's buttons, Strength the
	// strength of the next bot (the host's), for tests.
	Leave, AddBot, StartGame *widget.Button
	Strength                 *widget.Select
	// News counts the lobby news shown, for tests.
	News int

	control   LobbyControl
	starting  bool      // the host asked to start; the table is on its way
	last      LobbyNews // the last seats shown
	strengths []BotStrength
	stopper
	// hints says whether the host allows hints, clock the table's clock
	// when it has one; again is the table played again (nil in a new
	// table's lobby), whose people the lobby waits for.
	hints *widget.Label
	clock *widget.Label
	again LANTable
}

// NewHosting opens a lobby for the table cfg describes.
func NewHosting(a *App, cfg LANHostConfig) *Lobby {
	return newLobby(a, &cfg, JoinTo{}, cfg.Name)
}

// NewJoining claims a seat at the table to names; name is what the person
// knows it by.
func NewJoining(a *App, to JoinTo, name string) *Lobby {
	return newLobby(a, nil, to, name)
}

func newLobby(a *App, host *LANHostConfig, to JoinTo, name string) *Lobby {
	return newLobbyTitled(a, host, to, name, tr("lan.lobby.title", "Table {{.Name}}", map[string]any{"Name": name}))
}

// newLobbyTitled is newLobby under its own title.
func newLobbyTitled(a *App, host *LANHostConfig, to JoinTo, name, title string) *Lobby {
	l := &Lobby{app: a, host: host, to: to, name: name}
	l.status = widget.NewLabel(tr("lan.lobby.opening", "Opening…"))
	l.status.Wrapping = fyne.TextWrapWord
	l.game = widget.NewLabel("")
	l.game.TextStyle = fyne.TextStyle{Bold: true}
	l.game.Hide()
	l.clock = widget.NewLabel("")
	l.clock.Wrapping = fyne.TextWrapWord
	l.clock.Hide()
	if host != nil {
		l.showGame(gameName(host.Game, host.Variant), host.Clock)
	}
	l.code = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	l.code.TextSize = 26 // the 20 letters of a code fit a phone's width
	l.code.TextStyle = fyne.TextStyle{Monospace: true, Bold: true}
	l.code.Alignment = fyne.TextAlignCenter
	l.code.Hide()
	l.addr = widget.NewLabel("")
	l.addr.Alignment = fyne.TextAlignCenter
	l.addr.Wrapping = fyne.TextWrapBreak
	l.addr.Hide()
	l.seats = container.NewVBox()
	l.hints = widget.NewLabel("")
	l.hints.Wrapping = fyne.TextWrapWord
	l.hints.Hide()
	l.Leave = widget.NewButtonWithIcon(tr("lan.lobby.leave", "Leave"), theme.LogoutIcon(), a.Back)
	l.AddBot = widget.NewButtonWithIcon(tr("lan.lobby.add-bot", "Add a bot"), theme.ContentAddIcon(), l.addBot)
	l.StartGame = widget.NewButtonWithIcon(tr("lan.lobby.start", "Start the game"), theme.MediaPlayIcon(), l.start)
	l.StartGame.Importance = widget.HighImportance
	l.Strength = widget.NewSelect(nil, nil)
	l.addRow = container.NewBorder(nil, nil, nil, l.AddBot, l.Strength)
	l.hostUI = container.NewVBox(l.addRow, l.StartGame)
	l.hostUI.Hide()
	l.AddBot.Disable()
	l.StartGame.Disable()
	l.StartGame.Hide()
	if host != nil && a.env.LAN != nil {
		l.strengths = a.env.LAN.Strengths()
		for _, s := range l.strengths {
			l.Strength.Options = append(l.Strength.Options, strengthName(s))
		}
		if len(l.strengths) > 0 {
			l.Strength.SetSelectedIndex(min(1, len(l.strengths)-1))
		}
	}
	l.warn = widget.NewLabel("")
	l.warn.Wrapping = fyne.TextWrapWord
	l.warn.Importance = widget.DangerImportance
	l.warn.Hide()
	l.view = a.page(title, column(container.NewVBox(l.game, l.status, l.warn, l.code, l.addr, l.seats, l.hints, l.clock, l.hostUI, l.Leave)))
	return l
}

// strengthName is a bot strength in words.
func strengthName(s BotStrength) string {
	switch s {
	case BotEasy:
		return tr("lan.bot.easy", "easy")
	case BotNormal:
		return tr("lan.bot.normal", "normal")
	case BotStrong:
		return tr("lan.bot.strong", "strong")
	}
	return tr("lan.bot.unknown", "of another kind")
}

// View is the lobby.
func (l *Lobby) View() fyne.CanvasObject { return l.view }

// Start hosts or joins; the game screen follows when the table starts.
func (l *Lobby) Start(ctx context.Context) {
	ctx, l.cancel = context.WithCancel(ctx)
	lan := l.app.env.LAN
	news := func(n LobbyNews) { l.app.do(func() { l.show(n) }) }
	go func() {
		var t LANTable
		var err error
		if lan == nil {
			err = errNoLAN
		} else if l.again != nil {
			t, err = playAgain(ctx, l.again, news)
		} else if l.host != nil {
			t, err = lan.Host(ctx, *l.host, news)
		} else {
			t, err = lan.Join(ctx, l.to, l.app.PlayerName(), news)
		}
		l.app.do(func() {
			if ctx.Err() != nil {
				if t != nil {
					_ = t.Close() // left before the game: nothing to tell
				}
				return
			}
			if err != nil {
				l.problem(tr("lan.lobby.failed", "No table: {{.Err}}", map[string]any{"Err": err.Error()}))
				l.hostUI.Hide()
				return
			}
			l.app.toGame(NewLANTable(l.app, t))
		})
	}()
}

// showGame says which game the table plays, and what its clock of clock
// seconds per move means when it has one.
func (l *Lobby) showGame(name string, clock int) {
	l.game.SetText(tr("lan.lobby.game", "Game: {{.Game}}", map[string]any{"Game": name}))
	l.game.Show()
	if clock > 0 {
		l.clock.SetText(tr("lan.lobby.clock", "{{.Clock}}: when the time runs out, a bot makes the move for you, and the seat stays yours.",
			map[string]any{"Clock": clockPerMove(clock)}))
		l.clock.Show()
	}
}

// Clock is the lobby's line on the table's clock, "" when the table has
// none, for tests.
func (l *Lobby) Clock() string {
	if !l.clock.Visible() {
		return ""
	}
	return l.clock.Text
}

// Game is the lobby's line naming the game, "" before it is known, for
// tests.
func (l *Lobby) Game() string {
	if !l.game.Visible() {
		return ""
	}
	return l.game.Text
}

// Status is the lobby's line of progress, for tests.
func (l *Lobby) Status() string { return l.status.Text }

// Code is the join code shown large, for tests.
func (l *Lobby) Code() string { return l.code.Text }

// Seats are the seat lines, for tests.
func (l *Lobby) Seats() []string {
	var out []string
	for _, o := range l.seats.Objects {
		switch o := o.(type) {
		case *widget.Label:
			out = append(out, o.Text)
		case *fyne.Container: // a bot's line with its remove button
			out = append(out, o.Objects[0].(*widget.Label).Text)
		}
	}
	return out
}

// RemoveBot taps the remove button of the i-th bot, for tests.
func (l *Lobby) RemoveBot(i int) bool {
	for _, o := range l.seats.Objects {
		if c, ok := o.(*fyne.Container); ok {
			if i == 0 {
				c.Objects[1].(*widget.Button).OnTapped()
				return true
			}
			i--
		}
	}
	return false
}

// joinAddrs returns the first join code of addrs and the addresses worth
// showing to the friends who join: those of the network (they come with a
// code); a loopback address, which no other device can reach, only when
// the device has no other.
func joinAddrs(addrs []LANAddr) (code string, shown []string) {
	var loopback []string
	for _, a := range addrs {
		if a.Code == "" {
			loopback = append(loopback, a.Addr)
			continue
		}
		if code == "" {
			code = a.Code
		}
		shown = append(shown, a.Addr)
	}
	if len(shown) == 0 {
		shown = loopback
	}
	return code, shown
}

// problem shows what went wrong in the status line.
func (l *Lobby) problem(text string) {
	l.status.SetText(text)
	l.status.Importance = widget.DangerImportance
	l.status.Refresh()
}

// show takes one step of the lobby.
func (l *Lobby) show(n LobbyNews) {
	l.News++
	switch n.Kind {
	case LobbyHosting:
		l.status.SetText(tr("lan.lobby.hosting", "Your table is open. Friends tap it on their home screen, or type the code."))
		code, addrs := joinAddrs(n.Addrs)
		if code != "" {
			l.code.Text = code
			l.code.Show()
			l.code.Refresh()
		}
		if len(addrs) > 0 {
			l.addr.SetText(strings.Join(addrs, "\n"))
			l.addr.Show()
		}
		if l.host != nil {
			l.control = n.Control
			if l.control != nil {
				l.hostUI.Show()
			}
			l.fill(LobbyNews{Seated: 1, Wanted: l.host.Players - len(l.host.Bots), Players: []string{l.host.Player}, Bots: l.host.Bots, Hints: l.host.Hints})
		}
	case LobbyNotAdvertised:
		// The status goes on to the seats; this stays.
		if errors.Is(n.Err, ErrNoNetwork) {
			l.warn.SetText(tr("lan.lobby.no-network", "This device is on no network: no one else can join. Connect it to the Wi-Fi the others use, then open the table again."))
		} else {
			l.warn.SetText(tr("lan.lobby.not-advertised", "This network hides the table ({{.Err}}): give your friends the code.",
				map[string]any{"Err": errText(n.Err)}))
		}
		l.warn.Show()
	case LobbyContacting:
		l.status.SetText(tr("lan.lobby.contacting", "Calling the host…"))
	case LobbyLooking:
		l.status.SetText(tr("lan.lobby.looking", "Looking for the table…"))
	case LobbyFound:
		l.status.SetText(tr("lan.lobby.found", "Found {{.Name}}; asking for a seat…", map[string]any{"Name": n.Table.Name}))
		if n.Table.Players > 0 {
			l.showGame(gameName(n.Table.Game, n.Table.Variant), n.Table.Clock)
		}
	case LobbyWaiting:
		if l.starting {
			l.fill(n) // the seats as they stand; the status says the table starts
			break
		}
		if l.again != nil {
			l.status.SetText(l.againStatus(n))
		} else if n.Seated >= n.Wanted && l.control != nil {
			l.status.SetText(tr("lan.lobby.full", "Every seat is taken: start the game when you are ready."))
		} else if n.Seated >= n.Wanted {
			l.status.SetText(tr("lan.lobby.full-joiner", "Every seat is taken: the game starts when the host says so."))
		} else if l.control != nil {
			l.status.SetText(trn("lan.lobby.waiting-host", "{{.Seated}} of {{.Wanted}} players are seated. Wait for friends or add bots; once every seat is taken you start the game.",
				n.Seated, map[string]any{"Seated": n.Seated, "Wanted": n.Wanted}))
		} else {
			l.status.SetText(trn("lan.lobby.waiting", "{{.Seated}} of {{.Wanted}} players are seated; the game starts when everyone is.",
				n.Seated, map[string]any{"Seated": n.Seated, "Wanted": n.Wanted}))
		}
		l.status.Importance = widget.MediumImportance
		l.fill(n)
	}
	l.app.body.Refresh() // lines came or grew: the page lays out again
}

// fill lists the seats: the people's seats with their names as they sit
// down, the free ones, then the bots (with a remove button at the host).
func (l *Lobby) fill(n LobbyNews) {
	if l.last.Wanted == 0 { // the seats' first showing
		l.app.trace("lobby-seats", l.app.Now())
	}
	l.last = n
	l.showHints(n)
	var objs []fyne.CanvasObject
	seatLine := func(i int, name string) string {
		return tr("lan.lobby.seat", "Seat {{.N}}: {{.Name}}", map[string]any{"N": i + 1, "Name": name})
	}
	line := func(s string) {
		lb := widget.NewLabel(s)
		lb.Wrapping = fyne.TextWrapWord
		objs = append(objs, lb)
	}
	for i := range n.Wanted {
		name := tr("lan.lobby.free", "free")
		if i < len(n.Players) {
			name = n.Players[i]
			if name == "" {
				name = tr("lan.lobby.no-name", "a player without a name")
			}
			if i == 0 {
				name = tr("lan.lobby.host-seat", "{{.Name}} (host)", map[string]any{"Name": name})
			}
		}
		line(seatLine(i, name))
	}
	for j, b := range n.Bots {
		text := seatLine(n.Wanted+j, tr("lan.lobby.bot-strength", "a bot ({{.Strength}})", map[string]any{"Strength": strengthName(b)}))
		if l.control == nil {
			line(text)
			continue
		}
		lb := widget.NewLabel(text)
		lb.Wrapping = fyne.TextWrapWord
		rm := widget.NewButtonWithIcon(tr("lan.lobby.remove-bot", "Remove"), theme.ContentRemoveIcon(), func() { l.removeBot(j) })
		objs = append(objs, container.NewBorder(nil, nil, nil, rm, lb))
	}
	l.seats.Objects = objs
	l.seats.Refresh()
	// A control that cannot be used now is hidden rather than greyed: the
	// status line says what the table waits for.
	full := n.Seated >= n.Wanted
	if l.control != nil && !l.starting {
		if full || len(l.strengths) == 0 {
			l.AddBot.Disable()
			l.addRow.Hide()
		} else {
			l.AddBot.Enable()
			l.addRow.Show()
		}
		if full {
			l.StartGame.Enable()
			l.StartGame.Show()
		} else {
			l.StartGame.Disable()
			l.StartGame.Hide()
		}
	}
}

// setBots asks the host's lobby for these bots.
func (l *Lobby) setBots(bots []BotStrength) {
	if l.control == nil {
		return
	}
	if err := l.control.SetBots(bots); err != nil {
		l.problem(tr("lan.lobby.bots-failed", "The bots cannot change: {{.Err}}", map[string]any{"Err": err.Error()}))
	}
}

// addBot seats a bot of the chosen strength in a free seat.
func (l *Lobby) addBot() {
	i := l.Strength.SelectedIndex()
	if i < 0 || i >= len(l.strengths) {
		return
	}
	l.setBots(append(slices.Clone(l.last.Bots), l.strengths[i]))
}

// removeBot frees the j-th bot's seat for a player.
func (l *Lobby) removeBot(j int) {
	if j < 0 || j >= len(l.last.Bots) {
		return
	}
	l.setBots(slices.Delete(slices.Clone(l.last.Bots), j, j+1))
}

// start starts the table; the game screen follows when Host returns it.
func (l *Lobby) start() {
	if l.control == nil {
		return
	}
	if l.starting {
		return
	}
	l.starting = true
	l.StartGame.Disable()
	l.AddBot.Disable()
	l.status.SetText(tr("lan.lobby.starting", "Starting the table…"))
	c := l.control
	go func() {
		if err := c.Start(); err != nil {
			l.app.do(func() {
				l.starting = false
				l.problem(tr("lan.lobby.start-failed", "The game cannot start: {{.Err}}", map[string]any{"Err": err.Error()}))
				l.fill(l.last)
			})
		}
	}()
}

// errText is err's text, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// toGame shows s alone above the home screen: the forms and the lobby that
// led to it are done.
func (a *App) toGame(s Screen) {
	for range len(a.stack) {
		if len(a.stack) < 2 {
			break
		}
		a.Back()
	}
	a.Push(s)
}
