package ui

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/thegame"
	"github.com/njetlan/njet/ui/reach"
)

// tgCardView is a card of the person's hand: its number large, its command
// below it in the Extreme game, a gold edge when it fits a pile now and a
// green "trick" mark when it fits one by the backwards trick.
type tgCardView struct {
	widget.BaseWidget
	card    thegame.Card
	cmd     thegame.Command
	fits    bool // goes on some pile now
	trick   bool // goes on some pile by the backwards trick
	picked  bool
	waiting bool // not the person's turn: the edges stay plain
	big     bool // desktop size
	tapped
	onDrop func(at fyne.Position) // dragged and let go at this point of the window

	dragTo   fyne.Position // where the drag has got to
	dragging bool
}

func newTgCardView(onTap func()) *tgCardView {
	c := &tgCardView{tapped: tapped{onTap}}
	c.ExtendBaseWidget(c)
	return c
}

// Dragged follows a card dragged towards a pile.
func (c *tgCardView) Dragged(ev *fyne.DragEvent) {
	c.dragging = true
	if !ev.AbsolutePosition.IsZero() {
		c.dragTo = ev.AbsolutePosition
		return
	}
	// Without the window position (the test driver), the point is the
	// card's own position plus where the drag began and how far it went.
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
	c.dragTo = origin.Add(ev.Position).Add(fyne.NewPos(ev.Dragged.DX, ev.Dragged.DY))
}

// DragEnd lays the card where it was let go.
func (c *tgCardView) DragEnd() {
	if !c.dragging {
		return
	}
	c.dragging = false
	if c.onDrop != nil {
		c.onDrop(c.dragTo)
	}
}

// Shows is the card's number, as a person reads it (package reach).
func (c *tgCardView) Shows() (kind, what string) { return "card", strconv.Itoa(int(c.card)) }

// Marks are the edges a person sees on the card: it fits a pile now (gold,
// only on the person's turn), it is picked (blue), and the trick mark.
func (c *tgCardView) Marks() []string {
	var m []string
	switch {
	case c.picked:
		m = append(m, reach.MarkPicked)
	case c.fits && !c.waiting:
		m = append(m, reach.MarkFits)
	}
	if c.trick {
		m = append(m, "trick")
	}
	return m
}

func (c *tgCardView) MinSize() fyne.Size { return tgCardSize(c.big) }

// tgCardSize is the least size of a card of the hand, on a desktop (big)
// or in the column.
func tgCardSize(big bool) fyne.Size {
	if big {
		return fyne.NewSize(84, 112)
	}
	return fyne.NewSize(60, 64)
}

func (c *tgCardView) CreateRenderer() fyne.WidgetRenderer {
	r := &tgCardRender{c: c, bg: canvas.NewRectangle(cardFace), num: canvas.NewText("", ink),
		cmd: canvas.NewText("", tgCmdColour), mark: canvas.NewText("", tgTrickColour)}
	r.bg.CornerRadius = 8
	r.num.TextStyle.Bold = true
	r.num.Alignment = fyne.TextAlignCenter
	r.cmd.Alignment = fyne.TextAlignCenter
	r.cmd.TextStyle.Bold = true
	r.mark.Alignment = fyne.TextAlignCenter
	r.mark.TextStyle.Bold = true
	r.Refresh()
	return r
}

type tgCardRender struct {
	c              *tgCardView
	bg             *canvas.Rectangle
	num, cmd, mark *canvas.Text
}

func (r *tgCardRender) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.bg.Move(fyne.NewPos(0, 0))
	ns := r.num.MinSize()
	r.num.Resize(fyne.NewSize(size.Width, ns.Height))
	r.num.Move(fyne.NewPos(0, (size.Height-ns.Height)/2-size.Height*0.08))
	ms := r.mark.MinSize()
	r.mark.Resize(fyne.NewSize(size.Width, ms.Height))
	r.mark.Move(fyne.NewPos(0, 2))
	fitText(r.cmd, size.Width-4)
	cs := r.cmd.MinSize()
	r.cmd.Resize(fyne.NewSize(size.Width, cs.Height))
	r.cmd.Move(fyne.NewPos(0, size.Height-cs.Height-3))
}

func (r *tgCardRender) MinSize() fyne.Size { return r.c.MinSize() }

func (r *tgCardRender) Refresh() {
	c := r.c
	r.num.Text = strconv.Itoa(int(c.card))
	r.num.TextSize = 24
	r.cmd.TextSize, r.mark.TextSize = 10, 10
	if c.big {
		r.num.TextSize = 36
		r.cmd.TextSize, r.mark.TextSize = 12, 12
	}
	r.cmd.Text = ""
	if c.cmd != thegame.CmdNone {
		r.cmd.Text = tgCommandShort(c.cmd)
	}
	r.mark.Text = ""
	if c.trick {
		r.mark.Text = tgw("thegame.card.trick")
	}
	r.num.Color = ink
	r.bg.FillColor = cardFace
	r.bg.StrokeWidth = 1
	r.bg.StrokeColor = edgeGrey
	switch {
	case c.picked:
		r.bg.StrokeColor, r.bg.StrokeWidth = pickBlue, 5
		r.bg.FillColor = color.NRGBA{R: 0xe3, G: 0xee, B: 0xff, A: 0xff}
	case c.fits && !c.waiting:
		r.bg.StrokeColor, r.bg.StrokeWidth = gold, 4
	case !c.fits:
		r.num.Color = tgDimInk
	}
	r.Layout(c.Size())
	r.bg.Refresh()
	r.num.Refresh()
	r.cmd.Refresh()
	r.mark.Refresh()
}

func (r *tgCardRender) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.num, r.mark, r.cmd}
}

func (r *tgCardRender) Destroy() {}

// tgPileView is one of the four piles: its direction, the top card large,
// the command on it, the card the backwards trick would take (marked when
// the person holds it) and the seats' signals on it.
type tgPileView struct {
	widget.BaseWidget
	index   int
	pile    thegame.Pile
	held    bool     // the person holds the trick card
	target  bool     // the picked card fits here
	fresh   bool     // the last card of the game went here
	mini    bool     // in the replay: the top card and its command only
	signals []string // "Ada: leave this pile to me", …
	muted   bool
	extreme bool // the Extreme game: room for a command is kept
	big     bool
	tapped

	dirSize                      float32 // the band's text size before fitting
	bg, band                     *canvas.Rectangle
	dir, num, cmd, trick, sigTxt *canvas.Text
	sigs                         *fyne.Container
	icon                         *widget.Icon
}

func newTgPileView(i int, onTap func()) *tgPileView {
	p := &tgPileView{index: i, tapped: tapped{onTap}}
	p.ExtendBaseWidget(p)
	return p
}

// Disabled is false: a tap on a pile is always answered, if only with why
// nothing can go there.
func (p *tgPileView) Disabled() bool { return false }

// Shows is the pile's number, its way and its top card: "1 up 37".
func (p *tgPileView) Shows() (kind, what string) {
	way := "down"
	if p.pile.Up {
		way = "up"
	}
	return "pile", fmt.Sprintf("%d %s %d", p.index+1, way, p.pile.Top)
}

// Marks is the gold ring of a pile the picked card fits.
func (p *tgPileView) Marks() []string {
	if p.target {
		return []string{reach.MarkTarget}
	}
	return nil
}

func (p *tgPileView) MinSize() fyne.Size {
	switch {
	case p.big:
		return fyne.NewSize(180, 250)
	case p.mini:
		// Two side by side on the narrowest screen, 300 wide.
		return fyne.NewSize(120, 104)
	}
	return fyne.NewSize(150, 150)
}

func (p *tgPileView) CreateRenderer() fyne.WidgetRenderer {
	p.bg = canvas.NewRectangle(cardFace)
	p.bg.CornerRadius = 10
	p.band = canvas.NewRectangle(tgUpColour)
	p.band.CornerRadius = 10
	p.dir = canvas.NewText("", white)
	p.dir.TextStyle.Bold = true
	p.num = canvas.NewText("", ink)
	p.num.TextStyle.Bold = true
	p.num.Alignment = fyne.TextAlignCenter
	p.cmd = canvas.NewText("", white)
	p.cmd.TextStyle.Bold = true
	p.cmd.Alignment = fyne.TextAlignCenter
	p.trick = canvas.NewText("", tgTrickColour)
	p.trick.Alignment = fyne.TextAlignCenter
	p.sigs = container.NewVBox()
	p.icon = widget.NewIcon(theme.MoveUpIcon())
	r := &tgPileRender{p: p}
	r.Refresh()
	return r
}

type tgPileRender struct{ p *tgPileView }

func (r *tgPileRender) Layout(size fyne.Size) {
	p := r.p
	pad := float32(6)
	p.bg.Resize(size)
	p.bg.Move(fyne.NewPos(0, 0))
	bandH := p.dir.MinSize().Height + 8
	p.band.Resize(fyne.NewSize(size.Width, bandH))
	p.band.Move(fyne.NewPos(0, 0))
	p.icon.Resize(fyne.NewSize(bandH-8, bandH-8))
	p.icon.Move(fyne.NewPos(pad, 4))
	// The long words ("Pile 3: down from 100") where every pile's fit
	// at this width, else the short ones on all: the four bands alike.
	if p.big {
		p.dir.Text, p.dir.TextSize = p.words(true), p.dirSize
		long := fyne.MeasureText(tgw("thegame.pile.down", "N", p.index+1), p.dir.TextSize, p.dir.TextStyle).Width
		if long > size.Width-bandH-pad {
			p.dir.Text = p.words(false)
		}
	}
	fitText(p.dir, size.Width-bandH-pad)
	p.dir.Resize(fyne.NewSize(size.Width-bandH-pad, bandH-8))
	p.dir.Move(fyne.NewPos(pad+bandH-4, 4))
	y := bandH
	ns := p.num.MinSize()
	p.num.Resize(fyne.NewSize(size.Width, ns.Height))
	p.num.Move(fyne.NewPos(0, y))
	y += ns.Height - 4
	// The command, then the trick card, a line each when it shows; the
	// command's words shrink to fit.
	for _, o := range []*canvas.Text{p.cmd, p.trick} {
		if o.Text == "" {
			o.Resize(fyne.NewSize(0, 0))
			continue
		}
		if o == p.cmd {
			fitText(o, size.Width-2*pad)
		}
		s := o.MinSize()
		o.Resize(fyne.NewSize(size.Width, s.Height))
		o.Move(fyne.NewPos(0, y))
		y += s.Height + 2
	}
	p.sigs.Resize(fyne.NewSize(size.Width-2*pad, max(size.Height-y-pad, 0)))
	p.sigs.Move(fyne.NewPos(pad, y))
}

func (r *tgPileRender) MinSize() fyne.Size { return r.p.MinSize() }

// needHeight is the height the pile needs at width w to show all it holds:
// its band, its number, its command, its trick card and every line of its
// signals; 0 before it is first drawn.
func (p *tgPileView) needHeight(w float32) float32 {
	if p.dir == nil {
		return 0
	}
	const pad = 6
	h := p.dir.MinSize().Height + 8 + p.num.MinSize().Height - 4
	// A line for the command in the Extreme game and one for the trick
	// card are kept whether they show or not: the pile stays as high when
	// a card is laid on it, and so the hand below stays in its place.
	for _, o := range []*canvas.Text{p.cmd, p.trick} {
		if o.Text != "" || o == p.trick || p.extreme {
			h += fyne.MeasureText("Ag", o.TextSize, o.TextStyle).Height + 2
		}
	}
	for i, o := range p.sigs.Objects {
		if t, ok := o.(*tgText); ok {
			h += float32(len(t.wrap(w-2*pad))) * t.lineHeight()
		}
		if i > 0 {
			h += theme.Padding()
		}
	}
	return h + pad
}

func (r *tgPileRender) Refresh() {
	p := r.p
	pl := p.pile
	numSize, small := float32(38), float32(12)
	if p.big {
		numSize, small = float32(72), float32(15)
	}
	p.dir.TextSize = small + 1
	p.dirSize = p.dir.TextSize
	p.dir.Text = p.words(p.big)
	if pl.Up {
		p.band.FillColor = tgUpColour
		p.icon.SetResource(theme.MoveUpIcon())
	} else {
		p.band.FillColor = tgDownColour
		p.icon.SetResource(theme.MoveDownIcon())
	}
	p.num.Text = strconv.Itoa(pl.Top)
	p.num.TextSize = numSize
	p.cmd.TextSize = small
	p.cmd.Text = ""
	p.bg.FillColor = cardFace
	if pl.Cmd != thegame.CmdNone {
		p.cmd.Text = tgCommandShort(pl.Cmd)
		p.bg.FillColor = color.NRGBA{R: 0xee, G: 0xe2, B: 0xf2, A: 0xff}
		p.cmd.Color = tgCmdColour
	}
	p.bg.StrokeWidth, p.bg.StrokeColor = 1, edgeGrey
	switch {
	case p.target:
		p.bg.StrokeWidth, p.bg.StrokeColor = 5, gold
	case p.fresh:
		p.bg.StrokeWidth, p.bg.StrokeColor = 4, white
	}
	p.trick.TextSize = small
	p.trick.TextStyle.Bold = p.held
	p.trick.Text = ""
	// The replay's small piles show their top card only.
	if t := tgTrickCard(pl); t != 0 && !p.mini {
		if p.held {
			p.trick.Text = tgw("thegame.pile.trick-held", "Card", int(t))
			p.trick.Color = tgTrickColour
		} else {
			p.trick.Text = tgw("thegame.pile.trick", "Card", int(t))
			p.trick.Color = tgDimInk
		}
	}
	p.sigs.Objects = nil
	for _, s := range p.signals {
		col := color.Color(ink)
		if p.muted {
			col = tgDimInk
		}
		t := newTgText(small, false, col)
		t.SetText(s)
		p.sigs.Add(t)
	}
	r.Layout(p.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}

func (r *tgPileRender) Objects() []fyne.CanvasObject {
	p := r.p
	return []fyne.CanvasObject{p.bg, p.band, p.icon, p.dir, p.num, p.cmd, p.trick, p.sigs}
}

func (r *tgPileRender) Destroy() {}

// words names the pile and its way, in the long words or the short.
func (p *tgPileView) words(long bool) string {
	id := "thegame.pile.down"
	if p.pile.Up {
		id = "thegame.pile.up"
	}
	if !long {
		id += ".short"
	}
	return tgw(id, "N", p.index+1)
}

// tgTrickCard is the card the backwards trick would lay on pl, or 0 when
// no card can.
func tgTrickCard(pl thegame.Pile) thegame.Card {
	t := pl.Top - 10
	if !pl.Up {
		t = pl.Top + 10
	}
	if c := thegame.Card(max(t, 0)); t > 0 && c.Valid() {
		return c
	}
	return 0
}

// tgGrid lays its objects out in rows of cols equal cells, each at least
// its object's minimum size; the screen's layout sets cols for the shape
// of the window.
type tgGrid struct {
	cols int
	gap  float32
}

func (g *tgGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var cell fyne.Size
	for _, o := range objs {
		cell = cell.Max(o.MinSize())
	}
	cols := max(g.cols, 1)
	rows := (len(objs) + cols - 1) / cols
	return fyne.NewSize(float32(cols)*cell.Width+float32(cols-1)*g.gap,
		float32(rows)*cell.Height+float32(max(rows-1, 0))*g.gap)
}

func (g *tgGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	cols := max(g.cols, 1)
	rows := max((len(objs)+cols-1)/cols, 1)
	w := (size.Width - float32(cols-1)*g.gap) / float32(cols)
	h := (size.Height - float32(rows-1)*g.gap) / float32(rows)
	for i, o := range objs {
		r, c := i/cols, i%cols
		o.Move(fyne.NewPos(float32(c)*(w+g.gap), float32(r)*(h+g.gap)))
		o.Resize(fyne.NewSize(w, h))
	}
}

// fitText makes t's text smaller, down to 8, until it is no wider than
// width (a long word in German or French on a small card).
func fitText(t *canvas.Text, width float32) {
	for range 16 {
		if t.TextSize <= 8 || fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width <= width {
			return
		}
		t.TextSize--
	}
}

// tgBar lays buttons out in a row, each as wide as its weight's share: the
// first, "End turn", gets the most room for its longer words. Upright (a
// phone on its side, at the right of the table) they stand one above the
// other at the bottom, the first lowest, nearest the thumb.
type tgBar struct {
	weights []float32
	gap     float32
	upright bool
}

// tgUprightH is the height of a button in an upright bar.
const tgUprightH = 52

func (b *tgBar) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	if b.upright {
		n := float32(len(objs))
		return fyne.NewSize(120, n*max(h, tgUprightH)+(n-1)*b.gap)
	}
	return fyne.NewSize(float32(len(objs))*60, h)
}

// Layout gives each button its least width and shares what is left by
// weight, so that the longest words ("Zug beenden") are not cut on the
// narrowest phones; where even the least widths do not fit, the room is
// shared in their proportion.
func (b *tgBar) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if b.upright {
		y := size.Height
		for _, o := range objs {
			h := max(o.MinSize().Height, tgUprightH)
			y -= h
			o.Move(fyne.NewPos(0, y))
			o.Resize(fyne.NewSize(size.Width, h))
			y -= b.gap
		}
		return
	}
	var total, least float32
	for i, o := range objs {
		total += b.weight(i)
		least += o.MinSize().Width
	}
	room := size.Width - float32(max(len(objs)-1, 0))*b.gap
	x := float32(0)
	for i, o := range objs {
		w := o.MinSize().Width + (room-least)*b.weight(i)/total
		if room < least {
			w = room * o.MinSize().Width / least
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w + b.gap
	}
}

func (b *tgBar) weight(i int) float32 {
	if i < len(b.weights) {
		return b.weights[i]
	}
	return 1
}

// tgFeltTheme is the app's theme with a greyed-out button that reads on the
// table's felt: the default grey is too dark there for its words to be
// seen ("End turn" before the minimum is down).
type tgFeltTheme struct{}

var (
	// Darker than the felt, sunk into it, and unlike the light theme's
	// green of a button that may be tapped; its words still read.
	tgFeltDisabledButton = color.NRGBA{R: 0x16, G: 0x42, B: 0x29, A: 0xff}
	tgFeltDisabledText   = color.NRGBA{R: 0xa3, G: 0xbd, B: 0xae, A: 0xff}
)

func (tgFeltTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil && a.Settings().Theme() != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (f tgFeltTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch n {
	case theme.ColorNameDisabledButton:
		return tgFeltDisabledButton
	case theme.ColorNameDisabled:
		return tgFeltDisabledText
	}
	return f.base().Color(n, v)
}

func (f tgFeltTheme) Font(s fyne.TextStyle) fyne.Resource { return f.base().Font(s) }

func (f tgFeltTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return f.base().Icon(n) }

func (f tgFeltTheme) Size(n fyne.ThemeSizeName) float32 { return f.base().Size(n) }

// tgChoice is a list of options, one of them chosen, one under the other,
// whose words wrap: a radio group's words do not, and a signal's words in
// French are wider than the narrowest phones. A tap anywhere on an
// option's row chooses it.
type tgChoice struct {
	widget.BaseWidget
	Options  []string
	Selected string
	icons    []*widget.Icon
	box      *fyne.Container
}

func newTgChoice(options []string) *tgChoice {
	c := &tgChoice{Options: options}
	c.box = container.NewVBox()
	for _, o := range options {
		icon := widget.NewIcon(theme.RadioButtonIcon())
		text := widget.NewLabel(o)
		text.Wrapping = fyne.TextWrapWord
		row := container.NewBorder(nil, nil, container.NewCenter(icon), nil, text)
		c.icons = append(c.icons, icon)
		c.box.Add(container.NewStack(row, newTgTap(func() { c.SetSelected(o) })))
	}
	c.ExtendBaseWidget(c)
	return c
}

// SetSelected chooses option o; an option not in the list is ignored.
func (c *tgChoice) SetSelected(o string) {
	for i, x := range c.Options {
		if x != o {
			continue
		}
		c.Selected = o
		for j, icon := range c.icons {
			res := theme.RadioButtonIcon()
			if j == i {
				res = theme.NewPrimaryThemedResource(theme.RadioButtonCheckedIcon())
			}
			icon.SetResource(res)
		}
	}
}

func (c *tgChoice) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.box)
}

// tgTap is a clear area that hears taps, laid over a row of a tgChoice.
type tgTap struct {
	widget.BaseWidget
	tapped
}

func newTgTap(onTap func()) *tgTap {
	t := &tgTap{tapped: tapped{onTap}}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tgTap) MinSize() fyne.Size { return fyne.NewSize(1, 44) }

func (t *tgTap) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}
