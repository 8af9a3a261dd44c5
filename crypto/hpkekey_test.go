package crypto

import (
	"encoding/hex"
	"testing"

	"github.com/gtank/ristretto255"
)

// x25519Key decodes a hex X25519 public key for a test table.
func x25519Key(t *testing.T, h string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 32 {
		t.Fatalf("bad test key %q", h)
	}
	return [32]byte(b)
}

// withHPKE re-issues seat s's key message with hpkeKey in place of its own
// HPKE key and a valid proof over it, as a cheating seat would publish it.
func withHPKE(t *testing.T, s *Secrets, p Params, key [32]byte, rnd *table) *KeyMessage {
	t.Helper()
	m := &KeyMessage{Seat: s.seat, Key: s.public(), HPKE: key}
	k := must(randomScalar(rnd.rand)).of(t)
	R := ristretto255.NewElement().ScalarBaseMult(k)
	c := keyChallenge(p, m, pointOf(R))
	z := ristretto255.NewScalar().Multiply(c, &s.key)
	z.Add(z, k)
	m.Proof = joinProof(c, z)
	return m
}

// badHPKEKeys are X25519 public keys nobody can seal to, or that are not
// canonical encodings.
var badHPKEKeys = []struct{ name, hex string }{
	{"all zero (order 1)", "0000000000000000000000000000000000000000000000000000000000000000"},
	{"u=1 (order 4)", "0100000000000000000000000000000000000000000000000000000000000000"},
	{"order 8", "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"},
	{"other order 8", "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"},
	{"u=p-1 (order 2)", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
	{"u=p, non-canonical zero", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
	{"u=p+1, non-canonical one", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
	{"top bit set", "0900000000000000000000000000000000000000000000000000000000000080"},
}

// A seat that publishes an HPKE key nobody can seal to is caught when its
// key message is checked, with a valid proof over the bad key, and named.
func TestCheatHPKEKey(t *testing.T) {
	p := testParams(3, 36)
	tt := newTable(t, p, seeded(21))
	for _, bk := range badHPKEKeys {
		t.Run(bk.name, func(t *testing.T) {
			m := withHPKE(t, tt.secrets[2], p, x25519Key(t, bk.hex), tt)
			wantCheat(t, VerifyKey(p, m), 2, CheckHPKEKey)
			keys := append([]KeyMessage(nil), tt.tr.Keys...)
			keys[2] = *m
			_, err := NewRound(p, keys)
			wantCheat(t, err, 2, CheckHPKEKey)
		})
	}
	t.Run("honest key with a re-made proof passes", func(t *testing.T) {
		m := withHPKE(t, tt.secrets[1], p, tt.tr.Keys[1].HPKE, tt)
		if err := VerifyKey(p, m); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("u=9, the base point, passes", func(t *testing.T) {
		if err := checkHPKEKey(x25519Key(t, "0900000000000000000000000000000000000000000000000000000000000000")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("fresh honest keys pass", func(t *testing.T) {
		rnd := seeded(22)
		for seat := range 64 {
			s := must(NewSecrets(seat%MaxParties, rnd)).of(t)
			m := must(s.KeyMessage(testParams(MaxParties, 36), rnd)).of(t)
			if err := checkHPKEKey(m.HPKE); err != nil {
				t.Fatalf("honest key %x: %v", m.HPKE, err)
			}
		}
	})
}

// A seal to a key that fails names the key's owner, not the sealer, so the
// table can report the owner instead of looking silent itself.
func TestCheatSealToBadHPKEKey(t *testing.T) {
	tt := newTable(t, testParams(3, 36), seeded(23))
	for _, bk := range badHPKEKeys[:5] {
		t.Run(bk.name, func(t *testing.T) {
			key := x25519Key(t, bk.hex)
			pk, err := hpkeKEM.NewPublicKey(key[:])
			if err != nil {
				t.Fatalf("the key must reach the seal for this test: %v", err)
			}
			// A round built before keys were checked: it holds the bad key.
			r := must(NewRound(tt.p, tt.tr.Keys)).of(t)
			r.hpke[1] = pk
			_, err = r.Deal(tt.secrets[0], tt.deck, 4, 1, tt.rand)
			wantCheat(t, err, 1, CheckHPKEKey)
		})
	}
	t.Run("a good key still seals", func(t *testing.T) {
		if _, err := tt.round.Deal(tt.secrets[0], tt.deck, 4, 1, tt.rand); err != nil {
			t.Fatal(err)
		}
	})
}
