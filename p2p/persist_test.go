package p2p

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// identityFile returns the marshalled libp2p form of raw, a 64-byte
// Ed25519 private key (seed then public key), whatever its halves hold.
func identityFile(tb testing.TB, raw []byte) []byte {
	tb.Helper()
	sk, err := lcrypto.UnmarshalEd25519PrivateKey(raw)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := lcrypto.MarshalPrivateKey(sk)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestLoadIdentityRefusesDamage(t *testing.T) {
	good := newKey(t)
	mismatched := bytes.Clone(good)
	copy(mismatched[ed25519.SeedSize:], newKey(t).Public().(ed25519.PublicKey))
	valid := identityFile(t, good)
	tests := []struct {
		name string
		data []byte
	}{
		{"public half does not match the seed", identityFile(t, mismatched)},
		{"empty", nil},
		{"cut short", valid[:len(valid)-10]},
		{"garbage", []byte("0 0\n0 0\n0 0")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, IdentityFile)
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadIdentity(dir)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
				t.Fatalf("got %v, want an error naming %s", err, path)
			}
			if kept, _ := os.ReadFile(path); !bytes.Equal(kept, tc.data) {
				t.Fatal("the damaged identity was overwritten")
			}
		})
	}
	t.Run("sound", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, IdentityFile), valid, 0o600); err != nil {
			t.Fatal(err)
		}
		k, err := LoadIdentity(dir)
		if err != nil || !bytes.Equal(k, good) {
			t.Fatalf("%v", err)
		}
	})
}

// savedTable returns a store holding a table whose seats 0 and 1 this
// device hosts, with the seat list replaced by list.
func savedTable(tb testing.TB, list []byte) (*tablelog.Store, ed25519.PrivateKey) {
	tb.Helper()
	host, other := newKey(tb), newKey(tb)
	setup := fuzzSetup(tb, host, other)
	s, err := tablelog.OpenStore(filepath.Join(tb.TempDir(), "njet.db"), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	seats := []LocalSeat{{Seat: 0, Key: host, Bot: "heuristic"}, {Seat: 1, Key: other, Bot: "random"}}
	if err := SaveTable(s, setup, seats); err != nil {
		tb.Fatal(err)
	}
	if list != nil {
		if err := s.PutMeta(setup.Table(), metaSeats, list); err != nil {
			tb.Fatal(err)
		}
	}
	return s, host
}

func TestLoadTableRefusesBadSeatList(t *testing.T) {
	for name, list := range map[string]string{
		"R-SEAT one seat three times, bot kind 0": "0 0\n0 0\n0 0",
		"R-SEAT a seat twice":                     "0 heuristic\n0 heuristic",
		"R-SEAT out of range":                     "0 heuristic\n7 random",
		"R-SEAT negative":                         "-1 heuristic",
		"R-SEAT not canonical":                    "+0 heuristic",
		"R-SEAT more seats than the table":        "0 heuristic\n1 random\n2 random\n3 random\n4 random",
		"unknown bot kind":                        "0 nobody",
		"empty":                                   "",
		"extra field":                             "0 heuristic x",
	} {
		t.Run(name, func(t *testing.T) {
			s, key := savedTable(t, []byte(list))
			_, _, err := LoadTable(s, key)
			if !errors.Is(err, tablelog.ErrCorrupt) || !strings.Contains(err.Error(), s.Path()) {
				t.Fatalf("got %v, want ErrCorrupt naming %s", err, s.Path())
			}
		})
	}
	t.Run("sound", func(t *testing.T) {
		s, key := savedTable(t, nil)
		setup, seats, err := LoadTable(s, key)
		if err != nil || setup == nil || len(seats) != 2 || seats[1].Bot != "random" {
			t.Fatalf("%v %v", seats, err)
		}
	})
}

// FuzzLoadIdentity loads any bytes as identity.key: an error, or a key
// whose public half is its seed's.
func FuzzLoadIdentity(f *testing.F) {
	k := newKey(f)
	f.Add(identityFile(f, k))
	bad := bytes.Clone(k)
	bad[40] ^= 1
	f.Add(identityFile(f, bad))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, IdentityFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		k, err := LoadIdentity(dir)
		if err != nil {
			return
		}
		if !bytes.Equal(ed25519.NewKeyFromSeed(k.Seed()), k) {
			t.Fatal("a key whose halves disagree was loaded")
		}
	})
}

// FuzzLoadTable loads a stored table whose setup and seat list are the
// fuzzer's: an error, or seats that are in range, unique, of known bot
// kinds and hold their genesis keys.
func FuzzLoadTable(f *testing.F) {
	s, _ := savedTable(f, nil)
	ids, err := s.Tables()
	if err != nil || len(ids) != 1 {
		f.Fatal(err)
	}
	setup, err := s.Meta(ids[0], metaSetup)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(setup, []byte("0 heuristic\n1 random"))
	f.Add(setup, []byte("0 0\n0 0\n0 0"))
	f.Add([]byte{1}, []byte("0 heuristic"))
	f.Fuzz(func(t *testing.T, setupEnc, list []byte) {
		s, key := savedTable(t, list)
		ids, err := s.Tables()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutMeta(ids[0], metaSetup, setupEnc); err != nil {
			t.Fatal(err)
		}
		setup, seats, err := LoadTable(s, key)
		if err != nil || setup == nil {
			return
		}
		gen, err := setup.Check()
		if err != nil {
			t.Fatalf("a loaded setup fails its check: %v", err)
		}
		seen := map[int]bool{}
		for _, ls := range seats {
			if ls.Seat < 0 || ls.Seat >= len(gen.Keys) || seen[ls.Seat] {
				t.Fatalf("seat %d loaded", ls.Seat)
			}
			seen[ls.Seat] = true
			if id, _ := tablelog.IdentityOf(ls.Key.Public().(ed25519.PublicKey)); id != gen.Keys[ls.Seat] {
				t.Fatalf("seat %d loaded with another key", ls.Seat)
			}
		}
	})
}

// A former watcher's store holds the SeatClaim that handed it its seat:
// LoadTable resumes the seat with the device's key, which is not the
// seat's genesis key; a key no SeatClaim names is still refused.
func TestLoadTableOfAClaimedSeat(t *testing.T) {
	setup, _, botKey := testSetup(t)
	claimantKey, claimant, _ := stranger(t)
	otherKey, _, _ := stranger(t)
	body := append([]byte{table.BodyVersion, 2}, claimant[:]...)
	body = append(body, make([]byte, tablelog.SignatureSize+1)...)
	claim := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: setup.Table(), Seq: 1, Prev: setup.Genesis.Hash(),
		Author: 2, Kind: tablelog.KindSeatClaim, Body: body}
	if err := claim.Sign(botKey); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		key  ed25519.PrivateKey
		ok   bool
	}{
		{"the claimant's key", claimantKey, true},
		{"a key no SeatClaim names", otherKey, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTestStore(t, t.TempDir())
			if err := s.Put(setup.Genesis, claim); err != nil {
				t.Fatal(err)
			}
			if err := SaveTable(s, setup, []LocalSeat{{Seat: 2, Key: tc.key, Bot: "random"}}); err != nil {
				t.Fatal(err)
			}
			got, seats, err := LoadTable(s, tc.key)
			switch {
			case tc.ok && (err != nil || got == nil || len(seats) != 1 || seats[0].Seat != 2 || !seats[0].Key.Equal(tc.key)):
				t.Errorf("resumed %v %+v, %v", got != nil, seats, err)
			case !tc.ok && !errors.Is(err, tablelog.ErrCorrupt):
				t.Errorf("resumed %v with a key no SeatClaim names: %v, want ErrCorrupt", got != nil, err)
			}
		})
	}
}
