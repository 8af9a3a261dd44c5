package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// LobbyProtocol is the stream protocol by which a device claims a seat at
// a table before its genesis. The joiner sends a claim, with the
// player's name after the lobby id when it has one; the host answers with
// the lobby's seats (the players' names, the seats kept for people, the
// bots) whenever they change, and finally with the table's Setup, or
// refuses (also a name that table.CheckName refuses). Every message is
// length-prefixed and small. A joiner also reads the bare counts older
// hosts send.
const LobbyProtocol protocol.ID = "/njet/lobby/1"

// LobbyID names a table before its genesis exists: the genesis records it
// as its Nonce, so it names exactly one table. Discovery and join codes
// carry it.
type LobbyID [16]byte

// String returns the id in hex.
func (id LobbyID) String() string { return fmt.Sprintf("%x", id[:]) }

// Lobby message types and limits.
const (
	lobbyVersion    = 1
	msgClaim        = 1
	msgWait         = 2
	msgStart        = 3
	msgRefuse       = 4
	msgSeats        = 5
	maxLobbyMessage = maxSetupMessage + 16
	maxLobbyStreams = 16
	// maxClaimName bounds the name bytes of a claim; longer claims are
	// malformed, shorter ones are checked by table.CheckName.
	maxClaimName   = 4 * table.MaxNameBytes
	lobbyIOTimeout = 10 * time.Second
	// maxLobbySeats bounds the seats a seats message may list, far above
	// any edition's players.
	maxLobbySeats = 16
	// MaxBotKind bounds the length of a lobby bot's kind.
	MaxBotKind = 32
)

// Errors of the lobby.
var (
	// ErrRefused: the host refused the claim (table full, game started).
	ErrRefused = errors.New("p2p: the host refused to seat this device")
	// ErrLobbyClosed: the lobby was closed before the table started.
	ErrLobbyClosed = errors.New("p2p: the lobby is closed")
)

// LobbyConfig describes the table a host offers.
type LobbyConfig struct {
	// ID names the lobby (and becomes the genesis Nonce); zero draws one.
	ID   LobbyID
	Name string
	// Game is the game the table plays (table.GameNjet if zero) and
	// Variant its variant (games.Variant.ID; "" for the default).
	Game    table.GameName
	Variant string
	Players int
	// Bots is the number of seats the host fills with bots it hosts; the
	// others wait for devices that join. SetBots changes them until the
	// table starts.
	Bots int
	// Short, Target and Rounds set a Njet game's length (table.Genesis).
	Short  bool
	Target int
	Rounds int
	// Clock is the table's clock (table.Genesis.Clock), in seconds; 0, the
	// default, gives a person all the time they like.
	Clock int
	// Player is the host's player name (table.CheckName); "" for none.
	Player string
	// Hints allows hints at the table: the genesis says so (Genesis.Hints)
	// and joiners see it in the lobby's seats.
	Hints bool
	// Seats, when not empty, keeps the table for these devices: only they
	// may claim, and they sit in this order after the host whatever the
	// order of their claims (a table played again, with the same seats).
	// Players must then be 1 + len(Seats) + Bots.
	Seats []tablelog.Identity
	// Rand draws the lobby id, the first dealer and the bots' keys; nil
	// uses crypto/rand.
	Rand io.Reader
}

// Lobby is a host's table before its genesis: it seats the devices that
// claim a seat until enough have, then Start writes the genesis. It keeps
// answering claims afterwards, so a member that lost its connection gets
// the Setup again.
type Lobby struct {
	n   *Node
	cfg LobbyConfig

	mu      sync.Mutex
	claims  []tablelog.Identity
	names   []string      // the claims' player names
	bots    []string      // the bots' kinds, "" when not said
	changed chan struct{} // closed and replaced whenever claims or started change
	setup   *Setup
	closed  bool
	streams int
}

// OpenLobby opens the node's lobby (one at a time).
func (n *Node) OpenLobby(cfg LobbyConfig) (*Lobby, error) {
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	v, err := g.Variant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	if err := v.CheckPlayers(cfg.Players); err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	cfg.Variant = v.ID
	if cfg.Bots < 0 || cfg.Bots > cfg.Players-1 {
		return nil, fmt.Errorf("p2p: %d bots at a table of %d", cfg.Bots, cfg.Players)
	}
	if len(cfg.Seats) > 0 {
		if 1+len(cfg.Seats)+cfg.Bots != cfg.Players {
			return nil, fmt.Errorf("p2p: %d kept seats and %d bots at a table of %d", len(cfg.Seats), cfg.Bots, cfg.Players)
		}
		for i, id := range cfg.Seats {
			if id == n.id || slices.Contains(cfg.Seats[:i], id) {
				return nil, fmt.Errorf("p2p: a seat kept twice, or for the host")
			}
		}
		cfg.Seats = slices.Clone(cfg.Seats)
	}
	player, err := table.CheckName(cfg.Player)
	if err != nil {
		return nil, err
	}
	cfg.Player = player
	if cfg.Rand == nil {
		cfg.Rand = cryptoReader{}
	}
	if cfg.ID == (LobbyID{}) {
		if _, err := io.ReadFull(cfg.Rand, cfg.ID[:]); err != nil {
			return nil, err
		}
	}
	l := &Lobby{n: n, cfg: cfg, changed: make(chan struct{}), bots: make([]string, cfg.Bots)}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.lobby != nil {
		return nil, fmt.Errorf("p2p: a lobby is already open")
	}
	n.lobby = l
	return l, nil
}

// ID returns the lobby id.
func (l *Lobby) ID() LobbyID { return l.cfg.ID }

// Config returns the lobby's configuration.
func (l *Lobby) Config() LobbyConfig { return l.cfg }

// Seated returns how many human seats are taken (the host's included) and
// how many the table waits for.
func (l *Lobby) Seated() (seated, wanted int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return 1 + len(l.claims), l.cfg.Players - len(l.bots)
}

// LobbySeats is a lobby's seats as its host has them.
type LobbySeats struct {
	// Players are the names of the people seated, in seat order: the
	// host's first, then the joiners' in claim order ("" for a player
	// without a name).
	Players []string
	// Wanted is the number of seats kept for people (the host's
	// included); the table starts when as many are seated.
	Wanted int
	// Bots are the kinds of the bots that take the seats after the
	// people's ("" for a kind the host did not say).
	Bots []string
	// Hints tells that the host allows hints at the table.
	Hints bool
}

// Full reports whether every seat is taken.
func (s LobbySeats) Full() bool { return len(s.Players) >= s.Wanted }

// Seats returns the lobby's seats as they are now.
func (l *Lobby) Seats() LobbySeats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seatsLocked()
}

func (l *Lobby) seatsLocked() LobbySeats {
	return LobbySeats{Players: append([]string{l.cfg.Player}, l.names...), Wanted: l.cfg.Players - len(l.bots),
		Bots: append([]string(nil), l.bots...), Hints: l.cfg.Hints}
}

// ErrSeatsTaken: SetBots asked for more bots than the free seats hold.
var ErrSeatsTaken = errors.New("p2p: the seats are taken")

// SetBots makes the bots of kinds take the seats after the people's,
// before the table starts: adding bots takes free seats, removing them
// frees seats for joiners. A kind is "" or at most MaxBotKind lower-case
// letters, digits and dashes; the host's device must know how to play it.
func (l *Lobby) SetBots(kinds []string) error {
	for _, k := range kinds {
		if !botKindOK(k) {
			return fmt.Errorf("p2p: bot kind %q", printable([]byte(k)))
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return ErrLobbyClosed
	case l.setup != nil:
		return fmt.Errorf("p2p: the table has started")
	case 1+len(l.claims)+len(kinds) > l.cfg.Players:
		return fmt.Errorf("%w: %d people and %d bots at a table of %d", ErrSeatsTaken, 1+len(l.claims), len(kinds), l.cfg.Players)
	case len(l.cfg.Seats) > 0 && 1+len(l.cfg.Seats)+len(kinds) != l.cfg.Players:
		return fmt.Errorf("%w: the table is kept for %d people", ErrSeatsTaken, 1+len(l.cfg.Seats))
	}
	l.bots = append([]string(nil), kinds...)
	l.cfg.Bots = len(kinds)
	l.notify()
	return nil
}

// Players returns the player names of the seats taken so far, in seat
// order: the host's first, then the joiners' in claim order ("" for a
// player without a name).
func (l *Lobby) Players() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string{l.cfg.Player}, l.names...)
}

// Free returns the number of seats still open to joiners.
func (l *Lobby) Free() int {
	s, w := l.Seated()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.setup != nil {
		return 0
	}
	return w - s
}

func (l *Lobby) notify() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// Wait returns once every seat that is not a bot is claimed, or ctx ends.
// progress, when not nil, is called with the count at the start and after
// every change.
func (l *Lobby) Wait(ctx context.Context, progress func(seated, wanted int)) error {
	return l.Watch(ctx, true, func(s LobbySeats) {
		if progress != nil {
			progress(len(s.Players), s.Wanted)
		}
	})
}

// Watch calls seats with the lobby's seats at the start and after every
// change (a player sat down, left or changed name, bots came or went),
// until ctx ends (its error), the lobby closes (ErrLobbyClosed), the
// table starts (nil), or, when untilFull, every seat is taken (nil).
func (l *Lobby) Watch(ctx context.Context, untilFull bool, seats func(LobbySeats)) error {
	for {
		l.mu.Lock()
		now, ch, closed, started := l.seatsLocked(), l.changed, l.closed, l.setup != nil
		l.mu.Unlock()
		if closed {
			return ErrLobbyClosed
		}
		seats(now)
		if started || untilFull && now.Full() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// Start writes and signs the genesis: seat 0 is the host, then the
// claimed seats in claim order, then the bots. Each bot gets a fresh key,
// returned by seat for the host to store and to sign with. Every waiting
// joiner receives the Setup.
func (l *Lobby) Start() (*Setup, map[int]ed25519.PrivateKey, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, nil, ErrLobbyClosed
	}
	if l.setup != nil {
		return nil, nil, fmt.Errorf("p2p: the table has started")
	}
	if 1+len(l.claims)+len(l.bots) != l.cfg.Players {
		return nil, nil, fmt.Errorf("p2p: %d of %d seats taken", 1+len(l.claims)+len(l.bots), l.cfg.Players)
	}
	var seed [32]byte
	if _, err := io.ReadFull(l.cfg.Rand, seed[:]); err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewChaCha8(seed))
	keys := append([]tablelog.Identity{l.n.id}, l.claims...)
	bots := make(map[int]ed25519.PrivateKey)
	for len(keys) < l.cfg.Players {
		_, priv, err := ed25519.GenerateKey(l.cfg.Rand)
		if err != nil {
			return nil, nil, err
		}
		id, err := tablelog.IdentityOf(priv.Public().(ed25519.PublicKey))
		if err != nil {
			return nil, nil, err
		}
		bots[len(keys)] = priv
		keys = append(keys, id)
	}
	names := append([]string{l.cfg.Player}, l.names...)
	names = append(names, make([]string, l.cfg.Players-len(names))...)
	g, err := games.ByName(l.cfg.Game)
	if err != nil {
		return nil, nil, err
	}
	setup := games.Setup{Keys: keys, Names: names, Rand: rng, Short: l.cfg.Short, Target: l.cfg.Target, Rounds: l.cfg.Rounds,
		Clock: l.cfg.Clock, Hints: l.cfg.Hints}
	copy(setup.Nonce[:], l.cfg.ID[:])
	gen, err := g.Genesis(l.cfg.Variant, setup)
	if err != nil {
		return nil, nil, err
	}
	body, err := gen.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := env.Sign(l.n.key); err != nil {
		return nil, nil, err
	}
	s := &Setup{Genesis: env, Devices: []Device{{ID: l.n.id, Addrs: l.n.host.Addrs()}}}
	for _, c := range l.claims {
		pid, err := PeerIDOf(c)
		if err != nil {
			return nil, nil, err
		}
		s.Devices = append(s.Devices, Device{ID: c, Addrs: l.n.host.Peerstore().Addrs(pid)})
	}
	if _, err := s.MarshalBinary(); err != nil {
		return nil, nil, err
	}
	l.setup = s
	l.notify()
	return s, bots, nil
}

// Close closes the lobby; joiners still waiting are refused.
func (l *Lobby) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		l.notify()
	}
	l.mu.Unlock()
	l.n.mu.Lock()
	if l.n.lobby == l {
		l.n.lobby = nil
	}
	l.n.mu.Unlock()
	return nil
}

// claim seats id with the player's name, or returns why not. A device
// that claims again (a lost connection) keeps its seat and takes the new
// name.
func (l *Lobby) claim(id tablelog.Identity, name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return ErrLobbyClosed
	case id == l.n.id:
		return fmt.Errorf("%w: the host's own identity", ErrRefused)
	}
	for i, c := range l.claims {
		if c == id {
			if l.setup == nil && l.names[i] != name {
				l.names[i] = name
				l.notify()
			}
			return nil
		}
	}
	if l.setup != nil {
		return fmt.Errorf("%w: the game has started", ErrRefused)
	}
	if 1+len(l.claims) >= l.cfg.Players-len(l.bots) {
		return fmt.Errorf("%w: the table is full", ErrRefused)
	}
	at := len(l.claims)
	if len(l.cfg.Seats) > 0 {
		kept := slices.Index(l.cfg.Seats, id)
		if kept < 0 {
			return fmt.Errorf("%w: the table is kept for its players", ErrRefused)
		}
		// The kept seats' order, whatever the order of the claims.
		at = 0
		for at < len(l.claims) && slices.Index(l.cfg.Seats, l.claims[at]) < kept {
			at++
		}
	}
	l.claims = slices.Insert(l.claims, at, id)
	l.names = slices.Insert(l.names, at, name)
	l.notify()
	return nil
}

// unclaim frees id's seat if the table has not started.
func (l *Lobby) unclaim(id tablelog.Identity) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.setup != nil || l.closed {
		return
	}
	for i, c := range l.claims {
		if c == id {
			l.claims = append(l.claims[:i], l.claims[i+1:]...)
			l.names = append(l.names[:i], l.names[i+1:]...)
			l.notify()
			return
		}
	}
}

// serveLobby handles one joiner's stream.
func (n *Node) serveLobby(s network.Stream) {
	n.mu.Lock()
	l := n.lobby
	n.mu.Unlock()
	if l == nil {
		s.Reset()
		return
	}
	l.mu.Lock()
	if l.streams >= maxLobbyStreams {
		l.mu.Unlock()
		s.Reset()
		return
	}
	l.streams++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.streams--
		l.mu.Unlock()
	}()
	err := l.serve(s)
	var told refusal
	if errors.As(err, &told) {
		// The joiner was told why: close, so that the refusal reaches it
		// rather than a reset.
		n.logf("p2p: lobby request from %v refused: %v", s.Conn().RemotePeer(), told.err)
		s.Close()
		return
	}
	n.finish(s, "lobby request", err)
}

// refusal is a claim refused, with the reason written to the joiner.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

func (l *Lobby) serve(s network.Stream) error {
	if err := s.SetReadDeadline(time.Now().Add(lobbyIOTimeout)); err != nil {
		return err
	}
	msg, err := readFrame(s)
	if err != nil {
		return err
	}
	if len(msg) < 2+len(LobbyID{}) || len(msg) > 2+len(LobbyID{})+maxClaimName || msg[0] != lobbyVersion || msg[1] != msgClaim {
		return fmt.Errorf("%w: lobby claim", tablelog.ErrMalformed)
	}
	var want LobbyID
	copy(want[:], msg[2:])
	rawName := string(msg[2+len(want):])
	id, err := IdentityOfPeer(s.Conn().RemotePeer())
	if err != nil {
		return err
	}
	refuse := func(err error) error {
		s.SetWriteDeadline(time.Now().Add(lobbyIOTimeout))
		if werr := writeFrame(s, append([]byte{lobbyVersion, msgRefuse}, err.Error()...)); werr != nil {
			return errors.Join(err, werr)
		}
		return refusal{err}
	}
	if want != (LobbyID{}) && want != l.cfg.ID {
		return refuse(fmt.Errorf("%w: no such table here", ErrRefused))
	}
	name, err := table.CheckName(rawName)
	if err != nil {
		return refuse(fmt.Errorf("%w: %w", ErrRefused, err))
	}
	if err := l.claim(id, name); err != nil {
		return refuse(err)
	}
	// The joiner only closes the stream from now on: a read that returns
	// means it left.
	if err := s.SetReadDeadline(time.Time{}); err != nil {
		return err
	}
	gone := make(chan struct{})
	go func() {
		var b [1]byte
		s.Read(b[:])
		close(gone)
	}()
	var last []byte
	for {
		l.mu.Lock()
		now, setup, closed, ch := l.seatsLocked(), l.setup, l.closed, l.changed
		l.mu.Unlock()
		s.SetWriteDeadline(time.Now().Add(lobbyIOTimeout))
		msg := encodeSeats(now)
		switch {
		case setup != nil:
			return l.sendStart(s, setup, id)
		case closed:
			return refuse(ErrLobbyClosed)
		case !bytes.Equal(msg, last):
			if err := writeFrame(s, msg); err != nil {
				l.unclaim(id)
				return err
			}
			last = msg
		}
		select {
		case <-gone:
			l.unclaim(id)
			return fmt.Errorf("the joiner left")
		case <-ch:
		}
	}
}

// encodeSeats writes a seats message: the seats kept for people, the
// number of players and of bots, then each player's name and each bot's
// kind, each after its length in one byte.
func encodeSeats(s LobbySeats) []byte {
	msg := []byte{lobbyVersion, msgSeats, byte(s.Wanted), byte(len(s.Players)), byte(len(s.Bots))}
	for _, p := range s.Players {
		msg = append(append(msg, byte(len(p))), p...)
	}
	for _, b := range s.Bots {
		msg = append(append(msg, byte(len(b))), b...)
	}
	if s.Hints {
		// A flag byte after the bots, only when set: a table without
		// hints sends what older joiners read.
		msg = append(msg, seatsHints)
	}
	return msg
}

// seatsHints is the flag byte that ends a seats message whose table
// allows hints.
const seatsHints = 1

// botKindOK reports whether k is a bot kind a lobby lists.
func botKindOK(k string) bool {
	if len(k) > MaxBotKind {
		return false
	}
	for _, r := range k {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// parseSeats reads a seats message (encodeSeats), checking each name as
// the genesis would.
func parseSeats(msg []byte) (LobbySeats, error) {
	bad := func(what string) (LobbySeats, error) {
		return LobbySeats{}, fmt.Errorf("%w: lobby seats: %s", tablelog.ErrMalformed, what)
	}
	if len(msg) < 5 || msg[0] != lobbyVersion || msg[1] != msgSeats {
		return bad("header")
	}
	s := LobbySeats{Wanted: int(msg[2])}
	players, bots := int(msg[3]), int(msg[4])
	if players < 1 || players > s.Wanted || s.Wanted+bots > maxLobbySeats {
		return bad("counts")
	}
	rest := msg[5:]
	next := func(limit int) (string, bool) {
		if len(rest) < 1 || int(rest[0]) > limit || len(rest) < 1+int(rest[0]) {
			return "", false
		}
		v := string(rest[1 : 1+rest[0]])
		rest = rest[1+rest[0]:]
		return v, true
	}
	for range players {
		p, ok := next(table.MaxNameBytes)
		if !ok {
			return bad("a name")
		}
		if c, err := table.CheckName(p); err != nil || c != p {
			return bad("a name the genesis would refuse")
		}
		s.Players = append(s.Players, p)
	}
	for range bots {
		b, ok := next(MaxBotKind)
		if !ok {
			return bad("a bot kind")
		}
		if !botKindOK(b) {
			return bad("a bot kind")
		}
		s.Bots = append(s.Bots, b)
	}
	if len(rest) == 1 && rest[0] == seatsHints {
		s.Hints, rest = true, nil
	}
	if len(rest) != 0 {
		return bad("trailing bytes")
	}
	return s, nil
}

func (l *Lobby) sendStart(s network.Stream, setup *Setup, id tablelog.Identity) error {
	gen, err := setup.Check()
	if err != nil {
		return err
	}
	seat := -1
	for i, k := range gen.Keys {
		if k == id {
			seat = i
		}
	}
	if seat < 0 {
		return fmt.Errorf("%w: not seated", ErrRefused)
	}
	enc, err := setup.MarshalBinary()
	if err != nil {
		return err
	}
	return writeFrame(s, append([]byte{lobbyVersion, msgStart, byte(seat)}, enc...))
}

// JoinLobby claims a seat at the lobby id (zero: whichever the host
// offers) of the host at info for the player named player ("" for none;
// table.CheckName) and waits for the table to start. progress, when not
// nil, hears the lobby's seats whenever they change (from a host that
// sends only counts, Players holds as many empty names). It returns the
// Setup and the device's seat. ctx bounds the whole wait.
func (n *Node) JoinLobby(ctx context.Context, info peer.AddrInfo, id LobbyID, player string, progress func(LobbySeats)) (*Setup, int, error) {
	player, err := table.CheckName(player)
	if err != nil {
		return nil, 0, err
	}
	dctx, cancel := context.WithTimeout(ctx, lobbyIOTimeout)
	err = n.Connect(dctx, info)
	cancel()
	if err != nil {
		return nil, 0, err
	}
	s, err := n.host.NewStream(ctx, info.ID, LobbyProtocol)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, info.ID, err)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	defer s.Close()
	claim := append([]byte{lobbyVersion, msgClaim}, id[:]...)
	if err := writeFrame(s, append(claim, player...)); err != nil {
		return nil, 0, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, info.ID, err)
	}
	for {
		msg, err := readFrame(s)
		if err != nil {
			if ctx.Err() != nil {
				return nil, 0, ctx.Err()
			}
			return nil, 0, fmt.Errorf("%w: lobby of %v: %w", tablelog.ErrUnreachable, info.ID, err)
		}
		if len(msg) < 2 || msg[0] != lobbyVersion {
			return nil, 0, fmt.Errorf("%w: lobby message", tablelog.ErrMalformed)
		}
		switch {
		case msg[1] == msgWait && len(msg) == 4:
			if progress != nil && msg[2] <= msg[3] {
				progress(LobbySeats{Players: make([]string, msg[2]), Wanted: int(msg[3])})
			}
		case msg[1] == msgSeats:
			seats, err := parseSeats(msg)
			if err != nil {
				return nil, 0, err
			}
			if progress != nil {
				progress(seats)
			}
		case msg[1] == msgRefuse:
			return nil, 0, fmt.Errorf("%w: %s", ErrRefused, printable(msg[2:]))
		case msg[1] == msgStart && len(msg) > 3:
			setup, err := ParseSetup(msg[3:])
			if err != nil {
				return nil, 0, err
			}
			gen, err := setup.Check()
			if err != nil {
				return nil, 0, err
			}
			seat := int(msg[2])
			switch {
			case seat >= len(gen.Keys) || gen.Keys[seat] != n.id:
				return nil, 0, fmt.Errorf("%w: the setup does not seat this device at %d", tablelog.ErrMalformed, seat)
			case setup.Devices[0].ID != mustIdentity(info.ID):
				return nil, 0, fmt.Errorf("%w: the setup's creator is not the host", tablelog.ErrMalformed)
			case id != (LobbyID{}) && LobbyID(gen.Nonce) != id:
				return nil, 0, fmt.Errorf("%w: the setup is for another table", tablelog.ErrWrongTable)
			case gen.Name(seat) != player:
				return nil, 0, fmt.Errorf("%w: the setup names this device's player %q, not %q", tablelog.ErrMalformed, gen.Name(seat), player)
			}
			return setup, seat, nil
		default:
			return nil, 0, fmt.Errorf("%w: lobby message type %d", tablelog.ErrMalformed, msg[1])
		}
	}
}

func mustIdentity(pid peer.ID) tablelog.Identity {
	id, err := IdentityOfPeer(pid)
	if err != nil {
		return tablelog.Identity{}
	}
	return id
}

// printable keeps a refusal's reason short and free of control bytes.
func printable(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	out := make([]rune, 0, len(b))
	for _, r := range string(b) {
		if r < 0x20 || r == 0x7f {
			r = '?'
		}
		out = append(out, r)
	}
	return string(out)
}

// writeFrame writes a 4-byte big-endian length and msg.
func writeFrame(w io.Writer, msg []byte) error {
	if len(msg) > maxLobbyMessage {
		return fmt.Errorf("%w: lobby message of %d bytes", tablelog.ErrTooLarge, len(msg))
	}
	b := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(msg)), uint32(len(msg)))
	_, err := w.Write(append(b, msg...))
	return err
}

// readFrame reads one length-prefixed message of at most maxLobbyMessage.
func readFrame(r io.Reader) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(h[:])
	if n > maxLobbyMessage {
		return nil, fmt.Errorf("%w: lobby message of %d bytes", tablelog.ErrTooLarge, n)
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(r, msg); err != nil {
		return nil, err
	}
	return msg, nil
}
