package table

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"slices"

	"github.com/njetlan/njet/tablelog"
)

// Taking a seat from its device, in the log (docs/protocol.md, "Voiding a
// round" and "Taking over the seats of a device gone"), alike for every
// game. After a cheat every other seat votes the round void (VoidVote) and
// the first of them seats a bot in the cheater's place (BotSeat), unless
// the game's cheats end the table. When the seat entitled next stays
// silent, the devices still there sign SilenceVotes outside the log and
// one of them posts them as the certificate of a VoidSilent, which hands
// every seat without a vote to a bot hosted by its device; at a table of
// two of a competitive game the other seat ends the game instead
// (Abandon). What either voids of the round in progress is the game's own
// (rules.void): Njet deals the round again, The Game the cards not yet
// played.

// fence is what a peer's own SilenceVote binds it to.
type fence struct {
	seq   uint64
	seat  int
	allow tablelog.Hash // the decider's envelope of the silent seat at seq, once seen
}

// voidable reports whether the seat entitled now may be taken over for
// staying silent: with no violation pending, from the acknowledgements to
// the last reveal of a deal, while the game can still deal again. Any
// seat qualifies, a bot (its host is the device gone) or a bot's host (its
// bots go with it) included. At a table of two of a competitive game only
// during a deal, where the answer is an Abandon.
func (g *Game) voidable(seat int) bool {
	if g.gen == nil || seat < 0 || seat >= g.n || g.n < 2 {
		return false
	}
	if g.halt != nil {
		// A cheat being voted on: a voter gone for good would stall the
		// vote, so its silence is taken over like any other (the seat at
		// fault goes to a bot in the same envelope, never handed back).
		// At two seats the only vote is the other seat's own.
		return !g.stopped() && g.n > 2 && seat != g.halt.Seat
	}
	switch {
	case g.st == stAcks:
		return g.n > 2 || !g.rules.traits().abandonAtTwo
	case g.st >= stKeys && g.st <= stReveal:
		return g.rd != nil && g.rules.redealable()
	}
	return false
}

// decider is the seat that ends a two-seat game for the silent seat: the
// other one.
func decider(silent int) int {
	if silent == 0 {
		return 1
	}
	return 0
}

// voters are the seats that vote to void a halted round: every seat but
// the one at fault, in seat order. The first of them hosts the bot.
func (g *Game) voters() []int {
	var out []int
	for s := range g.n {
		if s != g.halt.Seat {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) applyVote(body []byte) error {
	seq, err := parseVote(body)
	if err != nil {
		return err
	}
	if g.halt == nil || seq != g.halt.Seq {
		return fmt.Errorf("%w: a vote on seq %d and no violation there", tablelog.ErrMalformed, seq)
	}
	g.votes++
	if g.n == 2 {
		// The only other seat has voted: it would host the cheater's bot
		// and play against a hand it sees. The game ends instead.
		g.abandon(g.halt)
	}
	return nil
}

// abandon ends a two-seat game for v (a silent seat or a cheat): the
// voided deal is rolled back, what was scored before stands, and nobody
// wins.
func (g *Game) abandon(v *Violation) {
	g.voided = append(g.voided, v)
	g.abandoned = v
	g.halt, g.votes = nil, 0
	g.st = stOver
	g.rules.void(v)
}

// applyAbandon ends a two-seat game whose entitled seat stays silent: the
// other seat (the decider, as Entitled allows) posts it in its place.
// There is no certificate to check: with two seats the decider's own word
// is all there could be, which is why the outcome gives it nothing — no
// bot, no hand to see, no win.
func (g *Game) applyAbandon(env *tablelog.Envelope) error {
	silent, err := parseAbandon(env.Body)
	if err != nil {
		return err
	}
	abandons := g.n == 2 && g.rules.traits().abandonAtTwo
	seat, err := g.silentSeat(env, silent, abandons && int(env.Author) == decider(silent), "abandons for")
	if err != nil {
		return err
	}
	g.abandon(&Violation{Seq: env.Seq, Seat: seat, Check: CheckSilent, Err: ErrSilent})
	return nil
}

// silentSeat checks that the seat silent, which env's author takes over
// (verb), is the seat entitled now and may be taken over, and that ok, the
// kind's own condition, holds; it returns the seat.
func (g *Game) silentSeat(env *tablelog.Envelope, silent int, ok bool, verb string) (int, error) {
	seat, _, err := g.turn()
	if err != nil {
		return 0, err
	}
	if !ok || silent != seat || !g.voidable(seat) {
		return 0, fmt.Errorf("%w: seat %d %s seat %d at seq %d, seat %d is entitled", ErrVote, env.Author, verb, silent, env.Seq, seat)
	}
	return seat, nil
}

// applyBotSeat voids the halted round: the seat at fault gets the bot's
// key for the rest of the game, hosted by the author, and the game's
// rules void the round.
func (g *Game) applyBotSeat(author int, body []byte) error {
	seat, key, err := parseBotSeat(body)
	if err != nil {
		return err
	}
	if g.halt == nil || seat != g.halt.Seat || slices.Contains(g.keys, key) {
		return fmt.Errorf("%w: a bot for seat %d with a key already seated", tablelog.ErrMalformed, seat)
	}
	cheat := g.halt
	g.voided = append(g.voided, cheat)
	g.halt, g.votes = nil, 0
	g.seatBots([]takenSeat{{seat: seat, bot: key}}, author)
	g.handable[seat] = false // a cheater's seat is never handed back
	g.rules.void(cheat)
	return nil
}

// seatBots gives each taken seat its bot, hosted by the peer of seat
// author.
func (g *Game) seatBots(taken []takenSeat, author int) {
	host := g.peerOf(author)
	for _, t := range taken {
		g.keys[t.seat] = t.bot
		g.botHost[t.seat] = host
	}
}

// applyVoidSilent takes over the seats of the devices gone: the seat
// entitled at this seq stays silent, and the certificate carries a vote
// from every seat still played, each for this table, seq and previous
// envelope and against the entitled seat. Every seat without a vote (the
// silent one first) gets the bot key the body names, hosted by the
// decider's device; the decider (the author) is one of the voters,
// normally the lowest (see Peer.decider). The game's rules then void what
// the round in progress hid.
func (g *Game) applyVoidSilent(env *tablelog.Envelope) (*Violation, error) {
	vs, err := parseVoidSilent(env.Body)
	if err != nil {
		return nil, err
	}
	seat, err := g.silentSeat(env, vs.silent, g.n != 2 || !g.rules.traits().abandonAtTwo, "voids")
	if err != nil {
		return nil, err
	}
	if err := g.checkCertificate(vs, env.Prev); err != nil {
		return nil, err
	}
	if !slices.Contains(vs.voters(), int(env.Author)) {
		return nil, fmt.Errorf("%w: seat %d posts a void it did not vote for", ErrVote, env.Author)
	}
	// A device that is there is not gone: a takeover of a seat it plays,
	// voted by no strict majority of the seats, is refused (a majority
	// would win any comparison of branches, Peer.checkDiverged, so the
	// guard lets it through at once).
	if g.guard != nil && 2*len(vs.votes) <= g.n && env.Hash() != g.guardAllow {
		for _, t := range vs.taken {
			if g.keys[g.peerOf(t.seat)] == *g.guard {
				return nil, fmt.Errorf("%w: the void at seq %d takes over seat %d, which this device plays", ErrFenced, env.Seq, t.seat)
			}
		}
	}
	if g.halt != nil {
		// A voter went silent during the vote on a cheat: the round is
		// void for the cheat, as the vote would have made it, and the
		// seat at fault, which cannot vote, is among the seats taken.
		cheat := g.halt
		g.voided = append(g.voided, cheat)
		g.halt, g.votes = nil, 0
		g.seatBots(vs.taken, int(env.Author))
		for _, t := range vs.taken {
			g.handable[t.seat] = t.seat != cheat.Seat
		}
		g.rules.void(cheat)
		return nil, nil
	}
	if len(vs.taken) == 1 && g.recoverSeat(seat) {
		// One seat gone, whose secret is in escrow: the round goes on,
		// its bot playing the cards the escrow recovers.
		g.seatBots(vs.taken, int(env.Author))
		g.handable[seat] = true
		return g.recover(env.Seq, seat), nil
	}
	v := &Violation{Seq: env.Seq, Seat: seat, Check: CheckSilent, Err: ErrSilent}
	if g.st == stReveal && g.n > 2 && !vs.departed() {
		// The play is over: the reveal is what lets the others audit
		// this seat's hand, so a device that is there and refuses it is
		// how a cheat the audit would catch escapes it. It is recorded
		// as a cheat. A device gone (a voter says so) only left. At two
		// seats the one other seat could have voted right after its own
		// reveal: the seat is named silent only.
		v.Check, v.Err = CheckWithheld, ErrWithheld
	}
	g.voided = append(g.voided, v)
	g.seatBots(vs.taken, int(env.Author))
	for _, t := range vs.taken {
		// A seat taken over for silence may be handed back; the seat of
		// a withheld reveal, a cheat, may not.
		g.handable[t.seat] = !(t.seat == seat && v.Check == CheckWithheld)
	}
	g.rules.void(v)
	return nil, nil
}

// checkCertificate checks a VoidSilent's certificate against the state at
// seq g.next, whose previous envelope hashes to prev: at least one vote,
// voters in increasing seat order, each vote valid (checkVote); the seats
// taken are exactly the seats without a vote; a device takes all its
// seats with it (a voter's host votes, a taken seat's host is taken); and
// every bot key is new.
func (g *Game) checkCertificate(vs *voidSilent, prev tablelog.Hash) error {
	if len(vs.votes) == 0 {
		return fmt.Errorf("%w: a void without votes", ErrVote)
	}
	voted := make([]bool, g.n)
	for i, v := range vs.votes {
		if i > 0 && v.Voter <= vs.votes[i-1].Voter {
			return fmt.Errorf("%w: vote %d is seat %d's, after seat %d's", ErrVote, i, v.Voter, vs.votes[i-1].Voter)
		}
		if err := g.checkVote(v, prev); err != nil {
			return err
		}
		voted[v.Voter] = true
	}
	var want []int
	for s := range g.n {
		if !voted[s] {
			want = append(want, s)
		}
	}
	if len(vs.taken) != len(want) {
		return fmt.Errorf("%w: %d seats taken over, %d seats have no vote", ErrVote, len(vs.taken), len(want))
	}
	keys := map[tablelog.Identity]bool{}
	for i, t := range vs.taken {
		if t.seat != want[i] {
			return fmt.Errorf("%w: seat %d taken over, seat %d has no vote", ErrVote, t.seat, want[i])
		}
		if slices.Contains(g.keys, t.bot) || slices.Contains(g.gen.Keys, t.bot) || keys[t.bot] {
			return fmt.Errorf("%w: a bot for seat %d with a key already seated", tablelog.ErrMalformed, t.seat)
		}
		keys[t.bot] = true
	}
	for s := range g.n {
		if h := g.peerOf(s); voted[s] != voted[h] {
			return fmt.Errorf("%w: seat %d and its host, seat %d, are not both present or both gone", ErrVote, s, h)
		}
	}
	return nil
}

// presentVotes keeps the votes whose voter's host has voted too: a device
// is present with all its seats or gone with all of them.
func (g *Game) presentVotes(votes []*SilenceVote) []*SilenceVote {
	g.mu.Lock()
	defer g.mu.Unlock()
	voted := map[int]bool{}
	for _, v := range votes {
		voted[int(v.Voter)] = true
	}
	var out []*SilenceVote
	for _, v := range votes {
		if voted[g.peerOf(int(v.Voter))] {
			out = append(out, v)
		}
	}
	return out
}

// checkVote checks a SilenceVote against the state at seq g.next, whose
// previous envelope hashes to prev: the seat it names must be entitled
// and voidable, the voter another seat, the signature the voter's key's.
func (g *Game) checkVote(v *SilenceVote, prev tablelog.Hash) error {
	if g.gen == nil {
		return fmt.Errorf("%w: before the genesis", ErrVote)
	}
	if v.Table != g.cfg.Table || v.Seq != g.next || v.Prev != prev {
		return fmt.Errorf("%w: a vote for seq %d of table %v, this log is at %d of %v", ErrVote, v.Seq, v.Table, g.next, g.cfg.Table)
	}
	seat, _, err := g.turn()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	if int(v.Silent) != seat || !g.voidable(seat) {
		return fmt.Errorf("%w: a vote against seat %d, seat %d is entitled at seq %d", ErrVote, v.Silent, seat, v.Seq)
	}
	if int(v.Voter) >= g.n || v.Voter == v.Silent {
		return fmt.Errorf("%w: voter seat %d", ErrVote, v.Voter)
	}
	if g.halt != nil && int(v.Voter) == g.halt.Seat {
		return fmt.Errorf("%w: seat %d, at fault at seq %d, has no vote", ErrVote, v.Voter, g.halt.Seq)
	}
	if err := v.Verify(g.keys[v.Voter]); err != nil {
		return fmt.Errorf("%w: %w", ErrVote, err)
	}
	return nil
}

// CheckVote checks a SilenceVote against the state of the game at seq
// Next(), given the hash of the log's envelope before it.
func (g *Game) CheckVote(v *SilenceVote, prev tablelog.Hash) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checkVote(v, prev)
}

// draftVoidSilent builds the VoidSilent the decider posts at seq with the
// certificate votes (any order, one per voter): every seat without a vote
// gets a bot, whose key seeds are the secrets to store first. The decider
// must be the lowest voter. It changes no state.
func (g *Game) draftVoidSilent(seq uint64, prev tablelog.Hash, votes []*SilenceVote, rnd io.Reader) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	silent, err := g.silentAt(seq)
	if err != nil {
		return nil, err
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
	d := &draft{seq: seq, kind: tablelog.KindVoidSilent, secrets: map[string][]byte{}}
	var taken []takenSeat
	for s := range g.n {
		if voted[s] {
			continue
		}
		id, err := d.botKey(s, rnd)
		if err != nil {
			return nil, err
		}
		taken = append(taken, takenSeat{seat: s, bot: id})
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

// silentAt returns the seat entitled at seq, which a draft takes over,
// once the game is at seq and the seat may be taken over.
func (g *Game) silentAt(seq uint64) (int, error) {
	if seq != g.next {
		return 0, fmt.Errorf("table: draft for seq %d, the game is at %d", seq, g.next)
	}
	silent, _, err := g.turn()
	if err != nil {
		return 0, err
	}
	if !g.voidable(silent) {
		return 0, fmt.Errorf("table: seat %d cannot be taken over now", silent)
	}
	return silent, nil
}

// botKey draws the signing key of the bot that takes seat, keeps its seed
// among the secrets to store before the draft is posted and returns its
// identity.
func (d *draft) botKey(seat int, rnd io.Reader) (tablelog.Identity, error) {
	var seed [ed25519.SeedSize]byte
	if _, err := io.ReadFull(rnd, seed[:]); err != nil {
		return tablelog.Identity{}, err
	}
	id, err := tablelog.IdentityOf(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
	if err != nil {
		return tablelog.Identity{}, err
	}
	d.secrets[botKeyName(seat)] = seed[:]
	return id, nil
}

// botKeyName names the stored signing key seed of a hosted bot seat.
func botKeyName(seat int) string { return fmt.Sprintf("bot-key/%d", seat) }

// draftAbandon builds the Abandon the other seat of a two-seat table posts
// at seq in the silent seat's place. It changes no state.
func (g *Game) draftAbandon(seq uint64) (*draft, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	silent, err := g.silentAt(seq)
	if err != nil {
		return nil, err
	}
	if g.n != 2 || !g.rules.traits().abandonAtTwo {
		return nil, fmt.Errorf("table: the game cannot be abandoned for seat %d", silent)
	}
	return &draft{seq: seq, kind: tablelog.KindAbandon, body: abandonBody(silent), secrets: map[string][]byte{}}, nil
}

// setFence binds this game to its peer's vote against seat at seq. It
// reports false, and sets nothing, when the game is already past seq: the
// vote must then not be sent.
func (g *Game) setFence(seq uint64, seat int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next != seq {
		return false
	}
	g.fence = &fence{seq: seq, seat: seat}
	return true
}

// allowFenced lets the fenced seat's envelope with hash h through: the
// decider's log holds it.
func (g *Game) allowFenced(seq uint64, h tablelog.Hash) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence != nil && g.fence.seq == seq {
		g.fence.allow = h
	}
}

// setGuard turns the peer's guard on for its device's key, or off (nil).
func (g *Game) setGuard(key *tablelog.Identity) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.guard = key
}

// allowBranch lets env through the peer's own fence and guard: the peer
// chose the branch that holds it (Peer.checkDiverged).
func (g *Game) allowBranch(env *tablelog.Envelope) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence != nil && g.fence.seq == env.Seq {
		g.fence.allow = env.Hash()
	}
	if env.Kind == tablelog.KindVoidSilent {
		g.guardAllow = env.Hash()
	}
}

// fenced returns the seq and seat of the peer's standing vote, if any.
func (g *Game) fenced() (uint64, int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence == nil {
		return 0, 0, false
	}
	return g.fence.seq, g.fence.seat, true
}
