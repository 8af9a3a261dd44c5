package term

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/seat"
)

// hostsSeat is a TheGameLANSeat of which only the seats' hosts and names
// matter.
type hostsSeat struct {
	TheGameLANSeat
	hosts []int
}

func (s *hostsSeat) Host(seat int) int    { return s.hosts[seat] }
func (s *hostsSeat) Name(seat int) string { return []string{"Anna", "Ben", "Cleo"}[seat] }

// TestTheGameLANSeatsChangeHands: the terminal tells each seat that
// changes hands at a LAN table of The Game: another device's seat taken
// over (by this device's bot or another's), and the person's own while
// the device was away, and given back.
func TestTheGameLANSeatsChangeHands(t *testing.T) {
	var out bytes.Buffer
	s := &hostsSeat{hosts: []int{0, 1, 2}}
	l := &tgLAN{seat: s, you: 0, out: &out}
	steps := []struct {
		hosts []int
		want  string
	}{
		{[]int{0, 1, 2}, ""},
		{[]int{0, 0, 2}, "Ben left the table: a bot on your device plays that seat now"},
		{[]int{0, 0, 1}, "Cleo left the table: a bot on Ben's device plays that seat now"},
		{[]int{2, 0, 2}, "Your device was away too long and the table went on without it: a bot on Cleo's device plays your seat now."},
		{[]int{0, 0, 2}, "Your seat is yours again"},
		{[]int{0, 2, 2}, ""}, // Ben's seat from one bot's host to another's
		{[]int{0, 2, 0}, "Cleo left the table: a bot on your device plays that seat now"},
	}
	for i, st := range steps {
		out.Reset()
		s.hosts = st.hosts
		l.lookHosts(len(st.hosts))
		got := strings.TrimSpace(out.String())
		if st.want == "" && got != "" || !strings.Contains(got, st.want) || strings.Count(got, "\n") > 0 {
			t.Errorf("step %d (%v): %q, want %q", i, st.hosts, got, st.want)
		}
	}
}

// TestTheGameLANCutOffTold: a device that hears none of the others is told
// so once, with the time its peer measured, as at a Njet! table; a new
// cut-off later is told again.
func TestTheGameLANCutOffTold(t *testing.T) {
	var out bytes.Buffer
	l := &tgLAN{seat: &hostsSeat{hosts: []int{0, 1, 2}}, you: 0, out: &out}
	heard := time.Unix(1e9, 0)
	s := seat.Wait{Seat: 1, CutOff: heard, Unheard: seat.CutOffAfter + 2*time.Second}
	for range 3 {
		l.tellCutOff(s)
	}
	if got := out.String(); strings.Count(got, "No other device heard for 12 s: check this device's Wi-Fi.") != 1 {
		t.Fatalf("cut off, the terminal says %q", got)
	}
	out.Reset()
	l.tellCutOff(seat.Wait{Seat: 1})
	if out.Len() != 0 {
		t.Fatalf("back with the table, the terminal says %q", out.String())
	}
	l.tellCutOff(seat.Wait{Seat: 1, CutOff: heard.Add(time.Minute), Unheard: 15 * time.Second})
	if got := out.String(); !strings.Contains(got, "No other device heard for 15 s") {
		t.Fatalf("cut off again, the terminal says %q", got)
	}
}

// TestTheGameLANClockTold: at a table with a clock the terminal says how
// long the person has for each move they are asked, reminds them at 10 s
// left, and tells them when their bot made the move for them; a prompt
// that stood comes again under what it said.
func TestTheGameLANClockTold(t *testing.T) {
	var out bytes.Buffer
	now := time.Unix(1e9, 0)
	l := &tgLAN{seat: &hostsSeat{hosts: []int{0, 1, 2}}, you: 0, out: &out, now: func() time.Time { return now }}
	step := func(until time.Time, want string) {
		t.Helper()
		out.Reset()
		l.tellClock(until)
		if got := out.String(); want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Fatalf("at %v, until %v: the terminal says %q, want %q", now, until, got, want)
		}
	}
	step(time.Time{}, "")
	until := now.Add(30 * time.Second)
	step(until, "You have 30 s for this move (the table's clock); then your bot makes it for you.")
	l.prompted = true
	now = now.Add(5 * time.Second)
	step(until, "")
	now = now.Add(16 * time.Second)
	step(until, "\n9 s left for your move.\n")
	if l.prompted {
		t.Fatal("the prompt is not asked again under the reminder")
	}
	step(until, "")
	// The person types nothing: the bot moves, and the next card is asked.
	now = now.Add(9 * time.Second)
	next := now.Add(30 * time.Second)
	step(next, "Your time ran out: your bot made the move for you. The seat is still yours.")
	if !strings.Contains(out.String(), "You have 30 s for this move") {
		t.Fatalf("the next move's clock is not told: %q", out.String())
	}
	// The person moves in time: nothing is said of the clock but the
	// next move's.
	now = now.Add(3 * time.Second)
	step(time.Time{}, "")
}
