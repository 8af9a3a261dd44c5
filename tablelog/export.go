package tablelog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
)

// Export file format, version 1 (all integers big-endian):
//
//	magic    8 bytes  "NJETLOG\n"
//	version  1 byte   ExportVersion
//	table    32 bytes the table id
//	count    8 bytes  number of envelopes, 1 to MaxExportEnvelopes
//	count ×  4 bytes  length n of the encoded envelope (at most MaxEnvelopeSize)
//	         n bytes  the envelope, seqs 0, 1, 2, … in order
//	digest   32 bytes SHA-256 of the export domain string and every byte above
//
// The digest catches accidental damage anywhere in the file; the hash chain
// ties each envelope to the one before; the signatures (checked when the log
// is replayed through a Log with the seats' keys) catch deliberate changes.
const (
	exportMagic = "NJETLOG\n"
	// ExportVersion is the export format version this code reads and writes.
	ExportVersion = 1
	// MaxExportEnvelopes bounds the envelopes in one export; a whole game
	// is a few thousand.
	MaxExportEnvelopes = 1 << 20
)

// WriteExport writes envs, a table's log from its genesis, as an export
// file. The envelopes must form a chain: one table, seqs 0, 1, 2, …, each
// naming the previous one's hash.
func WriteExport(w io.Writer, envs []*Envelope) error {
	if len(envs) == 0 {
		return fmt.Errorf("%w: export of an empty log", ErrMalformed)
	}
	if len(envs) > MaxExportEnvelopes {
		return fmt.Errorf("%w: export of %d envelopes", ErrTooLarge, len(envs))
	}
	table := envs[0].Table
	d := sha256.New()
	d.Write([]byte(exportDomain))
	bw := bufio.NewWriter(io.MultiWriter(w, d))
	head := make([]byte, 0, len(exportMagic)+1+32+8)
	head = append(head, exportMagic...)
	head = append(head, ExportVersion)
	head = append(head, table[:]...)
	head = binary.BigEndian.AppendUint64(head, uint64(len(envs)))
	if _, err := bw.Write(head); err != nil {
		return err
	}
	var prev Hash
	for i, e := range envs {
		enc, err := e.MarshalBinary()
		if err != nil {
			return err
		}
		if err := checkLink(table, uint64(i), prev, e); err != nil {
			return err
		}
		prev = hashEncoded(enc)
		if _, err := bw.Write(binary.BigEndian.AppendUint32(nil, uint32(len(enc)))); err != nil {
			return err
		}
		if _, err := bw.Write(enc); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(d.Sum(nil))
	return err
}

// checkLink checks that e is entry seq of table's chain after prev.
func checkLink(table TableID, seq uint64, prev Hash, e *Envelope) error {
	switch {
	case e.Table != table:
		return fmt.Errorf("%w: seq %d is for table %v, the log is %v", ErrWrongTable, seq, e.Table, table)
	case e.Seq != seq:
		return fmt.Errorf("%w: entry %d has seq %d", ErrGap, seq, e.Seq)
	case e.Prev != prev:
		return fmt.Errorf("%w: seq %d does not name the hash of seq %d", ErrBadChain, seq, seq-1)
	}
	return nil
}

// digestReader hashes what it reads and counts the bytes.
type digestReader struct {
	r *bufio.Reader
	d hash.Hash
	n int64
}

func (dr *digestReader) full(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(dr.r, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: export truncated", ErrCorrupt)
		}
		return nil, err
	}
	dr.d.Write(b)
	dr.n += int64(n)
	return b, nil
}

// ExportReader reads an export file one envelope at a time, so that a
// file of any size is checked in bounded memory and its first bad
// envelope is found before the rest is read. NewExportReader reads the
// header; Next returns the envelopes in order, checking framing and chain;
// after the last, Next checks the digest and the end of the input and
// returns io.EOF.
type ExportReader struct {
	dr    *digestReader
	table TableID
	count uint64
	seq   uint64
	prev  Hash
	done  bool
}

// NewExportReader reads and checks the header of an export file.
func NewExportReader(r io.Reader) (*ExportReader, error) {
	dr := &digestReader{r: bufio.NewReaderSize(r, 1<<16), d: sha256.New()}
	dr.d.Write([]byte(exportDomain))
	head, err := dr.full(len(exportMagic) + 1 + 32 + 8)
	if err != nil {
		return nil, err
	}
	if string(head[:len(exportMagic)]) != exportMagic {
		return nil, fmt.Errorf("%w: not an njet log export (bad magic)", ErrCorrupt)
	}
	p := head[len(exportMagic):]
	if p[0] != ExportVersion {
		return nil, fmt.Errorf("%w: export version %d", ErrUnknownVersion, p[0])
	}
	x := &ExportReader{dr: dr}
	copy(x.table[:], p[1:33])
	x.count = binary.BigEndian.Uint64(p[33:])
	if x.count == 0 || x.count > MaxExportEnvelopes {
		return nil, fmt.Errorf("%w: export claims %d envelopes", ErrCorrupt, x.count)
	}
	return x, nil
}

// Table returns the table id in the header.
func (x *ExportReader) Table() TableID { return x.table }

// Count returns the number of envelopes the header announces.
func (x *ExportReader) Count() uint64 { return x.count }

// Bytes returns how many bytes of the file have been read.
func (x *ExportReader) Bytes() int64 { return x.dr.n }

// Next returns the next envelope, or io.EOF after the last once the digest
// and the end of the file check out. Any other error wraps ErrCorrupt (or
// is the reader's own) and ends the reading.
func (x *ExportReader) Next() (*Envelope, error) {
	if x.done {
		return nil, io.EOF
	}
	if x.seq == x.count {
		x.done = true
		return nil, x.finish()
	}
	seq := x.seq
	lb, err := x.dr.full(4)
	if err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(lb)
	if n > MaxEnvelopeSize {
		return nil, fmt.Errorf("%w: seq %d: envelope length %d", ErrCorrupt, seq, n)
	}
	enc, err := x.dr.full(int(n))
	if err != nil {
		return nil, err
	}
	e, err := ParseEnvelope(enc)
	if err != nil {
		return nil, fmt.Errorf("%w: seq %d: %w", ErrCorrupt, seq, err)
	}
	if err := checkLink(x.table, seq, x.prev, e); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	x.prev = hashEncoded(enc)
	x.seq++
	return e, nil
}

// finish checks the digest and that the input ends right after it.
func (x *ExportReader) finish() error {
	want := x.dr.d.Sum(nil)
	got := make([]byte, len(want))
	if _, err := io.ReadFull(x.dr.r, got); err != nil {
		return fmt.Errorf("%w: export truncated before its digest", ErrCorrupt)
	}
	x.dr.n += int64(len(got))
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%w: export digest does not match its content", ErrCorrupt)
	}
	if _, err := x.dr.r.ReadByte(); err != io.EOF {
		if err == nil {
			return fmt.Errorf("%w: trailing bytes after the export digest", ErrCorrupt)
		}
		return err
	}
	return io.EOF
}

// ReadExport reads an export file strictly: magic, version, limits, framing,
// the chain, the digest and the end of the input right after it. Any error
// wraps ErrCorrupt (or ErrUnknownVersion) with the first problem found. The
// signatures are not checked here: replay the envelopes through a Log. It
// holds the whole log in memory; ExportReader reads one envelope at a time.
func ReadExport(r io.Reader) (TableID, []*Envelope, error) {
	x, err := NewExportReader(r)
	if err != nil {
		return TableID{}, nil, err
	}
	var envs []*Envelope
	for {
		e, err := x.Next()
		if err == io.EOF {
			return x.table, envs, nil
		}
		if err != nil {
			return x.table, nil, err
		}
		envs = append(envs, e)
	}
}

// Export writes the stored log of table as an export file. Secrets and
// metadata are not exported.
func (s *Store) Export(w io.Writer, table TableID) error {
	envs, err := s.Envelopes(table, 0, ^uint64(0))
	if err != nil {
		return err
	}
	if len(envs) == 0 {
		return fmt.Errorf("%w: no log for table %v", ErrNotFound, table)
	}
	return WriteExport(w, envs)
}

// Import reads an export file and adds its log to the store. The whole
// file is read and checked before anything is written, so a corrupt file
// changes nothing; where the store already holds part of the log, the file
// must agree with it (else ErrConflict and nothing is written). The log is
// written in records of at most a few megabytes, so a crash in the middle
// of an import leaves a sound prefix of it. Import checks the chain but not
// the signatures: replay the log through a Log before trusting it.
func (s *Store) Import(r io.Reader) (TableID, error) {
	table, envs, err := ReadExport(r)
	if err != nil {
		return table, err
	}
	encs := make([][]byte, len(envs))
	for i, e := range envs {
		if encs[i], err = e.MarshalBinary(); err != nil {
			return table, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Check the overlap first, so that a conflict writes nothing; what it
	// covers is already stored, so only the rest is put.
	var stored int
	if t := s.tables[table]; t != nil {
		stored = min(len(t.offs), len(envs))
		for seq := range stored {
			held, err := s.readAt(t, uint64(seq))
			if err != nil {
				return table, err
			}
			if !bytes.Equal(held, encs[seq]) {
				return table, fmt.Errorf("%w: table %v seq %d holds a different envelope", ErrConflict, table, seq)
			}
		}
	}
	for start := stored; start < len(envs); {
		end, size := start, 0
		for end < len(envs) && (end == start || size+len(encs[end]) <= MaxRangeBytes) {
			size += len(encs[end]) + 4
			end++
		}
		if err := s.putLocked(envs[start:end], encs[start:end]); err != nil {
			return table, err
		}
		start = end
	}
	return table, nil
}
