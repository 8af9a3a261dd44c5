package main

import (
	"bytes"
	"github.com/njetlan/njet/internal/cli"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTerminalQuietUnderCLocale runs a terminal game in a child process
// (this test binary, which links the app) under LANG=C.UTF-8: nothing but
// the game's own words may reach stderr, fyne's locale error included.
func TestTerminalQuietUnderCLocale(t *testing.T) {
	if os.Getenv("NJET_TEST_CHILD") == "play" {
		code := cli.Run([]string{"play", "--seed", "1"}, os.Stdout, os.Stderr)
		if code != 0 {
			t.Fatalf("exit code %d", code)
		}
		return
	}
	for _, env := range [][]string{{"LANG=C.UTF-8"}, {"LC_ALL=C.utf8"}, {"LANG=C"}, {"LANG=de_DE.UTF-8"}} {
		t.Run(env[0], func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestTerminalQuietUnderCLocale$")
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); k != "LANG" && k != "LANGUAGE" && !strings.HasPrefix(k, "LC_") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, append(env, "NJET_TEST_CHILD=play")...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr is not empty:\n%s", stderr.String())
			}
			if !strings.Contains(stdout.String(), "Input ended") {
				t.Errorf("the game did not run:\n%s", stdout.String())
			}
		})
	}
}
