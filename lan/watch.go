package lan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// ErrWatchTarget: a running table is not advertised on the LAN, so a
// watcher needs a member device's address or join code.
var ErrWatchTarget = errors.New("a running table is not listed on the LAN: give a member device's address or join code")

// watchTick is how often a watcher asks for what follows its log.
const watchTick = 500 * time.Millisecond

// Watcher follows a running table without a seat: it fetches the log from
// the member devices (p2p.WatchProtocol), checks every envelope through a
// Log and an observer Game that holds no secret, and shows the public
// state only. It has no key the table knows and joins no topic, so it
// posts nothing and changes nothing at the table; TakeSeat asks the
// table for a seat a bot plays, and the device plays it once the log says
// so.
type Watcher struct {
	node    *p2p.Node
	dev     *Device
	setup   *p2p.Setup
	id      tablelog.TableID
	gen     *table.Genesis
	game    *table.Game
	log     *tablelog.Log
	members []peer.AddrInfo // the member devices, the one contacted first
	now     func() time.Time
	changed chan struct{}

	mu    sync.Mutex
	ask   int       // the member asked now
	since time.Time // when the log last grew
}

// Watch contacts the member device target names (an address or a join
// code; a table under way is not listed on the LAN) and fetches what the
// table's log holds so far. Run then follows the table. progress, when not
// nil, hears how it goes.
func (d *Device) Watch(ctx context.Context, target JoinTarget, progress func(Progress)) (*Watcher, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	if target.addr == nil {
		return nil, ErrWatchTarget
	}
	progress(Contacting{Addr: target.addr})
	info := peer.AddrInfo{ID: target.host, Addrs: []multiaddr.Multiaddr{target.addr}}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	if target.host == "" {
		var accept func(peer.ID) bool
		if target.coded {
			accept = func(pid peer.ID) bool { return p2p.MatchesPrefix(pid, target.prefix) }
		}
		pid, err := d.node.DialUnknown(dctx, target.addr, accept)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
		}
		info.ID = pid
	} else if err := d.node.Connect(dctx, info); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	setup, envs, err := d.node.Watch(dctx, info.ID, tablelog.TableID{}, 0, tablelog.MaxRange)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	return newWatcher(d, setup, info, envs, time.Now)
}

// newWatcher builds the watcher of the table setup describes, asking first
// the member it reached at contacted, and takes the envelopes envs.
func newWatcher(d *Device, setup *p2p.Setup, contacted peer.AddrInfo, envs [][]byte, now func() time.Time) (*Watcher, error) {
	gen, err := setup.Check()
	if err != nil {
		return nil, err
	}
	id := setup.Table()
	game := table.NewGame(table.GameConfig{Table: id, Creator: gen.Keys[0], LobbyBots: setup.LobbyBots()})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: id, Protocol: game})
	if err != nil {
		return nil, err
	}
	w := &Watcher{node: d.node, dev: d, setup: setup, id: id, gen: gen, game: game, log: log, now: now,
		changed: make(chan struct{}, 1), since: now()}
	w.members = append(w.members, contacted)
	for _, dev := range setup.Devices {
		pid, err := p2p.PeerIDOf(dev.ID)
		if err != nil || pid == contacted.ID {
			continue
		}
		w.members = append(w.members, peer.AddrInfo{ID: pid, Addrs: dev.Addrs})
	}
	if _, err := log.Append(setup.Genesis); err != nil {
		return nil, fmt.Errorf("lan: the table's genesis: %w", err)
	}
	w.take(envs)
	return w, nil
}

// take appends the fetched envelopes the log accepts and reports whether
// it grew. An envelope the log refuses (one it holds already, or a bad
// one) is passed over: the log checks everything, whoever sent it.
func (w *Watcher) take(envs [][]byte) bool {
	before := w.log.Next()
	for _, b := range envs {
		env, err := tablelog.ParseEnvelope(b)
		if err != nil {
			continue
		}
		w.log.Append(env)
	}
	if w.log.Next() == before {
		return false
	}
	w.mu.Lock()
	w.since = w.now()
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return true
}

// ID returns the table's id.
func (w *Watcher) ID() tablelog.TableID { return w.id }

// Genesis returns the table's genesis: edition, players, names, length.
func (w *Watcher) Genesis() *table.Genesis { return w.gen }

// Lobby returns the id people see for the table (Table.Lobby).
func (w *Watcher) Lobby() p2p.LobbyID { return p2p.LobbyID(w.gen.Nonce) }

// Names returns the players' names by seat ("" for a seat without one).
func (w *Watcher) Names() []string {
	names := make([]string, w.gen.Players())
	for s := range names {
		names[s] = w.gen.Name(s)
	}
	return names
}

// Changed receives a value whenever the log grew.
func (w *Watcher) Changed() <-chan struct{} { return w.changed }

// Log returns the watcher's log: the table's, as far as it got.
func (w *Watcher) Log() *tablelog.Log { return w.log }

// Export writes the watcher's log, as far as it got, to a new file at path
// (table.Verify reads it).
func (w *Watcher) Export(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := tablelog.WriteExport(f, w.log.Range(0, w.log.Next())); err != nil {
		return errors.Join(err, f.Close())
	}
	return f.Close()
}

// View returns the public state of the table now, as a seat's peer would
// show it to a seat outside the table: Game is the engine's view from
// outside (board, rules, teams, tricks, totals; never a hand, a discard or
// a pass), Turn and Kind whom the table waits for, Silent for how long;
// no Prompt, and BotHost -1.
func (w *Watcher) View() table.PeerView {
	next := w.log.Next()
	v := table.PeerView{Game: w.game.Njet().PublicView(), Turn: -1, Results: w.game.Njet().Results(), Voided: w.game.Voided(),
		Recovered: w.game.Recovered(), Abandoned: w.game.Abandoned(), Over: w.game.Over(), Seq: next, BotHost: -1}
	if viol := w.game.Violation(); viol != nil {
		v.Violation = viol
	}
	if t, err := w.game.Entitled(next); err == nil {
		v.Turn, v.Kind = int(t.Seat), t.Kinds[0]
	}
	w.mu.Lock()
	v.Since = w.since
	v.Silent = w.now().Sub(w.since)
	w.mu.Unlock()
	return v
}

// member returns the member device asked now, its address in the
// peerstore.
func (w *Watcher) member() peer.AddrInfo {
	w.mu.Lock()
	m := w.members[w.ask]
	w.mu.Unlock()
	if len(m.Addrs) > 0 {
		w.node.Host().Peerstore().AddAddrs(m.ID, m.Addrs, time.Hour)
	}
	return m
}

// nextMember makes the watcher ask the next member device from now on.
func (w *Watcher) nextMember() {
	w.mu.Lock()
	w.ask = (w.ask + 1) % len(w.members)
	w.mu.Unlock()
}

// follow asks a member device for what follows the log once, and reports
// whether it got a full range (there may be more to fetch at once). A
// member that does not answer is left for the next one.
func (w *Watcher) follow(ctx context.Context) bool {
	m := w.member()
	next := w.log.Next()
	setup, envs, err := w.node.Watch(ctx, m.ID, w.id, next, next+tablelog.MaxRange)
	if err == nil && setup.Table() != w.id {
		err = fmt.Errorf("lan: member %v answered for another table", m.ID)
	}
	switch {
	case err == nil:
		return w.take(envs) && len(envs) == tablelog.MaxRange
	case ctx.Err() == nil:
		w.nextMember()
	}
	return false
}

// Run follows the table until its game is over (nil) or ctx ends (its
// error), asking a member device for what follows the log every half
// second, and the next member whenever one does not answer.
func (w *Watcher) Run(ctx context.Context) error {
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	for !w.game.Over() {
		if w.follow(ctx) {
			continue // more to fetch
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
