package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// LocalSeat is a seat this device plays: its own (with the device key) or
// a bot it hosts (with the bot's key).
type LocalSeat struct {
	Seat int
	Key  ed25519.PrivateKey
	// Bot is the bot kind that chooses the seat's moves, and those of a
	// bot the table seats for a silent seat with this one as its host. A
	// kind of another game than the table's (a device that joined before
	// it knew the game chose it) plays as the table's game's bot of the
	// same strength (games.Game.Bot).
	Bot string
	// Human makes the seat a person's: its moves come from
	// table.Peer.Submit (PeerConfig.Human), not from Bot.
	Human bool
}

// SessionConfig wires a Session.
type SessionConfig struct {
	Setup *Setup
	// Store is the device's store; the session resumes from what it holds.
	Store *tablelog.Store
	Seats []LocalSeat
	// Tick is how often each seat asks a member for what follows its log
	// (default 500ms).
	Tick time.Duration
	// Linger bounds how long a finished device keeps serving the log to
	// members that have not yet asked for its end (default 30s).
	Linger time.Duration
	// Patience and VoidAfter are every local seat's PeerConfig.Patience
	// and VoidAfter: how long a silent seat is waited for before a vote to
	// void the round is possible, and after how long the seats vote on
	// their own (0: only when asked, through table.Peer.VoteVoid).
	Patience, VoidAfter time.Duration
	// PersonVoidAfter, when positive, is the VoidAfter of a person's local
	// seat (LocalSeat.Human): the person is asked first (VoteVoid,
	// DeclineVoid), and the seat votes on its own only after this long.
	// 0 uses VoidAfter.
	PersonVoidAfter time.Duration
	// Refusal is every local seat's PeerConfig.Refusal: how long a device
	// that is there may stay silent at a step no person chooses
	// (table.DefaultRefusal if 0).
	Refusal time.Duration
	// Heartbeat is how often each local seat announces its device to the
	// others (table.Presence; default DefaultHeartbeat): a device that
	// announces itself is never taken over for its person's thinking.
	Heartbeat time.Duration
	// Grace is every local seat's PeerConfig.Grace: how long the deciding
	// seat waits for the votes of the devices still there before it takes
	// over every seat without a vote (table.DefaultGrace if 0).
	Grace time.Duration
	// Now is the seats' clock (time.Now if nil).
	Now func() time.Time
	// Poll is how often each seat looks at the clock for a silent seat,
	// publishes its standing votes again and asks the decider (default
	// Tick).
	Poll time.Duration
	Logf Logf
}

// DefaultHeartbeat is SessionConfig.Heartbeat when it is 0: a few
// announcements within table.DefaultPatience, so that a lost one or two
// never make a device look gone.
const DefaultHeartbeat = 3 * time.Second

// Session plays a device's seats at a table of any game: a table.Peer per
// local seat, each over its own Endpoint of one Table, all sharing the
// device's Store.
type Session struct {
	cfg   SessionConfig
	tbl   *Table
	peers map[int]*table.Peer
	eps   []*Endpoint
	ticks []*time.Ticker
}

// Metadata names in the store.
const (
	metaSetup = "p2p/setup"
	metaSeats = "p2p/seats"
	metaOver  = "p2p/over"
)

// NewSession joins the table and builds the local seats' peers, replaying
// the stored log.
func (n *Node) NewSession(cfg SessionConfig) (*Session, error) {
	if cfg.Setup == nil || cfg.Store == nil || len(cfg.Seats) == 0 {
		return nil, fmt.Errorf("p2p: NewSession: Setup, Store and Seats are required")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 500 * time.Millisecond
	}
	if cfg.Linger <= 0 {
		cfg.Linger = 30 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = cfg.Tick
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	gen, err := cfg.Setup.Check()
	if err != nil {
		return nil, err
	}
	tbl, err := n.JoinTable(TableConfig{Setup: cfg.Setup, Server: cfg.Store})
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, tbl: tbl, peers: make(map[int]*table.Peer)}
	g, err := games.ByName(gen.Game)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("p2p: %w", err), s.Close())
	}
	lobbyBots := cfg.Setup.LobbyBots()
	for _, ls := range cfg.Seats {
		if ls.Seat < 0 || ls.Seat >= len(gen.Keys) {
			return nil, errors.Join(fmt.Errorf("p2p: no seat %d", ls.Seat), s.Close())
		}
		ep, err := tbl.Transport()
		if err != nil {
			return nil, errors.Join(err, s.Close())
		}
		s.eps = append(s.eps, ep)
		tick, poll, beat := time.NewTicker(cfg.Tick), time.NewTicker(cfg.Poll), time.NewTicker(cfg.Heartbeat)
		s.ticks = append(s.ticks, tick, poll, beat)
		var genesis *tablelog.Envelope
		if ls.Seat == 0 {
			genesis = cfg.Setup.Genesis
		}
		// A bot seated from the lobby, run with its genesis key, lends
		// its seat to a watcher who claims it; a person's never.
		lend := !ls.Human && slices.Contains(lobbyBots, ls.Seat) && keyIs(ls.Key, gen.Keys[ls.Seat])
		voidAfter := cfg.VoidAfter
		if ls.Human && cfg.PersonVoidAfter > 0 {
			voidAfter = cfg.PersonVoidAfter
		}
		// When the table's clock runs out the game's strongest bot makes
		// the person's move.
		clockBot := ""
		if ls.Human {
			clockBot = g.Bots[games.Strong]
		}
		p, err := table.NewPeer(table.PeerConfig{Table: tbl.id, Creator: gen.Keys[0], Genesis: genesis, Seat: ls.Seat,
			Key: ls.Key, Store: cfg.Store, Transport: ep, Peers: tbl.Members(ls.Seat), Bot: g.Bot(ls.Bot),
			NewPlayer: g.NewPlayer, ClockBot: clockBot, Human: ls.Human, Lend: lend, LobbyBots: lobbyBots,
			Tick: tick.C, Poll: poll.C, Heartbeat: beat.C, Now: cfg.Now, Patience: cfg.Patience, VoidAfter: voidAfter,
			Refusal: cfg.Refusal, Grace: cfg.Grace, Logf: cfg.Logf})
		if err != nil {
			return nil, errors.Join(err, s.Close())
		}
		s.peers[ls.Seat] = p
	}
	// A watcher's claim of a seat is relayed only for a seat this
	// device's log says a bot plays: one seated for silence, or one seated
	// from the lobby that still has its genesis key.
	judge := s.peers[cfg.Seats[0].Seat]
	tbl.SetClaimCheck(func(seat int) error { return judge.Game().Claimable(seat) })
	return s, nil
}

// keyIs reports whether priv is the private half of id.
func keyIs(priv ed25519.PrivateKey, id tablelog.Identity) bool {
	pub, ok := priv.Public().(ed25519.PublicKey)
	return ok && bytes.Equal(pub, id[:])
}

// Table returns the session's table.
func (s *Session) Table() *Table { return s.tbl }

// Peer returns the peer of a local seat, or nil.
func (s *Session) Peer(seat int) *table.Peer { return s.peers[seat] }

// done reports whether every local seat is done.
func (s *Session) done() bool {
	for _, p := range s.peers {
		if !p.Done() {
			return false
		}
	}
	return true
}

// Run plays until every local seat is done and the other members have
// caught up (or Linger passed), or ctx ends (then it returns ctx's error),
// or a peer fails. onEvent, when not nil, hears every local seat's events
// from Run's goroutine.
func (s *Session) Run(ctx context.Context, onEvent func(seat int, e table.Event)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(s.peers))
	for _, p := range s.peers {
		go func() { errc <- p.Run(ctx) }()
	}
	running := len(s.peers)
	wait := func(err error) error {
		cancel()
		for ; running > 0; running-- {
			if perr := <-errc; perr != nil && !errors.Is(perr, context.Canceled) && err == nil {
				err = perr
			}
		}
		return err
	}
	poll := time.NewTicker(250 * time.Millisecond)
	defer poll.Stop()
	var finished time.Time
	for {
		for seat, p := range s.peers {
			for drained := false; !drained; {
				select {
				case e := <-p.Events():
					if onEvent != nil {
						onEvent(seat, e)
					}
				default:
					drained = true
				}
			}
		}
		if s.done() {
			if finished.IsZero() {
				finished = time.Now()
			}
			var next uint64
			for _, p := range s.peers {
				next = max(next, p.Log().Next())
			}
			if s.tbl.CaughtUp(next) || time.Since(finished) > s.cfg.Linger {
				return wait(nil)
			}
		}
		select {
		case <-ctx.Done():
			return wait(ctx.Err())
		case err := <-errc:
			running--
			if err == nil && ctx.Err() != nil {
				// A seat that saw ctx end first returns nil: the caller
				// stopped the session, no seat failed.
				err = ctx.Err()
			}
			if err == nil {
				err = fmt.Errorf("p2p: a seat stopped")
			}
			return wait(err)
		case <-poll.C:
		}
	}
}

// Close leaves the table and stops the tickers. Run must have returned.
func (s *Session) Close() error {
	for _, t := range s.ticks {
		t.Stop()
	}
	return s.tbl.Close()
}
