package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/njetlan/njet/internal/selfplay"
	ntable "github.com/njetlan/njet/table"
	"github.com/njetlan/njet/term"
)

func (c *cli) play(args []string) int {
	fs := c.flagSet("play", "[--game njet|thegame] [--edition classic|modern] [--extreme] [--players N] [--seed S] [--bot KIND]",
		"Play one game in the terminal against bots: you sit in seat 0.")
	game := addGameFlags(fs, true)
	seed := fs.Uint64("seed", 0, "seed of the game, to replay one (default: a fresh random seed)")
	kind := fs.String("bot", "", botUsage("kind of the other players", "heuristic"))
	g, code := game.parse(args)
	if code >= 0 {
		return code
	}
	kinds, err := botKinds(g.game, "bot", *kind, false)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	if !set(fs)["seed"] {
		if *seed, err = c.freshSeed(); err != nil {
			return c.fail("play", "no random seed: %v", err)
		}
	}
	fmt.Fprintf(c.stdout, "Seed %d (replay this game with: njet play %s --bot %s --seed %d)\n", *seed, g.args(), kinds[0], *seed)
	if g.theGame() {
		err = term.PlayTheGame(term.TheGameConfig{Players: g.players, Extreme: g.extreme, Seed: *seed, Bot: kinds[0],
			Echo: !isTerminal(c.stdin)}, c.stdin, c.stdout)
	} else {
		err = term.Play(term.Config{Edition: g.edition, Players: g.players, Seed: *seed, Bot: kinds[0],
			Echo: !isTerminal(c.stdin), Short: g.short, Target: g.target}, c.stdin, c.stdout)
	}
	if err != nil {
		return c.fail("play", "%v", err)
	}
	return ExitOK
}

func (c *cli) selfplay(args []string) int {
	fs := c.flagSet("selfplay", "[--game njet|thegame] [--edition E | --extreme] --players N [--rounds R] [--seed S] [--bot K] --out DIR",
		"Play a table of bot peers, each with its own store, over an in-memory network, and write\n"+
			"each peer's exported log to DIR/seat-N.njetlog. Prints each round's scores and each\n"+
			"peer's final log hash; all peers must agree.")
	game := addGameFlags(fs, true)
	rounds := fs.Int("rounds", 0, "Njet: end the game after this many rounds (0: the whole game)")
	seed := fs.Uint64("seed", 1, "seed of the keys, deals and bots")
	kind := fs.String("bot", "", botUsage("kind of the bots", "random"))
	out := fs.String("out", "", "directory for the stores and the exported logs")
	g, code := game.parse(args)
	if code >= 0 {
		return code
	}
	switch {
	case *rounds < 0 || *rounds > 255:
		return usageError(fs, "bad --rounds %d: want 0 to 255", *rounds)
	case *rounds > 0 && g.theGame():
		return usageError(fs, "--rounds is not a flag of %s", g.game.Title)
	case *out == "":
		return usageError(fs, "--out is required")
	}
	if *kind == "" && !g.theGame() {
		*kind = "random"
	}
	kinds, err := botKinds(g.game, "bot", *kind, false)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	sp, err := selfplay.New(selfplay.Config{Game: g.game.Name, Edition: g.edition, Extreme: g.extreme,
		Players: g.players, Rounds: *rounds, Seed: *seed, Short: g.short, Target: g.target,
		Dir: filepath.Join(*out, "stores"), Bot: kinds[0], NewPlayer: g.game.NewPlayer})
	if err == nil {
		err = sp.Run(context.Background())
	}
	if err != nil {
		return c.fail("selfplay", "%v", err)
	}
	outcomes := sp.Outcomes()
	for _, r := range outcomes[0].Results {
		fmt.Fprintf(c.stdout, "round %d (dealer seat %d): points %v, totals %v\n", r.Round, r.Dealer, r.Points, r.Totals)
	}
	code = ExitOK
	for _, o := range outcomes {
		path := filepath.Join(*out, fmt.Sprintf("seat-%d.njetlog", o.Seat))
		head, err := sp.Export(o.Seat, path)
		if err != nil {
			return c.fail("selfplay", "export seat %d: %v", o.Seat, err)
		}
		fmt.Fprintf(c.stdout, "seat %d: %d envelopes, log hash %v, %s\n", o.Seat, o.Next, head, path)
		if o.Violation != nil {
			fmt.Fprintf(c.stderr, "njet selfplay: seat %d halted: %v\n", o.Seat, o.Violation)
			code = ExitFail
		}
		if head != outcomes[0].Head {
			fmt.Fprintf(c.stderr, "njet selfplay: seat %d ends with another log than seat 0\n", o.Seat)
			code = ExitFail
		}
	}
	return code
}

func (c *cli) verify(args []string) int {
	fs := c.flagSet("verify", "FILE",
		"Re-check an exported table log offline: signatures, chain, every proof, every rule\n"+
			"(reneges and discards included) and every score. Prints each round's result and\n"+
			"exits non-zero with the first failure.")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(fs, "want one FILE")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return c.fail("verify", "%v", err)
	}
	defer f.Close()
	last := time.Now()
	v, err := ntable.VerifyReader(f, func(envelopes, bytes int64) {
		if now := time.Now(); now.Sub(last) >= 2*time.Second {
			last = now
			fmt.Fprintf(c.stderr, "njet verify: %d envelopes checked, %d MB read\n", envelopes, bytes>>20)
		}
	})
	if v != nil {
		for _, viol := range v.Voided {
			fmt.Fprintf(c.stdout, "a round was voided: %v\n", viol)
		}
		for _, r := range v.Recovered {
			fmt.Fprintf(c.stdout, "a round was kept: seat %d's device left at seq %d; seat %d's device played its cards, recovered from its escrow\n",
				r.Seat, r.Seq, r.Host)
		}
		for _, r := range v.Results {
			fmt.Fprintf(c.stdout, "round %d (dealer seat %d): points %v, totals %v: verified\n", r.Round, r.Dealer, r.Points, r.Totals)
		}
		for _, h := range v.HandedBack {
			fmt.Fprintf(c.stdout, "seat %d was handed from its bot to device %v at seq %d\n", h.Seat, h.Key, h.Seq)
		}
		if tg := v.TheGame; tg != nil {
			variant := "base game"
			if tg.Config.Extreme {
				variant = "Extreme"
			}
			fmt.Fprintf(c.stdout, "The Game (%s), %s, %s: %s left, %s: verified\n",
				variant, count(tg.Config.Players, "player"), count(tg.Turns, "turn"), count(tg.Result.CardsLeft, "card"), tg.Result.Rating().Words())
		}
	}
	if err != nil {
		return c.fail("verify", "%s: %v", fs.Arg(0), err)
	}
	state := "the game is not over"
	if v.Over {
		state = "the game is over"
	}
	if v.Unverified != nil {
		state += fmt.Sprintf(", its result not verified (%v)", v.Unverified)
	}
	if v.TheGame != nil || v.Genesis != nil && v.Genesis.Game == ntable.GameTheGame {
		fmt.Fprintf(c.stdout, "%s: table %v of The Game, %s, %s\n", fs.Arg(0), shownID(v), count(v.Envelopes, "envelope"), state)
		return ExitOK
	}
	fmt.Fprintf(c.stdout, "%s: table %v, %s, %s verified, %s\n", fs.Arg(0), shownID(v), count(v.Envelopes, "envelope"), count(len(v.Results), "round"), state)
	return ExitOK
}
