package term

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/internal/memtable"
	"github.com/njetlan/njet/internal/selfplay"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
	"github.com/njetlan/njet/words"
)

// selfplayLog plays a table of bot peers in memory and returns its log.
func selfplayLog(t *testing.T, e engine.Edition, players, rounds int, seed uint64) []*tablelog.Envelope {
	t.Helper()
	dir := t.TempDir()
	sp, err := selfplay.New(selfplay.Config{Edition: e, Players: players, Rounds: rounds, Seed: seed,
		Dir: filepath.Join(dir, "stores"), Bot: "random", NewPlayer: njetPlayers(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := sp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "log.njetlog")
	if _, err := sp.Export(0, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := tablelog.NewExportReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var envs []*tablelog.Envelope
	for {
		env, err := x.Next()
		if err == io.EOF {
			return envs
		}
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, env)
	}
}

// replay feeds a log to a watcher's screen one envelope per look, as an
// observer game sees it.
type replay struct {
	envs []*tablelog.Envelope
	game *table.Game
	log  *tablelog.Log
	n    int
}

func newReplay(t *testing.T, envs []*tablelog.Envelope) *replay {
	t.Helper()
	gen, err := table.ParseGenesis(envs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	game := table.NewGame(table.GameConfig{Table: envs[0].Table, Creator: gen.Keys[0]})
	log, err := tablelog.NewLog(tablelog.LogConfig{Table: envs[0].Table, Protocol: game})
	if err != nil {
		t.Fatal(err)
	}
	return &replay{envs: envs, game: game, log: log}
}

// step takes the next envelope, if any, and returns the public view.
func (r *replay) step() (table.PeerView, error) {
	if r.n < len(r.envs) {
		if _, err := r.log.Append(r.envs[r.n]); err != nil {
			return table.PeerView{}, err
		}
		r.n++
	}
	v := table.PeerView{Game: r.game.Njet().PublicView(), Turn: -1, Results: r.game.Njet().Results(), Voided: r.game.Voided(),
		Abandoned: r.game.Abandoned(), Over: r.game.Over(), Seq: r.log.Next(), BotHost: -1}
	if t, err := r.game.Entitled(r.log.Next()); err == nil {
		v.Turn, v.Kind = int(t.Seat), t.Kinds[0]
	}
	return v, nil
}

// cardNames matches each card name of the edition as a whole phrase.
func cardNames(e engine.Edition) map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	size := len(e.Colours()) * (e.Ones() + e.MaxValue() - 1)
	for i := range size {
		name := words.Card(engine.CardOf(e, i)).String()
		out[name] = regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	}
	return out
}

// playedNames are the names of the cards played so far in the round.
func playedNames(v engine.View) map[string]bool {
	out := map[string]bool{}
	for _, tr := range append(v.Tricks, v.Trick) {
		for _, p := range tr.Plays {
			out[words.Card(p.Card).String()] = true
		}
	}
	return out
}

// The watcher's screen follows a whole table and never names a card
// before it is played: after every envelope, the text since the round's
// heading names only cards of that round's tricks.
func TestWatchLANShowsNoHiddenCard(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edition engine.Edition
		players int
	}{
		{"classic-4", engine.Classic, 4},
		{"modern-3", engine.Modern, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			envs := selfplayLog(t, tc.edition, tc.players, 2, 7)
			r := newReplay(t, envs)
			names := cardNames(tc.edition)
			var out bytes.Buffer
			public := map[string]bool{}
			looks := 0
			view := func() table.PeerView {
				looks++
				text := out.String()
				if i := strings.LastIndex(text, "=== "); i >= 0 {
					text = text[i:]
				}
				for name, re := range names {
					if re.MatchString(text) && !public[name] {
						t.Fatalf("after %d envelopes the watcher was shown %s, not played yet:\n%s", r.n, name, text)
					}
				}
				v, err := r.step()
				if err != nil {
					t.Fatalf("replay at %d: %v", r.n, err)
				}
				public = playedNames(v.Game)
				return v
			}
			changed := make(chan struct{})
			close(changed) // look again at once: one envelope per look
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := WatchLAN(ctx, WatchConfig{View: view, Changed: changed, Width: -1}, strings.NewReader(""), &out)
			if err != nil {
				t.Fatalf("watching: %v", err)
			}
			text := out.String()
			if looks < len(envs) || r.n != len(envs) {
				t.Fatalf("%d looks for %d envelopes (%d taken)", looks, len(envs), r.n)
			}
			for _, want := range []string{"You are watching", "Round 1", "Round 2", "=== Game over"} {
				if !strings.Contains(text, want) {
					t.Errorf("the watcher was not told %q:\n%s", want, text)
				}
			}
			for _, hidden := range []string{"Your hand", "your hand", "You discard", "You pass", "You receive"} {
				if strings.Contains(text, hidden) {
					t.Errorf("the watcher was told %q", hidden)
				}
			}
		})
	}
}

// "quit" leaves; other words are explained; a view is required.
func TestWatchLANInput(t *testing.T) {
	v := table.PeerView{Turn: -1, BotHost: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	err := WatchLAN(ctx, WatchConfig{View: func() table.PeerView { return v }, Echo: true},
		strings.NewReader("play red 7\nhelp\nquit\n"), &out)
	if !errors.Is(err, ErrLeft) {
		t.Fatalf("quit: %v", err)
	}
	for _, want := range []string{"play red 7\nYou are watching", "has not started", "You stop watching"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if err := WatchLAN(ctx, WatchConfig{}, strings.NewReader(""), &out); err == nil {
		t.Errorf("watching without a view")
	}
	// The end of the input is not leaving: the watcher watches on until
	// the context ends.
	short, stop := context.WithTimeout(ctx, 300*time.Millisecond)
	defer stop()
	err = WatchLAN(short, WatchConfig{View: func() table.PeerView { return v }}, strings.NewReader(""), &out)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("input ended: %v, want the context's end", err)
	}
}

// A watcher waiting for a seat it asked for is told so, not how to type:
// the input is the seat's once the table hands it over.
func TestWatchLANTakingASeat(t *testing.T) {
	v := table.PeerView{Turn: -1, BotHost: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	err := WatchLAN(ctx, WatchConfig{View: func() table.PeerView { return v }, Taking: "seat 2"}, strings.NewReader(""), &out)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v, want the context's end", err)
	}
	if !strings.Contains(out.String(), "until seat 2 is yours") || strings.Contains(out.String(), "\"quit\" leaves") {
		t.Errorf("told:\n%s", out.String())
	}
}

// njetPlayers is the players' factory of Njet from the registry of games.
func njetPlayers(t testing.TB) table.NewPlayer { return memtable.Players(t, table.GameNjet) }
