package crypto

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// escrowTable is a dealt round where every seat has made its escrow and
// every holder has opened its shares.
type escrowTable struct {
	*table
	escrows []*EscrowMessage
	shares  map[[2]int]*EscrowShare // {owner, holder}
}

func newEscrowTable(t testing.TB, n, k int, seed uint64) *escrowTable {
	t.Helper()
	et := &escrowTable{table: newTable(t, testParams(n, k), seeded(seed)), shares: map[[2]int]*EscrowShare{}}
	for _, s := range et.secrets {
		m := must(et.round.Escrow(s, et.rand)).of(t)
		// Every escrow travels through the log: encode it and read it back.
		b := must(m.MarshalBinary()).of(t)
		var back EscrowMessage
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := et.round.VerifyEscrow(&back); err != nil {
			t.Fatal(err)
		}
		et.escrows = append(et.escrows, &back)
	}
	for owner, m := range et.escrows {
		for holder, s := range et.secrets {
			if holder == owner {
				continue
			}
			et.shares[[2]int{owner, holder}] = must(et.round.OpenEscrow(s, m)).of(t)
		}
	}
	for pos := range k {
		et.deal(pos, pos%n)
	}
	return et
}

// recover gathers, for position pos of the seat gone, every other seat's
// opening at host: the host's own, the others sealed and opened.
func (et *escrowTable) recover(t testing.TB, gone, host, pos int) []RecoveryOpening {
	t.Helper()
	m := et.escrows[gone]
	var out []RecoveryOpening
	for j, s := range et.secrets {
		if j == gone {
			continue
		}
		sh := et.shares[[2]int{gone, j}]
		if j == host {
			out = append(out, must(et.round.RecoveryOf(s, sh, m, et.deck, pos, et.rand)).of(t))
			continue
		}
		sealed := must(et.round.Recover(s, sh, m, et.deck, pos, host, et.rand)).of(t)
		// It travels through the log as a plain sealed message.
		b := must(sealed.MarshalBinary()).of(t)
		var back Sealed
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		et.tr.Sealed = append(et.tr.Sealed, back)
		out = append(out, must(et.round.OpenRecovery(et.secrets[host], m, et.deck, &back)).of(t))
	}
	return out
}

// A seat gone for good: every other seat together lets the host read and
// play the seat's cards, everyone checks the plays, and after the round
// the published shares rebuild the seat's secret for the deck audit.
func TestEscrowRecoversASeatGone(t *testing.T) {
	for n := MinEscrowParties; n <= MaxParties; n++ {
		t.Run(fmt.Sprintf("parties=%d", n), func(t *testing.T) {
			k := 4 * n
			et := newEscrowTable(t, n, k, uint64(40+n))
			gone, host := 1, 0
			for pos := gone; pos < k; pos += n {
				openings := et.recover(t, gone, host, pos)
				card := must(et.round.RecoveredCard(et.escrows[gone], et.deck, pos, openings)).of(t)
				if card != et.cards[pos] {
					t.Fatalf("position %d: the host reads card %d, the seat had %d", pos, card, et.cards[pos])
				}
				p := &RecoveredPlay{Seat: host, Owner: gone, Position: pos, Openings: openings}
				b := must(p.MarshalBinary()).of(t)
				var back RecoveredPlay
				if err := back.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				got := must(et.round.VerifyRecoveredPlay(et.deck, et.escrows[gone], &back, et.tr.Sealed)).of(t)
				if got != card {
					t.Fatalf("position %d: the play shows card %d, want %d", pos, got, card)
				}
			}
			// After the round: the seats there reveal, and publish their
			// shares of the seat gone.
			var shares []EscrowShare
			for j := range n {
				if j == gone {
					continue
				}
				b := must(et.shares[[2]int{gone, j}].MarshalBinary()).of(t)
				var sh EscrowShare
				if err := sh.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				shares = append(shares, sh)
			}
			rebuilt := must(et.round.RecoveredSecrets(et.escrows[gone], shares)).of(t)
			secrets := append([]*Secrets(nil), et.secrets...)
			secrets[gone] = rebuilt
			if err := et.round.AuditDeckSecrets(et.tr.Shuffles, secrets); err != nil {
				t.Fatal(err)
			}
			// The rebuilt secret opens no sealed message: it has no HPKE key.
			for i := range et.tr.Sealed {
				if m := et.tr.Sealed[i]; m.To == gone && m.Kind == SealDeal {
					if _, err := et.round.OpenDeal(rebuilt, et.deck, &m); err == nil {
						t.Fatal("a rebuilt secret opened a sealed deal")
					}
					break
				}
			}
		})
	}
}

// Short of every other seat, the shares open nothing: with all holders but
// one, the host cannot read the position.
func TestEscrowNeedsEveryOtherSeat(t *testing.T) {
	et := newEscrowTable(t, 4, 16, 3)
	gone, host, pos := 2, 0, 2
	openings := et.recover(t, gone, host, pos)
	if _, err := et.round.RecoveredCard(et.escrows[gone], et.deck, pos, openings[:len(openings)-1]); err == nil {
		t.Fatal("a position opened without every other seat")
	}
	// A recovery token alone is not the owner's token.
	if _, err := et.round.Card(et.secrets[host], et.deck, pos, nil); err == nil {
		t.Fatal("the host opened a position with its own token alone")
	}
}

// No escrow at one or two seats: the single share would be the secret.
func TestEscrowRefusedAtTwoSeats(t *testing.T) {
	tt := newTable(t, testParams(2, 8), seeded(2))
	if _, err := tt.round.Escrow(tt.secrets[0], tt.rand); err == nil || errors.Is(err, ErrCheat) {
		t.Fatalf("escrow at two seats: %v, want a usage error", err)
	}
}

// Every cheat of an escrow is refused and names its author: commitments
// that do not add up to the key, a share that does not match its
// commitment, a forged recovery token, a recovered play with a token
// missing or another seat's, a published share that is not the one
// committed to.
func TestEscrowCheats(t *testing.T) {
	et := newEscrowTable(t, 3, 12, 9)
	owner := 2
	m := et.escrows[owner]
	clone := func() *EscrowMessage {
		c := &EscrowMessage{Seat: m.Seat, Commit: append([]Point(nil), m.Commit...)}
		for _, s := range m.Shares {
			s.Ciphertext = append([]byte(nil), s.Ciphertext...)
			c.Shares = append(c.Shares, s)
		}
		return c
	}

	t.Run("commitments off the key", func(t *testing.T) {
		c := clone()
		c.Commit[0], c.Commit[1] = c.Commit[1], c.Commit[0]
		c.Commit[0] = et.tr.Keys[0].Key
		wantCheat(t, et.round.VerifyEscrow(c), owner, CheckEscrow)
	})
	t.Run("a share of its own", func(t *testing.T) {
		c := clone()
		c.Commit[owner] = et.tr.Keys[0].Key
		wantCheat(t, et.round.VerifyEscrow(c), owner, CheckEscrow)
	})
	t.Run("a share that does not open", func(t *testing.T) {
		c := clone()
		c.Shares[0].Ciphertext[5] ^= 1
		_, err := et.round.OpenEscrow(et.secrets[0], c)
		wantCheat(t, err, owner, CheckCiphertext)
	})
	t.Run("a share that does not match its commitment", func(t *testing.T) {
		// The owner seals a share that is off by one but commits to the
		// honest split: its holder finds out and names the owner.
		bad := must(et.round.Escrow(et.secrets[owner], et.rand)).of(t)
		other := must(et.round.Escrow(et.secrets[owner], et.rand)).of(t)
		bad.Shares[0] = other.Shares[0]
		_, err := et.round.OpenEscrow(et.secrets[0], bad)
		wantCheat(t, err, owner, CheckEscrow)
	})
	t.Run("a forged recovery token", func(t *testing.T) {
		o := must(et.round.RecoveryOf(et.secrets[0], et.shares[[2]int{owner, 0}], m, et.deck, owner, et.rand)).of(t)
		o.Recovery.Token.Share = o.Token.Share // its own token passed off as the recovery
		wantCheat(t, et.round.VerifyRecoveryToken(m, et.deck, &o.Recovery), 0, CheckTokenProof)
	})
	t.Run("a recovered play short of a seat", func(t *testing.T) {
		openings := et.recover(t, owner, 0, owner)
		p := &RecoveredPlay{Seat: 0, Owner: owner, Position: owner, Openings: openings[:1]}
		_, err := et.round.VerifyRecoveredPlay(et.deck, m, p, et.tr.Sealed)
		wantCheat(t, err, 0, CheckMissing)
	})
	t.Run("a recovered play of another position's tokens", func(t *testing.T) {
		openings := et.recover(t, owner, 0, owner)
		p := &RecoveredPlay{Seat: 0, Owner: owner, Position: owner + 3, Openings: openings}
		_, err := et.round.VerifyRecoveredPlay(et.deck, m, p, et.tr.Sealed)
		wantCheat(t, err, 0, CheckMissing)
	})
	t.Run("a recovered play whose salt opens nothing sent", func(t *testing.T) {
		openings := et.recover(t, owner, 0, owner)
		openings[1].Salt[0] ^= 1
		p := &RecoveredPlay{Seat: 0, Owner: owner, Position: owner, Openings: openings}
		_, err := et.round.VerifyRecoveredPlay(et.deck, m, p, et.tr.Sealed)
		wantCheat(t, err, 0, CheckCommitment)
	})
	t.Run("a published share that is not the committed one", func(t *testing.T) {
		sh := *et.shares[[2]int{owner, 1}]
		other := et.shares[[2]int{1, 0}]
		sh.Key = other.Key
		wantCheat(t, et.round.VerifyEscrowShare(m, &sh), 1, CheckEscrow)
	})
	t.Run("a share left out", func(t *testing.T) {
		_, err := et.round.RecoveredSecrets(m, []EscrowShare{*et.shares[[2]int{owner, 0}]})
		wantCheat(t, err, 1, CheckMissing)
	})
}

// The escrow's encodings are strict: a truncated or padded message, a
// non-canonical share scalar and a seat outside the table are refused.
func TestEscrowEncoding(t *testing.T) {
	et := newEscrowTable(t, 3, 9, 5)
	b := must(et.escrows[0].MarshalBinary()).of(t)
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte(nil), b...), 0)} {
		var m EscrowMessage
		if err := m.UnmarshalBinary(bad); err == nil {
			t.Fatalf("escrow of %d bytes decoded", len(bad))
		}
	}
	seatOut := append([]byte(nil), b...)
	seatOut[2] = 3 // seat 3 at a table of 3
	var m EscrowMessage
	if err := m.UnmarshalBinary(seatOut); err == nil {
		t.Fatal("an escrow of a seat outside the table decoded")
	}
	sb := must(et.shares[[2]int{0, 1}].MarshalBinary()).of(t)
	nc := append([]byte(nil), sb...)
	copy(nc[len(nc)-32:], bytes.Repeat([]byte{0xff}, 32))
	var sh EscrowShare
	if err := sh.UnmarshalBinary(nc); err == nil {
		t.Fatal("a non-canonical share decoded")
	}
	if s := et.shares[[2]int{0, 1}].String(); bytes.Contains([]byte(s), sb[4:8]) {
		t.Fatalf("String shows the share: %s", s)
	}
}

// A layout error of the proof library is the software's failure: it wraps
// ErrSoftware and is no cheat of any seat.
func TestTranscriptLayoutIsNoCheat(t *testing.T) {
	if !errors.Is(errTranscriptLayout, ErrSoftware) || errors.Is(errTranscriptLayout, ErrCheat) {
		t.Fatalf("%v: want ErrSoftware and no cheat", errTranscriptLayout)
	}
	var ce *CheatError
	if errors.As(errTranscriptLayout, &ce) {
		t.Fatal("a layout error names a seat")
	}
}

func BenchmarkEscrow(b *testing.B) {
	p := testParams(5, 60)
	tt := newTable(b, p, seeded(1))
	var m *EscrowMessage
	for b.Loop() {
		m = must(tt.round.Escrow(tt.secrets[0], tt.rand)).of(b)
	}
	b.StopTimer()
	for j := 1; j < 5; j++ {
		if _, err := tt.round.OpenEscrow(tt.secrets[j], m); err != nil {
			b.Fatal(err)
		}
	}
}

// escrowFixture is one escrow, one share and one recovered play, the seeds
// of the escrow's fuzz targets.
func escrowFixture(tb testing.TB) (*EscrowMessage, *EscrowShare, *RecoveredPlay) {
	et := newEscrowTable(tb, 3, 6, 11)
	openings := et.recover(tb, 1, 0, 1)
	return et.escrows[1], et.shares[[2]int{1, 0}], &RecoveredPlay{Seat: 0, Owner: 1, Position: 1, Openings: openings}
}

func FuzzEscrowMessage(f *testing.F) {
	m, _, _ := escrowFixture(f)
	addSeeds(f, m)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[EscrowMessage](t, b) })
}

func FuzzEscrowShare(f *testing.F) {
	_, sh, _ := escrowFixture(f)
	addSeeds(f, sh)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[EscrowShare](t, b) })
}

func FuzzRecoveredPlay(f *testing.F) {
	_, _, p := escrowFixture(f)
	addSeeds(f, p)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[RecoveredPlay](t, b) })
}
