package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ntable "github.com/njetlan/njet/table"
)

// TestVerifyTheGame: njet verify checks a log of The Game and prints its
// result; a changed byte fails it.
func TestVerifyTheGame(t *testing.T) {
	s, err := ntable.NewTheGameSelfplay(ntable.TheGameSelfplayConfig{Players: 2, Extreme: true, Seed: 5, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	b, err := s.Export(0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.njetlog")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"verify", path}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, w := range []string{"The Game (Extreme), 2 players", "cards left", "verified", "of The Game", "the game is over"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("no %q in:\n%s", w, stdout.String())
		}
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"verify", path}, &stdout, &stderr); code == exitOK || !strings.Contains(stderr.String(), "njet verify") {
		t.Fatalf("a changed log: exit %d, %s", code, stderr.String())
	}
}

// TestHostTheGameFlags: njet host --game thegame refuses bad flags with a
// usage error before it opens anything.
func TestHostTheGameFlags(t *testing.T) {
	for _, args := range [][]string{
		{"host", "--game", "thegame"},
		{"host", "--game", "thegame", "--name", "G", "--players", "6"},
		{"host", "--game", "thegame", "--name", "G", "--bots", "3", "--players", "3"},
		{"host", "--game", "thegame", "--name", "G", "--bot", "heuristic"},
		{"host", "--game", "chess", "--name", "G"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want a usage error: %s", args, code, stderr.String())
		}
	}
}
