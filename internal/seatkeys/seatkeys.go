// Package seatkeys makes the deterministic seat keys of the table's tests.
package seatkeys

import (
	"crypto/ed25519"
	"math/rand/v2"
)

// New makes n seat keys drawn from seed, and their public keys as the
// identity type ID (the log's Identity; the package imports no table, so
// that the log's own tests can use it).
func New[ID ~[ed25519.PublicKeySize]byte](seed uint64, n int) ([]ed25519.PrivateKey, []ID) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6a6574))
	privs := make([]ed25519.PrivateKey, n)
	ids := make([]ID, n)
	for i := range n {
		var s [ed25519.SeedSize]byte
		for j := range s {
			s[j] = byte(rng.Uint32())
		}
		privs[i] = ed25519.NewKeyFromSeed(s[:])
		ids[i] = ID(privs[i].Public().(ed25519.PublicKey))
	}
	return privs, ids
}
