package lan

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoFrontEnd keeps lan below the front ends: it must not import the
// terminal game (main wires the two), so that other front ends can use
// it alone.
func TestNoFrontEnd(t *testing.T) {
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
		case "github.com/njetlan/njet/term", "github.com/njetlan/njet/sim", "github.com/njetlan/njet":
			t.Errorf("lan depends on %s", path)
		}
	}
}

// TestNoRules keeps lan free of every game's rules and players: it
// imports no rules engine and no bot; the registry of games (package
// games) and the seats (package seat) answer for them.
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
			t.Errorf("lan imports %s", path)
		}
	}
}
