package p2p

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoRules keeps p2p free of every game's rules and players: it
// imports no rules engine and no bot, and asks the registry of games
// (package games) which game a table plays.
func TestNoRules(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-f", `{{join .Imports "\n"}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		switch path {
		case "github.com/njetlan/njet/engine", "github.com/njetlan/njet/thegame",
			"github.com/njetlan/njet/bot", "github.com/njetlan/njet/thegame/bot":
			t.Errorf("p2p imports %s", path)
		}
	}
}
