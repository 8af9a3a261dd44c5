package p2p

import crand "crypto/rand"

// cryptoReader reads from crypto/rand.
type cryptoReader struct{}

func (cryptoReader) Read(b []byte) (int, error) { return crand.Read(b) }
