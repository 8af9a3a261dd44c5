package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestDuelUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bad edition", []string{"--edition", "deluxe"}, `bad --edition "deluxe"`},
		{"classic 2", []string{"--players", "2"}, "the classic edition seats 3 to 4 players"},
		{"no deals", []string{"--deals", "0"}, "bad --deals 0"},
		{"unknown a", []string{"--a", "genius"}, `bad --a "genius"`},
		{"unknown b", []string{"--b", "search:fast"}, `bad --b "search:fast"`},
		{"negative budget", []string{"--budget", "-1s"}, "bad --budget -1s"},
		{"bad budget", []string{"--budget", "soon"}, "invalid value"},
		{"negative workers", []string{"--workers", "-2"}, "bad --workers -2"},
		{"extra argument", []string{"now"}, `unexpected argument "now"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(append([]string{"duel"}, tc.args...), &stdout, &stderr); code != ExitUsage {
				t.Errorf("exit code %d, want %d", code, ExitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) || !strings.Contains(stderr.String(), "Usage: njet duel") {
				t.Errorf("stderr lacks %q or the usage:\n%s", tc.want, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
}

// TestDuelLine runs a tiny match and checks that stdout holds exactly the
// one summary line and stderr the progress.
func TestDuelLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Run([]string{"duel", "--edition", "modern", "--players", "2", "--deals", "3", "--seed", "5",
		"--a", "search:quick", "--b", "random"}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	re := regexp.MustCompile(`^search:quick vs random: points per seat per round -?\d+\.\d{3} vs -?\d+\.\d{3}, difference -?\d+\.\d{3} ± \d+\.\d{3} \(95% confidence\)\n$`)
	if !re.MatchString(stdout.String()) {
		t.Errorf("stdout %q does not match %s", stdout.String(), re)
	}
	if !strings.Contains(stderr.String(), "deal 3/3") {
		t.Errorf("no progress on stderr: %q", stderr.String())
	}
	var again bytes.Buffer
	Run([]string{"duel", "--edition", "modern", "--players", "2", "--deals", "3", "--seed", "5",
		"--a", "search:quick", "--b", "random", "--workers", "1"}, &again, &bytes.Buffer{})
	if again.String() != stdout.String() {
		t.Errorf("one seed, two results: %q and %q", stdout.String(), again.String())
	}
}
