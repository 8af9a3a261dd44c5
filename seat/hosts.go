package seat

import "slices"

// Hosts is what a front end has seen of who plays each seat at a LAN
// table: the seat itself, or the seat whose device hosts the bot that the
// table seated there when its device left. News finds the handovers worth
// telling a person, so that every front end tells the same ones in its
// own words.
type Hosts struct {
	seen []int
}

// Handover is a seat that changed hands: Host is the seat whose device
// plays it now. For the person's own seat, Host == Seat says that it is
// theirs again, any other Host that a bot on that device plays it.
type Handover struct {
	Seat, Host int
}

// News takes now (each seat's host, by seat) as seen and returns the
// handovers since the last look: the person's own seat (you) taken over
// or given back, and another seat taken over from its own device. A seat
// a bot already played that moves to another device is not told again.
// At the first look every seat counts as its own. changed reports
// whether any seat changed hands since a look before this one.
func (h *Hosts) News(you int, now []int) (news []Handover, changed bool) {
	before := h.seen
	h.seen = slices.Clone(now)
	changed = before != nil && !slices.Equal(before, now)
	for s, host := range now {
		was := s
		if s < len(before) {
			was = before[s]
		}
		if host != was && (s == you || was == s) {
			news = append(news, Handover{Seat: s, Host: host})
		}
	}
	return news, changed
}
