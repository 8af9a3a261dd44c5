package table

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// expectLogErr checks that every log refused env with sentinel.
func expectLogErr(t *testing.T, errs []error, sentinel error) {
	t.Helper()
	for i, err := range errs {
		if !errors.Is(err, sentinel) {
			t.Errorf("log %d: %v, want %v", i, err, sentinel)
		}
	}
}

func TestCheatOutOfTurn(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 11)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindBlock })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	other := (seat + 1) % d.n
	env.Author = uint8(other)
	expectLogErr(t, d.postAll(d.sign(other, env)), tablelog.ErrNotEntitled)
}

func TestCheatForgedAuthor(t *testing.T) {
	d := newDriver(t, engine.Classic, 3, 1, 12)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindShuffle })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	expectLogErr(t, d.postAll(d.sign((seat+1)%d.n, env)), tablelog.ErrBadSignature)
}

func TestCheatReplay(t *testing.T) {
	d := newDriver(t, engine.Modern, 2, 2, 13)
	var first *tablelog.Envelope
	d.runUntil(func(seat int, k tablelog.Kind) bool {
		if k == tablelog.KindRoundKey && seat == 1 {
			if first != nil {
				return true
			}
			first = d.envelope(1)
			d.postAll(first)
		}
		return false
	})
	t.Run("duplicate", func(t *testing.T) {
		expectLogErr(t, d.postAll(first), tablelog.ErrDuplicate)
	})
	t.Run("another table", func(t *testing.T) {
		other := newDriver(t, engine.Modern, 2, 2, 14)
		other.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindShuffle })
		env := other.envelope(0)
		env.Seq, env.Prev = d.logs[0].Head()
		expectLogErr(t, d.postAll(other.sign(0, env)), tablelog.ErrWrongTable)
	})
	t.Run("round key of the last round", func(t *testing.T) {
		env := first.Clone()
		env.Seq, env.Prev = d.logs[0].Head()
		for i, err := range d.postAll(d.sign(1, env)) {
			if err != nil {
				t.Fatalf("log %d: %v", i, err)
			}
		}
		d.expectCaught(1, crypto.CheckKeyProof.String())
	})
}

func TestCheatEquivocation(t *testing.T) {
	d := newDriver(t, engine.Classic, 4, 1, 15)
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindBlock })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	d.postAll(env)
	twin := env.Clone()
	twin.Body = blockBody(engine.RowPoints, 0)
	if slices.Equal(twin.Body, env.Body) {
		twin.Body = blockBody(engine.RowPoints, 1)
	}
	for i, err := range d.postAll(d.sign(seat, twin)) {
		var eq *tablelog.EquivocationError
		if !errors.As(err, &eq) {
			t.Fatalf("log %d: %v, want equivocation", i, err)
		}
		if err := eq.Evidence.Verify(); err != nil || int(eq.Evidence.First.Author) != seat {
			t.Errorf("log %d: evidence %v against seat %d", i, err, eq.Evidence.First.Author)
		}
	}
}

// cheatPlay lets seat's next play be rewritten, and checks the others catch it.
func cheatPlay(t *testing.T, d *driver, rewrite func(seat int, m *crypto.PlayMessage), checks ...string) {
	t.Helper()
	d.runUntil(func(_ int, k tablelog.Kind) bool { return k == tablelog.KindPlay })
	seat, _, _ := d.turn()
	env := d.envelope(seat)
	var m crypto.PlayMessage
	if err := parseCrypto(tablelog.KindPlay, env.Body, &m); err != nil {
		t.Fatal(err)
	}
	rewrite(seat, &m)
	body, err := cryptoBody(&m)
	if err != nil {
		t.Fatal(err)
	}
	env.Body = body
	for i, err := range d.postAll(d.sign(seat, env)) {
		if err != nil {
			t.Fatalf("log %d refused the cheat instead of keeping it as evidence: %v", i, err)
		}
	}
	d.expectCaught(seat, checks...)
}

func TestCheatCardNotHeld(t *testing.T) {
	d := newDriver(t, engine.Classic, 4, 1, 16)
	cheatPlay(t, d, func(seat int, m *crypto.PlayMessage) {
		// A position of the next seat's hand.
		m.Position = ((seat+1)%d.n)*d.observer().Njet().h + 1
	}, CheckPosition)
}

func TestCheatWrongToken(t *testing.T) {
	d := newDriver(t, engine.Modern, 3, 1, 17)
	cheatPlay(t, d, func(seat int, m *crypto.PlayMessage) {
		other := (seat + 1) % d.n
		m.Openings[seat].Token.Share = m.Openings[other].Token.Share
	}, crypto.CheckTokenProof.String())
}

func TestCheatBadShuffle(t *testing.T) {
	d := newDriver(t, engine.Modern, 4, 1, 18)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == 2 })
	env := d.envelope(2)
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
	d.postAll(d.sign(2, env))
	d.expectCaught(2, crypto.CheckShuffle.String())
}

// holding lists the cards seat holds now, by the positions its game knows.
func holding(g *Game, seat int) []engine.Card {
	nj := g.rules.(*Njet) // g.mu is held: a player is asked inside a draft
	rd := nj.d
	left := (seat + g.n - 1) % g.n
	var out []engine.Card
	for p, c := range rd.cardAt {
		if rd.playedBy[p] >= 0 {
			continue
		}
		if own := rd.own[seat]; own != nil && slices.Contains(own.Positions, p) {
			continue
		}
		if o := nj.owner(p); o == seat && rd.passPos[seat] != p || o == left && rd.passPos[left] == p {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// steerDiscard makes every seat's chooser keep "except 1" on the board.
func steerDiscard(d *driver) {
	for s := range d.n {
		inner := d.choose[s]
		d.choose[s] = func(seat int, v *engine.View, legal []engine.Action) engine.Action {
			if v.Phase == engine.PhaseNjet {
				var keep []engine.Action
				for _, a := range legal {
					if a.Row == engine.RowDiscard && a.Field != engine.Discard1NoOnes {
						return a
					}
					if a.Row != engine.RowDiscard {
						keep = append(keep, a)
					}
				}
				if len(keep) > 0 {
					legal = keep
				}
			}
			return inner(seat, v, legal)
		}
	}
}

func TestCheatDiscardOneUnderExceptOne(t *testing.T) {
	const cheater = 1
	for seed := uint64(20); seed < 40; seed++ {
		d := newDriver(t, engine.Modern, 3, 1, seed)
		d.games[cheater].blind = true
		d.lenient[cheater] = true
		steerDiscard(d)
		d.runUntil(func(_ int, k tablelog.Kind) bool {
			return k == tablelog.KindDiscardCommit || k == tablelog.KindPassCommit || k == tablelog.KindPlay
		})
		if d.observer().Njet().eng.Rules().Discard != engine.Discard1NoOnes {
			t.Fatalf("seed %d: the steered rule is %v", seed, d.observer().Njet().eng.Rules().Discard)
		}
		cards := holding(d.games[cheater], cheater)
		var one engine.Card = engine.NoCard
		others := false
		for _, c := range cards {
			if c.Value() == 1 {
				one = c
			} else {
				others = true
			}
		}
		if one == engine.NoCard || !others {
			continue
		}
		inner := d.choose[cheater]
		d.choose[cheater] = func(seat int, v *engine.View, legal []engine.Action) engine.Action {
			if v.Phase == engine.PhaseDiscard {
				return engine.Action{Kind: engine.ActDiscard, Seat: seat, Card: engine.NoCard, Cards: [2]engine.Card{one, engine.NoCard}}
			}
			if v.Phase == engine.PhaseTricks {
				return playFrom(d.games[cheater], seat, v, false)
			}
			return inner(seat, v, legal)
		}
		for d.observer().Violation() == nil && d.step() {
		}
		d.expectCaught(cheater, CheckDiscard)
		t.Logf("seed %d: %v", seed, d.observer().Violation())
		return
	}
	t.Fatal("no seed gave the cheater a 1 and another card")
}

// playFrom picks a card seat holds: one that breaks the follow rule when
// renege is set and the hand allows it, else one that follows.
func playFrom(g *Game, seat int, v *engine.View, renege bool) engine.Action {
	cards := holding(g, seat)
	rules := v.Rules
	var follow, off []engine.Card
	if len(v.Trick.Plays) > 0 {
		led := engine.SuitOf(v.Trick.Plays[0].Card, rules)
		for _, c := range cards {
			if engine.SuitOf(c, rules) == led {
				follow = append(follow, c)
			} else {
				off = append(off, c)
			}
		}
	}
	pick := cards[0]
	switch {
	case renege && len(follow) > 0 && len(off) > 0:
		pick = off[0]
	case len(follow) > 0:
		pick = follow[0]
	}
	return engine.Action{Kind: engine.ActPlay, Seat: seat, Card: pick}
}

func TestCheatRenege(t *testing.T) {
	const cheater = 2
	for seed := uint64(40); seed < 60; seed++ {
		d := newDriver(t, engine.Classic, 4, 1, seed)
		d.games[cheater].blind = true
		d.lenient[cheater] = true
		reneged := false
		inner := d.choose[cheater]
		d.choose[cheater] = func(seat int, v *engine.View, legal []engine.Action) engine.Action {
			switch v.Phase {
			case engine.PhaseDiscard:
				cards := holding(d.games[cheater], seat)
				a := engine.Action{Kind: engine.ActDiscard, Seat: seat, Card: engine.NoCard, Cards: [2]engine.Card{cards[0], engine.NoCard}}
				if v.Rules.Discard == engine.Discard2 {
					a.Cards[1] = cards[1]
				}
				return a
			case engine.PhaseTricks:
				a := playFrom(d.games[cheater], seat, v, !reneged)
				if len(v.Trick.Plays) > 0 && engine.SuitOf(a.Card, v.Rules) != engine.SuitOf(v.Trick.Plays[0].Card, v.Rules) {
					reneged = reneged || slices.ContainsFunc(holding(d.games[cheater], seat), func(c engine.Card) bool {
						return engine.SuitOf(c, v.Rules) == engine.SuitOf(v.Trick.Plays[0].Card, v.Rules)
					})
				}
				return a
			}
			return inner(seat, v, legal)
		}
		for range 1000 {
			if d.observer().Violation() != nil || !d.step() {
				break
			}
		}
		if !reneged {
			continue
		}
		d.expectCaught(cheater, CheckRenege, CheckFollow)
		t.Logf("seed %d: %v", seed, d.observer().Violation())
		return
	}
	t.Fatal("no seed let the cheater renege")
}

// After a cheat every other seat votes to void the round, the first of them
// seats a bot in the cheater's place, and the game goes on to its end with
// the bot; the voided deal scores nothing.
func TestVoidVoteSeatsABot(t *testing.T) {
	const cheater = 1
	d := newDriver(t, engine.Modern, 3, 2, 19)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == cheater })
	env := d.envelope(cheater)
	var m crypto.ShuffleMessage
	if err := parseCrypto(tablelog.KindShuffle, env.Body, &m); err != nil {
		t.Fatal(err)
	}
	m.Deck[3], m.Deck[4] = m.Deck[4], m.Deck[3]
	body, err := cryptoBody(&m)
	if err != nil {
		t.Fatal(err)
	}
	env.Body = body
	d.postAll(d.sign(cheater, env))
	d.expectCaught(cheater, crypto.CheckShuffle.String())
	var kinds []tablelog.Kind
	for range 5000 {
		seat, kind, err := d.turn()
		if err != nil {
			break
		}
		if kind == tablelog.KindVoidVote || kind == tablelog.KindBotSeat {
			kinds = append(kinds, kind)
			if seat == cheater {
				t.Fatalf("the cheater is asked to %v", kind)
			}
		}
		d.step()
	}
	if want := []tablelog.Kind{tablelog.KindVoidVote, tablelog.KindVoidVote, tablelog.KindBotSeat}; !slices.Equal(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	obs := d.observer()
	if !obs.Over() || len(obs.Njet().Results()) != 2 || obs.HostOf(cheater) != 0 {
		t.Fatalf("over %v, %d rounds, bot host %d", obs.Over(), len(obs.Njet().Results()), obs.HostOf(cheater))
	}
	if v := obs.Voided(); len(v) != 1 || v[0].Seat != cheater {
		t.Errorf("voided %v", v)
	}
	for i, g := range d.games {
		if !reflect.DeepEqual(g.Njet().Results(), obs.Njet().Results()) || g.Violation() != nil {
			t.Errorf("game %d: %+v, %v", i, g.Njet().Results(), g.Violation())
		}
	}
	if r := obs.Njet().Results()[0]; r.Deal != 2 {
		t.Errorf("the first audited round was deal %d, want 2 (deal 1 was voided)", r.Deal)
	}
}

// A voter that vanishes while the table votes on a cheat does not stall
// it: the seats still there take its seat over with a VoidSilent, which
// voids the round for the cheat and takes the seat at fault in the same
// envelope (never to be handed back), while the silent voter's seat may
// come back. The seat at fault has no vote and never decides.
func TestCheatVoteSurvivesASilentVoter(t *testing.T) {
	const cheater, gone = 1, 2
	d := newDriver(t, engine.Modern, 4, 2, 23)
	d.runUntil(func(seat int, k tablelog.Kind) bool { return k == tablelog.KindShuffle && seat == cheater })
	env := d.envelope(cheater)
	var m crypto.ShuffleMessage
	if err := parseCrypto(tablelog.KindShuffle, env.Body, &m); err != nil {
		t.Fatal(err)
	}
	m.Deck[3], m.Deck[4] = m.Deck[4], m.Deck[3]
	body, err := cryptoBody(&m)
	if err != nil {
		t.Fatal(err)
	}
	env.Body = body
	d.postAll(d.sign(cheater, env))
	d.expectCaught(cheater, crypto.CheckShuffle.String())
	// Seat 0 votes; seat 2, next, is gone.
	if seat, kind, err := d.turn(); err != nil || seat != 0 || kind != tablelog.KindVoidVote {
		t.Fatalf("turn %d %v %v, want seat 0's VoidVote", seat, kind, err)
	}
	d.step()
	if seat, kind, err := d.turn(); err != nil || seat != gone || kind != tablelog.KindVoidVote {
		t.Fatalf("turn %d %v %v, want seat %d's VoidVote", seat, kind, err, gone)
	}
	obs := d.observer()
	seq, prev := d.logs[d.n].Head()
	turn, err := obs.Entitled(seq)
	if err != nil {
		t.Fatal(err)
	}
	var deciders []int
	for _, alt := range turn.Instead {
		deciders = append(deciders, int(alt.Seat))
	}
	if want := []int{0, 3}; !slices.Equal(deciders, want) {
		t.Fatalf("deciders %v, want %v (never the seat at fault)", deciders, want)
	}
	all := votesAgainst(t, d, d.logs[d.n], gone) // seats 0, 1 (the cheater), 3
	honest := []*SilenceVote{all[0], all[2]}
	for _, tc := range []struct {
		name   string
		author int
		votes  []*SilenceVote
		want   error
	}{
		{"the cheater votes", 0, all, ErrVote},
		{"the cheater decides", cheater, all[1:2], tablelog.ErrNotEntitled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectLogErr(t, d.postAll(voidEnvelope(t, d, tc.author, gone, tc.votes)), tc.want)
		})
	}
	// Seat 0, the lowest voter, decides: its device stores the bots' keys.
	dr, err := d.games[0].draftVoidSilent(seq, prev, honest, rand.NewChaCha8([32]byte{23}))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range dr.secrets {
		d.vaults[0].put(name, b)
	}
	d.mustPost(d.sign(0, &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: d.sp.table, Seq: seq, Prev: prev,
		Author: 0, Kind: dr.kind, Body: dr.body}))
	if v := obs.Violation(); v != nil {
		t.Fatalf("still halted: %v", v)
	}
	for _, s := range []int{cheater, gone} {
		if h := obs.HostOf(s); h != 0 {
			t.Errorf("seat %d hosted by %d, want 0", s, h)
		}
	}
	if err := obs.Claimable(cheater); !errors.Is(err, ErrNotClaimable) {
		t.Errorf("the cheater's seat is claimable: %v", err)
	}
	if err := obs.Claimable(gone); err != nil {
		t.Errorf("the silent voter's seat cannot come back: %v", err)
	}
	if v := obs.Voided(); len(v) != 1 || v[0].Seat != cheater {
		t.Errorf("voided %v, want the cheat", v)
	}
	for range 20000 {
		if !d.step() {
			break
		}
	}
	if !obs.Over() || len(obs.Njet().Results()) != 2 {
		t.Fatalf("over %v after %d rounds", obs.Over(), len(obs.Njet().Results()))
	}
	if r := obs.Njet().Results()[0]; r.Deal != 2 {
		t.Errorf("the first audited round was deal %d, want 2", r.Deal)
	}
	v, err := verifyLog(t, d.logs[d.n])
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if len(v.Results) != 2 || len(v.Voided) != 1 || v.Voided[0].Seat != cheater {
		t.Errorf("verified %d rounds, voided %v", len(v.Results), v.Voided)
	}
}
