package ui

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// fairStep is one check of a table's log, in a player's words.
type fairStep uint8

// The checks, in the order a round meets them.
const (
	stepFile fairStep = iota
	stepKeys
	stepShuffle
	stepDeal
	stepRules
	stepPlays
	stepCommitments
	stepReveal
	stepAudit
	nSteps
)

// fairWords are the words of each check, by step: Njet's, and the base
// of every game's (gameUI.fairStep), which says some in its own words.
var fairWords = [nSteps]text{
	stepFile:        {"fair.check.file", "The log is whole and every entry is signed by its seat"},
	stepKeys:        {"fair.check.keys", "Every player's keys were proven"},
	stepShuffle:     {"fair.check.shuffle", "Each seat's shuffle was verified"},
	stepDeal:        {"fair.check.deal", "Every dealt card's tokens were checked"},
	stepRules:       {"fair.check.rules", "Every block and team choice followed the rules"},
	stepPlays:       {"fair.check.plays", "Every played card was opened correctly"},
	stepCommitments: {"fair.check.commitments", "Discards and passes match what was committed"},
	stepReveal:      {"fair.check.reveal", "The hands were revealed at the end of each round"},
	stepAudit:       {"fair.check.audit", "The audit of each round passed"},
}

// String is the step in words.
func (s fairStep) String() string { return fairWords[min(s, stepAudit)].String() }

// njetVerdict is the verdict on the log of a Njet table that passed: the
// rounds that check out, and whether the game is over.
func njetVerdict(v *table.Verification) string {
	if v.Over {
		return trn("fair.good-over", "Fair play: the whole game checks out ({{.Count}} rounds).", len(v.Results))
	}
	return trn("fair.good-so-far", "Fair play so far: {{.Count}} rounds check out; the game is not over.", len(v.Results))
}

// gameOfCheck is the app's part of the game a checked log plays, the
// app's own game when the check did not get as far as the genesis.
func gameOfCheck(v *table.Verification) *gameUI {
	if v == nil || v.Genesis == nil {
		return gameUIs[0]
	}
	g, err := games.ByName(v.Genesis.Game)
	if err != nil {
		return gameUIs[0]
	}
	return gameByID(g.ID)
}

// stepOf is the step an envelope kind belongs to.
func stepOf(k tablelog.Kind) fairStep {
	switch k {
	case tablelog.KindGenesis, tablelog.KindAck, tablelog.KindRoundKey:
		return stepKeys
	case tablelog.KindShuffle:
		return stepShuffle
	case tablelog.KindDealTokens, tablelog.KindRecovery:
		return stepDeal
	case tablelog.KindPlay, tablelog.KindRecoveredPlay:
		return stepPlays
	case tablelog.KindDiscardCommit, tablelog.KindPassCommit:
		return stepCommitments
	case tablelog.KindReveal:
		return stepReveal
	}
	return stepRules
}

// maxLogSize bounds a log the app reads; a whole game's log is well under
// a megabyte.
const maxLogSize = 64 << 20

// logCheck runs the checks of `njet verify` over a log and shows them:
// progress, each check with its result, a verdict, and on demand the
// details (the table, the seats' keys, the file's hash, the rounds).
type logCheck struct {
	app      *App
	progress *widget.ProgressBarInfinite
	count    *widget.Label
	verdict  *widget.Label
	checks   *fyne.Container
	details  *widget.Accordion
	detail   *widget.Label
	view     fyne.CanvasObject

	// Passed and Failed are the outcome of the last run, for tests.
	Passed, Failed bool
	// Results are the checks' lines of the last run.
	Results []string
	onDone  func() // tests wait on it
	// relayout lays the page out again once the outcome changed its size.
	relayout func()
}

func newLogCheck(a *App) *logCheck {
	c := &logCheck{app: a}
	c.progress = widget.NewProgressBarInfinite()
	c.progress.Stop()
	c.progress.Hide()
	c.count = widget.NewLabel("")
	c.verdict = widget.NewLabel("")
	c.verdict.Wrapping = fyne.TextWrapWord
	c.verdict.TextStyle = fyne.TextStyle{Bold: true}
	c.checks = container.NewVBox()
	c.detail = widget.NewLabel("")
	c.detail.Wrapping = fyne.TextWrapBreak
	c.details = widget.NewAccordion(widget.NewAccordionItem(tr("fair.details", "Details: hashes and seats"), c.detail))
	c.details.Hide()
	c.view = container.NewVBox(c.progress, c.count, c.verdict, c.checks, c.details)
	return c
}

// run checks the log in data off the UI goroutine and shows the outcome.
func (c *logCheck) run(ctx context.Context, data []byte) {
	c.progress.Show()
	c.progress.Start()
	c.verdict.SetText(tr("fair.checking", "Checking the log…"))
	c.checks.Objects = nil
	c.checks.Refresh()
	c.details.Hide()
	go func() {
		v, err := table.VerifyReader(bytes.NewReader(data), func(envelopes, _ int64) {
			if envelopes%32 == 0 && ctx.Err() == nil {
				c.app.do(func() {
					c.count.SetText(tr("fair.count", "{{.N}} entries checked", map[string]any{"N": envelopes}))
				})
			}
		})
		failed := stepAudit + 1
		if err != nil {
			failed = failedStep(data, v, err)
		}
		if ctx.Err() != nil {
			return
		}
		c.app.do(func() { c.show(data, v, err, failed) })
	}()
}

// failedStep finds the step of the entry the check stopped at: the one
// after the last that passed, read again from the file.
func failedStep(data []byte, v *table.Verification, err error) fairStep {
	var viol *table.Violation
	if errors.As(err, &viol) {
		switch viol.Check {
		case table.CheckAudit, table.CheckWithheld:
			return stepAudit
		case table.CheckDiscard:
			return stepCommitments
		case table.CheckRenege, table.CheckFollow, table.CheckCard, table.CheckPosition, table.CheckChoice:
			return stepPlays
		}
	}
	if v == nil {
		return stepFile
	}
	x, xerr := tablelog.NewExportReader(bytes.NewReader(data))
	if xerr != nil {
		return stepFile
	}
	for range v.Envelopes {
		if _, err := x.Next(); err != nil {
			return stepFile
		}
	}
	e, xerr := x.Next()
	if xerr != nil {
		return stepFile
	}
	if errors.Is(err, tablelog.ErrCorrupt) || strings.Contains(err.Error(), "signature") {
		return stepFile
	}
	return stepOf(e.Kind)
}

// show writes the outcome.
func (c *logCheck) show(data []byte, v *table.Verification, err error, failed fairStep) {
	c.progress.Stop()
	c.progress.Hide()
	c.Passed, c.Failed = err == nil, err != nil
	c.Results = nil
	game := gameOfCheck(v)
	var objs []fyne.CanvasObject
	for s := range nSteps {
		var mark string
		switch {
		case err == nil || s < failed && s == stepFile:
			mark = "✓"
		case s == failed:
			mark = "✗"
		default:
			mark = "–"
		}
		line := mark + " " + game.fairStep(s)
		c.Results = append(c.Results, line)
		l := widget.NewLabel(line)
		l.Wrapping = fyne.TextWrapWord
		if s == failed {
			l.Importance = widget.DangerImportance
		}
		objs = append(objs, l)
	}
	c.checks.Objects = objs
	c.checks.Refresh()
	if v != nil {
		c.count.SetText(tr("fair.count", "{{.N}} entries checked", map[string]any{"N": v.Envelopes}))
	}
	if err != nil {
		c.verdict.SetText(tr("fair.bad", "Not fair or not whole: {{.Err}}", map[string]any{"Err": err.Error()}))
		c.verdict.Importance = widget.DangerImportance
	} else {
		// The theme's text colour, bold, after a check mark: the theme's
		// green is too light to read on a white page.
		c.verdict.SetText("✓ " + game.fairVerdict(v))
		c.verdict.Importance = widget.MediumImportance
	}
	c.verdict.Refresh()
	c.detail.SetText(details(data, v))
	c.details.Show()
	if c.relayout != nil {
		c.relayout()
	}
	if c.onDone != nil {
		c.onDone()
	}
}

// details are the hashes and seats behind the checks.
func details(data []byte, v *table.Verification) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %x\n", tr("fair.file-hash", "File SHA-256:"), sha256.Sum256(data))
	if v == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "%s %v\n", tr("fair.table", "Table:"), v.Table)
	if g := v.Genesis; g != nil {
		for s, k := range g.Keys {
			name := g.Name(s)
			if name == "" {
				name = "–"
			}
			fmt.Fprintf(&b, "%s\n", tr("fair.seat", "Seat {{.N}} ({{.Name}}): key {{.Key}}",
				map[string]any{"N": s + 1, "Name": name, "Key": fmt.Sprintf("%x", k[:8])}))
		}
	}
	for _, r := range v.Results {
		fmt.Fprintf(&b, "%s\n", tr("fair.round", "Round {{.Round}}: points {{.Points}}, totals {{.Totals}}",
			map[string]any{"Round": r.Round, "Points": fmt.Sprint(r.Points), "Totals": fmt.Sprint(r.Totals)}))
	}
	if more := gameOfCheck(v).fairDetails; more != nil {
		for _, line := range more(v) {
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	for _, viol := range v.Voided {
		fmt.Fprintf(&b, "%s\n", tr("fair.voided", "Voided: {{.Err}}", map[string]any{"Err": viol.Error()}))
	}
	return b.String()
}

// FairPlay is the fair-play panel of a LAN table: the table's log as the
// device holds it, checked as `njet verify` checks it, each check in a
// player's words, the details on demand, and the log to export or share.
type FairPlay struct {
	app   *App
	lan   LANTable
	view  fyne.CanvasObject
	check *logCheck

	// Export saves the log through the system's file dialog.
	Export *widget.Button
	stopper
}

// NewFairPlay makes the panel for t after round (0: the whole log).
func NewFairPlay(a *App, t LANTable, round int) *FairPlay {
	f := &FairPlay{app: a, lan: t, check: newLogCheck(a)}
	f.check.relayout = a.body.Refresh
	f.Export = widget.NewButtonWithIcon(tr("fair.export", "Export the log"), theme.DocumentSaveIcon(), f.export)
	title := tr("fair.title", "Fair play")
	if round > 0 {
		title = tr("fair.title-round", "Fair play after round {{.Round}}", map[string]any{"Round": round})
	}
	intro := widget.NewLabel(tr("fair.intro", "Your device checks the whole log of the table again, as anyone can: nobody could see or choose the cards they were not dealt."))
	intro.Wrapping = fyne.TextWrapWord
	f.view = a.page(title, column(container.NewVBox(intro, f.check.view, f.Export)))
	return f
}

// View is the panel.
func (f *FairPlay) View() fyne.CanvasObject { return f.view }

// Start exports the log and checks it.
func (f *FairPlay) Start(ctx context.Context) {
	ctx, f.cancel = context.WithCancel(ctx)
	var buf bytes.Buffer
	if err := f.lan.ExportLog(&buf); err != nil {
		f.check.verdict.SetText(err.Error())
		return
	}
	f.check.run(ctx, buf.Bytes())
}

// export writes the log where the person chooses (on a phone the system's
// document picker, from which it can be shared).
func (f *FairPlay) export() {
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			f.app.ShowError(err)
			return
		}
		if w == nil {
			return // cancelled
		}
		err = f.lan.ExportLog(w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			f.app.ShowError(err)
		}
	}, f.app.Window())
	d.SetFileName(f.lan.ID() + ".njetlog")
	d.Show()
}

// readLog reads a log file, bounded.
func readLog(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxLogSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxLogSize {
		return nil, fmt.Errorf("%s", tr("fair.too-big", "The file is too big to be a table's log."))
	}
	return data, nil
}
