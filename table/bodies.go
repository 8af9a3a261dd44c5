package table

import (
	"encoding/binary"
	"fmt"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/engine"
)

// BodyVersion is the version byte that starts every body of the game
// protocol. A new layout of any body gets a new number.
const BodyVersion = 1

// Domain strings of the game protocol's hashes.
const (
	genesisDomain = "njet/table/v1/genesis\x00"
	choiceDomain  = "njet/table/v1/choice\x00"
)

// maxSealedSize bounds one encoded crypto.Sealed inside a body.
const maxSealedSize = 1 << 10

// writer appends the fields of a body.
type writer struct{ b []byte }

func newWriter() *writer        { return &writer{b: []byte{BodyVersion}} }
func (w *writer) u8(v int)      { w.b = append(w.b, byte(v)) }
func (w *writer) u16(v int)     { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) u64(v uint64)  { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) raw(v []byte)  { w.b = append(w.b, v...) }
func (w *writer) blob(v []byte) { w.u16(len(v)); w.raw(v) }
func (w *writer) bytes() []byte { return w.b }
func (w *writer) flag(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}
func (w *writer) marshal(m marshaler) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	w.blob(b)
	return nil
}

type marshaler interface{ MarshalBinary() ([]byte, error) }

// reader takes the fields of a body strictly: the first failure sticks and
// finish reports it, or trailing bytes.
type reader struct {
	b    []byte
	kind Kind
	err  error
}

func newReader(kind Kind, b []byte) *reader {
	r := &reader{b: b, kind: kind}
	if len(b) == 0 {
		r.fail("empty body")
		return r
	}
	if b[0] != BodyVersion {
		r.err = fmt.Errorf("%w: %v body version %d", ErrUnknownVersion, kind, b[0])
		return r
	}
	r.b = b[1:]
	return r
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %v body: %s", ErrMalformed, r.kind, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.fail("truncated")
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() int     { return int(r.take(1)[0]) }
func (r *reader) u16() int    { return int(binary.BigEndian.Uint16(r.take(2))) }
func (r *reader) u64() uint64 { return binary.BigEndian.Uint64(r.take(8)) }
func (r *reader) flag() bool {
	v := r.u8()
	if v > 1 {
		r.fail("flag %d", v)
	}
	return v == 1
}
func (r *reader) blob(limit int) []byte {
	n := r.u16()
	if n > limit {
		r.fail("field of %d bytes (limit %d)", n, limit)
		return nil
	}
	return r.take(n)
}

// unmarshal decodes a length-prefixed crypto message into m.
func (r *reader) unmarshal(m interface{ UnmarshalBinary([]byte) error }, limit int) {
	b := r.blob(limit)
	if r.err != nil {
		return
	}
	if err := m.UnmarshalBinary(b); err != nil {
		r.err = fmt.Errorf("%w: %v body: %w", ErrMalformed, r.kind, err)
	}
}

func (r *reader) finish() error {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d trailing bytes", len(r.b))
	}
	return r.err
}

// Genesis is the table's setup, the body of the envelope at seq 0. Seat 0
// is the creator, who signs it; every other seat acknowledges it.
type Genesis struct {
	Edition    engine.Edition
	Characters []engine.Character // one per seat, distinct; its length is the player count
	Keys       []Identity         // each seat's Ed25519 key, distinct
	// FirstDealer deals the first round.
	FirstDealer int
	// Short and Target choose the game's length as in engine.Config.
	Short  bool
	Target int
	// Rounds, when positive, ends the game after that many rounds (a
	// shortened game, e.g. for a demonstration); 0 plays the whole game.
	Rounds int
	// Nonce makes the table id unique even for identical setups.
	Nonce [16]byte
	// Names are the players' names by seat, each as CheckName returns it;
	// nil (or all empty) when nobody gave one. They follow the fields
	// above in an extension of their own (genesisNames), so a genesis
	// without names is encoded as before names existed and every older
	// log still reads and verifies.
	Names []string
	// Game names the game the table plays: GameNjet, the zero value and
	// the only game of older logs, or GameTheGame, whose genesis has a
	// layout of its own (thegame_genesis.go) without the Njet fields
	// above.
	Game GameName
	// Extreme plays The Game with its command cards; Commands is then the
	// version of the assignment of commands to cards
	// (thegame.AssignmentVersion), and 0 in the base game.
	Extreme  bool
	Commands int
}

// genesisNames is the version of the genesis extension that carries the
// players' names: the byte 1, then one length-prefixed name per seat.
// A genesis whose names are all empty has no extension.
const genesisNames = 1

// Name returns the name of seat s, or "" when it has none.
func (g *Genesis) Name(s int) string {
	if s < 0 || s >= len(g.Names) {
		return ""
	}
	return g.Names[s]
}

// named reports whether any seat has a name.
func (g *Genesis) named() bool {
	for _, n := range g.Names {
		if n != "" {
			return true
		}
	}
	return false
}

// Players is the number of seats.
func (g *Genesis) Players() int { return len(g.Keys) }

// EngineConfig returns the rules engine's configuration for the game.
func (g *Genesis) EngineConfig() engine.Config {
	return engine.Config{Edition: g.Edition, Players: len(g.Keys), Characters: g.Characters,
		FirstDealer: g.FirstDealer, Short: g.Short, Target: g.Target}
}

// Validate checks the setup: the engine accepts it, keys are distinct.
func (g *Genesis) Validate() error {
	if g.Game != GameNjet {
		return g.validateTheGame()
	}
	if g.Extreme || g.Commands != 0 {
		return fmt.Errorf("%w: a Njet genesis with The Game's commands", ErrMalformed)
	}
	n := len(g.Keys)
	if n < crypto.MinParties || n > crypto.MaxParties || len(g.Characters) != n {
		return fmt.Errorf("%w: genesis with %d keys and %d characters", ErrMalformed, n, len(g.Characters))
	}
	for i := range g.Keys {
		for j := range i {
			if g.Keys[i] == g.Keys[j] {
				return fmt.Errorf("%w: genesis seats %d and %d share a key", ErrMalformed, j, i)
			}
		}
	}
	if g.Target < 0 || g.Target > 0xFFFF || g.Rounds < 0 || g.Rounds > 0xFF {
		return fmt.Errorf("%w: genesis target %d, rounds %d", ErrMalformed, g.Target, g.Rounds)
	}
	if _, err := engine.NewGame(g.EngineConfig()); err != nil {
		return fmt.Errorf("%w: genesis: %w", ErrMalformed, err)
	}
	if len(g.Names) != 0 && len(g.Names) != n {
		return fmt.Errorf("%w: genesis with %d names for %d seats", ErrMalformed, len(g.Names), n)
	}
	for s, name := range g.Names {
		c, err := CheckName(name)
		if err != nil {
			return fmt.Errorf("%w: genesis name of seat %d: %w", ErrMalformed, s, err)
		}
		if c != name {
			return fmt.Errorf("%w: genesis name of seat %d has spaces at an end", ErrMalformed, s)
		}
	}
	return nil
}

// MarshalBinary encodes the genesis body.
func (g *Genesis) MarshalBinary() ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if g.Game == GameTheGame {
		return g.marshalTheGame(), nil
	}
	w := newWriter()
	w.u8(int(g.Edition))
	w.u8(len(g.Keys))
	for s := range g.Keys {
		w.u8(int(g.Characters[s]))
		w.raw(g.Keys[s][:])
	}
	w.u8(g.FirstDealer)
	w.flag(g.Short)
	w.u16(g.Target)
	w.u8(g.Rounds)
	w.raw(g.Nonce[:])
	if g.named() {
		w.u8(genesisNames)
		for _, name := range g.Names {
			w.blob([]byte(name))
		}
	}
	return w.bytes(), nil
}

// ParseGenesis decodes and validates a genesis body.
func ParseGenesis(body []byte) (*Genesis, error) {
	if len(body) > 0 && body[0] == genesisTheGameVersion {
		return parseTheGameGenesis(body)
	}
	r := newReader(KindGenesis, body)
	g := &Genesis{Edition: engine.Edition(r.u8())}
	n := r.u8()
	if n > crypto.MaxParties {
		r.fail("%d seats", n)
	}
	for range n {
		if r.err != nil {
			break
		}
		g.Characters = append(g.Characters, engine.Character(r.u8()))
		var id Identity
		copy(id[:], r.take(32))
		g.Keys = append(g.Keys, id)
	}
	g.FirstDealer = r.u8()
	g.Short = r.flag()
	g.Target = r.u16()
	g.Rounds = r.u8()
	copy(g.Nonce[:], r.take(16))
	if r.err == nil && len(r.b) > 0 {
		if v := r.u8(); v != genesisNames {
			r.fail("genesis extension %d", v)
		}
		for range n {
			if r.err != nil {
				break
			}
			g.Names = append(g.Names, string(r.blob(MaxNameBytes)))
		}
		if r.err == nil && !g.named() {
			r.fail("genesis names all empty")
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// TableIDOf returns the table id that a genesis body names: SHA-256 of a
// domain string and the body. A table id thus commits to its setup, and a
// log can be checked from its own first envelope.
func TableIDOf(genesisBody []byte) TableID {
	return domainHash(genesisDomain, genesisBody)
}

// choice is a seat's hidden discard or pass: the deck positions it chose
// and the salt of its commitment.
type choice struct {
	Positions []int
	Salt      [32]byte
}

// commitment is the hash a DiscardCommit or PassCommit publishes.
func (c *choice) commitment(table TableID, deal uint64, seat int, kind Kind) [32]byte {
	positions := []byte{byte(seat), byte(kind), byte(len(c.Positions))}
	for _, p := range c.Positions {
		positions = append(positions, byte(p))
	}
	return domainHash(choiceDomain, table[:], binary.BigEndian.AppendUint64(nil, deal), positions, c.Salt[:])
}

func (c *choice) encode(w *writer) {
	w.u8(len(c.Positions))
	for _, p := range c.Positions {
		w.u8(p)
	}
	if len(c.Positions) > 0 {
		w.raw(c.Salt[:])
	}
}

func (c *choice) decode(r *reader) {
	n := r.u8()
	if n > 2 {
		r.fail("%d chosen positions", n)
		return
	}
	c.Positions = nil
	for range n {
		c.Positions = append(c.Positions, r.u8())
	}
	if n == 2 && c.Positions[0] >= c.Positions[1] {
		r.fail("positions not in increasing order")
	}
	if n > 0 {
		copy(c.Salt[:], r.take(32))
	}
}

// Bodies of the other kinds. Each encoder and decoder pair is strict: one
// value, one encoding.

func ackBody(genesis Hash) []byte {
	w := newWriter()
	w.raw(genesis[:])
	return w.bytes()
}

func parseAck(body []byte) (Hash, error) {
	r := newReader(KindAck, body)
	var h Hash
	copy(h[:], r.take(32))
	return h, r.finish()
}

// cryptoBody wraps one crypto message: version, then its encoding.
func cryptoBody(m marshaler) ([]byte, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return append([]byte{BodyVersion}, b...), nil
}

func parseCrypto(kind Kind, body []byte, m interface{ UnmarshalBinary([]byte) error }) error {
	r := newReader(kind, body)
	if r.err != nil {
		return r.err
	}
	if err := m.UnmarshalBinary(r.b); err != nil {
		return fmt.Errorf("%w: %v body: %w", ErrMalformed, kind, err)
	}
	return nil
}

func dealBody(sealed []*crypto.Sealed) ([]byte, error) {
	w := newWriter()
	w.u16(len(sealed))
	for _, s := range sealed {
		if err := w.marshal(s); err != nil {
			return nil, err
		}
	}
	return w.bytes(), nil
}

func parseDeal(body []byte) ([]crypto.Sealed, error) {
	r := newReader(KindDealTokens, body)
	n := r.u16()
	if n > crypto.MaxParties*crypto.MaxCards {
		r.fail("%d sealed tokens", n)
	}
	var out []crypto.Sealed
	for i := 0; i < n && r.err == nil; i++ {
		var s crypto.Sealed
		r.unmarshal(&s, maxSealedSize)
		out = append(out, s)
	}
	return out, r.finish()
}

func blockBody(row engine.Row, field engine.Field) []byte {
	w := newWriter()
	w.u8(int(row))
	w.u8(int(field))
	return w.bytes()
}

func parseBlock(body []byte) (engine.Row, engine.Field, error) {
	r := newReader(KindBlock, body)
	row, field := engine.Row(r.u8()), engine.Field(r.u8())
	return row, field, r.finish()
}

// teamBody encodes a team choice; the bonus seat is 0xFF for none.
func teamBody(partners uint8, bonus int) []byte {
	w := newWriter()
	w.u8(int(partners))
	if bonus < 0 {
		bonus = 0xFF
	}
	w.u8(bonus)
	return w.bytes()
}

func parseTeam(body []byte) (uint8, int, error) {
	r := newReader(KindTeam, body)
	partners, bonus := uint8(r.u8()), r.u8()
	if bonus == 0xFF {
		bonus = -1
	}
	return partners, bonus, r.finish()
}

func commitBody(c [32]byte, forward *crypto.Sealed) ([]byte, error) {
	w := newWriter()
	w.raw(c[:])
	if forward != nil {
		if err := w.marshal(forward); err != nil {
			return nil, err
		}
	}
	return w.bytes(), nil
}

func parseCommit(kind Kind, body []byte) ([32]byte, *crypto.Sealed, error) {
	r := newReader(kind, body)
	var c [32]byte
	copy(c[:], r.take(32))
	var fwd *crypto.Sealed
	if kind == KindPassCommit {
		fwd = new(crypto.Sealed)
		r.unmarshal(fwd, maxSealedSize)
	}
	return c, fwd, r.finish()
}

func revealBody(rv *crypto.Reveal, c *choice) ([]byte, error) {
	w := newWriter()
	if err := w.marshal(rv); err != nil {
		return nil, err
	}
	c.encode(w)
	return w.bytes(), nil
}

func parseReveal(body []byte) (*crypto.Reveal, *choice, error) {
	r := newReader(KindReveal, body)
	rv := new(crypto.Reveal)
	r.unmarshal(rv, 256)
	c := new(choice)
	c.decode(r)
	return rv, c, r.finish()
}

func voteBody(seq uint64) []byte {
	w := newWriter()
	w.u64(seq)
	return w.bytes()
}

func parseVote(body []byte) (uint64, error) {
	r := newReader(KindVoidVote, body)
	seq := r.u64()
	return seq, r.finish()
}

func botSeatBody(seat int, key Identity) []byte {
	w := newWriter()
	w.u8(seat)
	w.raw(key[:])
	return w.bytes()
}

func parseBotSeat(body []byte) (int, Identity, error) {
	r := newReader(KindBotSeat, body)
	seat := r.u8()
	var key Identity
	copy(key[:], r.take(32))
	return seat, key, r.finish()
}

func abandonBody(silent int) []byte {
	w := newWriter()
	w.u8(silent)
	return w.bytes()
}

func parseAbandon(body []byte) (int, error) {
	r := newReader(KindAbandon, body)
	seat := r.u8()
	return seat, r.finish()
}

// complaint is the body of a Complaint: the sealed message that does not
// open for the complainer (its kind, sender and position; the recipient is
// the envelope's author) and the complainer's round secrets.
type complaint struct {
	kind   crypto.SealKind
	from   int
	pos    int
	reveal *crypto.Reveal
}

func complaintBody(c *complaint) ([]byte, error) {
	w := newWriter()
	w.u8(int(c.kind))
	w.u8(c.from)
	w.u8(c.pos)
	if err := w.marshal(c.reveal); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

func parseComplaint(body []byte) (*complaint, error) {
	r := newReader(KindComplaint, body)
	c := &complaint{kind: crypto.SealKind(r.u8()), from: r.u8(), pos: r.u8(), reveal: new(crypto.Reveal)}
	if r.err == nil && c.kind != crypto.SealDeal && c.kind != crypto.SealForward {
		r.fail("seal kind %d", c.kind)
	}
	r.unmarshal(c.reveal, 256)
	return c, r.finish()
}
