package ui

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoAppPackage keeps ui free of Fyne's app package and of cgo, so that
// its tests run in software with CGO_ENABLED=0; package main creates the
// fyne.App. The check lists the dependencies as a cgo-free build sees them.
func TestNoAppPackage(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the check needs the go command: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if path == "fyne.io/fyne/v2/app" || strings.HasPrefix(path, "fyne.io/fyne/v2/internal/driver/glfw") ||
			strings.HasPrefix(path, "github.com/go-gl/") || path == "github.com/njetlan/njet" {
			t.Errorf("ui depends on %s", path)
		}
	}
}
