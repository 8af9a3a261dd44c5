package table

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/thegame"
)

// A person's seat complains as a bot's does: the Complaint takes its turn
// whatever move the person handed in, and the table counts the turn as
// one the seat owes without its person. Until then the seat's game
// follows the table without the hand the token was part of.
func TestTheGameComplaintTakesAPersonsTurn(t *testing.T) {
	const sender, victim = 2, 0
	cfg := theGameConfig(t, 3, false, 180)
	dir := cfg.Dir
	s, err := newTestSelfplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var spoiled spoiledToken
	s.alter = map[int]func(*draft){sender: spoilToken(t, s, sender, victim, false, "ciphertext", &spoiled)}
	exports := runUntilEnd(t, s)
	v := expectNamedByComplaint(t, s, exports, victim, sender, "ciphertext")
	_, envs, err := tablelog.ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	// The victim's device again, as it was just before its complaint.
	store, err := tablelog.OpenStore(filepath.Join(dir, fmt.Sprintf("seat-%d.db", victim)), &tablelog.StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0], Vault: StoreVault{Store: store, Table: s.Table()}})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: s.Table(), Protocol: g})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs[:v.Seq] {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	view := g.TheGame().View(victim)
	if view.Phase != thegame.PhasePlay || view.Turn != victim || len(view.Hand) != 0 || view.HandSizes[victim] != thegame.HandSize(3) {
		t.Fatalf("the victim's view: phase %v, turn %d, hand %v, hand sizes %v", view.Phase, view.Turn, view.Hand, view.HandSizes)
	}
	if asks, _ := g.asks(v.Seq, victim); asks {
		t.Error("the complaint is a step the person is asked for")
	}
	moves := []struct {
		name string
		a    *thegame.Action
	}{
		{"no move yet", nil},
		{"a card handed in", &thegame.Action{Kind: thegame.ActPlay, Seat: victim, Card: 50, Pile: 0}},
		{"a signal handed in", &thegame.Action{Kind: thegame.ActSignal, Seat: victim, Pile: 1, Signal: thegame.SignalMine}},
	}
	for _, m := range moves {
		t.Run(m.name, func(t *testing.T) {
			c := chooser{person: true}
			if m.a != nil {
				c.move = *m.a
			}
			d, err := g.draft(v.Seq, victim, rand.NewChaCha8([32]byte{1}), c)
			if err != nil || d == nil || d.kind != tablelog.KindComplaint || !bytes.Equal(d.body, envs[v.Seq].Body) {
				t.Fatalf("draft %+v, %v; want the complaint the log holds", d, err)
			}
		})
	}
}
