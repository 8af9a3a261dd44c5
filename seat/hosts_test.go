package seat

import (
	"slices"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/table"
)

func TestHostsNews(t *testing.T) {
	looks := []struct {
		now     []int
		news    []Handover
		changed bool
	}{
		// The first look: seat 2 was already played by a bot on seat
		// 0's device, the person's own seat 1 is theirs.
		{now: []int{0, 1, 0}, news: []Handover{{Seat: 2, Host: 0}}},
		{now: []int{0, 1, 0}},
		// The person's device went away: seat 0 hosts their seat.
		{now: []int{0, 0, 0}, news: []Handover{{Seat: 1, Host: 0}}, changed: true},
		// Seat 0's device left in turn: seat 1's device is back and
		// hosts everything; seat 2 moving from 0 to 1 is not news.
		{now: []int{1, 1, 1}, news: []Handover{{Seat: 0, Host: 1}, {Seat: 1, Host: 1}}, changed: true},
	}
	var h Hosts
	for i, l := range looks {
		news, changed := h.News(1, l.now)
		if !slices.Equal(news, l.news) || changed != l.changed {
			t.Errorf("look %d at %v: news %v changed %v, want %v %v", i, l.now, news, changed, l.news, l.changed)
		}
	}
}

func TestHostsNewsTakenAtFirstLook(t *testing.T) {
	var h Hosts
	news, changed := h.News(0, []int{1, 1})
	if want := []Handover{{Seat: 0, Host: 1}}; !slices.Equal(news, want) || changed {
		t.Errorf("news %v changed %v, want %v and no change", news, changed, want)
	}
}

// A device that has heard none of the others for CutOffAfter is told as
// cut off, since it last heard one; a new Turn is told when that changes.
func TestCutOff(t *testing.T) {
	heard := time.Unix(1e9, 0)
	for _, c := range []struct {
		v    table.PeerView
		want time.Time
	}{
		{table.PeerView{}, time.Time{}},
		{table.PeerView{Heard: heard, Unheard: CutOffAfter - time.Second}, time.Time{}},
		{table.PeerView{Heard: heard, Unheard: CutOffAfter}, heard},
	} {
		if got := CutOff(c.v); !got.Equal(c.want) {
			t.Errorf("heard %v, %v ago: cut off since %v, want %v", c.v.Heard, c.v.Unheard, got, c.want)
		}
	}
	a := Turn{Kind: engine.ActPlay, Wait: Wait{Seat: 1}}
	b := a
	b.CutOff = heard
	if sameTurn(a, b) || !sameTurn(b, b) {
		t.Error("a cut-off does not tell a new Turn")
	}
}
