package reach

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// Inside lists what a widget draws: its renderer's objects. Tests pass
// the renderers of fyne's test package; the real window's come from
// Rendered.
type Inside func(fyne.Widget) []fyne.CanvasObject

// Shower is a control that says what it shows when its texts do not say
// it all: a card (kind "card", "red-7"), a field of a board.
type Shower interface {
	Shows() (kind, what string)
}

// Marker is a control that says which states it shows beside its text:
// the edges and rings a person reads as "this card fits", "this pile
// takes it".
type Marker interface {
	Marks() []string
}

// Regioner names a part of a screen; the controls and texts inside it
// carry the name (Control.Region). A widget names itself by implementing
// it; a container by its layout implementing it (Region).
type Regioner interface {
	Region() string
}

// node is one object met by the walk, in drawing order.
type node struct {
	obj    fyne.CanvasObject
	rect   Rect
	clip   Rect // the visible area its clipping ancestors leave
	scroll int  // the innermost scroll container around it, or -1
	hidden bool
	region string
	layer  int
	end    int // the index after its last descendant
}

// unclipped is the clip of what no scroll container holds.
var unclipped = Rect{-1e9, -1e9, 2e9, 2e9}

// Scan reads what canvas c draws: the content, then each pop-up over it.
func Scan(c fyne.Canvas, inside Inside) *Screen {
	size := c.Size()
	win := Rect{0, 0, size.Width, size.Height}
	w := &walk{inside: inside}
	if content := c.Content(); content != nil {
		w.visit(content, fyne.Position{}, unclipped, -1, false, "", 0)
	}
	layers := 0
	if ov := c.Overlays(); ov != nil {
		for i, o := range ov.List() {
			layers = i + 1
			w.visit(o, fyne.Position{}, unclipped, -1, false, "", layers)
		}
	}
	w.keepInnermost()
	s := &Screen{Size: size, Layers: layers}
	for i, n := range w.nodes {
		if t, ok := n.obj.(*canvas.Text); ok && !n.hidden && strings.TrimSpace(t.Text) != "" &&
			!n.rect.Intersect(n.clip).Empty() && !n.rect.Intersect(win).Empty() {
			s.Texts = append(s.Texts, Text{Text: t.Text, Region: n.region, Rect: drawn(t, n.rect), Layer: n.layer})
		}
		if !w.control[i] {
			continue
		}
		s.Controls = append(s.Controls, w.describe(i, win, layers))
	}
	return s
}

type walk struct {
	inside  Inside
	nodes   []node
	control map[int]bool
}

// visit adds o and what it draws, depth first in drawing order. pos is
// the position of o's parent; clip the area the clipping ancestors leave
// visible; inCtl is set inside a control (whose insides are its own).
func (w *walk) visit(o fyne.CanvasObject, pos fyne.Position, clip Rect, scroll int, hidden bool, region string, layer int) {
	if o == nil {
		return
	}
	if w.control == nil {
		w.control = map[int]bool{}
	}
	p := pos.Add(o.Position())
	sz := o.Size()
	r := Rect{p.X, p.Y, sz.Width, sz.Height}
	hidden = hidden || !o.Visible()
	if rg, ok := o.(Regioner); ok {
		region = rg.Region()
	}
	if c, ok := o.(*fyne.Container); ok {
		if rg, ok := c.Layout.(Regioner); ok {
			region = rg.Region()
		}
	}
	i := len(w.nodes)
	w.nodes = append(w.nodes, node{obj: o, rect: r, clip: clip, scroll: scroll, hidden: hidden, region: region, layer: layer})
	if _, ok := o.(fyne.Tappable); ok {
		w.control[i] = true
	}
	if clips(o) {
		clip = clip.Intersect(r)
		if _, ok := o.(fyne.Scrollable); ok {
			scroll = i
		}
	}
	var kids []fyne.CanvasObject
	switch c := o.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		if w.inside != nil {
			kids = w.inside(c)
		}
	}
	for _, k := range kids {
		w.visit(k, p, clip, scroll, hidden, region, layer)
	}
	w.nodes[i].end = len(w.nodes)
}

// keepInnermost drops the tappables that show other tappables, such as a
// pop-up's background, which a tap outside its content reaches: the
// controls are the ones inside. It also drops hidden parts that show
// nothing, and scroll bars.
func (w *walk) keepInnermost() {
	for i := range w.nodes {
		if !w.control[i] {
			continue
		}
		if k, t, _ := w.what(i); w.nodes[i].hidden && k == "tappable" && t == "" || scrollBar(w.nodes[i].obj) {
			delete(w.control, i)
			continue
		}
		for j := i + 1; j < w.nodes[i].end; j++ {
			if w.control[j] && !w.nodes[j].hidden {
				delete(w.control, i)
				break
			}
		}
	}
}

// scrollBar reports whether o is a scroll container's bar: a person
// scrolls with the wheel or a finger's drag on the content; the bar is
// not a control of the screen.
func scrollBar(o fyne.CanvasObject) bool {
	t := reflect.TypeOf(o)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.HasPrefix(t.Name(), "scrollBar") && strings.HasPrefix(t.PkgPath(), "fyne.io/fyne/v2/")
}

// clips reports whether o shows its contents only inside itself: a scroll
// container or a clip.
func clips(o fyne.CanvasObject) bool {
	switch o.(type) {
	case fyne.Scrollable, *container.Clip:
		return true
	}
	return false
}

// describe makes the Control of node i, with its problems.
func (w *walk) describe(i int, win Rect, top int) Control {
	n := w.nodes[i]
	c := Control{Rect: n.rect, Region: n.region, Layer: n.layer, Enabled: true, obj: n.obj}
	// The scroll container to turn is the innermost one whose view the
	// control leaves: inside a scrolled-away box of an outer one, the
	// outer one.
	target := n.scroll
	for s := n.scroll; s >= 0; s = w.nodes[s].scroll {
		if !n.rect.Within(w.nodes[s].rect) {
			target = s
			break
		}
	}
	var view Rect
	if target >= 0 {
		view = w.nodes[target].rect.Intersect(w.nodes[target].clip)
		c.Scroll = &view
		c.ScrollAt = w.scrollPoint(target)
	}
	c.Kind, c.Text, c.On = w.what(i)
	if m, ok := n.obj.(Marker); ok {
		c.Marks = m.Marks()
	}
	if b, ok := n.obj.(*widget.Button); ok && b.Icon != nil {
		c.Icon = b.Icon.Name()
	}
	if d, ok := n.obj.(interface{ Disabled() bool }); ok {
		c.Enabled = !d.Disabled()
	}
	seen := n.rect.Intersect(n.clip).Intersect(win)
	c.Tap = seen.Centre()
	if ck, ok := n.obj.(*widget.Check); ok {
		// A check answers only on its box and words, at its left, not
		// on the rest of its width.
		m := ck.MinSize()
		active := Rect{n.rect.X, n.rect.Y + (n.rect.H-m.Height)/2, min(m.Width, n.rect.W), min(m.Height, n.rect.H)}
		if a := active.Intersect(seen); !a.Empty() {
			c.Tap = a.Centre()
		}
	}
	var probs []string
	add := func(p string, detail string) {
		if detail != "" {
			p += ": " + detail
		}
		probs = append(probs, p)
	}
	switch {
	case n.hidden:
		add(Hidden, "")
	case n.rect.Empty():
		add(ZeroSize, "")
	default:
		if n.rect.W < Fingertip || n.rect.H < Fingertip {
			add(Small, fmt.Sprintf("%.0fx%.0f", n.rect.W, n.rect.H))
		}
		if !n.rect.Within(n.clip) {
			switch {
			case c.Scroll == nil || !view.Within(win):
				add(Clipped, "shown "+seen.String())
			case n.rect.W > view.W+0.5 || n.rect.H > view.H+0.5:
				add(Clipped, "larger than the "+view.String()+" its scroll container shows")
			default:
				c.OffView = true // a person scrolls to it
			}
		} else if !n.rect.Within(win) {
			add(Outside, fmt.Sprintf("the window is %.0fx%.0f", win.W, win.H))
		}
		if !c.OffView && !seen.Empty() {
			if n.layer < top {
				add(Covered, "by a pop-up")
			} else if hit := w.hit(c.Tap, n.layer); hit < 0 || hit < i || hit >= n.end {
				add(Covered, "by "+w.name(hit))
			} else if over := w.over(i, c.Tap); over >= 0 {
				add(Under, w.name(over))
			}
		}
	}
	c.Problems = probs
	return c
}

// hit is the node a click at p reaches, as the window finds it: the last
// drawn visible object under p in the top layer that takes a click, or
// -1.
func (w *walk) hit(p fyne.Position, layer int) int {
	found := -1
	for i, n := range w.nodes {
		if n.layer != layer || n.hidden || !n.rect.Contains(p) || !n.clip.Contains(p) {
			continue
		}
		if takesPointer(n.obj) {
			found = i
		}
	}
	return found
}

// scrollPoint is a point where the wheel or a drag reaches the scroll
// container of node k and no scroll container inside it (an entry has
// one): the middle of its visible area if that will do, else the first
// of a grid of points that does.
func (w *walk) scrollPoint(k int) fyne.Position {
	n := w.nodes[k]
	v := n.rect.Intersect(n.clip)
	reaches := func(p fyne.Position) bool {
		found := -1
		for i := k; i < len(w.nodes); i++ {
			m := w.nodes[i]
			if m.layer != n.layer || m.hidden || !m.rect.Contains(p) || !m.clip.Contains(p) {
				continue
			}
			if _, ok := m.obj.(fyne.Scrollable); ok {
				found = i
			}
		}
		return found == k
	}
	if p := v.Centre(); reaches(p) {
		return p
	}
	for _, fy := range []float32{0.5, 0.3, 0.7, 0.1, 0.9} {
		for _, fx := range []float32{0.5, 0.05, 0.95, 0.25, 0.75} {
			if p := fyne.NewPos(v.X+fx*v.W, v.Y+fy*v.H); reaches(p) {
				return p
			}
		}
	}
	return v.Centre()
}

// takesPointer reports whether a click on o goes to o, as the desktop
// window finds the object a click is for.
func takesPointer(o fyne.CanvasObject) bool {
	switch o.(type) {
	case fyne.Tappable, fyne.SecondaryTappable, fyne.DoubleTappable, fyne.Focusable, desktop.Mouseable:
		return true
	}
	return false
}

// over is an opaque shape drawn after node i, not part of it, over p, or -1.
func (w *walk) over(i int, p fyne.Position) int {
	n := w.nodes[i]
	for j := n.end; j < len(w.nodes); j++ {
		m := w.nodes[j]
		if m.hidden || m.layer != n.layer || !m.rect.Contains(p) || !m.clip.Contains(p) || !opaque(m.obj) {
			continue
		}
		return j
	}
	return -1
}

// opaque reports whether o hides what is drawn under it.
func opaque(o fyne.CanvasObject) bool {
	switch s := o.(type) {
	case *canvas.Rectangle:
		_, _, _, a := s.FillColor.RGBA()
		return a >= 0xc000
	case *canvas.Image:
		return true
	}
	return false
}

// name says what node i is, for a problem.
func (w *walk) name(i int) string {
	if i < 0 {
		return "nothing"
	}
	o := w.nodes[i].obj
	if w.control[i] {
		k, t, _ := w.what(i)
		return fmt.Sprintf("%s %q", k, t)
	}
	t := fmt.Sprintf("%T", o)
	if r := w.nodes[i].region; r != "" {
		t += " of " + r
	}
	if rc, ok := o.(*canvas.Rectangle); ok {
		c := color.NRGBAModel.Convert(rc.FillColor).(color.NRGBA)
		t += fmt.Sprintf(" #%02x%02x%02x", c.R, c.G, c.B)
	}
	return t + " " + w.nodes[i].rect.String()
}

// what says what kind of control node i is, what it shows and whether it
// is on.
func (w *walk) what(i int) (kind, text string, on bool) {
	o := w.nodes[i].obj
	if s, ok := o.(Shower); ok {
		k, t := s.Shows()
		return k, t, false
	}
	switch c := o.(type) {
	case *widget.Button:
		return "button", c.Text, false
	case *widget.Check:
		return "check", c.Text, c.Checked
	case *widget.Entry:
		return "entry", c.Text, false
	case *widget.Select:
		return "select", c.Selected, false
	case *widget.Hyperlink:
		return "link", c.Text, false
	}
	// Fyne's radio option and menu item are unexported types.
	v := reflect.Indirect(reflect.ValueOf(o))
	if v.Kind() == reflect.Struct && v.Type().Name() == "menuItem" {
		return "menu", strings.Join(w.texts(i), " "), false
	}
	if v.Kind() == reflect.Struct && strings.HasPrefix(v.Type().Name(), "radio") {
		if l := v.FieldByName("Label"); l.IsValid() && l.Kind() == reflect.String {
			sel := v.FieldByName("Selected")
			return "radio", l.String(), sel.IsValid() && sel.Kind() == reflect.Bool && sel.Bool()
		}
	}
	return "tappable", strings.Join(w.texts(i), " "), false
}

// texts are the visible texts drawn inside node i.
func (w *walk) texts(i int) []string {
	var out []string
	for j := i + 1; j < w.nodes[i].end; j++ {
		if t, ok := w.nodes[j].obj.(*canvas.Text); ok && !w.nodes[j].hidden && t.Text != "" {
			out = append(out, t.Text)
		}
	}
	return out
}

// drawn is where text t, laid out in r, draws its letters: a text object
// may be wider than its words, which its alignment places in it.
func drawn(t *canvas.Text, r Rect) Rect {
	w := min(t.MinSize().Width, r.W)
	switch t.Alignment {
	case fyne.TextAlignCenter:
		r.X += (r.W - w) / 2
	case fyne.TextAlignTrailing:
		r.X += r.W - w
	}
	r.W = w
	return r
}

// regionLayout is a layout with a name: a container laid out by it is a
// named part of the screen.
type regionLayout struct {
	inner fyne.Layout
	name  string
}

func (r regionLayout) Region() string { return r.name }

func (r regionLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) { r.inner.Layout(objs, size) }

func (r regionLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return r.inner.MinSize(objs) }

// Region is a container named name that stacks objs, as
// container.NewStack does.
func Region(name string, objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(regionLayout{inner: layout.NewStackLayout(), name: name}, objs...)
}

// Named gives a container's layout a name, keeping how it lays out.
func Named(name string, l fyne.Layout) fyne.Layout { return regionLayout{inner: l, name: name} }
