module github.com/njetlan/njet

go 1.26

require (
	github.com/gtank/ristretto255 v0.2.0
	go.dedis.ch/kyber/v4 v4.0.2
	go.etcd.io/bbolt v1.5.0
)

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	golang.org/x/crypto v0.48.0 // indirect
	golang.org/x/sys v0.45.0 // indirect
)
