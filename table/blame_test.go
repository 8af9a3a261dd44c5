package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// verifyLog writes log as an export and verifies it offline.
func verifyLog(t *testing.T, l *tablelog.Log) (*Verification, error) {
	t.Helper()
	var buf bytes.Buffer
	if err := tablelog.WriteExport(&buf, l.Range(0, l.Next())); err != nil {
		t.Fatal(err)
	}
	return Verify(&buf)
}

// mustPost offers env to every log and fails the test if one refuses it.
func (d *driver) mustPost(env *tablelog.Envelope) {
	d.t.Helper()
	for i, err := range d.postAll(env) {
		if err != nil {
			d.t.Fatalf("log %d refused %v by seat %d: %v", i, env.Kind, env.Author, err)
		}
	}
}

// At a table of two, the seat that has just posted cannot take the other
// seat over at the very next seq, before it could possibly answer: a
// VoidSilent (its own vote is the whole certificate) and a BotSeat are
// refused by every log. All it can do is end the game as abandoned: no bot
// on its device, no hand to see, no winner, the audited round's totals
// kept, and the other seat named as silent, not as a cheat.
func TestTwoSeatsNeverHandASeatToTheOpponent(t *testing.T) {
	const victim, opponent = 1, 0
	d := newDriver(t, engine.Modern, 2, 2, 50)
	// The first round is played and audited; in the second, the opponent
	// strikes right after its own block.
	d.runUntil(func(seat int, k tablelog.Kind) bool {
		return len(d.observer().Njet().Results()) == 1 && k == tablelog.KindBlock && seat == victim
	})
	totals := d.observer().Njet().Results()[0].Totals
	t.Run("void with its own vote", func(t *testing.T) {
		env := voidEnvelope(t, d, opponent, victim, votesAgainst(t, d, d.logs[d.n], victim))
		expectLogErr(t, d.postAll(env), tablelog.ErrNotEntitled)
	})
	t.Run("bot seat", func(t *testing.T) {
		seq, prev := d.logs[d.n].Head()
		env := d.sign(opponent, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
			Author: opponent, Kind: tablelog.KindBotSeat, Body: botSeatBody(victim, tablelog.Identity{0xb0})})
		expectLogErr(t, d.postAll(env), tablelog.ErrNotEntitled)
	})
	t.Run("abandon for the wrong seat", func(t *testing.T) {
		seq, prev := d.logs[d.n].Head()
		env := d.sign(opponent, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
			Author: opponent, Kind: tablelog.KindAbandon, Body: abandonBody(opponent)})
		expectLogErr(t, d.postAll(env), ErrVote)
	})
	seq, _ := d.logs[d.n].Head()
	dr, err := d.games[opponent].draftAbandon(seq)
	if err != nil {
		t.Fatal(err)
	}
	_, prev := d.logs[d.n].Head()
	d.mustPost(d.sign(opponent, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
		Author: opponent, Kind: dr.kind, Body: dr.body}))
	for i, g := range d.games {
		a := g.Abandoned()
		if !g.Over() || a == nil || a.Seat != victim || a.Check != CheckSilent || errors.Is(a, ErrCheat) {
			t.Errorf("game %d: over %v, abandoned %v", i, g.Over(), a)
		}
		if g.HostOf(victim) >= 0 || g.HostOf(opponent) >= 0 {
			t.Errorf("game %d: a bot took a seat", i)
		}
		if r := g.Njet().Results(); len(r) != 1 || !slices.Equal(r[0].Totals, totals) {
			t.Errorf("game %d: results %+v", i, r)
		}
	}
	if _, _, err := d.turn(); !errors.Is(err, ErrOver) {
		t.Errorf("after the abandon: %v", err)
	}
	v, err := verifyLog(t, d.logs[d.n])
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !v.Over || v.Abandoned == nil || v.Abandoned.Seat != victim || len(v.Results) != 1 {
		t.Errorf("verified %+v", v)
	}
}

// At a table of two, a proven cheat ends the game too: the honest seat
// votes, and rather than hosting the cheater's bot (and playing against a
// hand it sees) the game is over, abandoned, with the cheater named.
func TestTwoSeatsCheatEndsTheGame(t *testing.T) {
	const cheater = 1
	d := newDriver(t, engine.Modern, 2, 2, 51)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == cheater })
	env := d.envelope(cheater)
	var m crypto.ShuffleMessage
	if err := parseCrypto(tablelog.KindShuffle, env.Body, &m); err != nil {
		t.Fatal(err)
	}
	m.Deck[0], m.Deck[1] = m.Deck[1], m.Deck[0]
	body, err := cryptoBody(&m)
	if err != nil {
		t.Fatal(err)
	}
	env.Body = body
	d.mustPost(d.sign(cheater, env))
	d.expectCaught(cheater, crypto.CheckShuffle.String())
	var kinds []tablelog.Kind
	for range 10 {
		_, k, err := d.turn()
		if err != nil {
			break
		}
		kinds = append(kinds, k)
		d.step()
	}
	if !slices.Equal(kinds, []tablelog.Kind{tablelog.KindVoidVote}) {
		t.Errorf("kinds after the cheat %v, want one VoidVote", kinds)
	}
	obs := d.observer()
	if a := obs.Abandoned(); !obs.Over() || a == nil || a.Seat != cheater || !errors.Is(a, ErrCheat) || obs.HostOf(cheater) >= 0 {
		t.Fatalf("over %v, abandoned %v, bot host %d", obs.Over(), a, obs.HostOf(cheater))
	}
	v, err := verifyLog(t, d.logs[d.n])
	if err != nil || v.Abandoned == nil || v.Abandoned.Seat != cheater {
		t.Fatalf("verify %+v: %v", v, err)
	}
}

// Over the network: the second seat's device falls silent; the first,
// after its patience, ends the game as abandoned instead of hosting a bot.
func TestTwoSeatsSilentOverTheNetwork(t *testing.T) {
	const silent = 1
	sp, err := newTestSelfplay(SelfplayConfig{Edition: engine.Modern, Players: 2, Rounds: 2, Seed: 52, Dir: t.TempDir(),
		Net: lossy, Silences: []Silence{{Seat: silent, AtSeq: 12}}, VoidAfter: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only stops a hung test; nothing is asserted about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	out := sp.Outcomes()[0]
	if out.BotHost != -1 || len(out.Voided) != 1 || out.Voided[0].Seat != silent || out.Voided[0].Check != CheckSilent {
		t.Fatalf("outcome %+v", out)
	}
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		t.Fatal(err)
	}
	v, err := verifyFile(path)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !v.Over || v.Abandoned == nil || v.Abandoned.Seat != silent || len(v.Results) != 0 {
		t.Errorf("verified over %v, abandoned %v, results %+v", v.Over, v.Abandoned, v.Results)
	}
}

// corruptToken rewrites a DealTokens body of sender so that the sealed
// token for position pos of victim is bad in the given way.
func corruptToken(t *testing.T, d *driver, body []byte, sender, victim int, how string) []byte {
	t.Helper()
	sealed, escrow, err := parseDealTokens(body)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(sealed, func(m crypto.Sealed) bool { return m.To == victim })
	m := &sealed[i]
	switch how {
	case "ciphertext":
		m.Ciphertext[len(m.Ciphertext)-1] ^= 1
	case "token proof":
		// A well-sealed token computed on the deck before the shuffles:
		// it opens, but its proof fails on the deck in play.
		rd := d.games[sender].rd
		initial, err := crypto.InitialDeck(rd.params)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := rd.cr.Deal(rd.secrets[sender], initial, m.Position, victim, d.rand(99))
		if err != nil {
			t.Fatal(err)
		}
		*m = *bad
	}
	out, err := dealEscrowBody(sealed, escrow)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A bad sealed token (one that does not open, or whose proof fails) halts
// no one alone: its recipient posts a Complaint at its next turn with its
// round secrets, every log re-opens the message and names the sender; the
// others void the round and seat a bot for the sender, never the victim.
func TestComplaintNamesTheSender(t *testing.T) {
	const sender, victim = 2, 0
	for _, how := range []string{"ciphertext", "token proof"} {
		t.Run(how, func(t *testing.T) {
			d := newDriver(t, engine.Classic, 3, 1, 53)
			d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindDealTokens && seat == sender })
			env := d.envelope(sender)
			env.Body = corruptToken(t, d, env.Body, sender, victim, how)
			d.mustPost(d.sign(sender, env))
			if v := d.games[victim].Violation(); v != nil {
				t.Fatalf("the victim halted alone: %v", v)
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
			if complaint == nil || int(complaint.Author) != victim {
				t.Fatalf("complaint %v", complaint)
			}
			d.expectCaught(sender, how)
			for d.step() {
			}
			obs := d.observer()
			if !obs.Over() || obs.HostOf(victim) >= 0 || obs.HostOf(sender) < 0 {
				t.Errorf("over %v, victim's bot host %d, sender's %d", obs.Over(), obs.HostOf(victim), obs.HostOf(sender))
			}
			v, err := verifyLog(t, d.logs[d.n])
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if len(v.Voided) != 1 || v.Voided[0].Seat != sender || v.Voided[0].Check != how || !errors.Is(v.Voided[0], ErrCheat) {
				t.Errorf("verified voided %v", v.Voided)
			}
		})
	}
}

// answerPrompts plays seat's person: the first legal action at every
// prompt, until ctx ends.
func answerPrompts(ctx context.Context, sp *Selfplay, seat int) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if p := sp.Peer(seat); p != nil {
			if pr := p.View().Prompt; pr != nil {
				_ = p.Submit(pr.Legal[0]) // a prompt already answered is refused: nothing to do
			}
		}
	}
}

// A seat that discarded a 1 under "except 1" and then withholds its reveal
// is voted silent at the reveal step. In a deal without an escrow that is
// recorded as a cheat naming it (not as mere silence), in every log and in
// Verify, and the round it withheld counts for nobody: the game's first
// audited round is the redeal. With an escrow the withholding gains it
// nothing: its secret is rebuilt, the audit runs and names the illegal
// discard itself.
func TestWithheldRevealIsACheat(t *testing.T) {
	t.Run("without an escrow", func(t *testing.T) { withheldReveal(t, false) })
	t.Run("with an escrow", func(t *testing.T) { withheldReveal(t, true) })
}

func withheldReveal(t *testing.T, escrow bool) {
	const cheater, dec = 1, 0
	for seed := uint64(20); seed < 40; seed++ {
		d := newDriver(t, engine.Modern, 3, 1, seed)
		for _, g := range d.games {
			g.noEscrow = !escrow
		}
		d.games[cheater].blind = true
		d.lenient[cheater] = true
		steerDiscard(d)
		d.runUntil(func(_ int, k tablelog.Kind) bool {
			return k == tablelog.KindDiscardCommit || k == tablelog.KindPassCommit || k == tablelog.KindPlay
		})
		if r := d.observer().Njet().eng.Rules().Discard; r != engine.Discard1NoOnes {
			t.Fatalf("seed %d: the steered rule is %v", seed, r)
		}
		cards := holding(d.games[cheater], cheater)
		one := engine.NoCard
		for _, c := range cards {
			if c.Value() == 1 {
				one = c
			}
		}
		if one == engine.NoCard || len(cards) < 2 {
			continue
		}
		inner := d.choose[cheater]
		d.choose[cheater] = func(seat int, v *engine.View, legal []engine.Action) engine.Action {
			switch v.Phase {
			case engine.PhaseDiscard:
				return engine.Action{Kind: engine.ActDiscard, Seat: seat, Card: engine.NoCard, Cards: [2]engine.Card{one, engine.NoCard}}
			case engine.PhaseTricks:
				return playFrom(d.games[cheater], seat, v, false)
			}
			return inner(seat, v, legal)
		}
		d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindReveal && seat == cheater })
		seq, prev := d.logs[dec].Head()
		dr, err := d.games[dec].draftVoidSilent(seq, prev, votesAgainst(t, d, d.logs[dec], cheater), d.rand(seq))
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range dr.secrets {
			d.vaults[dec].put(name, b)
		}
		d.mustPost(d.sign(dec, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev, Author: dec,
			Kind: dr.kind, Body: dr.body}))
		for d.step() {
		}
		for i, g := range d.games {
			v := g.Voided()
			if escrow {
				if r := g.Recovered(); len(v) != 1 || v[0].Seat != cheater || v[0].Check != CheckDiscard || !errors.Is(v[0], ErrCheat) ||
					len(r) != 1 || r[0].Seat != cheater {
					t.Errorf("game %d voided %v, recovered %v", i, v, r)
				}
				continue
			}
			if len(v) != 1 || v[0].Seat != cheater || v[0].Check != CheckWithheld || !errors.Is(v[0], ErrCheat) || !errors.Is(v[0], ErrWithheld) {
				t.Errorf("game %d voided %v", i, v)
			}
		}
		obs := d.observer()
		if r := obs.Njet().Results(); !obs.Over() || len(r) != 1 || r[0].Deal != 2 {
			t.Errorf("over %v, results %+v: the withheld deal must not count", obs.Over(), r)
		}
		v, err := verifyLog(t, d.logs[d.n])
		if err != nil {
			t.Fatalf("verify: %v", err)
		}
		want := CheckWithheld
		if escrow {
			want = CheckDiscard
		}
		if len(v.Voided) != 1 || v.Voided[0].Seat != cheater || v.Voided[0].Check != want || v.Results[0].Deal != 2 {
			t.Errorf("verified voided %v, results %+v", v.Voided, v.Results)
		}
		return
	}
	t.Fatal("no seed gave the cheater a 1 and another card")
}

// zeroHPKE rewrites a RoundKey body with an all-zero X25519 key, which no
// dealer can seal to.
func zeroHPKE(t *testing.T, body []byte) []byte {
	t.Helper()
	var km crypto.KeyMessage
	if err := parseCrypto(tablelog.KindRoundKey, body, &km); err != nil {
		t.Fatal(err)
	}
	km.HPKE = [32]byte{}
	out, err := cryptoBody(&km)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A seat that publishes an all-zero HPKE key halts the table at its own
// key envelope, named with the HPKE key check (it comes before the proof,
// so a proof re-made over the bad key, as the crypto tests do, is caught
// the same way): no honest dealer is ever asked to seal to it.
func TestLowOrderHPKEKeyNamesItsOwner(t *testing.T) {
	const cheater = 1
	d := newDriver(t, engine.Classic, 3, 1, 56)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindRoundKey && seat == cheater })
	env := d.envelope(cheater)
	env.Body = zeroHPKE(t, env.Body)
	d.mustPost(d.sign(cheater, env))
	d.expectCaught(cheater, crypto.CheckHPKEKey.String())
	if v := d.observer().Violation(); v.Seq != env.Seq {
		t.Errorf("halted at seq %d, the key is at %d", v.Seq, env.Seq)
	}
}

// Over the network: the seat's device publishes the bad key; every peer
// names it at its key envelope, the table votes the round void and seats a
// bot for it, and no honest dealer stops: the game goes on to its end.
func TestLowOrderHPKEKeyOverTheNetwork(t *testing.T) {
	const cheater = 2
	sp, err := newTestSelfplay(SelfplayConfig{Edition: engine.Modern, Players: 3, Rounds: 1, Seed: 57, Dir: t.TempDir(), Net: lossy})
	if err != nil {
		t.Fatal(err)
	}
	cheated := false
	sp.tamper = map[int]func(*tablelog.Envelope, ed25519.PrivateKey){cheater: func(env *tablelog.Envelope, key ed25519.PrivateKey) {
		if env.Kind != tablelog.KindRoundKey || cheated {
			return
		}
		cheated = true
		env.Body = zeroHPKE(t, env.Body)
		if err := env.Sign(key); err != nil {
			t.Error(err)
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	out := sp.Outcomes()
	agree(t, out, 1)
	for _, o := range out {
		if len(o.Voided) != 1 || o.Voided[0].Seat != cheater || o.Voided[0].Check != crypto.CheckHPKEKey.String() {
			t.Errorf("seat %d voided %v", o.Seat, o.Voided)
		}
	}
	path := filepath.Join(t.TempDir(), "log")
	if _, err := sp.Export(0, path); err != nil {
		t.Fatal(err)
	}
	v, err := verifyFile(path)
	if err != nil || !v.Over || len(v.Voided) != 1 || v.Voided[0].Seat != cheater {
		t.Fatalf("verified %+v: %v", v, err)
	}
}
