package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyTheGameHandBack: njet verify of a log of The Game in which seat
// 1's device left, was taken over and came back prints the takeover and
// the hand-over, as it does for Njet, and the verified result. The log is
// one the table's compatibility tests keep (written by an earlier version
// of the program), so the command reads it as it was written.
func TestVerifyTheGameHandBack(t *testing.T) {
	path := filepath.Join("..", "..", "table", "testdata", "compat", "thegame-takeover-handback.export")
	var out, stderr bytes.Buffer
	if code := Run([]string{"verify", path}, &out, &stderr); code != ExitOK {
		t.Fatalf("verify: exit %d: %s%s", code, out.String(), stderr.String())
	}
	for _, want := range []string{
		"a round was voided: table: seat 1 failed the silent check at seq 32",
		"seat 1 was handed from its bot to device 17c47ce9cddbd7399f413b654cbcad942f0a7a9767157cbf204b6eb844aceac0 at seq 42",
		"The Game (base game), 3 players, 43 turns: 0 cards left",
		"verified",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify prints no %q:\n%s", want, out.String())
		}
	}
}
