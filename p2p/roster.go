package p2p

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// Device is one member device of a table: its identity (the libp2p key)
// and the addresses others dial it at.
type Device struct {
	ID    tablelog.Identity
	Addrs []ma.Multiaddr
}

// Setup is what every member knows of a table before its log starts: the
// genesis envelope (seat 0's, signed by the creating device) and the
// member devices, the creator first. A seat whose genesis key is a
// device's identity is that device's own seat; every other seat is a bot
// hosted by the creator, which holds its key.
type Setup struct {
	Genesis *tablelog.Envelope
	Devices []Device
}

// Limits of the setup encoding.
const (
	maxDevices      = 8
	maxAddrsPerDev  = 16
	maxAddrLen      = 255
	setupVersion    = 1
	maxSetupMessage = 64 << 10
)

// Table returns the table id, derived from the genesis body.
func (s *Setup) Table() tablelog.TableID { return table.TableIDOf(s.Genesis.Body) }

// Check verifies that the setup is consistent: a genesis that parses, is
// signed by the creator's device key (seat 0), and devices that are
// distinct, with the creator first.
func (s *Setup) Check() (*table.Genesis, error) {
	if s.Genesis == nil || s.Genesis.Kind != tablelog.KindGenesis || s.Genesis.Seq != 0 {
		return nil, fmt.Errorf("%w: setup without a genesis", tablelog.ErrMalformed)
	}
	gen, err := table.ParseGenesis(s.Genesis.Body)
	if err != nil {
		return nil, err
	}
	if s.Genesis.Table != s.Table() {
		return nil, fmt.Errorf("%w: the genesis names another table", tablelog.ErrWrongTable)
	}
	if len(s.Devices) == 0 || len(s.Devices) > maxDevices || len(s.Devices) > len(gen.Keys) {
		return nil, fmt.Errorf("%w: %d devices for %d seats", tablelog.ErrMalformed, len(s.Devices), len(gen.Keys))
	}
	if s.Devices[0].ID != gen.Keys[0] {
		return nil, fmt.Errorf("%w: the creating device does not hold seat 0", tablelog.ErrMalformed)
	}
	if err := s.Genesis.Verify(gen.Keys[0]); err != nil {
		return nil, err
	}
	for i, d := range s.Devices {
		for _, e := range s.Devices[:i] {
			if e.ID == d.ID {
				return nil, fmt.Errorf("%w: device %v listed twice", tablelog.ErrMalformed, d.ID)
			}
		}
		if i > 0 && !slices.Contains(gen.Keys, d.ID) {
			return nil, fmt.Errorf("%w: device %v holds no seat", tablelog.ErrMalformed, d.ID)
		}
	}
	return gen, nil
}

// LobbyBots returns the seats the creator filled with bots in the lobby:
// those whose genesis key is no member device's identity, in seat order.
// A watcher may claim them (table.GameConfig.LobbyBots); whether one
// changes hands is still the log's business, which wants the consent of
// the seat's own key, so a creator that lists a person's seat here gains
// nothing by it.
func (s *Setup) LobbyBots() []int {
	gen, err := s.Check()
	if err != nil {
		return nil
	}
	var out []int
	for seat, k := range gen.Keys {
		if !slices.ContainsFunc(s.Devices, func(d Device) bool { return d.ID == k }) {
			out = append(out, seat)
		}
	}
	return out
}

// MarshalBinary encodes the setup: version (1), the genesis envelope
// (4-byte length + bytes), the device count (1) and per device its key
// (32), its address count (1) and each address (1-byte length + bytes).
func (s *Setup) MarshalBinary() ([]byte, error) {
	gen, err := s.Genesis.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if len(s.Devices) > maxDevices {
		return nil, fmt.Errorf("%w: %d devices", tablelog.ErrTooLarge, len(s.Devices))
	}
	b := []byte{setupVersion}
	b = binary.BigEndian.AppendUint32(b, uint32(len(gen)))
	b = append(b, gen...)
	b = append(b, byte(len(s.Devices)))
	for _, d := range s.Devices {
		b = append(b, d.ID[:]...)
		addrs := d.Addrs
		if len(addrs) > maxAddrsPerDev {
			addrs = addrs[:maxAddrsPerDev]
		}
		var enc [][]byte
		for _, a := range addrs {
			if raw := a.Bytes(); len(raw) <= maxAddrLen {
				enc = append(enc, raw)
			}
		}
		b = append(b, byte(len(enc)))
		for _, raw := range enc {
			b = append(b, byte(len(raw)))
			b = append(b, raw...)
		}
	}
	if len(b) > maxSetupMessage {
		return nil, fmt.Errorf("%w: setup of %d bytes", tablelog.ErrTooLarge, len(b))
	}
	return b, nil
}

// ParseSetup decodes a setup strictly and checks it (Setup.Check).
func ParseSetup(data []byte) (*Setup, error) {
	bad := func(what string) error { return fmt.Errorf("%w: setup: %s", tablelog.ErrMalformed, what) }
	if len(data) > maxSetupMessage {
		return nil, fmt.Errorf("%w: setup of %d bytes", tablelog.ErrTooLarge, len(data))
	}
	if len(data) < 5 || data[0] != setupVersion {
		return nil, bad("version")
	}
	n := binary.BigEndian.Uint32(data[1:])
	p := data[5:]
	if uint64(n) > uint64(len(p)) {
		return nil, bad("genesis length")
	}
	env, err := tablelog.ParseEnvelope(p[:n])
	if err != nil {
		return nil, err
	}
	p = p[n:]
	s := &Setup{Genesis: env}
	if len(p) < 1 {
		return nil, bad("device count")
	}
	count := int(p[0])
	p = p[1:]
	if count == 0 || count > maxDevices {
		return nil, bad("device count")
	}
	for range count {
		if len(p) < 33 {
			return nil, bad("truncated device")
		}
		var d Device
		copy(d.ID[:], p[:32])
		na := int(p[32])
		p = p[33:]
		if na > maxAddrsPerDev {
			return nil, bad("address count")
		}
		for range na {
			if len(p) < 1 || int(p[0]) > len(p)-1 {
				return nil, bad("truncated address")
			}
			l := int(p[0])
			a, err := ma.NewMultiaddrBytes(p[1 : 1+l])
			if err != nil {
				return nil, bad("address")
			}
			d.Addrs = append(d.Addrs, a)
			p = p[1+l:]
		}
		s.Devices = append(s.Devices, d)
	}
	if len(p) != 0 {
		return nil, bad("trailing bytes")
	}
	if _, err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// roster answers, for a running table, which device hosts which seat and
// with which keys. A seat's key can change during the game (a BotSeat puts
// a bot hosted by the voter's device in it); the roster learns such keys
// from the BotSeat envelopes it sees. A device outside the setup becomes a
// member when the log hands it a seat (a SeatClaim the local log accepted,
// see Table.admit): the roster never learns a member from a message alone.
type roster struct {
	players int
	devices []Device // the setup's devices, as served to watchers

	mu    sync.Mutex
	pids  []peer.ID           // member devices: the setup's, then the admitted ones
	keys  []tablelog.Identity // each member device's key
	seats [][]seatKey         // per seat: the keys it may sign with and their device
}

type seatKey struct {
	key    tablelog.Identity
	device int
}

// maxAdmitted bounds the devices a table admits beyond its setup: each
// needs a SeatClaim in the log, at most one per deal.
const maxAdmitted = 32

func newRoster(s *Setup) (*roster, error) {
	gen, err := s.Check()
	if err != nil {
		return nil, err
	}
	r := &roster{players: len(gen.Keys), devices: s.Devices, seats: make([][]seatKey, len(gen.Keys))}
	for _, d := range s.Devices {
		pid, err := PeerIDOf(d.ID)
		if err != nil {
			return nil, err
		}
		r.pids = append(r.pids, pid)
		r.keys = append(r.keys, d.ID)
	}
	for seat, k := range gen.Keys {
		dev := 0 // bots are hosted by the creator
		for i, d := range s.Devices {
			if d.ID == k {
				dev = i
			}
		}
		r.seats[seat] = []seatKey{{key: k, device: dev}}
	}
	return r, nil
}

// device returns the index of the member device pid, or -1.
func (r *roster) device(pid peer.ID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Index(r.pids, pid)
}

func (r *roster) isMember(pid peer.ID) bool { return r.device(pid) >= 0 }

// members returns the member devices' peer ids, by device index.
func (r *roster) members() []peer.ID {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.pids)
}

// pid returns member device dev's peer id.
func (r *roster) pid(dev int) peer.ID {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pids[dev]
}

// deviceOfKey returns the device that holds a seat key (a device's own
// identity or a hosted bot's key), or -1.
func (r *roster) deviceOfKey(id tablelog.Identity) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i := slices.Index(r.keys, id); i >= 0 {
		return i
	}
	for _, keys := range r.seats {
		for _, k := range keys {
			if k.key == id {
				return k.device
			}
		}
	}
	return -1
}

// admit makes the device whose key is key a member that signs for seat
// with it: the log handed it the seat. It reports whether the roster
// changed.
func (r *roster) admit(seat int, key tablelog.Identity) (bool, error) {
	if seat < 0 || seat >= r.players {
		return false, fmt.Errorf("%w: a claim of seat %d at a table of %d", tablelog.ErrMalformed, seat, r.players)
	}
	pid, err := PeerIDOf(key)
	if err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	dev := slices.Index(r.keys, key)
	if dev < 0 {
		if len(r.keys) >= len(r.devices)+maxAdmitted {
			return false, fmt.Errorf("%w: more than %d devices admitted", tablelog.ErrTooLarge, maxAdmitted)
		}
		r.pids = append(r.pids, pid)
		r.keys = append(r.keys, key)
		dev = len(r.keys) - 1
	}
	if slices.Contains(r.seats[seat], seatKey{key: key, device: dev}) {
		return false, nil
	}
	if len(r.seats[seat]) >= 8 {
		return false, fmt.Errorf("%w: seat %d has had 8 keys", tablelog.ErrTooLarge, seat)
	}
	r.seats[seat] = append(r.seats[seat], seatKey{key: key, device: dev})
	return true, nil
}

// signedBy reports whether env verifies under a key of its author seat
// that device dev holds (any device if dev < 0).
func (r *roster) signedBy(env *tablelog.Envelope, dev int) bool {
	return int(env.Author) < r.players && r.heldBy(int(env.Author), dev, env.Verify)
}

// voteSignedBy reports whether v verifies under a key of its voter seat
// that device dev holds.
func (r *roster) voteSignedBy(v *table.SilenceVote, dev int) bool {
	return dev >= 0 && int(v.Voter) < r.players && int(v.Silent) < r.players && r.heldBy(int(v.Voter), dev, v.Verify)
}

// approvalSignedBy reports whether a verifies under a key of its approving
// seat that device dev holds.
func (r *roster) approvalSignedBy(a *table.SeatApproval, dev int) bool {
	return dev >= 0 && int(a.Approver) < r.players && int(a.Seat) < r.players && r.heldBy(int(a.Approver), dev, a.Verify)
}

// heldBy reports whether verify accepts a key seat has had that device
// dev holds (any device if dev < 0).
func (r *roster) heldBy(seat, dev int, verify func(tablelog.Identity) error) bool {
	r.mu.Lock()
	keys := slices.Clone(r.seats[seat])
	r.mu.Unlock()
	for _, k := range keys {
		if (dev < 0 || k.device == dev) && verify(k.key) == nil {
			return true
		}
	}
	return false
}

// learn records the keys that a BotSeat or a VoidSilent envelope gives
// seats, hosted by the device of the seat that posted it. A BotSeat body
// is the body version, the seat and the bot's key; a VoidSilent body of
// version 1 the same, then the votes; one of version 2 names the silent
// seat, then every seat taken over with its bot's key, then the votes.
// The caller has checked env's signature (signedBy). The Log decides
// whether the envelope stands; the roster only widens what the topic
// validator lets through.
func (r *roster) learn(env *tablelog.Envelope, dev int) {
	if dev < 0 || len(env.Body) < 2 {
		return
	}
	b := env.Body
	type taken struct {
		seat int
		key  tablelog.Identity
	}
	var seats []taken
	one := func(p []byte) {
		var t taken
		t.seat = int(p[0])
		copy(t.key[:], p[1:33])
		seats = append(seats, t)
	}
	switch {
	case env.Kind == tablelog.KindBotSeat && len(b) == 1+1+32 && b[0] == table.BodyVersion:
		one(b[1:])
	case env.Kind == tablelog.KindVoidSilent && len(b) >= 1+1+32+1 && b[0] == table.BodyVersion:
		one(b[1:])
	case env.Kind == tablelog.KindVoidSilent && len(b) >= 3 && b[0] == table.BodyVersion+1:
		n := int(b[2])
		p := b[3:]
		for i := 0; i < n && len(p) >= 33; i++ {
			one(p)
			p = p[33:]
		}
	default:
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range seats {
		if t.seat >= r.players || slices.ContainsFunc(r.seats[t.seat], func(k seatKey) bool { return k.key == t.key }) {
			continue
		}
		if len(r.seats[t.seat]) < 8 {
			r.seats[t.seat] = append(r.seats[t.seat], seatKey{key: t.key, device: dev})
		}
	}
}
