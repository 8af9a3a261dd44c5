package table

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"crypto/ed25519"
	"path/filepath"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// lateTrick returns the seq and the seat of a play late in the first
// round of ref: the first play of the trick before the last two.
func lateTrick(t *testing.T, ref []*tablelog.Envelope, players int) (uint64, int) {
	t.Helper()
	var plays []*tablelog.Envelope
	for _, env := range ref {
		if env.Kind == tablelog.KindPlay {
			plays = append(plays, env)
		}
		if env.Kind == tablelog.KindReveal {
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
			for arm > 0 && (int(ref[arm-1].Author) != seat || ref[arm-1].Kind != tablelog.KindPlay) {
				arm--
			}
			cfg.Silences = []Silence{{Seat: seat, AtSeq: arm, BeforePublish: true, Kind: tablelog.KindPlay}}
			// What each device knows while the round goes on is checked
			// by lossGame (escrowLeaks), before each envelope a device
			// posts among other times; count that both the host and the
			// others posted with the recovered hand in play. The host
			// posts the gone seat's plays from then on, and the others
			// their own, so neither count depends on the machine's load.
			var mu sync.Mutex
			seen := map[bool]int{}
			cfg.Posting = func(s int, p *Peer) {
				g := p.Game()
				g.mu.Lock()
				defer g.mu.Unlock()
				if g.rd != nil && g.rd.gone >= 0 && g.st == stPlay {
					if _, due := g.recoveryDue(); !due {
						mu.Lock()
						seen[g.peerOf(s) == g.rd.host]++
						mu.Unlock()
					}
				}
			}
			v := lossGame(t, cfg, []int{seat})
			mu.Lock()
			defer mu.Unlock()
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
	// The card passed to the gone seat stays known where it was passed
	// from: the device of the seat on its left chose it.
	left := (rd.gone + g.n - 1) % g.n
	var passed engine.Hand
	for _, p := range held {
		c, ok := nj.d.cardAt[p]
		switch {
		case !ok:
		case g.peerOf(seat) == g.peerOf(left) && nj.owner(p) == left && nj.d.passPos[left] == p:
			passed = passed.Add(c)
		default:
			t.Errorf("seat %d's peer knows %s at position %d of recovered seat %d", seat, c, p, rd.gone)
			leaks++
		}
	}
	if h := nj.eng.View(rd.gone).Hand &^ passed; h != 0 {
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

// recoveredRun plays a four-seat round in which a device leaves at a late
// trick and returns the log, its recovery and the signing key of the
// recovered seat's bot (from its host's store).
func recoveredRun(t *testing.T) ([]*tablelog.Envelope, Recovery, ed25519.PrivateKey) {
	t.Helper()
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 1, Seed: 84, Net: lossy, VoidAfter: 20 * time.Second}
	ref := referenceLog(t, cfg)
	seq, seat := lateTrick(t, ref, cfg.Players)
	arm := seq
	for arm > 0 && (int(ref[arm-1].Author) != seat || ref[arm-1].Kind != tablelog.KindPlay) {
		arm--
	}
	cfg.Dir = t.TempDir()
	cfg.Silences = []Silence{{Seat: seat, AtSeq: arm, BeforePublish: true, Kind: tablelog.KindPlay}}
	v := lossGame(t, cfg, []int{seat})
	if len(v.Recovered) != 1 {
		t.Fatalf("recovered %v", v.Recovered)
	}
	r := v.Recovered[0]
	st, err := tablelog.OpenStore(filepath.Join(cfg.Dir, fmt.Sprintf("seat-%d.db", r.Host)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	next, err := st.Next(v.Table)
	if err != nil {
		t.Fatal(err)
	}
	envs, err := st.Envelopes(v.Table, 0, next)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := st.Secret(v.Table, botKeyName(r.Seat))
	if err != nil {
		t.Fatal(err)
	}
	return envs, r, ed25519.NewKeyFromSeed(seed)
}

// replayTo replays envs[:upto] into an observer game and its log.
func replayTo(t *testing.T, envs []*tablelog.Envelope, upto int) (*Game, *tablelog.Log) {
	t.Helper()
	gen, err := ParseGenesis(envs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	obs := NewGame(GameConfig{Table: envs[0].Table, Creator: gen.Keys[0]})
	l, err := tablelog.NewLog(tablelog.LogConfig{Table: envs[0].Table, Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range envs[:upto] {
		if _, err := l.Append(env); err != nil {
			t.Fatalf("seq %d: %v", env.Seq, err)
		}
	}
	return obs, l
}

// R-ESCROW: a RecoveredPlay whose openings do not prove the card is
// refused: the table halts on a violation naming the recovered seat, and
// the card is not played. And after the round the audit rebuilds the
// recovered seat's round secret from the shares the others' reveals open:
// the seat revealed nothing, yet every position of the deck is checked.
func TestEscrowForgedRecoveredPlayAndAudit(t *testing.T) {
	envs, r, bot := recoveredRun(t)
	k := slices.IndexFunc(envs, func(e *tablelog.Envelope) bool { return e.Kind == tablelog.KindRecoveredPlay })
	if k < 0 {
		t.Fatal("no recovered play in the log")
	}
	var genuine crypto.RecoveredPlay
	if err := parseCrypto(tablelog.KindRecoveredPlay, envs[k].Body, &genuine); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		forge func(p *crypto.RecoveredPlay)
		check string
	}{
		{"a recovery token of another seat", func(p *crypto.RecoveredPlay) {
			p.Openings[0].Recovery.Token.Share = p.Openings[1].Recovery.Token.Share
		}, "token proof"},
		{"the openings of another position", func(p *crypto.RecoveredPlay) {
			p.Position ^= 1
		}, ""},
		{"an opening left out", func(p *crypto.RecoveredPlay) {
			p.Openings = p.Openings[1:]
		}, ""},
		{"played by another host", func(p *crypto.RecoveredPlay) {
			p.Seat = (p.Seat + 1) % 4
			if p.Seat == r.Seat {
				p.Seat = (p.Seat + 1) % 4
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs, l := replayTo(t, envs, k)
			trick := obs.Njet().PublicView().Trick
			p := genuine
			p.Openings = slices.Clone(genuine.Openings)
			tc.forge(&p)
			body, err := cryptoBody(&p)
			if err != nil {
				t.Fatal(err)
			}
			e := envs[k]
			forged := e.Clone()
			forged.Body = body
			if err := forged.Sign(bot); err != nil {
				t.Fatal(err)
			}
			_, err = l.Append(forged)
			viol := obs.Violation()
			switch {
			case err != nil && viol == nil:
				// Refused outright: the log is unchanged.
				if l.Next() != e.Seq {
					t.Errorf("refused, yet the log is at %d", l.Next())
				}
			case viol == nil:
				t.Fatalf("the forged play was taken")
			case viol.Seat != r.Seat || tc.check != "" && viol.Check != tc.check:
				t.Errorf("violation %v, want seat %d (%s)", viol, r.Seat, tc.check)
			}
			if got := obs.Njet().PublicView().Trick; len(got.Plays) != len(trick.Plays) {
				t.Errorf("the forged card was played: %v", got.Plays)
			}
		})
	}
	t.Run("audit", func(t *testing.T) {
		obs, _ := replayTo(t, envs, len(envs))
		for _, e := range envs {
			if e.Kind == tablelog.KindReveal && int(e.Author) == r.Seat {
				t.Fatalf("seat %d, gone, revealed at seq %d", r.Seat, e.Seq)
			}
		}
		if res := obs.Njet().Results(); len(res) != 1 || res[0].Deal != 1 {
			t.Fatalf("results %+v, want the first deal audited", res)
		}
		obs.mu.Lock()
		defer obs.mu.Unlock()
		secrets, v := obs.rd.revealed()
		if v != nil {
			t.Fatal(v)
		}
		// A token made with the rebuilt secret verifies against the
		// seat's published key.
		tok, err := obs.rd.cr.Token(secrets[r.Seat], obs.rd.deck, 0, fixedRand())
		if err == nil {
			err = obs.rd.cr.VerifyToken(obs.rd.deck, &tok)
		}
		if err != nil || secrets[r.Seat].Seat() != r.Seat {
			t.Errorf("the rebuilt secret is not seat %d's: %v", r.Seat, err)
		}
	})
}

// R-ESCROW: an escrow share that does not open for its holder halts no one
// alone: the holder complains at its next turn (seal kind 3), every log
// re-opens the share with the holder's revealed secrets and names the
// escrow's owner.
func TestEscrowShareComplaint(t *testing.T) {
	const owner, holder = 2, 0
	d := newDriver(t, engine.Classic, 3, 1, 53)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindDealTokens && seat == owner })
	env := d.envelope(owner)
	sealed, escrow, err := parseDealTokens(env.Body)
	if err != nil || escrow == nil {
		t.Fatalf("deal tokens without an escrow: %v", err)
	}
	i := slices.IndexFunc(escrow.Shares, func(m crypto.Sealed) bool { return m.To == holder })
	escrow.Shares[i].Ciphertext[len(escrow.Shares[i].Ciphertext)-1] ^= 1
	if env.Body, err = dealEscrowBody(sealed, escrow); err != nil {
		t.Fatal(err)
	}
	d.mustPost(d.sign(owner, env))
	if v := d.games[holder].Violation(); v != nil {
		t.Fatalf("the holder halted alone: %v", v)
	}
	var complaint *tablelog.Envelope
	for range 20 {
		if d.observer().Violation() != nil {
			break
		}
		seat, _, err := d.turn()
		if err != nil {
			t.Fatal(err)
		}
		e := d.envelope(seat)
		if e.Kind == tablelog.KindComplaint {
			complaint = e
		}
		d.mustPost(e)
	}
	if complaint == nil || int(complaint.Author) != holder {
		t.Fatalf("complaint %v", complaint)
	}
	for i, g := range d.games {
		if v := g.Violation(); v == nil || v.Seat != owner || v.Check == CheckComplaint {
			t.Errorf("game %d: violation %v, want the owner's, seat %d", i, v, owner)
		}
	}
}

// R-ESCROW: a device cut off while it keeps running (a lost network, not
// a dead battery), at each of its steps of a round where the cards are
// passed left, so that its neighbours know the cards passed to and from
// its hand: before the tricks the round is dealt again, from the first
// card on the seat is played on from its escrow, and the others finish
// with one log that verifies. Every device that knew a passed card keeps
// knowing it; only the cut-off seat's own knowledge is set aside.
func TestEscrowDeviceCutAtEveryStep(t *testing.T) {
	const seat = 2
	cfg := SelfplayConfig{Edition: engine.Modern, Players: 4, Rounds: 1, Seed: 41, Net: lossy, VoidAfter: 20 * time.Second}
	ref := referenceLog(t, cfg)
	if _, pass := stepSeq(t, ref, 0, -1, tablelog.KindPassCommit); pass < 0 {
		t.Fatal("no pass in the reference round")
	}
	var cuts []*tablelog.Envelope
	plays := 0
	for _, env := range ref {
		if int(env.Author) != seat || env.Kind == tablelog.KindAck {
			continue
		}
		if env.Kind == tablelog.KindPlay {
			// The first plays, a middle one and the last.
			if plays++; plays > 2 && plays != 7 && plays != 15 {
				continue
			}
		} else if slices.ContainsFunc(cuts, func(e *tablelog.Envelope) bool { return e.Kind == env.Kind }) {
			continue
		}
		cuts = append(cuts, env)
	}
	for _, at := range cuts {
		t.Run(fmt.Sprintf("%v at seq %d", at.Kind, at.Seq), func(t *testing.T) {
			c := cfg
			c.Silences = []Silence{{Seat: seat, AtSeq: at.Seq, BeforePublish: true, Kind: at.Kind}}
			v := lossGame(t, c, []int{seat})
			kept := at.Kind == tablelog.KindPlay || at.Kind == tablelog.KindReveal
			switch {
			case kept && (len(v.Voided) != 0 || len(v.Recovered) != 1 || v.Recovered[0].Seat != seat):
				t.Errorf("voided %v, recovered %+v: want seat %d played on from its escrow", v.Voided, v.Recovered, seat)
			case !kept && (len(v.Voided) != 1 || v.Voided[0].Seat != seat || v.Voided[0].Check != CheckSilent):
				t.Errorf("voided %v: want the round of seat %d dealt again", v.Voided, seat)
			}
		})
	}
}
