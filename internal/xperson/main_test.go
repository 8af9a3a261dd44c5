package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/njetlan/njet/ui/reach"
)

// text is a word of the game-over view at x, y.
func text(s string, x, y float32) reach.Text {
	return reach.Text{Text: s, Region: reach.RegionOver, Rect: reach.Rect{X: x, Y: y, W: 40, H: 20}}
}

// TestReadTotals: the totals come off the game-over view's rows by the
// seats' names, the person's as the table calls them; a heading that
// wraps into "Boris wins with 64" on a small window is no row, a shared
// place has no number, and a seat without a row is an error.
func TestReadTotals(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.save")
	if err := os.WriteFile(save, []byte(`{"config":{"names":["","Ada","Boris"],"you":0}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &reach.Screen{Texts: []reach.Text{
		text("Boris", 0, 0), text("wins", 50, 0), text("with", 100, 0), text("64", 150, 0),
		text("points.", 0, 30),
		text("1", 0, 60), text("Boris", 100, 60), text("64", 200, 60),
		text("Ada", 100, 90), text("64", 200, 90),
		text("3", 0, 120), text("You", 100, 120), text("44", 200, 120),
	}}
	got, err := readTotals(s, save, "You")
	if err != nil || !slices.Equal(got, []int{44, 64, 64}) {
		t.Fatalf("totals %v, %v", got, err)
	}
	s.Texts = s.Texts[:len(s.Texts)-3]
	if got, err := readTotals(s, save, "You"); err == nil {
		t.Fatalf("without the person's row: %v", got)
	}
}

// TestReadLeft: the cards left come off the game-over view's line that
// says them; a view without that line is an error.
func TestReadLeft(t *testing.T) {
	say := func(n int) string { return "Cards left: " + strconv.Itoa(n) }
	s := &reach.Screen{Texts: []reach.Text{
		text("The", 0, 0), text("game", 50, 0), text("beat", 100, 0), text("you", 150, 0),
		text("Cards", 0, 30), text("left:", 50, 30), text("12", 100, 30),
	}}
	if n, err := readLeft(s, say); err != nil || n != 12 {
		t.Fatalf("read %d, %v", n, err)
	}
	s.Texts = s.Texts[:4]
	if n, err := readLeft(s, say); err == nil {
		t.Fatalf("without the line: %d", n)
	}
}
