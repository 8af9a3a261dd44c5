package p2p

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/njetlan/njet/tablelog"
)

// SyncProtocol is the stream protocol that serves log ranges: the asker
// writes one tablelog.SyncRequest and closes its side, the server answers
// with one sync response (tablelog.MarshalSyncResponse) and closes.
const SyncProtocol protocol.ID = "/njet/sync/1"

// Sync timeouts: a request is answered or abandoned within these bounds.
const (
	syncServeTimeout = 10 * time.Second
	syncFetchTimeout = 5 * time.Second
	// maxSyncResponse bounds a response as tablelog.ParseSyncResponse does.
	maxSyncResponse = 1 + 4 + tablelog.MaxRange*4 + tablelog.MaxRangeBytes + tablelog.MaxEnvelopeSize
)

// slot takes one of the bounded places for serving a stream (sync, watch
// and claim requests share them); without a free one it resets the stream.
// The caller frees a place it took by reading from n.syncs.
func (n *Node) slot(s network.Stream) bool {
	select {
	case n.syncs <- struct{}{}:
		return true
	default:
		s.Reset()
		return false
	}
}

// serveSync answers one sync request from a member device of the table it
// names; anything else (garbage, a non-member, an unknown table, too many
// requests at once) resets the stream.
func (n *Node) serveSync(s network.Stream) {
	if !n.slot(s) {
		return
	}
	defer func() { <-n.syncs }()
	t, err := n.answerSync(s)
	switch {
	case n.finish(s, "sync request", err):
		t.Stats.SyncServed.Add(1)
	case t != nil:
		t.Stats.SyncRefused.Add(1)
	}
}

// finish closes a stream served, or resets it after err, which it logs
// (what names the request). It reports whether the request was served.
func (n *Node) finish(s network.Stream, what string, err error) bool {
	if err != nil {
		n.logf("p2p: %s from %v refused: %v", what, s.Conn().RemotePeer(), err)
		s.Reset()
		return false
	}
	s.Close()
	return true
}

func (n *Node) answerSync(s network.Stream) (*Table, error) {
	if err := s.SetDeadline(time.Now().Add(syncServeTimeout)); err != nil {
		return nil, err
	}
	buf := make([]byte, tablelog.SyncRequestSize)
	if _, err := io.ReadFull(s, buf); err != nil {
		return nil, err
	}
	req, err := tablelog.ParseSyncRequest(buf)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	t := n.tables[req.Table]
	n.mu.Unlock()
	if t == nil {
		return nil, fmt.Errorf("%w: unknown table %v", tablelog.ErrNotFound, req.Table)
	}
	dev := t.member(s.Conn().RemotePeer())
	if dev < 0 {
		return t, fmt.Errorf("not a member of table %.8s", req.Table.String())
	}
	t.noteAsked(dev, req.From)
	ctx, cancel := context.WithTimeout(t.ctx, syncServeTimeout)
	defer cancel()
	envs, err := t.server.ServeRange(ctx, req.Table, req.From, req.To)
	if err != nil {
		return t, err
	}
	resp, err := tablelog.MarshalSyncResponse(envs)
	if err != nil {
		return t, err
	}
	_, err = s.Write(resp)
	return t, err
}

// fetch asks pid for a range over SyncProtocol, bounded by syncFetchTimeout.
func (n *Node) fetch(ctx context.Context, pid peer.ID, req tablelog.SyncRequest) ([][]byte, error) {
	data, err := req.MarshalBinary()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, syncFetchTimeout)
	defer cancel()
	s, err := n.host.NewStream(ctx, pid, SyncProtocol)
	if err != nil {
		return nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	defer s.Close()
	deadline, _ := ctx.Deadline()
	if err := s.SetDeadline(deadline); err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	if _, err := s.Write(data); err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	if err := s.CloseWrite(); err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	resp, err := io.ReadAll(io.LimitReader(s, maxSyncResponse+1))
	if err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	return tablelog.ParseSyncResponse(resp)
}
