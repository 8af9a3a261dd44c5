package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/njetlan/njet/tablelog"
)

// lastOwn returns the seq of the last envelope of kind (any kind if 0)
// that seat authored in the stored log.
func lastOwn(st *tablelog.Store, table tablelog.TableID, seat int, kind tablelog.Kind) (uint64, error) {
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
func offsetOf(st *tablelog.Store, table tablelog.TableID, seq uint64) (int64, error) {
	envs, err := st.Envelopes(table, seq, seq+1)
	if err != nil || len(envs) != 1 {
		return 0, fmt.Errorf("no envelope at seq %d: %v", seq, err)
	}
	enc, err := envs[0].MarshalBinary()
	if err != nil {
		return 0, err
	}
	file, err := os.ReadFile(st.Path())
	if err != nil {
		return 0, err
	}
	at := bytes.Index(file, enc)
	if at < 0 {
		return 0, fmt.Errorf("the envelope at seq %d is not in the file", seq)
	}
	return int64(at), nil
}

// A device whose store lost envelopes it had posted catches up by sync
// before it posts again, at a table of either game, so it never signs a
// second envelope at a seq the others hold: no store holds equivocation
// evidence, every peer ends with the same log, and the log verifies. When the damage
// also took its secrets for the round under way, it stays silent in that
// round, says so, and the table takes its seat over for the silence and
// plays on to the end.
func TestDamagedStoreCatchesUpBeforePosting(t *testing.T) {
	const seat = 1
	// atOwn cuts the seat's store at its last envelope of kind (any if 0).
	atOwn := func(kind tablelog.Kind) func(st *tablelog.Store, table tablelog.TableID) (int64, error) {
		return func(st *tablelog.Store, table tablelog.TableID) (int64, error) {
			seq, err := lastOwn(st, table, seat, kind)
			if err != nil {
				return 0, err
			}
			return offsetOf(st, table, seq)
		}
	}
	for _, tc := range []struct {
		name string
		cfg  SelfplayConfig
		// cut returns where to cut the seat's store.
		cut func(st *tablelog.Store, table tablelog.TableID) (int64, error)
		// voided: the seat is taken over for its silence in the round in
		// progress (the round voided, or kept with its escrow).
		voided bool
	}{
		{name: "Njet, own envelopes lost", cfg: njetConfig(t, 3, 1, 21), cut: atOwn(0)},
		{name: "Njet, round secrets lost", cfg: njetConfig(t, 3, 1, 21), voided: true,
			cut: func(st *tablelog.Store, table tablelog.TableID) (int64, error) {
				// The secrets of a round key are stored after the envelope
				// before it and before the key itself.
				seq, err := lastOwn(st, table, seat, tablelog.KindRoundKey)
				if err != nil {
					return 0, err
				}
				return offsetOf(st, table, seq-1)
			}},
		{name: "The Game, shuffle lost", cfg: theGameConfig(t, 3, false, 1500), cut: atOwn(tablelog.KindShuffle)},
		{name: "The Game, round key lost", cfg: theGameConfig(t, 3, false, 1501), cut: atOwn(tablelog.KindRoundKey)},
		{name: "The Game, play lost", cfg: theGameConfig(t, 3, false, 1502), cut: atOwn(tablelog.KindPlay)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.VoidAfter = DefaultPatience
			_, calm := selfplay(t, cfg)
			agreeLogs(t, calm)
			cfg.Dir = t.TempDir()
			cfg.Crashes = []Crash{{Seat: seat, AtSeq: calm[0].Next / 2, damage: tc.cut}}
			sp, out := selfplay(t, cfg)
			if sp.Restarts() != 1 {
				t.Fatalf("%d restarts, want 1", sp.Restarts())
			}
			agreeLogs(t, out)
			for i := range cfg.Players {
				st, err := tablelog.OpenStore(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db", i)), &tablelog.StoreOptions{NoSync: true})
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
			data := seatExport(t, sp, seat)
			v, err := Verify(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !v.Over {
				t.Error("the verified log does not end the game")
			}
			// Taken over: the round voided, or, in the tricks, played on
			// from the seat's escrow.
			voided := false
			for _, vi := range out[0].Voided {
				voided = voided || vi.Seat == seat
			}
			for _, r := range v.Recovered {
				voided = voided || r.Seat == seat
			}
			if voided != tc.voided {
				t.Errorf("round voided for seat %d: %v, want %v (voided %v)", seat, voided, tc.voided, out[0].Voided)
			}
		})
	}
}

// agreeLogs checks that every peer ends with the same log and no
// violation.
func agreeLogs(t *testing.T, out []Outcome) {
	t.Helper()
	for _, o := range out {
		if o.Violation != nil {
			t.Errorf("seat %d halted: %v", o.Seat, o.Violation)
		}
		if o.Head != out[0].Head || o.Next != out[0].Next {
			t.Errorf("seat %d ends at %d %v, seat 0 at %d %v", o.Seat, o.Next, o.Head, out[0].Next, out[0].Head)
		}
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
		{"catching up", PeerView{Turn: 1, Kind: tablelog.KindPlay, CatchingUp: true}, "catching up with the other devices"},
		{"secrets lost", PeerView{Turn: 1, Kind: tablelog.KindDealTokens, SecretsLost: true},
			"lost its secrets for this round, so its seat stays silent until the table voids the round"},
		{"neither", PeerView{Turn: 1, Kind: tablelog.KindPlay}, "waiting for seat 1 (Play)"},
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
