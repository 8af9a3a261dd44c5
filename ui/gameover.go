package ui

import (
	"cmp"
	"image/color"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/ui/reach"
	"github.com/njetlan/njet/words"
)

// gameOverView shows the winners, the final table and a chart of the
// running totals round by round. Its button leaves the game.
func (t *TableScreen) gameOverView() fyne.CanvasObject {
	m := t.model
	o := m.over
	bg := canvas.NewRectangle(panelColour)
	bg.CornerRadius = 10
	best := 0
	if len(o.Winners) > 0 {
		best = o.Totals[o.Winners[0]]
	}
	var head words.Msg
	switch {
	case len(o.Winners) == 1 && o.Winners[0] == m.you:
		head = words.Msg{ID: "game.win.you", Text: "You win with {{.Points}} points!", Args: map[string]any{"Points": best}}
	case len(o.Winners) == 1:
		head = words.Msg{ID: "game.win", Text: "{{.Seat}} wins with {{.Points}} points.", Args: map[string]any{"Seat": words.Plain(t.name(o.Winners[0])), "Points": best}}
	default:
		var ws []words.Msg
		for _, s := range o.Winners {
			ws = append(ws, words.Plain(t.name(s)))
		}
		head = words.Msg{ID: "game.shared", Text: "Shared win with {{.Points}} points: {{.Seats}}.", Args: map[string]any{"Points": best, "Seats": words.List(ws)}}
	}
	title := newPhrase(&t.lay.width, 24, true, gold)
	title.set(say(head))
	parts := []fyne.CanvasObject{title.object()}
	order := make([]int, len(o.Totals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(o.Totals[b], o.Totals[a]) })
	table := container.New(layout.NewGridLayoutWithColumns(3))
	for i, s := range order {
		place := strconv.Itoa(i + 1)
		if i > 0 && o.Totals[s] == o.Totals[order[i-1]] {
			place = ""
		}
		table.Add(label(place, 18, true, white))
		table.Add(label(t.name(s), 18, true, seatTint(s)))
		table.Add(label(strconv.Itoa(o.Totals[s]), 20, true, gold))
	}
	parts = append(parts, table, label(tr("table.chart", "Running totals"), 15, false, white), newChart(m.running()))
	home := widget.NewButton(tr("table.game-over-done", "Done"), t.leaveOver)
	home.Importance = widget.HighImportance
	if t.opt.OnAgain == nil {
		return reach.Region(reach.RegionOver, bg, container.NewPadded(sheet(parts, home)))
	}
	// Play again beside Done, the first choice; two narrower buttons fit
	// a phone's width side by side.
	again := playAgainButton(home, nil, t.playAgain)
	size := fyne.NewSize(145, 48)
	row := container.NewCenter(container.NewHBox(container.NewGridWrap(size, home), container.NewGridWrap(size, again)))
	body := container.NewBorder(nil, row, nil, nil, container.NewVScroll(container.NewVBox(parts...)))
	return reach.Region(reach.RegionOver, bg, container.NewPadded(body))
}

// playAgainButton is the game-over view's "Play again", which calls
// again: the first choice, done (Done, the view's one choice otherwise)
// the second.
func playAgainButton(done *widget.Button, icon fyne.Resource, again func()) *widget.Button {
	b := widget.NewButtonWithIcon(tr("again.play", "Play again"), icon, again)
	b.Importance = widget.HighImportance
	done.Importance = widget.MediumImportance
	return b
}

// chart draws one line per seat through its totals after each round, in
// the seat's colour, over a zero line and one grid line per round.
type chart struct {
	widget.BaseWidget
	series [][]int
}

func newChart(series [][]int) *chart {
	c := &chart{series: series}
	c.ExtendBaseWidget(c)
	return c
}

func (c *chart) MinSize() fyne.Size { return fyne.NewSize(280, 180) }

func (c *chart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{c: c, bg: canvas.NewRectangle(color.NRGBA{R: 0x08, G: 0x1e, B: 0x12, A: 0xff})}
	r.bg.CornerRadius = 6
	r.zero = canvas.NewLine(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x80})
	r.zero.StrokeWidth = 1
	n := 0
	for _, s := range c.series {
		n = max(n, len(s))
	}
	for range n {
		g := canvas.NewLine(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x20})
		r.grid = append(r.grid, g)
	}
	for si, s := range c.series {
		var ls []*canvas.Line
		for range max(len(s)-1, 0) {
			l := canvas.NewLine(seatColour(si))
			l.StrokeWidth = 3
			ls = append(ls, l)
		}
		r.lines = append(r.lines, ls)
		dot := canvas.NewCircle(seatColour(si))
		r.dots = append(r.dots, dot)
		// in the line's colour: a label moved off its line's end still
		// says whose total it is
		txt := canvas.NewText("", seatTint(si))
		txt.TextSize = 12
		txt.TextStyle.Bold = true
		r.ends = append(r.ends, txt)
	}
	return r
}

type chartRenderer struct {
	c     *chart
	bg    *canvas.Rectangle
	zero  *canvas.Line
	grid  []*canvas.Line
	lines [][]*canvas.Line
	dots  []*canvas.Circle
	ends  []*canvas.Text
}

func (r *chartRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	lo, hi := 0, 1
	n := 0
	for _, s := range r.c.series {
		for _, v := range s {
			lo, hi = min(lo, v), max(hi, v)
		}
		n = max(n, len(s))
	}
	const m = 14
	w, h := size.Width-2*m-36, size.Height-2*m
	x := func(i int) float32 { return m + w*float32(i)/float32(max(n-1, 1)) }
	y := func(v int) float32 { return m + h*float32(hi-v)/float32(hi-lo) }
	r.zero.Position1, r.zero.Position2 = fyne.NewPos(m, y(0)), fyne.NewPos(m+w, y(0))
	for i, g := range r.grid {
		g.Position1, g.Position2 = fyne.NewPos(x(i), m), fyne.NewPos(x(i), m+h)
	}
	var shown []int // the seats whose end label shows
	var ys []float32
	for si, s := range r.c.series {
		for i, l := range r.lines[si] {
			l.Position1, l.Position2 = fyne.NewPos(x(i), y(s[i])), fyne.NewPos(x(i+1), y(s[i+1]))
		}
		r.ends[si].Hidden = true
		if len(s) == 0 {
			continue
		}
		last := len(s) - 1
		r.dots[si].Move(fyne.NewPos(x(last)-4, y(s[last])-4))
		r.dots[si].Resize(fyne.NewSize(8, 8))
		// seats that end on the same total share one label
		if slices.ContainsFunc(r.c.series[:si], func(o []int) bool { return len(o) > 0 && o[len(o)-1] == s[last] }) {
			continue
		}
		r.ends[si].Text = strconv.Itoa(s[last])
		r.ends[si].Hidden = false
		shown = append(shown, si)
		ys = append(ys, y(s[last])-8)
	}
	// Totals a few points apart would print over each other: their labels
	// move apart, each beside its own line's end as far as room allows.
	ys = spread(ys, chartLabelGap, 0, size.Height-chartLabelGap)
	for i, si := range shown {
		s := r.c.series[si]
		r.ends[si].Move(fyne.NewPos(x(len(s)-1)+6, ys[i]))
	}
}

// chartLabelGap is the height an end label of the chart takes.
const chartLabelGap = 15

// spread returns the tops of labels wanted at tops, moved as little as it
// takes for any two to be gap apart and for all to lie between lo and hi
// (as far as there is room): in order from the highest, each goes below
// the one above it, then, from the lowest, above the one below it.
func spread(tops []float32, gap, lo, hi float32) []float32 {
	order := make([]int, len(tops))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tops[a], tops[b]) })
	out := slices.Clone(tops)
	prev := lo - gap
	for _, i := range order {
		out[i] = max(out[i], prev+gap)
		prev = out[i]
	}
	next := hi + gap
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		out[i] = min(out[i], next-gap)
		next = out[i]
	}
	return out
}

func (r *chartRenderer) MinSize() fyne.Size { return r.c.MinSize() }

func (r *chartRenderer) Refresh() {
	r.Layout(r.c.Size())
	canvas.Refresh(r.c)
}

func (r *chartRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.bg, r.zero}
	for _, g := range r.grid {
		objs = append(objs, g)
	}
	for _, ls := range r.lines {
		for _, l := range ls {
			objs = append(objs, l)
		}
	}
	for i := range r.dots {
		objs = append(objs, r.dots[i], r.ends[i])
	}
	return objs
}

func (r *chartRenderer) Destroy() {}
