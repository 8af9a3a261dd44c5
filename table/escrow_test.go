package table

import (
	"fmt"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
)

// lateTrick returns the seq and the seat of a play late in the first
// round of ref: the first play of the trick before the last two.
func lateTrick(t *testing.T, ref []*Envelope, players int) (uint64, int) {
	t.Helper()
	var plays []*Envelope
	for _, env := range ref {
		if env.Kind == KindPlay {
			plays = append(plays, env)
		}
		if env.Kind == KindReveal {
			break
		}
	}
	i := len(plays) - 3*players + 1
	if i < 0 {
		t.Fatalf("%d plays in the first round", len(plays))
	}
	return plays[i].Seq, int(plays[i].Author)
}

// R-ESCROW: a device gone at a late trick of a Njet round at three, four
// and five seats costs no trick: the round is not voided, the seat's
// cards are recovered from its escrow by the device that hosts its bot,
// the round is finished and scored from its first deal, and the export
// verifies.
func TestEscrowDeviceGoneAtLateTrick(t *testing.T) {
	for _, players := range []int{3, 4, 5} {
		t.Run(fmt.Sprintf("%d seats", players), func(t *testing.T) {
			cfg := SelfplayConfig{Edition: engine.Modern, Players: players, Rounds: 1, Seed: uint64(80 + players), Net: lossy,
				VoidAfter: 20 * time.Second}
			ref := referenceLog(t, cfg)
			seq, seat := lateTrick(t, ref, players)
			arm := seq
			for arm > 0 && (int(ref[arm-1].Author) != seat || ref[arm-1].Kind != KindPlay) {
				arm--
			}
			cfg.Silences = []Silence{{Seat: seat, AtSeq: arm, BeforePublish: true, Kind: KindPlay}}
			v := lossGame(t, cfg, []int{seat})
			if len(v.Voided) != 0 {
				t.Errorf("voided %v: the round should have gone on", v.Voided)
			}
			if len(v.Recovered) != 1 || v.Recovered[0].Seat != seat {
				t.Fatalf("recovered %+v, want seat %d", v.Recovered, seat)
			}
			if v.Results[0].Deal != 1 {
				t.Errorf("the round was scored from deal %d, want the first", v.Results[0].Deal)
			}
		})
	}
}
