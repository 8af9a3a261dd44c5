package tablelog_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/njetlan/njet/tablelog"
)

// twoSeats is a minimal protocol: seat 0 posts the genesis, then the two
// seats alternate with plays.
type twoSeats struct{ keys [2]tablelog.Identity }

func (p twoSeats) Entitled(seq uint64) (tablelog.Turn, error) {
	if seq == 0 {
		return tablelog.Turn{Seat: 0, Key: p.keys[0], Kinds: []tablelog.Kind{tablelog.KindGenesis}}, nil
	}
	s := uint8(seq % 2)
	return tablelog.Turn{Seat: s, Key: p.keys[s], Kinds: []tablelog.Kind{tablelog.KindPlay}}, nil
}

func (p twoSeats) Apply(*tablelog.Envelope) error { return nil }

func Example() {
	var privs [2]ed25519.PrivateKey
	var proto twoSeats
	for i := range privs {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = byte(i + 1)
		privs[i] = ed25519.NewKeyFromSeed(seed)
		proto.keys[i], _ = tablelog.IdentityOf(privs[i].Public().(ed25519.PublicKey))
	}
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: tablelog.TableID{1}, Protocol: proto})
	if err != nil {
		fmt.Println(err)
		return
	}
	post := func(seat uint8, kind tablelog.Kind, body string) error {
		seq, prev := log.Head()
		e := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: log.Table(), Seq: seq, Prev: prev, Author: seat, Kind: kind, Body: []byte(body)}
		if err := e.Sign(privs[seat]); err != nil {
			return err
		}
		_, err := log.Append(e)
		return err
	}
	fmt.Println(post(0, tablelog.KindGenesis, "setup"))
	fmt.Println(post(1, tablelog.KindPlay, "red 5"))
	err = post(1, tablelog.KindPlay, "blue 2") // seat 0's turn
	fmt.Println(errors.Is(err, tablelog.ErrNotEntitled))
	fmt.Println(log.Next())
	// Output:
	// <nil>
	// <nil>
	// true
	// 2
}
