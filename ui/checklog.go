package ui

import (
	"context"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CheckLog opens a table's log file and runs the same checks as
// `njet verify`, with progress and a clear verdict.
type CheckLog struct {
	app   *App
	view  fyne.CanvasObject
	check *logCheck
	file  *widget.Label
	ctx   context.Context

	// Open chooses the file.
	Open *widget.Button
	stopper
}

// NewCheckLog makes the screen.
func NewCheckLog(a *App) *CheckLog {
	c := &CheckLog{app: a, check: newLogCheck(a), ctx: context.Background()}
	c.check.relayout = a.body.Refresh
	c.Open = widget.NewButtonWithIcon(tr("checklog.open", "Open a log file"), theme.FolderOpenIcon(), c.choose)
	c.Open.Importance = widget.HighImportance
	c.file = widget.NewLabel("")
	c.file.Wrapping = fyne.TextWrapBreak
	intro := widget.NewLabel(tr("checklog.intro", "A table's log (.njetlog) holds every move, signed. Checking it proves that the shuffle was fair and everyone kept the rules."))
	intro.Wrapping = fyne.TextWrapWord
	c.view = a.page(tr("checklog.title", "Check a log"), column(container.NewVBox(intro, c.Open, c.file, c.check.view)))
	return c
}

// View is the screen.
func (c *CheckLog) View() fyne.CanvasObject { return c.view }

// Start keeps ctx for the checks.
func (c *CheckLog) Start(ctx context.Context) { c.ctx, c.cancel = context.WithCancel(ctx) }

// choose asks for the file.
func (c *CheckLog) choose() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			c.app.ShowError(err)
			return
		}
		if r == nil {
			return // cancelled
		}
		data, err := readLog(r)
		if cerr := r.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			c.app.ShowError(err)
			return
		}
		c.file.SetText(r.URI().Name())
		c.check.run(c.ctx, data)
	}, c.app.Window())
	d.SetFilter(storage.NewExtensionFileFilter([]string{".njetlog"}))
	d.Show()
}

// CheckFile checks the log at path, as if chosen in the dialog.
func (c *CheckLog) CheckFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := readLog(f)
	if err != nil {
		return err
	}
	c.file.SetText(filepath.Base(path)) // as the dialog shows a chosen file: by its name
	c.check.run(c.ctx, data)
	return nil
}
