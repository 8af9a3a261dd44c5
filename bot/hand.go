package bot

import (
	"math/bits"

	"github.com/njetlan/njet/engine"
)

// handStats is how the bots read the strength of a hand: its cards, high
// cards and 1s per printed colour, and a margin over an average hand.
type handStats struct {
	count  [8]int  // cards per colour
	high   [8]int  // cards of the top three values per colour
	ones   [8]int  // 1s per colour
	margin float64 // hand strength above an average hand (>0: strong)
}

// readHand reads h, a hand of edition e. top is the highest value of the
// deck in play, n how many cards the seat was dealt (its hand and its
// discards) and deck how many cards that deck holds.
func readHand(e engine.Edition, h engine.Hand, top, n, deck int) handStats {
	var st handStats
	high := top - 2 // the top three values count as high
	highs, longest := 0, 0
	for x := uint64(h); x != 0; x &= x - 1 {
		c := engine.CardOf(e, bits.TrailingZeros64(x))
		col := c.Colour()
		st.count[col]++
		if c.Value() >= high {
			st.high[col]++
			highs++
		}
		if c.Value() == 1 {
			st.ones[col]++
		}
		longest = max(longest, st.count[col])
	}
	// An average hand of n cards holds n*12/deck cards of the top three
	// values and its longest colour has about n/4+1.5 cards.
	fn := float64(n)
	st.margin = float64(highs+longest) - (fn*12/float64(deck) + fn/4 + 1.5)
	return st
}
