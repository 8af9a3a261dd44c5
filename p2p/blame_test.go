package p2p

import (
	"crypto/ed25519"
	"testing"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// The topic lets a Complaint through from the complaining seat's own
// device at any seq (the Log decides whether it is entitled there), and an
// Abandon from the other seat's; like every envelope, neither passes from
// a device that does not hold the author seat.
func TestValidatorComplaintAndAbandon(t *testing.T) {
	setup, keys, botKey := testSetup(t)
	r, err := newRoster(setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{id: setup.Table(), roster: r}
	pid0, _ := PeerIDOf(setup.Devices[0].ID)
	pid1, _ := PeerIDOf(setup.Devices[1].ID)
	id := setup.Table()
	// The body of a complaint by seat 1 about the deal token seat 0 sealed
	// to it for position 4: the validator does not read bodies.
	complaint := []byte{table.BodyVersion, 1, 0, 4, 0, 0}
	envelope := func(kind tablelog.Kind, author uint8, seq uint64, body []byte, key ed25519.PrivateKey) []byte {
		env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: id, Seq: seq, Author: author, Kind: kind, Body: body}
		if err := env.Sign(key); err != nil {
			t.Fatal(err)
		}
		b, err := env.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		from peer.ID
		data []byte
		want pubsub.ValidationResult
	}{
		{"complaint from the victim's device", pid1, envelope(tablelog.KindComplaint, 1, 40, complaint, keys[1]), pubsub.ValidationAccept},
		{"complaint of a hosted bot from its host", pid0, envelope(tablelog.KindComplaint, 2, 41, complaint, botKey), pubsub.ValidationAccept},
		{"complaint in another seat's name", pid0, envelope(tablelog.KindComplaint, 1, 40, complaint, keys[1]), pubsub.ValidationReject},
		{"abandon from the other seat's device", pid0, envelope(tablelog.KindAbandon, 0, 12, []byte{table.BodyVersion, 1}, keys[0]), pubsub.ValidationAccept},
		{"abandon in another seat's name", pid1, envelope(tablelog.KindAbandon, 0, 12, []byte{table.BodyVersion, 1}, keys[0]), pubsub.ValidationReject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tb.check(tc.from, tc.data); got != tc.want {
				t.Errorf("check = %v, want %v", got, tc.want)
			}
		})
	}
}
