package seat

import (
	"slices"
	"testing"
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
