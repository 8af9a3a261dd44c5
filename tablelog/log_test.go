package tablelog

import (
	"errors"
	"fmt"
	"testing"
)

// mustAppend appends the envelopes in order and fails on any error.
func mustAppend(t *testing.T, l *Log, envs ...*Envelope) {
	t.Helper()
	for _, e := range envs {
		if _, err := l.Append(e); err != nil {
			t.Fatalf("append seq %d: %v", e.Seq, err)
		}
	}
}

func TestLogAppendsAChain(t *testing.T) {
	f := newFixture(t, 3, 100)
	l := f.newLog(t)
	envs := f.chain(t, 10)
	mustAppend(t, l, envs...)
	next, prev := l.Head()
	if next != 10 || prev != envs[9].Hash() {
		t.Fatalf("head %d %v", next, prev)
	}
	got, ok := l.Get(4)
	if !ok || got.Hash() != envs[4].Hash() {
		t.Fatal("Get")
	}
	got.Body[0] ^= 1 // a copy: the log must not change
	if again, _ := l.Get(4); again.Hash() != envs[4].Hash() {
		t.Fatal("Get returned the log's own envelope")
	}
	if r := l.Range(8, 20); len(r) != 2 || r[1].Seq != 9 {
		t.Fatalf("Range: %d", len(r))
	}
}

func TestLogRejects(t *testing.T) {
	f := newFixture(t, 3, 20)
	envs := f.chain(t, 4) // seats 0 (genesis), 0, 1, 2
	head := envs[3].Hash()
	other := newFixture(t, 3, 20)
	other.table = TableID{0xff}
	otherEnvs := other.chain(t, 5)
	// The envelope at seq 4 is seat 0's; seat 1 is next at 5.
	next := func(author uint8, signer int, kind Kind, body string) *Envelope {
		return seal(t, f.privs[signer], f.table, 4, head, author, kind, body)
	}
	tests := []struct {
		name string // R-LOG rule ids name the rules in docs/protocol.md
		env  *Envelope
		want error
	}{
		{"R-LOG-1 wrong table", seal(t, f.privs[0], TableID{1}, 4, head, 0, KindPlay, "x"), ErrWrongTable},
		{"R-LOG-1 replay from another table", otherEnvs[4], ErrWrongTable},
		{"R-LOG-2 bad previous hash", seal(t, f.privs[0], f.table, 4, Hash{1}, 0, KindPlay, "x"), ErrBadChain},
		{"R-LOG-2 previous hash of an older envelope", seal(t, f.privs[0], f.table, 4, envs[2].Hash(), 0, KindPlay, "x"), ErrBadChain},
		{"R-LOG-3 forged author", next(0, 1, KindPlay, "x"), ErrBadSignature},
		{"R-LOG-3 corrupted signature", func() *Envelope { e := next(0, 0, KindPlay, "x"); e.Signature[5] ^= 1; return e }(), ErrBadSignature},
		{"R-LOG-4 out of turn", next(1, 1, KindPlay, "x"), ErrNotEntitled},
		{"R-LOG-4 kind not allowed", next(0, 0, KindShuffle, "x"), ErrNotEntitled},
		{"R-LOG-4 genesis after seq 0", next(0, 0, KindGenesis, "x"), ErrNotEntitled},
		{"R-LOG-5 body refused by the protocol", next(0, 0, KindPlay, "bad card"), ErrRejected},
		{"R-LOG-6 duplicate", envs[2], ErrDuplicate},
		{"R-LOG-6 old seq by another seat", seal(t, f.privs[1], f.table, 3, envs[2].Hash(), 1, KindPlay, "late"), ErrNotEntitled},
		{"R-LOG-6 old seq, forged", seal(t, f.privs[1], f.table, 3, envs[2].Hash(), 2, KindPlay, "late"), ErrBadSignature},
		{"R-LOG-7 equivocation", seal(t, f.privs[2], f.table, 3, envs[2].Hash(), 2, KindPlay, "other"), ErrEquivocation},
		{"R-LOG-8 unknown kind", func() *Envelope { e := next(0, 0, KindPlay, "x"); e.Kind = 77; return e }(), ErrUnknownKind},
		{"R-LOG-8 unknown version", func() *Envelope { e := next(0, 0, KindPlay, "x"); e.Version = 2; return e }(), ErrUnknownVersion},
		{"R-LOG-8 oversize body", func() *Envelope {
			e := next(0, 0, KindPlay, "x")
			e.Body = make([]byte, MaxBodySize+1)
			return e
		}(), ErrTooLarge},
		{"R-LOG-9 ahead of the log", seal(t, f.privs[1], f.table, 5, Hash{}, 1, KindPlay, "x"), ErrGap},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := f.newLog(t)
			mustAppend(t, l, envs...)
			before, beforeHash := l.Head()
			appended, err := l.Append(tc.env)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if len(appended) != 0 {
				t.Fatal("a rejected envelope was appended")
			}
			if after, afterHash := l.Head(); after != before || afterHash != beforeHash {
				t.Fatal("the log changed")
			}
		})
	}
	t.Run("R-LOG-4 nobody entitled after the end", func(t *testing.T) {
		g := newFixture(t, 2, 3)
		l := g.newLog(t)
		es := g.chain(t, 3)
		mustAppend(t, l, es...)
		_, err := l.Append(seal(t, g.privs[0], g.table, 3, es[2].Hash(), 0, KindPlay, "x"))
		if !errors.Is(err, ErrNotEntitled) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("R-LOG-1 genesis with a previous hash", func(t *testing.T) {
		l := f.newLog(t)
		_, err := l.Append(seal(t, f.privs[0], f.table, 0, Hash{1}, 0, KindGenesis, "x"))
		if !errors.Is(err, ErrBadChain) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestLogEquivocationEvidence(t *testing.T) {
	f := newFixture(t, 3, 20)
	envs := f.chain(t, 4)
	l := f.newLog(t)
	mustAppend(t, l, envs...)
	twin := seal(t, f.privs[2], f.table, 3, envs[2].Hash(), 2, KindPlay, "a different card")
	_, err := l.Append(twin)
	var eq *EquivocationError
	if !errors.As(err, &eq) {
		t.Fatalf("got %v", err)
	}
	if err := eq.Evidence.Verify(); err != nil {
		t.Fatal(err)
	}
	// Seen again: still an equivocation, recorded once.
	if _, err := l.Append(twin); !errors.Is(err, ErrEquivocation) {
		t.Fatal(err)
	}
	evs := l.Evidence()
	if len(evs) != 1 || evs[0].First.Hash() != envs[3].Hash() || evs[0].Second.Hash() != twin.Hash() {
		t.Fatalf("evidence %+v", evs)
	}
	// The evidence stands on its own, through its encoding.
	enc, err := evs[0].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseEvidence(enc)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Verify(); err != nil {
		t.Fatal(err)
	}
	// Under another key, or with a tampered envelope, it proves nothing.
	wrong := back
	wrong.Key = f.ids[0]
	if err := wrong.Verify(); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("wrong key: %v", err)
	}
	same := Evidence{Key: f.ids[2], First: envs[3], Second: envs[3]}
	if err := same.Verify(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("one envelope twice: %v", err)
	}
	if _, err := same.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	cross := Evidence{Key: f.ids[2], First: envs[3], Second: envs[2]}
	if err := cross.Verify(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("different seqs: %v", err)
	}
}

func TestLogBuffersAndFillsGaps(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 8)
	l := f.newLog(t)
	mustAppend(t, l, envs[:2]...)
	// 6, 4, 5 arrive before 2 and 3.
	for _, seq := range []int{6, 4, 5} {
		_, err := l.Append(envs[seq])
		var gap *GapError
		if !errors.As(err, &gap) || !gap.Buffered || gap.From != 2 || gap.To != 4 && seq != 6 {
			t.Fatalf("seq %d: %v", seq, err)
		}
	}
	if from, to, ok := l.Missing(); !ok || from != 2 || to != 4 {
		t.Fatalf("missing [%d, %d) %v", from, to, ok)
	}
	// A buffered envelope seen again is still the same gap.
	if _, err := l.Append(envs[5]); !errors.Is(err, ErrGap) {
		t.Fatal(err)
	}
	if got, err := l.Append(envs[2]); err != nil || len(got) != 1 {
		t.Fatalf("seq 2: %d appended, %v", len(got), err)
	}
	got, err := l.Append(envs[3])
	if err != nil || len(got) != 4 {
		t.Fatalf("seq 3: %d appended, %v", len(got), err)
	}
	for i, e := range got {
		if e.Seq != uint64(3+i) {
			t.Fatalf("appended out of order: %d", e.Seq)
		}
	}
	if _, _, ok := l.Missing(); ok {
		t.Fatal("nothing should be missing")
	}
	if _, err := l.Append(envs[7]); err != nil {
		t.Fatal(err)
	}
}

func TestLogBufferedForgeryDoesNotBlock(t *testing.T) {
	f := newFixture(t, 3, 100)
	envs := f.chain(t, 5)
	l := f.newLog(t)
	mustAppend(t, l, envs[:3]...)
	// Seat 2 owns seq 3. A forgery claiming seat 2 and a genuine but
	// out-of-turn envelope by seat 1 arrive first; then the real one.
	forged := seal(t, f.privs[1], f.table, 4, envs[3].Hash(), 0, KindPlay, "forged")
	twin := seal(t, f.privs[0], f.table, 4, envs[3].Hash(), 0, KindPlay, "twin")
	for _, e := range []*Envelope{forged, twin, envs[4]} {
		if _, err := l.Append(e); !errors.Is(err, ErrGap) {
			t.Fatal(err)
		}
	}
	got, err := l.Append(envs[3])
	if err != nil || len(got) != 2 {
		t.Fatalf("%d appended, %v", len(got), err)
	}
	if e, _ := l.Get(4); e.Hash() != twin.Hash() && e.Hash() != envs[4].Hash() {
		t.Fatal("the forgery won")
	}
	// Seat 0 signed twin and envs[4] for seq 4: whichever lost is evidence.
	if evs := l.Evidence(); len(evs) != 1 || evs[0].Verify() != nil {
		t.Fatalf("evidence: %+v", evs)
	}
}

func TestLogBufferBounds(t *testing.T) {
	f := newFixture(t, 3, 1000)
	envs := f.chain(t, 30)
	l, err := NewLog(LogConfig{Table: f.table, Protocol: f.proto, MaxAhead: 10, MaxAheadBytes: 3 * (EnvelopeHeaderSize + len("body 5") + SignatureSize)})
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, l, envs[0])
	tests := []struct {
		seq      int
		buffered bool
	}{
		{20, false}, // too far ahead
		{5, true},
		{6, true},
		{7, true},
		{8, false}, // the byte budget is spent
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.seq), func(t *testing.T) {
			_, err := l.Append(envs[tc.seq])
			var gap *GapError
			if !errors.As(err, &gap) || gap.Buffered != tc.buffered || gap.From != 1 {
				t.Fatalf("got %v", err)
			}
		})
	}
	if _, err := NewLog(LogConfig{Table: f.table}); err == nil {
		t.Fatal("a log without a protocol")
	}
}
