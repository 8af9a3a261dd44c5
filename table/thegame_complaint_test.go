package table

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/njetlan/njet/crypto"
	"github.com/njetlan/njet/thegame"
)

// replayTheGame returns an observer's Game after envs.
func replayTheGame(t *testing.T, table TableID, creator Identity, envs []*Envelope) *Game {
	t.Helper()
	obs := NewGame(GameConfig{Table: table, Creator: creator})
	log, err := NewLog(LogConfig{Table: table, Protocol: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		if _, err := log.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return obs
}

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
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	// The victim's device again, as it was just before its complaint.
	store, err := OpenStore(filepath.Join(dir, fmt.Sprintf("seat-%d.db", victim)), &StoreOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g := NewGame(GameConfig{Table: s.Table(), Creator: s.ids[0], Vault: StoreVault{Store: store, Table: s.Table()}})
	log, err := NewLog(LogConfig{Table: s.Table(), Protocol: g})
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
			if err != nil || d == nil || d.kind != KindComplaint || !bytes.Equal(d.body, envs[v.Seq].Body) {
				t.Fatalf("draft %+v, %v; want the complaint the log holds", d, err)
			}
		})
	}
}

// A Complaint may take the place of a reveal after the game (a seat whose
// draw failed may find the game over before its next turn): there too it
// is re-checked, here with secrets that open the token, so the
// complainer is named.
func TestTheGameComplaintAtTheReveal(t *testing.T) {
	const players, liar, from = 2, 1, 0
	s, exports := playTheGame(t, players, false, 190, nil)
	_, envs, err := ReadExport(bytes.NewReader(exports[0]))
	if err != nil {
		t.Fatal(err)
	}
	r := slices.IndexFunc(envs, func(e *Envelope) bool { return e.Kind == KindReveal && int(e.Author) == liar })
	if r < 0 {
		t.Fatal("no reveal of the liar")
	}
	var reveal crypto.Reveal
	if err := parseCrypto(KindReveal, envs[r].Body, &reveal); err != nil {
		t.Fatal(err)
	}
	obs := replayTheGame(t, s.Table(), s.ids[0], envs[:r])
	i := slices.IndexFunc(obs.rd.sealed, func(m crypto.Sealed) bool { return m.From == from && m.To == liar })
	m := obs.rd.sealed[i]
	body, err := complaintBody(&complaint{kind: m.Kind, from: m.From, pos: m.Position, reveal: &reveal})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*Envelope, r+1)
	for j := range out {
		out[j] = envs[j].Clone()
	}
	out[r].Kind, out[r].Body = KindComplaint, body
	_, err = Verify(bytes.NewReader(reseal(t, out, s.keys)))
	var v *Violation
	if !errors.As(err, &v) || v.Seat != liar || v.Check != CheckComplaint || v.Seq != uint64(r) || !errors.Is(err, ErrFalseComplaint) {
		t.Fatalf("Verify: %v, want seat %d's false complaint at seq %d", err, liar, r)
	}
}
