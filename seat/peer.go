package seat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// PeerSeatConfig sets up a PeerSeat.
type PeerSeatConfig struct {
	// Changed receives a value whenever the table may have moved on (the
	// peer's events). Next also looks once a second without it.
	Changed <-chan struct{}
	// Rounds is the number of rounds the table plays when its genesis ends
	// the game early (0: the edition's).
	Rounds int
	// Seats describes who plays each seat (a person, or a bot the host's
	// device runs) as the front end knows it from the table's setup; nil
	// (or short) takes every other seat for a person's. Names come from
	// the genesis when a SeatInfo has none; a seat the table handed to a
	// bot is shown as HostedBot whatever Seats says.
	Seats []SeatInfo
}

// PeerSeat is the Seat of a person at a LAN table: it tells what the
// peer's log and view show, and hands the person's choices to the peer.
// The peer runs elsewhere (its Run); a PeerSeat runs no goroutines. Next
// reads the envelopes the log gained (their authors and kinds give the
// order and who moved) and the peer's view (which gives the cards); when
// a change cannot be told move by move (a device that catches up many
// envelopes at once), it sends Sync again.
type PeerSeat struct {
	p   *table.Peer
	cfg PeerSeatConfig
	you int

	mu     sync.Mutex
	left   bool
	leftCh chan struct{}
	// answered is the question the person answered last (Choose): its
	// move may wait to be posted while the peer shows no question, which
	// does not withdraw it.
	answered question

	// Next's goroutine only.
	queue    []Event
	synced   bool
	ended    bool
	seen     uint64        // envelopes of the log told
	seenAt   tablelog.Hash // the hash of the last of them
	cur      engine.View
	players  int
	deal     tally // what was told of the current deal
	results  int   // RoundOver told
	voided   int   // RoundVoided told
	kept     int   // RoundKept told
	halted   bool  // the current halt told
	watching bool
	asked    uint64        // seq of the last YourTurn, or 0
	askedAt  tablelog.Hash // the log's head it was asked at
	open     bool          // that question is open (not answered by a Moved, not withdrawn)
	turn     *Turn         // the last Turn told
}

// question names a question: its seq, at the log's head it was asked at.
type question struct {
	seq  uint64
	head tablelog.Hash
}

// tally is what was told of one deal.
type tally struct {
	dealt         bool
	blocks, plays int
	rules, teams  bool
	received      bool
}

// NewPeerSeat returns the Seat of the person at seat you of p's table: p
// must be a person's peer (table.PeerConfig.Human).
func NewPeerSeat(p *table.Peer, you int, cfg PeerSeatConfig) (*PeerSeat, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: a PeerSeat without a peer", ErrBadConfig)
	}
	if you < 0 || you > 0xff {
		return nil, fmt.Errorf("%w: seat %d", ErrBadConfig, you)
	}
	cfg.Seats = slices.Clone(cfg.Seats)
	return &PeerSeat{p: p, cfg: cfg, you: you, leftCh: make(chan struct{})}, nil
}

// Next returns the next event; see Seat. It waits on the config's
// Changed, ctx, Leave or a one-second timer, whichever comes first, and
// looks at the table again.
func (s *PeerSeat) Next(ctx context.Context) (Event, error) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.hasLeft() {
			return nil, ErrLeft
		}
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue = s.queue[1:]
			return ev, nil
		}
		if s.ended {
			return nil, io.EOF
		}
		s.update()
		if len(s.queue) > 0 || s.ended {
			continue
		}
		timer.Reset(time.Second)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.leftCh:
			return nil, ErrLeft
		case <-s.cfg.Changed:
		case <-timer.C:
		}
	}
}

func (s *PeerSeat) hasLeft() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.left
}

func (s *PeerSeat) tell(ev Event) { s.queue = append(s.queue, ev) }

// update looks at the table and queues what changed since the last look.
func (s *PeerSeat) update() {
	v := s.p.View()
	if v.Game.Players == 0 {
		return // the genesis is not known yet
	}
	s.players = v.Game.Players
	if !s.synced || s.switched(v) {
		s.sync(v)
		return
	}
	envs := s.p.Log().Range(s.seen, v.Seq)
	if !s.tellEnvelopes(envs, v) {
		// The view moved past what the envelopes say (a new deal, a void):
		// the moves cannot be told one by one.
		s.sync(v)
		return
	}
	s.see(v.Seq)
	s.cur = v.Game
	s.after(v)
}

// see takes the log's first seq envelopes as told.
func (s *PeerSeat) see(seq uint64) {
	s.seen, s.seenAt = seq, tablelog.Hash{}
	if seq == 0 {
		return
	}
	if env, ok := s.p.Log().Get(seq - 1); ok {
		s.seenAt = env.Hash()
	}
}

// switched reports whether the log left the branch told so far: a device
// cut off from the table plays on alone in its own log, and once back it
// follows the table's, whose envelopes differ from some seq on. What was
// told since then is then told again from the view as a whole.
func (s *PeerSeat) switched(v table.PeerView) bool {
	if s.seen == 0 {
		return false
	}
	if v.Seq < s.seen {
		return true
	}
	env, ok := s.p.Log().Get(s.seen - 1)
	return !ok || env.Hash() != s.seenAt
}

// sync queues the whole state and takes the view as told.
func (s *PeerSeat) sync(v table.PeerView) {
	s.synced = true
	s.see(v.Seq)
	s.cur = v.Game
	s.deal = tally{
		dealt:    v.Game.Phase >= engine.PhaseNjet,
		blocks:   len(v.Game.Blocks),
		plays:    len(plays(v.Game)),
		rules:    v.Game.Phase > engine.PhaseNjet,
		teams:    v.Game.Phase > engine.PhaseTeams,
		received: v.Game.Phase > engine.PhaseDiscard,
	}
	s.results, s.voided, s.kept = len(v.Results), len(v.Voided), len(v.Recovered)
	s.halted = v.Violation != nil
	// A seat handed back at a new deal is often told by a sync: the deal
	// that follows the claim cannot be told move by move.
	returned := s.watching && v.BotHost < 0
	s.watching = v.BotHost >= 0
	s.asked, s.askedAt, s.open = 0, tablelog.Hash{}, false
	st := State{
		View: v.Game, You: s.you, Seats: s.seats(v), Rounds: s.rounds(v.Game),
		Halt: violationOf(v.Violation), Watching: s.watching, Back: s.watching && s.comesBack(), Audited: true, Over: v.Over,
	}
	for _, r := range v.Results {
		st.Results = append(st.Results, resultOfTable(r))
	}
	if gen := s.p.Game().Genesis(); gen != nil {
		st.Target = gen.Target
	}
	if t := s.turnOf(v); t != nil {
		st.Turn = t
		s.turn = t
	}
	if pr := s.promptOf(v); pr != nil {
		st.Prompt = pr
		st.View = pr.View
	}
	s.tell(Sync{State: st})
	if returned {
		s.tell(Returned{})
	}
	s.after(v)
}

// after queues what the view tells beyond the envelopes: rounds scored,
// voided, halted, the seat handed to a bot, whom the table waits for, the
// person's question, and the end of the game.
func (s *PeerSeat) after(v table.PeerView) {
	s.flushResults(v)
	s.flushVoided(v)
	for _, r := range v.Recovered[min(s.kept, len(v.Recovered)):] {
		s.tell(RoundKept{Seat: r.Seat, Host: r.Host})
	}
	s.kept = len(v.Recovered)
	if s.deal.dealt {
		s.flushDeal(v.Game)
	} else if v.Game.Phase >= engine.PhaseNjet && v.Game.Phase < engine.PhaseRoundOver {
		s.dealt(v.Game)
	}
	switch {
	case v.Violation != nil && !s.halted:
		s.halted = true
		t := s.turnOf(v)
		h := Halted{Cheat: violationOf(v.Violation)}
		if t != nil {
			h.Votes, h.Needed = t.Votes, t.Needed
		}
		s.tell(h)
	case v.Violation == nil:
		s.halted = false
	}
	switch {
	case v.BotHost >= 0 && !s.watching:
		s.watching = true
		s.tell(Watching{BotHost: v.BotHost, Back: s.comesBack()})
	case v.BotHost < 0 && s.watching:
		// The seat was handed back (a claim at a new deal): the person
		// plays it again, and is asked below.
		s.watching = false
		s.tell(Returned{})
	}
	if s.open && (v.Prompt == nil || v.Prompt.Seq != s.asked || v.Prompt.Head != s.askedAt || s.watching) {
		s.open = false
		s.mu.Lock()
		answered := s.answered == question{s.asked, s.askedAt}
		s.mu.Unlock()
		if !answered || s.watching {
			s.tell(Withdrawn{Seq: s.asked})
		}
	}
	if v.Over {
		s.gameOver(v)
		return
	}
	if t := s.turnOf(v); t != nil && (s.turn == nil || !sameTurn(*s.turn, *t)) {
		s.turn = t
		s.tell(*t)
	}
	if pr := s.promptOf(v); pr != nil && (pr.Seq != s.asked || v.Prompt.Head != s.askedAt) {
		s.asked, s.askedAt, s.open = pr.Seq, v.Prompt.Head, true
		s.tell(YourTurn{Prompt: *pr})
	}
}

// comesBack reports whether the device asks for the person's seat back
// from the bot that plays it (table.Game.Claimable): it was taken while the
// device was away, not from a cheater, and a deal is still to come.
func (s *PeerSeat) comesBack() bool { return s.p.Game().Claimable(s.you) == nil }

// tellEnvelopes queues the events of the log's new envelopes, the cards
// and fields taken from the view v. It reports false, and queues nothing,
// when an envelope's move is not in v (the view is already past its
// deal); the caller then syncs, which sets every count afresh.
func (s *PeerSeat) tellEnvelopes(envs []*tablelog.Envelope, v table.PeerView) bool {
	queued := len(s.queue)
	restore := func() bool {
		s.queue = s.queue[:queued]
		return false
	}
	g := v.Game
	all := plays(g)
	for _, env := range envs {
		author := int(env.Author)
		switch env.Kind {
		case tablelog.KindRoundKey, tablelog.KindShuffle:
			if s.deal.dealt && s.deal.plays > 0 {
				// A new deal begins: nothing more comes of the last one.
				s.deal = tally{}
			}
		case tablelog.KindBotSeat, tablelog.KindVoidSilent, tablelog.KindAbandon:
			s.deal = tally{}
		case tablelog.KindBlock:
			if !s.ensureDealt(v) || s.deal.blocks >= len(g.Blocks) {
				return restore()
			}
			b := g.Blocks[s.deal.blocks]
			s.deal.blocks++
			s.moved(engine.Action{Kind: engine.ActBlock, Seat: b.Seat, Row: b.Row, Field: b.Field}, g)
			if s.deal.blocks == len(g.Blocks) && g.Phase > engine.PhaseNjet && !s.deal.rules {
				s.deal.rules = true
				s.tell(RulesSet{Rules: g.Rules})
			}
		case tablelog.KindTeam:
			if !s.ensureDealt(v) || g.Phase <= engine.PhaseTeams || s.deal.teams {
				return restore()
			}
			var partners uint8
			for seat, t := range g.Team {
				if t == 0 && seat != author {
					partners |= 1 << seat
				}
			}
			s.moved(engine.Action{Kind: engine.ActTeam, Seat: author, Partners: partners}, g)
			s.flushTeams(g)
		case tablelog.KindDiscardCommit, tablelog.KindPassCommit:
			if !s.ensureDealt(v) || g.Phase <= engine.PhaseTeams {
				return restore()
			}
			s.flushTeams(g)
			a := hidden(engine.ActDiscard, author)
			if env.Kind == tablelog.KindPassCommit {
				a.Kind = engine.ActPass
			}
			if author == s.you {
				a.Hidden = false
				if a.Kind == engine.ActDiscard {
					copy(a.Cards[:], g.Discarded.Cards(g.Edition))
				} else {
					a.Card = g.Passed
				}
			}
			s.moved(a, g)
		case tablelog.KindPlay:
			if !s.ensureDealt(v) || s.deal.plays >= len(all) {
				return restore()
			}
			s.flushTeams(g)
			s.flushReceived(g)
			p := all[s.deal.plays]
			s.deal.plays++
			s.moved(engine.Action{Kind: engine.ActPlay, Seat: p.Seat, Card: p.Card}, g)
			if k := s.deal.plays/s.players - 1; s.deal.plays%s.players == 0 && k < len(g.Tricks) {
				t := g.Tricks[k]
				s.tell(TrickWon{N: k + 1, Trick: t, Why: engine.TrickWin(t, g.Rules)})
			}
		}
	}
	return true
}

// ensureDealt tells the deal before its first move, after the rounds
// scored before it; it reports false when the view has no deal under way.
func (s *PeerSeat) ensureDealt(v table.PeerView) bool {
	if v.Game.Phase < engine.PhaseNjet {
		return false
	}
	if !s.deal.dealt {
		s.flushResults(v)
		s.dealt(v.Game)
	}
	return true
}

// dealt tells a new deal: the person's hand as dealt, rebuilt from the
// view's hand and what the person has given away since.
func (s *PeerSeat) dealt(g engine.View) {
	s.deal = tally{dealt: true}
	hand := g.Hand | g.Discarded
	for _, p := range plays(g) {
		if p.Seat == s.you {
			hand = hand.Add(p.Card)
		}
	}
	if g.Passed != engine.NoCard {
		hand = hand.Add(g.Passed)
	}
	if g.Received != engine.NoCard {
		hand = hand.Remove(g.Received)
	}
	s.tell(Dealt{Round: g.Round, Rounds: s.rounds(g), Dealer: g.Dealer, Hand: hand, View: g})
}

// flushDeal tells what the deal's envelopes left untold: the rules, the
// teams and the received card once the view is past their phase.
func (s *PeerSeat) flushDeal(g engine.View) {
	if g.Phase >= engine.PhaseRoundOver {
		return
	}
	if g.Phase > engine.PhaseNjet && !s.deal.rules && s.deal.blocks == len(g.Blocks) {
		s.deal.rules = true
		s.tell(RulesSet{Rules: g.Rules})
	}
	s.flushTeams(g)
	s.flushReceived(g)
}

func (s *PeerSeat) flushTeams(g engine.View) {
	if g.Phase > engine.PhaseTeams && g.Phase < engine.PhaseRoundOver && !s.deal.teams {
		s.deal.teams = true
		s.tell(TeamsSet{Team: slices.Clone(g.Team), Bonus: g.Bonus})
	}
}

func (s *PeerSeat) flushReceived(g engine.View) {
	if g.Phase > engine.PhaseDiscard && g.Phase < engine.PhaseRoundOver && !s.deal.received {
		s.deal.received = true
		if g.Received != engine.NoCard && !s.watching {
			s.tell(PassReceived{From: (s.you + s.players - 1) % s.players, Card: g.Received})
		}
	}
}

// moved tells a move; the person's own answers the open question.
func (s *PeerSeat) moved(a engine.Action, g engine.View) {
	if a.Seat == s.you && s.open {
		s.open = false
	}
	s.tell(Moved{Action: a, View: g})
}

// flushResults tells the audited rounds not told yet, each with its audit.
func (s *PeerSeat) flushResults(v table.PeerView) {
	for _, r := range v.Results[min(s.results, len(v.Results)):] {
		s.tell(RoundOver{Result: resultOfTable(r), View: v.Game})
		s.tell(Audited{Round: r.Round})
	}
	s.results = len(v.Results)
}

// flushVoided tells the voided rounds not told yet.
func (s *PeerSeat) flushVoided(v table.PeerView) {
	for _, viol := range v.Voided[min(s.voided, len(v.Voided)):] {
		if viol == v.Abandoned {
			continue // told by GameOver
		}
		host := -1
		if viol != nil {
			host = s.p.Game().HostOf(viol.Seat)
		}
		s.tell(RoundVoided{Fault: violationOf(viol), BotHost: host})
	}
	s.voided = len(v.Voided)
}

// gameOver tells the end once.
func (s *PeerSeat) gameOver(v table.PeerView) {
	totals := v.Game.Totals
	if n := len(v.Results); n > 0 {
		totals = v.Results[n-1].Totals
	}
	over := GameOver{Totals: slices.Clone(totals)}
	if v.Abandoned == nil {
		over.Winners = engine.Leaders(totals)
	}
	s.tell(over)
	s.ended = true
}

// turnOf is whom the table waits for, or nil.
func (s *PeerSeat) turnOf(v table.PeerView) *Turn {
	if v.Turn < 0 || v.Over {
		return nil
	}
	return &Turn{Wait: waitOf(v), Kind: actionKind(v.Kind)}
}

// waitOf is what a peer's view says the table waits for (Turn, and
// TheGameSeat.Wait).
func waitOf(v table.PeerView) Wait {
	w := Wait{Seat: v.Turn, Since: v.Since, Patience: v.Patience, Voidable: v.Voidable, Votes: v.Votes, Needed: v.Needed,
		Voted: v.Voted, CutOff: CutOff(v), ClockOuts: v.ClockOuts}
	if !w.CutOff.IsZero() {
		w.Unheard = v.Unheard
	}
	if v.Prompt != nil {
		w.Until = v.Prompt.Until
	}
	return w
}

// CutOff is since when the device of a peer's view has heard none of
// the other devices, once that has lasted CutOffAfter; zero otherwise
// (Wait.CutOff).
func CutOff(v table.PeerView) time.Time {
	if v.Heard.IsZero() || v.Unheard < CutOffAfter {
		return time.Time{}
	}
	return v.Heard
}

// sameTurn reports whether two Turns tell the same wait: the same seat
// and move, or the table's work (Kind 0) whoever does it, and the same
// vote.
func sameTurn(a, b Turn) bool {
	if a.Kind != b.Kind || a.Kind != 0 && a.Seat != b.Seat {
		return false
	}
	return a.Voidable == b.Voidable && a.Votes == b.Votes && a.Needed == b.Needed && a.Voted == b.Voted &&
		a.Until.Equal(b.Until) && a.CutOff.Equal(b.CutOff) && a.ClockOuts == b.ClockOuts
}

// promptOf is the person's question, or nil.
func (s *PeerSeat) promptOf(v table.PeerView) *Prompt {
	pr := v.Prompt
	if pr == nil || len(pr.Legal) == 0 || v.BotHost >= 0 {
		return nil
	}
	return &Prompt{Seq: pr.Seq, Kind: pr.Legal[0].Kind, View: pr.View, Legal: slices.Clone(pr.Legal)}
}

// seats describes the table's seats now.
func (s *PeerSeat) seats(v table.PeerView) []SeatInfo {
	game := s.p.Game()
	gen := game.Genesis()
	out := make([]SeatInfo, v.Game.Players)
	for seat := range out {
		si := SeatInfo{Who: Person, Host: -1}
		if seat < len(s.cfg.Seats) {
			si = s.cfg.Seats[seat]
		}
		if seat < len(v.Game.Characters) {
			si.Character = v.Game.Characters[seat]
		}
		if si.Name == "" && gen != nil {
			si.Name = gen.Name(seat)
		}
		if h := game.HostOf(seat); h >= 0 {
			si.Who, si.Host = HostedBot, h
		} else if seat == s.you {
			si.Who = You
		}
		out[seat] = si
	}
	return out
}

// rounds is the game's number of rounds as the table plays it.
func (s *PeerSeat) rounds(g engine.View) int {
	if s.cfg.Rounds > 0 {
		return s.cfg.Rounds
	}
	return g.Rounds
}

// Choose hands the person's answer to the peer; see Seat. The peer posts
// it from its own goroutine.
func (s *PeerSeat) Choose(seq uint64, a engine.Action) error {
	if s.hasLeft() {
		return ErrLeft
	}
	v := s.p.View()
	if v.BotHost >= 0 || v.Prompt == nil || v.Prompt.Seq != seq {
		return fmt.Errorf("%w: question %d is not open", ErrWithdrawn, seq)
	}
	// Taken as answered before the move goes: the peer may drop the
	// question the moment it has the move.
	s.mu.Lock()
	before := s.answered
	s.answered = question{seq, v.Prompt.Head}
	s.mu.Unlock()
	if err := s.p.Submit(a); err != nil {
		s.mu.Lock()
		s.answered = before
		s.mu.Unlock()
		// An answer already on its way closes the question as surely as
		// the table moving on.
		if now := s.p.View().Prompt; now == nil || now.Seq != seq || errors.Is(err, table.ErrMovePending) {
			return fmt.Errorf("%w: %w", ErrWithdrawn, err)
		}
		return fmt.Errorf("%w: %w", ErrIllegal, err)
	}
	return nil
}

// VoteVoid votes to void the round of the silent seat the table waits
// for; it returns an error wrapping ErrCannotVote unless the last Turn's
// Voidable holds.
func (s *PeerSeat) VoteVoid() error {
	if s.hasLeft() {
		return ErrLeft
	}
	if err := s.p.VoteVoid(); err != nil {
		return fmt.Errorf("%w: %w", ErrCannotVote, err)
	}
	return nil
}

// Leave ends the person's part: a Next that waits returns ErrLeft. The
// peer and its store are the caller's: the seat can be resumed.
func (s *PeerSeat) Leave() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.left {
		s.left = true
		close(s.leftCh)
	}
	return nil
}

// plays are the plays of the deal in order: the completed tricks', then
// the trick's under way.
func plays(g engine.View) []engine.Play {
	var out []engine.Play
	for _, t := range g.Tricks {
		out = append(out, t.Plays...)
	}
	return append(out, g.Trick.Plays...)
}

// hidden is another seat's discard or pass, without its cards.
func hidden(k engine.Kind, seat int) engine.Action {
	return engine.Action{Kind: k, Seat: seat, Hidden: true, Card: engine.NoCard,
		Cards: [2]engine.Card{engine.NoCard, engine.NoCard}}
}

// actionKind is the move a table kind posts, or 0 for the table's work.
func actionKind(k tablelog.Kind) engine.Kind {
	switch k {
	case tablelog.KindBlock:
		return engine.ActBlock
	case tablelog.KindTeam:
		return engine.ActTeam
	case tablelog.KindDiscardCommit:
		return engine.ActDiscard
	case tablelog.KindPassCommit:
		return engine.ActPass
	case tablelog.KindPlay:
		return engine.ActPlay
	}
	return 0
}

// violationOf names the seat and check of a table violation.
func violationOf(err error) *Violation {
	var v *table.Violation
	if !errors.As(err, &v) || v == nil {
		return nil
	}
	return &Violation{Seat: v.Seat, Check: v.Check}
}

// resultOfTable is a table's audited round as a RoundResult.
func resultOfTable(r table.RoundResult) RoundResult {
	return RoundResult{
		Round: r.Round, Dealer: r.Dealer, Rules: r.Rules,
		Teams:  [2][]int{slices.Clone(r.Teams[0]), slices.Clone(r.Teams[1])},
		Tricks: r.Tricks, Loot: r.Loot, Bonus: r.Bonus,
		Points: slices.Clone(r.Points), Totals: slices.Clone(r.Totals),
	}
}
