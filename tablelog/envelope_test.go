package tablelog

import (
	"bytes"
	"errors"
	"testing"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	f := newFixture(t, 3, 100)
	for _, e := range append(f.chain(t, 4), seal(t, f.privs[1], f.table, 9, Hash{1}, 1, KindBotSeat, "")) {
		enc, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(enc) != EnvelopeHeaderSize+len(e.Body)+SignatureSize {
			t.Fatalf("encoding of %d bytes", len(enc))
		}
		d, err := ParseEnvelope(enc)
		if err != nil {
			t.Fatal(err)
		}
		again, err := d.MarshalBinary()
		if err != nil || !bytes.Equal(enc, again) {
			t.Fatalf("round trip changed the encoding: %v", err)
		}
		if d.Hash() != e.Hash() {
			t.Fatal("hash changed")
		}
		if err := d.Verify(f.ids[e.Author]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEnvelopeDecodeRejects(t *testing.T) {
	f := newFixture(t, 3, 100)
	good, err := seal(t, f.privs[0], f.table, 0, Hash{}, 0, KindGenesis, "setup").MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	mod := func(fn func(b []byte) []byte) []byte { return fn(bytes.Clone(good)) }
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrMalformed},
		{"shorter than the fixed part", good[:EnvelopeHeaderSize+SignatureSize-1], ErrMalformed},
		{"truncated signature", good[:len(good)-1], ErrMalformed},
		{"trailing byte", append(bytes.Clone(good), 0), ErrMalformed},
		{"unknown version 0", mod(func(b []byte) []byte { b[0] = 0; return b }), ErrUnknownVersion},
		{"unknown version 2", mod(func(b []byte) []byte { b[0] = 2; return b }), ErrUnknownVersion},
		{"kind 0", mod(func(b []byte) []byte { b[74] = 0; return b }), ErrUnknownKind},
		{"kind past the last", mod(func(b []byte) []byte { b[74] = uint8(kindEnd); return b }), ErrUnknownKind},
		{"body length too long", mod(func(b []byte) []byte { b[78]++; return b }), ErrMalformed},
		{"body length huge", mod(func(b []byte) []byte { b[75] = 0xff; return b }), ErrMalformed},
		{"oversize", make([]byte, MaxEnvelopeSize+1), ErrTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseEnvelope(tc.data); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestEnvelopeLimits(t *testing.T) {
	f := newFixture(t, 1, 10)
	e := &Envelope{Version: EnvelopeVersion, Table: f.table, Kind: KindShuffle, Body: make([]byte, MaxBodySize)}
	if err := e.Sign(f.privs[0]); err != nil {
		t.Fatal(err)
	}
	enc, err := e.MarshalBinary()
	if err != nil || len(enc) != MaxEnvelopeSize {
		t.Fatalf("largest envelope: %d bytes, %v", len(enc), err)
	}
	if _, err := ParseEnvelope(enc); err != nil {
		t.Fatal(err)
	}
	e.Body = append(e.Body, 0)
	if _, err := e.MarshalBinary(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversize body: %v", err)
	}
	if err := e.Sign(f.privs[0]); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("signing an oversize body: %v", err)
	}
	bad := &Envelope{Version: EnvelopeVersion, Kind: 99}
	if _, err := bad.MarshalBinary(); !errors.Is(err, ErrUnknownKind) {
		t.Fatalf("unknown kind: %v", err)
	}
	if err := bad.Sign([]byte("short")); !errors.Is(err, ErrMalformed) {
		t.Fatalf("short key: %v", err)
	}
}

func TestEnvelopeSignatureCoversEveryField(t *testing.T) {
	f := newFixture(t, 2, 10)
	base := seal(t, f.privs[0], f.table, 7, Hash{9}, 0, KindPlay, "card")
	changes := map[string]func(e *Envelope){
		"table":  func(e *Envelope) { e.Table[31] ^= 1 },
		"seq":    func(e *Envelope) { e.Seq++ },
		"prev":   func(e *Envelope) { e.Prev[0] ^= 1 },
		"author": func(e *Envelope) { e.Author = 1 },
		"kind":   func(e *Envelope) { e.Kind = KindReveal },
		"body":   func(e *Envelope) { e.Body[0] ^= 1 },
		"sig":    func(e *Envelope) { e.Signature[63] ^= 1 },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			e := base.Clone()
			change(e)
			if err := e.Verify(f.ids[0]); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("got %v", err)
			}
		})
	}
	if err := base.Verify(f.ids[1]); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("another seat's key: %v", err)
	}
}

func TestKindNames(t *testing.T) {
	for k := KindGenesis; k < kindEnd; k++ {
		if !k.Valid() || k.String() == "" || k.String()[0] == 'K' {
			t.Errorf("kind %d: %q", k, k.String())
		}
	}
	if Kind(0).Valid() || kindEnd.Valid() || Kind(200).String() != "Kind(200)" {
		t.Error("unknown kinds")
	}
}
