package seat

import (
	"context"

	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/njetlan/njet/bot"
	"github.com/njetlan/njet/engine"
)

// LocalConfig sets up a game against bots on one device.
type LocalConfig struct {
	Edition engine.Edition
	Players int
	// You is the person's seat.
	You int
	// Names are the seats' names, by seat; empty or short means the front end
	// names the seats itself.
	Names []string
	// Bots are the kinds (bot.Kinds) of the other seats: one per other seat
	// in seat order, or one per seat with the person's entry ignored, or a
	// single kind for all; none means "heuristic".
	Bots []string
	// Seed makes the game reproducible: the first dealer, every deal and the
	// bots' choices come from it.
	Seed uint64
	// Short plays the Classic short game; Target, when positive, plays until
	// a seat reaches that total (engine.Config).
	Short  bool
	Target int
}

// maxSteps bounds the bot moves one call of Next makes before it returns an
// event; every step yields an event, so this only guards against an engine
// that stops moving.
const maxSteps = 1000

// Local is the Seat of a game against bots on one device. Next runs the
// bots on the caller's goroutine; Choose, VoteVoid, Leave and Save may be
// called from others.
type Local struct {
	mu      sync.Mutex
	cfg     LocalConfig
	g       *engine.Game
	src     *rand.PCG // deals
	rng     *rand.Rand
	botSrc  []*rand.PCG // per seat, nil at You
	bots    []bot.Player
	decks   [][]engine.Card
	actions []engine.Action // every move after the deals, in order
	results []RoundResult

	queue  []Event
	synced bool
	prompt *Prompt
	turn   *Turn
	seq    uint64 // counts applied moves; names prompts
	ended  bool   // GameOver queued
	left   bool
	wake   chan struct{} // a choice or Leave while Next waits
}

// NewLocal starts a game. It returns an error wrapping ErrBadConfig for a
// bad configuration.
func NewLocal(cfg LocalConfig) (*Local, error) {
	l, err := newLocal(cfg)
	if err != nil {
		return nil, err
	}
	l.rng = rand.New(l.src)
	first := l.rng.IntN(cfg.Players)
	g, err := engine.NewGame(engine.Config{
		Edition: cfg.Edition, Players: cfg.Players, FirstDealer: first,
		Short: cfg.Short, Target: cfg.Target,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	l.g = g
	for s := range l.bots {
		if s == cfg.You {
			continue
		}
		l.botSrc[s] = rand.NewPCG(l.rng.Uint64(), l.rng.Uint64())
	}
	if err := l.makeBots(); err != nil {
		return nil, err
	}
	return l, nil
}

// newLocal checks cfg and makes the parts that do not depend on the seed.
func newLocal(cfg LocalConfig) (*Local, error) {
	e := cfg.Edition
	if !e.Valid() {
		return nil, fmt.Errorf("%w: unknown edition %d", ErrBadConfig, e)
	}
	if cfg.Players < e.MinPlayers() || cfg.Players > e.MaxPlayers() {
		return nil, fmt.Errorf("%w: the %s edition is for %d to %d players, not %d",
			ErrBadConfig, e, e.MinPlayers(), e.MaxPlayers(), cfg.Players)
	}
	if cfg.You < 0 || cfg.You >= cfg.Players {
		return nil, fmt.Errorf("%w: seat %d is not at a table of %d", ErrBadConfig, cfg.You, cfg.Players)
	}
	if len(cfg.Names) > cfg.Players {
		return nil, fmt.Errorf("%w: %d names for %d seats", ErrBadConfig, len(cfg.Names), cfg.Players)
	}
	switch len(cfg.Bots) {
	case 0, 1, cfg.Players - 1, cfg.Players:
	default:
		return nil, fmt.Errorf("%w: %d bot kinds for %d other seats", ErrBadConfig, len(cfg.Bots), cfg.Players-1)
	}
	cfg.Names = slices.Clone(cfg.Names)
	cfg.Bots = slices.Clone(cfg.Bots)
	return &Local{
		cfg:    cfg,
		src:    rand.NewPCG(cfg.Seed, 0x6e6a6574),
		botSrc: make([]*rand.PCG, cfg.Players),
		bots:   make([]bot.Player, cfg.Players),
		wake:   make(chan struct{}, 1),
	}, nil
}

// botKind is the kind of bot at seat s.
func (l *Local) botKind(s int) string {
	b := l.cfg.Bots
	switch {
	case len(b) == 0:
		return "heuristic"
	case len(b) == 1:
		return b[0]
	case len(b) == l.cfg.Players:
		return b[s]
	case s < l.cfg.You:
		return b[s]
	}
	return b[s-1]
}

func (l *Local) makeBots() error {
	if l.rng == nil {
		l.rng = rand.New(l.src)
	}
	for s := range l.bots {
		if s == l.cfg.You {
			continue
		}
		p, err := bot.New(l.botKind(s), rand.New(l.botSrc[s]))
		if err != nil {
			return fmt.Errorf("%w: seat %d: %w", ErrBadConfig, s, err)
		}
		l.bots[s] = p
	}
	return nil
}

// Next returns the next event; see Seat.
func (l *Local) Next(ctx context.Context) (Event, error) {
	for range maxSteps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l.mu.Lock()
		switch {
		case l.left:
			l.mu.Unlock()
			return nil, ErrLeft
		case !l.synced:
			l.synced = true
			st := l.state()
			l.mu.Unlock()
			return Sync{State: st}, nil
		case len(l.queue) > 0:
			ev := l.queue[0]
			l.queue = l.queue[1:]
			l.mu.Unlock()
			return ev, nil
		case l.ended:
			l.mu.Unlock()
			return nil, io.EOF
		case l.prompt != nil:
			l.mu.Unlock()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-l.wake:
			}
			continue
		}
		err := l.step()
		l.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("seat: the game does not move on")
}

// step moves the game on by one thing: a deal, a bot's move or a question
// to the person. It queues what it tells.
func (l *Local) step() error {
	g := l.g
	switch g.Phase() {
	case engine.PhaseGameOver:
		l.queue = append(l.queue, GameOver{Totals: g.Totals(), Winners: g.Winners()})
		l.ended = true
		return nil
	case engine.PhaseDeal, engine.PhaseRoundOver:
		cfg := g.Config()
		deck := cfg.Edition.Deck(cfg.Players)
		l.rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		if err := g.DealDeck(deck); err != nil {
			return fmt.Errorf("seat: deal round %d: %w", g.Round(), err)
		}
		l.decks = append(l.decks, deck)
		l.seq++
		v := g.View(l.cfg.You)
		l.queue = append(l.queue, Dealt{Round: v.Round, Rounds: v.Rounds, Dealer: v.Dealer, Hand: v.Hand, View: v})
		return nil
	}
	waiting := g.Waiting()
	if len(waiting) == 0 {
		return fmt.Errorf("seat: nobody to act in phase %s", g.Phase())
	}
	s := waiting[0]
	for _, w := range waiting {
		if w != l.cfg.You {
			s = w // bots choose first when several seats choose at once
			break
		}
	}
	legal := g.Legal(s)
	if len(legal) == 0 {
		return fmt.Errorf("seat: seat %d has no legal move in phase %s", s, g.Phase())
	}
	if l.turn == nil || l.turn.Seat != s {
		l.turn = &Turn{Wait: Wait{Seat: s}, Kind: legal[0].Kind}
		l.queue = append(l.queue, *l.turn)
		return nil
	}
	if s == l.cfg.You {
		p := Prompt{Seq: l.seq, Kind: legal[0].Kind, View: g.View(s), Legal: legal}
		l.prompt = &p
		l.queue = append(l.queue, YourTurn{Prompt: p})
		return nil
	}
	v := g.View(s)
	return l.apply(l.bots[s].Act(&v, legal))
}

// apply carries out a legal move and queues what the person learns of it.
func (l *Local) apply(a engine.Action) error {
	g := l.g
	you := l.cfg.You
	before := g.Phase()
	done := len(g.View(you).Tricks)
	rules := g.Rules()
	if err := g.Apply(a); err != nil {
		return fmt.Errorf("seat: seat %d: %w", a.Seat, err)
	}
	l.actions = append(l.actions, a)
	l.seq++
	l.turn = nil
	after := g.View(you)
	shown := a
	if a.Seat != you && (a.Kind == engine.ActDiscard || a.Kind == engine.ActPass) {
		shown = engine.Action{Kind: a.Kind, Seat: a.Seat, Hidden: true, Card: engine.NoCard,
			Cards: [2]engine.Card{engine.NoCard, engine.NoCard}}
	}
	l.queue = append(l.queue, Moved{Action: shown, View: after})
	if before == engine.PhaseNjet && after.Phase != engine.PhaseNjet {
		l.queue = append(l.queue, RulesSet{Rules: after.Rules})
	}
	if before <= engine.PhaseTeams && after.Phase > engine.PhaseTeams {
		l.queue = append(l.queue, TeamsSet{Team: slices.Clone(after.Team), Bonus: after.Bonus})
	}
	if before == engine.PhaseDiscard && after.Phase != engine.PhaseDiscard && after.Received != engine.NoCard {
		l.queue = append(l.queue, PassReceived{From: (you + l.cfg.Players - 1) % l.cfg.Players, Card: after.Received})
	}
	if len(after.Tricks) > done {
		t := after.Tricks[len(after.Tricks)-1]
		l.queue = append(l.queue, TrickWon{N: len(after.Tricks), Trick: t, Why: engine.TrickWin(t, rules)})
	}
	if after.Phase == engine.PhaseRoundOver || after.Phase == engine.PhaseGameOver {
		r := resultOf(g.History())
		l.results = append(l.results, r)
		l.queue = append(l.queue, RoundOver{Result: r, View: after})
	}
	return nil
}

// resultOf turns the engine's history of a scored round into a result.
func resultOf(h engine.RoundHistory) RoundResult {
	return RoundResult{
		Round:  h.Round,
		Dealer: h.Dealer,
		Rules:  h.Rules,
		Teams:  [2][]int{slices.Clone(h.Teams[0]), slices.Clone(h.Teams[1])},
		Tricks: h.Score.Tricks,
		Loot:   h.Score.Loot,
		Bonus:  h.Bonus,
		Points: slices.Clone(h.Score.Points),
		Totals: slices.Clone(h.Totals),
	}
}

// state is the whole State now.
func (l *Local) state() State {
	g := l.g
	st := State{
		View:    g.View(l.cfg.You),
		You:     l.cfg.You,
		Seats:   make([]SeatInfo, l.cfg.Players),
		Rounds:  g.Rounds(),
		Target:  l.cfg.Target,
		Results: slices.Clone(l.results),
		Over:    g.Phase() == engine.PhaseGameOver,
	}
	for s := range st.Seats {
		si := SeatInfo{Character: st.View.Characters[s], Who: Bot, Host: -1}
		if s < len(l.cfg.Names) {
			si.Name = l.cfg.Names[s]
		}
		if s == l.cfg.You {
			si.Who = You
		} else {
			si.Bot = l.bots[s].Name()
		}
		st.Seats[s] = si
	}
	if l.prompt != nil {
		p := *l.prompt
		st.Prompt = &p
	}
	if l.turn != nil {
		t := *l.turn
		st.Turn = &t
	}
	return st
}

// Choose answers the open question; see Seat.
func (l *Local) Choose(seq uint64, a engine.Action) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.left {
		return ErrLeft
	}
	if l.prompt == nil || l.prompt.Seq != seq {
		return fmt.Errorf("%w: question %d is not open", ErrWithdrawn, seq)
	}
	if !slices.Contains(l.prompt.Legal, a) {
		// Legal lists every legal move, so the engine says why this one is not.
		if err := l.g.Clone().Apply(a); err != nil {
			return fmt.Errorf("%w: %w", ErrIllegal, err)
		}
	}
	if a.Seat != l.cfg.You {
		return fmt.Errorf("%w: seat %d answers for seat %d", ErrIllegal, l.cfg.You, a.Seat)
	}
	if err := l.apply(a); err != nil {
		return fmt.Errorf("%w: %w", ErrIllegal, err)
	}
	l.prompt = nil
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return nil
}

// VoteVoid returns ErrCannotVote: no seat of a local game falls silent.
func (l *Local) VoteVoid() error { return ErrCannotVote }

// Leave ends the seat's part; a Next that waits returns ErrLeft. Save still
// works, so the game can be resumed.
func (l *Local) Leave() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.left = true
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return nil
}

// Config returns the game's configuration.
func (l *Local) Config() LocalConfig {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.cfg
	c.Names = slices.Clone(c.Names)
	c.Bots = slices.Clone(c.Bots)
	return c
}

// Totals returns the engine's running totals per seat.
func (l *Local) Totals() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Totals()
}

// Over reports whether the game is over.
func (l *Local) Over() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Phase() == engine.PhaseGameOver
}
