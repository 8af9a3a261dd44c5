package table

import (
	"fmt"
	"slices"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// Checks of a table of The Game that a Violation can report.
const (
	CheckGameRules = "game rules" // a play, end or signal the rules of The Game refuse
	CheckStuck     = "stuck"      // a Stuck while the hand could go on, or a turn ended wrongly
)

// TheGame is the rules of a table of The Game (package thegame) in its
// Game. The game is one crypto round, and one more after each takeover of
// a device gone and each seat handed back (a redeal). The cards are
// shuffled by every seat; the starting hands are the first positions of
// the deck, seat 0's first, each opened to its seat alone by the tokens of
// every other seat; the draw pile is the rest, in its shuffled order, and
// each draw opens the next positions to the drawer alone (DealTokens of
// every other seat). A played card is opened to everyone. Nobody but the
// holder knows a hand, so during the game the rules check what the public
// knows (whose turn, that the seat holds the position it plays, that the
// card fits the pile and the commands in force, that the turn may end)
// and the seat on turn says when its hand cannot go on (Stuck). When the
// game is over every seat reveals its round secrets; the audit then
// checks the whole round (crypto.Audit), opens the whole deck and replays
// the game through thegame.Game: every play, every end, every draw, and
// the result.
//
// A takeover or a hand-back voids the hidden part of the game only: the
// piles, the turn and what it has done, the signals and the hand sizes
// stay; the cards not yet played, public because every played card is,
// become a new smaller deck that every seat shuffles again, each seat
// gets a new hand of the size it held and the rest is the draw pile. A
// takeover while the table waits for the reveals ends the game with its
// public result not verified (a withheld reveal). A cheat halts the table.
type TheGame struct {
	g *Game
	h int // the hand size

	// The crypto round's cards: crypto card i is cards[i].
	cards  []thegame.Card
	hands  []int                // the public count of the cards in each hand
	known  map[int]thegame.Card // the cards this peer knows: hosted hands and played cards
	holder []int                // per position: the seat it was dealt or drawn to, or -1
	played []bool               // per position: played

	// The public state of the game.
	pos     thegame.Position // the piles and the turn in progress; Hand stays empty
	turn    int
	turns   int
	phase   thegame.Phase
	drawn   int // positions dealt or drawn so far in the round
	due     int // cards the seat on turn draws now (PhaseDraw)
	givers  int // DealTokens posted for the draw under way
	signals [thegame.MaxPlayers][thegame.NumPiles]thegame.Signal
	playedC thegame.Cards
	result  thegame.Result

	record  []tgAction       // the public steps since the round's play began
	moves   []thegame.Action // every play, signal and end of turn of the game, deals before a redeal too
	resume  *thegame.Public  // the public position the round resumes; nil for the first deal
	audited bool
	// withheld is the seat silent at its reveal: the game ended unaudited.
	withheld *Violation
}

// tgAction is one public step of the game, kept for the replay after the
// reveals.
type tgAction struct {
	seq    uint64
	kind   tablelog.Kind
	seat   int
	pos    int // KindPlay: the position played; draws: the first position drawn
	count  int // draws: how many
	card   thegame.Card
	pile   int
	signal thegame.Signal
	draw   bool
}

// theGameSpec is The Game in the protocol: genesis version 2, one to five
// seats, in Extreme the command assignment after the variant.
var theGameSpec = gameSpec{name: "thegame", rules: newTheGame, minSeats: thegame.MinPlayers, maxSeats: thegame.MaxPlayers,
	validate: validateTheGame, variantBytes: func(g *Genesis) []byte {
		if !g.Extreme {
			return nil
		}
		return assignmentBytes()
	}}

// TheGameConfig returns the configuration of The Game that the genesis
// sets up.
func (g *Genesis) TheGameConfig() thegame.Config {
	return thegame.Config{Players: len(g.Keys), Extreme: g.Extreme}
}

// validateTheGame checks The Game's own field of a genesis: the command
// assignment this program plays, in Extreme only.
func validateTheGame(g *Genesis) error {
	switch {
	case g.Extreme && g.Commands != thegame.AssignmentVersion:
		return fmt.Errorf("%w: The Game Extreme with command assignment version %d, this program plays version %d",
			tablelog.ErrMalformed, g.Commands, thegame.AssignmentVersion)
	case !g.Extreme && g.Commands != 0:
		return fmt.Errorf("%w: the base game of The Game with command assignment version %d", tablelog.ErrMalformed, g.Commands)
	}
	return nil
}

// assignmentBytes lists the command cards of the assignment this program
// plays: for each command in the order of thegame.Commands, its cards in
// ascending order.
func assignmentBytes() []byte {
	a := thegame.Assignment()
	var out []byte
	for _, k := range thegame.Commands() {
		for _, c := range a[k] {
			out = append(out, byte(c))
		}
	}
	return out
}

func newTheGame(g *Game) (rules, error) {
	t := &TheGame{g: g, h: thegame.HandSize(g.n), cards: thegame.Deck(), hands: make([]int, g.n)}
	t.pos = thegame.Position{Piles: startPilesOf(), DrawPile: thegame.DeckSize, Extreme: g.gen.Extreme}
	return t, nil
}

// TheGame returns the rules of a table of The Game, or nil before the
// genesis and at a table of another game.
func (g *Game) TheGame() *TheGame {
	g.mu.Lock()
	defer g.mu.Unlock()
	t, _ := g.rules.(*TheGame)
	return t
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

func (t *TheGame) traits() traits { return traits{cheatHalts: true, genesisClaims: true} }

// deal is the first deal of the game (every card) or a redeal of the
// cards not yet played, in ascending order; each seat gets a hand of the
// size it holds.
func (t *TheGame) deal() (string, int, []int) {
	g := t.g
	id := fmt.Sprintf("thegame/%d", g.n)
	t.cards = t.cards[:0:0]
	for _, c := range thegame.Deck() {
		if !t.playedC.Has(c) {
			t.cards = append(t.cards, c)
		}
	}
	if g.round > 1 {
		id = fmt.Sprintf("thegame/%d/redeal", g.n)
	}
	sizes := make([]int, g.n)
	for s := range g.n {
		sizes[s] = t.h
		if t.resume != nil {
			sizes[s] = t.resume.HandSizes[s]
		}
	}
	m := len(t.cards)
	t.drawn, t.due, t.givers = 0, 0, 0
	t.known = map[int]thegame.Card{}
	t.holder = slices.Repeat([]int{-1}, m)
	t.played = make([]bool, m)
	t.record = nil
	return id, m, sizes
}

// keysName names the stored round secrets of a hosted seat in round r.
func (t *TheGame) keysName(r uint64, seat int) string {
	if r == 1 {
		return fmt.Sprintf("thegame-keys/%d", seat)
	}
	return fmt.Sprintf("thegame-keys/%d/%d", r, seat)
}

// dealt gives the round's hands (the first positions of the deck, seat
// 0's first, as thegame deals them) and begins seat 0's turn, or after a
// redeal goes on from the public position it kept.
func (t *TheGame) dealt() *Violation {
	g := t.g
	first := 0
	for s := range g.n {
		t.hands[s] = 0
		if v := t.take(s, first, g.rd.hands[s]); v != nil {
			return v
		}
		first += g.rd.hands[s]
	}
	r := t.resume
	if r == nil {
		t.beginTurn(0)
		return nil
	}
	t.turn, t.turns, t.phase, t.due, t.givers = r.Turn, r.Turns, r.Phase, r.Due, 0
	t.pos = thegame.Position{Piles: r.Piles, DrawPile: len(t.cards) - t.drawn, Extreme: g.gen.Extreme,
		Played: r.PlayedThisTurn, OnPiles: r.OnPiles, Three: r.Three}
	return nil
}

// take gives positions first..first+count−1 to seat s; a hosted seat
// opens them with the tokens it received.
func (t *TheGame) take(s, first, count int) *Violation {
	g := t.g
	_, opens := g.opensFor(s)
	for p := first; p < first+count; p++ {
		t.holder[p] = s
		if opens {
			i, v := g.openCard(s, p)
			if v != nil {
				return v
			}
			t.known[p] = t.cards[i]
		}
	}
	t.hands[s] += count
	t.drawn = max(t.drawn, first+count)
	t.pos.DrawPile = len(t.cards) - t.drawn
	return nil
}

// entitled: during a draw every other seat gives its tokens in turn;
// otherwise the seat on turn plays, signals, ends the turn or is stuck.
func (t *TheGame) entitled() (int, []tablelog.Kind, error) {
	if t.phase == thegame.PhaseDraw {
		return t.giver(t.givers), []tablelog.Kind{tablelog.KindDealTokens}, nil
	}
	return t.turn, []tablelog.Kind{tablelog.KindPlay, tablelog.KindSignal, tablelog.KindTurnEnd, tablelog.KindStuck}, nil
}

// giver returns the i-th seat other than the drawer, in seat order: the
// seats that post tokens for a draw.
func (t *TheGame) giver(i int) int {
	s := i
	if s >= t.turn {
		s++
	}
	return s
}

// drawOrder is the order of the sealed tokens of a draw: the positions
// drawn, to the drawer.
func (t *TheGame) drawOrder() (to, pos []int) {
	for p := t.drawn; p < t.drawn+t.due; p++ {
		to, pos = append(to, t.turn), append(pos, p)
	}
	return to, pos
}

func (t *TheGame) apply(env *tablelog.Envelope) (*Violation, error) {
	seat := int(env.Author)
	switch env.Kind {
	case tablelog.KindDealTokens:
		to, pos := t.drawOrder()
		if v, err := t.g.takeTokens(seat, env.Body, to, pos); v != nil || err != nil {
			return v, err
		}
		t.givers++
		if t.givers < t.g.n-1 {
			return nil, nil
		}
		return t.finishDraw(), nil
	case tablelog.KindPlay:
		return t.applyPlay(env.Seq, seat, env.Body)
	case tablelog.KindSignal:
		return t.applySignal(env.Seq, seat, env.Body)
	case tablelog.KindTurnEnd:
		return t.applyEnd(env.Seq, seat, env.Body)
	case tablelog.KindStuck:
		return nil, t.applyStuck(env.Seq, seat, env.Body)
	}
	return nil, fmt.Errorf("%w: %v is not part of The Game's protocol", tablelog.ErrUnknownKind, env.Kind)
}

// finishDraw gives the drawn positions to the seat on turn and passes the
// turn on.
func (t *TheGame) finishDraw() *Violation {
	t.record = append(t.record, tgAction{seq: t.g.next, seat: t.turn, pos: t.drawn, count: t.due, draw: true})
	if v := t.take(t.turn, t.drawn, t.due); v != nil {
		return v
	}
	t.due, t.givers = 0, 0
	t.nextTurn()
	return nil
}

// beginTurn starts seat s's turn; its own signals are cleared (G-S1).
func (t *TheGame) beginTurn(s int) {
	t.turn = s
	t.turns++
	t.phase = thegame.PhasePlay
	t.signals[s] = [thegame.NumPiles]thegame.Signal{}
	t.pos = thegame.Position{Piles: t.pos.Piles, DrawPile: len(t.cards) - t.drawn, Extreme: t.g.gen.Extreme}
}

// endTurn closes the turn and works out the draws (G-B3, G-X9).
func (t *TheGame) endTurn() *Violation {
	due := t.h - t.hands[t.turn]
	if t.pos.InForce(thegame.CmdDrawOne) {
		due = min(due, 1)
	}
	due = min(max(due, 0), len(t.cards)-t.drawn)
	if due == 0 {
		t.nextTurn()
		return nil
	}
	t.phase, t.due, t.givers = thegame.PhaseDraw, due, 0
	if t.g.n == 1 {
		return t.finishDraw()
	}
	return nil
}

// nextTurn passes the turn to the next seat with cards (G-B5); when every
// hand and the draw pile are empty, the game is won.
func (t *TheGame) nextTurn() {
	for i := 1; i <= t.g.n; i++ {
		s := (t.turn + i) % t.g.n
		if t.hands[s] > 0 {
			t.beginTurn(s)
			return
		}
	}
	t.over(thegame.CmdNone)
}

// over ends the game with the public count of the cards left; the reveals
// follow.
func (t *TheGame) over(broken thegame.Command) {
	left := len(t.cards) - t.drawn
	for _, c := range t.hands {
		left += c
	}
	t.result = thegame.Result{CardsLeft: left, Won: left == 0 && broken == thegame.CmdNone, Broken: broken}
	t.phase = thegame.PhaseOver
	t.g.st = stReveal
}

func (t *TheGame) applyPlay(seq uint64, seat int, body []byte) (*Violation, error) {
	pile, m, err := parsePlayBody(body)
	if err != nil {
		return nil, err
	}
	if m.Seat != seat {
		return violation(seat, CheckStructure, "a play message for seat %d", m.Seat), nil
	}
	if p := m.Position; p < 0 || p >= len(t.cards) || t.holder[p] != seat || t.played[p] {
		return violation(seat, CheckPosition, "position %d is not in the seat's hand", p), nil
	}
	i, v := t.g.verifyPlay(seat, m)
	if v != nil {
		return v, nil
	}
	c := t.cards[i]
	q := t.pos
	q.Hand = q.Hand.Add(c)
	if err := q.CheckPlay(c, pile); err != nil {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: err}, nil
	}
	q.Play(c, pile)
	q.Hand = thegame.Cards{}
	t.pos = q
	t.played[m.Position] = true
	t.known[m.Position] = c
	t.playedC = t.playedC.Add(c)
	t.hands[seat]--
	t.record = append(t.record, tgAction{seq: seq, kind: tablelog.KindPlay, seat: seat, pos: m.Position, card: c, pile: pile})
	t.moves = append(t.moves, thegame.Action{Kind: thegame.ActPlay, Seat: seat, Card: c, Pile: pile})
	if q.Stopped {
		// A stop ends the turn at once (G-X3): everyone sees it.
		return t.endTurn(), nil
	}
	return nil, nil
}

func (t *TheGame) applySignal(seq uint64, seat int, body []byte) (*Violation, error) {
	pile, s, err := parseSignal(body)
	if err != nil {
		return nil, err
	}
	if pile >= thegame.NumPiles || s > thegame.SignalGood {
		return violation(seat, CheckGameRules, "signal %d on pile %d", s, pile), nil
	}
	if t.pos.InForce(thegame.CmdSilence) {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: thegame.ErrNoTalking}, nil
	}
	t.signals[seat][pile] = s
	t.record = append(t.record, tgAction{seq: seq, kind: tablelog.KindSignal, seat: seat, pile: pile, signal: s})
	t.moves = append(t.moves, thegame.Action{Kind: thegame.ActSignal, Seat: seat, Pile: pile, Signal: s})
	return nil, nil
}

func (t *TheGame) applyEnd(seq uint64, seat int, body []byte) (*Violation, error) {
	if err := parseEmpty(tablelog.KindTurnEnd, body); err != nil {
		return nil, err
	}
	if err := t.pos.CheckEnd(); err != nil {
		return &Violation{Seat: seat, Check: CheckGameRules, Err: err}, nil
	}
	t.record = append(t.record, tgAction{seq: seq, kind: tablelog.KindTurnEnd, seat: seat})
	t.moves = append(t.moves, thegame.Action{Kind: thegame.ActEnd, Seat: seat})
	return t.endTurn(), nil
}

func (t *TheGame) applyStuck(seq uint64, seat int, body []byte) error {
	if err := parseEmpty(tablelog.KindStuck, body); err != nil {
		return err
	}
	t.record = append(t.record, tgAction{seq: seq, kind: tablelog.KindStuck, seat: seat})
	t.over(t.pos.Broken())
	return nil
}

func (t *TheGame) reveal(seat int, body []byte) (*crypto.Reveal, *Violation, error) {
	var m crypto.Reveal
	if err := parseCrypto(tablelog.KindReveal, body, &m); err != nil {
		return nil, nil, err
	}
	if v := t.g.revealSecrets(seat, &m); v != nil {
		return nil, v, nil
	}
	return &m, nil, nil
}

func (t *TheGame) revealBody(_ int, sec *crypto.Secrets) ([]byte, error) {
	return cryptoBody(sec.Reveal())
}

func (t *TheGame) lastDeal() bool { return true }

// void deals the cards not yet played again (redeal), or, while the table
// waits for the reveals after the game, ends the game with its public
// result not verified: there is nothing left to deal again, and the
// table does not wait for ever.
func (t *TheGame) void(v *Violation) {
	g := t.g
	if g.st == stReveal {
		t.withheld = v
		g.st = stOver
		return
	}
	if g.st == stAcks {
		// The first deal counts as dealt: a takeover before the round's
		// play begins deals that round again.
		g.round = 1
	}
	t.redeal()
}

// redeal voids the hidden part of the game: from the play, the public
// position is kept to resume from; the cards not yet played go to a new
// crypto round, which starts with its round keys. Before the round's play
// begins, the round is dealt again from the same position.
func (t *TheGame) redeal() {
	if t.g.st == stPlay {
		t.resume = t.public()
	}
	t.g.startRound()
}

// public returns the public position of the play in progress.
func (t *TheGame) public() *thegame.Public {
	pub := &thegame.Public{Phase: t.phase, Turn: t.turn, Turns: t.turns, Piles: t.pos.Piles, Played: t.playedC,
		HandSizes: slices.Clone(t.hands), Due: t.due, Signals: t.signals}
	if t.phase == thegame.PhasePlay {
		pub.PlayedThisTurn, pub.OnPiles, pub.Three = t.pos.Played, t.pos.OnPiles, t.pos.Three
	}
	return pub
}

// redealable: the reveals may be withheld to the end, and during the play
// enough cards must be left to deal again (crypto.MinCards).
func (t *TheGame) redealable() bool {
	return t.g.st == stReveal || thegame.DeckSize-t.playedC.Len() >= crypto.MinCards
}

// A seat goes back to its device at the start of its turn, before its bot
// plays a card, while enough cards are left to deal again: the host knew
// the seat's hand, so the claim deals the cards not yet played again.
func (t *TheGame) claimAt(seat int) bool {
	return t.g.st == stPlay && t.phase == thegame.PhasePlay && t.turn == seat && t.pos.Played == 0 &&
		thegame.DeckSize-t.playedC.Len() >= crypto.MinCards
}

func (t *TheGame) claimRound() uint64 { return t.g.round + 1 }

func (t *TheGame) claimMark() uint64 { return uint64(t.turns) }

func (t *TheGame) claimed(int) { t.redeal() }
