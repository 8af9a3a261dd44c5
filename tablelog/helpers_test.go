package tablelog

import (
	"crypto/ed25519"
	"fmt"
	"sync"
	"testing"

	"github.com/njetlan/njet/internal/seatkeys"
)

// roundRobin is a toy protocol: seat 0 posts the genesis, then the posters
// take turns with Play (or Ack) envelopes until limit; a body starting with
// "bad" is refused.
type roundRobin struct {
	seats   []Identity
	posters []uint8
	limit   uint64

	mu      sync.Mutex
	applied int
}

func (p *roundRobin) Entitled(seq uint64) (Turn, error) {
	if seq >= p.limit {
		return Turn{}, fmt.Errorf("the game is over at %d", p.limit)
	}
	if seq == 0 {
		return Turn{Seat: 0, Key: p.seats[0], Kinds: []Kind{KindGenesis}}, nil
	}
	s := p.posters[(seq-1)%uint64(len(p.posters))]
	return Turn{Seat: s, Key: p.seats[s], Kinds: []Kind{KindPlay, KindAck}}, nil
}

func (p *roundRobin) Apply(env *Envelope) error {
	if len(env.Body) >= 3 && string(env.Body[:3]) == "bad" {
		return fmt.Errorf("body refused")
	}
	p.mu.Lock()
	p.applied++
	p.mu.Unlock()
	return nil
}

// seal builds and signs an envelope.
func seal(t testing.TB, priv ed25519.PrivateKey, table TableID, seq uint64, prev Hash, author uint8, kind Kind, body string) *Envelope {
	t.Helper()
	e := &Envelope{Version: EnvelopeVersion, Table: table, Seq: seq, Prev: prev, Author: author, Kind: kind, Body: []byte(body)}
	if err := e.Sign(priv); err != nil {
		t.Fatal(err)
	}
	return e
}

// fixture is a table of n seats with a round-robin protocol.
type fixture struct {
	table TableID
	privs []ed25519.PrivateKey
	ids   []Identity
	proto *roundRobin
}

func newFixture(t testing.TB, n int, limit uint64) *fixture {
	t.Helper()
	privs, ids := seatkeys.New[Identity](1, n)
	posters := make([]uint8, n)
	for i := range posters {
		posters[i] = uint8(i)
	}
	return &fixture{
		table: TableID{0x4e, 0x6a, 0x65, 0x74},
		privs: privs,
		ids:   ids,
		proto: &roundRobin{seats: ids, posters: posters, limit: limit},
	}
}

func (f *fixture) newLog(t testing.TB) *Log {
	t.Helper()
	l, err := NewLog(LogConfig{Table: f.table, Protocol: &roundRobin{seats: f.proto.seats, posters: f.proto.posters, limit: f.proto.limit}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// seatAt returns the seat entitled at seq.
func (f *fixture) seatAt(seq uint64) uint8 {
	turn, _ := f.proto.Entitled(seq)
	return turn.Seat
}

// chain builds a valid log of n envelopes.
func (f *fixture) chain(t testing.TB, n int) []*Envelope {
	t.Helper()
	var out []*Envelope
	var prev Hash
	for seq := range uint64(n) {
		kind := KindPlay
		if seq == 0 {
			kind = KindGenesis
		}
		s := f.seatAt(seq)
		e := seal(t, f.privs[s], f.table, seq, prev, s, kind, fmt.Sprintf("body %d", seq))
		prev = e.Hash()
		out = append(out, e)
	}
	return out
}

// testPlayers makes the players of both games as a registry of games
// does: a Njet bot of package bot, or a bot of The Game.
