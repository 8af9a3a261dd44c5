package tablelog

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
)

// TableID names one table (one game). The creator draws it at random.
type TableID [32]byte

// String returns the id in hex.
func (t TableID) String() string { return hex.EncodeToString(t[:]) }

// Identity is a peer's Ed25519 public key. It is both a seat's signing key
// and, for the libp2p transport, the peer id's key, so the transport-level
// sender and the envelope author can be compared.
type Identity [ed25519.PublicKeySize]byte

// IdentityOf converts an ed25519 public key into an Identity.
func IdentityOf(pub ed25519.PublicKey) (Identity, error) {
	var id Identity
	if len(pub) != ed25519.PublicKeySize {
		return id, fmt.Errorf("%w: public key of %d bytes", ErrMalformed, len(pub))
	}
	copy(id[:], pub)
	return id, nil
}

// PublicKey returns the identity as an ed25519.PublicKey.
func (id Identity) PublicKey() ed25519.PublicKey { return ed25519.PublicKey(bytes.Clone(id[:])) }

// String returns the key in hex.
func (id Identity) String() string { return hex.EncodeToString(id[:]) }
