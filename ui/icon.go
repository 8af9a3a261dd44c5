package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"fyne.io/fyne/v2"
)

// The app icon is drawn here, not shipped as art: a fan of three cards on
// the felt, the front one showing the "no" sign that gives the game its name.
// TestIcon keeps Icon.png at the module root (used by FyneApp.toml) equal to
// iconImage(512).

// iconSize is the side of the window icon drawn at start.
const iconSize = 128

var (
	iconOnce sync.Once
	iconRes  fyne.Resource
)

// Icon is the app's icon as a PNG resource.
func Icon() fyne.Resource {
	iconOnce.Do(func() {
		var buf bytes.Buffer
		if err := png.Encode(&buf, iconImage(iconSize)); err != nil {
			fyne.LogError("drawing the icon", err)
			return
		}
		iconRes = fyne.NewStaticResource("Icon.png", buf.Bytes())
	})
	return iconRes
}

// iconShape is one layer of the icon: a coverage test in unit coordinates
// (0..1 across the icon) and its colour at that point.
type iconShape struct {
	inside func(x, y float64) bool
	paint  func(x, y float64) color.NRGBA
}

func flat(c color.NRGBA) func(x, y float64) color.NRGBA {
	return func(x, y float64) color.NRGBA { return c }
}

// roundRect reports whether (x, y) lies in the rectangle of half sizes hw, hh
// around (cx, cy), turned by angle a (radians), with corner radius r.
func roundRect(cx, cy, hw, hh, r, a float64) func(x, y float64) bool {
	sin, cos := math.Sincos(-a)
	return func(x, y float64) bool {
		dx, dy := x-cx, y-cy
		px := math.Abs(dx*cos - dy*sin)
		py := math.Abs(dx*sin + dy*cos)
		qx, qy := px-(hw-r), py-(hh-r)
		if qx <= 0 || qy <= 0 {
			return px <= hw && py <= hh
		}
		return qx*qx+qy*qy <= r*r
	}
}

// ring reports whether (x, y) lies in the ring of radius r and width w.
func ring(cx, cy, r, w float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		d := math.Hypot(x-cx, y-cy)
		return math.Abs(d-r) <= w/2
	}
}

// bar reports whether (x, y) lies within w/2 of the segment (x0,y0)-(x1,y1).
func bar(x0, y0, x1, y1, w float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		vx, vy := x1-x0, y1-y0
		t := ((x-x0)*vx + (y-y0)*vy) / (vx*vx + vy*vy)
		t = math.Max(0, math.Min(1, t))
		return math.Hypot(x-(x0+t*vx), y-(y0+t*vy)) <= w/2
	}
}

// iconShapes lists the icon's layers, back to front.
func iconShapes() []iconShape {
	felt := func(x, y float64) color.NRGBA {
		k := 1 - 0.35*math.Hypot(x-0.5, y-0.42)
		return color.NRGBA{uint8(0x1B * k), uint8(0x7A * k), uint8(0x4C * k), 0xFF}
	}
	cream := color.NRGBA{0xFB, 0xF6, 0xE8, 0xFF}
	edge := color.NRGBA{0x0E, 0x3B, 0x26, 0xFF}
	shapes := []iconShape{{roundRect(0.5, 0.5, 0.5, 0.5, 0.18, 0), felt}}
	// Three cards fanned from a point below the centre.
	const pivotX, pivotY = 0.5, 1.05
	bands := []color.NRGBA{seatColors[0], seatColors[2], seatColors[1]}
	for i, deg := range []float64{-20, 20, 0} {
		a := deg * math.Pi / 180
		s, c := math.Sincos(a)
		// The card's centre sits 0.55 above the pivot, turned by a.
		cx, cy := pivotX+0.55*s, pivotY-0.55*c
		shapes = append(shapes,
			iconShape{roundRect(cx, cy, 0.205, 0.3, 0.045, a), flat(edge)},
			iconShape{roundRect(cx, cy, 0.19, 0.285, 0.035, a), flat(cream)},
		)
		if i < 2 {
			// A band of colour along the top of the two back cards.
			bx, by := cx+0.2*s, cy-0.2*c
			shapes = append(shapes, iconShape{roundRect(bx, by, 0.16, 0.05, 0.02, a), flat(bands[i])})
		}
	}
	// The "no" sign on the front card.
	no := color.NRGBA{0xD5, 0x3E, 0x1A, 0xFF}
	const sx, sy, sr = 0.5, 0.5, 0.13
	d := sr * math.Sqrt2 / 2
	shapes = append(shapes,
		iconShape{ring(sx, sy, sr, 0.05), flat(no)},
		iconShape{bar(sx-d, sy-d, sx+d, sy+d, 0.05), flat(no)},
	)
	return shapes
}

// iconImage draws the icon at size×size pixels, four by four samples a
// pixel for smooth edges.
func iconImage(size int) *image.NRGBA {
	const ss = 4
	shapes := iconShapes()
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/ss) / float64(size)
					for i := len(shapes) - 1; i >= 0; i-- {
						if shapes[i].inside(x, y) {
							c := shapes[i].paint(x, y)
							r += float64(c.R)
							g += float64(c.G)
							b += float64(c.B)
							a += 255
							break
						}
					}
				}
			}
			if a == 0 {
				continue
			}
			// Colour is averaged over covered samples; alpha over all.
			n := a / 255
			img.SetNRGBA(px, py, color.NRGBA{uint8(r / n), uint8(g / n), uint8(b / n), uint8(a / (ss * ss))})
		}
	}
	return img
}
