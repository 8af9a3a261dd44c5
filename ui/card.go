package ui

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
)

// Suit colours. Each colour also has its own mark (suitMark), so that the
// suits differ for a person who does not tell the colours apart.
var suitColours = map[engine.Colour]color.NRGBA{
	engine.Red:    {R: 0xc6, G: 0x28, B: 0x28, A: 0xff},
	engine.Black:  {R: 0x21, G: 0x21, B: 0x21, A: 0xff},
	engine.Blue:   {R: 0x15, G: 0x65, B: 0xc0, A: 0xff},
	engine.Green:  {R: 0x2e, G: 0x7d, B: 0x32, A: 0xff},
	engine.Yellow: {R: 0xc7, G: 0x8a, B: 0x00, A: 0xff},
}

// suitColour is the colour cards of colour c are drawn in.
func suitColour(c engine.Colour) color.NRGBA {
	if col, ok := suitColours[c]; ok {
		return col
	}
	return color.NRGBA{R: 0x75, G: 0x75, B: 0x75, A: 0xff}
}

// Seat colours mark blocks on the board and the seats' badges.
var seatColours = []color.NRGBA{
	{R: 0x6a, G: 0x1b, B: 0x9a, A: 0xff}, // purple
	{R: 0xe6, G: 0x51, B: 0x00, A: 0xff}, // orange
	{R: 0x00, G: 0x83, B: 0x8f, A: 0xff}, // teal
	{R: 0xad, G: 0x14, B: 0x57, A: 0xff}, // magenta
	{R: 0x4e, G: 0x34, B: 0x2e, A: 0xff}, // brown
}

func seatColour(s int) color.NRGBA {
	if s < 0 {
		return edgeGrey
	}
	return seatColours[s%len(seatColours)]
}

// inShape reports whether the point (x, y), both in -1..1 with y down, lies
// in the mark of colour c: red a heart, black a spade, blue a diamond, green
// a club, yellow a star.
func inShape(c engine.Colour, x, y float64) bool {
	circle := func(cx, cy, r float64) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }
	switch c {
	case engine.Red:
		return circle(-0.42, -0.3, 0.45) || circle(0.42, -0.3, 0.45) ||
			(y >= -0.3 && y <= 0.95 && math.Abs(x) <= 0.86*(0.95-y)/1.25)
	case engine.Black:
		stem := math.Abs(x) <= 0.12+0.25*(y-0.35) && y >= 0.35 && y <= 0.95
		return circle(-0.42, 0.25, 0.42) || circle(0.42, 0.25, 0.42) ||
			(y <= 0.25 && y >= -0.95 && math.Abs(x) <= 0.84*(y+0.95)/1.2) || stem
	case engine.Blue:
		return math.Abs(x)/0.75+math.Abs(y) <= 1
	case engine.Green:
		stem := math.Abs(x) <= 0.1+0.25*(y-0.3) && y >= 0.3 && y <= 0.95
		return circle(0, -0.45, 0.36) || circle(-0.45, 0.12, 0.36) || circle(0.45, 0.12, 0.36) || stem
	case engine.Yellow:
		return inStar(x, y)
	}
	return circle(0, 0, 0.7)
}

// inStar reports whether (x, y) lies in a five-pointed star of radius 1,
// by the even-odd rule over its ten corners.
func inStar(x, y float64) bool {
	var px, py [10]float64
	for i := range 10 {
		r := 1.0
		if i%2 == 1 {
			r = 0.42
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		px[i], py[i] = r*math.Cos(a), r*math.Sin(a)+0.08
	}
	in := false
	for i, j := 0, 9; i < 10; j, i = i, i+1 {
		if (py[i] > y) != (py[j] > y) && x < (px[j]-px[i])*(y-py[i])/(py[j]-py[i])+px[i] {
			in = !in
		}
	}
	return in
}

// suitMark is the drawn mark of colour c, in colour col.
func suitMark(c engine.Colour, col color.Color) *canvas.Raster {
	r := canvas.NewRaster(func(w, h int) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		side := float64(min(w, h))
		if side <= 0 {
			return img
		}
		ox, oy := (float64(w)-side)/2, (float64(h)-side)/2
		c0 := color.NRGBAModel.Convert(col).(color.NRGBA)
		for py := 0; py < h; py++ {
			for px := 0; px < w; px++ {
				// four samples per pixel for smooth edges
				n := 0
				for _, d := range [4][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
					x := (float64(px)+d[0]-ox)/side*2 - 1
					y := (float64(py)+d[1]-oy)/side*2 - 1
					if inShape(c, x*1.05, y*1.05) {
						n++
					}
				}
				if n > 0 {
					img.SetNRGBA(px, py, color.NRGBA{R: c0.R, G: c0.G, B: c0.B, A: uint8(int(c0.A) * n / 4)})
				}
			}
		}
		return img
	})
	r.ScaleMode = canvas.ImageScaleSmooth
	return r
}

// cardView draws one card: its value large in the corner, the mark of its
// colour in the middle and the value again small at the foot. A trump has a
// band of its colour along the foot, with the small value in white on it; a
// supertrump's band is gold and says "S". Neither covers the large value. A
// card that may not be used now is dimmed; one that may has a gold edge.
type cardView struct {
	widget.BaseWidget
	card    engine.Card
	usable  bool // may be tapped to answer the question
	dim     bool // shown dimmed: not usable now
	trump   bool
	super   bool
	focused bool // the keyboard's current card
	lit     bool // the card that won the trick
	tapped
}

// cardState is how a card is shown, apart from the card itself.
type cardState struct {
	usable, dim, trump, super, focused, lit bool
}

func (v *cardView) state() cardState {
	return cardState{usable: v.usable, dim: v.dim, trump: v.trump, super: v.super, focused: v.focused, lit: v.lit}
}

func (v *cardView) setState(s cardState) {
	v.usable, v.dim, v.trump, v.super, v.focused, v.lit = s.usable, s.dim, s.trump, s.super, s.focused, s.lit
}

func newCardView(c engine.Card, onTap func()) *cardView {
	v := &cardView{card: c, tapped: tapped{onTap}}
	v.ExtendBaseWidget(v)
	return v
}

// Shows names the card ("red7"), for a person's eyes in tests and the
// probe.
func (v *cardView) Shows() (kind, what string) { return "card", v.card.String() }

// Disabled reports whether the card does not answer the question now.
func (v *cardView) Disabled() bool { return !v.usable }

func (v *cardView) MinSize() fyne.Size { return fyne.NewSize(40, 58) }

func (v *cardView) CreateRenderer() fyne.WidgetRenderer {
	col := suitColour(v.card.Colour())
	r := &cardRenderer{v: v,
		bg:    canvas.NewRectangle(cardFace),
		value: canvas.NewText(strconv.Itoa(v.card.Value()), col),
		small: canvas.NewText(strconv.Itoa(v.card.Value()), col),
		mark:  suitMark(v.card.Colour(), col),
		band:  canvas.NewRectangle(col),
		star:  canvas.NewText("S", white),
		veil:  canvas.NewRectangle(shade),
	}
	r.bg.CornerRadius = 6
	r.bg.StrokeWidth = 1.5
	r.veil.CornerRadius = 6
	r.value.TextStyle.Bold = true
	r.small.TextStyle.Bold = true
	r.star.TextStyle.Bold = true
	r.band.BottomLeftCornerRadius, r.band.BottomRightCornerRadius = 6, 6 // the card's own corners
	r.refreshState()
	return r
}

type cardRenderer struct {
	v            *cardView
	bg, band     *canvas.Rectangle
	value, small *canvas.Text
	star         *canvas.Text
	mark         *canvas.Raster
	veil         *canvas.Rectangle
}

func (r *cardRenderer) Layout(size fyne.Size) {
	w, h := size.Width, size.Height
	r.bg.Resize(size)
	r.veil.Resize(size)
	ts := max(12, w*0.42)
	r.value.TextSize = ts
	r.value.Move(fyne.NewPos(w*0.08, h*0.01))
	r.value.Resize(r.value.MinSize())
	// The foot: the band of a trump, the small value and the supertrump's S.
	footH := h * footShare
	footY := h - footH
	r.band.Move(fyne.NewPos(0, footY))
	r.band.Resize(fyne.NewSize(w, footH))
	r.small.TextSize = max(8, min(w*0.22, footH*0.72))
	ss := r.small.MinSize()
	r.small.Move(fyne.NewPos(w-ss.Width-w*0.08, footY+(footH-ss.Height)/2))
	r.small.Resize(ss)
	r.star.TextSize = r.small.TextSize
	st := r.star.MinSize()
	r.star.Move(fyne.NewPos(w*0.08, footY+(footH-st.Height)/2))
	r.star.Resize(st)
	m := min(w*0.6, footY-h*0.38-h*0.02)
	r.mark.Move(fyne.NewPos((w-m)/2, h*0.38))
	r.mark.Resize(fyne.NewSize(m, m))
}

// footShare is the part of a card's height its foot takes.
const footShare = 0.19

func (r *cardRenderer) MinSize() fyne.Size { return r.v.MinSize() }

func (r *cardRenderer) refreshState() {
	v := r.v
	col := suitColour(v.card.Colour())
	r.bg.StrokeColor = edgeGrey
	r.bg.StrokeWidth = 1.5
	if v.usable || v.lit {
		r.bg.StrokeColor, r.bg.StrokeWidth = gold, 3
	}
	if v.focused {
		r.bg.StrokeColor, r.bg.StrokeWidth = pickBlue, 4
	}
	r.band.Hidden = !v.trump && !v.super
	r.band.FillColor = col
	r.small.Color = col
	if v.trump {
		r.small.Color = white
	}
	r.star.Hidden = !v.super
	if v.super {
		r.band.FillColor, r.small.Color, r.star.Color = gold, ink, ink
	}
	r.veil.Hidden = !v.dim
}

func (r *cardRenderer) Refresh() {
	r.refreshState()
	r.Layout(r.v.Size())
	canvas.Refresh(r.v)
}

func (r *cardRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.band, r.value, r.mark, r.small, r.star, r.veil}
}

func (r *cardRenderer) Destroy() {}
