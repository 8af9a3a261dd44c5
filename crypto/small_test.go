package crypto

import (
	"fmt"
	"testing"
)

// A redeal of The Game shuffles only the cards not yet played: a round of
// a few cards deals, plays, reveals and opens like a whole deck.
func TestSmallDeckRound(t *testing.T) {
	for _, k := range []int{4, 7, 20} {
		for _, n := range []int{2, 3, 5} {
			if k < 2*n {
				continue
			}
			t.Run(fmt.Sprintf("parties=%d/cards=%d", n, k), func(t *testing.T) {
				tt := fullRound(t, n, k, uint64(k*10+n))
				seen := map[int]bool{}
				for pos, c := range tt.cards {
					if c < 0 || c >= k || seen[c] {
						t.Fatalf("position %d: card %d", pos, c)
					}
					seen[c] = true
				}
			})
		}
	}
}
