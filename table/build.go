package table

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
)

// Chooser picks one of the legal actions for a seat from its view; a bot's
// Act is one.
type Chooser func(seat int, v *engine.View, legal []engine.Action) engine.Action

// draft is an envelope body a hosted seat is about to post, with the
// secrets that must be stored before it is sent.
type draft struct {
	seq     uint64
	kind    Kind
	body    []byte
	secrets map[string][]byte
}

// draft builds the body that hosted seat must post at seq. It changes no
// state: the envelope takes effect when the log applies it.
func (g *Game) draft(seq uint64, seat int, rnd io.Reader, choose Chooser) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draftLocked(seq, seat, rnd, choose, true)
}

// draftLocked is draft with g.mu held. With strict false the chooser may
// pick an action the engine does not list as legal (tests play cheats).
func (g *Game) draftLocked(seq uint64, seat int, rnd io.Reader, choose Chooser, strict bool) (*draft, error) {
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	who, kinds, err := g.turn()
	if err != nil {
		return nil, err
	}
	if who != seat || len(kinds) != 1 {
		return nil, fmt.Errorf("table: seat %d is not entitled at seq %d", seat, seq)
	}
	d := &draft{seq: seq, kind: kinds[0], secrets: map[string][]byte{}}
	rd := g.rd
	if i, bad := g.complaint(seat); bad {
		// A sealed message to the seat did not open: its turn is taken by
		// the complaint, whatever it was to post.
		sec, err := g.hosted(seat)
		if err != nil {
			return nil, err
		}
		return draftComplaint(seq, sec, &rd.sealed[i])
	}
	switch d.kind {
	case KindAck:
		d.body = ackBody(g.genHash)
	case KindRoundKey:
		s, err := crypto.NewSecrets(seat, rnd)
		if err != nil {
			return nil, err
		}
		b, err := s.MarshalBinary()
		if err != nil {
			return nil, err
		}
		km, err := s.KeyMessage(rd.params, rnd)
		if err != nil {
			return nil, err
		}
		d.secrets[keysName(g.deal, seat)] = b
		d.body, err = cryptoBody(km)
		if err != nil {
			return nil, err
		}
	case KindShuffle:
		m, err := rd.cr.Shuffle(seat, rd.deck, rnd)
		if err != nil {
			return nil, err
		}
		if d.body, err = cryptoBody(m); err != nil {
			return nil, err
		}
	case KindDealTokens:
		sec, err := g.hosted(seat)
		if err != nil {
			return nil, err
		}
		to, pos := g.dealOrder(seat)
		sealed := make([]*crypto.Sealed, len(to))
		for i := range to {
			if sealed[i], err = rd.cr.Deal(sec, rd.deck, pos[i], to[i], rnd); err != nil {
				return nil, err
			}
		}
		if d.body, err = dealBody(sealed); err != nil {
			return nil, err
		}
	case KindBlock, KindTeam:
		a, err := g.choose(seat, choose, strict)
		if err != nil {
			return nil, err
		}
		if d.kind == KindBlock {
			d.body = blockBody(a.Row, a.Field)
		} else {
			d.body = teamBody(a.Partners, a.Bonus)
		}
	case KindDiscardCommit, KindPassCommit:
		err = g.draftChoice(d, seat, rnd, choose, strict)
	case KindPlay:
		err = g.draftPlay(d, seat, rnd, choose, strict)
	case KindVoidVote:
		d.body = voteBody(g.halt.Seq)
	case KindBotSeat:
		var seed [ed25519.SeedSize]byte
		if _, err := io.ReadFull(rnd, seed[:]); err != nil {
			return nil, err
		}
		id, err := IdentityOf(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		d.secrets[botKeyName(g.halt.Seat)] = seed[:]
		d.body = botSeatBody(g.halt.Seat, id)
	case KindReveal:
		sec, err := g.hosted(seat)
		if err != nil {
			return nil, err
		}
		ch := rd.own[seat]
		if ch == nil {
			ch = &choice{}
		}
		if d.body, err = revealBody(sec.Reveal(), ch); err != nil {
			return nil, err
		}
	default:
		err = fmt.Errorf("table: cannot draft %v", d.kind)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// draftVoidSilent builds the VoidSilent the decider posts at seq with the
// certificate votes (any order, one per voter): every seat without a vote
// gets a bot, whose key seeds are the secrets to store first. The decider
// must be the lowest voter. It changes no state.
func (g *Game) draftVoidSilent(seq uint64, prev Hash, votes []*SilenceVote, rnd io.Reader) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	silent, _, err := g.turn()
	if err != nil {
		return nil, err
	}
	if !g.voidable(silent) {
		return nil, fmt.Errorf("table: the round cannot be voided for seat %d", silent)
	}
	cert := slices.Clone(votes)
	slices.SortFunc(cert, func(a, b *SilenceVote) int { return int(a.Voter) - int(b.Voter) })
	voted := make([]bool, g.n)
	for _, v := range cert {
		if err := g.checkVote(v, prev); err != nil {
			return nil, err
		}
		voted[v.Voter] = true
	}
	d := &draft{seq: seq, kind: KindVoidSilent, secrets: map[string][]byte{}}
	var taken []takenSeat
	for s := range g.n {
		if voted[s] {
			continue
		}
		var seed [ed25519.SeedSize]byte
		if _, err := io.ReadFull(rnd, seed[:]); err != nil {
			return nil, err
		}
		id, err := IdentityOf(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
		if err != nil {
			return nil, err
		}
		taken = append(taken, takenSeat{seat: s, bot: id})
		d.secrets[botKeyName(s)] = seed[:]
	}
	vs := &voidSilent{silent: silent, taken: taken, votes: cert}
	if err := g.checkCertificate(vs, prev); err != nil {
		return nil, err
	}
	if d.body, err = vs.encode(); err != nil {
		return nil, err
	}
	return d, nil
}

// draftAbandon builds the Abandon the other seat of a two-seat table posts
// at seq in the silent seat's place. It changes no state.
func (g *Game) draftAbandon(seq uint64) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return nil, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	silent, _, err := g.turn()
	if err != nil {
		return nil, err
	}
	if g.n != 2 || !g.voidable(silent) {
		return nil, fmt.Errorf("table: the game cannot be abandoned for seat %d", silent)
	}
	return &draft{seq: seq, kind: KindAbandon, body: abandonBody(silent), secrets: map[string][]byte{}}, nil
}

// Complaining reports whether hosted seat has received a sealed message
// that does not open and will post a Complaint at its turn.
func (g *Game) Complaining(seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, bad := g.complaint(seat)
	return bad
}

// complaint returns the index in the deal's sealed messages of the first
// one to hosted seat that did not open, when the seat may complain now.
func (g *Game) complaint(seat int) (int, bool) {
	if !g.complainable() {
		return 0, false
	}
	i, bad := g.rd.bad[seat]
	return i, bad
}

// botKeyName names the stored signing key seed of a hosted bot seat.
func botKeyName(seat int) string { return fmt.Sprintf("bot-key/%d", seat) }

func (g *Game) hosted(seat int) (*crypto.Secrets, error) {
	sec, ok := g.rd.secrets[seat]
	if !ok {
		return nil, fmt.Errorf("%w: no round secrets for seat %d", ErrSecretsLost, seat)
	}
	return sec, nil
}

// choose asks the chooser for one of the engine's legal actions and checks
// the answer is one of them.
func (g *Game) choose(seat int, choose Chooser, strict bool) (engine.Action, error) {
	legal := g.eng.Legal(seat)
	if len(legal) == 0 {
		return engine.Action{}, fmt.Errorf("table: seat %d has no legal action", seat)
	}
	v := g.eng.View(seat)
	a := choose(seat, &v, legal)
	if strict && !slices.Contains(legal, a) {
		return engine.Action{}, fmt.Errorf("table: the chooser of seat %d picked an action that is not legal", seat)
	}
	return a, nil
}

// positionOf finds the deck position where hosted seat holds card c.
func (g *Game) positionOf(seat int, c engine.Card) (int, error) {
	rd := g.rd
	left := (seat + g.n - 1) % g.n
	for p, pc := range rd.cardAt {
		if pc != c || rd.playedBy[p] >= 0 {
			continue
		}
		if o := g.owner(p); o == seat && rd.passPos[seat] != p || o == left && rd.passPos[left] == p {
			return p, nil
		}
	}
	return 0, fmt.Errorf("table: seat %d holds %s at no position", seat, c)
}

func (g *Game) draftChoice(d *draft, seat int, rnd io.Reader, choose Chooser, strict bool) error {
	rd := g.rd
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	a, err := g.choose(seat, choose, strict)
	if err != nil {
		return err
	}
	ch := &choice{}
	cards := []engine.Card{a.Card}
	if d.kind == KindDiscardCommit {
		cards = cards[:0]
		for _, c := range a.Cards {
			if c != engine.NoCard {
				cards = append(cards, c)
			}
		}
	}
	for _, c := range cards {
		p, err := g.positionOf(seat, c)
		if err != nil {
			return err
		}
		ch.Positions = append(ch.Positions, p)
	}
	slices.Sort(ch.Positions)
	if _, err := io.ReadFull(rnd, ch.Salt[:]); err != nil {
		return err
	}
	var fwd *crypto.Sealed
	if d.kind == KindPassCommit {
		p := ch.Positions[0]
		if fwd, err = rd.cr.Forward(sec, rd.deck, p, (seat+1)%g.n, rd.openings[p], rnd); err != nil {
			return err
		}
	}
	w := &writer{}
	ch.encode(w)
	d.secrets[choiceName(g.deal, seat)] = w.bytes()
	d.body, err = commitBody(ch.commitment(g.cfg.Table, g.deal, seat, d.kind), fwd)
	return err
}

func (g *Game) draftPlay(d *draft, seat int, rnd io.Reader, choose Chooser, strict bool) error {
	rd := g.rd
	sec, err := g.hosted(seat)
	if err != nil {
		return err
	}
	a, err := g.choose(seat, choose, strict)
	if err != nil {
		return err
	}
	p, err := g.positionOf(seat, a.Card)
	if err != nil {
		return err
	}
	m, err := rd.cr.Play(sec, rd.deck, p, rd.openings[p], rnd)
	if err != nil {
		return err
	}
	d.body, err = cryptoBody(m)
	return err
}
