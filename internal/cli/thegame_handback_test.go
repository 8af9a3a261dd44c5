package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ntable "github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
)

// TestVerifyTheGameHandBack: njet verify of a log of The Game in which seat
// 1's device left, was taken over and came back prints the takeover and
// the hand-over, as it does for Njet, and the verified result.
func TestVerifyTheGameHandBack(t *testing.T) {
	dir := t.TempDir()
	back := ntable.Leave{Seat: 1, ReturnAt: 1, When: func(g *ntable.Game) bool {
		v := g.TheGame().View(0)
		return v.Phase == thegame.PhasePlay && v.Turns >= 3 && v.Turn == 1
	}}
	s := theGameSelfplay(t, ntable.SelfplayConfig{Players: 3, Extreme: true, Seed: 2102, Dir: dir,
		Leaves: []ntable.Leave{back}, VoidAfter: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "back.njetlog")
	if _, err := s.Export(1, path); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if code := Run([]string{"verify", path}, &out, &stderr); code != ExitOK {
		t.Fatalf("verify: exit %d: %s%s", code, out.String(), stderr.String())
	}
	for _, want := range []string{"a round was voided", "seat 1 was handed from its bot to device", "The Game (Extreme), 3 players"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify prints no %q:\n%s", want, out.String())
		}
	}
}
