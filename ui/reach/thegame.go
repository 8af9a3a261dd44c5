package reach

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TheGameWords are the words on The Game's buttons that a person looks
// for, in the app's language.
type TheGameWords struct {
	End  string // the table's button that ends the turn
	Done string // the game-over view's button
	// Yes and No answer the warning before a card that loses the game:
	// lay it anyway, take it back.
	Yes, No string
}

// The parts of The Game's table and what its controls show.
const (
	// RegionPiles holds the four piles, each a control of kind "pile"
	// whose text is its number, its way and its top card: "1 up 37",
	// "3 down 100".
	RegionPiles = "piles"
	// The cards of the hand are controls of kind "card" in RegionHand,
	// their text the card's number.

	MarkFits   = "fits"   // a card of the hand that goes on a pile now
	MarkPicked = "picked" // the card picked to lay
	MarkTarget = "target" // a pile that takes the picked card
)

// TheGame plays The Game's table as a person: it picks a card the table
// marks as fitting, the one that fits a pile most closely, lays it on the
// marked pile that it fits most closely, and ends the turn once the table
// lets it and no card fits closely. To a warning before a card that loses
// the game it answers no while another card fits, and yes when none
// does. Done on the game-over view ends its play.
type TheGame struct {
	Words TheGameWords
	// Close is the largest step on a pile that the player takes beyond
	// the minimum of a turn; 0 means 2.
	Close int

	// Laid counts the taps on piles, Turns the taps on End turn,
	// player.Taps every tap.
	Laid, Turns int
	player
	picked   string          // the card last picked
	fits     []string        // the cards that fitted when it was picked
	declined map[string]bool // the cards taken back at a warning this turn
}

// Next decides the next step on s.
func (g *TheGame) Next(s *Screen) (Step, error) {
	if step, ok := g.leaveOver(s, g.Words.Done); ok {
		return step, nil
	}
	yes, no := s.Reachable(Button(g.Words.Yes)), s.Reachable(Button(g.Words.No))
	if len(yes) > 0 && len(no) > 0 {
		if g.declined == nil {
			g.declined = map[string]bool{}
		}
		for _, f := range g.fits {
			if f != g.picked && !g.declined[f] {
				g.declined[g.picked] = true
				return g.tap(no[0], "to keep "+g.picked+" while another card fits"), nil
			}
		}
		g.Laid++
		return g.tap(yes[0], "to lay "+g.picked+", the last card that fits"), nil
	}
	piles := pilesOf(s)
	hand := s.Find(Kind("card", RegionHand))
	for _, c := range hand {
		if !c.Marked(MarkPicked) {
			continue
		}
		var best *Control
		for _, p := range s.Reachable(Kind("pile", RegionPiles)) {
			if p.Marked(MarkTarget) && (best == nil || gapOn(c.Text, p.Text) < gapOn(c.Text, best.Text)) {
				best = &p
			}
		}
		if best != nil {
			g.Laid++
			return g.tap(*best, "a pile for "+c.Text), nil
		}
		if c.Reachable() {
			if g.declined == nil {
				g.declined = map[string]bool{}
			}
			g.declined[c.Text] = true
			return g.tap(c, "to take "+c.Text+" back: no pile takes it"), nil
		}
		return Step{}, fmt.Errorf("%w: %s is picked, no pile is marked for it, and it cannot be tapped back%s", ErrStuck, c.Text, g.unreachable(s))
	}
	var fits []Control
	for _, c := range s.Reachable(Kind("card", RegionHand)) {
		if c.Marked(MarkFits) && !g.declined[c.Text] {
			fits = append(fits, c)
		}
	}
	var best *Control
	for _, c := range fits {
		if best == nil || bestGap(c.Text, piles) < bestGap(best.Text, piles) {
			best = &c
		}
	}
	close := g.Close
	if close == 0 {
		close = 2
	}
	if end := s.Reachable(Button(g.Words.End)); len(end) > 0 && (best == nil || bestGap(best.Text, piles) > close) {
		g.Turns++
		g.declined = nil
		return g.tap(end[0], "to end the turn"), nil
	}
	if best != nil {
		g.picked = best.Text
		g.fits = g.fits[:0]
		for _, c := range fits {
			g.fits = append(g.fits, c.Text)
		}
		for f := range g.declined {
			g.fits = append(g.fits, f)
		}
		return g.tap(*best, "a card of the hand that fits"), nil
	}
	// A card marked as fitting, or End turn, that a finger cannot use is
	// a screen that keeps the person from playing.
	for _, c := range hand {
		if c.Marked(MarkFits) && !c.Reachable() && !g.declined[c.Text] {
			return Step{}, fmt.Errorf("%w: card %s fits, but a finger cannot use it%s", ErrStuck, c.Text, g.unreachable(s))
		}
	}
	for _, c := range s.Find(Button(g.Words.End)) {
		if c.Enabled && !c.Reachable() {
			return Step{}, fmt.Errorf("%w: the turn may end, but a finger cannot use %q%s", ErrStuck, g.Words.End, g.unreachable(s))
		}
	}
	if len(g.declined) > 0 {
		// Every card that fits was taken back at a warning and the turn
		// cannot end: one of them goes down after all.
		for _, c := range s.Reachable(Kind("card", RegionHand)) {
			if g.declined[c.Text] {
				g.declined = nil
				g.picked, g.fits = c.Text, []string{c.Text}
				return g.tap(c, "the card taken back, as no other fits"), nil
			}
		}
	}
	return Step{Kind: Wait, Want: "my turn"}, nil
}

// unreachable lists the enabled controls of the table that a finger
// cannot use.
func (g *TheGame) unreachable(s *Screen) string {
	var lines []string
	for _, c := range s.Controls {
		if c.Enabled && !c.Reachable() && (c.Region == RegionHand || c.Region == RegionPiles || c.Kind == "button") {
			lines = append(lines, "  "+c.String())
		}
	}
	if len(lines) == 0 {
		return "; no card, pile or button is drawn out of reach"
	}
	return "; drawn but out of reach:\n" + strings.Join(lines, "\n")
}

// tgPile is a pile as its control shows it.
type tgPile struct {
	up  bool
	top int
}

// pilesOf reads the piles drawn on s.
func pilesOf(s *Screen) []tgPile {
	var out []tgPile
	for _, c := range s.Find(Kind("pile", RegionPiles)) {
		if p, ok := parsePile(c.Text); ok {
			out = append(out, p)
		}
	}
	return out
}

// parsePile reads "1 up 37".
func parsePile(text string) (tgPile, bool) {
	f := strings.Fields(text)
	if len(f) != 3 || f[1] != "up" && f[1] != "down" {
		return tgPile{}, false
	}
	top, err := strconv.Atoi(f[2])
	if err != nil {
		return tgPile{}, false
	}
	return tgPile{up: f[1] == "up", top: top}, true
}

// gap is how far card c steps on p: the distance to the top in the pile's
// way, -10 for the backwards trick, which wins room back, and a large
// number when c does not go there by its number.
func (p tgPile) gap(c int) int {
	switch {
	case p.up && c == p.top-10, !p.up && c == p.top+10:
		return -10
	case p.up && c > p.top:
		return c - p.top
	case !p.up && c < p.top:
		return p.top - c
	}
	return math.MaxInt32
}

// gapOn is the gap of card text on the pile a control shows.
func gapOn(card, pile string) int {
	c, err := strconv.Atoi(card)
	p, ok := parsePile(pile)
	if err != nil || !ok {
		return math.MaxInt32
	}
	return p.gap(c)
}

// bestGap is the smallest gap of card text over piles.
func bestGap(card string, piles []tgPile) int {
	c, err := strconv.Atoi(card)
	best := math.MaxInt32
	if err != nil {
		return best
	}
	for _, p := range piles {
		best = min(best, p.gap(c))
	}
	return best
}
