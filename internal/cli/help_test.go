package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestTargetHelpSaysHouseRule: every command with --target says that
// playing to a target is a Modern variant and a house rule in Classic.
func TestTargetHelpSaysHouseRule(t *testing.T) {
	for _, cmd := range []string{"play", "sim"} {
		t.Run(cmd, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run([]string{cmd, "-h"}, &stdout, &stderr); code != ExitOK {
				t.Fatalf("exit code %d", code)
			}
			help := strings.Join(strings.Fields(stdout.String()), " ")
			if !strings.Contains(help, "a variant of the Modern rules, a house rule in a Classic game") {
				t.Errorf("the --target help does not say it is a house rule in Classic:\n%s", stdout.String())
			}
		})
	}
}

// TestHelpGoesToStdout: asked for, the usage goes to stdout (so that
// `njet help | less` shows it), names the app's --size flag, and leaves
// stderr empty; after a mistake it goes to stderr.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"play", "-h"}, {"join", "--help"}, {"host", "--name", "x", "-h"}, {"verify", "--help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(args, &stdout, &stderr); code != ExitOK {
				t.Fatalf("exit code %d", code)
			}
			if !strings.Contains(stdout.String(), "Usage: njet") || stderr.Len() != 0 {
				t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
			if len(args) == 1 && !strings.Contains(stdout.String(), "--size WxH") {
				t.Errorf("the usage does not name --size:\n%s", stdout.String())
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"play", "--colour", "red"}, &stdout, &stderr); code != ExitUsage || stdout.Len() != 0 || !strings.Contains(stderr.String(), "Usage: njet play") {
		t.Fatalf("a bad flag: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
