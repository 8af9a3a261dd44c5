package p2p

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/njetlan/njet/tablelog"
)

// WatchProtocol serves a running table to a watcher: a device that is no
// member and follows the table without posting. The watcher writes one
// tablelog.SyncRequest — its Table may be zero, meaning the table this device
// plays — and closes its side; the member answers with the table's setup
// (4-byte length, then the Setup encoding, so that the watcher knows the
// genesis and the other members to ask) followed by a sync response
// (tablelog.MarshalSyncResponse) for the range, and closes.
//
// It is served to anyone: the log is what `njet verify` reads from an
// export, public by design. Hands travel sealed to their seats, and
// discards and passes as commitments opened only at the reveal, so the log
// shows a watcher nothing a seat has not made public.
const WatchProtocol protocol.ID = "/njet/watch/1"

// A finished device lingers also for the watchers that asked for the log
// within watcherPatience and are not at its end yet; it remembers at most
// maxWatchers of them per table.
const (
	watcherPatience = 5 * time.Second
	maxWatchers     = 16
)

// watching is what a table knows of a watcher: the highest start of a range
// it asked for, and when it last asked.
type watching struct {
	from uint64
	at   time.Time
}

// maxWatchResponse bounds a watch response: a setup and a sync response.
const maxWatchResponse = 4 + maxSetupMessage + maxSyncResponse

// serveWatch answers one watch request; anything else (garbage, an
// unknown table, too many requests at once) resets the stream. Watch
// requests share the sync requests' bound.
func (n *Node) serveWatch(s network.Stream) {
	if !n.slot(s) {
		return
	}
	defer func() { <-n.syncs }()
	n.finish(s, "watch request", n.answerWatch(s))
}

func (n *Node) answerWatch(s network.Stream) error {
	if err := s.SetDeadline(time.Now().Add(syncServeTimeout)); err != nil {
		return err
	}
	buf := make([]byte, tablelog.SyncRequestSize)
	if _, err := io.ReadFull(s, buf); err != nil {
		return err
	}
	req, err := tablelog.ParseSyncRequest(buf)
	if err != nil {
		return err
	}
	t := n.watchedTable(req.Table)
	if t == nil {
		return fmt.Errorf("%w: no table %v here", tablelog.ErrNotFound, req.Table)
	}
	ctx, cancel := context.WithTimeout(t.ctx, syncServeTimeout)
	defer cancel()
	gen, err := t.server.ServeRange(ctx, t.id, 0, 1)
	if err != nil || len(gen) != 1 {
		return fmt.Errorf("%w: the genesis of table %v", tablelog.ErrNotFound, t.id)
	}
	genesis, err := tablelog.ParseEnvelope(gen[0])
	if err != nil {
		return err
	}
	setup, err := (&Setup{Genesis: genesis, Devices: t.roster.devices}).MarshalBinary()
	if err != nil {
		return err
	}
	t.noteWatcher(s.Conn().RemotePeer(), req.From)
	envs, err := t.server.ServeRange(ctx, t.id, req.From, req.To)
	if err != nil {
		return err
	}
	resp, err := tablelog.MarshalSyncResponse(envs)
	if err != nil {
		return err
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(len(setup)))
	out = append(append(out, setup...), resp...)
	_, err = s.Write(out)
	return err
}

// noteWatcher records that pid asked for the log from seq from on.
func (t *Table) noteWatcher(pid peer.ID, from uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watchers == nil {
		t.watchers = make(map[peer.ID]watching)
	}
	w, ok := t.watchers[pid]
	if !ok && len(t.watchers) >= maxWatchers {
		for id, old := range t.watchers {
			if time.Since(old.at) >= watcherPatience {
				delete(t.watchers, id)
			}
		}
		if len(t.watchers) >= maxWatchers {
			return
		}
	}
	t.watchers[pid] = watching{from: max(w.from, from), at: time.Now()}
}

// watchersCaughtUp reports whether every watcher that asked within
// watcherPatience has asked for what follows next or later. t.mu is held.
func (t *Table) watchersCaughtUp(next uint64) bool {
	for _, w := range t.watchers {
		if w.from < next && time.Since(w.at) < watcherPatience {
			return false
		}
	}
	return true
}

// watchedTable is the joined table id names, or, for the zero id, the
// joined table with the lowest id (a device plays one table at a time).
func (n *Node) watchedTable(id tablelog.TableID) *Table {
	n.mu.Lock()
	defer n.mu.Unlock()
	if id != (tablelog.TableID{}) {
		return n.tables[id]
	}
	var found *Table
	for tid, t := range n.tables {
		if found == nil || bytes.Compare(tid[:], found.id[:]) < 0 {
			found = t
		}
	}
	return found
}

// Watch asks the member pid for the table id (zero: the one it plays): its
// setup, and its envelopes with seq in [from, to), encoded, as many as one
// sync response holds (none past the end of its log). It is bounded by
// syncFetchTimeout. The setup and the envelopes are untrusted until a Log
// accepts them.
func (n *Node) Watch(ctx context.Context, pid peer.ID, id tablelog.TableID, from, to uint64) (*Setup, [][]byte, error) {
	data, err := tablelog.SyncRequest{Table: id, From: from, To: to}.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, syncFetchTimeout)
	defer cancel()
	s, err := n.host.NewStream(ctx, pid, WatchProtocol)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	defer s.Close()
	deadline, _ := ctx.Deadline()
	if err := s.SetDeadline(deadline); err != nil {
		s.Reset()
		return nil, nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	if _, err := s.Write(data); err != nil {
		s.Reset()
		return nil, nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	if err := s.CloseWrite(); err != nil {
		s.Reset()
		return nil, nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	resp, err := io.ReadAll(io.LimitReader(s, maxWatchResponse+1))
	if err != nil {
		s.Reset()
		return nil, nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	return parseWatchResponse(resp)
}

// parseWatchResponse decodes a watch response strictly.
func parseWatchResponse(data []byte) (*Setup, [][]byte, error) {
	if len(data) > maxWatchResponse || len(data) < 4 {
		return nil, nil, fmt.Errorf("%w: watch response of %d bytes", tablelog.ErrMalformed, len(data))
	}
	n := binary.BigEndian.Uint32(data)
	if uint64(n) > uint64(len(data)-4) || n > maxSetupMessage {
		return nil, nil, fmt.Errorf("%w: watch response with a setup of %d bytes", tablelog.ErrMalformed, n)
	}
	setup, err := ParseSetup(data[4 : 4+n])
	if err != nil {
		return nil, nil, err
	}
	envs, err := tablelog.ParseSyncResponse(data[4+n:])
	if err != nil {
		return nil, nil, err
	}
	return setup, envs, nil
}
