package tablelog

import (
	"encoding/binary"
	"fmt"
)

// SyncVersion is the wire version of sync requests and responses
// (the /njet/sync/1 stream protocol).
const SyncVersion = 1

// Sync limits. A response carries at most MaxRange envelopes and, beyond
// its first envelope, at most MaxRangeBytes of them, so one answer stays a
// few MiB on a phone; a peer that is further behind asks again.
const (
	MaxRange      = 256
	MaxRangeBytes = 4 << 20
	// SyncRequestSize is the fixed size of an encoded SyncRequest.
	SyncRequestSize = 1 + 32 + 8 + 8
	// maxSyncResponseSize bounds an encoded response.
	maxSyncResponseSize = 1 + 4 + MaxRange*4 + MaxRangeBytes + MaxEnvelopeSize
)

// SyncRequest asks a member for the envelopes of Table with seq in
// [From, To).
type SyncRequest struct {
	Table    TableID
	From, To uint64
}

// MarshalBinary encodes the request: version (1 byte), table (32), from and
// to (8 each, big-endian).
func (r SyncRequest) MarshalBinary() ([]byte, error) {
	if r.From >= r.To {
		return nil, fmt.Errorf("%w: empty range [%d, %d)", ErrMalformed, r.From, r.To)
	}
	b := make([]byte, 0, SyncRequestSize)
	b = append(b, SyncVersion)
	b = append(b, r.Table[:]...)
	b = binary.BigEndian.AppendUint64(b, r.From)
	return binary.BigEndian.AppendUint64(b, r.To), nil
}

// ParseSyncRequest decodes a request strictly.
func ParseSyncRequest(data []byte) (SyncRequest, error) {
	var r SyncRequest
	if len(data) != SyncRequestSize {
		return r, fmt.Errorf("%w: sync request of %d bytes (want %d)", ErrMalformed, len(data), SyncRequestSize)
	}
	if data[0] != SyncVersion {
		return r, fmt.Errorf("%w: sync version %d", ErrUnknownVersion, data[0])
	}
	copy(r.Table[:], data[1:33])
	r.From = binary.BigEndian.Uint64(data[33:])
	r.To = binary.BigEndian.Uint64(data[41:])
	if r.From >= r.To {
		return SyncRequest{}, fmt.Errorf("%w: empty range [%d, %d)", ErrMalformed, r.From, r.To)
	}
	return r, nil
}

// MarshalSyncResponse encodes a response: version (1 byte), count (4,
// big-endian), then each encoded envelope prefixed by its 4-byte length.
func MarshalSyncResponse(envs [][]byte) ([]byte, error) {
	if len(envs) > MaxRange {
		return nil, fmt.Errorf("%w: %d envelopes in one response (limit %d)", ErrTooLarge, len(envs), MaxRange)
	}
	size := 5
	for _, e := range envs {
		if len(e) > MaxEnvelopeSize {
			return nil, fmt.Errorf("%w: envelope of %d bytes", ErrTooLarge, len(e))
		}
		size += 4 + len(e)
	}
	if size > maxSyncResponseSize {
		return nil, fmt.Errorf("%w: sync response of %d bytes", ErrTooLarge, size)
	}
	b := make([]byte, 0, size)
	b = append(b, SyncVersion)
	b = binary.BigEndian.AppendUint32(b, uint32(len(envs)))
	for _, e := range envs {
		b = binary.BigEndian.AppendUint32(b, uint32(len(e)))
		b = append(b, e...)
	}
	return b, nil
}

// ParseSyncResponse decodes a response strictly: the limits, every length
// within the data, no trailing bytes. Each entry is left encoded; the
// receiver parses and checks it like any other envelope.
func ParseSyncResponse(data []byte) ([][]byte, error) {
	if len(data) > maxSyncResponseSize {
		return nil, fmt.Errorf("%w: sync response of %d bytes", ErrTooLarge, len(data))
	}
	if len(data) < 5 {
		return nil, fmt.Errorf("%w: sync response of %d bytes", ErrMalformed, len(data))
	}
	if data[0] != SyncVersion {
		return nil, fmt.Errorf("%w: sync version %d", ErrUnknownVersion, data[0])
	}
	n := binary.BigEndian.Uint32(data[1:])
	if n > MaxRange {
		return nil, fmt.Errorf("%w: %d envelopes in one response (limit %d)", ErrTooLarge, n, MaxRange)
	}
	p := data[5:]
	out := make([][]byte, 0, n)
	for range n {
		if len(p) < 4 {
			return nil, fmt.Errorf("%w: sync response truncated", ErrMalformed)
		}
		l := binary.BigEndian.Uint32(p)
		p = p[4:]
		if l > MaxEnvelopeSize || uint64(l) > uint64(len(p)) {
			return nil, fmt.Errorf("%w: entry of %d bytes in a sync response", ErrMalformed, l)
		}
		out = append(out, p[:l:l])
		p = p[l:]
	}
	if len(p) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes after a sync response", ErrMalformed, len(p))
	}
	return out, nil
}
