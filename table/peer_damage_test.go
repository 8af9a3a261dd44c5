package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/njetlan/njet/engine"
)

// lastOwn returns the seq of the last envelope of kind (any kind if 0)
// that seat authored in the stored log.
func lastOwn(st *Store, table TableID, seat int, kind Kind) (uint64, error) {
	next, err := st.Next(table)
	if err != nil {
		return 0, err
	}
	envs, err := st.Envelopes(table, 0, next)
	if err != nil {
		return 0, err
	}
	for i := len(envs) - 1; i > 0; i-- {
		if int(envs[i].Author) == seat && (kind == 0 || envs[i].Kind == kind) {
			return uint64(i), nil
		}
	}
	return 0, fmt.Errorf("seat %d posted no %v", seat, kind)
}

// offsetOf is where the stored envelope at seq lies in the store's file:
// cutting the file there tears the record that holds it.
func offsetOf(st *Store, table TableID, seq uint64) int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.tables[table].offs[seq]
}

// A device whose store lost envelopes it had posted catches up by sync
// before it posts again, so it never signs a second envelope at a seq the
// others hold: no store holds equivocation evidence, every peer ends with
// the same log, and the log verifies. When the damage also took its
// secrets for the deal under way, it stays silent in that deal, says so,
// and the table voids the round for the silence and plays on to the end.
func TestDamagedStoreCatchesUpBeforePosting(t *testing.T) {
	const seat = 1
	for _, tc := range []struct {
		name string
		// cut returns where to cut the seat's store.
		cut func(st *Store, table TableID) (int64, error)
		// voided: the round in progress is voided for the seat's silence.
		voided bool
	}{
		{name: "own envelopes lost", cut: func(st *Store, table TableID) (int64, error) {
			seq, err := lastOwn(st, table, seat, 0)
			return offsetOf(st, table, seq), err
		}},
		{name: "round secrets lost", voided: true, cut: func(st *Store, table TableID) (int64, error) {
			// The secrets of a round key are stored after the envelope
			// before it and before the key itself.
			seq, err := lastOwn(st, table, seat, KindRoundKey)
			return offsetOf(st, table, seq-1), err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := SelfplayConfig{Edition: engine.Modern, Players: 3, Rounds: 1, Seed: 21, VoidAfter: DefaultPatience}
			_, calm := selfplay(t, cfg)
			agree(t, calm, 1)
			cfg.Dir = t.TempDir()
			cfg.Crashes = []Crash{{Seat: seat, AtSeq: calm[0].Next / 2, damage: tc.cut}}
			sp, out := selfplay(t, cfg)
			if sp.Restarts() != 1 {
				t.Fatalf("%d restarts, want 1", sp.Restarts())
			}
			agree(t, out, 1)
			for i := range cfg.Players {
				st, err := OpenStore(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db", i)), &StoreOptions{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				ev, err := st.Evidence(sp.Table())
				if cerr := st.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(ev) > 0 {
					t.Errorf("seat %d holds evidence that seat %d equivocated at seq %d", i, ev[0].First.Author, ev[0].First.Seq)
				}
				if i == seat {
					continue
				}
				// The damaged file was kept aside by the damaged seat only.
				kept, _ := filepath.Glob(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db.damaged-*", i)))
				if len(kept) > 0 {
					t.Errorf("seat %d set a store aside: %v", i, kept)
				}
			}
			if kept, _ := filepath.Glob(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db.damaged-*", seat))); len(kept) != 1 {
				t.Errorf("the damaged store was not kept aside: %v", kept)
			}
			path := filepath.Join(t.TempDir(), "log")
			if _, err := sp.Export(seat, path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Verify(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !v.Over {
				t.Error("the verified log does not end the game")
			}
			voided := false
			for _, vi := range out[0].Voided {
				voided = voided || vi.Seat == seat
			}
			if voided != tc.voided {
				t.Errorf("round voided for seat %d: %v, want %v (voided %v)", seat, voided, tc.voided, out[0].Voided)
			}
		})
	}
}

// Waiting tells the person why nothing happens after a damage: the peer is
// catching up, or its seat stays silent for lost secrets.
func TestPeerViewWaitingAfterDamage(t *testing.T) {
	for _, tc := range []struct {
		name string
		view PeerView
		want string
	}{
		{"catching up", PeerView{Turn: 1, Kind: KindPlay, CatchingUp: true}, "catching up with the other devices"},
		{"secrets lost", PeerView{Turn: 1, Kind: KindDealTokens, SecretsLost: true},
			"lost its secrets for this round, so its seat stays silent until the table voids the round"},
		{"neither", PeerView{Turn: 1, Kind: KindPlay}, "waiting for seat 1 (Play)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.view.Waiting()
			if !strings.Contains(got, tc.want) {
				t.Errorf("Waiting() = %q, want it to say %q", got, tc.want)
			}
			if tc.name == "neither" && strings.Contains(got, "lost") {
				t.Errorf("Waiting() = %q speaks of a loss", got)
			}
		})
	}
}
