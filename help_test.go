package main

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
			if code := run([]string{cmd, "-h"}, &stdout, &stderr); code != exitOK {
				t.Fatalf("exit code %d", code)
			}
			help := strings.Join(strings.Fields(stderr.String()), " ")
			if !strings.Contains(help, "a variant of the Modern rules, a house rule in a Classic game") {
				t.Errorf("the --target help does not say it is a house rule in Classic:\n%s", stderr.String())
			}
		})
	}
}
