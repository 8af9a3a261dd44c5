package p2p

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/njetlan/njet/tablelog"
)

// watchResponse encodes a watch response as serveWatch writes it.
func watchResponse(tb testing.TB, setup []byte, envs [][]byte) []byte {
	tb.Helper()
	resp, err := tablelog.MarshalSyncResponse(envs)
	if err != nil {
		tb.Fatal(err)
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(len(setup)))
	return append(append(out, setup...), resp...)
}

func TestParseWatchResponse(t *testing.T) {
	s := fuzzSetup(t, newKey(t), newKey(t))
	setup := mustMarshal(t, s)
	gen, err := s.Genesis.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	valid := watchResponse(t, setup, [][]byte{gen})
	got, envs, err := parseWatchResponse(valid)
	if err != nil || got.Table() != s.Table() || len(envs) != 1 || !bytes.Equal(envs[0], gen) {
		t.Fatalf("a valid response: %v, %d envelopes, %v", got, len(envs), err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"short length", []byte{0, 0}},
		{"setup longer than the response", binary.BigEndian.AppendUint32(nil, 100)},
		{"no sync response", watchResponse(t, setup, nil)[:4+len(setup)]},
		{"bad setup", watchResponse(t, setup[1:], nil)},
		{"truncated envelopes", valid[:len(valid)-1]},
		{"trailing byte", append(bytes.Clone(valid), 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, envs, err := parseWatchResponse(tc.data)
			if err == nil || s != nil || envs != nil {
				t.Fatalf("accepted: %v, %d envelopes", s, len(envs))
			}
			if !errors.Is(err, tablelog.ErrMalformed) && !errors.Is(err, tablelog.ErrUnknownVersion) &&
				!errors.Is(err, tablelog.ErrTooLarge) {
				t.Errorf("error %v wraps no table sentinel", err)
			}
		})
	}
}

func FuzzParseWatchResponse(f *testing.F) {
	s := fuzzSetup(f, newKey(f), newKey(f))
	setup := mustMarshal(f, s)
	gen, err := s.Genesis.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(watchResponse(f, setup, [][]byte{gen}))
	f.Add(watchResponse(f, setup, nil))
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, envs, err := parseWatchResponse(data)
		if err != nil {
			if s != nil || envs != nil {
				t.Fatal("a setup or envelopes returned with an error")
			}
			return
		}
		if !bytes.Equal(watchResponse(t, mustMarshal(t, s), envs), data) {
			t.Fatalf("decode → encode changed the response %x", data)
		}
	})
}
