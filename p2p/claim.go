package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// ClaimProtocol carries a watcher's seat claim to a member device, which
// publishes it on the table's topic for the watcher: a watcher is no
// member, so the topic is closed to it. The watcher writes one
// table.SeatClaimRequest (table.ClaimSize bytes) and closes its side; the
// member answers one byte, 0 when it published the claim and 1 when it
// refuses it, then the reason (UTF-8, at most maxClaimReason bytes), and
// closes. Anything else resets the stream.
//
// The member relays only a claim signed by the key of the device that
// sends it, for a seat its own log says a bot plays: one seated for
// silence, or one seated from the lobby (Setup.LobbyBots) that still has
// its genesis key (table.Game.Claimable). The claim itself admits nobody:
// the table's devices approve it (a lobby bot's own peer consents), the
// seat's player hands it over in a SeatClaim envelope, and only once a
// log holds that envelope does its device let the claimant's device in
// (Table.admitFromLog).
const ClaimProtocol protocol.ID = "/njet/seat-claim/1"

// ErrClaimRefused: a member device refused to relay a seat claim; the
// error says why.
var ErrClaimRefused = errors.New("the table refuses the claim")

// Bounds of the claim relay.
const (
	maxClaimReason = 200
	// claimRepeat is how often at most a member publishes one claimant's
	// claim of a seat again; a claimant asks again every second or so,
	// because gossip loses messages.
	claimRepeat = 500 * time.Millisecond
	// claimHold is how long a member keeps a seat for the claimant whose
	// claim it relayed last: another device's claim of that seat is
	// refused meanwhile, so that two watchers cannot make the table's
	// approvals start over again and again.
	claimHold = 10 * time.Second
	// claimTimeout bounds one claim exchange on either side.
	claimTimeout = 5 * time.Second
)

// claimRelay is what a table remembers of the claims it relayed, and how
// it judges a seat claim (set by the session that plays the table's seats).
type claimRelay struct {
	mu    sync.Mutex
	check func(seat int) error
	last  map[uint8]relayed
}

type relayed struct {
	key  tablelog.Identity
	deal uint64
	at   time.Time
}

// SetClaimCheck sets how the table judges a watcher's claim of a seat
// before it relays it: check returns nil when the seat may be claimed now
// (a Session passes its game's Claimable). A table without one refuses
// every claim.
func (t *Table) SetClaimCheck(check func(seat int) error) {
	t.claims.mu.Lock()
	t.claims.check = check
	t.claims.mu.Unlock()
}

// serveClaim answers one claim stream; garbage and overload reset it.
func (n *Node) serveClaim(s network.Stream) {
	if !n.slot(s) {
		return
	}
	defer func() { <-n.syncs }()
	reason, err := n.relayClaim(s)
	if err != nil {
		n.finish(s, "seat claim", err)
		return
	}
	answer := []byte{0}
	if reason != "" {
		n.logf("p2p: seat claim from %v refused: %s", s.Conn().RemotePeer(), reason)
		answer = append([]byte{1}, truncateUTF8(reason, maxClaimReason)...)
	}
	_, err = s.Write(answer)
	n.finish(s, "seat claim answer", err)
}

// relayClaim reads a claim from s and publishes it on its table's topic.
// It returns the reason of a refusal ("" when it relayed the claim), or an
// error for a stream that breaks the protocol.
func (n *Node) relayClaim(s network.Stream) (string, error) {
	if err := s.SetDeadline(time.Now().Add(claimTimeout)); err != nil {
		return "", err
	}
	data, err := io.ReadAll(io.LimitReader(s, table.ClaimSize+1))
	if err != nil {
		return "", err
	}
	req, err := table.ParseClaim(data)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	t := n.tables[req.Table]
	n.mu.Unlock()
	if t == nil {
		return fmt.Sprintf("this device plays no table %v", req.Table), nil
	}
	if err := req.Verify(); err != nil {
		return "the claim's signature does not verify", nil
	}
	from, err := IdentityOfPeer(s.Conn().RemotePeer())
	if err != nil || from != req.Key {
		return "a claim must be signed by the key of the device that sends it", nil
	}
	if int(req.Seat) >= t.roster.players {
		return fmt.Sprintf("the table has no seat %d", req.Seat), nil
	}
	return t.relay(req, data), nil
}

// relay publishes a checked claim unless the table's game refuses it, or
// another device claims the seat; it returns the reason of a refusal.
func (t *Table) relay(req *table.SeatClaimRequest, data []byte) string {
	t.claims.mu.Lock()
	check := t.claims.check
	last, held := t.claims.last[req.Seat]
	t.claims.mu.Unlock()
	if check == nil {
		return "this device plays no seat at the table"
	}
	if err := check(int(req.Seat)); err != nil {
		return err.Error()
	}
	now := time.Now()
	switch {
	case held && last.key != req.Key && now.Sub(last.at) < claimHold:
		return fmt.Sprintf("another device is claiming seat %d", req.Seat)
	case held && last.key == req.Key && last.deal == req.Deal && now.Sub(last.at) < claimRepeat:
		return "" // published a moment ago (a request for a later deal goes out at once)
	}
	ctx, cancel := context.WithTimeout(t.ctx, claimTimeout)
	defer cancel()
	if err := t.topic.Publish(ctx, data); err != nil {
		return fmt.Sprintf("the claim could not be published: %v", err)
	}
	t.claims.mu.Lock()
	if t.claims.last == nil {
		t.claims.last = make(map[uint8]relayed)
	}
	t.claims.last[req.Seat] = relayed{key: req.Key, deal: req.Deal, at: now}
	t.claims.mu.Unlock()
	return ""
}

// Claim sends req to the member device pid, which publishes it on the
// table's topic. It returns nil once the member published it,
// ErrClaimRefused with the member's reason, or tablelog.ErrUnreachable. The
// claim only asks: the seat changes hands when the log says so.
func (n *Node) Claim(ctx context.Context, pid peer.ID, req *table.SeatClaimRequest) error {
	data, err := req.MarshalBinary()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, claimTimeout)
	defer cancel()
	s, err := n.host.NewStream(ctx, pid, ClaimProtocol)
	if err != nil {
		return fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	defer s.Close()
	deadline, _ := ctx.Deadline()
	fail := func(err error) error {
		s.Reset()
		return fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, pid, err)
	}
	if err := s.SetDeadline(deadline); err != nil {
		return fail(err)
	}
	if _, err := s.Write(data); err != nil {
		return fail(err)
	}
	if err := s.CloseWrite(); err != nil {
		return fail(err)
	}
	resp, err := io.ReadAll(io.LimitReader(s, 1+maxClaimReason+1))
	if err != nil {
		return fail(err)
	}
	switch {
	case len(resp) == 1 && resp[0] == 0:
		return nil
	case len(resp) > 1 && len(resp) <= 1+maxClaimReason && resp[0] == 1 && utf8.Valid(resp[1:]):
		return fmt.Errorf("%w: %s", ErrClaimRefused, resp[1:])
	}
	return fmt.Errorf("%w: %v: a malformed answer to a seat claim", tablelog.ErrMalformed, pid)
}

// truncateUTF8 cuts s to at most limit bytes, at a character boundary.
func truncateUTF8(s string, limit int) string {
	for len(s) > limit {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
