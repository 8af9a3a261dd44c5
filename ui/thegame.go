package ui

import (
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/seat"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/thegame"
	tgbot "github.com/njetlan/njet/thegame/bot"
)

// theGameID is The Game's ID in package games.
const theGameID = "thegame"

// theGameUI is The Game's part of the app: the setup (thegame_setup.go),
// the rules (thegame_rules.go), the table and its game-over view with the
// replay (thegame_table.go, thegame_over.go) fed by a TheGameSource,
// whose local game, a seat.TheGameLocal, is kept in thegame.json, and the
// LAN table (thegame_lan.go).
var theGameUI = &gameUI{
	id:       theGameID,
	title:    func() string { return tgw("thegame.home.title") },
	about:    func() string { return tgw("thegame.home.tagline") },
	newLabel: func() string { return tgw("thegame.home.play") },
	setup:    func(a *App) Screen { return NewTheGameSetup(a) },
	rules:    func(a *App) Screen { return NewTheGameRules(a) },
	save:     saveFiles{file: "thegame.json", aside: "thegame.damaged.json"},
	describe: describeTheGame,
	resume: func(a *App, data []byte) error {
		l, err := seat.ResumeTheGameLocal(data)
		if err == nil {
			a.playTheGame(l)
		}
		return err
	},
	badSave:     func() string { return tgw("thegame.resume.bad") },
	lanTable:    func(a *App, t LANTable) Screen { return NewLANTheGame(a, t) },
	variantName: theGameVariant,
	host:        hostTheGame,
	fairStep:    theGameFairStep,
	fairVerdict: theGameVerdict,
	fairDetails: theGameDetails,
}

// describeTheGame names a saved game by what the person chose and how far
// it went; one that cannot be read is still offered, and the tap says why
// it cannot be continued.
func describeTheGame(_ *App, data []byte) (label, line string) {
	l, err := seat.ResumeTheGameLocal(data)
	if err != nil {
		return tgw("thegame.home.unreadable"), ""
	}
	cfg := l.Config()
	variant := tgw("thegame.home.base")
	if cfg.Extreme {
		variant = tgw("thegame.home.extreme")
	}
	v := l.View()
	left := v.DrawPile
	for _, n := range v.HandSizes {
		left += n
	}
	return tgn("thegame.home.continue", cfg.Players, "Variant", variant), tgn("thegame.home.saved", left)
}

// theGameVariant names a variant of The Game.
func theGameVariant(variant string) string {
	if variant == "extreme" {
		return tr("lan.game.thegame-extreme", "The Game Extreme")
	}
	return tr("lan.game.thegame", "The Game")
}

// theGameHost is The Game's part of the host form: Extreme.
type theGameHost struct {
	Extreme *widget.Check
}

// hostTheGame puts The Game's choices on the host form: Extreme, and 2
// to 5 players (a LAN table seats at least two).
func hostTheGame(f *HostForm) hostPart {
	h := &theGameHost{Extreme: widget.NewCheck(tr("lan.host.extreme", "Extreme"), nil)}
	f.playerChoices(2, thegame.MaxPlayers, 3)
	return hostPart{
		tail:   []*widget.FormItem{widget.NewFormItem(tr("lan.host.variant", "Variant"), h.Extreme)},
		config: h.config,
		fields: h,
	}
}

// config reads The Game's choice: the base game or Extreme.
func (h *theGameHost) config(cfg *LANHostConfig) error {
	cfg.Variant = "base"
	if h.Extreme.Checked {
		cfg.Variant = "extreme"
	}
	return nil
}

// theGameFairWords are the checks of fair play that a log of The Game
// says in its own words, a game without blocks, teams, commitments or
// rounds; the others are every game's (fairWords).
var theGameFairWords = map[fairStep]text{
	stepDeal:        {"fair.tg.deal", "Every card dealt and drawn was opened to its holder alone"},
	stepRules:       {"fair.tg.rules", "Every card laid, signal and end of turn followed the rules"},
	stepCommitments: {"fair.tg.draws", "Every draw took the next card of the shuffled draw pile"},
	stepReveal:      {"fair.tg.reveal", "Every seat revealed its keys at the end of the game"},
	stepAudit:       {"fair.tg.audit", "The audit passed: the whole deck replays to the same result"},
}

// theGameFairStep says a check of fair play for a log of The Game.
func theGameFairStep(s fairStep) string {
	if w, ok := theGameFairWords[s]; ok {
		return w.String()
	}
	return s.String()
}

// theGameVerdict is the verdict on the log of a table of The Game that
// passed: the cards left once the whole game is audited.
func theGameVerdict(v *table.Verification) string {
	if v.Over && v.TheGame != nil {
		return tr("fair.tg.good-over", "Fair play: the whole game of The Game checks out ({{.Left}} cards left).",
			map[string]any{"Left": v.TheGame.Result.CardsLeft})
	}
	return tr("fair.tg.good-so-far", "Fair play so far: the game of The Game is not over.")
}

// theGameDetails is the audited result of the game, once there is one.
func theGameDetails(v *table.Verification) []string {
	r := v.TheGame
	if r == nil {
		return nil
	}
	return []string{tr("fair.tg.result", "The Game, {{.Players}} players, {{.Turns}} turns: {{.Left}} cards left",
		map[string]any{"Players": r.Config.Players, "Turns": r.Turns, "Left": r.Result.CardsLeft})}
}

// startTheGame begins a new local game of The Game, replacing a saved one.
func (a *App) startTheGame(cfg seat.TheGameLocalConfig) error {
	l, err := seat.NewTheGameLocal(cfg)
	if err != nil {
		return err
	}
	a.startLocal(theGameID, l, func() { a.playTheGame(l) })
	return nil
}

// playTheGame sits the person down at l over a fresh home screen: the game
// is saved after every move and its save removed once it is over.
func (a *App) playTheGame(l *seat.TheGameLocal) {
	scr := NewTheGameScreen(a, l, seatNames(a, l.Config().Players))
	a.keepTheGame(scr, l)
	a.sitDown(theGameID, l, scr)
}

// keepTheGame has scr save l after every move and remove the save once
// the game is over or the person leaves it.
func (a *App) keepTheGame(scr *TheGameScreen, l *seat.TheGameLocal) {
	clear := func() { a.ClearLocal(theGameID) }
	scr.onMove = func() { a.SaveLocal(theGameID, l) }
	scr.onOver = clear
	scr.onLeave = clear
	scr.onAgain = func() {
		cfg := l.Config()
		seed, err := freshSeed()
		if err == nil {
			cfg.Seed = seed
			err = a.startTheGame(cfg)
		}
		if err != nil {
			a.ShowError(err)
		}
	}
	scr.offerHints()
}

// smokeHold is how long The Game's smoke mode shows the game-over view.
const smokeHold = 1500 * time.Millisecond

// SmokeTheGame starts a local game of The Game of cfg whose person's seat
// is played by the table screen's own taps, a cooperative bot choosing
// them, without saving. Once the game-over view has been up for a moment,
// done gets the result the view shows, on the UI goroutine: the line it
// reads, and an error when that disagrees with the engine's result.
func (a *App) SmokeTheGame(cfg seat.TheGameLocalConfig, done func(left int, rating thegame.Rating, err error)) error {
	l, err := seat.NewTheGameLocal(cfg)
	if err != nil {
		return err
	}
	person, err := tgbot.New("coop", true)
	if err != nil {
		return err
	}
	// The smoke game writes no save and leaves a saved one alone.
	a.setLive(theGameID, nil)
	scr := NewTheGameScreen(a, l, seatNames(a, cfg.Players))
	scr.auto = person
	var once, started sync.Once
	scr.onOver = func() {
		time.AfterFunc(smokeHold, func() {
			a.do(func() {
				once.Do(func() {
					r := l.Result()
					var err error
					if want := tgn("thegame.over.left", r.CardsLeft); scr.gameOver.Left.Text != want {
						err = fmt.Errorf("ui: the game-over view says %q, the engine %q", scr.gameOver.Left.Text, want)
					}
					done(r.CardsLeft, r.Rating(), err)
				})
			})
		})
	}
	scr.onFail = func(err error) {
		once.Do(func() { done(0, thegame.RatingLost, err) })
	}
	// The table starts once the app runs: before, a driver runs the work
	// handed to it at once on the caller's goroutine, the pump's included.
	a.fy.Lifecycle().SetOnStarted(func() {
		started.Do(func() {
			a.Reset(NewHome(a))
			a.Push(scr)
		})
	})
	return nil
}
