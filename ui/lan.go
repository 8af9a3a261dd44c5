package ui

import (
	"context"
	"errors"
	"io"

	"github.com/njetlan/njet/seat"
)

// LAN is the app's way onto the local network: the device's flows of
// package lan (watch, host, join, resume, play, export), behind an
// interface so that tests fake the network. Package main wires one over
// lan.OpenDevice with the device's data under the app's storage. Every
// method may be called from any goroutine; callbacks come from the
// method's own goroutine.
type LAN interface {
	// Watch reports the tables advertised on the LAN, sorted by name, at
	// once and whenever one appears, changes or vanishes, until ctx ends
	// (then it returns nil). On a device on no network it returns
	// ErrNoNetwork.
	Watch(ctx context.Context, found func([]LANTableAd)) error
	// Host opens a lobby for cfg and returns the table once the host
	// started it through the Control of the LobbyHosting news, with every
	// seat taken; it closes the lobby when ctx ends first. news hears how
	// the lobby fills.
	Host(ctx context.Context, cfg LANHostConfig, news func(LobbyNews)) (LANTable, error)
	// Join claims a seat at the table to names, as player, and waits for
	// the table to start.
	Join(ctx context.Context, to JoinTo, player string, news func(LobbyNews)) (LANTable, error)
	// CheckCode says why code is not a join code, or nil.
	CheckCode(code string) error
	// Resume returns the unfinished table the device sits at, or nil.
	Resume() (LANTable, error)
	// Strengths are the bot strengths the device plays, weakest first.
	Strengths() []BotStrength
}

// BotStrength is how well a bot plays, as a host chooses it.
type BotStrength uint8

// The strengths of bots.
const (
	BotEasy BotStrength = iota + 1
	BotNormal
	BotStrong
)

// LobbyControl is what the host does in its lobby before the table
// starts. Its methods may be called from any goroutine.
type LobbyControl interface {
	// SetBots seats bots of these strengths after the people, in place
	// of the bots so far; it fails when the people leave too few seats.
	SetBots(bots []BotStrength) error
	// Start starts the table once every seat is taken; Host then returns
	// it.
	Start() error
}

// LANTableAd is a table as advertised on the LAN.
type LANTableAd struct {
	ID   string // the lobby id, for JoinTo.Table
	Name string // as the host typed it
	// Game and Variant are the game the table plays and its variant, by
	// their IDs in package games: "njet" and "classic", "thegame" and
	// "extreme".
	Game, Variant string
	Players       int
	Free          int
	Host          string // the host's player name, "" when none
	// Clock is the table's clock in seconds per move, 0 when it has none.
	Clock int
}

// LANHostConfig is the table the person hosts. Bots of these strengths
// fill as many of the Players seats at first, played by the host's
// device; the host changes them in the lobby.
type LANHostConfig struct {
	Name string
	// Game and Variant are the game to play and its variant, by their
	// IDs in package games.
	Game, Variant string
	Players       int
	Bots          []BotStrength
	Short         bool // Njet's Classic short game
	Target        int  // Njet's target score, 0 for the edition's end
	Player        string
	// Hints allows hints at the table: each person may ask for the strong
	// bot's move from their own view.
	Hints bool
	// Clock is the table's clock: the seconds a person has for each move
	// before their bot makes it; 0, the default, has none.
	Clock int
}

// JoinTo names the table Join goes to: a table seen on the LAN (Table,
// its lobby id), or a host's join code or address, which need no
// multicast.
type JoinTo struct {
	Table string
	Code  string
	Addr  string
}

// LobbyNews is one step on the way to a table.
type LobbyNews struct {
	Kind LobbyKind
	// Addrs are where players reach a host (Hosting).
	Addrs []LANAddr
	// Control lets the host change the bots and start the table
	// (Hosting, at the host only).
	Control LobbyControl
	// Seated of Wanted players have a seat (Waiting); Players are their
	// names in seat order, the host's first ("" for a player without a
	// name), and Bots the strengths of the bots in the seats after
	// theirs (0 for a bot of no known strength).
	Seated, Wanted int
	Players        []string
	Bots           []BotStrength
	// Hints tells that the host allows hints at the table (Waiting).
	Hints bool
	// Table is the table Join found (Found).
	Table LANTableAd
	// Err is why the table is not advertised (NotAdvertised).
	Err error
}

// LobbyKind is the kind of LobbyNews.
type LobbyKind uint8

// The steps of hosting and joining.
const (
	LobbyHosting       LobbyKind = iota + 1 // the host's lobby is open
	LobbyNotAdvertised                      // multicast failed: players need the code
	LobbyWaiting                            // seats are filling
	LobbyContacting                         // a joiner dials the host
	LobbyLooking                            // a joiner browses the LAN
	LobbyFound                              // a joiner found the table
)

// LANAddr is one address of a host: a join code for LAN addresses ("" for
// a loopback one) and the address itself.
type LANAddr struct {
	Code string
	Addr string
}

// LANTable is a table the device sits at. Its game's screen plays it
// through the game's own kind of table (NjetLANTable, TheGameLANTable).
type LANTable interface {
	// ID is the table's id in hex.
	ID() string
	// Names are the players' names by seat from the signed genesis.
	Names() []string
	// Game is the game the table plays and its variant, by their IDs in
	// package games, as the genesis says.
	Game() (game, variant string)
	// ExportLog writes the table's log as the device's store holds it, in
	// the format table.VerifyReader reads.
	ExportLog(w io.Writer) error
	// Reconnect dials the table's other devices at once (the app is back
	// from the background, or the network came back); the seats catch up
	// from the store and the others by themselves.
	Reconnect(ctx context.Context) error
	// Close closes a hosted table's lobby.
	Close() error
}

// NjetLANTable is a LAN table of Njet!.
type NjetLANTable interface {
	LANTable
	// PlayNjet runs the device's seats until the game is over and the
	// others caught up, the person leaves, or ctx ends. person plays the
	// person's seat: it returns nil at the end of the game or an error
	// wrapping seat.ErrLeft when the person leaves. news hears the
	// table's progress.
	PlayNjet(ctx context.Context, person func(context.Context, seat.Seat) error, news func(GameNews)) error
}

// TheGameLANTable is a LAN table of The Game.
type TheGameLANTable interface {
	LANTable
	// PlayTheGame runs the device's seats until the game is over and the
	// others caught up, the person leaves, or ctx ends. person plays the
	// person's seat through src: it returns nil at the end of the game.
	// news hears the table's progress.
	PlayTheGame(ctx context.Context, person func(ctx context.Context, src TheGameSource) error, news func(GameNews)) error
}

// errWrongTable is the error of a game's screen given a table that does
// not play the game.
var errWrongTable = errors.New("ui: the table does not play this game")

// GameNews is what a table's play tells besides the seat's events.
type GameNews struct {
	Kind GameNewsKind
	Err  error // the cheat, for NewsViolation
}

// GameNewsKind is the kind of GameNews.
type GameNewsKind uint8

// What a table's play tells.
const (
	NewsPlaying    GameNewsKind = iota + 1 // the session runs
	NewsShuffling                          // a deal is being shuffled
	NewsViolation                          // a cheat halted the round
	NewsCatchingUp                         // the game is over; the others catch up
)

// ErrNoNetwork is LAN.Watch's error on a device on no network (Wi-Fi
// off): the home screen says so and looks again until one comes up. A
// lobby's LobbyNotAdvertised news carries it when its device is on none.
var ErrNoNetwork = errors.New("ui: this device is on no network")

// errNoLAN is the error of LAN screens in an app without a LAN.
var errNoLAN = errors.New("ui: this app has no LAN")
