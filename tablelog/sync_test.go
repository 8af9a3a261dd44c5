package tablelog

import (
	"bytes"
	"errors"
	"testing"
)

func TestSyncRequestRoundTrip(t *testing.T) {
	r := SyncRequest{Table: TableID{1, 2}, From: 7, To: 300}
	enc, err := r.MarshalBinary()
	if err != nil || len(enc) != SyncRequestSize {
		t.Fatal(err)
	}
	back, err := ParseSyncRequest(enc)
	if err != nil || back != r {
		t.Fatalf("%+v %v", back, err)
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"short", enc[:10], ErrMalformed},
		{"trailing", append(bytes.Clone(enc), 0), ErrMalformed},
		{"version", append([]byte{2}, enc[1:]...), ErrUnknownVersion},
		{"empty range", func() []byte { b, _ := (SyncRequest{From: 1, To: 2}).MarshalBinary(); b[48] = 1; return b }(), ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseSyncRequest(tc.data); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := (SyncRequest{From: 3, To: 3}).MarshalBinary(); !errors.Is(err, ErrMalformed) {
		t.Fatal(err)
	}
}

func TestSyncResponseRoundTrip(t *testing.T) {
	// The format carries any bytes; the receiver parses the envelopes.
	encs := [][]byte{{1, 2, 3}, {}, bytes.Repeat([]byte{9}, 300)}
	for _, entries := range [][][]byte{nil, encs} {
		data, err := MarshalSyncResponse(entries)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseSyncResponse(data)
		if err != nil || len(back) != len(entries) {
			t.Fatalf("%d entries, %v", len(back), err)
		}
		for i := range back {
			if !bytes.Equal(back[i], entries[i]) {
				t.Fatalf("entry %d differs", i)
			}
		}
	}
	good, _ := MarshalSyncResponse(encs)
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"short", good[:3], ErrMalformed},
		{"truncated", good[:len(good)-1], ErrMalformed},
		{"trailing", append(bytes.Clone(good), 0), ErrMalformed},
		{"version", append([]byte{0}, good[1:]...), ErrUnknownVersion},
		{"count over the limit", []byte{1, 0, 0, 1, 1}, ErrTooLarge},
		{"count beyond the data", []byte{1, 0, 0, 0, 2, 0, 0, 0, 0}, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseSyncResponse(tc.data); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := MarshalSyncResponse(make([][]byte, MaxRange+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
}
