package table

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoPlayer keeps the table below the players: it depends on no bot
// package, directly or not (its peers get their players from
// PeerConfig.NewPlayer), and on no package above it.
func TestNoPlayer(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		switch path {
		case "github.com/njetlan/njet/bot", "github.com/njetlan/njet/thegame/bot", "github.com/njetlan/njet/games",
			"github.com/njetlan/njet/p2p", "github.com/njetlan/njet/lan", "github.com/njetlan/njet/seat":
			t.Errorf("table depends on %s", path)
		}
	}
}

// TestLogBelow keeps the log under the game protocol: tablelog imports
// nothing of this module and no module outside the standard library.
func TestLogBelow(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	const log = "github.com/njetlan/njet/tablelog"
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", log).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if path != log {
			t.Errorf("tablelog depends on %s", path)
		}
	}
}
