package p2p

import (
	"context"
	"testing"
)

func TestGameOverLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	tt := newTestTable(t, ctx, 4, 1, 1)
	heads := tt.play(t, ctx, nil)
	if err := sameHeads(heads); err != nil {
		t.Fatal(err)
	}
}
