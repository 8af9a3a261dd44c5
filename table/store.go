package table

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Store is a peer's crash-safe store (one bbolt file per device). For each
// table it holds the log's envelopes by seq, the peer's own secrets (opaque
// blobs by name, such as per-round keys), small metadata and equivocation
// evidence.
//
// The write-ahead rule: a peer makes an envelope (its own or one it
// received) durable with Put, and its own secrets with PutSecret, before it
// sends anything that depends on them — publishing its envelope, answering a
// sync request, revealing a token. Every Put is one bbolt transaction that is
// fsynced before Put returns, so after a crash the store holds everything the
// peer ever sent, and a restarted peer continues from it with the same keys
// and secrets instead of signing a second, different envelope for a seq
// (which the others would rightly take for equivocation).
//
// A Store is safe for concurrent use.
type Store struct {
	db *bolt.DB
}

// StoreOptions tunes OpenStore.
type StoreOptions struct {
	// LockTimeout is how long OpenStore waits for another process that
	// holds the file (default one second).
	LockTimeout time.Duration
	// NoSync skips fsync on commit. It breaks the write-ahead rule and is
	// only for simulations and tests that do not crash.
	NoSync bool
}

// Bucket names. Layout: tables/<table id>/{log,secrets,meta,evidence}. Log
// keys are 8-byte big-endian seqs, so bbolt's byte order is seq order.
var (
	bucketTables   = []byte("tables")
	bucketLog      = []byte("log")
	bucketSecrets  = []byte("secrets")
	bucketMeta     = []byte("meta")
	bucketEvidence = []byte("evidence")
)

// MaxNameSize bounds secret and metadata names.
const MaxNameSize = 255

// OpenStore opens (or creates) the store at path.
func OpenStore(path string, opts *StoreOptions) (*Store, error) {
	o := StoreOptions{LockTimeout: time.Second}
	if opts != nil {
		o = *opts
		if o.LockTimeout == 0 {
			o.LockTimeout = time.Second
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.LockTimeout, NoSync: o.NoSync})
	if err != nil {
		return nil, fmt.Errorf("table: open store %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketTables)
		return err
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("table: init store %s: %w", path, err), db.Close())
	}
	return &Store{db: db}, nil
}

// Close closes the store. Committed data is already on disk: Close adds no
// durability, and a crash instead of Close loses nothing that was committed.
func (s *Store) Close() error { return s.db.Close() }

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// tableBucket returns the table's sub-bucket, nil if it does not exist (in a
// read-only transaction) or creating it (in a writable one).
func tableBucket(tx *bolt.Tx, table TableID, sub []byte) (*bolt.Bucket, error) {
	root := tx.Bucket(bucketTables)
	if root == nil {
		return nil, fmt.Errorf("%w: store has no tables bucket", ErrCorrupt)
	}
	if !tx.Writable() {
		t := root.Bucket(table[:])
		if t == nil {
			return nil, nil
		}
		return t.Bucket(sub), nil
	}
	t, err := root.CreateBucketIfNotExists(table[:])
	if err != nil {
		return nil, err
	}
	return t.CreateBucketIfNotExists(sub)
}

// logNext returns the next seq of a log bucket and the hash of its last
// envelope.
func logNext(b *bolt.Bucket) (uint64, Hash, error) {
	if b == nil {
		return 0, Hash{}, nil
	}
	k, v := b.Cursor().Last()
	if k == nil {
		return 0, Hash{}, nil
	}
	if len(k) != 8 {
		return 0, Hash{}, fmt.Errorf("%w: log key of %d bytes", ErrCorrupt, len(k))
	}
	return binary.BigEndian.Uint64(k) + 1, hashEncoded(v), nil
}

// Put appends envelopes to their tables' logs in one durable transaction:
// all of them or none. Each must continue its table's stored log (the next
// seq, and the previous hash of the last stored envelope); an envelope
// identical to the one already stored at its seq is skipped, a different one
// is ErrConflict. Put does not verify signatures: store what a Log accepted.
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
	return s.db.Update(func(tx *bolt.Tx) error {
		for i, e := range envs {
			if err := putEncoded(tx, e, encs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func putEncoded(tx *bolt.Tx, e *Envelope, enc []byte) error {
	b, err := tableBucket(tx, e.Table, bucketLog)
	if err != nil {
		return err
	}
	next, last, err := logNext(b)
	if err != nil {
		return err
	}
	switch {
	case e.Seq < next:
		if held := b.Get(seqKey(e.Seq)); !bytes.Equal(held, enc) {
			return fmt.Errorf("%w: table %v seq %d holds a different envelope", ErrConflict, e.Table, e.Seq)
		}
		return nil
	case e.Seq > next:
		return fmt.Errorf("%w: table %v: put seq %d, the store is at %d", ErrGap, e.Table, e.Seq, next)
	case e.Prev != last:
		return fmt.Errorf("%w: table %v seq %d does not follow the stored log", ErrBadChain, e.Table, e.Seq)
	}
	return b.Put(seqKey(e.Seq), enc)
}

// rewind deletes the stored envelopes of table at seq from and after, in
// one durable transaction. It breaks the rule that nothing stored is ever
// dropped, so only one caller uses it: a Peer whose own last envelopes were
// superseded by a VoidSilent that every other seat's vote certifies, which
// proves that no other peer holds them (see docs/protocol.md).
func (s *Store) rewind(table TableID, from uint64) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, bucketLog)
		if err != nil {
			return err
		}
		next, _, err := logNext(b)
		if err != nil {
			return err
		}
		for seq := from; seq < next; seq++ {
			if err := b.Delete(seqKey(seq)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Next returns the number of envelopes stored for table (the next seq).
func (s *Store) Next(table TableID) (uint64, error) {
	var next uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, bucketLog)
		if err != nil {
			return err
		}
		next, _, err = logNext(b)
		return err
	})
	return next, err
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
	var out [][]byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, bucketLog)
		if err != nil || b == nil {
			return err
		}
		c := b.Cursor()
		total := 0
		want := from
		for k, v := c.Seek(seqKey(from)); k != nil && want < to && uint64(len(out)) < maxCount; k, v = c.Next() {
			if len(k) != 8 || binary.BigEndian.Uint64(k) != want {
				return fmt.Errorf("%w: table %v: log key out of order at seq %d", ErrCorrupt, table, want)
			}
			if len(out) > 0 && total+len(v) > maxBytes {
				break
			}
			total += len(v)
			out = append(out, bytes.Clone(v))
			want++
		}
		return nil
	})
	return out, err
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

// Tables returns the ids of the tables in the store.
func (s *Store) Tables() ([]TableID, error) {
	var out []TableID
	err := s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketTables)
		if root == nil {
			return fmt.Errorf("%w: store has no tables bucket", ErrCorrupt)
		}
		return root.ForEach(func(k, v []byte) error {
			if len(k) != len(TableID{}) || v != nil {
				return fmt.Errorf("%w: table key of %d bytes", ErrCorrupt, len(k))
			}
			out = append(out, TableID(k))
			return nil
		})
	})
	return out, err
}

func checkName(name string) error {
	if name == "" || len(name) > MaxNameSize {
		return fmt.Errorf("%w: name of %d bytes (1 to %d)", ErrMalformed, len(name), MaxNameSize)
	}
	return nil
}

func (s *Store) putBlob(sub []byte, table TableID, name string, blob []byte) error {
	if err := checkName(name); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, sub)
		if err != nil {
			return err
		}
		return b.Put([]byte(name), bytes.Clone(blob))
	})
}

func (s *Store) blob(sub []byte, table TableID, name string) ([]byte, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, sub)
		if err != nil {
			return err
		}
		var v []byte
		if b != nil {
			v = b.Get([]byte(name))
		}
		if v == nil {
			return fmt.Errorf("%w: %s %q of table %v", ErrNotFound, sub, name, table)
		}
		out = bytes.Clone(v)
		return nil
	})
	return out, err
}

// PutSecret durably stores one of the peer's own secrets for table under
// name (replacing an older value). Secrets never leave the peer through the
// store: Export writes the log only.
func (s *Store) PutSecret(table TableID, name string, secret []byte) error {
	return s.putBlob(bucketSecrets, table, name, secret)
}

// Secret returns the secret stored under name, or ErrNotFound.
func (s *Store) Secret(table TableID, name string) ([]byte, error) {
	return s.blob(bucketSecrets, table, name)
}

// PutMeta durably stores a small metadata value for table under name.
func (s *Store) PutMeta(table TableID, name string, value []byte) error {
	return s.putBlob(bucketMeta, table, name, value)
}

// Meta returns the metadata stored under name, or ErrNotFound.
func (s *Store) Meta(table TableID, name string) ([]byte, error) {
	return s.blob(bucketMeta, table, name)
}

// PutEvidence durably stores equivocation evidence for table (once per
// conflicting envelope).
func (s *Store) PutEvidence(table TableID, ev Evidence) error {
	enc, err := ev.MarshalBinary()
	if err != nil {
		return err
	}
	h := ev.Second.Hash()
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, bucketEvidence)
		if err != nil {
			return err
		}
		return b.Put(h[:], enc)
	})
}

// Evidence returns the evidence stored for table.
func (s *Store) Evidence(table TableID) ([]Evidence, error) {
	var out []Evidence
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := tableBucket(tx, table, bucketEvidence)
		if err != nil || b == nil {
			return err
		}
		return b.ForEach(func(_, v []byte) error {
			ev, err := ParseEvidence(v)
			if err != nil {
				return fmt.Errorf("%w: stored evidence: %w", ErrCorrupt, err)
			}
			out = append(out, ev)
			return nil
		})
	})
	return out, err
}
