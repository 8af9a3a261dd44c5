package ui

import "testing"

// TestGamesHaveScreens: every game of package games has its screens in the
// app, under the same ID, and no entry names a game the registry lacks.
func TestGamesHaveScreens(t *testing.T) {
	if err := checkGameUIs(); err != nil {
		t.Fatal(err)
	}
	for _, g := range gameUIs {
		if g.title == nil || g.about == nil || g.newLabel == nil || g.setup == nil || g.rules == nil || g.save.file == "" ||
			g.describe == nil || g.resume == nil || g.badSave == nil || g.lanTable == nil || g.variantName == nil ||
			g.host == nil || g.fairStep == nil || g.fairVerdict == nil {
			t.Errorf("%s: a screen or a hook is missing: %+v", g.id, g)
		}
		if gameByID(g.id) != g {
			t.Errorf("%s: looked up as %s", g.id, gameByID(g.id).id)
		}
	}
	if gameByID("chess") != gameUIs[0] {
		t.Error("an unknown game is not shown as the app's own")
	}
}
