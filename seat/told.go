package seat

import "slices"

// Told is what a front end has told of a list that a table's log grows:
// its moves, voided rounds or results. A device back from a network cut
// follows the table's branch, whose list may share only a first part with
// what was told; Told finds that part, so that what follows it is told
// again as the log now has it. Same tells two items apart; Comparable
// makes a Told of items that == tells apart.
type Told[T any] struct {
	items []T
	Same  func(a, b T) bool
}

// Comparable returns a Told of items that == tells apart.
func Comparable[T comparable]() Told[T] {
	return Told[T]{Same: func(a, b T) bool { return a == b }}
}

// News takes now as told and returns its items not told yet: those after
// the part that now and what was told share. switched reports that an
// item told is not in now (the log switched branch).
func (t *Told[T]) News(now []T) (fresh []T, switched bool) {
	k := 0
	for k < len(t.items) && k < len(now) && t.Same(t.items[k], now[k]) {
		k++
	}
	switched = k < len(t.items)
	t.items = slices.Clone(now)
	return now[k:], switched
}
