package crypto

import (
	"bytes"
	"encoding"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/cryptotest"
)

var update = flag.Bool("update", false, "rewrite the known-answer files in testdata")

// katRound plays the known-answer round: 2 seats, 36 cards, every random
// choice from a fixed seed (HPKE's ephemeral keys via the test's global
// random source).
func katRound(t *testing.T) *Transcript {
	cryptotest.SetGlobalRandom(t, 1)
	tt := fullRound(t, 2, 36, 42)
	return &tt.tr
}

func TestKnownAnswer(t *testing.T) {
	tr := katRound(t)
	got := must(tr.MarshalBinary()).of(t)
	path := filepath.Join("testdata", "round-2x36.bin")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run KnownAnswer -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the round encodes differently from %s: the protocol or its encoding changed", path)
	}
	var stored Transcript
	if err := stored.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	if err := Audit(&stored); err != nil {
		t.Fatal(err)
	}
}

// A round recorded before the nonces bound the round's parameters still
// decodes and audits: nonces are the prover's business, and a verifier
// never recomputes them.
func TestOlderNoncesStillAudit(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "round-2x36-older-nonces.bin"))
	if err != nil {
		t.Fatal(err)
	}
	var tr Transcript
	if err := tr.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := Audit(&tr); err != nil {
		t.Fatal(err)
	}
}

// TestCardPoints pins the hash-to-group of card labels.
func TestCardPoints(t *testing.T) {
	var b strings.Builder
	for _, id := range []string{"njet", "njet-test"} {
		for _, i := range []int{0, 1, 59} {
			b.WriteString(id + " " + strconv.Itoa(i) + " " + pointOf(cardPoint(id, i)).String() + "\n")
		}
	}
	path := filepath.Join("testdata", "card-points.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("card points changed:\n%s\nwant:\n%s", b.String(), want)
	}
}

var (
	fixtureOnce sync.Once
	fixture     *Transcript
	fixtureErr  error
)

// fuzzFixture is one small honest round whose messages seed the fuzzers.
func fuzzFixture(f *testing.F) *Transcript {
	fixtureOnce.Do(func() {
		var stored Transcript
		b, err := os.ReadFile(filepath.Join("testdata", "round-2x36.bin"))
		if err == nil {
			err = stored.UnmarshalBinary(b)
		}
		fixture, fixtureErr = &stored, err
	})
	if fixtureErr != nil {
		f.Fatal(fixtureErr)
	}
	return fixture
}

// roundTrip checks that whatever decodes encodes back to the same bytes.
func roundTrip[T any, P interface {
	*T
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}](t *testing.T, b []byte) {
	var v T
	if err := P(&v).UnmarshalBinary(b); err != nil {
		return
	}
	out, err := P(&v).MarshalBinary()
	if err != nil {
		t.Fatalf("decoded but does not encode: %v", err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("decode/encode changed the bytes:\n%x\n%x", b, out)
	}
}

func addSeeds[T encoding.BinaryMarshaler](f *testing.F, msgs ...T) {
	for _, m := range msgs {
		b, err := m.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if len(b) > 3 {
			f.Add(b[:len(b)-1])
			f.Add(append(append([]byte(nil), b...), 0))
		}
	}
}

func ptrs[T any](v []T) []*T {
	out := make([]*T, len(v))
	for i := range v {
		out[i] = &v[i]
	}
	return out
}

func FuzzParams(f *testing.F) {
	addSeeds(f, fuzzFixture(f).Params)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[Params](t, b) })
}

func FuzzKeyMessage(f *testing.F) {
	addSeeds(f, ptrs(fuzzFixture(f).Keys)...)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[KeyMessage](t, b) })
}

func FuzzShuffleMessage(f *testing.F) {
	addSeeds(f, ptrs(fuzzFixture(f).Shuffles)...)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[ShuffleMessage](t, b) })
}

func FuzzSealed(f *testing.F) {
	addSeeds(f, ptrs(fuzzFixture(f).Sealed[:4])...)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[Sealed](t, b) })
}

func FuzzPlayMessage(f *testing.F) {
	addSeeds(f, ptrs(fuzzFixture(f).Plays)...)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[PlayMessage](t, b) })
}

func FuzzToken(f *testing.F) {
	tr := fuzzFixture(f)
	addSeeds(f, &tr.Plays[0].Openings[0].Token, &tr.Plays[0].Openings[1].Token)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[Token](t, b) })
}

func FuzzReveal(f *testing.F) {
	addSeeds(f, ptrs(fuzzFixture(f).Reveals)...)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[Reveal](t, b) })
}

func FuzzSecrets(f *testing.F) {
	s := must(NewSecrets(1, seeded(5))).of(f)
	addSeeds(f, s)
	f.Fuzz(func(t *testing.T, b []byte) {
		var v Secrets
		if err := v.UnmarshalBinary(b); err != nil {
			return
		}
		out := must(v.MarshalBinary()).of(t)
		if !bytes.Equal(out, b) {
			t.Fatalf("decode/encode changed the bytes")
		}
	})
}

func FuzzTranscript(f *testing.F) {
	addSeeds(f, fuzzFixture(f))
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip[Transcript](t, b) })
}

// TestImportsNothingAbove checks that the package depends on no other
// package of this module (DESIGN: crypto imports nothing above it).
func TestImportsNothingAbove(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	const self = "github.com/njetlan/njet/crypto"
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/njetlan/njet") && dep != self {
			t.Errorf("crypto depends on %s", dep)
		}
	}
}

// TestEdwards25519Version keeps filippo.io/edwards25519 at v1.2.0 or later:
// earlier versions have CVE-2026-26958 in MultiScalarMult, which the
// verifiers call.
func TestEdwards25519Version(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-m", "-f", "{{.Version}}", "filippo.io/edwards25519").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(string(out))
	var major, minor, patch int
	if _, err := fmt.Sscanf(version, "v%d.%d.%d", &major, &minor, &patch); err != nil {
		t.Fatalf("cannot read version %q: %v", version, err)
	}
	if major < 1 || major == 1 && minor < 2 {
		t.Errorf("filippo.io/edwards25519 %s: want v1.2.0 or later", version)
	}
}
