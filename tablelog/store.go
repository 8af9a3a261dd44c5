package tablelog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Store is a peer's crash-safe store: one append-only file per device. For
// each table it holds the log's envelopes by seq, the peer's own secrets
// (opaque blobs by name, such as per-round keys), small metadata and
// equivocation evidence.
//
// The write-ahead rule: a peer makes an envelope (its own or one it
// received) durable with Put, and its own secrets with PutSecret, before it
// sends anything that depends on them — publishing its envelope, answering a
// sync request, revealing a token. Every write is one checksummed record
// appended to the file and fsynced before the call returns, so after a crash
// the store holds everything the peer ever sent, and a restarted peer
// continues from it with the same keys and secrets instead of signing a
// second, different envelope for a seq (which the others would rightly take
// for equivocation).
//
// The file is read whole, record by record, when it is opened; the first
// record that is cut short, fails its checksum or does not continue the
// stored log ends what is kept. A damaged file is never used in place: it is
// kept aside for inspection and the store goes on from a copy of its sound
// prefix, and Damage tells what happened (see docs/storage.md).
//
// A Store is safe for concurrent use.
type Store struct {
	path   string
	opts   StoreOptions
	damage *Damage

	mu     sync.RWMutex
	f      *os.File
	unlock func() error
	size   int64 // the end of the last sound record
	broken error // set when a write could not be undone: no more writes
	tables map[TableID]*storedTable
}

// storedTable is the in-memory index of one table: where each envelope is
// in the file, and the small values themselves.
type storedTable struct {
	offs     []int64
	lens     []uint32
	hashes   []Hash
	secrets  map[string][]storedValue
	meta     map[string][]storedValue
	evidence map[Hash][]byte
}

// storedValue is one write of a secret or metadata value: the value, and
// the length of the stored log when it was written. A value of a branch
// (see branchBound) keeps the values it replaced, so that a rewind can
// bring them back.
type storedValue struct {
	at    uint64
	value []byte
}

// set records a write of name at the current length of the log.
func (t *storedTable) set(values map[string][]storedValue, name string, value []byte) {
	v := storedValue{at: uint64(len(t.offs)), value: value}
	old := values[name]
	if !branchBound(name) || len(old) > 0 && old[len(old)-1].at == v.at {
		old = old[:max(len(old)-1, 0)]
	}
	values[name] = append(old, v)
}

// get returns the latest value of name.
func get(values map[string][]storedValue, name string) ([]byte, bool) {
	vs := values[name]
	if len(vs) == 0 {
		return nil, false
	}
	return vs[len(vs)-1].value, true
}

// MetaSilenceVote is the name of a peer's standing silence vote among its
// metadata: like the secrets of a deal, it belongs to a branch of the log.
const MetaSilenceVote = "silence-vote"

// branchBound reports whether a stored value belongs to the branch of the
// log under which the peer wrote it: its secrets for a deal (round keys,
// hidden choices; at a table of The Game the round secrets), the signing
// keys of the bots it took over, and its standing silence vote. A rewind
// drops such values written at or after the first dropped seq. The names
// are the table protocol's; they are part of the store's format, since a
// store replays its rewinds on open.
func branchBound(name string) bool {
	for _, prefix := range []string{"round-keys/", "choice/", "thegame-keys/", "bot-key/", MetaSilenceVote} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// dropFrom forgets the branch-bound values written while the log held from
// envelopes or more, bringing back the values they replaced.
func dropFrom(values map[string][]storedValue, from uint64) {
	for name, vs := range values {
		i := len(vs)
		for i > 0 && vs[i-1].at >= from && branchBound(name) {
			i--
		}
		if i == 0 {
			delete(values, name)
		} else {
			values[name] = vs[:i]
		}
	}
}

// last returns the hash of the last stored envelope (zero for none).
func (t *storedTable) last() Hash {
	if len(t.hashes) == 0 {
		return Hash{}
	}
	return t.hashes[len(t.hashes)-1]
}

// add indexes the envelope enc stored at off.
func (t *storedTable) add(off int64, enc []byte) {
	t.offs = append(t.offs, off)
	t.lens = append(t.lens, uint32(len(enc)))
	t.hashes = append(t.hashes, hashEncoded(enc))
}

// cut drops the envelopes from seq from on, and with them the secrets and
// the standing vote the peer wrote for that part of the log (branchBound):
// the dropped branch's deals were never dealt on the branch the peer takes
// instead, and a secret kept under the same name (the same deal number and
// seat) would pass there for the peer's own.
func (t *storedTable) cut(from uint64) {
	t.offs, t.lens, t.hashes = t.offs[:from], t.lens[:from], t.hashes[:from]
	dropFrom(t.secrets, from)
	dropFrom(t.meta, from)
}

func newStoredTable() *storedTable {
	return &storedTable{secrets: map[string][]storedValue{}, meta: map[string][]storedValue{}, evidence: map[Hash][]byte{}}
}

// StoreOptions tunes OpenStore.
type StoreOptions struct {
	// LockTimeout is how long OpenStore waits for another process that
	// holds the file (default one second).
	LockTimeout time.Duration
	// NoSync skips fsync on each write. It breaks the write-ahead rule and
	// is only for simulations and tests that do not crash.
	NoSync bool
	// Now dates the name of a damaged file kept aside (default time.Now).
	Now func() time.Time
}

// MaxNameSize bounds secret and metadata names.
const MaxNameSize = 255

// Store file format, version 1 (integers big-endian):
//
//	magic    8 bytes "NJETSTOR"
//	version  1 byte  storeVersion
//	records, each:
//	  length 4 bytes  of the body, at most maxRecord
//	  crc    4 bytes  CRC-32C of the body
//	  body   a type byte, then:
//	         recPut:      count (4 bytes), count × (length (4 bytes), envelope)
//	         recRewind:   table (32 bytes), seq (8 bytes); also drops the
//	                      branch's secrets and vote (see storedTable.cut)
//	         recSecret,
//	         recMeta:     table, name length (1 byte), name, value
//	         recEvidence: table, encoded evidence
const (
	storeMagic   = "NJETSTOR"
	storeVersion = 1
	storeHead    = len(storeMagic) + 1
	recordHead   = 8
	// maxRecord bounds one record: a Put of many envelopes, or one chunk of
	// an import.
	maxRecord = 64 << 20
)

const (
	recPut byte = 1 + iota
	recRewind
	recSecret
	recMeta
	recEvidence
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Damage describes a store file that OpenStore found damaged, kept aside
// and replaced by its sound prefix.
type Damage struct {
	// Path is the store; Aside is where the damaged file was kept.
	Path, Aside string
	// At is the offset of the first unsound byte, Size the file's size.
	At, Size int64
	// Reason says what was wrong at At.
	Reason string
	// Kept lists the tables the store still holds and how many envelopes of
	// each log.
	Kept []KeptTable
}

// KeptTable is a table that a damaged store still holds.
type KeptTable struct {
	Table     TableID
	Envelopes uint64
}

// String says in plain words what was lost and what happens next.
func (d *Damage) String() string {
	var b bytes.Buffer
	name := filepath.Base(d.Path)
	if d.Size == 0 {
		fmt.Fprintf(&b, "the store %s was empty: whatever it held is lost on this device, an unfinished table included", name)
	} else {
		fmt.Fprintf(&b, "the store %s was damaged at byte %d of %d (%s)", name, d.At, d.Size, d.Reason)
	}
	fmt.Fprintf(&b, "; the damaged file is kept as %s.", filepath.Base(d.Aside))
	if len(d.Kept) == 0 {
		b.WriteString(" Nothing before the damage could be kept: this device starts with an empty store, and a table it was playing cannot be resumed from here.")
	} else {
		b.WriteString(" Kept, from before the damage:")
		for _, k := range d.Kept {
			fmt.Fprintf(&b, " table %v (%d envelopes);", k.Table, k.Envelopes)
		}
		b.WriteString(" everything after it is lost on this device. When its table resumes, the log is fetched again from the other devices.")
	}
	b.WriteString(" If this device's secrets for the round in progress were lost, it cannot finish that round: the table treats its seat as silent.")
	return b.String()
}

// OpenStore opens (or creates) the store at path. A damaged file (cut
// short, empty, overwritten, or not a store) does not fail the open: it is
// renamed to path.damaged-<time> and kept, the store goes on from its sound
// prefix, and Damage says what happened. OpenStore fails only when the
// file cannot be read, locked or replaced.
func OpenStore(path string, opts *StoreOptions) (*Store, error) {
	o := StoreOptions{}
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{path: path, opts: o}
	if err := s.open(); err != nil {
		return nil, fmt.Errorf("table: open store %s: %w", path, err)
	}
	return s, nil
}

// Path returns the store's file.
func (s *Store) Path() string { return s.path }

// Damage returns what OpenStore found damaged, or nil when the file was
// sound.
func (s *Store) Damage() *Damage { return s.damage }

// open opens and scans the file, replacing it once by its sound prefix if
// it is damaged.
func (s *Store) open() error {
	if _, err := os.Stat(s.path); errors.Is(err, os.ErrNotExist) {
		if err := s.writeFresh(nil); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	for attempt := range 2 {
		f, err := os.OpenFile(s.path, os.O_RDWR, 0o600)
		if err != nil {
			return err
		}
		unlock, err := lockFile(f, s.opts.LockTimeout)
		if err != nil {
			return errors.Join(err, f.Close())
		}
		sc, err := scanStore(f)
		if err != nil {
			return errors.Join(err, unlock(), f.Close())
		}
		if sc.reason == "" {
			s.f, s.unlock, s.size, s.tables = f, unlock, sc.good, sc.tables
			return nil
		}
		if attempt > 0 {
			return errors.Join(fmt.Errorf("%w: the rewritten store is still unsound: %s", ErrCorrupt, sc.reason), unlock(), f.Close())
		}
		d, err := s.setAside(f, sc)
		if err = errors.Join(err, unlock(), f.Close()); err != nil {
			return err
		}
		s.damage = d
	}
	return nil
}

// setAside copies the sound prefix of the damaged file f into a new file,
// renames f aside and puts the copy in its place.
func (s *Store) setAside(f *os.File, sc *storeScan) (*Damage, error) {
	prefix := make([]byte, max(sc.good-int64(storeHead), 0))
	if _, err := f.ReadAt(prefix, int64(storeHead)); err != nil && len(prefix) > 0 {
		return nil, err
	}
	aside := fmt.Sprintf("%s.damaged-%s", s.path, s.opts.Now().UTC().Format("20060102-150405.000000000"))
	d := &Damage{Path: s.path, Aside: aside, At: sc.good, Size: sc.size, Reason: sc.reason}
	for _, id := range sortedTables(sc.tables) {
		d.Kept = append(d.Kept, KeptTable{Table: id, Envelopes: uint64(len(sc.tables[id].offs))})
	}
	if err := os.Rename(s.path, aside); err != nil {
		return nil, err
	}
	return d, s.writeFresh(prefix)
}

// writeFresh creates the store file with the header and body, atomically:
// written and fsynced under a temporary name, then renamed.
func (s *Store) writeFresh(body []byte) error {
	tmp := s.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	data := append([]byte(storeMagic), storeVersion)
	data = append(data, body...)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(s.path))
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, os.ErrInvalid) {
		err = nil // some file systems cannot sync a directory
	}
	return errors.Join(err, d.Close())
}

// storeScan is what scanning a store file found.
type storeScan struct {
	tables map[TableID]*storedTable
	size   int64  // the file's size
	good   int64  // the end of the last sound record
	reason string // why the scan stopped before size, "" if it did not
}

// scanStore reads the whole file and indexes its sound records.
func scanStore(f *os.File) (*storeScan, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	sc := &storeScan{tables: map[TableID]*storedTable{}, size: st.Size()}
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, st.Size()), 1<<16)
	head := make([]byte, storeHead)
	if _, err := io.ReadFull(r, head); err != nil {
		sc.reason = "it is shorter than its header"
		if sc.size == 0 {
			sc.reason = "it is empty"
		}
		return sc, nil
	}
	switch {
	case string(head[:len(storeMagic)]) != storeMagic:
		sc.reason = "it is not an njet store"
		return sc, nil
	case head[len(storeMagic)] != storeVersion:
		sc.reason = fmt.Sprintf("store version %d", head[len(storeMagic)])
		return sc, nil
	}
	sc.good = int64(storeHead)
	rh := make([]byte, recordHead)
	for sc.good < sc.size {
		if _, err := io.ReadFull(r, rh); err != nil {
			sc.reason = "a record is cut short"
			return sc, nil
		}
		n := binary.BigEndian.Uint32(rh)
		if n == 0 || n > maxRecord {
			sc.reason = fmt.Sprintf("a record claims %d bytes", n)
			return sc, nil
		}
		if int64(n) > sc.size-sc.good-recordHead {
			sc.reason = "a record is cut short"
			return sc, nil
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, err
		}
		if crc32.Checksum(body, crcTable) != binary.BigEndian.Uint32(rh[4:]) {
			sc.reason = "a record fails its checksum"
			return sc, nil
		}
		if err := applyRecord(sc.tables, body, sc.good+recordHead); err != nil {
			sc.reason = err.Error()
			return sc, nil
		}
		sc.good += recordHead + int64(n)
	}
	return sc, nil
}

// applyRecord checks one record body found at offset off and applies it to
// the index.
func applyRecord(tables map[TableID]*storedTable, body []byte, off int64) error {
	typ, p := body[0], body[1:]
	tableOf := func() (*storedTable, error) {
		if len(p) < len(TableID{}) {
			return nil, fmt.Errorf("a record of type %d is too short", typ)
		}
		id := TableID(p[:len(TableID{})])
		p = p[len(TableID{}):]
		t := tables[id]
		if t == nil {
			t = newStoredTable()
			tables[id] = t
		}
		return t, nil
	}
	switch typ {
	case recPut:
		if len(p) < 4 {
			return errors.New("a put record is too short")
		}
		count := binary.BigEndian.Uint32(p)
		p = p[4:]
		at := off + 5
		for i := range count {
			if len(p) < 4 {
				return fmt.Errorf("a put record ends before its envelope %d", i)
			}
			n := binary.BigEndian.Uint32(p)
			if uint64(n) > uint64(len(p)-4) {
				return fmt.Errorf("a put record ends inside its envelope %d", i)
			}
			enc := p[4 : 4+n]
			e, err := ParseEnvelope(enc)
			if err != nil {
				return fmt.Errorf("a stored envelope does not parse: %v", err)
			}
			t := tables[e.Table]
			if t == nil {
				t = newStoredTable()
				tables[e.Table] = t
			}
			if e.Seq != uint64(len(t.offs)) || e.Prev != t.last() {
				return fmt.Errorf("stored seq %d of table %v does not continue the stored log", e.Seq, e.Table)
			}
			t.add(at+4, enc)
			p = p[4+n:]
			at += 4 + int64(n)
		}
		if len(p) != 0 {
			return errors.New("a put record has trailing bytes")
		}
	case recRewind:
		t, err := tableOf()
		if err != nil {
			return err
		}
		if len(p) != 8 {
			return errors.New("a rewind record of the wrong size")
		}
		from := binary.BigEndian.Uint64(p)
		if from >= uint64(len(t.offs)) {
			return fmt.Errorf("a rewind to seq %d of a log of %d", from, len(t.offs))
		}
		t.cut(from)
	case recSecret, recMeta:
		t, err := tableOf()
		if err != nil {
			return err
		}
		if len(p) < 1 || int(p[0]) == 0 || int(p[0]) > len(p)-1 {
			return errors.New("a value record with a bad name")
		}
		name, value := string(p[1:1+p[0]]), bytes.Clone(p[1+p[0]:])
		if typ == recSecret {
			t.set(t.secrets, name, value)
		} else {
			t.set(t.meta, name, value)
		}
	case recEvidence:
		t, err := tableOf()
		if err != nil {
			return err
		}
		ev, err := ParseEvidence(p)
		if err != nil {
			return fmt.Errorf("stored evidence does not parse: %v", err)
		}
		t.evidence[ev.Second.Hash()] = bytes.Clone(p)
	default:
		return fmt.Errorf("a record of unknown type %d", typ)
	}
	return nil
}

func sortedTables(m map[TableID]*storedTable) []TableID {
	ids := make([]TableID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b TableID) int { return bytes.Compare(a[:], b[:]) })
	return ids
}

// Close closes the store. Written data is already on disk: Close adds no
// durability, and a crash instead of Close loses nothing that was written.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := errors.Join(s.unlock(), s.f.Close())
	s.f = nil
	return err
}

// appendRecord writes one record and makes it durable. A record that
// cannot be written whole is cut off again, so the file never holds
// half a record followed by more; if even that fails the store takes no
// more writes. s.mu must be held.
func (s *Store) appendRecord(body []byte) (int64, error) {
	if s.f == nil {
		return 0, errors.New("table: the store is closed")
	}
	if s.broken != nil {
		return 0, fmt.Errorf("table: the store takes no more writes: %w", s.broken)
	}
	if len(body) > maxRecord {
		return 0, fmt.Errorf("%w: a store record of %d bytes", ErrTooLarge, len(body))
	}
	rec := make([]byte, recordHead, recordHead+len(body))
	binary.BigEndian.PutUint32(rec, uint32(len(body)))
	binary.BigEndian.PutUint32(rec[4:], crc32.Checksum(body, crcTable))
	rec = append(rec, body...)
	at := s.size
	_, err := s.f.WriteAt(rec, at)
	if err == nil && !s.opts.NoSync {
		err = s.f.Sync()
		if err != nil {
			// After a failed fsync the state of the written pages is
			// unknown: nothing more may be trusted to this file.
			s.broken = err
			return 0, err
		}
	}
	if err != nil {
		if terr := s.f.Truncate(at); terr != nil {
			s.broken = terr
		}
		return 0, err
	}
	s.size += int64(len(rec))
	return at + recordHead, nil
}

// readAt returns a copy of the stored envelope encoding at seq of t.
func (s *Store) readAt(t *storedTable, seq uint64) ([]byte, error) {
	b := make([]byte, t.lens[seq])
	if _, err := s.f.ReadAt(b, t.offs[seq]); err != nil {
		return nil, fmt.Errorf("%w: reading stored seq %d: %w", ErrCorrupt, seq, err)
	}
	return b, nil
}

// Put appends envelopes to their tables' logs in one durable write: all of
// them or none. Each must continue its table's stored log (the next seq,
// and the previous hash of the last stored envelope); an envelope identical
// to the one already stored at its seq is skipped, a different one is
// ErrConflict. Put does not verify signatures: store what a Log accepted.
func (s *Store) Put(envs ...*Envelope) error {
	encs := make([][]byte, len(envs))
	for i, e := range envs {
		if e == nil {
			return fmt.Errorf("%w: nil envelope", ErrMalformed)
		}
		enc, err := e.MarshalBinary()
		if err != nil {
			return err
		}
		encs[i] = enc
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putLocked(envs, encs)
}

// pending is a table's log as a Put would leave it.
type pending struct {
	base uint64 // stored envelopes
	last Hash
	encs [][]byte // new ones, from seq base
}

func (s *Store) putLocked(envs []*Envelope, encs [][]byte) error {
	if s.f == nil {
		return errors.New("table: the store is closed")
	}
	pend := map[TableID]*pending{}
	body := []byte{recPut, 0, 0, 0, 0}
	var added []*Envelope
	var addedEnc [][]byte
	for i, e := range envs {
		p := pend[e.Table]
		t := s.tables[e.Table]
		if p == nil {
			p = &pending{}
			if t != nil {
				p.base, p.last = uint64(len(t.offs)), t.last()
			}
			pend[e.Table] = p
		}
		next := p.base + uint64(len(p.encs))
		switch {
		case e.Seq < next:
			var held []byte
			if e.Seq >= p.base {
				held = p.encs[e.Seq-p.base]
			} else {
				var err error
				if held, err = s.readAt(t, e.Seq); err != nil {
					return err
				}
			}
			if !bytes.Equal(held, encs[i]) {
				return fmt.Errorf("%w: table %v seq %d holds a different envelope", ErrConflict, e.Table, e.Seq)
			}
			continue
		case e.Seq > next:
			return fmt.Errorf("%w: table %v: put seq %d, the store is at %d", ErrGap, e.Table, e.Seq, next)
		case e.Prev != p.last:
			return fmt.Errorf("%w: table %v seq %d does not follow the stored log", ErrBadChain, e.Table, e.Seq)
		}
		p.encs = append(p.encs, encs[i])
		p.last = hashEncoded(encs[i])
		added = append(added, e)
		addedEnc = append(addedEnc, encs[i])
		body = binary.BigEndian.AppendUint32(body, uint32(len(encs[i])))
		body = append(body, encs[i]...)
	}
	if len(added) == 0 {
		return nil
	}
	binary.BigEndian.PutUint32(body[1:], uint32(len(added)))
	at, err := s.appendRecord(body)
	if err != nil {
		return err
	}
	at += 5
	for i, e := range added {
		t := s.tables[e.Table]
		if t == nil {
			t = newStoredTable()
			s.tables[e.Table] = t
		}
		t.add(at+4, addedEnc[i])
		at += 4 + int64(len(addedEnc[i]))
	}
	return nil
}

// Rewind deletes the stored envelopes of table at seq from and after, in
// one durable write. It breaks the rule that nothing stored is ever
// dropped, so only one caller uses it: a Peer whose own last envelopes were
// superseded by a VoidSilent that every other seat's vote certifies, which
// proves that no other peer holds them (see docs/protocol.md). The record
// drops, in the same write and again on every replay, the secrets and the
// standing vote the peer wrote for the dropped envelopes (storedTable.cut):
// the peer's drafts read the head of the log only once the store holds
// every envelope before it (Replica.Head), so such a value was written
// with the stored log at or past the seq of the envelope it serves.
func (s *Store) Rewind(table TableID, from uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[table]
	if t == nil || from >= uint64(len(t.offs)) {
		return nil
	}
	body := append([]byte{recRewind}, table[:]...)
	body = binary.BigEndian.AppendUint64(body, from)
	if _, err := s.appendRecord(body); err != nil {
		return err
	}
	t.cut(from)
	return nil
}

// Next returns the number of envelopes stored for table (the next seq).
func (s *Store) Next(table TableID) (uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if t := s.tables[table]; t != nil {
		return uint64(len(t.offs)), nil
	}
	return 0, nil
}

// Envelopes returns the stored envelopes of table with seq in [from, to),
// decoded, clipped to what is stored.
func (s *Store) Envelopes(table TableID, from, to uint64) ([]*Envelope, error) {
	encs, err := s.encodedRange(table, from, to, ^uint64(0), int(^uint(0)>>1))
	if err != nil {
		return nil, err
	}
	out := make([]*Envelope, len(encs))
	for i, enc := range encs {
		e, err := ParseEnvelope(enc)
		if err != nil {
			return nil, fmt.Errorf("%w: stored seq %d: %w", ErrCorrupt, from+uint64(i), err)
		}
		out[i] = e
	}
	return out, nil
}

// encodedRange returns copies of the stored encodings with seq in
// [from, to), at most maxCount of them and, past the first, at most maxBytes
// in total.
func (s *Store) encodedRange(table TableID, from, to, maxCount uint64, maxBytes int) ([][]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.f == nil {
		return nil, errors.New("table: the store is closed")
	}
	t := s.tables[table]
	if t == nil {
		return nil, nil
	}
	var out [][]byte
	total := 0
	for seq := from; seq < to && seq < uint64(len(t.offs)) && uint64(len(out)) < maxCount; seq++ {
		if len(out) > 0 && total+int(t.lens[seq]) > maxBytes {
			break
		}
		enc, err := s.readAt(t, seq)
		if err != nil {
			return nil, err
		}
		total += len(enc)
		out = append(out, enc)
	}
	return out, nil
}

// ServeRange answers a sync request from the store: the encoded envelopes of
// table with seq in [from, to), at most MaxRange of them and MaxRangeBytes in
// total (at least one if any is stored), possibly fewer, never out of order.
// Only durable envelopes are served, which is the write-ahead rule for
// received envelopes. It implements RangeServer.
func (s *Store) ServeRange(ctx context.Context, table TableID, from, to uint64) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if from >= to {
		return nil, fmt.Errorf("%w: empty range [%d, %d)", ErrMalformed, from, to)
	}
	return s.encodedRange(table, from, to, MaxRange, MaxRangeBytes)
}

// Tables returns the ids of the tables in the store, in byte order.
func (s *Store) Tables() ([]TableID, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sortedTables(s.tables), nil
}

func checkName(name string) error {
	if name == "" || len(name) > MaxNameSize {
		return fmt.Errorf("%w: name of %d bytes (1 to %d)", ErrMalformed, len(name), MaxNameSize)
	}
	return nil
}

func (s *Store) putBlob(typ byte, table TableID, name string, blob []byte) error {
	if err := checkName(name); err != nil {
		return err
	}
	body := append([]byte{typ}, table[:]...)
	body = append(body, byte(len(name)))
	body = append(body, name...)
	body = append(body, blob...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.appendRecord(body); err != nil {
		return err
	}
	t := s.tables[table]
	if t == nil {
		t = newStoredTable()
		s.tables[table] = t
	}
	if typ == recSecret {
		t.set(t.secrets, name, bytes.Clone(blob))
	} else {
		t.set(t.meta, name, bytes.Clone(blob))
	}
	return nil
}

func (s *Store) blob(typ byte, table TableID, name string) ([]byte, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var v []byte
	var ok bool
	if t := s.tables[table]; t != nil {
		if typ == recSecret {
			v, ok = get(t.secrets, name)
		} else {
			v, ok = get(t.meta, name)
		}
	}
	if !ok {
		what := "meta"
		if typ == recSecret {
			what = "secrets"
		}
		return nil, fmt.Errorf("%w: %s %q of table %v", ErrNotFound, what, name, table)
	}
	return bytes.Clone(v), nil
}

// PutSecret durably stores one of the peer's own secrets for table under
// name (replacing an older value). Secrets never leave the peer through the
// store: Export writes the log only.
func (s *Store) PutSecret(table TableID, name string, secret []byte) error {
	return s.putBlob(recSecret, table, name, secret)
}

// Secret returns the secret stored under name, or ErrNotFound.
func (s *Store) Secret(table TableID, name string) ([]byte, error) {
	return s.blob(recSecret, table, name)
}

// PutMeta durably stores a small metadata value for table under name.
func (s *Store) PutMeta(table TableID, name string, value []byte) error {
	return s.putBlob(recMeta, table, name, value)
}

// Meta returns the metadata stored under name, or ErrNotFound.
func (s *Store) Meta(table TableID, name string) ([]byte, error) {
	return s.blob(recMeta, table, name)
}

// PutEvidence durably stores equivocation evidence for table (once per
// conflicting envelope).
func (s *Store) PutEvidence(table TableID, ev Evidence) error {
	enc, err := ev.MarshalBinary()
	if err != nil {
		return err
	}
	h := ev.Second.Hash()
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tables[table]; t != nil && bytes.Equal(t.evidence[h], enc) {
		return nil
	}
	body := append([]byte{recEvidence}, table[:]...)
	if _, err := s.appendRecord(append(body, enc...)); err != nil {
		return err
	}
	t := s.tables[table]
	if t == nil {
		t = newStoredTable()
		s.tables[table] = t
	}
	t.evidence[h] = enc
	return nil
}

// Evidence returns the evidence stored for table, in the order of the
// second envelopes' hashes.
func (s *Store) Evidence(table TableID) ([]Evidence, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t := s.tables[table]
	if t == nil {
		return nil, nil
	}
	hs := make([]Hash, 0, len(t.evidence))
	for h := range t.evidence {
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(a, b Hash) int { return bytes.Compare(a[:], b[:]) })
	var out []Evidence
	for _, h := range hs {
		ev, err := ParseEvidence(t.evidence[h])
		if err != nil {
			return nil, fmt.Errorf("%w: stored evidence: %w", ErrCorrupt, err)
		}
		out = append(out, ev)
	}
	return out, nil
}
