package seat

import (
	"slices"
	"testing"
)

// A device back from a partition follows the table's log, which may hold
// fewer items than the device told while it played alone (its own
// takeovers of every other seat), or other ones: the news are what
// follows the shared part, and the switch is said.
func TestToldAfterABranchSwitch(t *testing.T) {
	tl := Comparable[int]()
	steps := []struct {
		now      []int
		fresh    []int
		switched bool
	}{
		{nil, nil, false},
		{[]int{1}, []int{1}, false},
		{[]int{1, 2, 3}, []int{2, 3}, false},
		{[]int{1, 2, 3}, nil, false},
		// The table's log: one item where the lone branch had three.
		{[]int{1}, nil, true},
		{[]int{1, 7}, []int{7}, false},
		// Another item at the same place.
		{[]int{1, 8, 9}, []int{8, 9}, true},
		{nil, nil, true},
	}
	for i, s := range steps {
		fresh, switched := tl.News(s.now)
		if !slices.Equal(fresh, s.fresh) || switched != s.switched {
			t.Errorf("step %d (%v): news %v, switched %v; want %v, %v", i, s.now, fresh, switched, s.fresh, s.switched)
		}
	}
}
