package forge

import (
	"crypto/ed25519"
	"crypto/sha512"
	"fmt"
	"io"

	"filippo.io/edwards25519"
)

// Sign signs msg with priv as Ed25519 does, but with a nonce drawn from
// rng instead of the one derived from the key and the message: a second
// signature of the same message that verifies under the same key, as any
// holder of the key can make. An honest signer (crypto/ed25519) signs a
// message one way only, so two envelopes that differ only by their
// signature are an equivocation; tests make the second with Sign.
func Sign(priv ed25519.PrivateKey, msg []byte, rng io.Reader) ([ed25519.SignatureSize]byte, error) {
	var sig [ed25519.SignatureSize]byte
	if len(priv) != ed25519.PrivateKeySize {
		return sig, fmt.Errorf("forge: a private key of %d bytes", len(priv))
	}
	h := sha512.Sum512(priv.Seed())
	a, err := edwards25519.NewScalar().SetBytesWithClamping(h[:32])
	if err != nil {
		return sig, err
	}
	var nonce [64]byte
	if _, err := io.ReadFull(rng, nonce[:]); err != nil {
		return sig, err
	}
	r, err := edwards25519.NewScalar().SetUniformBytes(nonce[:])
	if err != nil {
		return sig, err
	}
	R := new(edwards25519.Point).ScalarBaseMult(r)
	kh := sha512.New()
	kh.Write(R.Bytes())
	kh.Write(priv[32:])
	kh.Write(msg)
	k, err := edwards25519.NewScalar().SetUniformBytes(kh.Sum(nil))
	if err != nil {
		return sig, err
	}
	copy(sig[:32], R.Bytes())
	copy(sig[32:], edwards25519.NewScalar().MultiplyAdd(k, a, r).Bytes())
	if !ed25519.Verify(priv.Public().(ed25519.PublicKey), msg, sig[:]) {
		return sig, fmt.Errorf("forge: the second signature does not verify")
	}
	return sig, nil
}
