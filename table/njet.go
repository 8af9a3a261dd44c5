package table

import (
	"errors"
	"fmt"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/tablelog"
)

// Checks of a Njet table that a Violation can report.
const (
	CheckChoice  = "choice opening" // a reveal that does not open its commitment
	CheckRenege  = "renege"         // engine.ErrRenege
	CheckFollow  = "follow suit"    // engine.ErrMustFollow
	CheckDiscard = "discard"        // engine.ErrIllegalDiscard
	CheckCard    = "card not held"  // engine.ErrIllegalCard
	CheckAudit   = "round audit"    // engine.ErrAudit
	CheckRules   = "rules"          // any other engine rejection
)

// RoundResult is one audited round of Njet.
type RoundResult struct {
	Round  int    // 1-based round of the game
	Deal   uint64 // the crypto round number of its deal
	Dealer int
	Rules  engine.Rules
	Teams  [2][]int // team 0 is the start player's team
	Tricks [2]int   // tricks won per team
	Loot   [2]int   // per team: the opponents' 1s taken
	Bonus  int      // the seat whose points double, or -1
	Points []int    // per seat
	Totals []int    // running totals
}

// Njet is the rules of a Njet table (package engine) in its Game: every
// deal is a crypto round of its own, each seat's hand the positions
// [seat·h, (seat+1)·h) of the shuffled deck; Njet blocks and team choices
// are public; discards and passes are committed hidden and opened at the
// reveal; a played card is opened to everyone; and after the reveals the
// round is audited (the whole deck, every sealed message, the engine's
// audit of discards, passes and plays) and scored. A takeover or a cheat
// voted void rolls the engine back to where the deal began and deals
// again.
type Njet struct {
	g       *Game
	eng     *engine.Game
	h       int           // hand size
	cards   []engine.Card // the cards in play: crypto card i is cards[i]
	played  int           // rounds audited
	results []RoundResult
	snap    *engine.Game // the engine as the deal under way began
	d       *njetDeal
}

// njetDeal is what a Njet table keeps of the deal under way besides the
// crypto round.
type njetDeal struct {
	choices   []*choice // revealed discards and passes, by seat
	commits   [][32]byte
	committed []bool
	passPos   []int // per seat: the position it passed (public in the forward header), or -1
	playedBy  []int // per position: the seat that played it, or -1
	cardAt    map[int]engine.Card
	own       map[int]*choice // the hosted seats' own choices
	// reserved are, at the host of a recovered seat, the positions it
	// sets aside as the seat's discard (njet_escrow.go).
	reserved map[int]bool
	// actions are the engine's actions of the deal so far, from snap on.
	actions []engine.Action
}

// apply1 applies one action of the deal to the engine and keeps it.
func (n *Njet) apply1(a engine.Action) error {
	if err := n.eng.Apply(a); err != nil {
		return err
	}
	n.d.actions = append(n.d.actions, a)
	return nil
}

// njetSpec is Njet in the protocol: genesis version 1, two to five seats.
var njetSpec = gameSpec{name: "njet", rules: newNjet, minSeats: crypto.MinParties, maxSeats: crypto.MaxParties, validate: validateNjet}

// validateNjet checks a Njet genesis's own fields: a character per seat,
// the game's length, and a setup the engine accepts.
func validateNjet(g *Genesis) error {
	if g.Extreme || g.Commands != 0 {
		return fmt.Errorf("%w: a Njet genesis with The Game's commands", tablelog.ErrMalformed)
	}
	if len(g.Characters) != len(g.Keys) {
		return fmt.Errorf("%w: genesis with %d keys and %d characters", tablelog.ErrMalformed, len(g.Keys), len(g.Characters))
	}
	if g.Target < 0 || g.Target > 0xFFFF || g.Rounds < 0 || g.Rounds > 0xFF {
		return fmt.Errorf("%w: genesis target %d, rounds %d", tablelog.ErrMalformed, g.Target, g.Rounds)
	}
	if _, err := engine.NewGame(g.EngineConfig()); err != nil {
		return fmt.Errorf("%w: genesis: %w", tablelog.ErrMalformed, err)
	}
	return nil
}

// EngineConfig returns the Njet engine's configuration for the game.
func (g *Genesis) EngineConfig() engine.Config {
	return engine.Config{Edition: g.Edition, Players: len(g.Keys), Characters: g.Characters,
		FirstDealer: g.FirstDealer, Short: g.Short, Target: g.Target}
}

func newNjet(g *Game) (rules, error) {
	eng, err := engine.NewGame(g.gen.EngineConfig())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", tablelog.ErrMalformed, err)
	}
	return &Njet{g: g, eng: eng, h: g.gen.Edition.HandSize(g.n), cards: g.gen.Edition.Deck(g.n)}, nil
}

// Njet returns the rules of a Njet table, or nil before the genesis and at
// a table of another game.
func (g *Game) Njet() *Njet {
	g.mu.Lock()
	defer g.mu.Unlock()
	nj, _ := g.rules.(*Njet)
	return nj
}

func (n *Njet) traits() traits { return traits{abandonAtTwo: true} }

func (n *Njet) deal() (string, int, []int) {
	g := n.g
	n.snap = n.eng.Clone()
	n.d = &njetDeal{
		commits:   make([][32]byte, g.n),
		committed: make([]bool, g.n),
		passPos:   slices.Repeat([]int{-1}, g.n),
		playedBy:  slices.Repeat([]int{-1}, len(n.cards)),
		cardAt:    map[int]engine.Card{},
		own:       map[int]*choice{},
		choices:   make([]*choice, 0, g.n),
	}
	return fmt.Sprintf("njet/%s/%d", g.gen.Edition, g.n), len(n.cards), slices.Repeat([]int{n.h}, g.n)
}

func (n *Njet) keysName(r uint64, seat int) string { return fmt.Sprintf("round-keys/%d/%d", r, seat) }

// choiceName names the stored hidden choice of a hosted seat in a deal.
func choiceName(deal uint64, seat int) string { return fmt.Sprintf("choice/%d/%d", deal, seat) }

// owner is the seat whose hand holds deck position pos, or -1 for an unused
// position.
func (n *Njet) owner(pos int) int {
	if pos < 0 || pos >= n.g.n*n.h {
		return -1
	}
	return pos / n.h
}

// dealt gives every seat its hand in the engine: the hosted seats' cards,
// hidden ones for the others.
func (n *Njet) dealt() *Violation {
	g := n.g
	for s := range g.n {
		a := engine.Action{Kind: engine.ActDeal, Seat: s, Hidden: true}
		if _, ok := g.opensFor(s); ok {
			a.Hidden = g.blind
			for p := s * n.h; p < (s+1)*n.h; p++ {
				i, v := g.openCard(s, p)
				if v != nil {
					return v
				}
				n.d.cardAt[p] = n.cards[i]
				a.Hand = a.Hand.Add(n.cards[i])
			}
		}
		if err := n.apply1(a); err != nil {
			v := engineViolation(s, err)
			v.Private = !a.Hidden
			return v
		}
	}
	return nil
}

func (n *Njet) entitled() (int, []tablelog.Kind, error) {
	switch n.eng.Phase() {
	case engine.PhaseNjet:
		return n.eng.Turn(), []tablelog.Kind{tablelog.KindBlock}, nil
	case engine.PhaseTeams:
		return n.eng.Turn(), []tablelog.Kind{tablelog.KindTeam}, nil
	case engine.PhaseDiscard:
		s := slices.Index(n.d.committed, false)
		if n.eng.Rules().Discard == engine.PassLeft {
			return s, []tablelog.Kind{tablelog.KindPassCommit}, nil
		}
		return s, []tablelog.Kind{tablelog.KindDiscardCommit}, nil
	case engine.PhaseTricks:
		if s := n.eng.Turn(); s == n.g.rd.gone {
			return s, []tablelog.Kind{tablelog.KindRecoveredPlay}, nil
		}
		return n.eng.Turn(), []tablelog.Kind{tablelog.KindPlay}, nil
	}
	return 0, nil, fmt.Errorf("table: no turn in engine phase %s", n.eng.Phase())
}

func (n *Njet) apply(env *tablelog.Envelope) (*Violation, error) {
	seat := int(env.Author)
	switch env.Kind {
	case tablelog.KindBlock, tablelog.KindTeam:
		return nil, n.applyBoard(seat, env.Kind, env.Body)
	case tablelog.KindDiscardCommit, tablelog.KindPassCommit:
		return n.applyCommit(seat, env.Kind, env.Body)
	case tablelog.KindPlay:
		return n.applyPlay(seat, env.Body)
	case tablelog.KindRecoveredPlay:
		return n.applyRecoveredPlay(seat, env.Body)
	}
	return nil, fmt.Errorf("%w: %v is not part of a Njet table", tablelog.ErrUnknownKind, env.Kind)
}

// engineViolation attributes an engine rejection to seat (or to the seat a
// *engine.SeatError names).
func engineViolation(seat int, err error) *Violation {
	var se *engine.SeatError
	if errors.As(err, &se) {
		seat = se.Seat
	}
	check := CheckRules
	switch {
	case errors.Is(err, engine.ErrRenege):
		check = CheckRenege
	case errors.Is(err, engine.ErrMustFollow):
		check = CheckFollow
	case errors.Is(err, engine.ErrIllegalDiscard):
		check = CheckDiscard
	case errors.Is(err, engine.ErrIllegalCard):
		check = CheckCard
	case errors.Is(err, engine.ErrAudit):
		check = CheckAudit
	}
	return &Violation{Seat: seat, Check: check, Err: err}
}

func (n *Njet) applyBoard(seat int, kind tablelog.Kind, body []byte) error {
	a := engine.Action{Seat: seat}
	var err error
	if kind == tablelog.KindBlock {
		a.Kind = engine.ActBlock
		a.Row, a.Field, err = parseBlock(body)
	} else {
		a.Kind = engine.ActTeam
		a.Partners, a.Bonus, err = parseTeam(body)
	}
	if err != nil {
		return err
	}
	// The board and the teams are public: every engine answers alike, so an
	// illegal block or team is refused rather than halting the round.
	return n.apply1(a)
}

// ownChoice loads a hosted seat's stored choice and checks it against the
// published commitment.
func (n *Njet) ownChoice(seat int, kind tablelog.Kind, c [32]byte) (*choice, error) {
	g := n.g
	if _, hosted := g.rd.secrets[seat]; !hosted || g.cfg.Vault == nil {
		return nil, nil
	}
	b, err := g.cfg.Vault.Secret(choiceName(g.round, seat))
	if errors.Is(err, tablelog.ErrNotFound) {
		// A damaged store kept the round's keys but lost the choice (its
		// envelope came back by sync): the seat's secrets for the round
		// are incomplete, so it is no longer played from here (the
		// peer's next post for it fails with ErrSecretsLost).
		delete(g.rd.secrets, seat)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r := &reader{b: b, kind: kind}
	ch := new(choice)
	ch.decode(r)
	if err := r.finish(); err != nil {
		return nil, err
	}
	if ch.commitment(g.cfg.Table, g.round, seat, kind) != c {
		return nil, fmt.Errorf("the stored choice does not open the commitment")
	}
	return ch, nil
}

func (n *Njet) applyCommit(seat int, kind tablelog.Kind, body []byte) (*Violation, error) {
	c, fwd, err := parseCommit(kind, body)
	if err != nil {
		return nil, err
	}
	g, rd, d := n.g, n.g.rd, n.d
	a := engine.Action{Kind: engine.ActDiscard, Seat: seat, Hidden: true, Card: engine.NoCard,
		Cards: [2]engine.Card{engine.NoCard, engine.NoCard}}
	if kind == tablelog.KindPassCommit {
		a.Kind = engine.ActPass
		to := (seat + 1) % g.n
		if fwd.Kind != crypto.SealForward || fwd.From != seat || fwd.To != to || n.owner(fwd.Position) != seat {
			return violation(seat, CheckStructure, "a forward from %d to %d of position %d", fwd.From, fwd.To, fwd.Position), nil
		}
		if sec, ok := g.opensFor(to); ok {
			openings, i, err := rd.cr.OpenForward(sec, rd.deck, fwd, rd.sealed)
			if err != nil {
				// As for a deal token: the receiver complains at its next
				// turn; the forward is appended at len(rd.sealed) below.
				g.noteBad(to, len(rd.sealed))
			} else {
				rd.openings[fwd.Position] = openings
				d.cardAt[fwd.Position] = n.cards[i]
				if !g.blind {
					a.Hidden, a.Card = false, n.cards[i]
				}
			}
		}
	}
	own, err := n.ownChoice(seat, kind, c)
	if err != nil {
		return private(violation(seat, CheckKeys, "hosted choice: %v", err)), nil
	}
	if own != nil && !g.blind {
		a.Hidden = false
		if kind == tablelog.KindPassCommit {
			if len(own.Positions) != 1 || own.Positions[0] != fwd.Position {
				return private(violation(seat, CheckKeys, "the stored pass is not the forwarded position")), nil
			}
			a.Card = d.cardAt[fwd.Position]
		} else {
			for i, p := range own.Positions {
				a.Cards[i] = d.cardAt[p]
			}
		}
	}
	if own != nil {
		d.own[seat] = own
	}
	if err := n.apply1(a); err != nil {
		v := engineViolation(seat, err)
		v.Private = !a.Hidden
		return v, nil
	}
	d.commits[seat], d.committed[seat] = c, true
	if fwd != nil {
		d.passPos[seat] = fwd.Position
		rd.sealed = append(rd.sealed, *fwd)
	}
	return nil, nil
}

func (n *Njet) applyPlay(seat int, body []byte) (*Violation, error) {
	var m crypto.PlayMessage
	if err := parseCrypto(tablelog.KindPlay, body, &m); err != nil {
		return nil, err
	}
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a play for seat %d", m.Seat), nil
	}
	return n.playPosition(seat, m.Position, func() (int, *Violation) { return n.g.verifyPlay(seat, &m) }), nil
}

// checkPlayed checks that seat may play position pos: it is in the seat's
// hand, not played, not passed on, or it was passed to the seat.
func (n *Njet) checkPlayed(seat, pos int) *Violation {
	d := n.d
	left := (seat + n.g.n - 1) % n.g.n
	switch o := n.owner(pos); {
	case o < 0:
		return violation(seat, CheckPosition, "position %d is dealt to nobody", pos)
	case d.playedBy[pos] >= 0:
		return violation(seat, CheckPosition, "position %d was played already", pos)
	case o == seat && d.passPos[seat] == pos:
		return violation(seat, CheckPosition, "position %d was passed on", pos)
	case o != seat && !(o == left && d.passPos[left] == pos):
		return violation(seat, CheckPosition, "position %d is in the hand of seat %d", pos, o)
	}
	return nil
}

// playPosition applies seat's play of position pos to the engine once the
// seat may play it (checkPlayed) and open has opened it to card i of the
// deal; after the last trick the reveals begin.
func (n *Njet) playPosition(seat, pos int, open func() (i int, v *Violation)) *Violation {
	if v := n.checkPlayed(seat, pos); v != nil {
		return v
	}
	i, v := open()
	if v != nil {
		return v
	}
	g, d := n.g, n.d
	c := n.cards[i]
	if err := n.apply1(engine.Action{Kind: engine.ActPlay, Seat: seat, Card: c}); err != nil {
		// Only a renege (against voids every engine saw) is certain to be
		// seen by all; other refusals come from what this engine knows of
		// hosted hands.
		v := engineViolation(seat, err)
		v.Private = !errors.Is(err, engine.ErrRenege)
		return v
	}
	d.playedBy[pos] = seat
	d.cardAt[pos] = c
	if p := n.eng.Phase(); p == engine.PhaseRoundOver || p == engine.PhaseGameOver {
		return g.revealsBegin()
	}
	return nil
}

func (n *Njet) reveal(seat int, body []byte) (*crypto.Reveal, *Violation, error) {
	rv, ch, err := parseReveal(body)
	if err != nil {
		return nil, nil, err
	}
	g, rd, d := n.g, n.g.rd, n.d
	if rv.Seat != seat {
		return nil, violation(seat, CheckStructure, "a reveal for seat %d", rv.Seat), nil
	}
	if err := rd.cr.VerifyReveal(rv); err != nil {
		return nil, cryptoViolation(seat, err), nil
	}
	rule := n.eng.Rules().Discard
	want := discardCount(rule)
	kind := tablelog.KindDiscardCommit
	if rule == engine.PassLeft {
		kind = tablelog.KindPassCommit
	}
	switch {
	case len(ch.Positions) != want:
		return nil, violation(seat, CheckChoice, "%d positions revealed, want %d", len(ch.Positions), want), nil
	case want > 0 && ch.commitment(g.cfg.Table, g.round, seat, kind) != d.commits[seat]:
		return nil, violation(seat, CheckChoice, "the revealed choice does not open the commitment"), nil
	}
	for _, p := range ch.Positions {
		switch {
		case n.owner(p) != seat:
			return nil, violation(seat, CheckChoice, "chose position %d outside its hand", p), nil
		case rule == engine.PassLeft && p != d.passPos[seat]:
			return nil, violation(seat, CheckChoice, "revealed pass %d, forwarded %d", p, d.passPos[seat]), nil
		case rule != engine.PassLeft && d.playedBy[p] >= 0:
			return nil, violation(seat, CheckPosition, "discarded position %d and it was played", p), nil
		}
	}
	d.choices = append(d.choices, ch)
	return rv, nil, nil
}

func (n *Njet) revealBody(seat int, sec *crypto.Secrets) ([]byte, error) {
	ch := n.d.own[seat]
	if ch == nil {
		ch = &choice{}
	}
	return revealBody(sec.Reveal(), ch)
}

// audit re-checks the whole deal once every seat has revealed: every
// position of the final deck (crypto.AuditDeckSecrets), every sealed
// message, the cards of every hand, and the engine's audit of the
// discards, passes and every play; then it scores the round.
//
// It is crypto.Audit without the parts the Game has already checked as
// the envelopes came in, in the same order and against the same deck:
// every key proof (applyKey, NewRound), every shuffle pass
// (applyShuffle), every play's tokens (applyPlay) and every reveal
// (reveal). What no observer could check before the reveal is whether
// each sealed message opens for its recipient, with a valid token proof
// and commitment; that is done here for all of them with the revealed
// keys. A Game that replays an export (Verify) applies every envelope
// too, so an offline verification still runs every check of crypto.Audit
// exactly once.
func (n *Njet) audit() *Violation {
	g, rd, d := n.g, n.g.rd, n.d
	secrets, v := rd.revealed()
	if v != nil {
		return v
	}
	// Every position of the final deck decrypts to a card, each card once,
	// dealt or not; a broken deck is blamed on the pass that broke it.
	if err := rd.cr.AuditDeckSecrets(rd.shuffles, secrets); err != nil {
		return cryptoViolation(g.n-1, err)
	}
	for i := range rd.sealed {
		if err := rd.auditSealed(secrets, i); err != nil {
			return cryptoViolation(rd.sealed[i].From, err)
		}
	}
	rnd := fixedRand()
	rev := engine.Reveal{Dealt: make([]engine.Hand, g.n), Discards: make([]engine.Hand, g.n),
		Passes: slices.Repeat([]engine.Card{engine.NoCard}, g.n)}
	for p := 0; p < g.n*n.h; p++ {
		s := n.owner(p)
		c, ok := d.cardAt[p]
		if !ok {
			var openings []crypto.Opening
			for j := range g.n {
				if j == s {
					continue
				}
				tok, err := rd.cr.Token(secrets[j], rd.deck, p, rnd)
				if err != nil {
					return cryptoViolation(j, err)
				}
				openings = append(openings, crypto.Opening{Token: tok})
			}
			i, err := rd.cr.Card(secrets[s], rd.deck, p, openings)
			if err != nil {
				return cryptoViolation(s, err)
			}
			c = n.cards[i]
			d.cardAt[p] = c
		}
		rev.Dealt[s] = rev.Dealt[s].Add(c)
	}
	pass := n.eng.Rules().Discard == engine.PassLeft
	for s, ch := range d.choices {
		for _, p := range ch.Positions {
			if pass {
				rev.Passes[s] = d.cardAt[p]
			} else {
				rev.Discards[s] = rev.Discards[s].Add(d.cardAt[p])
			}
		}
	}
	if err := n.eng.AuditRound(rev); err != nil {
		return engineViolation(0, err)
	}
	n.finishRound()
	return nil
}

// finishRound records the audited round and starts the next deal, or ends
// the game.
func (n *Njet) finishRound() {
	g := n.g
	h := n.eng.History()
	n.played++
	n.results = append(n.results, RoundResult{Round: h.Round, Deal: g.round, Dealer: h.Dealer, Rules: h.Rules,
		Teams: [2][]int{slices.Clone(h.Teams[0]), slices.Clone(h.Teams[1])}, Tricks: h.Score.Tricks, Loot: h.Score.Loot,
		Bonus: h.Bonus, Points: slices.Clone(h.Score.Points), Totals: slices.Clone(h.Totals)})
	if n.eng.Phase() == engine.PhaseGameOver || g.gen.Rounds > 0 && n.played >= g.gen.Rounds {
		g.st = stOver
		return
	}
	g.startRound()
}

func (n *Njet) lastDeal() bool {
	return n.eng.Phase() == engine.PhaseGameOver || n.g.gen.Rounds > 0 && n.played+1 >= n.g.gen.Rounds
}

// void rolls the engine back to where the deal began and deals again;
// during the acknowledgements, before any deal, the bots simply
// acknowledge.
func (n *Njet) void(*Violation) {
	g := n.g
	if g.st == stAcks {
		return
	}
	n.eng = n.snap
	if g.st == stOver {
		return
	}
	g.startRound()
}

func (n *Njet) redealable() bool { return true }

// A seat goes to its claimant at its key turn in the key setup of a deal:
// nothing of the deal is dealt yet, so nothing is dealt again.
func (n *Njet) claimAt(seat int) bool {
	g := n.g
	return g.st == stKeys && g.rd != nil && len(g.rd.keys) == seat
}

func (n *Njet) claimRound() uint64 {
	if n.g.st == stKeys {
		return n.g.round
	}
	return n.g.round + 1
}

func (n *Njet) claimMark() uint64 { return n.g.round }

func (n *Njet) claimed(int) {}

// Results returns the audited rounds so far (none of a nil Njet, the
// rules of no table).
func (n *Njet) Results() []RoundResult {
	if n == nil {
		return nil
	}
	n.g.mu.Lock()
	defer n.g.mu.Unlock()
	out := make([]RoundResult, len(n.results))
	for i, r := range n.results {
		out[i] = r
		out[i].Points, out[i].Totals = slices.Clone(r.Points), slices.Clone(r.Totals)
		out[i].Teams = [2][]int{slices.Clone(r.Teams[0]), slices.Clone(r.Teams[1])}
	}
	return out
}

// View returns the engine's view of seat: with its hand when this peer
// hosts the seat. A nil Njet (the rules of no table yet) shows the zero
// View.
func (n *Njet) View(seat int) engine.View {
	if n == nil {
		return engine.View{}
	}
	n.g.mu.Lock()
	defer n.g.mu.Unlock()
	return n.eng.View(seat)
}

// PublicView returns the engine's view of a seat outside the table: the
// board, the rules, the teams, the tricks and the scores, never a hand, a
// discard or a pass, whatever seats this game hosts. A watcher's observer
// game (no Vault) shows it.
func (n *Njet) PublicView() engine.View { return n.View(-1) }
