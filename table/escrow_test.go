package table

import (
	"fmt"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
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
			// What each device knows while the round goes on is checked
			// by lossGame (escrowLeaks); count that both the host and the
			// others were seen with the recovered hand in play.
			seen := map[bool]int{}
			cfg.Watch = func(s int, p *Peer) error {
				g := p.Game()
				g.mu.Lock()
				defer g.mu.Unlock()
				if g.rd != nil && g.rd.gone >= 0 && g.st == stPlay {
					if _, due := g.recoveryDue(); !due {
						seen[g.peerOf(s) == g.rd.host]++
					}
				}
				return nil
			}
			v := lossGame(t, cfg, []int{seat})
			if seen[true] == 0 || seen[false] == 0 {
				t.Errorf("the recovered hand was seen in play %d times at the host, %d at the others", seen[true], seen[false])
			}
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

// escrowLeaks counts what seat's peer knows of a recovered seat's hand
// while its round goes on, unless its device is the host: a card at a
// position the seat still holds, or a sealed recovery it can open with
// its own round secrets. At the host it checks that the peer knows every
// such card once the recoveries are in.
func escrowLeaks(t *testing.T, g *Game, seat int) int {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	nj, ok := g.rules.(*Njet)
	rd := g.rd
	if !ok || rd == nil || rd.gone < 0 || g.st != stPlay || nj.d == nil {
		return 0
	}
	leaks := 0
	held := nj.holding(rd.gone)
	if g.peerOf(seat) == rd.host {
		if _, due := g.recoveryDue(); !due {
			for _, p := range held {
				if _, ok := nj.d.cardAt[p]; !ok {
					t.Errorf("the host, seat %d, does not know position %d of seat %d", seat, p, rd.gone)
					leaks++
				}
			}
		}
		return leaks
	}
	for _, p := range held {
		if c, ok := nj.d.cardAt[p]; ok {
			t.Errorf("seat %d's peer knows %s at position %d of recovered seat %d", seat, c, p, rd.gone)
			leaks++
		}
	}
	if h := nj.eng.View(rd.gone).Hand; h != 0 {
		t.Errorf("seat %d's peer shows recovered seat %d's hand %v", seat, rd.gone, h)
		leaks++
	}
	for s, sec := range rd.secrets {
		for i := range rd.sealed {
			m := &rd.sealed[i]
			if m.Kind != crypto.SealRecovery {
				continue
			}
			fake := *m
			fake.To = s // as if it were sealed to this seat: its key still must not open it
			if _, err := rd.cr.OpenRecovery(sec, rd.escrows[rd.gone], rd.deck, &fake); err == nil {
				t.Errorf("seat %d opens the recovery of position %d sealed to the host, seat %d", s, m.Position, rd.host)
				leaks++
			}
		}
	}
	return leaks
}
