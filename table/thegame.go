package table

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
)

// TheGame is the game protocol of a table of The Game: the Protocol hook
// that replays the log into the mental-poker state and the public state of
// the game, says who posts next, checks every envelope, and after the
// reveals replays the whole game through package thegame.
//
// The game is one crypto round, and one more after each takeover of a
// device gone (thegame_void.go) and each seat handed back to its device
// (thegame_handback.go). The 98 cards are shuffled by every seat;
// the starting hands are the first positions of the deck, seat 0's first,
// each opened to its seat alone by the tokens of every other seat; the draw
// pile is the rest, in its shuffled order, and each draw opens the next
// positions to the drawer alone. A played card is opened to everyone with
// every token of its position. Nobody but the holder knows a hand, so
// during the game the protocol checks what the public knows (whose turn,
// that the seat holds the position it plays, that the card fits the pile
// and the commands in force, that the turn may end) and the seat on turn
// says when its hand cannot go on (Stuck). When the game is over every
// seat reveals its round secrets; the audit then checks the whole round
// (crypto.Audit), opens the whole deck and replays the game through
// thegame.Game: every play, every end, every draw, and the result.
type TheGame struct {
	mu  sync.Mutex
	cfg GameConfig

	gen     *Genesis
	genHash Hash
	n, h    int
	st      stage
	next    uint64
	acks    int
	halt    *Violation

	params   crypto.Params
	cr       *crypto.Round
	deck     crypto.Deck
	keys     []crypto.KeyMessage
	shuffles []crypto.ShuffleMessage
	sealed   []crypto.Sealed
	plays    []crypto.PlayMessage
	reveals  []crypto.Reveal
	dealt    int // DealTokens of the deal posted so far

	secrets  map[int]*crypto.Secrets  // the hosted seats' round secrets
	openings map[int][]crypto.Opening // tokens a hosted holder received, by position
	known    map[int]thegame.Card     // the cards this peer knows: hosted hands and played cards
	holder   []int                    // per position: the seat it was dealt or drawn to, or -1
	played   []bool                   // per position: played
	bad      map[int]int              // a hosted seat → index in sealed of the first token to it that did not open (thegame_complaint.go)

	// The public state of the game.
	pos     thegame.Position // the piles and the turn in progress; Hand stays empty
	hands   []int            // cards in each hand
	turn    int
	turns   int
	phase   thegame.Phase
	drawn   int // positions dealt or drawn so far
	due     int // cards the seat on turn draws now (PhaseDraw)
	givers  int // DrawTokens posted for the draw under way
	signals [thegame.MaxPlayers][thegame.NumPiles]thegame.Signal
	playedC thegame.Cards
	result  thegame.Result

	record  []tgAction // the public steps since the round's play began
	audited bool

	// Takeovers (thegame_void.go).
	seatKeys []Identity      // the key of each seat: its genesis key, or its bot's
	botHost  map[int]int     // a seat played by a bot: the seat whose device hosts it
	round    int             // the crypto round: 1, then one more per takeover or hand-back
	cards    []thegame.Card  // the round's deck: crypto card i is cards[i]
	sizes    []int           // the cards the round deals to each seat
	resume   *thegame.Public // the public position the round resumes; nil for the first deal
	voids    []*Violation    // the seats taken over, one per takeover
	fence    *fence          // this peer's standing vote
	withheld *Violation      // the seat silent at its reveal, the game ended unaudited

	// Seats handed back (thegame_handback.go), and the turn count at which
	// each seat last changed hands so.
	handedBack []HandBack
	claimedAt  map[int]int
}

// tgAction is one public step of the game, kept for the replay after the
// reveals.
type tgAction struct {
	seq    uint64
	kind   Kind
	seat   int
	pos    int // KindPlay: the position played; draws: the first position drawn
	count  int // draws: how many
	card   thegame.Card
	pile   int
	signal thegame.Signal
	draw   bool
}

// Checks of a table of The Game that a Violation can report.
const (
	CheckGameRules = "game rules" // a play, end or signal the rules of The Game refuse
	CheckStuck     = "stuck"      // a Stuck while the hand could go on, or a turn ended wrongly
)

// NewTheGame returns the protocol of a table of The Game; cfg is as for
// NewGame (a nil Vault makes an observer).
func NewTheGame(cfg GameConfig) *TheGame { return &TheGame{cfg: cfg} }

// Entitled implements Protocol.
func (g *TheGame) Entitled(seq uint64) (Turn, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq != g.next {
		return Turn{}, fmt.Errorf("table: seq %d, the game is at %d", seq, g.next)
	}
	seat, kinds, err := g.turnLocked()
	if err != nil {
		return Turn{}, err
	}
	key := g.cfg.Creator
	t := Turn{Seat: uint8(seat), Key: key, Kinds: kinds}
	if g.complainable() {
		t.Kinds = append(slices.Clone(kinds), KindComplaint)
	}
	if g.gen != nil {
		t.Key = g.seatKeys[seat]
		if g.handBackable(seat) {
			t.Kinds = append(slices.Clone(kinds), KindSeatClaim)
		}
		if g.voidable() {
			for s := range g.n {
				if s != seat {
					t.Instead = append(t.Instead, Turn{Seat: uint8(s), Key: g.seatKeys[s], Kinds: []Kind{KindVoidSilent}})
				}
			}
		}
	}
	return t, nil
}

// turnLocked names the seat that posts next and the kinds it may post.
func (g *TheGame) turnLocked() (int, []Kind, error) {
	if g.halt != nil {
		return 0, nil, fmt.Errorf("%w: %w", ErrHalted, g.halt)
	}
	switch g.st {
	case stGenesis:
		return 0, []Kind{KindGenesis}, nil
	case stAcks:
		return g.acks + 1, []Kind{KindAck}, nil
	case stKeys:
		return len(g.keys), []Kind{KindRoundKey}, nil
	case stShuffle:
		return len(g.shuffles), []Kind{KindShuffle}, nil
	case stDeal:
		return g.dealt, []Kind{KindDealTokens}, nil
	case stReveal:
		return len(g.reveals), []Kind{KindReveal}, nil
	case stOver:
		return 0, nil, ErrOver
	}
	if g.phase == thegame.PhaseDraw {
		return g.giver(g.givers), []Kind{KindDealTokens}, nil
	}
	return g.turn, []Kind{KindPlay, KindSignal, KindTurnEnd, KindStuck}, nil
}

// giver returns the i-th seat other than the drawer, in seat order: the
// seats that post tokens for a draw.
func (g *TheGame) giver(i int) int {
	s := i
	if s >= g.turn {
		s++
	}
	return s
}

// Apply implements Protocol. A body that does not decode is refused; a
// decoded body that breaks a check is accepted and halts the table with a
// Violation (the signed envelope is the evidence).
func (g *TheGame) Apply(env *Envelope) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if env.Seq != g.next {
		return fmt.Errorf("table: envelope for seq %d, the game is at %d", env.Seq, g.next)
	}
	seat := int(env.Author)
	if f := g.fence; f != nil && f.seq == env.Seq && seat == f.seat && env.Kind != KindVoidSilent && env.Hash() != f.allow {
		return fmt.Errorf("%w: this peer voted against seat %d at seq %d", ErrFenced, seat, env.Seq)
	}
	var v *Violation
	var err error
	switch env.Kind {
	case KindGenesis:
		err = g.applyGenesis(env)
	case KindAck:
		err = g.applyAck(env)
	case KindRoundKey:
		v, err = g.applyKey(seat, env.Body)
	case KindShuffle:
		v, err = g.applyShuffle(seat, env.Body)
	case KindDealTokens:
		v, err = g.applyTokens(seat, env.Body)
	case KindPlay:
		v, err = g.applyPlay(env.Seq, seat, env.Body)
	case KindSignal:
		v, err = g.applySignal(env.Seq, seat, env.Body)
	case KindTurnEnd:
		v, err = g.applyEnd(env.Seq, seat, env.Body)
	case KindStuck:
		err = g.applyStuck(env.Seq, seat, env.Body)
	case KindReveal:
		v, err = g.applyReveal(seat, env.Body)
	case KindVoidSilent:
		err = g.applyVoidSilent(env)
	case KindComplaint:
		v, err = g.applyComplaint(seat, env.Body)
	case KindSeatClaim:
		err = g.applySeatClaim(env)
	default:
		err = fmt.Errorf("%w: %v is not part of The Game's protocol", ErrUnknownKind, env.Kind)
	}
	if err != nil {
		return err
	}
	if v != nil {
		if v.Seq == 0 {
			// The replay after the reveals names the envelope it blames.
			v.Seq = env.Seq
		}
		g.halt = v
	}
	g.next++
	if g.fence != nil && g.fence.seq < g.next {
		g.fence = nil
	}
	return nil
}

func (g *TheGame) applyGenesis(env *Envelope) error {
	gen, err := ParseGenesis(env.Body)
	if err != nil {
		return err
	}
	if gen.Game != GameTheGame {
		return fmt.Errorf("%w: a genesis of %v at a table of The Game", ErrMalformed, gen.Game)
	}
	if TableIDOf(env.Body) != g.cfg.Table {
		return fmt.Errorf("%w: the genesis does not hash to the table id", ErrWrongTable)
	}
	if gen.Keys[0] != g.cfg.Creator {
		return fmt.Errorf("%w: seat 0 of the genesis is not the creator", ErrMalformed)
	}
	n := gen.Players()
	g.gen, g.genHash, g.n, g.h = gen, env.Hash(), n, thegame.HandSize(n)
	g.seatKeys, g.botHost, g.round = slices.Clone(gen.Keys), map[int]int{}, 1
	g.hands = make([]int, n)
	g.pos = thegame.Position{Piles: startPilesOf(), DrawPile: thegame.DeckSize, Extreme: gen.Extreme}
	g.startRound()
	g.st = stAcks
	if n == 1 {
		g.st = stKeys
	}
	return nil
}

// startPilesOf returns the four piles as a game begins, read from a fresh
// game so that the table and the engine never disagree on them.
func startPilesOf() [thegame.NumPiles]thegame.Pile {
	eng, err := thegame.NewGame(thegame.Config{Players: 1})
	if err != nil {
		return [thegame.NumPiles]thegame.Pile{}
	}
	return eng.Piles()
}

func (g *TheGame) applyAck(env *Envelope) error {
	h, err := parseAck(env.Body)
	if err != nil {
		return err
	}
	if h != g.genHash {
		return fmt.Errorf("%w: acknowledges %v, the genesis is %v", ErrMalformed, h, g.genHash)
	}
	g.acks++
	if g.acks == g.n-1 {
		g.st = stKeys
	}
	return nil
}

// theGameKeysName names the stored round secrets of a hosted seat in
// round r.
func theGameKeysName(r, seat int) string {
	if r == 1 {
		return fmt.Sprintf("thegame-keys/%d", seat)
	}
	return fmt.Sprintf("thegame-keys/%d/%d", r, seat)
}

func (g *TheGame) applyKey(seat int, body []byte) (*Violation, error) {
	var km crypto.KeyMessage
	if err := parseCrypto(KindRoundKey, body, &km); err != nil {
		return nil, err
	}
	if km.Seat != seat {
		return violation(seat, CheckStructure, "a key message for seat %d", km.Seat), nil
	}
	if err := crypto.VerifyKey(g.params, &km); err != nil {
		return cryptoViolation(seat, err), nil
	}
	if g.cfg.Vault != nil {
		if b, err := g.cfg.Vault.Secret(theGameKeysName(g.round, seat)); err == nil {
			s := new(crypto.Secrets)
			if err := s.UnmarshalBinary(b); err != nil {
				v := violation(seat, CheckKeys, "stored secrets: %v", err)
				v.Private = true
				return v, nil
			}
			mine, err := s.KeyMessage(g.params, fixedRand())
			if err != nil || mine.Key != km.Key || mine.HPKE != km.HPKE || s.Seat() != seat {
				v := violation(seat, CheckKeys, "the posted key is not the stored one")
				v.Private = true
				return v, nil
			}
			g.secrets[seat] = s
		}
	}
	g.keys = append(g.keys, km)
	if len(g.keys) < g.n {
		return nil, nil
	}
	cr, err := crypto.NewRound(g.params, g.keys)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	deck, err := crypto.InitialDeck(g.params)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	g.cr, g.deck = cr, deck
	g.st = stShuffle
	return nil, nil
}

func (g *TheGame) applyShuffle(seat int, body []byte) (*Violation, error) {
	var m crypto.ShuffleMessage
	if err := parseCrypto(KindShuffle, body, &m); err != nil {
		return nil, err
	}
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a shuffle for seat %d", m.Seat), nil
	}
	if err := g.cr.VerifyShuffle(g.deck, &m); err != nil {
		return cryptoViolation(seat, err), nil
	}
	g.shuffles = append(g.shuffles, m)
	g.deck = m.Deck
	if len(g.shuffles) < g.n {
		return nil, nil
	}
	if g.n == 1 {
		return g.startPlay(), nil
	}
	g.st = stDeal
	return nil, nil
}

// tokenOrder is the order of the sealed tokens in giver's DealTokens: in
// the deal, every other seat's starting hand in seat order; in a draw, the
// positions drawn, to the drawer.
func (g *TheGame) tokenOrder(giver int) (to, pos []int) {
	if g.st == stDeal {
		first := 0
		for t := range g.n {
			for p := first; p < first+g.sizes[t] && t != giver; p++ {
				to, pos = append(to, t), append(pos, p)
			}
			first += g.sizes[t]
		}
		return to, pos
	}
	for p := g.drawn; p < g.drawn+g.due; p++ {
		to, pos = append(to, g.turn), append(pos, p)
	}
	return to, pos
}

// applyTokens takes a DealTokens: in the deal, a seat's tokens for every
// other seat's starting hand; in a draw, a seat's tokens for the positions
// the drawer draws.
func (g *TheGame) applyTokens(seat int, body []byte) (*Violation, error) {
	sealed, err := parseDeal(body)
	if err != nil {
		return nil, err
	}
	to, pos := g.tokenOrder(seat)
	if len(sealed) != len(to) {
		return violation(seat, CheckStructure, "%d sealed tokens, want %d", len(sealed), len(to)), nil
	}
	for i := range sealed {
		m := &sealed[i]
		if m.Kind != crypto.SealDeal || m.From != seat || m.To != to[i] || m.Position != pos[i] {
			return violation(seat, CheckStructure, "sealed token %d is %d from %d to %d for position %d",
				i, m.Kind, m.From, m.To, m.Position), nil
		}
	}
	opened := map[int]crypto.Opening{}
	for i := range sealed {
		m := &sealed[i]
		s, ok := g.opensFor(m.To)
		if !ok {
			continue
		}
		o, err := g.cr.OpenDeal(s, g.deck, m)
		if err != nil {
			// Only the recipient sees this: it complains at its next
			// entitled moment (thegame_complaint.go).
			g.noteBad(m.To, len(g.sealed)+i)
			continue
		}
		opened[m.Position] = o
	}
	for p, o := range opened {
		g.openings[p] = append(g.openings[p], o)
	}
	g.sealed = append(g.sealed, sealed...)
	if g.st == stDeal {
		g.dealt++
		if g.dealt < g.n {
			return nil, nil
		}
		return g.startPlay(), nil
	}
	g.givers++
	if g.givers < g.n-1 {
		return nil, nil
	}
	return g.finishDraw(), nil
}

// startPlay gives the round's hands (the first positions of the deck, seat
// 0's first, as thegame deals them) and begins seat 0's turn, or after a
// takeover goes on from the public position the takeover kept.
func (g *TheGame) startPlay() *Violation {
	g.st = stPlay
	first := 0
	for s := range g.n {
		g.hands[s] = 0
		if v := g.take(s, first, g.sizes[s]); v != nil {
			return v
		}
		first += g.sizes[s]
	}
	r := g.resume
	if r == nil {
		g.beginTurn(0)
		return nil
	}
	g.turn, g.turns, g.phase, g.due, g.givers = r.Turn, r.Turns, r.Phase, r.Due, 0
	g.pos = thegame.Position{Piles: r.Piles, DrawPile: len(g.cards) - g.drawn, Extreme: g.gen.Extreme,
		Played: r.PlayedThisTurn, OnPiles: r.OnPiles, Three: r.Three}
	return nil
}

// take gives positions first..first+count−1 to seat s; a hosted seat
// opens them with the tokens it received.
func (g *TheGame) take(s, first, count int) *Violation {
	for p := first; p < first+count; p++ {
		g.holder[p] = s
		if sec, ok := g.opensFor(s); ok {
			i, err := g.cr.Card(sec, g.deck, p, g.openings[p])
			if err != nil {
				v := violation(s, CheckTokens, "position %d: %v", p, err)
				v.Private = true
				return v
			}
			if i < 0 || i >= len(g.cards) {
				v := violation(s, CheckTokens, "position %d opens to card %d of %d", p, i, len(g.cards))
				v.Private = true
				return v
			}
			g.known[p] = g.cards[i]
		}
	}
	g.hands[s] += count
	g.drawn = max(g.drawn, first+count)
	g.pos.DrawPile = len(g.cards) - g.drawn
	return nil
}

// finishDraw gives the drawn positions to the seat on turn and passes the
// turn on.
func (g *TheGame) finishDraw() *Violation {
	g.record = append(g.record, tgAction{seq: g.next, seat: g.turn, pos: g.drawn, count: g.due, draw: true})
	if v := g.take(g.turn, g.drawn, g.due); v != nil {
		return v
	}
	g.due, g.givers = 0, 0
	g.nextTurn()
	return nil
}

// beginTurn starts seat s's turn; its own signals are cleared (G-S1).
func (g *TheGame) beginTurn(s int) {
	g.turn = s
	g.turns++
	g.phase = thegame.PhasePlay
	g.signals[s] = [thegame.NumPiles]thegame.Signal{}
	g.pos = thegame.Position{Piles: g.pos.Piles, DrawPile: len(g.cards) - g.drawn, Extreme: g.gen.Extreme}
}

// endTurn closes the turn and works out the draws (G-B3, G-X9).
func (g *TheGame) endTurn() *Violation {
	due := g.h - g.hands[g.turn]
	if g.pos.InForce(thegame.CmdDrawOne) {
		due = min(due, 1)
	}
	due = min(max(due, 0), len(g.cards)-g.drawn)
	if due == 0 {
		g.nextTurn()
		return nil
	}
	g.phase, g.due, g.givers = thegame.PhaseDraw, due, 0
	if g.n == 1 {
		return g.finishDraw()
	}
	return nil
}

// nextTurn passes the turn to the next seat with cards (G-B5); when every
// hand and the draw pile are empty, the game is won.
func (g *TheGame) nextTurn() {
	for i := 1; i <= g.n; i++ {
		s := (g.turn + i) % g.n
		if g.hands[s] > 0 {
			g.beginTurn(s)
			return
		}
	}
	g.over(thegame.CmdNone)
}

// over ends the game with the public count of the cards left; the reveals
// follow.
func (g *TheGame) over(broken thegame.Command) {
	left := len(g.cards) - g.drawn
	for _, c := range g.hands {
		left += c
	}
	g.result = thegame.Result{CardsLeft: left, Won: left == 0 && broken == thegame.CmdNone, Broken: broken}
	g.phase = thegame.PhaseOver
	g.st = stReveal
}

// playBody encodes a play of The Game: the pile, then the crypto play
// message that opens the position to everyone.
func playBody(pile int, m *crypto.PlayMessage) ([]byte, error) {
	w := newWriter()
	w.u8(pile)
	if err := w.marshal(m); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

const maxPlayMessage = 1 << 11

func parsePlayBody(body []byte) (int, *crypto.PlayMessage, error) {
	r := newReader(KindPlay, body)
	pile := r.u8()
	m := new(crypto.PlayMessage)
	r.unmarshal(m, maxPlayMessage)
	if err := r.finish(); err != nil {
		return 0, nil, err
	}
	if pile >= thegame.NumPiles {
		return 0, nil, fmt.Errorf("%w: Play body: no pile %d", ErrMalformed, pile)
	}
	return pile, m, nil
}

func (g *TheGame) applyPlay(seq uint64, seat int, body []byte) (*Violation, error) {
	pile, m, err := parsePlayBody(body)
	if err != nil {
		return nil, err
	}
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a play message for seat %d", m.Seat), nil
	}
	if p := m.Position; p < 0 || p >= len(g.cards) || g.holder[p] != seat || g.played[p] {
		return violation(seat, CheckPosition, "position %d is not in the seat's hand", p), nil
	}
	i, err := g.cr.VerifyPlay(g.deck, m, g.sealed)
	if err != nil {
		return cryptoViolation(seat, err), nil
	}
	if i < 0 || i >= len(g.cards) {
		return violation(seat, CheckPosition, "position %d opens to card %d of %d", m.Position, i, len(g.cards)), nil
	}
	c := g.cards[i]
	q := g.pos
	q.Hand = q.Hand.Add(c)
	if err := q.CheckPlay(c, pile); err != nil {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: err}, nil
	}
	q.Play(c, pile)
	q.Hand = thegame.Cards{}
	g.pos = q
	g.plays = append(g.plays, *m)
	g.played[m.Position] = true
	g.known[m.Position] = c
	g.playedC = g.playedC.Add(c)
	g.hands[seat]--
	g.record = append(g.record, tgAction{seq: seq, kind: KindPlay, seat: seat, pos: m.Position, card: c, pile: pile})
	if q.Stopped {
		// A stop ends the turn at once (G-X3): everyone sees it.
		return g.endTurn(), nil
	}
	return nil, nil
}

func signalBody(pile int, s thegame.Signal) []byte {
	w := newWriter()
	w.u8(pile)
	w.u8(int(s))
	return w.bytes()
}

func parseSignal(body []byte) (int, thegame.Signal, error) {
	r := newReader(KindSignal, body)
	pile, s := r.u8(), thegame.Signal(r.u8())
	return pile, s, r.finish()
}

func (g *TheGame) applySignal(seq uint64, seat int, body []byte) (*Violation, error) {
	pile, s, err := parseSignal(body)
	if err != nil {
		return nil, err
	}
	if pile >= thegame.NumPiles || s > thegame.SignalGood {
		return violation(seat, CheckGameRules, "signal %d on pile %d", s, pile), nil
	}
	if g.pos.InForce(thegame.CmdSilence) {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: thegame.ErrNoTalking}, nil
	}
	g.signals[seat][pile] = s
	g.record = append(g.record, tgAction{seq: seq, kind: KindSignal, seat: seat, pile: pile, signal: s})
	return nil, nil
}

// emptyBody is the body of a TurnEnd or a Stuck: the version alone.
func emptyBody() []byte { return newWriter().bytes() }

func parseEmpty(kind Kind, body []byte) error { return newReader(kind, body).finish() }

func (g *TheGame) applyEnd(seq uint64, seat int, body []byte) (*Violation, error) {
	if err := parseEmpty(KindTurnEnd, body); err != nil {
		return nil, err
	}
	if err := g.pos.CheckEnd(); err != nil {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: err}, nil
	}
	g.record = append(g.record, tgAction{seq: seq, kind: KindTurnEnd, seat: seat})
	return g.endTurn(), nil
}

func (g *TheGame) applyStuck(seq uint64, seat int, body []byte) error {
	if err := parseEmpty(KindStuck, body); err != nil {
		return err
	}
	g.record = append(g.record, tgAction{seq: seq, kind: KindStuck, seat: seat})
	g.over(g.pos.Broken())
	return nil
}

func (g *TheGame) applyReveal(seat int, body []byte) (*Violation, error) {
	var m crypto.Reveal
	if err := parseCrypto(KindReveal, body, &m); err != nil {
		return nil, err
	}
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a reveal for seat %d", m.Seat), nil
	}
	if _, err := g.cr.Secrets(&m); err != nil {
		return cryptoViolation(seat, err), nil
	}
	g.reveals = append(g.reveals, m)
	if len(g.reveals) < g.n {
		return nil, nil
	}
	if v := g.audit(); v != nil {
		return v, nil
	}
	g.audited = true
	g.st = stOver
	return nil, nil
}

// audit re-checks the whole round and replays the game through the
// engine: every crypto message (crypto.Audit), the order of the whole deck,
// then every draw, play, signal, turn end and Stuck in log order, and the
// result.
func (g *TheGame) audit() *Violation {
	tr := &crypto.Transcript{Params: g.params, Keys: g.keys, Shuffles: g.shuffles, Sealed: g.sealed,
		Plays: g.plays, Reveals: g.reveals}
	if err := crypto.Audit(tr); err != nil {
		return cryptoViolation(-1, err)
	}
	secrets := make([]*crypto.Secrets, g.n)
	for i := range g.reveals {
		s, err := g.cr.Secrets(&g.reveals[i])
		if err != nil {
			return cryptoViolation(i, err)
		}
		secrets[i] = s
	}
	order, err := g.cr.OpenDeck(g.deck, secrets)
	if err != nil {
		return cryptoViolation(-1, err)
	}
	deck := make([]thegame.Card, len(order))
	for p, i := range order {
		if i < 0 || i >= len(g.cards) {
			return cryptoViolation(-1, fmt.Errorf("position %d opens to card %d of %d", p, i, len(g.cards)))
		}
		deck[p] = g.cards[i]
	}
	return g.replay(deck)
}

// replay plays the recorded game through thegame.Game with the deck order
// known. The engine ends a turn by itself when the hand can play nothing
// more, and the game when the turn cannot be completed; the table learns
// both from the seat on turn (TurnEnd, Stuck), which the replay holds
// against the engine.
func (g *TheGame) replay(deck []thegame.Card) *Violation {
	eng, err := g.engineAtDeal(deck)
	if err != nil {
		return violation(0, CheckStructure, "the deal: %v", err)
	}
	ended := false // the engine ended the turn (or the game) after the last play
	for _, a := range g.record {
		fail := func(check, format string, args ...any) *Violation {
			v := violation(a.seat, check, format, args...)
			v.Seq = a.seq
			return v
		}
		failWith := func(check string, err error) *Violation {
			return &Violation{Seq: a.seq, Seat: a.seat, Check: check, Err: err}
		}
		if ended && !a.draw && a.kind != KindTurnEnd && a.kind != KindStuck {
			return fail(CheckStuck, "the seat's turn had ended, only its end may follow")
		}
		switch {
		case a.draw:
			for p := a.pos; p < a.pos+a.count; p++ {
				s, ok := eng.NeedDraw()
				if !ok || s != a.seat || eng.DrawPile() != len(deck)-p {
					return fail(CheckStructure, "seat %d drew position %d, the rules draw otherwise", a.seat, p)
				}
				if err := eng.Apply(thegame.Action{Kind: thegame.ActDraw, Seat: a.seat, Card: deck[p]}); err != nil {
					return fail(CheckStructure, "draw: %v", err)
				}
			}
		case a.kind == KindPlay:
			turns := eng.Turns()
			if err := eng.Apply(thegame.Action{Kind: thegame.ActPlay, Seat: a.seat, Card: a.card, Pile: a.pile}); err != nil {
				return failWith(CheckGameRules, err)
			}
			stop := g.gen.Extreme && thegame.CommandOf(a.card) == thegame.CmdStop
			ended = !stop && (eng.Phase() != thegame.PhasePlay || eng.Turns() != turns)
		case a.kind == KindSignal:
			if err := eng.Apply(thegame.Action{Kind: thegame.ActSignal, Seat: a.seat, Pile: a.pile, Signal: a.signal}); err != nil {
				return failWith(CheckGameRules, err)
			}
		case a.kind == KindTurnEnd:
			if ended {
				ended = false
				if eng.Phase() == thegame.PhaseOver && eng.Result().Broken != thegame.CmdNone {
					return fail(CheckStuck, "the turn ended though a command could no longer be kept")
				}
				continue
			}
			if err := eng.Apply(thegame.Action{Kind: thegame.ActEnd, Seat: a.seat}); err != nil {
				return failWith(CheckGameRules, err)
			}
		case a.kind == KindStuck:
			ended = false
			if eng.Phase() != thegame.PhaseOver {
				return fail(CheckStuck, "the seat said its hand could not go on, the rules let it play on")
			}
		}
	}
	if eng.Phase() != thegame.PhaseOver {
		return violation(g.turn, CheckStuck, "the table ended the game, the rules did not")
	}
	if r := eng.Result(); r != g.result {
		return violation(g.turn, CheckStuck, "the table's result %+v is not the rules' %+v", g.result, r)
	}
	return nil
}

// engineAtDeal returns the engine as the round's play begins, the deal
// taken from deck: the first deal of the game, or the redeal of a takeover
// at the public position it kept (thegame.Resume).
func (g *TheGame) engineAtDeal(deck []thegame.Card) (*thegame.Game, error) {
	cfg := g.gen.TheGameConfig()
	if g.resume == nil {
		eng, err := thegame.NewGame(cfg)
		if err != nil {
			return nil, err
		}
		for p := range g.n * g.h {
			s, ok := eng.NeedDraw()
			if !ok || eng.Phase() != thegame.PhaseDeal {
				return nil, errors.New("the rules ended the deal early")
			}
			if err := eng.Apply(thegame.Action{Kind: thegame.ActDraw, Seat: s, Card: deck[p]}); err != nil {
				return nil, err
			}
		}
		return eng, nil
	}
	hands := make([][]thegame.Card, g.n)
	first := 0
	for s, k := range g.sizes {
		hands[s] = deck[first : first+k]
		first += k
	}
	return thegame.Resume(cfg, *g.resume, hands, deck[first:])
}

// TheGameResult is the outcome of a verified game of The Game.
type TheGameResult struct {
	Config thegame.Config
	Result thegame.Result
	Turns  int
}

// Result returns the audited result once every seat has revealed and the
// replay agrees; ok is false before.
func (g *TheGame) Result() (TheGameResult, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.audited {
		return TheGameResult{}, false
	}
	return TheGameResult{Config: g.gen.TheGameConfig(), Result: g.result, Turns: g.turns}, true
}

// Over reports whether the game is over and audited.
func (g *TheGame) Over() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.st == stOver
}

// Violation returns the violation that halted the table, or nil.
func (g *TheGame) Violation() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.halt
}

// Genesis returns the table's genesis once applied.
func (g *TheGame) Genesis() *Genesis {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gen
}

// Next returns the seq of the next envelope.
func (g *TheGame) Next() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.next
}

// View returns what seat s knows: the public state and, when this peer
// hosts s, its own hand. It never holds a card of another seat's hand or
// of the draw pile.
func (g *TheGame) View(s int) thegame.View {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.viewLocked(s)
}

func (g *TheGame) viewLocked(s int) thegame.View {
	if g.gen == nil || s < 0 || s >= g.n {
		return thegame.View{}
	}
	ph := g.phase
	switch g.st {
	case stPlay:
	case stReveal, stOver:
		ph = thegame.PhaseOver
	default:
		ph = thegame.PhaseDeal
	}
	v := thegame.View{Seat: s, Players: g.n, Extreme: g.gen.Extreme, HandSize: g.h, Phase: ph, Turn: g.turn,
		Turns: g.turns, DrawPile: len(g.cards) - g.drawn, Piles: g.pos.Piles, Played: g.playedC,
		Muted: g.pos.InForce(thegame.CmdSilence), Result: g.result}
	v.Hand = g.handOf(s).List()
	for t := range g.n {
		v.HandSizes = append(v.HandSizes, g.hands[t])
		v.Signals = append(v.Signals, g.signals[t])
	}
	if ph == thegame.PhasePlay {
		v.PlayedThisTurn, v.OnPiles, v.Three = g.pos.Played, g.pos.OnPiles, g.pos.Three
	}
	if g.gen.Extreme {
		for _, k := range thegame.Commands() {
			if k.Lasting() || k == thegame.CmdSkull {
				if g.pos.InForce(k) {
					v.InForce = append(v.InForce, k)
				}
			} else if k == thegame.CmdThree && ph == thegame.PhasePlay && g.pos.Three {
				v.InForce = append(v.InForce, k)
			}
		}
	}
	return v
}

// handOf returns the cards of seat s this peer knows: its hand when the
// peer hosts s, else nothing.
func (g *TheGame) handOf(s int) thegame.Cards {
	var h thegame.Cards
	if _, hosted := g.secrets[s]; !hosted {
		return h
	}
	for p, c := range g.known {
		if g.holder[p] == s && !g.played[p] {
			h = h.Add(c)
		}
	}
	return h
}

// verifiedTheGame fills in the outcome of a verified log of The Game and
// returns the violation that halted it, if any.
func verifiedTheGame(v *Verification, tg *TheGame) error {
	v.Over = tg.Over()
	v.Voided = tg.Takeovers()
	v.HandedBack = tg.HandedBack()
	if r, ok := tg.Result(); ok {
		v.TheGame = &r
	}
	if w := tg.Unverified(); w != nil {
		v.Unverified = w
		if r, ok := tg.Claimed(); ok {
			v.Claimed = &r
		}
	}
	if viol := tg.Violation(); viol != nil {
		return viol
	}
	return nil
}
