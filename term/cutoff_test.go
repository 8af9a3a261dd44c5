package term

import (
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// A device that hears none of the others is told so once, and not asked
// to vote for a bot in a seat whose device it cannot hear either; once it
// hears them again the wait and the vote are as before.
func TestLANCutOffTold(t *testing.T) {
	var out strings.Builder
	l := &lan{answered: map[question]bool{}}
	l.screen = &screen{e: engine.Classic, n: 3, you: 0, others: "Seat", view: l.view, out: &printer{w: &out, width: -1}}
	heard := time.Unix(1e9, 0)
	since := heard.Add(-20 * time.Second)
	v := table.PeerView{Turn: 2, Kind: tablelog.KindPlay, Since: since, Silent: 60 * time.Second, Patience: 30 * time.Second,
		Voidable: true, Away: 45 * time.Second, Needed: 2, Heard: heard, Unheard: seat.CutOffAfter + 2*time.Second}
	for range 3 {
		l.showWait(v)
	}
	if got := out.String(); strings.Count(got, "No other device heard for 12 s: check this device's Wi-Fi.") != 1 ||
		strings.Contains(got, "let a bot play") {
		t.Fatalf("cut off, the terminal says %q", got)
	}
	out.Reset()
	v.Heard, v.Unheard = heard.Add(40*time.Second), time.Second
	l.showWait(v)
	if got := out.String(); !strings.Contains(got, "let a bot play seat 2? (yes/no)") {
		t.Fatalf("back with the table, the terminal says %q", got)
	}
}

// TestClockReminder: the table's clock reminds the person at 30 s and at
// 10 s left, once each, however the seconds go by between two looks.
func TestClockReminder(t *testing.T) {
	for _, c := range []struct {
		left, told int
		want       bool
	}{
		{60, 60, false}, {31, 60, false}, {30, 60, true}, {25, 60, true}, {25, 30, false},
		{11, 30, false}, {10, 30, true}, {3, 30, true}, {9, 10, false}, {0, 10, false}, {8, 45, true},
	} {
		if got := clockReminder(c.left, c.told); got != c.want {
			t.Errorf("%d s left, %d told: reminder %v, want %v", c.left, c.told, got, c.want)
		}
	}
}
