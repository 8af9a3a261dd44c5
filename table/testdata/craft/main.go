// Command craft writes a large hostile export for measuring njet verify:
// a real, signed genesis followed by unsigned envelopes of the largest
// size, framed and chained, with a correct digest. It lives in testdata so
// that no build of the project includes it:
//
//	go run ./table/testdata/craft -size 1073741824 -out big.njetlog
package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
)

func main() {
	size := flag.Int64("size", 1<<30, "approximate file size in bytes")
	out := flag.String("out", "big.njetlog", "the file to write")
	flag.Parse()
	if err := craft(*out, *size); err != nil {
		fmt.Fprintln(os.Stderr, "craft:", err)
		os.Exit(1)
	}
}

func craft(path string, size int64) error {
	var keys []ed25519.PrivateKey
	var ids []table.Identity
	for i := range 3 {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = byte(i + 1)
		k := ed25519.NewKeyFromSeed(seed)
		id, err := table.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			return err
		}
		keys, ids = append(keys, k), append(ids, id)
	}
	gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:3], Keys: ids, Rounds: 1}
	body, err := gen.MarshalBinary()
	if err != nil {
		return err
	}
	id := table.TableIDOf(body)
	first := &table.Envelope{Version: table.EnvelopeVersion, Table: id, Kind: table.KindGenesis, Body: body}
	if err := first.Sign(keys[0]); err != nil {
		return err
	}
	junk := make([]byte, table.MaxBodySize)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	count := uint64(1 + size/table.MaxEnvelopeSize)
	count = min(count, table.MaxExportEnvelopes)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	d := sha256.New()
	d.Write([]byte("njet/table/v1/export-digest\x00"))
	w := bufio.NewWriterSize(io.MultiWriter(f, d), 1<<20)
	head := append([]byte("NJETLOG\n"), table.ExportVersion)
	head = append(head, id[:]...)
	head = binary.BigEndian.AppendUint64(head, count)
	w.Write(head)
	prev := table.Hash{}
	e := first
	for seq := range count {
		if seq > 0 {
			e = &table.Envelope{Version: table.EnvelopeVersion, Table: id, Seq: seq, Prev: prev,
				Author: uint8(seq % 3), Kind: table.KindPlay, Body: junk}
		}
		enc, err := e.MarshalBinary()
		if err != nil {
			return err
		}
		w.Write(binary.BigEndian.AppendUint32(nil, uint32(len(enc))))
		w.Write(enc)
		prev = e.Hash()
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := f.Write(d.Sum(nil)); err != nil {
		return err
	}
	return f.Close()
}
