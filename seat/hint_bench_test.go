package seat

import (
	"context"
	"testing"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/thegame"
)

// BenchmarkHintNjet measures the strong bot's hint at a Njet! card
// question (the first lead of a game): ms per hint.
func BenchmarkHintNjet(b *testing.B) {
	l, err := NewLocal(LocalConfig{Edition: engine.Classic, Players: 4, Seed: 3, Bots: []string{"random"}})
	if err != nil {
		b.Fatal(err)
	}
	var p Prompt
	for p.Kind != engine.ActPlay {
		ev, err := l.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if yt, ok := ev.(YourTurn); ok {
			p = yt.Prompt
			if p.Kind != engine.ActPlay {
				if err := l.Choose(p.Seq, p.Legal[0]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Hint(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/hint")
}

// BenchmarkHintTheGame measures the strong bot's hint at the first turn
// of The Game: ms per hint.
func BenchmarkHintTheGame(b *testing.B) {
	g, err := thegame.NewGame(thegame.Config{Players: 3})
	if err != nil {
		b.Fatal(err)
	}
	deck := make([]thegame.Card, 0, 98)
	for c := 2; c <= 99; c++ {
		deck = append(deck, thegame.Card((c*37)%98+2))
	}
	if err := g.Feed(deck); err != nil {
		b.Fatal(err)
	}
	v := g.View(g.Turn())
	b.ResetTimer()
	for b.Loop() {
		if _, err := TheGameHint(v); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/hint")
}
