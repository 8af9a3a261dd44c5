package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// appTheme is Fyne's theme with the app's colours and sizes, in the light,
// dark or system variant the settings choose.
type appTheme struct {
	base  fyne.Theme
	force string // ThemeLight, ThemeDark or ThemeSystem
}

func newAppTheme(choice string) *appTheme {
	return &appTheme{base: theme.DefaultTheme(), force: choice}
}

// variant is the variant to draw in, after the settings' choice.
func (t *appTheme) variant(v fyne.ThemeVariant) fyne.ThemeVariant {
	switch t.force {
	case ThemeLight:
		return theme.VariantLight
	case ThemeDark:
		return theme.VariantDark
	}
	return v
}

// The palette: a card table's felt and cream, with gold for what to press.
var (
	lightPalette = map[fyne.ThemeColorName]color.Color{
		theme.ColorNameBackground:        color.NRGBA{0xF3, 0xEE, 0xE1, 0xFF},
		theme.ColorNameHeaderBackground:  color.NRGBA{0xE6, 0xDD, 0xC8, 0xFF},
		theme.ColorNameButton:            color.NRGBA{0xE4, 0xDB, 0xC4, 0xFF},
		theme.ColorNameInputBackground:   color.NRGBA{0xFB, 0xF8, 0xF0, 0xFF},
		theme.ColorNameMenuBackground:    color.NRGBA{0xFB, 0xF8, 0xF0, 0xFF},
		theme.ColorNameOverlayBackground: color.NRGBA{0xFB, 0xF8, 0xF0, 0xFF},
		theme.ColorNamePrimary:           color.NRGBA{0x1B, 0x6E, 0x45, 0xFF},
		theme.ColorNameForeground:        color.NRGBA{0x1E, 0x24, 0x22, 0xFF},
		theme.ColorNameSeparator:         color.NRGBA{0xD3, 0xC8, 0xAE, 0xFF},
		theme.ColorNameHyperlink:         color.NRGBA{0x1B, 0x6E, 0x45, 0xFF},
		theme.ColorNameFocus:             color.NRGBA{0x1B, 0x6E, 0x45, 0x55},
		theme.ColorNameSelection:         color.NRGBA{0x1B, 0x6E, 0x45, 0x33},
		theme.ColorNameHover:             color.NRGBA{0x1B, 0x6E, 0x45, 0x1A},
		// A darker red than Fyne's: an error or a failed check reads at
		// about 6:1 on the page rather than 3:1.
		theme.ColorNameError: color.NRGBA{0xB0, 0x24, 0x1B, 0xFF},
	}
	darkPalette = map[fyne.ThemeColorName]color.Color{
		theme.ColorNameBackground:          color.NRGBA{0x12, 0x24, 0x1B, 0xFF},
		theme.ColorNameHeaderBackground:    color.NRGBA{0x19, 0x30, 0x24, 0xFF},
		theme.ColorNameButton:              color.NRGBA{0x20, 0x3B, 0x2D, 0xFF},
		theme.ColorNameInputBackground:     color.NRGBA{0x1A, 0x31, 0x25, 0xFF},
		theme.ColorNameMenuBackground:      color.NRGBA{0x1A, 0x31, 0x25, 0xFF},
		theme.ColorNameOverlayBackground:   color.NRGBA{0x1A, 0x31, 0x25, 0xFF},
		theme.ColorNamePrimary:             color.NRGBA{0xE0, 0xB2, 0x3E, 0xFF},
		theme.ColorNameForegroundOnPrimary: color.NRGBA{0x12, 0x24, 0x1B, 0xFF},
		theme.ColorNameForeground:          color.NRGBA{0xEE, 0xF0, 0xEA, 0xFF},
		theme.ColorNameSeparator:           color.NRGBA{0x2E, 0x4D, 0x3C, 0xFF},
		theme.ColorNameInputBorder:         color.NRGBA{0x7F, 0x9E, 0x8C, 0xFF},
		theme.ColorNameHyperlink:           color.NRGBA{0xE0, 0xB2, 0x3E, 0xFF},
		theme.ColorNameFocus:               color.NRGBA{0xE0, 0xB2, 0x3E, 0x66},
		theme.ColorNameSelection:           color.NRGBA{0xE0, 0xB2, 0x3E, 0x40},
		theme.ColorNameHover:               color.NRGBA{0xE0, 0xB2, 0x3E, 0x1F},
	}
)

// The tables' colours, the same in every theme: the felt and the cards'
// cream, gold for what fits or is to press, white and ink for words. The
// Game's piles rise in blue and fall in vermilion, its command cards are
// purple (Okabe and Ito's palette, which stays apart for colour-blind
// eyes).
var (
	cardFace      = color.NRGBA{R: 0xfd, G: 0xfb, B: 0xf5, A: 0xff}
	feltColour    = color.NRGBA{R: 0x1f, G: 0x5e, B: 0x3a, A: 0xff}
	feltDark      = color.NRGBA{R: 0x17, G: 0x48, B: 0x2c, A: 0xff}
	gold          = color.NRGBA{R: 0xff, G: 0xc1, B: 0x07, A: 0xff}
	white         = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	ink           = color.NRGBA{R: 0x21, G: 0x21, B: 0x21, A: 0xff}
	shade         = color.NRGBA{R: 0x60, G: 0x60, B: 0x60, A: 0x90}
	edgeGrey      = color.NRGBA{R: 0x9e, G: 0x9e, B: 0x9e, A: 0xff} // a card's plain edge
	pickBlue      = color.NRGBA{R: 0x29, G: 0x79, B: 0xff, A: 0xff} // the card the keyboard or a tap picked
	tgUpColour    = color.NRGBA{R: 0x00, G: 0x5A, B: 0x8C, A: 0xff}
	tgDownColour  = color.NRGBA{R: 0xA8, G: 0x44, B: 0x00, A: 0xff}
	tgCmdColour   = color.NRGBA{R: 0x6A, G: 0x2C, B: 0x7A, A: 0xff}
	tgTrickColour = color.NRGBA{R: 0x00, G: 0x6E, B: 0x52, A: 0xff}
	tgDimInk      = color.NRGBA{R: 0x8A, G: 0x8A, B: 0x8A, A: 0xff}
)

func (t *appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	v = t.variant(v)
	pal := lightPalette
	if v == theme.VariantDark {
		pal = darkPalette
	}
	if c, ok := pal[n]; ok {
		return c
	}
	return t.base.Color(n, v)
}

func (t *appTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base.Font(s) }

func (t *appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

// Size makes text readable on a phone and controls big enough for a finger
// (at least 44 units high).
func (t *appTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNameText:
		return 16
	case theme.SizeNameInnerPadding:
		return 12
	case theme.SizeNameHeadingText:
		return 26
	case theme.SizeNameSubHeadingText:
		return 20
	}
	return t.base.Size(n)
}

// seatColors are colours that stay apart for colour-blind eyes (after
// Okabe and Ito); the icon's card bands use them.
var seatColors = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermilion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
}
