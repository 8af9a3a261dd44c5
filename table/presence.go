package table

import (
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/njetlan/njet/tablelog"
)

// Liveness and thinking time are separate (docs/protocol.md, "Presence").
// Every device announces itself with a signed Presence outside the log,
// whatever its person does. A seat is taken over only when its device is
// away: it has shown no sign of life for the patience (it is gone), or it
// is alive, holds the log, and stays silent for the refusal time at a step
// no person chooses (keys, shuffles, reveals: it refuses). A person who
// thinks over a move on a device that is there is waited for however long
// it takes.

// Presence is a device's signed sign of life: the seat it plays with its
// own key, a beat that grows with every announcement, and the length of
// its log when it sent it. It travels over the table's transport like a
// SilenceVote and is never part of the log.
type Presence struct {
	Table tablelog.TableID
	Seat  uint8
	// Beat grows with every announcement of the device, across restarts
	// (see Peer.announce): a receiver keeps only a higher one, so an old
	// announcement replayed says nothing about the device now.
	Beat uint64
	// Head is the length of the device's log: a device whose log reaches
	// the seq the table waits for holds what it needs to post there.
	Head uint64
	Sig  [tablelog.SignatureSize]byte
}

// Wire constants of a Presence. Like VoteTag, no envelope version will
// ever take the value of PresenceTag.
const (
	PresenceTag     = 0x50 // 'P'
	PresenceVersion = 1
	// PresenceSize is the fixed size of an encoded Presence: tag, version,
	// table (32), seat (1), beat (8), head (8), signature (64).
	PresenceSize   = 2 + 32 + 1 + 8 + 8 + tablelog.SignatureSize
	presenceDomain = "njet/table/v1/presence\x00"
)

// IsPresence reports whether a message on a table's transport is a
// Presence (by its first byte).
func IsPresence(data []byte) bool { return len(data) > 0 && data[0] == PresenceTag }

func (a *Presence) appendSigned(b []byte) []byte {
	b = append(b, PresenceTag, PresenceVersion)
	b = append(b, a.Table[:]...)
	b = append(b, a.Seat)
	b = binary.BigEndian.AppendUint64(b, a.Beat)
	return binary.BigEndian.AppendUint64(b, a.Head)
}

// Sign signs the announcement with the key that plays the seat.
func (a *Presence) Sign(priv ed25519.PrivateKey) error {
	return signSide(priv, a.appendSigned([]byte(presenceDomain)), &a.Sig)
}

// Verify checks the signature under key, a key of the seat.
func (a *Presence) Verify(key tablelog.Identity) error {
	return verifySide(key, a.appendSigned([]byte(presenceDomain)), a.Sig[:], "presence of seat %d", a.Seat)
}

// MarshalBinary encodes the announcement (PresenceSize bytes).
func (a *Presence) MarshalBinary() ([]byte, error) {
	return append(a.appendSigned(make([]byte, 0, PresenceSize)), a.Sig[:]...), nil
}

// ParsePresence decodes an announcement strictly; Verify checks it.
func ParsePresence(data []byte) (*Presence, error) {
	if err := sideFrame(data, "presence", PresenceSize, PresenceTag, PresenceVersion); err != nil {
		return nil, err
	}
	a := &Presence{Seat: data[34]}
	copy(a.Table[:], data[2:34])
	a.Beat = binary.BigEndian.Uint64(data[35:])
	a.Head = binary.BigEndian.Uint64(data[43:])
	copy(a.Sig[:], data[PresenceSize-tablelog.SignatureSize:])
	return a, nil
}

// Absence is why a SilenceVote finds the seat's device away. A vote of
// version 1 states none (AbsenceUnstated).
type Absence uint8

// The reasons of a vote.
const (
	// AbsenceUnstated is a version 1 vote, cast before devices announced
	// themselves: a seat voted silent at its reveal is recorded as having
	// withheld it, as it always was.
	AbsenceUnstated Absence = iota
	// AbsenceGone: the device showed no sign of life for the patience, or
	// showed it without ever holding the log the table waits on. A
	// departure, never a cheat.
	AbsenceGone
	// AbsenceRefused: the device is alive and holds the log, and it stayed
	// silent for the refusal time at a step where no person chooses. At
	// the reveal after the play that is a withheld reveal, a cheat.
	AbsenceRefused
	absenceEnd
)

func (a Absence) String() string {
	switch a {
	case AbsenceUnstated:
		return "unstated"
	case AbsenceGone:
		return "gone"
	case AbsenceRefused:
		return "refused"
	}
	return fmt.Sprintf("absence(%d)", uint8(a))
}

// sighting is what a peer last heard of a device: the highest beat, when
// it came (by the peer's clock), and since when the device holds the log
// up to reached (its announced head reached that seq).
type sighting struct {
	beat      uint64
	at        time.Time
	reached   uint64
	reachedAt time.Time
}

// DefaultRefusal is PeerConfig.Refusal when it is 0.
const DefaultRefusal = 2 * time.Minute

// announce publishes the peer's Presence for its own seat, while its key
// plays it. The beat is the wall clock in nanoseconds, raised above the
// last one: the wall clock keeps growing across a restart of the device,
// where a counter would start again below what the others hold (the
// peer's clock, Now, may be a simulation's that stands still).
func (p *Peer) announce(ctx context.Context) {
	game, log, _ := p.state()
	if game.Genesis() == nil || !p.hosts(game, p.cfg.Seat) || game.HostOf(p.cfg.Seat) >= 0 {
		return
	}
	p.mu.Lock()
	if p.lost != nil && *p.lost == dealOf(game) {
		// The device lost its secrets for this deal: it cannot post in it
		// and lets the others take its seats over, as if it were gone.
		p.mu.Unlock()
		return
	}
	beat := max(uint64(time.Now().UnixNano()), p.beat+1)
	p.beat = beat
	p.mu.Unlock()
	a := &Presence{Table: p.cfg.Table, Seat: uint8(p.cfg.Seat), Beat: beat, Head: log.Next()}
	if err := a.Sign(p.cfg.Key); err != nil {
		return
	}
	b, err := a.MarshalBinary()
	if err != nil {
		return
	}
	if err := p.cfg.Transport.Publish(ctx, b); err != nil && ctx.Err() == nil && p.cfg.Logf != nil {
		p.cfg.Logf("table: seat %d: publish a presence: %v", p.cfg.Seat, err)
	}
}

// heartbeat announces the peer on every value of cfg.Heartbeat until ctx
// ends. It runs beside Run's loop, so that a device busy drafting (a
// shuffle's proof on a slow phone) still shows it is there.
func (p *Peer) heartbeat(ctx context.Context) {
	if p.cfg.Heartbeat == nil {
		return
	}
	p.announce(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.cfg.Heartbeat:
			p.announce(ctx)
		}
	}
}

// receivePresence takes a device's announcement: kept when it is signed
// by a key its seat has had and its beat is higher than the last one.
func (p *Peer) receivePresence(m tablelog.Received) {
	a, err := ParsePresence(m.Data)
	if err != nil || a.Table != p.cfg.Table {
		return
	}
	game, log, _ := p.state()
	gen := game.Genesis()
	seat := int(a.Seat)
	if gen == nil || seat >= len(gen.Keys) || a.Verify(gen.Keys[seat]) != nil && a.Verify(game.KeyOf(seat)) != nil {
		return
	}
	next := log.Next()
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sightingOf(seat)
	if a.Beat <= s.beat {
		return
	}
	now := p.cfg.Now()
	s.beat, s.at = a.Beat, now
	if a.Head >= next && s.reached != next {
		s.reached, s.reachedAt = next, now
	}
}

// absence says, with p.mu held, from when the device of silent, the seat
// entitled at next after prev, counts as away and why: its last sign of life (or
// when the table began to wait at next, if later) when it has shown none
// for the patience; while it is there, never at a step where a person may
// choose at a table without a clock (then since is now and why
// AbsenceUnstated), and elsewhere from the refusal time on (after the
// clock, at a person's step), shifted so that the patience ends with it.
func (p *Peer) absence(game *Game, next uint64, prev tablelog.Hash, silent int) (since time.Time, why Absence) {
	now := p.cfg.Now()
	waiting := p.waitingSince(prev)
	last := waiting
	s := p.seen[game.PeerOf(silent)]
	if s != nil && s.at.After(last) {
		last = s.at
	}
	if now.Sub(last) >= p.cfg.Patience {
		return last, AbsenceGone
	}
	clock := time.Duration(0)
	if asks, _ := game.asks(next, silent); asks {
		// A person may be thinking over the move: the device is there,
		// and without a table clock it is waited for however long.
		if game.Genesis().Clock == 0 {
			return now, AbsenceUnstated
		}
		// With one, its own bot moves once the clock runs out: only a
		// device that does not is refusing, a refusal time later.
		clock = time.Duration(game.Genesis().Clock) * time.Second
	}
	from, why := waiting, AbsenceGone
	if s != nil && s.reached == next {
		// The device holds the log and says so, yet posts nothing.
		why = AbsenceRefused
		if s.reachedAt.After(from) {
			from = s.reachedAt
		}
	}
	since = from.Add(clock + p.cfg.Refusal - p.cfg.Patience)
	if since.After(now) {
		return now, AbsenceUnstated
	}
	return since, why
}

// sightingOf returns what the peer saw of seat's device, a record made
// on first use. p.mu is held.
func (p *Peer) sightingOf(seat int) *sighting {
	s := p.seen[seat]
	if s == nil {
		s = &sighting{}
		p.seen[seat] = s
	}
	return s
}

// sawDevice records a sign of life of the device of seat other than its
// Presence (a vote it cast at next): it is there now.
func (p *Peer) sawDevice(game *Game, seat int, next uint64) {
	dev := game.PeerOf(seat)
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sightingOf(dev)
	now := p.cfg.Now()
	s.at = now
	if s.reached != next {
		s.reached, s.reachedAt = next, now
	}
}

// heard returns, with p.mu held, when the peer last heard one of the
// other devices of the table, or zero when fewer than two other devices
// play at it or none was heard yet (PeerView.Heard).
func (p *Peer) heard(game *Game) time.Time {
	gen := game.Genesis()
	if gen == nil {
		return time.Time{}
	}
	var devices []int
	for s := range gen.Players() {
		if d := game.PeerOf(s); d != p.cfg.Seat && !slices.Contains(devices, d) {
			devices = append(devices, d)
		}
	}
	var last time.Time
	if len(devices) < 2 {
		return last
	}
	for _, d := range devices {
		if s := p.seen[d]; s != nil && s.at.After(last) {
			last = s.at
		}
	}
	return last
}
