package p2p

import "testing"

// A seat of The Game asked for with a Njet bot kind gets one of The Game's
// bots, weaker for the weaker kinds; The Game's own kinds stay.
func TestTheGameKind(t *testing.T) {
	for _, c := range []struct {
		kind  string
		human bool
		want  string
	}{
		{"random", false, "greedy"},
		{"heuristic", false, "coop"},
		{"search", false, "coop"},
		{"search:quick", false, "coop"},
		{"greedy", false, "greedy"},
		{"coop-silent", false, "coop-silent"},
		{"", false, "coop"},
		{"random", true, "coop"},
	} {
		if got := theGameKind(c.kind, c.human); got != c.want {
			t.Errorf("theGameKind(%q, %v) = %q, want %q", c.kind, c.human, got, c.want)
		}
	}
}
