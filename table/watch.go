package table

import "github.com/njetlan/njet/engine"

// PublicView returns the engine's view of a seat outside the table: the
// board, the rules, the teams, the tricks and the scores, never a hand, a
// discard or a pass, whatever seats this game hosts. A watcher's observer
// game (no Vault) shows it; before the genesis it is the zero View.
func (g *Game) PublicView() engine.View {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.eng == nil {
		return engine.View{}
	}
	return g.eng.View(-1)
}
