package p2p

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// The stores in testdata/compat were written by SaveTable as it stood
// before one registry of games named the bot kinds of every game: a table
// of The Game hosted with coop bots and a Njet table with search:quick
// bots, each with the host's key. They must load for ever.
var writeCompat = flag.Bool("compat.write", false, "write the stores of testdata/compat again (only with the code that first wrote them)")

const compatDir = "testdata/compat"

// compatSave is what a stored table must load as.
type compatSave struct {
	Key   string      `json:"key"`
	Table string      `json:"table"`
	Seats []compatBot `json:"seats"`
}

type compatBot struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot"`
}

// compatKey is a fixed key for the stores of testdata/compat.
func compatKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("njet/p2p/compat/" + label))
	return ed25519.NewKeyFromSeed(seed[:])
}

func compatID(tb testing.TB, k ed25519.PrivateKey) tablelog.Identity {
	id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// writeCompatSave stores a table of gen hosted by host with a joiner and
// a bot of kind in seat 2, as a host's device saves it.
func writeCompatSave(t *testing.T, name string, gen *table.Genesis, kind string) {
	host, joiner, bot := compatKey(name+"/host"), compatKey(name+"/joiner"), compatKey(name+"/bot")
	gen.Keys = []tablelog.Identity{compatID(t, host), compatID(t, joiner), compatID(t, bot)}
	copy(gen.Nonce[:], name)
	body, err := gen.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := env.Sign(host); err != nil {
		t.Fatal(err)
	}
	setup := &Setup{Genesis: env}
	for i, k := range []ed25519.PrivateKey{host, joiner} {
		setup.Devices = append(setup.Devices, Device{ID: compatID(t, k),
			Addrs: []ma.Multiaddr{ma.StringCast("/ip4/192.168.1." + string(rune('1'+i)) + "/tcp/4001")}})
	}
	path := filepath.Join(compatDir, name+".store")
	if err := os.MkdirAll(compatDir, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(path)
	st, err := tablelog.OpenStore(path, &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	seats := []LocalSeat{{Seat: 0, Key: host, Bot: kind}, {Seat: 2, Key: bot, Bot: kind}}
	if err := SaveTable(st, setup, seats); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	want := compatSave{Key: hex.EncodeToString(host.Seed()), Table: setup.Table().String(),
		Seats: []compatBot{{0, kind}, {2, kind}}}
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(compatDir, name+".want.json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompatSaves loads every stored table of testdata/compat with its
// host's key: the seats and bot kinds come back as they were saved, the
// kinds of The Game and Njet's search levels included.
func TestCompatSaves(t *testing.T) {
	if *writeCompat {
		writeCompatSave(t, "thegame-coop", &table.Genesis{Game: table.GameTheGame}, "coop")
		writeCompatSave(t, "thegame-extreme-greedy", &table.Genesis{Game: table.GameTheGame, Extreme: true,
			Commands: thegame.AssignmentVersion}, "greedy")
		writeCompatSave(t, "njet-search-quick", &table.Genesis{Edition: engine.Modern,
			Characters: engine.Modern.Characters()[:3], Rounds: 2}, "search:quick")
	}
	files, err := filepath.Glob(filepath.Join(compatDir, "*.store"))
	if err != nil || len(files) < 3 {
		t.Fatalf("%d stores in %s: %v", len(files), compatDir, err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".store")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want compatSave
			wb, err := os.ReadFile(filepath.Join(compatDir, name+".want.json"))
			if err != nil || json.Unmarshal(wb, &want) != nil {
				t.Fatalf("%s.want.json: %v", name, err)
			}
			seed, err := hex.DecodeString(want.Key)
			if err != nil || len(seed) != ed25519.SeedSize {
				t.Fatalf("key %q", want.Key)
			}
			copyPath := filepath.Join(t.TempDir(), "njet.db")
			if err := os.WriteFile(copyPath, b, 0o600); err != nil {
				t.Fatal(err)
			}
			st, err := tablelog.OpenStore(copyPath, &tablelog.StoreOptions{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			setup, seats, err := LoadTable(st, ed25519.NewKeyFromSeed(seed))
			if err != nil || setup == nil {
				t.Fatalf("LoadTable: %v (setup %v)", err, setup)
			}
			if setup.Table().String() != want.Table {
				t.Errorf("table %v, want %s", setup.Table(), want.Table)
			}
			var got []compatBot
			for _, ls := range seats {
				got = append(got, compatBot{ls.Seat, ls.Bot})
			}
			if !slices.Equal(got, want.Seats) {
				t.Errorf("seats %v, want %v", got, want.Seats)
			}
		})
	}
}
