package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Lobby is the wait before a LAN table starts, for the host and for a
// joiner: the seats fill with names as people sit down, the host's join
// code shows large with its address, and anyone can leave. When every
// seat is taken the table starts and the game screen takes the lobby's
// place.
type Lobby struct {
	app  *App
	host *LANHostConfig // nil for a joiner
	to   JoinTo
	name string

	view   fyne.CanvasObject
	status *widget.Label
	code   *canvas.Text
	addr   *widget.Label
	seats  *fyne.Container

	// Leave is the leave button, for tests.
	Leave *widget.Button
	// News counts the lobby news shown, for tests.
	News int

	cancel context.CancelFunc
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
	l := &Lobby{app: a, host: host, to: to, name: name}
	l.status = widget.NewLabel(tr("lan.lobby.opening", "Opening…"))
	l.status.Wrapping = fyne.TextWrapWord
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
	l.Leave = widget.NewButtonWithIcon(tr("lan.lobby.leave", "Leave"), theme.LogoutIcon(), a.Back)
	title := tr("lan.lobby.title", "Table {{.Name}}", map[string]any{"Name": name})
	l.view = a.page(title, column(container.NewVBox(l.status, l.code, l.addr, l.seats, l.Leave)))
	return l
}

// View is the lobby.
func (l *Lobby) View() fyne.CanvasObject { return l.view }

// Start hosts or joins; the game screen follows when the table starts.
func (l *Lobby) Start(ctx context.Context) {
	ctx, l.cancel = context.WithCancel(ctx)
	lan := l.app.env.LAN
	news := func(n LobbyNews) { fyne.Do(func() { l.show(n) }) }
	go func() {
		var t LANTable
		var err error
		if lan == nil {
			err = errNoLAN
		} else if l.host != nil {
			t, err = lan.Host(ctx, *l.host, news)
		} else {
			t, err = lan.Join(ctx, l.to, l.app.PlayerName(), news)
		}
		fyne.Do(func() {
			if ctx.Err() != nil {
				if t != nil {
					_ = t.Close() // left before the game: nothing to tell
				}
				return
			}
			if err != nil {
				l.status.SetText(tr("lan.lobby.failed", "No table: {{.Err}}", map[string]any{"Err": err.Error()}))
				l.status.Importance = widget.DangerImportance
				l.status.Refresh()
				return
			}
			l.app.toGame(NewLANGame(l.app, t))
		})
	}()
}

// Stop leaves the lobby.
func (l *Lobby) Stop() {
	if l.cancel != nil {
		l.cancel()
	}
}

// Status is the lobby's line of progress, for tests.
func (l *Lobby) Status() string { return l.status.Text }

// Code is the join code shown large, for tests.
func (l *Lobby) Code() string { return l.code.Text }

// Seats are the seat lines, for tests.
func (l *Lobby) Seats() []string {
	var out []string
	for _, o := range l.seats.Objects {
		out = append(out, o.(*widget.Label).Text)
	}
	return out
}

// show takes one step of the lobby.
func (l *Lobby) show(n LobbyNews) {
	l.News++
	switch n.Kind {
	case LobbyHosting:
		l.status.SetText(tr("lan.lobby.hosting", "Your table is open. Friends tap it on their home screen, or type the code."))
		var code, addrs []string
		for _, a := range n.Addrs {
			if a.Code != "" && len(code) == 0 {
				code = append(code, a.Code)
			}
			addrs = append(addrs, a.Addr)
		}
		if len(code) > 0 {
			l.code.Text = code[0]
			l.code.Show()
			l.code.Refresh()
		}
		if len(addrs) > 0 {
			l.addr.SetText(strings.Join(addrs, "\n"))
			l.addr.Show()
		}
		if l.host != nil {
			l.fill(LobbyNews{Seated: 1, Wanted: l.host.Players - l.host.Bots, Players: []string{l.host.Player}})
		}
	case LobbyNotAdvertised:
		l.status.SetText(tr("lan.lobby.not-advertised", "This network hides the table ({{.Err}}): give your friends the code.",
			map[string]any{"Err": errText(n.Err)}))
	case LobbyContacting:
		l.status.SetText(tr("lan.lobby.contacting", "Calling the host…"))
	case LobbyLooking:
		l.status.SetText(tr("lan.lobby.looking", "Looking for the table…"))
	case LobbyFound:
		l.status.SetText(tr("lan.lobby.found", "Found {{.Name}}; asking for a seat…", map[string]any{"Name": n.Table.Name}))
	case LobbyWaiting:
		l.status.SetText(tr("lan.lobby.waiting", "{{.Seated}} of {{.Wanted}} players are seated; the game starts when everyone is.",
			map[string]any{"Seated": n.Seated, "Wanted": n.Wanted}))
		l.fill(n)
	}
	l.app.body.Refresh() // lines came or grew: the page lays out again
}

// fill lists the seats: the people's seats with their names as they sit
// down, the free ones, then the bots.
func (l *Lobby) fill(n LobbyNews) {
	var objs []fyne.CanvasObject
	line := func(s string) { objs = append(objs, widget.NewLabel(s)) }
	for i := range n.Wanted {
		switch {
		case i < len(n.Players):
			name := n.Players[i]
			if name == "" {
				name = tr("lan.lobby.no-name", "a player without a name")
			}
			if i == 0 {
				name = tr("lan.lobby.host-seat", "{{.Name}} (host)", map[string]any{"Name": name})
			}
			line(tr("lan.lobby.seat", "Seat {{.N}}: {{.Name}}", map[string]any{"N": i + 1, "Name": name}))
		case n.Players == nil && i < n.Seated:
			line(tr("lan.lobby.seat", "Seat {{.N}}: {{.Name}}", map[string]any{"N": i + 1, "Name": tr("lan.lobby.taken", "taken")}))
		default:
			line(tr("lan.lobby.seat", "Seat {{.N}}: {{.Name}}", map[string]any{"N": i + 1, "Name": tr("lan.lobby.free", "free")}))
		}
	}
	if l.host != nil {
		for i := range l.host.Bots {
			line(tr("lan.lobby.seat", "Seat {{.N}}: {{.Name}}", map[string]any{"N": n.Wanted + i + 1, "Name": tr("lan.lobby.bot", "a bot")}))
		}
	}
	l.seats.Objects = objs
	l.seats.Refresh()
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
